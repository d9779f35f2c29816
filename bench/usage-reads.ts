// The read side of bench:usage (issue 39; USAGE_BENCH_DOORS=...,reads): every usage screen and API call, and the
// searches of /sims, with USAGE_BENCH_USERS people each asking again after a pause of USAGE_BENCH_THINK_MS (half to
// one and a half times it), while the REST door takes records beside them at USAGE_BENCH_BESIDE records a second.
// Before it, `seedRecentRecords` gives a share of the fleet the last 24 hours of raw records (a record every 15
// minutes, as a mediation sends them) and adds them to the totals as the ingest would (bench:usage's exact check at
// the end reads them too), and a tenth of the fleet the mark "Projekt 1" (the search a tenth shares).
// Targets: p50 < 30 ms, p95 < 100 ms for every read.
import type { Em } from '#server/db/orm.ts';
import { ensurePartitions, partitionOf, partitionsForRecord } from '#server/usage/partitions.ts';
import { monthStart, swedishDay } from '#domain/usage/time.ts';
import { loadWith, type Stats } from './data-phase.ts';
import { round, sleep } from './lib.ts';

const QUARTER = 15 * 60_000;
const DAY_MS = 86_400_000;
/** The mark a tenth of the fleet shares (the "Projekt 1"). */
export const SHARED_MARK = 'Projekt 1';

/**
 * The last 24 hours before `before` of raw records for the company's first `sims` active SIMs (by id): one every 15
 * minutes each (source 'bench-seed'), added to the SIMs' day and month totals, their last sighting, the company's
 * days by plan and country and by tag, in the statements' one transaction. And the mark SHARED_MARK on every tenth
 * SIM. Returns the records written.
 */
export async function seedRecentRecords(
  em: Em,
  companyId: number,
  opts: { sims: number; before: number },
): Promise<number> {
  const end = Math.floor(opts.before / QUARTER) * QUARTER;
  const start = end - DAY_MS;
  const wanted = [];
  for (let t = start; t < end; t += 3_600_000) wanted.push(...partitionsForRecord(new Date(t), false));
  wanted.push(partitionOf('usage_day', swedishDay(new Date(end))));
  wanted.push(partitionOf('usage_month', monthStart(swedishDay(new Date(end)))));
  await ensurePartitions(em, wanted);
  const zone = `'Europe/Stockholm'`;
  const params = [new Date(start).toISOString(), new Date(end - QUARTER).toISOString()];
  await em.transactional(async (tx) => {
    await tx.execute(
      `create temporary table recent on commit drop as
       select s.company_id, s.id as sim_id, q as start
       from (select company_id, id from sim where company_id = ? and status = 'active' order by id limit ?) s
       cross join generate_series(?::timestamptz, ?::timestamptz, interval '15 minutes') q`,
      [companyId, opts.sims, ...params],
    );
    await tx.execute(
      `insert into usage_record (company_id, start, source, record_id, sim_id, "end", bytes_up, bytes_down, network,
         country, rat, received_at)
       select company_id, start, 'bench-seed', 'seed-' || sim_id || '-' || extract(epoch from start)::bigint, sim_id,
         start + interval '15 minutes', (sim_id * 31 + extract(epoch from start)::bigint) % 100000,
         (sim_id * 17 + extract(epoch from start)::bigint) % 1000000, '24001',
         case when sim_id % 10 = 0 then 'DK' else 'SE' end, 'LTE', now()
       from recent`,
    );
    // The totals of exactly those records (read back, so their amounts are written once), grouped as the ingest does.
    await tx.execute(
      `create temporary table recent_day on commit drop as
       select u.company_id, u.sim_id, s.rate_plan_id, (u.start at time zone ${zone})::date as day, u.country,
         sum(u.bytes_up)::bigint as up, sum(u.bytes_down)::bigint as down, count(*)::int as n
       from usage_record u join sim s on s.id = u.sim_id
       where u.company_id = ? and u.source = 'bench-seed' and u.start >= ?::timestamptz and u.start <= ?::timestamptz
       group by 1, 2, 3, 4, 5`,
      [companyId, ...params],
    );
    await tx.execute(
      `insert into usage_day (company_id, sim_id, day, bytes_up, bytes_down, records)
       select company_id, sim_id, day, up, down, n from recent_day
       on conflict (company_id, sim_id, day) do update set bytes_up = usage_day.bytes_up + excluded.bytes_up,
         bytes_down = usage_day.bytes_down + excluded.bytes_down, records = usage_day.records + excluded.records`,
    );
    await tx.execute(
      `insert into usage_month (company_id, sim_id, month, bytes_up, bytes_down, records)
       select company_id, sim_id, date_trunc('month', day)::date, sum(up), sum(down), sum(n) from recent_day
       group by 1, 2, 3
       on conflict (company_id, sim_id, month) do update set bytes_up = usage_month.bytes_up + excluded.bytes_up,
         bytes_down = usage_month.bytes_down + excluded.bytes_down, records = usage_month.records + excluded.records`,
    );
    await tx.execute(
      `insert into usage_company_day (company_id, day, rate_plan_id, country, bytes_up, bytes_down, records)
       select company_id, day, rate_plan_id, country, sum(up), sum(down), sum(n) from recent_day group by 1, 2, 3, 4
       on conflict (company_id, day, rate_plan_id, country) do update
         set bytes_up = usage_company_day.bytes_up + excluded.bytes_up,
         bytes_down = usage_company_day.bytes_down + excluded.bytes_down,
         records = usage_company_day.records + excluded.records`,
    );
    await tx.execute(
      `insert into usage_tag_day (company_id, tag, day, bytes_up, bytes_down, records)
       select d.company_id, t.tag, d.day, sum(d.up), sum(d.down), sum(d.n)
       from recent_day d join sim_tag t on t.company_id = d.company_id and t.sim_id = d.sim_id group by 1, 2, 3
       on conflict (company_id, tag, day) do update set bytes_up = usage_tag_day.bytes_up + excluded.bytes_up,
         bytes_down = usage_tag_day.bytes_down + excluded.bytes_down, records = usage_tag_day.records + excluded.records`,
    );
    await tx.execute(
      `insert into usage_last_seen (company_id, sim_id, at, network, country)
       select company_id, sim_id, ?::timestamptz, '24001', case when sim_id % 10 = 0 then 'DK' else 'SE' end
       from (select distinct company_id, sim_id from recent) s
       on conflict (company_id, sim_id) do update set at = greatest(usage_last_seen.at, excluded.at),
         network = excluded.network, country = excluded.country`,
      [new Date(end).toISOString()],
    );
    await tx.execute(`update sim set invoice_line_mark = ? where company_id = ? and id % 10 = 3`, [
      SHARED_MARK,
      companyId,
    ]);
  });
  await em.execute('analyze');
  return opts.sims * (DAY_MS / QUARTER);
}

export type Read = { name: string; kind: 'page' | 'api' | 'search'; path: () => string };

/** Every usage screen and API call (issue 39's list), and /sims' searches, for SIMs with recent records. */
export function usageReads(opts: { simIds: number[]; iccid: string; now: Date }): Read[] {
  let i = 0;
  const sim = () => opts.simIds[i++ % opts.simIds.length] ?? 1;
  const today = swedishDay(opts.now);
  const daysAgo = (n: number) => swedishDay(new Date(opts.now.getTime() - n * DAY_MS));
  const yearAgo = monthStart(daysAgo(330));
  return [
    { name: "a SIM's page", kind: 'page', path: () => `/sims/${sim()}` },
    { name: '/sims by usage this month', kind: 'page', path: () => '/sims?sort=usage-desc' },
    { name: '/sims by last seen', kind: 'page', path: () => '/sims?sort=seen-desc' },
    { name: '/sims over 80 % of the plan', kind: 'page', path: () => '/sims?filter=over80' },
    { name: '/sims silent 24 h', kind: 'page', path: () => '/sims?filter=silent24h' },
    { name: '/sims silent 7 days', kind: 'page', path: () => '/sims?filter=silent7d' },
    { name: '/sims never seen', kind: 'page', path: () => '/sims?filter=never' },
    { name: '/ (the overview)', kind: 'page', path: () => '/' },
    { name: '/usage (this month by plan)', kind: 'page', path: () => '/usage' },
    { name: '/usage by country, 90 days', kind: 'page', path: () => `/usage?groupBy=country&from=${daysAgo(89)}` },
    { name: '/usage per month, 12 months', kind: 'page', path: () => `/usage?granularity=month&from=${yearAgo}` },
    {
      name: 'GET /api/sim/{id}/usage per hour, 24 h',
      kind: 'api',
      path: () => `/api/sim/${sim()}/usage?granularity=hour&from=${daysAgo(1)}&to=${today}`,
    },
    {
      name: 'GET /api/sim/{id}/usage per day, 90 days',
      kind: 'api',
      path: () => `/api/sim/${sim()}/usage?granularity=day&from=${daysAgo(89)}&to=${today}`,
    },
    { name: 'GET /api/usage by plan per day', kind: 'api', path: () => '/api/usage?groupBy=plan&granularity=day' },
    { name: 'GET /api/usage by SIM per month', kind: 'api', path: () => '/api/usage?groupBy=sim&granularity=month' },
    { name: 'GET /api/sim/all (with usage)', kind: 'api', path: () => '/api/sim/all?limit=50' },
    { name: 'GET /api/sim/{id} (with usage)', kind: 'api', path: () => `/api/sim/${sim()}` },
    { name: '/sims, a full ICCID', kind: 'search', path: () => `/sims?q=${opts.iccid}` },
    { name: '/sims, its last 4 digits', kind: 'search', path: () => `/sims?q=${opts.iccid.slice(-4)}` },
    { name: '/sims, a word of a mark', kind: 'search', path: () => '/sims?q=Kassa' },
    {
      name: `/sims, "${SHARED_MARK}" (a tenth)`,
      kind: 'search',
      path: () => `/sims?q=${encodeURIComponent(SHARED_MARK)}`,
    },
    { name: '/sims, half the fleet', kind: 'search', path: () => '/sims?q=Avtal' },
  ];
}

export type ReadRow = { name: string; kind: Read['kind']; stats: Stats; pass: boolean };
export type ReadsRun = {
  rows: ReadRow[];
  pass: boolean;
  beside: { records: number; seconds: number; perSecond: number; retried: number };
};

/**
 * Each read by `users` people for `seconds` (after one warm-up request), one read after another, while `beside`
 * takes records until they are done. A read passes at p50 < 30 ms and p95 < 100 ms with no error.
 */
export async function measureReads(opts: {
  url: string;
  cookie: string;
  reads: Read[];
  users: number;
  seconds: number;
  thinkMs: number;
  beside: (stop: AbortSignal) => Promise<{ records: number; retried: number }>;
  log: (...a: unknown[]) => void;
}): Promise<ReadsRun> {
  const get = (read: Read) => async () => {
    const res = await fetch(opts.url + read.path(), { headers: { cookie: opts.cookie } });
    await res.arrayBuffer();
    if (res.status !== 200) opts.log(`${read.name}: ${res.status}`);
    return res.status === 200;
  };
  const load = loadWith({ users: opts.users, seconds: opts.seconds });
  for (const r of opts.reads) await get(r)();
  const stop = new AbortController();
  const t = performance.now();
  const ingest = opts.beside(stop.signal);
  const rows: ReadRow[] = [];
  try {
    // The ingest's first batches before the first read.
    await sleep(1000);
    for (const read of opts.reads) {
      const stats = await load(get(read), { thinkMs: opts.thinkMs });
      const pass = stats.errors === 0 && stats.p50 < 30 && stats.p95 < 100;
      rows.push({ name: read.name, kind: read.kind, stats, pass });
      opts.log(`${read.name}: p50 ${stats.p50} ms, p95 ${stats.p95} ms, ${stats.requests} requests`);
    }
  } finally {
    stop.abort();
  }
  const { records, retried } = await ingest;
  const seconds = (performance.now() - t) / 1000;
  return {
    rows,
    pass: rows.every((r) => r.pass),
    beside: { records, seconds: round(seconds, 1), perSecond: Math.round(records / seconds), retried },
  };
}

/** The reads' table (markdown). */
export function readsTable(run: ReadsRun, users: number, thinkMs: number, besideTarget: number): string[] {
  return [
    `reads, ${users} people each asking again after about ${thinkMs} ms, while POST /api/network/usage took ${run.beside.records} records beside them (${run.beside.perSecond}/s; asked ${besideTarget}/s; ${run.beside.retried} batches sent again after a 503)`,
    '| read | requests | errors | p50 ms | p95 ms | p99 ms | p50 < 30, p95 < 100 |',
    '|---|---|---|---|---|---|---|',
    ...run.rows.map(
      (r) =>
        `| ${r.name} | ${r.stats.requests} | ${r.stats.errors} | ${r.stats.p50} | ${r.stats.p95} | ${r.stats.p99} | ${r.pass ? 'met' : 'MISSED'} |`,
    ),
  ];
}
