// Input and output schemas of the company's own admin (/company, /api/company/*). Pure zod, so the pages
// import them for their HTML constraints.
import { tCompany } from '../../app/texts/company.js';
import { listQuery } from '../companies/schemas.js';
import { userFields, userRole } from '../users/schemas.js';
import { listLimit, rowId, z } from '../zod.js';
import { AUDIT_KINDS } from './kinds.js';

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
