// Long: one benchmark run end to end (the fleet and its stored days, the records, the bare COPY, the two doors, the exact check).
// Usage ingest (npm run bench:usage, issue 39), on PostgreSQL: a fresh database on the machine's PostgreSQL
// (DATABASE_URL's server, else postgres://postgres@127.0.0.1:5432; dropped at the end) with a fleet of
// USAGE_BENCH_SIMS active SIMs in Demo AB (bench/fleet.ts) and USAGE_BENCH_DAYS days of usage already stored (each
// SIM's day totals, their month totals, the last sighting, the company's day by plan and country). Then, in one run,
// the same kind of records (a record every 15 minutes per SIM, the SIMs in a scattered order as a mediation sends
// them, all new) through each door, and the machine's limit beside them:
// - a bare `COPY` (psql's \copy) of the CLI's CSV file into an unindexed table: what the disk and PostgreSQL take at
//   most, so each door's figure is also a ratio to it;
// - `usage:import FILE` (the CLI, its own process, wall time to its exit less its start, which a run on a file of
//   only the header measures) on a CSV file of USAGE_BENCH_RECORDS;
// - `POST /api/network/usage` on the built server (BUILD_DIR=build-bench), USAGE_BENCH_RECORDS more in batches of
//   10,000 from USAGE_BENCH_CONNECTIONS clients at once, with a network key;
// - `usage:import` again with the company's 100 rules on (issue 40: 99 that are evaluated and do not fire, and one
//   firing at the most a steady month makes: 90 usage rules, each once per SIM in 2,880 records a SIM, one firing every
//   32 records, with a webhook endpoint subscribed, so each firing writes its event too), USAGE_BENCH_RECORDS more:
//   its speed against the door without rules (at least 0.8x; the CLI runs again after it with the rules off, and the
//   ratio is to the mean of the runs before and after, so the store's growth weighs on both sides), and how late
//   each firing was: the records taken after the record that crossed its threshold (none when a batch holds one
//   record of a SIM: a fleet larger than a batch; else at most the SIM's other records in its batch and the one
//   stored beside it); with `burst` in USAGE_BENCH_DOORS, the same with a rule that a quarter of the records cross
//   (information: a burst's deliveries are bench:rules');
// with `downloads`, the list export of the whole fleet as CSV and XLSX (bench/data-exports.ts: rows/s, first byte,
// the server's RSS growth), each row with its usage and tags;
// then checks the totals exactly against the raw records (every SIM's days, months, last sighting and the company's
// days by plan and country). Prints a table; writes bench/results/usage.json.
//
//   USAGE_BENCH_SIMS=1000000  USAGE_BENCH_DAYS=30 (days stored before)  USAGE_BENCH_RECORDS=15000000 (per door: 5
//   minutes at the target)  USAGE_BENCH_CONNECTIONS=2  USAGE_BENCH_CLI_ARGS="--batch 10000" (more for the CLI)
//   USAGE_BENCH_DOORS=copy,cli,rest,rules,burst,reads,downloads (some; rules and burst run the CLI, after cli; burst is not in the default)  USAGE_BENCH_KEEP=1 (the database kept)  BENCH_SMOKE=1 (1,000 SIMs, 2 days, 20,000 records)
//   BENCH_ENFORCE=1 exits 1 when a target is missed.
import { SMOKE } from './env.ts';
import { spawn } from 'node:child_process';
import { createWriteStream, rmSync } from 'node:fs';
import path from 'node:path';
import { once } from 'node:events';
import { Company, RatePlan, Sim, User } from '#server/db/entities.ts';
import { withCheckDigit } from '#domain/sims/iccid.ts';
import { signedInSession } from '#tests/helpers/signed-in.ts';
import { initOrm, migrate, type Em } from '#server/db/orm.ts';
import { seedDemo } from '#server/db/seed.ts';
import { createNetworkKey } from '#server/network/keys.ts';
import { ensurePartitions, partitionOf, partitionsForRecord } from '#server/usage/partitions.ts';
import { IMPORT_IN_FLIGHT } from '#server/cli/usage.ts';
import { monthStart, swedishDay } from '#domain/usage/time.ts';
import { seedFleet } from './fleet.ts';
import { measureReads, readsTable, seedRecentRecords, usageReads, type ReadsRun } from './usage-reads.ts';
import { exportsPhase } from './data-exports.ts';
import { loadWith, type PhaseResult } from './data-phase.ts';
import {
  benchOnPostgres,
  ensureBuild,
  firstRow,
  logger,
  machine,
  root,
  round,
  runBenchmark,
  serverEnv,
  sleep,
  startProcess,
  writeResult,
} from './lib.ts';

const log = logger('usage');
const num = (name: string, full: number, smoke: number) => Number(process.env[name] ?? (SMOKE ? smoke : full));
const SIMS = num('USAGE_BENCH_SIMS', 1_000_000, 1_000);
const DAYS = num('USAGE_BENCH_DAYS', 30, 2);
const RECORDS = num('USAGE_BENCH_RECORDS', 15_000_000, 20_000);
const CONNECTIONS = num('USAGE_BENCH_CONNECTIONS', 2, 2);
const CLI_ARGS = (process.env.USAGE_BENCH_CLI_ARGS ?? '').split(' ').filter(Boolean);
const DOORS = (process.env.USAGE_BENCH_DOORS ?? 'copy,cli,rest,rules,reads,downloads').split(',');
/** USAGE_BENCH_KEEP=1: the database is kept (its address printed), to read plans on afterwards. */
const KEEP = process.env.USAGE_BENCH_KEEP === '1';
const REST_BATCH = 10_000;
/** The reads door (bench/usage-reads.ts): its people, their pause, each read's seconds, the ingest beside them. */
const READS = DOORS.includes('reads');
const READ_USERS = num('USAGE_BENCH_USERS', 20, 4);
const READ_THINK_MS = num('USAGE_BENCH_THINK_MS', 500, 200);
const READ_SECONDS = num('USAGE_BENCH_READ_SECONDS', 10, 1);
const BESIDE = num('USAGE_BENCH_BESIDE', 10_000, 1_000);
/** SIMs with the last 24 hours of raw records (the issue's 100,000 of 1,000,000). */
const RECENT_SIMS = Math.min(100_000, Math.ceil(SIMS / 10));
/** The most records the ingest beside the reads can take (22 reads and their warm-up at its rate). */
const BESIDE_MAX = READS ? BESIDE * (22 * (READ_SECONDS + 1) + 60) : 0;
/** records/s each door must sustain (issue 39). */
const TARGET = 50_000;
const QUARTER = 15 * 60_000;
/** The SIM of record k: a stride coprime with the fleet's size scatters a batch over the fleet. */
const STRIDE = 7919;

/** The records' times: quarters of an hour ending before now, enough for the five runs' records and the reads'. */
const slots = Math.ceil((5 * RECORDS + BESIDE_MAX) / SIMS);
const base = Math.floor(Date.now() / QUARTER) * QUARTER - (slots + 1) * QUARTER;
const firstDay = swedishDay(new Date(base));

let iccids: string[] = [];
const simOf = (k: number) => 1 + ((k * STRIDE) % iccids.length);
function record(k: number) {
  const start = base + Math.floor(k / SIMS) * QUARTER;
  return {
    recordId: `r${k}`,
    iccid: iccids[simOf(k) - 1] ?? '',
    start: new Date(start).toISOString(),
    end: new Date(start + QUARTER).toISOString(),
    bytesUp: (k * 31) % 100_000,
    bytesDown: (k * 17) % 1_000_000,
    network: '24001',
    country: k % 10 === 0 ? 'DK' : 'SE',
    rat: 'LTE',
  };
}

async function writeCsv(file: string, from: number, to: number): Promise<void> {
  const out = createWriteStream(file);
  out.write('recordId,iccid,start,end,bytesUp,bytesDown,network,country,rat,imei\n');
  let chunk = '';
  for (let k = from; k < to; k++) {
    const r = record(k);
    chunk += `${r.recordId},${r.iccid},${r.start},${r.end},${r.bytesUp},${r.bytesDown},${r.network},${r.country},${r.rat},\n`;
    if (chunk.length > 1_000_000) {
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    }
  }
  out.end(chunk);
  await once(out, 'finish');
}

/**
 * The company's active SIMs' ICCIDs, by id: the fleet's are made valid first (bench/fleet.ts's have no check digit,
 * which a usage record's must have): '89468', the id in 14 digits and its Luhn digit. The sim table's other indexes
 * are dropped for the update and made again, as seedFleet does.
 */
async function validIccids(em: Em, companyId: number): Promise<string[]> {
  const indexes = await em.execute<{ indexname: string; indexdef: string }[]>(
    `select indexname, indexdef from pg_indexes
     where tablename = 'sim' and indexname not like '%pkey' and indexname not like '%unique'`,
  );
  for (const i of indexes) await em.execute(`drop index "${i.indexname}"`);
  await em.execute(`create or replace function bench_luhn(p text) returns text language sql immutable as $$
    select p || ((10 - sum(case when (length(p) - i) % 2 = 0 then (d * 2) / 10 + (d * 2) % 10 else d end) % 10) % 10)::text
    from (select i, substr(p, i, 1)::int as d from generate_series(1, length(p)) i) x $$`);
  await em.execute(`update sim set iccid = bench_luhn('89468' || lpad(id::text, 14, '0')) where company_id = ?`, [
    companyId,
  ]);
  for (const i of indexes) await em.execute(i.indexdef);
  const rows = await em.execute<{ iccid: string }[]>(
    `select iccid from sim where company_id = ? and status = 'active' order by id`,
    [companyId],
  );
  return rows.map((r) => r.iccid);
}

/** The stored days: DAYS Swedish days before the records' first, for every SIM, and what they add up to. */
async function seedHistory(em: Em, companyId: number): Promise<void> {
  const days = Array.from({ length: DAYS }, (_, i) =>
    swedishDay(new Date(Date.parse(`${firstDay}T12:00:00Z`) - (DAYS - i) * 86_400_000)),
  );
  const wanted = [...days, firstDay].flatMap((d) => [
    partitionOf('usage_day', d),
    partitionOf('usage_month', monthStart(d)),
  ]);
  // The raw partitions of the records' hours, made before the clock starts (the doors make them too, once).
  for (let t = base; t <= base + slots * QUARTER; t += 3_600_000)
    wanted.push(...partitionsForRecord(new Date(t), false));
  await ensurePartitions(em, wanted);
  if (days.length) {
    await em.execute(
      `insert into usage_day (company_id, sim_id, day, bytes_up, bytes_down, records)
       select s.company_id, s.id, d::date, (s.id::bigint * 2654435761 + extract(doy from d)::bigint * 7919) % 20000000,
         (s.id::bigint * 40503 + extract(doy from d)::bigint * 104729) % 200000000, 96
       from sim s cross join generate_series(?::date, ?::date, interval '1 day') d where s.company_id = ?`,
      [days[0], days[days.length - 1], companyId],
    );
    await em.execute(
      `insert into usage_month (company_id, sim_id, month, bytes_up, bytes_down, records)
       select company_id, sim_id, date_trunc('month', day)::date, sum(bytes_up), sum(bytes_down), sum(records)
       from usage_day group by 1, 2, 3`,
    );
    await em.execute(
      `insert into usage_company_day (company_id, day, rate_plan_id, country, bytes_up, bytes_down, records)
       select d.company_id, d.day, s.rate_plan_id, 'SE', sum(d.bytes_up), sum(d.bytes_down), sum(d.records)
       from usage_day d join sim s on s.id = d.sim_id group by 1, 2, 3`,
    );
    await em.execute(
      `insert into usage_last_seen (company_id, sim_id, at, network, country)
       select company_id, id, ?::timestamptz - interval '1 hour', '24001', 'SE' from sim where company_id = ?`,
      [`${firstDay}T00:00:00+01:00`, companyId],
    );
  }
  await em.execute('vacuum analyze');
}

/**
 * Mismatches between the totals and the raw records (every one should be 0), and the raw records' count. Days from
 * the records' first on: before it the stored days are seeded totals without raw records (and the reads door's last
 * 24 hours of records, added to them, begin there).
 */
async function checkTotals(em: Em): Promise<Record<string, number>> {
  const zone = `'Europe/Stockholm'`;
  const q = async (sql: string, params: unknown[] = []) => firstRow(await em.execute<{ n: number }[]>(sql, params)).n;
  return {
    raw: await q(`select count(*)::int as n from usage_record`),
    dayMismatches: await q(
      `with raw as (select company_id, sim_id, (start at time zone ${zone})::date as day, sum(bytes_up) as up,
         sum(bytes_down) as down, count(*) as n from usage_record group by 1, 2, 3),
       tot as (select * from usage_day where day >= ?::date)
       select count(*)::int as n from (select * from raw where day >= ?::date) raw full join tot using (company_id, sim_id, day)
       where raw.up is distinct from tot.bytes_up or raw.down is distinct from tot.bytes_down
         or raw.n is distinct from tot.records`,
      [firstDay, firstDay],
    ),
    monthMismatches: await q(
      `with d as (select company_id, sim_id, date_trunc('month', day)::date as month, sum(bytes_up) as up,
         sum(bytes_down) as down, sum(records) as n from usage_day group by 1, 2, 3)
       select count(*)::int as n from d full join usage_month m using (company_id, sim_id, month)
       where d.up is distinct from m.bytes_up or d.down is distinct from m.bytes_down or d.n is distinct from m.records`,
    ),
    companyDayMismatches: await q(
      `with raw as (select r.company_id, (r.start at time zone ${zone})::date as day, s.rate_plan_id,
         coalesce(r.country, '') as country, sum(r.bytes_up) as up, sum(r.bytes_down) as down, count(*) as n
         from usage_record r join sim s on s.id = r.sim_id group by 1, 2, 3, 4),
       tot as (select * from usage_company_day where day >= ?::date)
       select count(*)::int as n from (select * from raw where day >= ?::date) raw
         full join tot using (company_id, day, rate_plan_id, country)
       where raw.up is distinct from tot.bytes_up or raw.down is distinct from tot.bytes_down
         or raw.n is distinct from tot.records`,
      [firstDay, firstDay],
    ),
    lastSeenMismatches: await q(
      `select count(*)::int as n from (select sim_id, max("end") as at from usage_record group by 1) r
       join usage_last_seen l using (sim_id) where l.at <> r.at`,
    ),
  };
}

/** The company's rules in the rules doors. */
const RULES = 100;
/**
 * The most firings usage rules make in a steady month: each of the company's 90 usage rules firing once for every
 * SIM in a month of a record every 15 minutes (2,880 records a SIM): one firing every 32 records.
 */
const STEADY_FIRINGS_PER_RECORD = 90 / 2880;
/** The share of the fleet tagged "Takt", whose rule fires once per SIM in the run: the steady rate of firings. */
const TAKT_SHARE = Math.min(1, (STEADY_FIRINGS_PER_RECORD * RECORDS) / SIMS);
/** The firing rule's firings, those with no record after the crossing one, the most records late, and the most
 * records of one SIM in one batch. */
type RulesRun = { firings: number; onTime: number; maxLate: number; maxPerBatch: number };

/**
 * The fleet's tags, set before the first door, so each door writes the same days by tag: "Halva" on half of it,
 * "Takt" on TAKT_SHARE of it (both picked by a hash of the id).
 */
async function tagFleet(em: Em, companyId: number): Promise<void> {
  await em.execute(
    `insert into sim_tag (company_id, sim_id, tag)
     select company_id, id, 'Halva' from sim where company_id = ? and status = 'active' and hashint4(id) % 2 = 0
     union all
     select company_id, id, 'Takt' from sim where company_id = ? and status = 'active'
       and (hashint4(id) % 100000 + 100000) % 100000 < ?`,
    [companyId, companyId, Math.round(TAKT_SHARE * 100_000)],
  );
  await em.execute('analyze sim_tag');
}

/**
 * The company's 100 rules: 99 evaluated on every batch that never fire (shares and amounts far over what a SIM uses,
 * on every SIM, a plan or the tag "Halva"; ten silence rules, which the ingest leaves to the sweep) and one that
 * fires, each firing with its webhook event (an endpoint is subscribed). `steady` (the rules door): on the tag
 * "Takt" at 1 byte this month, so each of its SIMs fires on its first record of the run: the most firings rules make
 * in a steady month (STEADY_FIRINGS_PER_RECORD). `burst` (the burst door, information): the steady one off, and one on
 * "Halva" whose threshold is the median month so far plus half of what the run adds per SIM: about half of those
 * SIMs cross it during the run (a quarter of the records fire: a new month's first batch, a misconfigured
 * threshold; `npm run bench:rules` measures such a burst's deliveries). The firing rule's id.
 */
async function addRules(em: Em, companyId: number, mode: 'steady' | 'burst'): Promise<number> {
  const [had] = await em.execute<{ n: number }[]>(`select count(*)::int as n from rule where company_id = ?`, [
    companyId,
  ]);
  if (!had?.n) await addQuietRules(em, companyId);
  if (mode === 'steady') {
    const [rule] = await em.execute<{ id: number }[]>(
      `insert into rule (company_id, name, target, target_tag, condition, threshold, notify_webhook)
       values (?, 'Takt: trafik denna månad', 'tag', 'Takt', 'month_bytes', 1, true) returning id`,
      [companyId],
    );
    await em.execute('analyze');
    return Number(firstRow(rule ? [rule] : []).id);
  }
  await em.execute(`update rule set enabled = false where company_id = ? and target_tag = 'Takt'`, [companyId]);
  const month = monthStart(swedishDay(new Date(base + Math.floor((4 * RECORDS) / SIMS) * QUARTER)));
  const [median] = await em.execute<{ m: string | number | null }[]>(
    `select percentile_cont(0.5) within group (order by bytes_up + bytes_down) as m from usage_month
     where company_id = ? and month = ?::date`,
    [companyId, month],
  );
  // What the run adds per SIM: its records a SIM, about 550 kB each (record()'s bytes).
  const threshold = Math.round(Number(median?.m ?? 0) + ((RECORDS / SIMS) * 550_000) / 2);
  const [rule] = await em.execute<{ id: number }[]>(
    `insert into rule (company_id, name, target, target_tag, condition, threshold, notify_webhook)
     values (?, 'Halva flottan över medianen', 'tag', 'Halva', 'month_bytes', ?, true) returning id`,
    [companyId, Math.max(1, threshold)],
  );
  await em.execute('analyze');
  return Number(firstRow(rule ? [rule] : []).id);
}

/** The 99 rules that never fire, and the webhook endpoint every firing's event goes to. */
async function addQuietRules(em: Em, companyId: number): Promise<void> {
  await em.execute(
    `insert into webhook_endpoint (company_id, url, events, secret, enabled, created_at)
     values (?, 'https://hooks.example/bench', '{usage.threshold_reached,sim.silent,sim.paused}', ?, true, now())`,
    [companyId, 'b'.repeat(40)],
  );
  const plans = await em.execute<{ id: number }[]>(`select id from rate_plan order by id`);
  const values: string[] = [];
  for (let i = 0; i < RULES - 1; i++) {
    const target =
      i % 3 === 0
        ? `'all', null, null`
        : i % 3 === 1
          ? `'tag', 'Halva', null`
          : `'plan', null, ${plans[i % plans.length]?.id ?? 'null'}`;
    const [condition, threshold] =
      i < 10
        ? ['silent', 60 * (24 + i)]
        : i % 3 === 0
          ? ['month_share', 5_000 + i]
          : i % 3 === 1
            ? ['month_bytes', 10_000_000_000_000 + i]
            : ['day_bytes', 1_000_000_000_000 + i];
    values.push(`(${companyId}, 'Regel ${i + 1}', ${target}, '${condition}', ${threshold}, true, ${i % 2 === 0})`);
  }
  await em.execute(
    `insert into rule (company_id, name, target, target_tag, target_plan_id, condition, threshold, notify_webhook, pause)
     values ${values.join(', ')}`,
  );
}

/**
 * How late the firing rule acted, per firing: its SIM's records of the period taken up to the firing (received_at
 * is the ingest's `now`, which is also fired_at), in the order they were taken, on top of what the period held
 * before them (the seeded days); `late` counts the records taken after the one whose total crossed the threshold,
 * from the rule's making on (a SIM over it already then fires on its first record after: none late). A
 * batch acts on what it crossed, so `late` is at most the SIM's other records in that batch and in a batch stored
 * beside it (usage:import stores IMPORT_IN_FLIGHT at once): none when a batch holds one record of a SIM.
 */
async function lateness(em: Em, ruleId: number): Promise<RulesRun> {
  const [r] = await em.execute<
    Array<{ firings: number; on_time: number; most: number | null; per_batch: number | null }>
  >(
    `select count(*)::int as firings, count(*) filter (where late = 0)::int as on_time, max(late)::int as most,
       max(per_batch)::int as per_batch
     from (
       select f.id, count(*) filter (where x.base + x.cum - x.b >= r.threshold and x.received_at >= r.created_at
           and x.k > 1) as late,
         max(x.in_batch) as per_batch
       from rule_firing f join rule r on r.id = f.rule_id
       cross join lateral (
         select y.b, y.cum, f.value - sum(y.b) over () as base, y.in_batch, y.received_at, y.k from (
           select u.bytes_up + u.bytes_down as b, u.received_at,
             sum(u.bytes_up + u.bytes_down) over (order by u.received_at, u.start, u.record_id) as cum,
             count(*) over (partition by u.received_at) as in_batch,
             -- The first record after the rule's making is the first it can act on: never late.
             row_number() over (partition by u.received_at >= r.created_at
               order by u.received_at, u.start, u.record_id) as k
           from usage_record u
           where u.company_id = f.company_id and u.sim_id = f.sim_id and u.received_at <= f.fired_at
             and (u.start at time zone 'Europe/Stockholm')::date >= to_date(f.period, 'YYYY-MM')
             and (u.start at time zone 'Europe/Stockholm')::date < to_date(f.period, 'YYYY-MM') + interval '1 month'
         ) y
       ) x
       where f.rule_id = ? group by f.id
     ) z`,
    [ruleId],
  );
  return {
    firings: r?.firings ?? 0,
    onTime: r?.on_time ?? 0,
    maxLate: r?.most ?? 0,
    maxPerBatch: r?.per_batch ?? 0,
  };
}

type Door = { records: number; seconds: number; perSecond: number; copyRatio: number | null; taken: number };

const door = (records: number, ms: number, taken: number, copyPerSecond: number | null): Door => {
  const perSecond = Math.round(records / (ms / 1000));
  return {
    records,
    seconds: round(ms / 1000, 1),
    perSecond,
    copyRatio: copyPerSecond ? round(perSecond / copyPerSecond, 2) : null,
    taken,
  };
};

function run(cmd: string, args: string[], env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${cmd} exited ${code}: ${out}`))));
  });
}

/**
 * One batch through `POST /api/network/usage`. A 503 (the database busy, decision 021) is sent again after its
 * Retry-After, as a mediation would: a batch is all or nothing, so it counts once.
 */
async function postBatch(
  url: string,
  key: string,
  from: number,
  to: number,
): Promise<{ taken: number; retried: number }> {
  const records = Array.from({ length: to - from }, (_, i) => record(from + i));
  const body = JSON.stringify({ records });
  for (let attempt = 1; ; attempt++) {
    const res = await fetch(`${url}/api/network/usage`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body,
    });
    const answer = (await res.json()) as { taken?: number };
    if (res.status === 503 && attempt < 10) {
      await sleep(1000 * Number(res.headers.get('retry-after') ?? 1));
      continue;
    }
    if (res.status !== 200) throw new Error(`POST /api/network/usage: ${res.status} ${JSON.stringify(answer)}`);
    return { taken: answer.taken ?? 0, retried: attempt - 1 };
  }
}

async function restDoor(url: string, key: string): Promise<{ ms: number; taken: number; retried: number }> {
  const batches = Math.ceil(RECORDS / REST_BATCH);
  let next = 0;
  let taken = 0;
  let retried = 0;
  const t = performance.now();
  const worker = async () => {
    for (let b = next++; b < batches; b = next++) {
      const from = RECORDS + b * REST_BATCH;
      const r = await postBatch(url, key, from, Math.min(2 * RECORDS, from + REST_BATCH));
      taken += r.taken;
      retried += r.retried;
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  return { ms: performance.now() - t, taken, retried };
}

/**
 * The ingest beside the reads: BESIDE records a second through the REST door, a batch every half second on a fixed
 * schedule (two in flight at most: a batch that is late does not push the rest back), records after every door's,
 * until `stop` (or BESIDE_MAX).
 */
async function besideIngest(
  url: string,
  key: string,
  stop: AbortSignal,
): Promise<{ records: number; retried: number }> {
  const size = Math.max(1, Math.round(BESIDE / 2));
  const first = 5 * RECORDS;
  const t0 = performance.now();
  let next = 0;
  let records = 0;
  let retried = 0;
  const worker = async () => {
    for (let b = next++; !stop.aborted && (b + 1) * size <= BESIDE_MAX; b = next++) {
      const wait = t0 + b * 500 - performance.now();
      if (wait > 0) await sleep(wait);
      if (stop.aborted) break;
      const r = await postBatch(url, key, first + b * size, first + (b + 1) * size);
      records += r.taken;
      retried += r.retried;
    }
  };
  await Promise.all([worker(), worker()]);
  return { records, retried };
}

/** The usage a freshness record carries: a figure /sims shows as "7,3 GB" and no SIM of the fleet reaches. */
const FRESH_BYTES = 7_300_000_000;

/**
 * Read your own writes (issue 39): one record for a SIM never seen before, through the REST door; then /sims
 * searched for the SIM until its row shows the record's usage ("7,3 GB"). The time from the ingest's answer to the
 * page that shows it, and the requests it took (1: the first page after the answer shows it).
 */
async function freshness(
  url: string,
  key: string,
  cookie: string,
  iccid: string,
): Promise<{ visibleMs: number; requests: number }> {
  // This month in Swedish time whenever it runs: a second that ends now.
  const end = new Date();
  const record = {
    recordId: `fresh-${end.getTime()}`,
    iccid,
    start: new Date(end.getTime() - 1000).toISOString(),
    end: end.toISOString(),
    bytesUp: 0,
    bytesDown: FRESH_BYTES,
  };
  const res = await fetch(`${url}/api/network/usage`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ records: [record] }),
  });
  const answer = (await res.json()) as { taken?: number };
  if (res.status !== 200 || answer.taken !== 1) throw new Error(`freshness: ${res.status} ${JSON.stringify(answer)}`);
  const answered = performance.now();
  for (let requests = 1; requests <= 50; requests++) {
    const page = await fetch(`${url}/sims?q=${iccid}`, { headers: { cookie } });
    if ((await page.text()).includes('7,3 GB')) return { visibleMs: round(performance.now() - answered, 1), requests };
    await sleep(100);
  }
  throw new Error('freshness: the record did not show on /sims in 50 requests');
}

async function main() {
  const { dataDir, pg, cleanup } = await benchOnPostgres('usage', log);
  const file = path.join(dataDir, 'usage.csv');
  try {
    const orm = await initOrm(pg.target);
    await migrate(orm);
    const em = orm.em.fork();
    await seedDemo(em);
    // Whatever usage the demo data has: the check below counts only this run's records.
    await em.execute('truncate usage_record, usage_day, usage_month, usage_last_seen, usage_company_day, usage_aside');
    await em.execute('update sim set ever_seen = false where ever_seen');
    const demo = await em.findOneOrFail(Company, { customerNumber: '100001' });
    const admin = await em.findOneOrFail(User, { email: 'admin@demo.test' });
    let t = performance.now();
    log(`seeding ${SIMS} SIMs and ${DAYS} days of their totals`);
    await seedFleet(em, { companyId: demo.id, sims: SIMS, smallCompanies: 0, simsPerSmall: 100 });
    iccids = await validIccids(em, demo.id);
    await seedHistory(em, demo.id);
    await tagFleet(em, demo.id);
    // The reads door's last 24 hours of raw records for a tenth of the fleet (at most 100,000 SIMs), before the
    // records of the doors; and the SIMs its SIM pages and calls ask for, 1,000 of those at random.
    const recent = READS ? await seedRecentRecords(em, demo.id, { sims: RECENT_SIMS, before: base }) : 0;
    const readSims = READS
      ? (
          await em.execute<{ id: number }[]>(
            `select id from (select id from sim where company_id = ? and status = 'active' order by id limit ?) s
             order by random() limit 1000`,
            [demo.id, RECENT_SIMS],
          )
        ).map((r) => r.id)
      : [];
    log(`seeded in ${Math.round(performance.now() - t)} ms`);
    await writeCsv(file, 0, RECORDS);
    await em.execute(
      `create table usage_copy (record_id text, iccid text, start timestamptz, "end" timestamptz, bytes_up bigint,
        bytes_down bigint, network text, country text, rat text, imei text)`,
    );
    const { key } = await createNetworkKey(em, { userId: admin.id, actingCompanyId: null }, { name: 'bench-rest' });
    // A SIM outside the records' fleet, for the freshness check, and a session that sees the company's /sims.
    const plan = await em.findOneOrFail(RatePlan, { isLegacy: false }, { orderBy: { id: 'asc' } });
    const fresh = em.create(Sim, {
      iccid: withCheckDigit('8946999000000000001'),
      company: demo,
      ratePlan: plan,
      invoiceLineMark: 'Färskhet',
      activatedAt: new Date(),
    });
    await em.flush();
    const cookie = `sim_session=${await signedInSession(em, admin.id, { actingCompanyId: demo.id })}`;
    await orm.close(true);
    const uptime = [machine().loadavg];

    let copy: Door | null = null;
    if (DOORS.includes('copy')) {
      log(`COPY of ${RECORDS} records into an unindexed table`);
      t = performance.now();
      await run('psql', [pg.target.url, '-qc', `\\copy usage_copy from '${file}' (format csv, header)`], {});
      copy = door(RECORDS, performance.now() - t, RECORDS, null);
      uptime.push(machine().loadavg);
    }
    const copyRate = copy?.perSecond ?? null;
    let cli: Door | null = null;
    let cliStartMs = 0;
    const cliRun = (csv: string) =>
      run(
        process.execPath,
        ['--import', 'tsx', 'server/cli.ts', 'usage:import', csv, '--source', 'bench-cli', ...CLI_ARGS],
        { DATABASE_URL: pg.target.url, LOG_LEVEL: 'warn' },
      );
    if (DOORS.includes('cli') || DOORS.includes('rules')) {
      // The process's start (tsx, the connection, the migrations' check) on a file of a header alone: taken off.
      const empty = path.join(dataDir, 'empty.csv');
      await writeCsv(empty, 0, 0);
      t = performance.now();
      await cliRun(empty);
      cliStartMs = performance.now() - t;
    }
    if (DOORS.includes('cli')) {
      log(`usage:import of ${RECORDS} records ${CLI_ARGS.join(' ')} (its start alone: ${Math.round(cliStartMs)} ms)`);
      t = performance.now() + cliStartMs;
      const out = await cliRun(file);
      log(out.trim().split('\n').slice(0, 4).join('\n'));
      const taken = Number(/taken (\d+)/.exec(out)?.[1] ?? -1);
      cli = door(RECORDS, performance.now() - t, taken, copyRate);
      uptime.push(machine().loadavg);
    }
    let rest: Door | null = null;
    let restRetried = 0;
    let freshRead: { visibleMs: number; requests: number } | null = null;
    if (DOORS.includes('rest')) {
      // Others may have changed the sources meanwhile: built here, not in the server's 60 s to start.
      ensureBuild(log);
      const server = await startProcess(serverEnv(pg.target, dataDir), { name: 'the server' });
      try {
        log(`POST /api/network/usage: ${RECORDS} records in batches of ${REST_BATCH}, ${CONNECTIONS} at once`);
        const r = await restDoor(server.url, key);
        rest = door(RECORDS, r.ms, r.taken, copyRate);
        restRetried = r.retried;
        uptime.push(machine().loadavg);
        freshRead = await freshness(server.url, key, cookie, fresh.iccid);
      } finally {
        await server.stop();
      }
    }

    // The rules doors: the same CLI on records after the doors before, with the company's rules on.
    const rulesDoor = async (mode: 'steady' | 'burst', from: number): Promise<Door & RulesRun> => {
      const setup = await initOrm(pg.target);
      const firing = await addRules(setup.em.fork(), demo.id, mode);
      await setup.close(true);
      const rulesFile = path.join(dataDir, `usage-${mode}.csv`);
      await writeCsv(rulesFile, from, from + RECORDS);
      log(`usage:import of ${RECORDS} records with ${RULES} rules on (${mode})`);
      t = performance.now() + cliStartMs;
      const out = await cliRun(rulesFile);
      const ms = performance.now() - t;
      rmSync(rulesFile, { force: true });
      const taken = Number(/taken (\d+)/.exec(out)?.[1] ?? -1);
      const read = await initOrm(pg.target);
      const result = { ...door(RECORDS, ms, taken, copyRate), ...(await lateness(read.em.fork(), firing)) };
      await read.close(true);
      uptime.push(machine().loadavg);
      return result;
    };
    const rules = DOORS.includes('rules') ? await rulesDoor('steady', 2 * RECORDS) : null;
    // The door without rules again, after the rules door, with the rules off: the rules door ran on a store one
    // door bigger than the first run; its ratio is to the mean of the two runs without rules, on either side of it.
    let cliAfter: Door | null = null;
    if (rules && cli) {
      const off = await initOrm(pg.target);
      await off.em.fork().execute(`update rule set enabled = false where company_id = ? and enabled`, [demo.id]);
      await off.close(true);
      const afterFile = path.join(dataDir, 'usage-after.csv');
      await writeCsv(afterFile, 3 * RECORDS, 4 * RECORDS);
      log(`usage:import of ${RECORDS} records again, the rules off`);
      t = performance.now() + cliStartMs;
      const out = await cliRun(afterFile);
      const ms = performance.now() - t;
      rmSync(afterFile, { force: true });
      cliAfter = door(RECORDS, ms, Number(/taken (\d+)/.exec(out)?.[1] ?? -1), copyRate);
      uptime.push(machine().loadavg);
      const on = await initOrm(pg.target);
      await on.em
        .fork()
        .execute(`update rule set enabled = true where company_id = ? and name like 'Regel %'`, [demo.id]);
      await on.close(true);
    }
    const burst = DOORS.includes('burst') ? await rulesDoor('burst', 4 * RECORDS) : null;

    // The reads, with the ingest beside them (the store as the doors left it, the rules on).
    let reads: ReadsRun | null = null;
    if (READS) {
      ensureBuild(log);
      const server = await startProcess(serverEnv(pg.target, dataDir), { name: 'the server' });
      try {
        log(`reads: ${READ_USERS} people, ${READ_SECONDS} s a read, ${BESIDE} records/s beside them`);
        reads = await measureReads({
          url: server.url,
          cookie,
          reads: usageReads({ simIds: readSims, iccid: iccids[Math.floor(iccids.length / 3)] ?? '', now: new Date() }),
          users: READ_USERS,
          seconds: READ_SECONDS,
          thinkMs: READ_THINK_MS,
          beside: (stop) => besideIngest(server.url, key, stop),
          log,
        });
        uptime.push(machine().loadavg);
      } finally {
        await server.stop();
      }
    }

    // The list's downloads of the whole fleet, each row with its usage and tags (bench:data's exports phase).
    let downloads: PhaseResult | null = null;
    if (DOORS.includes('downloads')) {
      ensureBuild(log);
      const server = await startProcess(serverEnv(pg.target, dataDir), { name: 'the server' });
      try {
        downloads = await exportsPhase(
          {
            server,
            dbUrl: pg.target.url,
            companyId: demo.id,
            sims: SIMS + 1,
            cookie,
            staffCookie: cookie,
            users: READ_USERS,
            seconds: READ_SECONDS,
            thinkMs: READ_THINK_MS,
            smoke: SMOKE,
            log,
            load: loadWith({ users: READ_USERS, seconds: READ_SECONDS }),
          },
          ['csv', 'xlsx'],
        );
        uptime.push(machine().loadavg);
      } finally {
        await server.stop();
      }
    }

    log('checking the totals against the raw records');
    const check = await initOrm(pg.target);
    const totals = await checkTotals(check.em.fork());
    await check.close(true);
    // The doors' records, and the freshness check's one.
    const expected =
      [cli, rest, rules, cliAfter, burst].filter(Boolean).length * RECORDS +
      (freshRead ? 1 : 0) +
      recent +
      (reads?.beside.records ?? 0);
    const exact =
      totals.raw === expected &&
      totals.dayMismatches === 0 &&
      totals.monthMismatches === 0 &&
      totals.companyDayMismatches === 0 &&
      totals.lastSeenMismatches === 0 &&
      [cli, rest, rules, cliAfter, burst].every((d) => !d || d.taken === RECORDS);
    // Without rules: the mean of the runs before and after the rules door (records over the time of both).
    const without = cli && cliAfter ? Math.round((2 * RECORDS) / (cli.seconds + cliAfter.seconds)) : cli?.perSecond;
    const rulesRatio = rules && without ? round(rules.perSecond / without, 2) : null;
    const burstRatio = burst && without ? round(burst.perSecond / without, 2) : null;
    // In time: no firing later than the SIM's other records in its batch and the one stored beside it.
    const inTime = (d: RulesRun | null) => (d ? d.firings > 0 && d.maxLate <= 2 * d.maxPerBatch - 1 : null);
    const rulesInTime = inTime(rules);
    const fired = (d: RulesRun) =>
      `${d.firings} firings (each with its webhook event), ${d.onTime} with no record after the one that crossed, at most ${d.maxLate} 15-minute record(s) late (a batch held at most ${d.maxPerBatch} of a SIM's records, ${IMPORT_IN_FLIGHT} batches stored at once: ${inTime(d) ? 'met' : 'MISSED'})`;

    const row = (name: string, d: Door | null) =>
      d
        ? `| ${name} | ${d.records} | ${d.seconds} | ${d.perSecond} | ${d.copyRatio ?? '-'} | ${d === copy ? '' : d.perSecond >= TARGET ? 'met' : 'MISSED'} |`
        : `| ${name} | not run | | | | |`;
    console.log(
      [
        '',
        `${SIMS} SIMs, ${DAYS} days stored, ${RECORDS} records a door (PostgreSQL ${pg.target.url.split('/').pop()}), load average ${uptime.map((l) => l[0]).join(' -> ')}`,
        '| door | records | s | records/s | x COPY | >= 50,000/s |',
        '|---|---|---|---|---|---|',
        row('COPY, unindexed', copy),
        row(`usage:import ${CLI_ARGS.join(' ')}`.trim(), cli),
        row('usage:import again after the rules door, the rules off', cliAfter),
        row(`POST /api/network/usage, ${CONNECTIONS} at once`, rest),
        row(`usage:import with ${RULES} rules on`, rules),
        row(`usage:import with ${RULES} rules on, a burst`, burst),
        rules
          ? `rules: ${rulesRatio ?? '-'}x the speed without them (${without ?? '-'}/s, the runs before and after; >= 0.8: ${rulesRatio !== null && rulesRatio >= 0.8 ? 'met' : 'MISSED'}), firings at the steady month's most (one every ${Math.round(1 / STEADY_FIRINGS_PER_RECORD)} records): ${fired(rules)}`
          : 'rules: not run',
        burst
          ? `a burst (information): ${burstRatio ?? '-'}x the speed without rules; ${fired(burst)}`
          : 'a burst: not run (USAGE_BENCH_DOORS=...,burst)',
        freshRead
          ? `freshness: a record on /sims ${freshRead.visibleMs} ms after its ingest answered (the ${freshRead.requests === 1 ? 'first page asked for' : `page of request ${freshRead.requests}`}; read your own writes)`
          : 'freshness: not measured (the REST door did not run)',
        ...(reads
          ? ['', ...readsTable(reads, READ_USERS, READ_THINK_MS, BESIDE), '']
          : ['reads: not run (USAGE_BENCH_DOORS=...,reads)']),
        ...(downloads ? ['', ...downloads.table, ''] : ['downloads: not run (USAGE_BENCH_DOORS=...,downloads)']),
        `totals: ${totals.raw} raw records (expected ${expected}); mismatches: days ${totals.dayMismatches}, months ${totals.monthMismatches}, company days ${totals.companyDayMismatches}, last seen ${totals.lastSeenMismatches}: ${exact ? 'exact' : 'NOT EXACT'}`,
      ].join('\n'),
    );
    const result = {
      at: new Date().toISOString(),
      machine: machine(),
      loadavg: uptime,
      database: 'postgres',
      sims: SIMS,
      daysStored: DAYS,
      recordsPerDoor: RECORDS,
      connections: CONNECTIONS,
      cliArgs: CLI_ARGS,
      cliStartSeconds: round(cliStartMs / 1000, 1),
      restRetried503: restRetried,
      freshness: freshRead,
      reads: reads && {
        ...reads,
        users: READ_USERS,
        thinkMs: READ_THINK_MS,
        secondsEach: READ_SECONDS,
        besideAsked: BESIDE,
        recentSims: RECENT_SIMS,
        recentRecords: recent,
      },
      downloads: downloads && { rows: downloads.rows, pass: downloads.pass },
      copy,
      cli,
      cliAfter,
      withoutRulesPerSecond: without,
      rest,
      rules,
      rulesRatio,
      burst,
      burstRatio,
      totals: { ...totals, expected, exact },
      targets: { perSecondMin: TARGET, rulesRatioMin: 0.8, rulesFireInCrossingBatch: true },
      pass:
        exact &&
        [cli, rest].every((d) => d && d.perSecond >= TARGET) &&
        (!rules || (rulesRatio !== null && rulesRatio >= 0.8 && rulesInTime === true)) &&
        (!reads || reads.pass) &&
        (!downloads || downloads.pass),
    };
    log(`wrote ${writeResult('usage', result)}`);
    return result;
  } finally {
    rmSync(file, { force: true });
    if (KEEP) {
      rmSync(dataDir, { recursive: true, force: true });
      log(`kept the database: ${pg.target.url}`);
    } else await cleanup();
  }
}

runBenchmark(main);
