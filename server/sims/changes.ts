// What the SIM changes share (activate, edit, deactivate, bulk): the caller, its history event's and the trail's
// names for it, the plan a choice selects, and the lock on a SIM being changed.
import { defined } from '#domain/defined.ts';
import { LockMode } from '@mikro-orm/core';
import { t } from '#domain/texts/common.ts';
import { ApiKey, RatePlan, Sim, User } from '#server/db/entities.ts';
import type { Em } from '#server/db/orm.ts';
import { Invalid, NotFound } from '#domain/errors.ts';
import { resolvePlan, selectionProblems } from '#domain/plans/selector.ts';
import { recordAudit, type Actor as AuditActor } from '#server/audit/trail.ts';

/**
 * The caller of a SIM operation: its company and user (actingCompanyId: a super admin acting as it), or an API
 * key of the company (userId null), which the history and the trail name "API-nyckel <name>".
 */
export type Actor = {
  companyId: number;
  userId: number | null;
  actingCompanyId?: number | null;
  apiKey?: { id: number; name: string } | null;
};

/** The caller of a SIM change from a request's context: the session's user, or the API key. */
export const actorOf = (ctx: {
  companyId: number;
  session: { userId: number; actingCompanyId: number | null } | null;
  apiKey: { id: number; name: string } | null;
}): Actor => {
  if (ctx.apiKey)
    return { companyId: ctx.companyId, userId: null, apiKey: { id: ctx.apiKey.id, name: ctx.apiKey.name } };
  const session = defined(ctx.session, "a SIM change's caller (a session or an API key)");
  return { companyId: ctx.companyId, userId: session.userId, actingCompanyId: session.actingCompanyId };
};

/** The trail's actor of a SIM operation's caller. */
export const auditActor = (actor: Actor): AuditActor =>
  actor.apiKey
    ? { userId: null, actingCompanyId: null, apiKey: actor.apiKey }
    : {
        userId: defined(actor.userId, 'the user of a change not made by an API key'),
        actingCompanyId: actor.actingCompanyId ?? null,
      };

/** Who a SIM's history event names: the user, or the API key. */
export const eventBy = (tx: Em, actor: Actor) => ({
  by: actor.userId === null ? null : tx.getReference(User, actor.userId),
  apiKey: actor.apiKey ? tx.getReference(ApiKey, actor.apiKey.id) : null,
});

/** The company trail's row for a SIM change, in the change's transaction. */
export function auditSim(
  tx: Em,
  actor: Actor,
  kind: 'simActivated' | 'simUpdated' | 'simDeactivated',
  sim: Sim,
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
) {
  recordAudit(tx, auditActor(actor), {
    action: kind,
    kind,
    companyId: actor.companyId,
    targetType: 'Sim',
    targetId: sim.id,
    before,
    after: { ...after, iccid: sim.iccid },
  });
}

export async function selectablePlans(em: Em): Promise<RatePlan[]> {
  return em.find(RatePlan, { isLegacy: false }, { orderBy: { dataLimit: 'asc', code: 'asc' } });
}

/** The one selectable plan for a choice, by the selector's rules (single and bulk activation). */
export async function planFor(
  em: Em,
  choice: { dataLimit: number; callAndSms: boolean; roaming: boolean },
): Promise<RatePlan> {
  const plans = await selectablePlans(em);
  // Every option to change is named, each on its field (the first one's message is the error's).
  const problems = selectionProblems(plans, choice);
  const [first] = problems;
  if (first)
    throw new Invalid(
      first.message,
      problems.map((p) => ({ path: [p.field], message: p.message })),
    );
  return defined(resolvePlan(plans, choice), 'the plan of a choice with no selection problem');
}

/** The company's active SIM, locked for the rest of the transaction (edit and deactivate). */
export async function lockOwnActiveSim(em: Em, companyId: number, id: number): Promise<Sim> {
  // The row lock is taken on the SIM alone: FOR UPDATE over a join with rate_plan makes PostgreSQL
  // lose the row when a concurrent edit changed its plan while we waited.
  const sim = await em.findOne(
    Sim,
    { id, company: companyId, status: 'active' },
    { lockMode: LockMode.PESSIMISTIC_WRITE },
  );
  if (!sim) throw new NotFound(t.errors.simNotFound);
  await em.populate(sim, ['ratePlan']);
  return sim;
}
