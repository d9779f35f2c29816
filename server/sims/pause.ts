// Pausing and resuming SIMs (issue 40, docs/decisions/037): one statement for one SIM or a list, as bulk
// deactivation: it locks the company's active SIMs of the list that are not yet (or still) paused, in id order,
// writes each one's history event, sets (or clears) the mark with that event's id, and queues the webhook events
// `sim.paused` / `sim.resumed` (the outbox), so a SIM is never paused without its event. A SIM already in the asked
// state is left as it is and says so (a repeated call changes nothing). Usage records of a paused SIM are still
// taken in: the network may send its last ones late.
import { defined } from '#domain/defined.ts';
import { NotFound } from '#domain/errors.ts';
import {
  PAUSE_OUTCOMES,
  RESUME_OUTCOMES,
  type BulkPauseOutput,
  type BulkResumeOutput,
  type PausedBy,
} from '#domain/sims/pause.ts';
import { t } from '#domain/texts/common.ts';
import type { Em } from '#server/db/orm.ts';
import { recordAudit } from '#server/audit/trail.ts';
import { outboxCtes, outboxParams } from '#server/webhooks/outbox.ts';
import { auditActor, type Actor } from './changes.ts';
import { isoSql } from './rows.ts';
import { tagsJsonSql } from './tags.ts';

/** Who pauses or resumes: a person or an API key of the company (Actor), or one of its rules. */
export type PauseActor = Actor & { rule?: { id: number; name: string } | null };

type Action = 'pause' | 'resume';

const intArray = (ids: readonly number[]) => `{${ids.map((id) => Math.trunc(id)).join(',')}}`;

/** The name the webhook events give who did it (the history names it from the event's own columns). */
async function pausedBy(em: Em, actor: PauseActor): Promise<PausedBy> {
  if (actor.rule) return { kind: 'rule', name: actor.rule.name };
  if (actor.apiKey) return { kind: 'apiKey', name: actor.apiKey.name };
  const userId = defined(actor.userId, 'the user of a pause not made by an API key or a rule');
  const [user] = await em.execute<{ name: string }[]>(`select name from app_user where id = ?`, [userId]);
  return { kind: 'user', name: user?.name ?? '' };
}

/** The statement: the SIMs changed, by id. */
async function change(em: Em, actor: PauseActor, ids: number[], action: Action): Promise<Set<number>> {
  const pause = action === 'pause';
  const by = await pausedBy(em, actor);
  const kind = pause ? 'paused' : 'resumed';
  const event = pause ? 'sim.paused' : 'sim.resumed';
  const at = pause ? 'pausedAt' : 'resumedAt';
  const rows = await em.execute<{ id: number }[]>(
    `with locked as (
      select s.id, s.rate_plan_id from sim s
      where s.company_id = ? and s.status = 'active' and s.paused_at is ${pause ? 'null' : 'not null'}
        and s.id = any(?::int[])
      order by s.id for update of s
    ), ev as (
      insert into sim_event (sim_id, kind, rate_plan_id, by_id, api_key_id, rule_id, at, before, after)
      select id, '${kind}', rate_plan_id, ?, ?, ?, now(), ?::jsonb, ?::jsonb from locked
      returning id, sim_id, at
    ), upd as (
      update sim s set ${pause ? 'paused_at = ev.at, paused_event_id = ev.id' : 'paused_at = null, paused_event_id = null'}
      from ev where s.id = ev.sim_id
      returning s.id, s.iccid, ev.at
    )${outboxCtes(
      'evt',
      event,
      `select jsonb_build_object('sim', jsonb_build_object('id', u.id, 'iccid', u.iccid, '${at}', ${isoSql('u.at')},
         'by', ?::jsonb, 'tags', ${tagsJsonSql('?', 'u.id')})) as data from upd u`,
    )}
    select id from upd`,
    [
      actor.companyId,
      intArray(ids),
      actor.userId,
      actor.apiKey?.id ?? null,
      actor.rule?.id ?? null,
      JSON.stringify({ status: pause ? 'active' : 'paused' }),
      JSON.stringify(
        pause && actor.rule ? { status: 'paused', rule: actor.rule.name } : { status: pause ? 'paused' : 'active' },
      ),
      ...outboxParams(actor.companyId, [JSON.stringify(by), actor.companyId]),
    ],
  );
  return new Set(rows.map((r) => Number(r.id)));
}

/** Which of the ids not changed are the company's active SIMs (the others: not found). */
async function inFleet(em: Em, companyId: number, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await em.execute<{ id: number }[]>(
    `select id from sim where company_id = ? and status = 'active' and id = any(?::int[])`,
    [companyId, intArray(ids)],
  );
  return new Set(rows.map((r) => Number(r.id)));
}

function tally<O extends string>(outcomes: readonly O[], results: { outcome: O }[]): Record<O, number> {
  const counts = Object.fromEntries(outcomes.map((o) => [o, 0])) as Record<O, number>;
  for (const r of results) counts[r.outcome]++;
  return counts;
}

/** Each id's outcome: changed, unchanged (in the asked state already) or notFound (not the company's active SIM). */
async function outcomes<C extends string, U extends string>(
  em: Em,
  actor: PauseActor,
  ids: readonly number[],
  action: Action,
  names: readonly [C, U, 'notFound'],
): Promise<{
  results: Array<{ id: number; outcome: C | U | 'notFound' }>;
  counts: Record<C | U | 'notFound', number>;
}> {
  const [changed, unchanged] = names;
  const list = [...new Set(ids)];
  const done = await change(em, actor, list, action);
  const rest = await inFleet(
    em,
    actor.companyId,
    list.filter((id) => !done.has(id)),
  );
  const results = list.map((id) => ({
    id,
    outcome: done.has(id) ? changed : rest.has(id) ? unchanged : ('notFound' as const),
  }));
  return { results, counts: tally(names, results) };
}

/** Pauses the company's SIMs of the list: each id's outcome (paused, alreadyPaused, notFound). */
export const pauseSims = (em: Em, actor: PauseActor, ids: readonly number[]): Promise<BulkPauseOutput> =>
  outcomes(em, actor, ids, 'pause', PAUSE_OUTCOMES);

/** Resumes the company's SIMs of the list: each id's outcome (resumed, notPaused, notFound). */
export const resumeSims = (em: Em, actor: PauseActor, ids: readonly number[]): Promise<BulkResumeOutput> =>
  outcomes(em, actor, ids, 'resume', RESUME_OUTCOMES);

/**
 * One SIM paused or resumed, with its trail row in the same transaction: changed false when it already was
 * (nothing written); not the company's active SIM: NotFound. The ICCID names it in the toast.
 */
export async function pauseOne(
  em: Em,
  actor: Actor,
  id: number,
  action: Action,
): Promise<{ changed: boolean; iccid: string }> {
  return em.transactional(async (tx) => {
    const done = await change(tx, actor, [id], action);
    const [sim] = await tx.execute<{ iccid: string }[]>(
      `select iccid from sim where id = ? and company_id = ? and status = 'active'`,
      [id, actor.companyId],
    );
    if (!sim) throw new NotFound(t.errors.simNotFound);
    if (done.size === 0) return { changed: false, iccid: sim.iccid };
    const pause = action === 'pause';
    recordAudit(tx, auditActor(actor), {
      action: pause ? 'simPaused' : 'simResumed',
      kind: 'simUpdated',
      companyId: actor.companyId,
      targetType: 'Sim',
      targetId: id,
      before: { status: pause ? 'active' : 'paused' },
      after: { status: pause ? 'paused' : 'active', iccid: sim.iccid },
    });
    await tx.flush();
    return { changed: true, iccid: sim.iccid };
  });
}
