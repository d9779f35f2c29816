// Bulk work on SIMs (issue 15): a whole list activated or deactivated with one outcome per row.
// A row's refusal is an outcome, not an error, so no row undoes another. The whole list costs a few
// statements, not a few per row: the checks are one read, and each write is one statement that also
// writes the history events (a data-modifying CTE), so a SIM is never stored without its event.
// Races are decided by the database: the partial unique index (one active SIM per ICCID) with
// ON CONFLICT DO NOTHING for activation, row locks for deactivation. Both take their locks in one order
// (by ICCID, by id), so two overlapping lists wait for each other instead of deadlocking.
import { t } from '../../app/texts.js';
import type { Em } from '../db/orm.js';
import { iccidMessages, iccidProblem, normalizeIccid } from './iccid.js';
import {
  BULK_ACTIVATE_OUTCOMES,
  BULK_DEACTIVATE_OUTCOMES,
  type BulkActivateInput,
  type BulkActivateOutput,
  type BulkDeactivateInput,
  type BulkDeactivateOutput,
} from './schemas.js';
import { planFor, type Actor } from './service.js';

type ActivateResult = BulkActivateOutput['results'][number];
type DeactivateResult = BulkDeactivateOutput['results'][number];

const placeholders = (n: number) => Array.from({ length: n }, () => '?').join(', ');

function countOutcomes<O extends string>(outcomes: readonly O[], results: { outcome: O }[]): Record<O, number> {
  const counts = Object.fromEntries(outcomes.map((o) => [o, 0])) as Record<O, number>;
  for (const r of results) counts[r.outcome]++;
  return counts;
}

/** Which of these ICCIDs are active now, and in which company. */
async function activeOwners(em: Em, iccids: string[]): Promise<Map<string, number>> {
  if (iccids.length === 0) return new Map();
  const rows = await em.execute<{ iccid: string; company_id: number }[]>(
    `select iccid, company_id from sim where status = 'active' and iccid in (${placeholders(iccids.length)})`,
    iccids,
  );
  return new Map(rows.map((r) => [r.iccid, r.company_id]));
}

const taken = (companyId: number, owner: number): ActivateResult['outcome'] =>
  owner === companyId ? 'alreadyActive' : 'activeElsewhere';
const takenMessage = { alreadyActive: t.bulk.alreadyActive, activeElsewhere: t.bulk.activeElsewhere } as const;

/**
 * Activates every ICCID of the list that can be, on one plan resolved as for a single activation; with
 * dryRun, only says what would happen ("ready" for what would be activated). Running the same list again
 * activates only what is left.
 */
export async function activateBulk(em: Em, actor: Actor, input: BulkActivateInput): Promise<BulkActivateOutput> {
  const plan = await planFor(em, input);
  const results: ActivateResult[] = [];
  const seen = new Set<string>();
  for (const raw of input.iccids) {
    const iccid = normalizeIccid(raw);
    const problem = iccidProblem(iccid);
    if (problem) results.push({ iccid, outcome: 'invalid', message: iccidMessages[problem] });
    else if (seen.has(iccid)) results.push({ iccid, outcome: 'duplicateInList', message: t.bulk.duplicateInList });
    else {
      seen.add(iccid);
      results.push({ iccid, outcome: 'ready' });
    }
  }

  let pending = results.filter((r) => r.outcome === 'ready');
  // A row whose holder was deactivated between our insert and our look-up is tried again; each round
  // settles at least every row that was taken, so this ends quickly.
  for (let round = 0; pending.length > 0 && round < 5; round++) {
    const owners = await activeOwners(
      em,
      pending.map((r) => r.iccid),
    );
    for (const r of pending) {
      const owner = owners.get(r.iccid);
      if (owner !== undefined) {
        r.outcome = taken(actor.companyId, owner);
        r.message = takenMessage[r.outcome as keyof typeof takenMessage];
      }
    }
    pending = pending.filter((r) => r.outcome === 'ready');
    if (input.dryRun || pending.length === 0) break;

    const after = JSON.stringify({
      ratePlan: plan.code,
      invoiceLineMark: input.invoiceLineMark,
      invoiceLineNote: input.invoiceLineNote,
    });
    const inserted = await em.execute<{ id: number; iccid: string }[]>(
      `with ins as (
        insert into sim (iccid, company_id, rate_plan_id, invoice_line_mark, invoice_line_note, status, activated_at, activated_by_id)
        select v.iccid, ?, ?, ?, ?, 'active', now(), ? from (values ${pending.map(() => '(?)').join(', ')}) as v(iccid)
        order by v.iccid
        on conflict (iccid) where status = 'active' do nothing
        returning id, iccid, activated_at
      ), ev as (
        insert into sim_event (sim_id, kind, rate_plan_id, by_id, at, before, after)
        select id, 'activated', ?, ?, activated_at, null, ?::jsonb from ins
      )
      select id, iccid from ins`,
      [
        actor.companyId,
        plan.id,
        input.invoiceLineMark,
        input.invoiceLineNote,
        actor.userId,
        ...pending.map((r) => r.iccid),
        plan.id,
        actor.userId,
        after,
      ],
    );
    const ids = new Map(inserted.map((r) => [r.iccid, r.id]));
    for (const r of pending) {
      const id = ids.get(r.iccid);
      if (id !== undefined) {
        r.outcome = 'activated';
        r.simId = id;
      }
    }
    // What is still "ready" lost a race to another activation: the next round reads who holds it.
    pending = pending.filter((r) => r.outcome === 'ready');
  }
  return { results, counts: countOutcomes(BULK_ACTIVATE_OUTCOMES, results) };
}

/** Deactivates the company's SIMs of the list, each with its history event; legacy SIMs are refused. */
export async function deactivateBulk(em: Em, actor: Actor, input: BulkDeactivateInput): Promise<BulkDeactivateOutput> {
  const ids = [...new Set(input.ids)];
  const list = placeholders(ids.length);
  const updated = await em.execute<{ id: number }[]>(
    `with locked as (
      select s.id from sim s join rate_plan r on r.id = s.rate_plan_id
      where not r.is_legacy and s.company_id = ? and s.status = 'active' and s.id in (${list})
      order by s.id for update of s
    ), upd as (
      update sim s set status = 'deactivated', deactivated_at = now()
      from locked l where s.id = l.id and s.status = 'active'
      returning s.id, s.rate_plan_id, s.deactivated_at
    ), ev as (
      insert into sim_event (sim_id, kind, rate_plan_id, by_id, at, before, after)
      select id, 'deactivated', rate_plan_id, ?, deactivated_at, ?::jsonb, ?::jsonb from upd
    )
    select id from upd`,
    [
      actor.companyId,
      ...ids,
      actor.userId,
      JSON.stringify({ status: 'active' }),
      JSON.stringify({ status: 'deactivated' }),
    ],
  );
  const done = new Set(updated.map((r) => r.id));
  const rest = ids.filter((id) => !done.has(id));
  const states = rest.length
    ? await em.execute<{ id: number; status: string; is_legacy: boolean }[]>(
        `select s.id, s.status, r.is_legacy from sim s join rate_plan r on r.id = s.rate_plan_id
        where s.company_id = ? and s.id in (${placeholders(rest.length)})`,
        [actor.companyId, ...rest],
      )
    : [];
  const state = new Map(states.map((s) => [s.id, s]));
  const results: DeactivateResult[] = ids.map((id) => {
    if (done.has(id)) return { id, outcome: 'deactivated' };
    const s = state.get(id);
    if (!s) return { id, outcome: 'notFound' };
    // Active but not updated: its plan is legacy (a concurrent deactivation leaves it inactive).
    return { id, outcome: s.status === 'active' ? 'legacy' : 'alreadyInactive' };
  });
  return { results, counts: countOutcomes(BULK_DEACTIVATE_OUTCOMES, results) };
}
