// Long: the list's views (docs/decisions/035): each sort's and filter's walk, the page, its capped count, and the
// export's batches of the same, in one place so that the three read the same rows in the same order.
// The SIM list ordered by usage or last seen, or narrowed by a usage filter (issue 39): each view is read by
// walking the one index that holds its order (this month's totals by amount, the last sightings by time, the
// list's own index for activation) and stopping after the page, never by sorting the fleet. A SIM without a
// figure to sort by (no usage this month, never seen) comes after those with one, either way (as a spreadsheet
// sorts its blanks), in the list's own order: a second walk, appended. A search rides along in its own forms
// (search.ts): dense, it is checked on each row of the walk; rare, its few hits are joined with their usage and
// sorted.
import type { Em } from '#server/db/orm.ts';
import { OVER_SHARE, SILENT_HOURS, type Filter, type ListView } from '#domain/sims/view.ts';
import { monthStart, swedishDay } from '#domain/usage/time.ts';
import { SIM_COLUMNS, type SimRow } from './rows.ts';
import { inSearchTransaction, PLANNER, SEARCH_COUNT_CAP, searchForm, type ListFilter } from './search.ts';

/** One walk: its tables, condition and values, order, and the keyset of its order (for the export's batches). */
type Walk = {
  from: string;
  where: string;
  params: unknown[];
  order: string;
  /**
   * The order's two columns and the first one's type (the second is a SIM's id), read back as text; null when the
   * order has more (a rare search's sorted hits: few, read by offset).
   */
  key: [string, string, 'timestamptz' | 'bigint'] | null;
  desc: boolean;
};

const SIMS = `sim s join rate_plan r on r.id = s.rate_plan_id`;
const ACTIVE = `s.company_id = ? and s.status = 'active'`;
const TOTAL = `(u.bytes_up + u.bytes_down)`;
/** bytes * 10 > limit MB * 10^6 * 10 * share: whole numbers only. */
const OVER = `${TOTAL} * 10 > r.data_limit::bigint * ${Math.round(OVER_SHARE * 10 * 1e6)}`;
const NO_MONTH = `not exists (select 1 from usage_month u where u.company_id = s.company_id and u.sim_id = s.id and u.month = ?::date)`;
/** Never seen: the SIM's mark (sim_never_seen_index holds these SIMs in the list's order). */
const NEVER = `not s.ever_seen`;

/** What a view's walks need to know besides the view: the company, this Swedish month, now, the plans' least amount. */
export type ViewScope = { companyId: number; month: string; now: Date };

/** The first day of the Swedish month of `now` (usage_month's `month`). */
export const monthOf = (now: Date) => monthStart(swedishDay(now));

const silentBound = (filter: Filter | null, now: Date) => {
  const hours = filter ? SILENT_HOURS[filter] : undefined;
  return hours === undefined ? null : new Date(now.getTime() - hours * 3_600_000).toISOString();
};

/** The activation order's walk of the list's index (either way), as the whole list reads it. */
function byActivation(scope: ViewScope, desc: boolean, extra = ''): Walk {
  const dir = desc ? 'desc' : 'asc';
  return {
    from: SIMS,
    where: `${ACTIVE}${extra}`,
    params: [scope.companyId],
    order: `s.activated_at ${dir}, s.id ${dir}`,
    key: ['s.activated_at', 's.id', 'timestamptz'],
    desc,
  };
}

/** The walks of a view without a search (or with a dense one, added by `withMatch`), in the order they are read. */
async function walksOf(em: Em, view: ListView, scope: ViewScope): Promise<Walk[]> {
  const desc = view.sort.endsWith('-desc');
  const dir = desc ? 'desc' : 'asc';
  const blanks = (cond: string, params: unknown[]): Walk => ({
    ...byActivation(scope, true, ` and ${cond}`),
    params: [scope.companyId, ...params],
  });
  if (view.sort.startsWith('usage')) {
    const over = view.filter === 'over80';
    // Over 80 %: the walk stops below 80 % of the smallest plan's amount (an index bound); each row is held to its own.
    const least = over ? await leastAmountMb(em) : 0;
    const used: Walk = {
      from: `usage_month u join sim s on s.id = u.sim_id join rate_plan r on r.id = s.rate_plan_id`,
      where:
        `u.company_id = ? and u.month = ?::date and s.company_id = u.company_id and s.status = 'active'` +
        (over ? ` and ${TOTAL} > ? and ${OVER}` : ''),
      params: over
        ? [scope.companyId, scope.month, Math.floor(least * OVER_SHARE * 1e6)]
        : [scope.companyId, scope.month],
      order: `${TOTAL} ${dir}, u.sim_id ${dir}`,
      key: [TOTAL, 'u.sim_id', 'bigint'],
      desc,
    };
    return over ? [used] : [used, blanks(NO_MONTH, [scope.month])];
  }
  if (view.sort.startsWith('seen')) {
    const bound = silentBound(view.filter, scope.now);
    const seen: Walk = {
      from: `usage_last_seen l join sim s on s.id = l.sim_id join rate_plan r on r.id = s.rate_plan_id`,
      where:
        `l.company_id = ? and s.company_id = l.company_id and s.status = 'active'` +
        (bound ? ` and l.at < ?::timestamptz` : ''),
      params: bound ? [scope.companyId, bound] : [scope.companyId],
      order: `l.at ${dir}, l.sim_id ${dir}`,
      key: ['l.at', 'l.sim_id', 'timestamptz'],
      desc,
    };
    return bound ? [seen] : [seen, blanks(NEVER, [])];
  }
  return [byActivation(scope, desc, view.filter === 'never' ? ` and ${NEVER}` : '')];
}

/** The smallest data amount (MB) of any plan: no SIM is over 80 % of its own with less than 80 % of this. */
async function leastAmountMb(em: Em): Promise<number> {
  const [row] = await em.execute<Array<{ mb: number | null }>>(`select min(data_limit)::int as mb from rate_plan`);
  return Number(row?.mb ?? 0);
}

/**
 * A rare search's form: its few hits (found by the trigram and plan indexes) joined with their usage, narrowed by
 * the filter and sorted in the view's order (the blanks after the rest, as the walks read them).
 */
function sortedHits(filter: ListFilter, view: ListView, scope: ViewScope): Walk {
  const desc = view.sort.endsWith('-desc');
  const dir = desc ? 'desc' : 'asc';
  const bound = silentBound(view.filter, scope.now);
  const cond =
    view.filter === 'over80'
      ? ` and u.sim_id is not null and ${OVER}`
      : bound
        ? ` and l.at < ?::timestamptz`
        : view.filter === 'never'
          ? ` and ${NEVER}`
          : '';
  const order = view.sort.startsWith('usage')
    ? `(u.sim_id is null), ${TOTAL} ${dir}, u.sim_id ${dir}, s.activated_at desc, s.id desc`
    : view.sort.startsWith('seen')
      ? `(l.sim_id is null), l.at ${dir}, l.sim_id ${dir}, s.activated_at desc, s.id desc`
      : `s.activated_at ${dir}, s.id ${dir}`;
  return {
    from: `${SIMS} left join usage_month u on u.company_id = s.company_id and u.sim_id = s.id and u.month = ?::date
      left join usage_last_seen l on l.company_id = s.company_id and l.sim_id = s.id`,
    where: `${filter.bitmap ?? filter.where}${cond}`,
    params: [scope.month, ...filter.params, ...(bound ? [bound] : [])],
    order,
    key: view.sort.startsWith('activated') ? ['s.activated_at', 's.id', 'timestamptz'] : null,
    desc,
  };
}

/** The walks with a dense search's condition checked on each row. */
const withMatch = (walks: Walk[], filter: ListFilter): Walk[] =>
  filter.match
    ? walks.map((w) => ({
        ...w,
        where: `${w.where} and ${filter.match}`,
        params: [...w.params, ...(filter.matchParams ?? [])],
      }))
    : walks;

type Planned = { walks: Walk[]; planner: string };

/** How a view is read: its walks (with the search in the form the probe picks) and the planner settings that keep them so. */
async function plan(tx: Em, filter: ListFilter, view: ListView, scope: ViewScope, form?: 'walk' | 'bitmap') {
  if (filter.search && filter.bitmap) {
    const chosen = form ?? (await searchForm(tx, filter));
    if (chosen === 'bitmap') return { walks: [sortedHits(filter, view, scope)], planner: PLANNER.bitmap };
  }
  return { walks: withMatch(await walksOf(tx, view, scope), filter), planner: PLANNER.walk } satisfies Planned;
}

const n = (v: number) => Math.max(0, Math.trunc(v));

/** A page (limit, offset) of the walks one after the other: each stops at what the page needs. */
export function viewPageSql(walks: Walk[], limit: number, offset: number): { sql: string; params: unknown[] } {
  const upto = n(limit) + n(offset);
  const one = (w: Walk, cut: string) =>
    `select ${SIM_COLUMNS} from ${w.from} where ${w.where} order by ${w.order} ${cut}`;
  const [first] = walks;
  if (walks.length === 1 && first)
    return { sql: one(first, 'limit ? offset ?'), params: [...first.params, n(limit), n(offset)] };
  // An Append reads its branches in turn: the second only once the first is spent (parallel plans are off).
  return {
    sql: `select * from (${walks.map((w) => `(${one(w, `limit ${upto}`)})`).join(' union all ')}) x limit ? offset ?`,
    params: [...walks.flatMap((w) => w.params), n(limit), n(offset)],
  };
}

/** The view's count up to SEARCH_COUNT_CAP + 1 (a filter's; a sort alone counts as the list does). */
export function viewCountSql(walks: Walk[]): { sql: string; params: unknown[] } {
  const cap = SEARCH_COUNT_CAP + 1;
  return {
    sql: `select count(*)::int as n from (${walks
      .map((w) => `(select 1 from ${w.from} where ${w.where} order by ${w.order} limit ${cap})`)
      .join(' union all ')}) x`,
    params: walks.flatMap((w) => w.params),
  };
}

/** A view's statements (planner settings, page, count) as viewPage runs them: for reading their plans (bench). */
export async function viewStatements(
  tx: Em,
  filter: ListFilter,
  view: ListView,
  scope: ViewScope,
  limit: number,
  offset: number,
  form?: 'walk' | 'bitmap',
) {
  const { walks, planner } = await plan(tx, filter, view, scope, form);
  return { planner, page: viewPageSql(walks, limit, offset), count: viewCountSql(walks) };
}

/**
 * A page of a view (not the default one), and for a filter its count up to the cap. In one transaction (a
 * search's: timeout, cancelled with the request), under the planner settings of its form.
 */
export async function viewPage(
  em: Em,
  filter: ListFilter,
  view: ListView,
  scope: ViewScope,
  opts: {
    limit: number;
    offset: number;
    withCount: boolean;
    form?: 'walk' | 'bitmap';
    signal?: AbortSignal;
    timeoutMs?: number;
  },
): Promise<{ rows: SimRow[]; n: number | null }> {
  return inSearchTransaction(em, opts, async (tx) => {
    const { walks, planner } = await plan(tx, filter, view, scope, opts.form);
    await tx.execute(planner);
    const page = viewPageSql(walks, opts.limit, opts.offset);
    const rows = await tx.execute<SimRow[]>(page.sql, page.params);
    if (!opts.withCount) return { rows, n: null };
    const count = viewCountSql(walks);
    const [row] = await tx.execute<Array<{ n: number }>>(count.sql, count.params);
    return { rows, n: Number(row?.n ?? 0) };
  });
}

/**
 * The view read a batch at a time for the export: each walk by keyset on its own order (the last row's key, read
 * back as text so no precision is lost), one walk after the other.
 */
export async function* viewBatches(
  em: Em,
  filter: ListFilter,
  view: ListView,
  scope: ViewScope,
  batchSize: number,
): AsyncGenerator<SimRow[]> {
  const { walks, planner } = await plan(em, filter, view, scope);
  for (const w of walks) {
    let after: [string, string] | null = null;
    let offset = 0;
    for (;;) {
      const k = w.key;
      const keyset: string = after && k ? ` and (${k[0]}, ${k[1]}) ${w.desc ? '<' : '>'} (?::${k[2]}, ?::int)` : '';
      const cut = k ? `limit ${n(batchSize)}` : `limit ${n(batchSize)} offset ${n(offset)}`;
      const sql: string = `select ${SIM_COLUMNS}, (${k ? k[0] : 's.id'})::text as k0 from ${w.from} where ${w.where}${keyset}
        order by ${w.order} ${cut}`;
      const params: unknown[] = after && k ? [...w.params, ...after] : w.params;
      const rows: Array<SimRow & { k0: string }> = await inSearchTransaction(em, {}, async (tx) => {
        await tx.execute(planner);
        return tx.execute<Array<SimRow & { k0: string }>>(sql, params);
      });
      if (rows.length > 0) yield rows;
      const last = rows.at(-1);
      if (rows.length < batchSize || !last) break;
      after = [last.k0, String(last.id)];
      offset += rows.length;
    }
  }
}
