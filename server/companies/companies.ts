// Companies, for super admins: list and search, create, read with its users, update.
// Each change runs in one transaction together with its audit row.
import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import { z } from 'zod';
import { t } from '../../app/texts.js';
import { Company, INVOICE_INTERVALS, User } from '../db/entities.js';
import type { Em } from '../db/orm.js';
import { userView, type UserView } from '../users/users.js';
import { recordAudit, type Actor } from './audit.js';
import { Conflict, NotFound } from '../errors/domain.js';
import { likePattern } from './like.js';

export const COMPANY_LIMITS = { name: 200, customerNumber: 50, invoiceNote: 200 } as const;
// Without a limit a list is whole (the spec's REST lists); the screens page with their own.
export const LIST_LIMIT = { max: 10_000 } as const;

const text = (field: string, max: number, required: string | null) => {
  const base = z.string({ error: t.errors.fields.text(field) }).trim().max(max, t.errors.fields.maxChars(field, max));
  return required ? base.min(1, required) : base;
};

export const companyFields = {
  name: text(t.errors.fields.companyName, COMPANY_LIMITS.name, t.errors.fields.companyNameMissing),
  customerNumber: text(t.errors.fields.customerNumber, COMPANY_LIMITS.customerNumber, t.errors.fields.customerNumberMissing),
  invoiceNote: text(t.errors.fields.invoiceNote, COMPANY_LIMITS.invoiceNote, null),
  invoiceInterval: z.enum(INVOICE_INTERVALS, { error: t.errors.fields.invoiceInterval }),
};

export const listQuery = {
  q: z.string().trim().max(200, t.errors.fields.maxChars(t.errors.fields.search, 200)).optional(),
  limit: z.coerce
    .number()
    .int()
    .min(1, t.validation.atLeast('limit', '1'))
    .max(LIST_LIMIT.max, t.validation.atMost('limit', String(LIST_LIMIT.max)))
    .optional(),
  offset: z.coerce.number().int().min(0, t.errors.fields.negative('offset')).optional(),
};

export const createCompanyInput = z.object({
  name: companyFields.name,
  customerNumber: companyFields.customerNumber,
  invoiceNote: companyFields.invoiceNote.default(''),
  invoiceInterval: companyFields.invoiceInterval.default('monthly'),
});
export const updateCompanyInput = z.object({
  id: z.coerce.number().int().positive(),
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

export function companyView(c: Company): CompanyView {
  return { id: c.id, name: c.name, customerNumber: c.customerNumber, invoiceNote: c.invoiceNote, invoiceInterval: c.invoiceInterval };
}

const snapshot = (c: CompanyView) => ({ name: c.name, customerNumber: c.customerNumber, invoiceNote: c.invoiceNote, invoiceInterval: c.invoiceInterval });

export type ListOptions = { q?: string; limit?: number; offset?: number };

/** Companies whose name, customer number or invoice mark contains q (any case), by name. */
export async function listCompanies(em: Em, opts: ListOptions = {}): Promise<CompanyView[]> {
  const q = opts.q?.trim();
  const where = q
    ? { $or: [{ name: { $ilike: likePattern(q) } }, { customerNumber: { $ilike: likePattern(q) } }, { invoiceNote: { $ilike: likePattern(q) } }] }
    : {};
  const rows = await em.find(Company, where, {
    orderBy: { name: 'asc', id: 'asc' },
    limit: opts.limit,
    offset: opts.offset ?? 0,
  });
  return rows.map(companyView);
}

async function ensureCustomerNumberFree(em: Em, customerNumber: string, exceptId?: number) {
  const other = await em.findOne(Company, { customerNumber });
  if (other && other.id !== exceptId) throw new Conflict(t.errors.customerNumberTaken, 'customerNumber');
}

/** A unique index may still refuse when two admins save at once: answer as for the check above. */
async function translatingConflicts<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    if (e instanceof UniqueConstraintViolationException) throw new Conflict(t.errors.customerNumberTaken, 'customerNumber');
    throw e;
  }
}

export async function createCompany(em: Em, actor: Actor, input: z.output<typeof createCompanyInput>): Promise<CompanyView> {
  return translatingConflicts(() =>
    em.transactional(async (tx) => {
      await ensureCustomerNumberFree(tx, input.customerNumber);
      const company = tx.create(Company, {
        name: input.name,
        customerNumber: input.customerNumber,
        invoiceNote: input.invoiceNote,
        invoiceInterval: input.invoiceInterval,
      });
      await tx.flush();
      const view = companyView(company);
      recordAudit(tx, actor, { action: 'createCompany', targetType: 'Company', targetId: company.id, before: null, after: snapshot(view) });
      await tx.flush();
      return view;
    }),
  );
}

export async function updateCompany(em: Em, actor: Actor, input: z.output<typeof updateCompanyInput>): Promise<CompanyView> {
  return translatingConflicts(() =>
    em.transactional(async (tx) => {
      // Locked, like a SIM edit: parallel updates then take turns, so each audit row's before is the
      // previous one's after. The row alone (no join), and read afresh under the lock.
      const company = await tx.findOne(Company, { id: input.id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
      if (!company) throw new NotFound(t.errors.companyNotFound);
      if (input.customerNumber !== company.customerNumber) await ensureCustomerNumberFree(tx, input.customerNumber, company.id);
      const before = snapshot(companyView(company));
      company.name = input.name;
      company.customerNumber = input.customerNumber;
      company.invoiceNote = input.invoiceNote;
      company.invoiceInterval = input.invoiceInterval;
      const after = snapshot(companyView(company));
      recordAudit(tx, actor, { action: 'updateCompany', targetType: 'Company', targetId: company.id, before, after });
      await tx.flush();
      return companyView(company);
    }),
  );
}

/** One company with its users; q, limit and offset search and page the users (name or e-mail). */
export async function getCompany(em: Em, id: number, users: ListOptions = {}): Promise<CompanyView & { users: UserView[] }> {
  const company = await em.findOne(Company, { id });
  if (!company) throw new NotFound(t.errors.companyNotFound);
  const q = users.q?.trim();
  const where = q ? { company, $or: [{ name: { $ilike: likePattern(q) } }, { email: { $ilike: likePattern(q) } }] } : { company };
  const rows = await em.find(User, where, {
    orderBy: { name: 'asc', id: 'asc' },
    limit: users.limit,
    offset: users.offset ?? 0,
  });
  return { ...companyView(company), users: rows.map(userView) };
}
