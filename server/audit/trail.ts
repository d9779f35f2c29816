// The audit trail: who did what to which row, with the values before and after, and whose company's trail
// it belongs to (/company/activity) with its kind. Written inside the caller's transaction, so a change and
// its audit row are saved together or not at all.
import { AuditEvent, Company, User, type AuditKind } from '#server/db/entities.ts';
import type { Em } from '#server/db/orm.ts';

/**
 * Who makes a change: a signed-in user and the company they act for (null: their own), the command line,
 * which has no user (its rows have no `who` and say `by: 'cli'` in `after`, so they are never mistaken
 * for a change nobody can account for), or an API key of a company (later work: recorded as `byApiKey` in
 * `after` until it gets a column of its own).
 */
export type Actor =
  | { userId: number; actingCompanyId: number | null }
  | { userId: null; actingCompanyId: null; system: 'cli' }
  | { userId: null; actingCompanyId: null; apiKey: { id: number; name: string } };

export const CLI_ACTOR: Actor = { userId: null, actingCompanyId: null, system: 'cli' };

export function recordAudit(
  tx: Em,
  actor: Actor,
  event: {
    action: string;
    /** What the row is about, and the company whose trail shows it (null: none, e.g. a super admin's own). */
    kind: AuditKind;
    companyId: number | null;
    targetType: string;
    targetId: number;
    before: Record<string, unknown> | null;
    after: Record<string, unknown> | null;
  },
): void {
  const by =
    'system' in actor
      ? { by: actor.system }
      : 'apiKey' in actor
        ? { byApiKey: { id: actor.apiKey.id, name: actor.apiKey.name } }
        : null;
  tx.create(AuditEvent, {
    who: actor.userId === null ? null : tx.getReference(User, actor.userId),
    actingCompany: actor.actingCompanyId ? tx.getReference(Company, actor.actingCompanyId) : null,
    company: event.companyId ? tx.getReference(Company, event.companyId) : null,
    kind: event.kind,
    action: event.action,
    targetType: event.targetType,
    targetId: String(event.targetId),
    before: event.before,
    after: by ? { ...event.after, ...by } : event.after,
  });
}
