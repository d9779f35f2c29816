// The SIM list's filter and SQL: the whole list, or a search in the form its indexes serve (docs/decisions/019),
// and which form a search takes; list.ts runs them.
import type { Em } from '#server/db/orm.ts';
import { cancelledOnAbort, searchTag } from '#server/db/overload.ts';
import type { ListState } from '#domain/sims/pause.ts';
import { SIM_COLUMNS } from './rows.ts';

/** How far a search's total is counted: past it the list says "fler än 1 000" (docs/decisions/019). */
export const SEARCH_COUNT_CAP = 1000;

/**
 * The list's filter: the company's active SIMs, and with a search the arms that can match it. A search has two
 * more forms of the same condition (same parameters, same rows), each leaving the planner one way only
 * (docs/decisions/019): `walk` reads the list's index in its order and checks each row (no other index can serve
 * its arms); `bitmap` finds the candidates through the trigram and plan indexes (the company's own index is out
 * of its reach) and sorts them. Which one a search takes is measured, not estimated (`searchForm`).
 */
export type ListFilter = {
  where: string;
  params: unknown[];
  search: boolean;
  walk?: string;
  bitmap?: string;
  /**
   * A text search with tags in the bitmap's form, for its first hits: the text's candidates (trigram and plan
   * indexes) sorted in the list's order (`from`, aliased `s`), then each checked for its tags in that order until
   * the hits are found (`where`); the same parameters in the same order. A tag half the fleet has is checked on
   * about twice the hits, not on every candidate of the text.
   */
  sorted?: { from: string; where: string; tags: readonly string[] };
  /** The search's condition alone, in the walk's form (the probe checks it on the newest SIMs), and its values. */
  match?: string;
  matchParams?: unknown[];
};

/** The whole list's filter (no search): its one parameter is the company's id. */
export const WHOLE_LIST = { where: `s.company_id = ? and s.status = 'active'`, search: false } as const;

/** The arm of each state a list may be narrowed to (a paused SIM is an active one with a pause mark). */
const STATE_ARMS: Record<ListState, string> = { active: 's.paused_at is null', paused: 's.paused_at is not null' };

const likeAnywhere = (text: string) => `%${text.replace(/[\\%_]/g, (c) => '\\' + c)}%`;

/**
 * The search, as plain `ILIKE '%q%'` on the ICCID, the mark, the comment and the plan's description finds it
 * (q trimmed; its own % _ and \ taken literally), in a form the indexes serve (docs/decisions/019):
 * - each text column is one arm that its trigram index answers; the plan description is looked up in the few
 *   plans first, and its arm is the plans' ids (an index of its own);
 * - a long run of digits (7 or more) is looked up by its last 6 digits, which every match holds, and checked
 *   whole on the rows found: its first digits are the ICCIDs' common prefix, whose trigrams every SIM has. The
 *   whole check is written `(col || '')` so that it stays a check and does not join the index lookup.
 */
export async function listFilter(
  em: Em,
  companyId: number,
  q: string | undefined,
  tags: readonly string[] = [],
  state?: ListState,
): Promise<ListFilter> {
  const text = q?.trim();
  const byText = text ? await textArms(em, text) : null;
  // Active or paused SIMs only (issue 40): the paused ones through their own partial index, few of many.
  const inState = state === undefined ? undefined : STATE_ARMS[state];
  if (!byText && tags.length === 0 && !inState) return { ...WHOLE_LIST, params: [companyId] };
  // Each tag a SIM must have (all of them): a probe of sim_tag's key per SIM walked, or the tag's SIMs through its
  // index for the bitmap. The company's id is written in (an integer of the session, never a caller's text), so that
  // every form keeps the same parameters.
  const company = Math.trunc(companyId);
  const probe = (fence = '') =>
    `exists (select 1 from sim_tag t where t.company_id = ${company} and t.sim_id = s.id and t.tag = ?${fence})`;
  const has = tags.map(() => probe());
  const tagged = tags.map(
    () => `s.id in (select t.sim_id from sim_tag t where t.company_id = ${company} and t.tag = ?)`,
  );
  const and = (parts: Array<string | undefined>) => parts.filter((p) => p !== undefined).join(' and ');
  const params = [...(byText?.params ?? []), ...tags];
  const bitmapBase = `s.company_id + 0 = ? and s.status = 'active'`;
  // Each probe a subplan of its own (`offset 0`: never a join over all the tag's SIMs), run row by row in order.
  const probed = tags.map(() => probe(' offset 0'));
  const sorted =
    byText && tags.length > 0
      ? {
          from: `(select s.* from sim s where ${and([bitmapBase, byText.indexed])} ${ORDER} offset 0) s`,
          where: and([...probed, inState]),
          tags,
        }
      : undefined;
  return {
    where: and([WHOLE_LIST.where, byText?.indexed, ...has, inState]),
    walk: and([WHOLE_LIST.where, byText?.checked, ...has, inState]),
    bitmap: and([bitmapBase, byText?.indexed, ...tagged, inState]),
    ...(sorted ? { sorted } : {}),
    match: `(${and([byText?.checked, ...has, inState])})`,
    matchParams: params,
    params: [companyId, ...params],
    search: true,
  };
}

/** A text search's arms: `indexed` (an index may serve each), `checked` (none can), and their values. */
async function textArms(em: Em, text: string): Promise<{ indexed: string; checked: string; params: unknown[] }> {
  const like = likeAnywhere(text);
  const plans = await em.execute<{ id: number }[]>(`select id from rate_plan where description ilike ?`, [like]);
  const digits = /^\d{7,}$/.test(text);
  // Each arm in two spellings: `indexed` (an index may serve it), `checked` (none can: `|| ''`, `+ 0`).
  const arms: Array<{ indexed: string; checked: string }> = [];
  const params: unknown[] = [];
  for (const col of ['s.iccid', 's.invoice_line_mark', 's.invoice_line_note']) {
    if (digits) {
      arms.push({
        indexed: `(${col} like ? and (${col} || '') like ?)`,
        checked: `((${col} || '') like ? and (${col} || '') like ?)`,
      });
      params.push(likeAnywhere(text.slice(-6)), like);
    } else {
      arms.push({ indexed: `${col} ilike ?`, checked: `(${col} || '') ilike ?` });
      params.push(like);
    }
  }
  if (plans.length > 0) {
    arms.push({ indexed: `s.rate_plan_id = any(?::int[])`, checked: `(s.rate_plan_id + 0) = any(?::int[])` });
    params.push(`{${plans.map((p) => Number(p.id)).join(',')}}`);
  }
  return {
    indexed: `(${arms.map((a) => a.indexed).join(' or ')})`,
    checked: `(${arms.map((a) => a.checked).join(' or ')})`,
    params,
  };
}

export const ORDER = `order by s.activated_at desc, s.id desc`;
const off = (...kinds: string[]) => kinds.map((k) => `set_config('enable_${k}', 'off', true)`).join(', ');
/**
 * Each form's plan is cheap, but a way turned off costs the planner 10^10, and past jit_above_cost PostgreSQL
 * compiles the query with LLVM first (140 ms of 150); nor do twenty people searching at once on two cores gain
 * from parallel workers.
 */
const QUIET = `set_config('jit', 'off', true), set_config('max_parallel_workers_per_gather', '0', true)`;
/**
 * The planner settings of a search's form, for its transaction. The walk reads the list's index in order: no
 * table scan, no bitmap, no sort (else a full scan of another index of the company and a sort won at 200,000
 * SIMs), and its page joined by key (no merge or hash join over a whole index). The bitmap finds candidates
 * through the trigram and plan indexes and sorts them: no walk of an index, no table scan.
 */
export const PLANNER = {
  walk: `select ${off('seqscan', 'bitmapscan', 'sort', 'mergejoin', 'hashjoin')}, ${QUIET}`,
  bitmap: `select ${off('seqscan', 'indexscan', 'indexonlyscan')}, ${QUIET}`,
} as const;

/**
 * A search's statements in one transaction with a statement timeout and a name of its own, by which it is
 * cancelled in the database when `signal` aborts (server/db/overload.ts).
 */
export async function inSearchTransaction<T>(
  em: Em,
  opts: { signal?: AbortSignal; timeoutMs?: number },
  work: (tx: Em) => Promise<T>,
): Promise<T> {
  const search = searchTag(opts.timeoutMs);
  return cancelledOnAbort(em, opts.signal, search.tag, () =>
    em.transactional(async (tx) => {
      await tx.execute(search.sql, search.params);
      return work(tx);
    }),
  );
}

/** How many of the company's newest SIMs the probe checks (an index-only walk of this many entries). */
const PROBE_ROWS = 2_000;
/** From this many matches among them on, a search is dense: walking the list finds a page (and the count) soon. */
const PROBE_DENSE = 50;

/**
 * Which form a search takes: a walk when matches are dense among the newest SIMs (or the company is small),
 * else the bitmap. The planner's own estimate of `ILIKE '%…%'` comes from a sample of a hundred values and
 * flipped between runs (a search of 4 digits took 18 ms, then 7 s, on the same data).
 */
export async function searchForm(em: Em, filter: ListFilter): Promise<'walk' | 'bitmap'> {
  // The matches are counted only up to PROBE_DENSE: a dense search (or a tag most SIMs have) stops after a few dozen
  // rows instead of checking all PROBE_ROWS (each check of a tag is a probe of sim_tag).
  const [probe] = await em.execute<Array<{ rows: number; hits: number }>>(
    `select
       (select count(*)::int from (select 1 from sim s where ${WHOLE_LIST.where} limit ${PROBE_ROWS}) n) as rows,
       (select count(*)::int from (
          select 1 from (
            select s.id, s.iccid, s.invoice_line_mark, s.invoice_line_note, s.rate_plan_id, s.paused_at from sim s
             where ${WHOLE_LIST.where} ${ORDER} limit ${PROBE_ROWS}) s
           where ${filter.match} limit ${PROBE_DENSE}) h) as hits`,
    [filter.params[0], filter.params[0], ...(filter.matchParams ?? [])],
  );
  return !probe || probe.rows < PROBE_ROWS || probe.hits >= PROBE_DENSE ? 'walk' : 'bitmap';
}

/** Fewer SIMs than this have a tag: the bitmap starts from the tag's SIMs rather than from the text's candidates. */
const RARE_TAG = 5_000;

/**
 * Whether a text search with tags takes its sorted form (`ListFilter.sorted`): not when one of its tags is rare,
 * whose few SIMs (found through the tag's index) are fewer to check than the text's candidates. Counted up to
 * RARE_TAG on the tag's index, before a form's planner settings (which turn index scans off) apply.
 */
export async function takesSorted(em: Em, companyId: number, filter: ListFilter): Promise<boolean> {
  const tags = filter.sorted?.tags ?? [];
  if (tags.length === 0) return false;
  const counts = tags.map(
    () =>
      `(select count(*) from (select 1 from sim_tag t where t.company_id = ? and t.tag = ? limit ${RARE_TAG}) x) < ${RARE_TAG}`,
  );
  const [row] = await em.execute<Array<{ rare: boolean }>>(
    `select (${counts.join(' or ')}) as rare`,
    tags.flatMap((tag) => [companyId, tag]),
  );
  return row?.rare === false;
}

/** The list's SQL for a filter: a page (limit, offset) and the count (for a search, up to the cap). */
export function listSql(filter: Pick<ListFilter, 'where' | 'search'> & { from?: string }): {
  page: string;
  count: string;
} {
  const from = filter.from ?? 'sim s';
  return {
    // A search's page is found first and then joined with its plans: its candidates are not (a bitmap's thousands).
    page: filter.search
      ? `select ${SIM_COLUMNS} from (select s.* from ${from} where ${filter.where} ${ORDER} limit ? offset ?) s
          join rate_plan r on r.id = s.rate_plan_id ${ORDER}`
      : `select ${SIM_COLUMNS} from ${from} join rate_plan r on r.id = s.rate_plan_id where ${filter.where}
          ${ORDER} limit ? offset ?`,
    count: filter.search
      ? `select count(*)::int as n from (select 1 from ${from} where ${filter.where} ${ORDER} limit ${SEARCH_COUNT_CAP + 1}) x`
      : `select coalesce(sum(n), 0)::int as n from sim_daily_count where company_id = ?`,
  };
}

/** A search's first SEARCH_COUNT_CAP + 1 hits (ids and order keys: found once), their count, and the page
 * (limit, offset) among them with its columns. */
export const searchPageAndCount = (where: string, from = 'sim s') => `with hits as materialized (
    select s.id, s.activated_at from ${from} where ${where} ${ORDER} limit ${SEARCH_COUNT_CAP + 1}
  )
  select (select count(*) from hits)::int as n, ${SIM_COLUMNS}
  from (select id, activated_at from hits order by activated_at desc, id desc limit ? offset ?) h
  join sim s on s.id = h.id join rate_plan r on r.id = s.rate_plan_id
  ${ORDER}`;
