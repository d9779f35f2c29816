// Input and output schemas of the company procedures: the single truth for their rules. Pure zod (no
// database code), so the admin forms import them for their HTML constraints (app/utils/constraints.ts).
import { t } from '#domain/texts/common.ts';
import { listLimit, rowId, z } from '#domain/zod.ts';

export const INVOICE_INTERVALS = ['monthly', 'quarterly', 'biannually', 'annually'] as const;
export type InvoiceInterval = (typeof INVOICE_INTERVALS)[number];

export const COMPANY_LIMITS = { name: 200, customerNumber: 50, invoiceNote: 200 } as const;

const text = (field: string, max: number, required: string | null) => {
  const base = z
    .string({ error: t.errors.fields.text(field) })
    .trim()
    .max(max, t.errors.fields.maxChars(field, max));
  return required ? base.min(1, required) : base;
};

export const companyFields = {
  name: text(t.errors.fields.companyName, COMPANY_LIMITS.name, t.errors.fields.companyNameMissing),
  customerNumber: text(
    t.errors.fields.customerNumber,
    COMPANY_LIMITS.customerNumber,
    t.errors.fields.customerNumberMissing,
  ),
  invoiceNote: text(t.errors.fields.invoiceNote, COMPANY_LIMITS.invoiceNote, null),
  invoiceInterval: z.enum(INVOICE_INTERVALS, { error: t.errors.fields.invoiceInterval }),
};

export const listQuery = {
  q: z.string().trim().max(200, t.errors.fields.maxChars(t.errors.fields.search, 200)).optional(),
  limit: listLimit(),
  offset: z.coerce.number().int().min(0, t.errors.fields.negative('offset')).optional(),
};

export const createCompanyInput = z.object({
  name: companyFields.name,
  customerNumber: companyFields.customerNumber,
  invoiceNote: companyFields.invoiceNote.default(''),
  invoiceInterval: companyFields.invoiceInterval.default('monthly'),
});
export const updateCompanyInput = z.object({
  id: rowId(),
  name: companyFields.name,
  customerNumber: companyFields.customerNumber,
  invoiceNote: companyFields.invoiceNote,
  invoiceInterval: companyFields.invoiceInterval,
});

export const companyOutput = z.object({
  id: z.number(),
  name: z.string(),
  customerNumber: z.string(),
  invoiceNote: z.string(),
  invoiceInterval: z.enum(INVOICE_INTERVALS),
});
export type CompanyView = z.infer<typeof companyOutput>;
