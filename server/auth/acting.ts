// "Log in as this company": a super admin acts for another company. Each switch rotates the session
// and is written to the audit log with the real user.
import { t } from '#domain/texts/common.ts';
import { recordAudit } from '#server/audit/trail.ts';
import { Company } from '#server/db/entities.ts';
import type { Em } from '#server/db/orm.ts';
import { NotFound } from '#domain/errors.ts';
import type { Services } from '#server/services.ts';
import { announceSessionEnded, rotateSession, type SessionInfo } from './sessions.ts';

/**
 * Switches the company the session acts for (null: back to the user's own). Answers the new session's
 * raw id for the cookie, or null when nothing changes (no rotation, no audit row).
 */
export async function actAsCompany(
  services: Services,
  em: Em,
  session: SessionInfo,
  companyId: number | null,
): Promise<string | null> {
  const raw = await em.transactional(async (tx) => {
    let company: Company | null = null;
    if (companyId !== null) {
      company = await tx.findOne(Company, { id: companyId });
      if (!company) throw new NotFound(t.errors.companyNotFound);
    }
    // Acting as one's own company is the same as not acting.
    const acting = company && company.id !== session.ownCompanyId ? company.id : null;
    if (acting === session.actingCompanyId) return null;
    // The real user, acting for the company switched to (null: back to their own).
    recordAudit(
      tx,
      { userId: session.userId, actingCompanyId: acting },
      {
        action: acting ? 'loginAsCompany' : 'stopActingAsCompany',
        // "Logga in som detta företag" is in that company's trail, and so is leaving it.
        kind: 'support',
        companyId: acting ?? session.actingCompanyId,
        targetType: 'Company',
        targetId: company?.id ?? session.ownCompanyId,
        before: { actingCompanyId: session.actingCompanyId },
        after: { actingCompanyId: acting },
      },
    );
    await tx.flush();
    return rotateSession(tx, session.id, session.userId, acting);
  });
  // The old session is gone: its open event streams end, as on logout (they would otherwise keep
  // delivering the old company's toasts under a session that no longer exists).
  if (raw) await announceSessionEnded(services, session.id);
  return raw;
}
