// The security events of the audit trail (kind `security`): sign-ins, failed step-ups, step-ups by e-mail link, passkey changes, recovery
// code use, single sign-on changes and ended sessions. A row belongs to the trail of the company of the user it
// is about, so a company's owner sees their users' (/company/activity) and a super admin sees all (/admin/audit).
import { defined } from '#domain/defined.ts';
import { recordAudit } from '#server/audit/trail.ts';
import type { Em } from '#server/db/orm.ts';

export type SecurityAction =
  | 'signIn'
  | 'stepUpFailed'
  | 'stepUpByEmail'
  | 'passkeyAdded'
  | 'passkeyRemoved'
  | 'passkeysReset'
  | 'recoveryCodeUsed'
  | 'recoveryCodesCreated'
  | 'ssoConfigured'
  | 'ssoRemoved'
  | 'ssoDomainVerified'
  | 'ssoDomainUnverified'
  | 'sessionEnded'
  | 'passkeysRequired'
  | 'passkeysNotRequired';

/**
 * Records a security event in the caller's transaction. `by` is who did it (null: the user it is about, e.g. a
 * sign-in); `about` the user (or, for a company setting, the company) it concerns.
 */
export function recordSecurityEvent(
  tx: Em,
  event: {
    action: SecurityAction;
    by: { userId: number; actingCompanyId: number | null } | null;
    about: { userId: number | null; companyId: number };
    details?: Record<string, unknown>;
  },
): void {
  const about = event.about;
  recordAudit(
    tx,
    event.by ?? {
      userId: defined(about.userId, 'the user who acted (by) or the one the event is about'),
      actingCompanyId: null,
    },
    {
      action: event.action,
      kind: 'security',
      companyId: about.companyId,
      targetType: about.userId === null ? 'Company' : 'User',
      targetId: about.userId ?? about.companyId,
      before: null,
      after: event.details ?? {},
    },
  );
}
