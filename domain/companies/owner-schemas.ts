// Input and output schemas of the company's own admin (/company, /api/company/*). Pure zod, so the pages
// import them for their HTML constraints.
import { tAdmin } from '#domain/texts/admin.ts';
import { tCompany } from '#domain/texts/company.ts';
import { listQuery } from './schemas.ts';
import { userFields, userRole } from './user-schemas.ts';
import { listLimit, rowId, z } from '#domain/zod.ts';
import { AUDIT_KINDS } from './kinds.ts';

const id = rowId('Ogiltigt id.');

export const companyUsersQuery = z.object(listQuery);
export const companyUserCreateInput = z.object({ name: userFields.name, email: userFields.email, role: userRole });
export const companyUserUpdateInput = z.object({
  id,
  name: userFields.name,
  email: userFields.email,
  role: userRole,
});
export const companyUserIdInput = z.object({ id });

export const auditKind = z.enum(AUDIT_KINDS, { error: tCompany.errors.kind });

export const activityQuery = z.object({
  kind: auditKind.optional(),
  /** Keyset: rows older than this id (the last id of the page before). */
  before: id.optional(),
  limit: listLimit(),
});

export const activityOutput = z.object({
  id: z.number(),
  at: z.string(),
  kind: auditKind,
  action: z.string(),
  /** Who did it, as shown ("Anna Andersson", "Support: Admin Demo", "API-nyckel …"). */
  who: z.string(),
  /** What was done, as shown. */
  what: z.string(),
  targetType: z.string(),
  targetId: z.string().nullable(),
});
export type ActivityView = z.infer<typeof activityOutput>;

export const activityPageOutput = z.object({
  items: z.array(activityOutput),
  /** The `before` of the next (older) page; null on the last. */
  nextBefore: z.number().nullable(),
});

/** The company an audit row belongs to (null: none, a row of the staff's own from before companies had trails). */
export const trailCompany = z.object({ id: z.number(), name: z.string(), customerNumber: z.string() });
export type TrailCompany = z.infer<typeof trailCompany>;

/** The super admin's audit (/admin/audit, GET /api/admin/audit): every company's trail, filtered and paged. */
export const auditTrailQuery = z.object({
  /** One company's rows, by its id (the API) ... */
  companyId: id.optional(),
  /** ... or by its customer number (the page's field). */
  customerNumber: z.string().trim().max(50, tAdmin.audit.customerNumberTooLong).optional(),
  kind: auditKind.optional(),
  before: id.optional(),
  limit: listLimit(),
});

export const auditTrailOutput = activityOutput.extend({ company: trailCompany.nullable() });
export type AuditTrailView = z.infer<typeof auditTrailOutput>;

export const auditTrailPageOutput = z.object({
  items: z.array(auditTrailOutput),
  nextBefore: z.number().nullable(),
  /** The company filtered by, as found. */
  company: trailCompany.nullable(),
});
