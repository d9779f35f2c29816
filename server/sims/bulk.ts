// Bulk work on SIMs: a whole list activated or deactivated with one outcome per row.
// A row's refusal is an outcome, not an error, so no row undoes another. The whole list costs a few
// statements, not a few per row: the checks are one read, and each write is one statement that also
// writes the history events (a data-modifying CTE), so a SIM is never stored without its event.
// Races are decided by the database: the partial unique index (one active SIM per ICCID) with
// ON CONFLICT DO NOTHING for activation, row locks for deactivation. Both take their locks in one order
// (by ICCID, by id), so two overlapping lists wait for each other instead of deadlocking.
// Webhook events (sim.activated / sim.deactivated per SIM, and bulk.completed) are written by the same
// statement (more CTEs), so they exist exactly when the change does; a list that needed several rounds (lost
// races) gives one bulk.completed per round that changed something.
import { defined } from '#domain/defined.ts';
import { tBulk } from '#domain/texts/bulk.ts';
import type { Em } from '#server/db/orm.ts';
import { iccidMessages, iccidProblem, normalizeIccid } from '#domain/sims/iccid.ts';
import {
  BULK_ACTIVATE_OUTCOMES,
  BULK_DEACTIVATE_OUTCOMES,
  type BulkActivateInput,
  type BulkActivateOutput,
  type BulkDeactivateInput,
  type BulkRow,
  type BulkDeactivateOutput,
} from '#domain/sims/schemas.ts';
import { planFor, type Actor } from './changes.ts';
import { isoSql } from './rows.ts';
import { byText, tagsJsonSql } from './tags.ts';
import { bulkRuns } from '#server/metrics.ts';
import { outboxCtes, outboxParams } from '#server/webhooks/outbox.ts';

/** bulk.completed's data: the statement's changed SIMs (none: no event). */
const bulkCompleted = (operation: 'activate' | 'deactivate', from: string) =>
  `select jsonb_build_object('operation', '${operation}', 'count', count(*),
    'sims', jsonb_agg(jsonb_build_object('id', id, 'iccid', iccid) order by iccid)) as data
  from ${from} having count(*) > 0`;

type ActivateResult = BulkActivateOutput['results'][number];
type DeactivateResult = BulkDeactivateOutput['results'][number];

/**
 * A list as one parameter, whatever its length (a statement's parameters stay few and its plan is made once):
 * a PostgreSQL array literal of ids, or of ICCIDs already checked to be 20 digits (nothing to quote in either).
 */
const intArray = (ids: readonly number[]) => `{${ids.map((id) => Math.trunc(id)).join(',')}}`;
const iccidArray = (iccids: readonly string[]) => {
  if (!iccids.every((i) => /^\d{20}$/.test(i))) throw new Error('iccidArray: an ICCID that was not checked');
  return `{${iccids.join(',')}}`;
};

function countOutcomes<O extends string>(outcomes: readonly O[], results: { outcome: O }[]): Record<O, number> {
  const counts = Object.fromEntries(outcomes.map((o) => [o, 0])) as Record<O, number>;
  for (const r of results) counts[r.outcome]++;
  return counts;
}

/** Which of these ICCIDs are active now, and in which company. */
async function activeOwners(em: Em, iccids: string[]): Promise<Map<string, number>> {
  if (iccids.length === 0) return new Map();
  // A join with the list, so each ICCID is one probe of the one-active-SIM-per-ICCID index: `iccid in (…)` of
  // thousands is planned as a scan of the whole table, whose cost grows with the fleet.
  const rows = await em.execute<{ iccid: string; company_id: number }[]>(
    `select s.iccid, s.company_id from unnest(?::text[]) as l(iccid) join sim s on s.iccid = l.iccid and s.status = 'active'`,
    [iccidArray(iccids)],
  );
  return new Map(rows.map((r) => [r.iccid, r.company_id]));
}

const taken = (companyId: number, owner: number): ActivateResult['outcome'] =>
  owner === companyId ? 'alreadyActive' : 'activeElsewhere';
const takenMessage = { alreadyActive: tBulk.alreadyActive, activeElsewhere: tBulk.activeElsewhere } as const;

/**
 * Activates every ICCID of the list that can be, on one plan resolved as for a single activation; with
 * dryRun, only says what would happen ("ready" for what would be activated). Running the same list again
 * activates only what is left.
 */
export async function activateBulk(em: Em, actor: Actor, input: BulkActivateInput): Promise<BulkActivateOutput> {
  bulkRuns.inc({ kind: input.dryRun ? 'activate_preview' : 'activate' });
  const plan = await planFor(em, input);
  const results: ActivateResult[] = [];
  // Each row's mark and comment: its own when it has them (a file's columns), else the list's; its tags: its own
  // (a file's Taggar column) and the list's, in code point order as the answers list them.
  const marksOf = new Map<ActivateResult, { mark: string; note: string; tags: string[] }>();
  const rows = input.rows ?? (input.iccids ?? []).map((iccid): BulkRow => ({ iccid }));
  const seen = new Set<string>();
  for (const row of rows) {
    const iccid = normalizeIccid(row.iccid);
    const problem = iccidProblem(iccid);
    let result: ActivateResult;
    if (problem) result = { iccid, outcome: 'invalid', message: iccidMessages[problem] };
    else if (seen.has(iccid)) result = { iccid, outcome: 'duplicateInList', message: tBulk.duplicateInList };
    else {
      seen.add(iccid);
      result = { iccid, outcome: 'ready' };
    }
    results.push(result);
    marksOf.set(result, {
      mark: row.invoiceLineMark ?? input.invoiceLineMark,
      note: row.invoiceLineNote ?? input.invoiceLineNote,
      tags: [...new Set([...(row.tags ?? []), ...input.tags])].sort(byText),
    });
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

    // One statement for the whole round, each row with its own mark, comment and tags; the history event's
    // "after" is built from what was stored.
    const inserted = await em.execute<{ id: number; iccid: string }[]>(
      `with v as (
        select * from jsonb_to_recordset(?::jsonb) as v(iccid text, mark text, note text, tags jsonb)
      ), ins as (
        insert into sim (iccid, company_id, rate_plan_id, invoice_line_mark, invoice_line_note, status, activated_at, activated_by_id)
        select v.iccid, ?, ?, v.mark, v.note, 'active', now(), ?
        from v
        order by v.iccid
        on conflict (iccid) where status = 'active' do nothing
        returning id, iccid, activated_at, invoice_line_mark, invoice_line_note
      ), ev as (
        insert into sim_event (sim_id, kind, rate_plan_id, by_id, api_key_id, at, before, after)
        select id, 'activated', ?, ?, ?, activated_at, null,
          jsonb_build_object('ratePlan', ?::text, 'invoiceLineMark', invoice_line_mark, 'invoiceLineNote', invoice_line_note)
        from ins
      ), tg as (
        insert into sim_tag (company_id, sim_id, tag)
        select ?, ins.id, t.tag from ins join v on v.iccid = ins.iccid cross join jsonb_array_elements_text(v.tags) t(tag)
        on conflict do nothing
      )${outboxCtes(
        'act',
        'sim.activated',
        `select jsonb_build_object('sim', jsonb_build_object('id', ins.id, 'iccid', ins.iccid, 'activatedAt', ${isoSql('ins.activated_at')},
          'ratePlan', ?::text, 'invoiceLineMark', ins.invoice_line_mark, 'invoiceLineNote', ins.invoice_line_note,
          'tags', v.tags)) as data from ins join v on v.iccid = ins.iccid`,
      )}${outboxCtes('blk', 'bulk.completed', bulkCompleted('activate', 'ins'))}
      select id, iccid from ins`,
      [
        // The rows as one JSON parameter: marks are any text, and a list of 10,000 would be 30,000 parameters.
        JSON.stringify(
          pending.map((r) => {
            const m = defined(marksOf.get(r), `the mark of the row ${r.iccid}`);
            return { iccid: r.iccid, mark: m.mark, note: m.note, tags: m.tags };
          }),
        ),
        actor.companyId,
        plan.id,
        actor.userId,
        plan.id,
        actor.userId,
        actor.apiKey?.id ?? null,
        plan.code,
        actor.companyId,
        ...outboxParams(actor.companyId, [plan.code]),
        ...outboxParams(actor.companyId),
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
  bulkRuns.inc({ kind: 'deactivate' });
  const ids = [...new Set(input.ids)];
  const updated = await em.execute<{ id: number }[]>(
    `with locked as (
      select s.id from sim s join rate_plan r on r.id = s.rate_plan_id
      where not r.is_legacy and s.company_id = ? and s.status = 'active' and s.id = any(?::int[])
      order by s.id for update of s
    ), upd as (
      update sim s set status = 'deactivated', deactivated_at = now()
      from locked l where s.id = l.id and s.status = 'active'
      returning s.id, s.company_id, s.iccid, s.rate_plan_id, s.deactivated_at
    ), ev as (
      insert into sim_event (sim_id, kind, rate_plan_id, by_id, api_key_id, at, before, after)
      select id, 'deactivated', rate_plan_id, ?, ?, deactivated_at, ?::jsonb, ?::jsonb from upd
    )${outboxCtes(
      'dea',
      'sim.deactivated',
      `select jsonb_build_object('sim', jsonb_build_object('id', id, 'iccid', iccid, 'deactivatedAt', ${isoSql('deactivated_at')},
        'tags', ${tagsJsonSql('upd.company_id', 'upd.id')})) as data from upd`,
    )}${outboxCtes('blk', 'bulk.completed', bulkCompleted('deactivate', 'upd'))}
    select id from upd`,
    [
      actor.companyId,
      intArray(ids),
      actor.userId,
      actor.apiKey?.id ?? null,
      JSON.stringify({ status: 'active' }),
      JSON.stringify({ status: 'deactivated' }),
      ...outboxParams(actor.companyId),
      ...outboxParams(actor.companyId),
    ],
  );
  const done = new Set(updated.map((r) => r.id));
  const rest = ids.filter((id) => !done.has(id));
  const states = rest.length
    ? await em.execute<{ id: number; status: string; is_legacy: boolean }[]>(
        `select s.id, s.status, r.is_legacy from sim s join rate_plan r on r.id = s.rate_plan_id
        where s.company_id = ? and s.id = any(?::int[])`,
        [actor.companyId, intArray(rest)],
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

/**
 * How many of these SIMs this user activated in this company: the one toast of a run the browser sent in
 * chunks (each chunk without a toast) counts what the database says, not what the browser claims.
 */
export async function countActivatedBy(em: Em, actor: Actor, simIds: number[]): Promise<number> {
  const ids = [...new Set(simIds)];
  if (ids.length === 0) return 0;
  const [row] = await em.execute<{ n: number | string }[]>(
    `select count(*) as n from sim where company_id = ? and activated_by_id = ? and id = any(?::int[])`,
    [actor.companyId, actor.userId, intArray(ids)],
  );
  return Number(row?.n ?? 0);
}
