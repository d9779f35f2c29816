// The roles of a company's users and the kinds of its audit trail. Pure constants (no database code), so
// the entities, the schemas and the pages share them.

/** owner: everything, the company's own admin too; member: today's users; viewer: reads, exports, feedback. */
export const USER_ROLES = ['owner', 'member', 'viewer'] as const;
export type UserRole = (typeof USER_ROLES)[number];

/** The roles that may change SIMs (activate, edit, deactivate, bulk). */
export const WRITE_ROLES: readonly UserRole[] = ['owner', 'member'];

/**
 * The caller's role in the company it acts for. A session user has their own; a super admin acting as
 * another company is support and acts as its owner (every such switch is in the company's trail). An API
 * key (later work) will be a caller of its own whose scope maps to a role here.
 */
export function callerRole(session: { actingCompanyId: number | null; role: UserRole }): UserRole {
  return session.actingCompanyId !== null ? 'owner' : session.role;
}

export const canWrite = (session: { actingCompanyId: number | null; role: UserRole }) =>
  WRITE_ROLES.includes(callerRole(session));

/**
 * What an audit row is about, the filter of /company/activity. `apiKey` and `webhook` are the changes of
 * integrations (later work); `support` is "logga in som detta företag" by a super admin; `company` a super
 * admin's change to the company itself; `security` sign-ins, passkeys, recovery codes, single sign-on and ended sessions.
 */
export const AUDIT_KINDS = [
  'simActivated',
  'simUpdated',
  'simDeactivated',
  'bulk',
  'user',
  'apiKey',
  'webhook',
  'support',
  'company',
  'security',
  'rule',
] as const;
export type AuditKind = (typeof AUDIT_KINDS)[number];
