// Reading SIMs: one with its history (GET /api/sim/{id}), its history a page at a time, the SIM page's read of
// both, and a list of SIMs by id. The history is cut a page at a time in SQL (docs/decisions/020).
import { t } from '#domain/texts/common.ts';
import { tApiKeys } from '#domain/texts/api-keys.ts';
import { tPause } from '#domain/texts/pause.ts';
import type { PausedBy } from '#domain/sims/pause.ts';
import type { Em } from '#server/db/orm.ts';
import { readRow, readRows } from '#server/db/prepared.ts';
import { NotFound } from '#domain/errors.ts';
import { LIST_PAGE_MAX } from '#domain/zod.ts';
import { noUsage, withUsageAndTags } from './usage.ts';
import { tagsOfSims } from './tags.ts';
import { SIM_COLUMNS, simView, type SimDetailView, type SimRow, type SimView } from './rows.ts';

type EventRow = {
  kind: SimDetailView['history'][number]['kind'];
  /** ISO 8601, in UTC. */
  at: string;
  by: string | null;
  key_name: string | null;
  before: unknown;
  after: unknown;
};

/** A jsonb column of objects, whichever way the driver hands it over (parsed, or as its text). */
function json(v: unknown): Record<string, unknown> | null {
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v);
    } catch {
      return null;
    }
  }
  return v && typeof v === 'object' ? (v as Record<string, unknown>) : null;
}

export const ONE_SQL = `select ${SIM_COLUMNS} from sim s join rate_plan r on r.id = s.rate_plan_id
  where s.id = ? and s.company_id = ? and s.status = 'active'`;
/**
 * How many events of a SIM's history one read gives: GET /api/sim/{id} and the SIM page show the newest this
 * many, older ones come a page at a time (simHistory; docs/decisions/020).
 */
export const HISTORY_PAGE = LIST_PAGE_MAX;
/**
 * A page of one of the company's active SIMs' history, newest first: the function `sim_history` (migration
 * Migration20261201230000_history_function), which walks sim_event_sim_at_index in a LATERAL with bitmap and
 * sequential scans off (its own `SET` clauses), so the joins see a page, never a SIM's 20,000 events, and its plan
 * is made once per connection. Its parameters: the company, the SIM, the event the page starts after (null: the
 * newest) and how many (HISTORY_PAGE + 1: one more tells whether there are older).
 */
export const HISTORY_SQL = `select * from sim_history(?, ?, ?, ?)`;

type HistoryItem = SimDetailView['history'][number] & { id: number };

/** Who made an event: the user, the API key, or the company's rule (its name then, in `after`). */
function eventBy(e: { by: string | null; key_name: string | null }, after: Record<string, unknown> | null) {
  if (e.by !== null) return e.by;
  if (e.key_name !== null) return tApiKeys.actor(e.key_name);
  return typeof after?.rule === 'string' ? tPause.byRule(after.rule) : null;
}

const historyItem = (e: EventRow & { id: number }): HistoryItem => {
  const after = json(e.after);
  return { id: Number(e.id), kind: e.kind, at: e.at, by: eventBy(e, after), before: json(e.before), after };
};

/** Who paused one of the company's SIMs (the event its mark names), or null when it is not paused. */
export async function pausedByOf(em: Em, companyId: number, row: SimRow): Promise<PausedBy | null> {
  if (row.paused_at === null) return null;
  return pausedByFrom(await readRow<PausedByRow>(em, PAUSED_BY_SQL, [row.id, companyId]));
}

/** Who paused a paused SIM (its id, the company): the pause's event, its user, API key or rule. */
export const PAUSED_BY_SQL = `select u.name as by, k.name as key_name, e.after ->> 'rule' as rule from sim s
      join sim_event e on e.id = s.paused_event_id
      left join app_user u on u.id = e.by_id left join api_key k on k.id = e.api_key_id
      where s.id = ? and s.company_id = ?`;
export type PausedByRow = { by: string | null; key_name: string | null; rule: string | null };

export function pausedByFrom(by: PausedByRow | null | undefined): PausedBy | null {
  if (!by) return null;
  if (by.rule !== null) return { kind: 'rule', name: by.rule };
  if (by.key_name !== null) return { kind: 'apiKey', name: by.key_name };
  return { kind: 'user', name: by.by ?? '' };
}

/** The rows of one page of history: the page, and the `before` of the next (older) one, or null. */
function historyPage(rows: Array<EventRow & { id: number }>): { items: HistoryItem[]; nextBefore: number | null } {
  const items = rows.slice(0, HISTORY_PAGE).map(historyItem);
  const last = items.at(-1);
  return { items, nextBefore: rows.length > HISTORY_PAGE && last ? last.id : null };
}

/** A page of history rows: the newest, or those older than the event `before`. */
const historyRows = (em: Em, companyId: number, id: number, before: number | null) =>
  readRows<EventRow & { id: number }>(em, HISTORY_SQL, [companyId, id, before, HISTORY_PAGE + 1]);

/** One of the company's active SIMs with the newest HISTORY_PAGE events of its history, newest first. */
export async function getSim(em: Em, companyId: number, id: number): Promise<SimDetailView> {
  // The SIM, its usage and tags, and its history read at once (each read is of the company's SIMs only): one round
  // trip where three were made one after another; who paused it after, only for a paused SIM.
  const [row, [listed], historyRead] = await Promise.all([
    readRow<SimRow>(em, ONE_SQL, [id, companyId]),
    withUsageAndTags(em, companyId, [{ id }]),
    historyRows(em, companyId, id, null),
  ]);
  if (!row) throw new NotFound(t.errors.simNotFound);
  const pausedBy = await pausedByOf(em, companyId, row);
  // The API's history items are as they were before paging: without the event's id.
  const history = historyPage(historyRead).items.map((h) => ({
    kind: h.kind,
    at: h.at,
    by: h.by,
    before: h.before,
    after: h.after,
  }));
  return { ...simView(row), usage: listed?.usage ?? noUsage(), tags: listed?.tags ?? [], pausedBy, history };
}

/**
 * A page of one of the company's active SIMs' history, newest first: the newest HISTORY_PAGE events, or those
 * older than the event `before` (the last of the page before); nextBefore: the next page's `before`, or null.
 */
export async function simHistory(
  em: Em,
  companyId: number,
  id: number,
  before?: number,
): Promise<{ items: HistoryItem[]; nextBefore: number | null }> {
  const sim = await readRow<{ id: number }>(
    em,
    `select id from sim where id = ? and company_id = ? and status = 'active'`,
    [id, companyId],
  );
  if (!sim) throw new NotFound(t.errors.simNotFound);
  const rows = await historyRows(em, companyId, id, before ?? null);
  return historyPage(rows);
}

/**
 * The SIM page's read: one of the company's active SIMs (with its tags) without the history of GET /api/sim/{id}, and
 * a page of its history (simHistory's), in one call: the page reads the SIM and the history once each.
 */
export async function simPage(
  em: Em,
  companyId: number,
  id: number,
  before?: number,
): Promise<{
  sim: SimView & { tags: string[]; pausedBy: PausedBy | null };
  history: { items: HistoryItem[]; nextBefore: number | null };
}> {
  const row = await readRow<SimRow>(em, ONE_SQL, [id, companyId]);
  if (!row) throw new NotFound(t.errors.simNotFound);
  const rows = await historyRows(em, companyId, id, before ?? null);
  // After the history, not beside it (one connection on PGlite).
  const tagsById = await tagsOfSims(em, companyId, [id]);
  const pausedBy = await pausedByOf(em, companyId, row);
  return { sim: { ...simView(row), tags: tagsById.get(id) ?? [], pausedBy }, history: historyPage(rows) };
}

/** The company's SIMs of a list of ids, active or not (a bulk list's confirm and result pages name each row). */
export async function simsByIds(em: Em, companyId: number, ids: number[]): Promise<SimView[]> {
  const list = [...new Set(ids)];
  if (list.length === 0) return [];
  const rows = await em.execute<SimRow[]>(
    `select ${SIM_COLUMNS} from sim s join rate_plan r on r.id = s.rate_plan_id
    where s.company_id = ? and s.id in (${list.map(() => '?').join(', ')}) order by s.id`,
    [companyId, ...list],
  );
  return rows.map(simView);
}
