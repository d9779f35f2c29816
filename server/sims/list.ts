// The company's list of active SIMs, newest first: a page (with its total for the paginated screen), or the
// whole list a batch at a time for the list export; a search in the form search.ts picks.
import { isDefaultView, type ListView } from '#domain/sims/view.ts';
import type { ListState } from '#domain/sims/pause.ts';
import type { Em } from '#server/db/orm.ts';
import { readRow, readRows } from '#server/db/prepared.ts';
import { SIM_COLUMNS, simView, type SimRow, type SimView } from './rows.ts';
import {
  inSearchTransaction,
  listFilter,
  listSql,
  ORDER,
  PLANNER,
  SEARCH_COUNT_CAP,
  searchForm,
  searchPageAndCount,
  takesSorted,
  type ListFilter,
} from './search.ts';
import { monthOf, viewBatches, viewPage } from './views.ts';

/** The day (UTC) in which a deep page of the whole list starts, and how many SIMs come before that day. */
export const DAY_OF_OFFSET_SQL = `select to_char(day, 'YYYY-MM-DD') as day, (upto - n)::int as before from (
    select day, n, sum(n) over (order by day desc) as upto from sim_daily_count where company_id = ? and n <> 0
  ) d where upto > ? order by day desc limit 1`;
/** A page of the whole list from the start of a day on: the offset counts from that day's newest SIM. */
export const PAGE_FROM_DAY_SQL = `select ${SIM_COLUMNS} from sim s join rate_plan r on r.id = s.rate_plan_id
  where s.company_id = ? and s.status = 'active' and s.activated_at < ((?::date + 1)::timestamp at time zone 'UTC')
  ${ORDER} limit ? offset ?`;
/** Below this offset a page walks the list's index; from it on, it starts at the day the counts point to. */
const DEEP_OFFSET = 2_000;

/**
 * The company's active SIMs, newest first, optionally filtered by q (in ICCID, marks and plan description).
 * The total is counted only when asked for (the paginated screen): for the whole list exact (the daily counts),
 * for a search up to SEARCH_COUNT_CAP + 1; past the cap `exact` is false and `total` is the cap ("more than").
 * A search's SQL is sent with its values (planned for them, never a generic plan); the whole list's, prepared.
 */
export async function listSims(
  em: Em,
  companyId: number,
  opts: {
    q?: string;
    /** Tags every SIM listed has. */
    tag?: readonly string[];
    /** Active or paused SIMs only (both when left out). */
    status?: ListState;
    limit?: number;
    offset?: number;
    withTotal?: boolean;
    afterId?: number;
    /**
     * A search's form, chosen by the probe unless given (tests compare them): `sorted` is the bitmap's with a text
     * and tags whose first hits are found by their text's candidates in order (search.ts `ListFilter.sorted`).
     */
    form?: 'walk' | 'bitmap' | 'sorted';
    /** The HTTP client went away: a search still running is cancelled in the database. */
    signal?: AbortSignal;
    /** A search's statement timeout (SEARCH_TIMEOUT_MS). */
    timeoutMs?: number;
    /** Another order or a usage filter (views.ts); not with afterId. */
    view?: ListView;
    /** The clock of the view's month and silence (tests set it). */
    now?: Date;
  },
): Promise<{ items: SimView[]; total: number | null; exact: boolean }> {
  const filter = await listFilter(em, companyId, opts.q, opts.tag, opts.status);
  if (opts.view && !isDefaultView(opts.view) && opts.afterId === undefined) {
    const now = opts.now ?? new Date();
    const { rows, n: counted } = await viewPage(
      em,
      filter,
      opts.view,
      { companyId, month: monthOf(now), now },
      {
        ...opts,
        // A view's rare search is its hits sorted in the view's order: the bitmap's form (views.ts).
        form: opts.form === 'sorted' ? 'bitmap' : opts.form,
        limit: opts.limit ?? 50,
        offset: opts.offset ?? 0,
        withCount: !!opts.withTotal && !!opts.view.filter,
      },
    );
    const items = rows.map(simView);
    if (opts.withTotal && !opts.view.filter) {
      // A sort alone lists what the list (or its search) does: its count is theirs.
      const all = await listSims(em, companyId, { ...opts, view: undefined, limit: 0, offset: 0 });
      return { items, total: all.total, exact: all.exact };
    }
    // A filter's rows are counted up to the cap, as a search's are.
    const exact = counted === null || counted <= SEARCH_COUNT_CAP;
    return { items, total: exact ? counted : SEARCH_COUNT_CAP, exact };
  }
  if (opts.afterId !== undefined) {
    // Keyset: the rows after this SIM of the company in the list's order (a cursor of the API).
    const after = ` and (s.activated_at, s.id) < (select activated_at, id from sim where id = ? and company_id = ?)`;
    filter.where += after;
    if (filter.walk) filter.walk += after;
    if (filter.bitmap) filter.bitmap += after;
    if (filter.sorted) filter.sorted.where += after;
    filter.params.push(opts.afterId, companyId);
    filter.search = true; // planned for its values, as a search is
  }
  const limit = opts.limit ?? null;
  const offset = opts.offset ?? 0;
  /** The page (and count) in a search's form (null: the whole list, or the keyset of the API without a search). */
  const run = async (db: Em, form: 'walk' | 'bitmap' | null, sorted?: ListFilter['sorted']) => {
    // A text with tags in the bitmap's form: its candidates in order, their tags checked until the page is found.
    const chosen: ListFilter & { from?: string } = sorted
      ? { ...filter, ...sorted }
      : form
        ? { ...filter, where: (form === 'walk' ? filter.walk : filter.bitmap) ?? filter.where }
        : filter;
    const { page, count } = listSql(chosen);
    const read = filter.search
      ? <T extends object>(sql: string, params: unknown[]) => db.execute<T[]>(sql, params)
      : <T extends object>(sql: string, params: unknown[]) => readRows<T>(db, sql, params);
    const pageRows = async (): Promise<SimRow[]> => {
      if (filter.search || offset < DEEP_OFFSET) return read<SimRow>(page, [...filter.params, limit, offset]);
      const at = await readRow<{ day: string; before: number }>(db, DAY_OF_OFFSET_SQL, [companyId, offset]);
      if (!at) return [];
      return readRows<SimRow>(db, PAGE_FROM_DAY_SQL, [companyId, at.day, limit, offset - at.before]);
    };
    if (filter.search && opts.withTotal && limit !== null && offset + limit <= SEARCH_COUNT_CAP + 1) {
      // A search's page within its counted hits: one statement finds them (once), counts them and joins the page.
      const hit = await db.execute<Array<SimRow & { n: number }>>(searchPageAndCount(chosen.where, chosen.from), [
        ...filter.params,
        limit,
        offset,
      ]);
      const n =
        hit[0] !== undefined ? Number(hit[0].n) : Number((await read<{ n: number }>(count, filter.params))[0]?.n ?? 0);
      return { rows: hit as SimRow[], n };
    }
    // In a transaction (one connection) the two run one after the other; else at once.
    const [rows, counted] = form
      ? [await pageRows(), opts.withTotal ? await read<{ n: number }>(count, filter.params) : null]
      : await Promise.all([
          pageRows(),
          opts.withTotal ? read<{ n: number }>(count, filter.search ? filter.params : [companyId]) : null,
        ]);
    return { rows, n: counted ? Number(counted[0]?.n ?? 0) : null };
  };
  // A search runs in one transaction: the probe picks its form (the same rows whichever), whose planner settings
  // then leave it that one way (searchForm).
  const { rows, n } =
    filter.walk && filter.bitmap
      ? await inSearchTransaction(em, opts, async (tx) => {
          const chosen = opts.form ?? (await searchForm(tx, filter));
          const form = chosen === 'sorted' ? 'bitmap' : chosen;
          const sorted =
            chosen === 'sorted' || (!opts.form && form === 'bitmap' && (await takesSorted(tx, companyId, filter)))
              ? filter.sorted
              : undefined;
          await tx.execute(PLANNER[form]);
          return run(tx, form, sorted);
        })
      : await run(em, null);
  const exact = !filter.search || n === null || n <= SEARCH_COUNT_CAP;
  // Past the cap the total says "more than SEARCH_COUNT_CAP", never a number that was not counted.
  return { items: rows.map(simView), total: exact ? n : SEARCH_COUNT_CAP, exact };
}

/**
 * The same list (filter and order) read a batch at a time, for the list export: each batch starts after the
 * last SIM read (keyset on the list's order), so neither the whole list nor an ever longer offset scan is
 * needed. The last SIM's own activated_at is compared in SQL: a JavaScript Date would lose its microseconds.
 */
export async function* listSimBatches(
  em: Em,
  companyId: number,
  opts: {
    q?: string;
    tag?: readonly string[];
    status?: ListState;
    batchSize: number;
    form?: 'walk' | 'bitmap';
    view?: ListView;
    now?: Date;
  },
): AsyncGenerator<SimView[]> {
  const filter = await listFilter(em, companyId, opts.q, opts.tag, opts.status);
  if (opts.view && !isDefaultView(opts.view)) {
    const now = opts.now ?? new Date();
    const scope = { companyId, month: monthOf(now), now };
    for await (const rows of viewBatches(em, filter, opts.view, scope, opts.batchSize)) yield rows.map(simView);
    return;
  }
  // A search reads in the form the probe picks, each batch in that form's transaction (as listSims does).
  const form = filter.walk && filter.bitmap ? (opts.form ?? (await searchForm(em, filter))) : null;
  const where = (form && filter[form]) ?? filter.where;
  const base = `select ${SIM_COLUMNS} from sim s join rate_plan r on r.id = s.rate_plan_id where ${where}`;
  const order = ` ${ORDER} limit ?`;
  const read = (sql: string, params: unknown[]) =>
    form
      ? inSearchTransaction(em, {}, async (tx) => {
          await tx.execute(PLANNER[form]);
          return tx.execute<SimRow[]>(sql, params);
        })
      : readRows<SimRow>(em, sql, params);
  let lastId: number | null = null;
  for (;;) {
    const rows: SimRow[] =
      lastId === null
        ? await read(base + order, [...filter.params, opts.batchSize])
        : await read(base + ` and (s.activated_at, s.id) < (select activated_at, id from sim where id = ?)` + order, [
            ...filter.params,
            lastId,
            opts.batchSize,
          ]);
    if (rows.length > 0) yield rows.map(simView);
    const last = rows.at(-1);
    if (rows.length < opts.batchSize || !last) return;
    lastId = Number(last.id);
  }
}
