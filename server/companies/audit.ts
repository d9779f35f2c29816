// The audit trail of admin changes: who did what to which row, with the values before and after.
// Written inside the caller's transaction, so a change and its audit row are saved together or not at all.
import { AuditEvent, Company, User } from '../db/entities.js';
import type { Em } from '../db/orm.js';

/** The person making a change: the signed-in user and the company they act for (null: their own). */
export type Actor = { userId: number; actingCompanyId: number | null };

export function recordAudit(
  tx: Em,
  actor: Actor,
  event: { action: string; targetType: string; targetId: number; before: Record<string, unknown> | null; after: Record<string, unknown> | null },
): void {
  tx.create(AuditEvent, {
    who: tx.getReference(User, actor.userId),
    actingCompany: actor.actingCompanyId ? tx.getReference(Company, actor.actingCompanyId) : null,
    action: event.action,
    targetType: event.targetType,
    targetId: String(event.targetId),
    before: event.before,
    after: event.after,
  });
}
