// SIM business rules: activate, list and search, read with history, edit, deactivate.
// Every operation is scoped to one company and runs in one transaction.
import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import { t } from '#domain/texts/common.ts';
import { tApiKeys } from '#domain/texts/api-keys.ts';
import { ApiKey, Company, RatePlan, Sim, SimEvent, User } from '#server/db/entities.ts';
import type { Em } from '#server/db/orm.ts';
import { readRow, readRows } from '#server/db/prepared.ts';
import { cancelledOnAbort, searchTag } from '#server/db/overload.ts';
import { Conflict, Invalid, NotFound } from '#domain/errors.ts';
import { LIST_PAGE_MAX } from '#domain/zod.ts';
import { resolvePlan, selectionProblem } from '#domain/plans/selector.ts';
import type { z } from 'zod';
import { recordAudit, type Actor as AuditActor } from '#server/audit/trail.ts';
import { enqueueEvent } from '#server/webhooks/outbox.ts';
import type { ActivateInput, EditInput, simDetailOutput, simOutput } from '#domain/sims/schemas.ts';

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

/** The trail's actor of a SIM operation's caller. */
export const auditActor = (actor: Actor): AuditActor =>
  actor.apiKey
    ? { userId: null, actingCompanyId: null, apiKey: actor.apiKey }
    : { userId: actor.userId!, actingCompanyId: actor.actingCompanyId ?? null };

/** Who a SIM's history event names: the user, or the API key. */
const eventBy = (tx: Em, actor: Actor) => ({
  by: actor.userId === null ? null : tx.getReference(User, actor.userId),
  apiKey: actor.apiKey ? tx.getReference(ApiKey, actor.apiKey.id) : null,
});

/** The company trail's row for a SIM change, in the change's transaction. */
function auditSim(
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
  const problem = selectionProblem(plans, choice);
  if (problem) throw Invalid.field(problem.field, problem.message);
  return resolvePlan(plans, choice)!;
}

export async function activateSim(em: Em, actor: Actor, input: ActivateInput): Promise<Sim> {
  try {
    return await em.transactional(async (tx) => {
      const plan = await planFor(tx, input);
      if (await tx.count(Sim, { iccid: input.iccid, status: 'active' }))
        throw new Conflict(t.errors.simAlreadyActive, 'iccid');
      const who = eventBy(tx, actor);
      const now = new Date();
      const sim = tx.create(Sim, {
        iccid: input.iccid,
        company: tx.getReference(Company, actor.companyId),
        ratePlan: plan,
        invoiceLineMark: input.invoiceLineMark,
        invoiceLineNote: input.invoiceLineNote,
        status: 'active',
        activatedAt: now,
        activatedBy: who.by,
      });
      tx.create(SimEvent, {
        sim,
        kind: 'activated',
        ratePlan: plan,
        ...who,
        at: now,
        before: null,
        after: { ratePlan: plan.code, invoiceLineMark: input.invoiceLineMark, invoiceLineNote: input.invoiceLineNote },
      });
      await tx.flush();
      auditSim(tx, actor, 'simActivated', sim, null, {
        ratePlan: plan.code,
        invoiceLineMark: input.invoiceLineMark,
        invoiceLineNote: input.invoiceLineNote,
      });
      await tx.flush();
      await enqueueEvent(tx, actor.companyId, 'sim.activated', {
        sim: {
          id: sim.id,
          iccid: sim.iccid,
          activatedAt: now.toISOString(),
          ratePlan: plan.code,
          invoiceLineMark: input.invoiceLineMark,
          invoiceLineNote: input.invoiceLineNote,
        },
      });
      return sim;
    });
  } catch (e) {
    // Two activations of one ICCID at once: the partial unique index lets exactly one through.
    if (e instanceof UniqueConstraintViolationException) throw new Conflict(t.errors.simAlreadyActive, 'iccid');
    throw e;
  }
}

// The reads below serve every list and detail view and the API, so they are plain SQL shaped like the
// answer: hydrating 50 entities cost more than the query itself.
/**
 * A timestamptz as JavaScript's toISOString writes it (UTC, milliseconds), made by PostgreSQL: the list and the
 * API answer it as text, with no Date made and printed per row (the bulk events' data uses it too).
 */
export const isoSql = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const SIM_COLUMNS = `s.id, s.iccid, s.invoice_line_mark, s.invoice_line_note, s.status,
  ${isoSql('s.activated_at')} as activated_at, r.id as plan_id, r.code, r.description, r.data_limit, r.call, r.sms, r.roaming, r.is_legacy`;

/** A SIM row as SIM_COLUMNS selects it (the load benchmark's baseline maps its rows with simView too). */
export type SimRow = {
  id: number;
  iccid: string;
  invoice_line_mark: string;
  invoice_line_note: string;
  status: 'active' | 'deactivated';
  /** ISO 8601 (isoSql). */
  activated_at: string;
  plan_id: number;
  code: string;
  description: string;
  data_limit: number;
  call: boolean;
  sms: boolean;
  roaming: boolean;
  is_legacy: boolean;
};

export type SimView = z.infer<typeof simOutput>;
export type SimDetailView = z.infer<typeof simDetailOutput>;
type EventRow = {
  kind: SimDetailView['history'][number]['kind'];
  /** ISO 8601 (isoSql). */
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

export const simView = (r: SimRow): SimView => ({
  id: r.id,
  iccid: r.iccid,
  invoiceLineMark: r.invoice_line_mark,
  invoiceLineNote: r.invoice_line_note,
  status: r.status,
  activatedAt: r.activated_at,
  ratePlan: {
    id: r.plan_id,
    code: r.code,
    description: r.description,
    dataLimit: r.data_limit,
    call: r.call,
    sms: r.sms,
    roaming: r.roaming,
    isLegacy: r.is_legacy,
  },
});

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
  /** The search's condition alone, in the walk's form (the probe checks it on the newest SIMs), and its values. */
  match?: string;
  matchParams?: unknown[];
};

/** The whole list's filter (no search): its one parameter is the company's id. */
export const WHOLE_LIST = { where: `s.company_id = ? and s.status = 'active'`, search: false } as const;

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
export async function listFilter(em: Em, companyId: number, q: string | undefined): Promise<ListFilter> {
  const text = q?.trim();
  if (!text) return { ...WHOLE_LIST, params: [companyId] };
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
  const indexed = `(${arms.map((a) => a.indexed).join(' or ')})`;
  const checked = `(${arms.map((a) => a.checked).join(' or ')})`;
  return {
    where: `${WHOLE_LIST.where} and ${indexed}`,
    walk: `${WHOLE_LIST.where} and ${checked}`,
    bitmap: `s.company_id + 0 = ? and s.status = 'active' and ${indexed}`,
    match: checked,
    matchParams: params,
    params: [companyId, ...params],
    search: true,
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
async function inSearchTransaction<T>(
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
  const [probe] = await em.execute<Array<{ rows: number; hits: number }>>(
    `select count(*)::int as rows, (count(*) filter (where ${filter.match}))::int as hits from (
       select s.iccid, s.invoice_line_mark, s.invoice_line_note, s.rate_plan_id from sim s
       where ${WHOLE_LIST.where} ${ORDER} limit ${PROBE_ROWS}) s`,
    [...(filter.matchParams ?? []), filter.params[0]],
  );
  return !probe || probe.rows < PROBE_ROWS || probe.hits >= PROBE_DENSE ? 'walk' : 'bitmap';
}

/** The list's SQL for a filter: a page (limit, offset) and the count (for a search, up to the cap). */
export function listSql(filter: Pick<ListFilter, 'where' | 'search'>): { page: string; count: string } {
  return {
    page: `select ${SIM_COLUMNS} from sim s join rate_plan r on r.id = s.rate_plan_id where ${filter.where}
      ${ORDER} limit ? offset ?`,
    count: filter.search
      ? `select count(*)::int as n from (select 1 from sim s where ${filter.where} ${ORDER} limit ${SEARCH_COUNT_CAP + 1}) x`
      : `select coalesce(sum(n), 0)::int as n from sim_daily_count where company_id = ?`,
  };
}

/** A search's first SEARCH_COUNT_CAP + 1 hits (ids and order keys: found once), their count, and the page
 * (limit, offset) among them with its columns. */
export const searchPageAndCount = (where: string) => `with hits as materialized (
    select s.id, s.activated_at from sim s where ${where} ${ORDER} limit ${SEARCH_COUNT_CAP + 1}
  )
  select (select count(*) from hits)::int as n, ${SIM_COLUMNS}
  from (select id, activated_at from hits order by activated_at desc, id desc limit ? offset ?) h
  join sim s on s.id = h.id join rate_plan r on r.id = s.rate_plan_id
  ${ORDER}`;

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
    limit?: number;
    offset?: number;
    withTotal?: boolean;
    afterId?: number;
    /** A search's form, chosen by the probe unless given (tests compare both). */
    form?: 'walk' | 'bitmap';
    /** The HTTP client went away: a search still running is cancelled in the database. */
    signal?: AbortSignal;
    /** A search's statement timeout (SEARCH_TIMEOUT_MS). */
    timeoutMs?: number;
  },
): Promise<{ items: SimView[]; total: number | null; exact: boolean }> {
  const filter = await listFilter(em, companyId, opts.q);
  if (opts.afterId !== undefined) {
    // Keyset: the rows after this SIM of the company in the list's order (a cursor of the API).
    const after = ` and (s.activated_at, s.id) < (select activated_at, id from sim where id = ? and company_id = ?)`;
    filter.where += after;
    if (filter.walk) filter.walk += after;
    if (filter.bitmap) filter.bitmap += after;
    filter.params.push(opts.afterId, companyId);
    filter.search = true; // planned for its values, as a search is
  }
  const limit = opts.limit ?? null;
  const offset = opts.offset ?? 0;
  /** The page (and count) in a search's form (null: the whole list, or the keyset of the API without a search). */
  const run = async (db: Em, form: 'walk' | 'bitmap' | null) => {
    const chosen = form ? { ...filter, where: form === 'walk' ? filter.walk! : filter.bitmap! } : filter;
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
      const hit = await db.execute<Array<SimRow & { n: number }>>(searchPageAndCount(chosen.where), [
        ...filter.params,
        limit,
        offset,
      ]);
      const n =
        hit.length > 0 ? Number(hit[0]!.n) : Number((await read<{ n: number }>(count, filter.params))[0]?.n ?? 0);
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
          const form = opts.form ?? (await searchForm(tx, filter));
          await tx.execute(PLANNER[form]);
          return run(tx, form);
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
  opts: { q?: string; batchSize: number; form?: 'walk' | 'bitmap' },
): AsyncGenerator<SimView[]> {
  const filter = await listFilter(em, companyId, opts.q);
  // A search reads in the form the probe picks, each batch in that form's transaction (as listSims does).
  const form = filter.walk && filter.bitmap ? (opts.form ?? (await searchForm(em, filter))) : null;
  const where = form ? filter[form]! : filter.where;
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
    if (rows.length < opts.batchSize) return;
    lastId = Number(rows.at(-1)!.id);
  }
}

export const ONE_SQL = `select ${SIM_COLUMNS} from sim s join rate_plan r on r.id = s.rate_plan_id
  where s.id = ? and s.company_id = ? and s.status = 'active'`;
/**
 * How many events of a SIM's history one read gives: GET /api/sim/{id} and the SIM page show the newest this
 * many, older ones come a page at a time (simHistory; docs/decisions/020).
 */
export const HISTORY_PAGE = LIST_PAGE_MAX;
const HISTORY_COLUMNS = `e.id, e.kind, ${isoSql('e.at')} as at, u.name as by, k.name as key_name, e.before, e.after`;
/**
 * A page of the SIM's events: the page is cut inside a LATERAL over sim_event alone, walking
 * sim_event_sim_at_index (HISTORY_PLANNER), so the joins see a page, never a SIM's 20,000 events. `where` may hold
 * the keyset; the SIM is the company's.
 */
const historySql = (where: string) => `select ${HISTORY_COLUMNS}
  from sim s cross join lateral (
    select * from sim_event e where e.sim_id = s.id ${where} order by e.at desc, e.id desc limit ${HISTORY_PAGE + 1}
  ) e
  left join app_user u on u.id = e.by_id left join api_key k on k.id = e.api_key_id
  where s.company_id = ? and s.id = ? and s.status = 'active' order by e.at desc, e.id desc`;
/** The newest HISTORY_PAGE + 1 events of one of the company's active SIMs (one more: whether there are older). */
export const HISTORY_SQL = historySql('');
/**
 * The next HISTORY_PAGE + 1 events after one of the SIM's own (keyset on the history's order); its parameters:
 * that event's id, then the company and the SIM. The event is found by its id (`+ 0`: not by walking the SIM's).
 */
export const HISTORY_BEFORE_SQL = historySql(
  `and (e.at, e.id) < (select b.at, b.id from sim_event b where b.id = ? and b.sim_id + 0 = s.id)`,
);

type HistoryItem = SimDetailView['history'][number] & { id: number };

const historyItem = (e: EventRow & { id: number }): HistoryItem => ({
  id: Number(e.id),
  kind: e.kind,
  at: e.at,
  by: e.by ?? (e.key_name === null ? null : tApiKeys.actor(e.key_name)),
  before: json(e.before),
  after: json(e.after),
});

/** The rows of one page of history: the page, and the `before` of the next (older) one, or null. */
function historyPage(rows: Array<EventRow & { id: number }>): { items: HistoryItem[]; nextBefore: number | null } {
  const items = rows.slice(0, HISTORY_PAGE).map(historyItem);
  return { items, nextBefore: rows.length > HISTORY_PAGE ? items.at(-1)!.id : null };
}

/**
 * A history read's planner settings: the SIM's index walked for a page, never a bitmap of all its events sorted. The
 * planner guesses a few events per SIM (a generic plan always, a custom one for a SIM outside its most common
 * values) and then finds a bitmap and a sort cheaper: for 20,000 events that read them all (54 ms).
 */
export const HISTORY_PLANNER = `select set_config('enable_bitmapscan', 'off', true), set_config('enable_seqscan', 'off', true)`;

/** A page of history rows (HISTORY_SQL or HISTORY_BEFORE_SQL), in a transaction of HISTORY_PLANNER's settings. */
const historyRows = (em: Em, sql: string, params: unknown[]) =>
  em.transactional(async (tx) => {
    await tx.execute(HISTORY_PLANNER);
    return tx.execute<Array<EventRow & { id: number }>>(sql, params);
  });

/** One of the company's active SIMs with the newest HISTORY_PAGE events of its history, newest first. */
export async function getSim(em: Em, companyId: number, id: number): Promise<SimDetailView> {
  const row = await readRow<SimRow>(em, ONE_SQL, [id, companyId]);
  if (!row) throw new NotFound(t.errors.simNotFound);
  // The API's history items are as they were before paging: without the event's id.
  const history = historyPage(await historyRows(em, HISTORY_SQL, [companyId, id])).items.map((h) => ({
    kind: h.kind,
    at: h.at,
    by: h.by,
    before: h.before,
    after: h.after,
  }));
  return { ...simView(row), history };
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
  const rows =
    before === undefined
      ? await historyRows(em, HISTORY_SQL, [companyId, id])
      : await historyRows(em, HISTORY_BEFORE_SQL, [before, companyId, id]);
  return historyPage(rows);
}

/**
 * The SIM page's read: one of the company's active SIMs without the history of GET /api/sim/{id}, and a page of its
 * history (simHistory's), in one call: the page reads the SIM and the history once each.
 */
export async function simPage(
  em: Em,
  companyId: number,
  id: number,
  before?: number,
): Promise<{ sim: SimView; history: { items: HistoryItem[]; nextBefore: number | null } }> {
  const row = await readRow<SimRow>(em, ONE_SQL, [id, companyId]);
  if (!row) throw new NotFound(t.errors.simNotFound);
  const rows =
    before === undefined
      ? await historyRows(em, HISTORY_SQL, [companyId, id])
      : await historyRows(em, HISTORY_BEFORE_SQL, [before, companyId, id]);
  return { sim: simView(row), history: historyPage(rows) };
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

/** The company's active SIM, locked for the rest of the transaction. */
async function lockOwnActiveSim(em: Em, companyId: number, id: number): Promise<Sim> {
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

export async function editSim(em: Em, actor: Actor, input: EditInput): Promise<{ changed: boolean }> {
  return em.transactional(async (tx) => {
    const sim = await lockOwnActiveSim(tx, actor.companyId, input.id);
    if (sim.ratePlan.isLegacy) throw new Conflict(t.errors.simLegacy);
    const plan = await planFor(tx, input);
    const before: Record<string, unknown> = {};
    const after: Record<string, unknown> = {};
    if (plan.id !== sim.ratePlan.id) {
      before.ratePlan = sim.ratePlan.code;
      after.ratePlan = plan.code;
    }
    for (const key of ['invoiceLineMark', 'invoiceLineNote'] as const) {
      if (sim[key] !== input[key]) {
        before[key] = sim[key];
        after[key] = input[key];
      }
    }
    if (Object.keys(after).length === 0) return { changed: false };
    sim.ratePlan = plan;
    sim.invoiceLineMark = input.invoiceLineMark;
    sim.invoiceLineNote = input.invoiceLineNote;
    tx.create(SimEvent, {
      sim,
      kind: 'ratePlan' in after ? 'planChanged' : 'updated',
      ratePlan: plan,
      ...eventBy(tx, actor),
      at: new Date(),
      before,
      after,
    });
    auditSim(tx, actor, 'simUpdated', sim, before, after);
    await tx.flush();
    await enqueueEvent(tx, actor.companyId, 'sim.updated', { sim: { id: sim.id, iccid: sim.iccid }, before, after });
    return { changed: true };
  });
}

export async function deactivateSim(em: Em, actor: Actor, id: number): Promise<Sim> {
  return em.transactional(async (tx) => {
    const sim = await lockOwnActiveSim(tx, actor.companyId, id);
    if (sim.ratePlan.isLegacy) throw new Conflict(t.errors.simLegacy);
    const now = new Date();
    sim.status = 'deactivated';
    sim.deactivatedAt = now;
    tx.create(SimEvent, {
      sim,
      kind: 'deactivated',
      ratePlan: sim.ratePlan,
      ...eventBy(tx, actor),
      at: now,
      before: { status: 'active' },
      after: { status: 'deactivated' },
    });
    auditSim(tx, actor, 'simDeactivated', sim, { status: 'active' }, { status: 'deactivated' });
    await tx.flush();
    await enqueueEvent(tx, actor.companyId, 'sim.deactivated', {
      sim: { id: sim.id, iccid: sim.iccid, deactivatedAt: now.toISOString() },
    });
    return sim;
  });
}
