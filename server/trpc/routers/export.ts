// Export procedures: the default period of the form, and the invoice specification as a streamed xlsx.
// In-process only (GET /api/export/getExcelV1 and GET /api/sim/export call them): a stream is no JSON answer.
import { t } from '#domain/texts/common.ts';
import { z } from '#domain/zod.ts';
import { Company } from '#server/db/entities.ts';
import { NotFound } from '#domain/errors.ts';
import { invoiceSpecification } from '#server/export/invoice-specification.ts';
import { defaultPeriod, yearMonthInZone } from '#domain/export/periods.ts';
import { checkExportQuery } from '#domain/export/query.ts';
import { listExport, listExportQuery } from '#server/sims/list-file.ts';
import { companyProcedure, router } from '#server/trpc/trpc.ts';

const rawNumber = z.union([z.string(), z.number()]).nullish();

/** start_year, start_month, end_year, end_month as typed; the rules are checkExportQuery's. */
export const exportQueryInput = z
  .object({ start_year: rawNumber, start_month: rawNumber, end_year: rawNumber, end_month: rawNumber })
  .transform((raw, ctx) => {
    const r = checkExportQuery(raw, yearMonthInZone(new Date()));
    if (r.ok) return r.value;
    for (const issue of r.issues) ctx.addIssue({ code: 'custom', path: [issue.field], message: issue.message });
    return z.NEVER;
  });

async function companyOf(ctx: { em: import('#server/db/orm.ts').Em; companyId: number }) {
  const company = await ctx.em.findOne(Company, ctx.companyId, { disableIdentityMap: true });
  if (!company) throw new NotFound(t.errors.companyNotFound);
  return company;
}

export const exportRouter = router({
  /** The values the form starts with: the previous full invoicing period of the company's interval. */
  defaultPeriod: companyProcedure
    .input(z.void())
    .output(z.object({ start_year: z.number(), start_month: z.number(), end_year: z.number(), end_month: z.number() }))
    .query(async ({ ctx }) => {
      const company = await companyOf(ctx);
      const p = defaultPeriod(company.invoiceInterval, yearMonthInZone(new Date()));
      return { start_year: p.start.year, start_month: p.start.month, end_year: p.end.year, end_month: p.end.month };
    }),

  /** The workbook of the session's company (the acting company for a super admin), being written. */
  invoiceSpecification: companyProcedure.input(exportQueryInput).query(async ({ ctx, input }) => {
    const company = await companyOf(ctx);
    return invoiceSpecification(
      ctx.em,
      ctx.services.log,
      { id: company.id, name: company.name, customerNumber: company.customerNumber, invoiceNote: company.invoiceNote },
      input,
    );
  }),

  /** The session company's SIMs matching the /sims search, as CSV or XLSX being written (GET /api/sim/export). */
  simList: companyProcedure
    .input(listExportQuery)
    .query(({ ctx, input }) => listExport(ctx.em, ctx.services.log, ctx.companyId, input)),
});
