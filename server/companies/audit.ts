// The audit trail of admin changes: who did what to which row, with the values before and after.
// Written inside the caller's transaction, so a change and its audit row are saved together or not at all.
import { AuditEvent, Company, User } from '../db/entities.js';
import type { Em } from '../db/orm.js';

/**
 * Who makes a change: a signed-in user and the company they act for (null: their own), or the command
 * line, which has no user: its rows have no `who` and say `by: 'cli'` in `after`, so they are never
 * mistaken for a change nobody can account for.
 */
export type Actor =
  { userId: number; actingCompanyId: number | null } | { userId: null; actingCompanyId: null; system: 'cli' };

export const CLI_ACTOR: Actor = { userId: null, actingCompanyId: null, system: 'cli' };

export function recordAudit(
  tx: Em,
  actor: Actor,
  event: {
    action: string;
    targetType: string;
    targetId: number;
    before: Record<string, unknown> | null;
    after: Record<string, unknown> | null;
  },
): void {
  tx.create(AuditEvent, {
    who: actor.userId === null ? null : tx.getReference(User, actor.userId),
    actingCompany: actor.actingCompanyId ? tx.getReference(Company, actor.actingCompanyId) : null,
    action: event.action,
    targetType: event.targetType,
    targetId: String(event.targetId),
    before: event.before,
    after: 'system' in actor ? { ...event.after, by: actor.system } : event.after,
  });
}
