// Long: one benchmark run end to end (seed, baseline, HTTP and in-process exports, the report).
// Benchmark of the invoice export (npm run bench:export). Seeds BENCH_SIMS SIMs (default 10,000) with a year
// of history into a fresh database, starts the real server in its own process, and times the HTTP export of
// 12 months against a baseline in this same run: the same rows written from an in-memory array with exceljs
// alone. Prints the ratio, rows per second and the server's peak RSS growth, for the full size and for a
// company ten times smaller (flat memory means about the same growth), and writes bench/results/export.json.
//
//   BENCH_SIMS=10000  BENCH_RUNS=3  BUILD_DIR=build  DATABASE_URL=postgres://...  (PGlite in a temp dir if unset)
//   BENCH_ENFORCE=1 exits 1 when a target is missed.
//   BENCH_EXPORT_CSV=1 (BENCH_CSV_ROWS=200000) only compares, in this process, the /sims list's CSV writer (its fields
//   encoded by hand) with csv-stringify making the same file (docs/decisions/023-files-plumbing.md).
import { defined } from '#domain/defined.ts';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { Writable } from 'node:stream';
import { stringify as stringifyStream } from 'csv-stringify';
import { stringify } from 'csv-stringify/sync';
import ExcelJS from 'exceljs';
import { signedInSession } from '#tests/helpers/signed-in.ts';
import { Company, RatePlan, User } from '#server/db/entities.ts';
import { initOrm, migrate, type DbTarget, type Em } from '#server/db/orm.ts';
import { seedDemo } from '#server/db/seed.ts';
import { buildClient, buildIsStale } from '#server/index.ts';
import {
  addMonths,
  dateFromDay,
  dayInZone,
  formatYearMonth,
  yearMonthInZone,
  type Period,
} from '#domain/export/periods.ts';
import { loadPlans, specificationRows } from '#server/export/invoice-specification.ts';
import { formatDataAmount, SPEC_COLUMNS, SPEC_HEADER_ROW, SUMMARY_COLUMNS, yesNo } from '#server/export/workbook.ts';
import { CSV_STRINGIFY_OPTIONS } from '#server/files/csv.ts';
import { looksLikeFormula } from '#server/files/formula.ts';
import { drained, writeOrWait } from '#server/files/streams.ts';
import { stockholmText } from '#server/files/time.ts';
import { LIST_COLUMNS, writeListCsv } from '#server/sims/list-file.ts';
import type { SimView } from '#server/sims/rows.ts';
import type { SimUsage } from '#server/sims/usage.ts';
import { freshDatabase } from '#tests/helpers/scratch-db.ts';
import { freePort, mb, median, rssOf, runBenchmark } from './lib.ts';

const root = path.resolve(import.meta.dirname, '..');
const SIMS = Number(process.env.BENCH_SIMS ?? 10_000);
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 3));
const SMALL = Math.max(1, Math.round(SIMS / 10));
const TARGET_RATIO = 1.5;
const TARGET_RSS_MB = 60;
/** Flat memory: the growth at full size at most this many times the growth at a tenth of the size. */
const TARGET_RSS_RATIO = 1.5;

const log = (...a: unknown[]) => console.log('[bench:export]', ...a);

/** N SIMs for the company, all active at the period start; a third change plan mid-period, a tenth end. */
async function seedSims(em: Em, companyId: number, n: number, prefix: string, period: Period) {
  const plans = await em.find(RatePlan, { isLegacy: false }, { orderBy: { id: 'asc' } });
  const ids = plans.map((p) => p.id);
  const start = dateFromDay(dayInZone(new Date(Date.UTC(period.start.year, period.start.month - 1, 1, 12))));
  // One statement per table: the history of every SIM is computed from its number g.
  await em.execute(
    `insert into sim (iccid, company_id, rate_plan_id, invoice_line_mark, invoice_line_note, status, activated_at, deactivated_at)
     select ? || lpad(g::text, 15, '0') || '0', ?, (?::int[])[1 + (g % ?)],
            case when g % 50 = 0 then '=Fordon ' || g else 'Fordon ' || g end, 'Kommentar ' || g,
            case when g % 10 = 0 then 'deactivated' else 'active' end,
            ?::timestamptz - ((g % 400) || ' days')::interval + interval '9 hours',
            case when g % 10 = 0 then ?::timestamptz + ((200 + g % 100) || ' days')::interval + interval '9 hours' end
       from generate_series(1, ?) g`,
    [prefix, companyId, `{${ids.join(',')}}`, ids.length, start, start, n],
  );
  await em.execute(
    `insert into sim_event (sim_id, kind, rate_plan_id, at)
     select id, 'activated', rate_plan_id, activated_at from sim where company_id = ?`,
    [companyId],
  );
  await em.execute(
    `insert into sim_event (sim_id, kind, rate_plan_id, at)
     select id, 'planChanged', (?::int[])[1 + ((id + 1) % ?)], ?::timestamptz + ((id % 300) || ' days')::interval + interval '10 hours'
       from sim where company_id = ? and id % 3 = 0`,
    [`{${ids.join(',')}}`, ids.length, start, companyId],
  );
  await em.execute(
    `insert into sim_event (sim_id, kind, rate_plan_id, at)
     select s.id, 'deactivated', coalesce((select e.rate_plan_id from sim_event e where e.sim_id = s.id order by e.at desc limit 1), s.rate_plan_id), s.deactivated_at
       from sim s where s.company_id = ? and s.deactivated_at is not null`,
    [companyId],
  );
}

type Cells = ExcelJS.CellValue[];

/** The rows the export writes, as plain cell arrays in memory (read once, before any timing). */
async function rowsInMemory(em: Em, companyId: number, period: Period): Promise<Cells[]> {
  const plans = await loadPlans(em);
  const out: Cells[] = [];
  for await (const batch of specificationRows(em, companyId, period, { today: dayInZone(new Date()), plans })) {
    for (const r of batch) {
      out.push([
        formatYearMonth(r.month),
        r.iccid,
        r.invoiceLineMark,
        r.invoiceLineNote,
        r.plan.description,
        formatDataAmount(r.plan.dataLimit),
        yesNo(r.plan.call && r.plan.sms),
        yesNo(r.plan.roaming),
        dateFromDay(r.from),
        dateFromDay(r.to),
        r.days,
      ]);
    }
  }
  return out;
}

/** Baseline: exceljs' streaming writer alone, the same sheets, columns and rows, into a byte counter. */
async function baseline(rows: Cells[]): Promise<{ ms: number; bytes: number }> {
  let bytes = 0;
  const sink = new Writable({
    write(chunk: Buffer, _e, cb) {
      bytes += chunk.length;
      cb();
    },
  });
  const t0 = performance.now();
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: sink, useStyles: true, useSharedStrings: false });
  const ws = wb.addWorksheet('Specifikation', { views: [{ state: 'frozen', ySplit: SPEC_HEADER_ROW }] });
  ws.columns = SPEC_COLUMNS.map((c) => ({
    width: c.width,
    style: 'text' in c ? { numFmt: '@' } : 'date' in c ? { numFmt: 'yyyy-mm-dd' } : {},
  }));
  for (let i = 1; i < SPEC_HEADER_ROW; i++) ws.addRow(['Rubrik', 'värde']).commit();
  ws.addRow(SPEC_COLUMNS.map((c) => c.header)).commit();
  for (const r of rows) ws.addRow(r).commit();
  ws.commit();
  const sum = wb.addWorksheet('Sammanställning');
  sum.addRow(SUMMARY_COLUMNS.map((c) => c.header)).commit();
  sum.commit();
  await wb.commit();
  await new Promise<void>((resolve) => (sink.writableFinished ? resolve() : sink.on('finish', () => resolve())));
  return { ms: performance.now() - t0, bytes };
}

async function startServerProcess(
  env: Record<string, string>,
): Promise<{ child: ChildProcess; url: string; stop: () => Promise<void> }> {
  const port = await freePort();
  // node --import tsx: the server is this process itself (the tsx CLI would put it in a grandchild).
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/index.ts'], {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port), APP_URL: `http://localhost:${port}` },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://localhost:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (i > 600) throw new Error('the server did not start in 60 s');
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    child,
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** One HTTP export: total and first-byte times, bytes, and the server's peak RSS while it ran. */
async function httpExport(url: string, cookie: string, pid: number) {
  const before = rssOf(pid);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 20);
  const t0 = performance.now();
  const res = await fetch(url, { headers: { cookie } });
  if (res.status !== 200) throw new Error(`export answered ${res.status}: ${await res.text()}`);
  let ttfb = 0;
  let bytes = 0;
  const reader = defined(res.body, 'the body of the export').getReader();
  for (;;) {
    const r = await reader.read();
    if (r.done) break;
    if (!ttfb) ttfb = performance.now() - t0;
    bytes += r.value.length;
  }
  const ms = performance.now() - t0;
  clearInterval(sampler);
  peak = Math.max(peak, rssOf(pid));
  return { ms, ttfbMs: ttfb, bytes, rssBefore: before, peakRss: peak };
}

async function main() {
  const buildDir = process.env.BUILD_DIR ?? 'build';
  if (buildIsStale()) {
    log(`building the app into ${buildDir}`);
    buildClient();
  }
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'sim-bench-export-'));
  const pg = process.env.DATABASE_URL ? await freshDatabase() : null;
  const target: DbTarget = pg ? pg.target : { kind: 'pglite', dataDir: path.join(dataDir, 'pglite') };
  const current = yearMonthInZone(new Date());
  const end = addMonths(current, -1);
  const period: Period = { start: addMonths(end, -11), end };
  const query = `start_year=${period.start.year}&start_month=${period.start.month}&end_year=${period.end.year}&end_month=${period.end.month}`;

  log(`seeding ${SIMS} + ${SMALL} SIMs into ${target.kind === 'postgres' ? 'PostgreSQL' : 'PGlite'} (${dataDir})`);
  let t = performance.now();
  const orm = await initOrm(target);
  await migrate(orm);
  await seedDemo(orm.em.fork());
  const em = orm.em.fork();
  const big = em.create(Company, {
    name: 'Bench Stor AB',
    customerNumber: 'BENCH-1',
    invoiceNote: 'Benchmark',
    invoiceInterval: 'annually',
  });
  const small = em.create(Company, {
    name: 'Bench Liten AB',
    customerNumber: 'BENCH-2',
    invoiceNote: 'Benchmark',
    invoiceInterval: 'annually',
  });
  const bigUser = em.create(User, { email: 'big@bench.se', name: 'Big', company: big });
  const smallUser = em.create(User, { email: 'small@bench.se', name: 'Small', company: small });
  await em.flush();
  await seedSims(em, big.id, SIMS, '8948', period);
  await seedSims(em, small.id, SMALL, '8949', period);
  await em.execute('analyze');
  const cookieBig = `sim_session=${await signedInSession(em, bigUser.id)}`;
  const cookieSmall = `sim_session=${await signedInSession(em, smallUser.id)}`;
  log(`seeded in ${Math.round(performance.now() - t)} ms`);

  t = performance.now();
  const rows = await rowsInMemory(orm.em.fork(), big.id, period);
  const smallRows = (await rowsInMemory(orm.em.fork(), small.id, period)).length;
  log(
    `${rows.length} rows (${smallRows} for the small company) read into memory in ${Math.round(performance.now() - t)} ms`,
  );
  await orm.close(true); // PGlite: one process at a time

  const rowCount = rows.length;
  const baselines: number[] = [];
  let baselineBytes = 0;

  const server = await startServerProcess({
    NODE_ENV: 'production',
    SESSION_SECRET: 'bench-secret-bench-secret-bench-secret-0123456789',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    BUILD_DIR: buildDir,
    ...(target.kind === 'postgres' ? { DATABASE_URL: target.url } : {}),
  });
  const pid = defined(server.child.pid, 'the process id of the server');
  try {
    const exportUrl = `${server.url}/api/export/getExcelV1?${query}`;
    // Warm-up: the page, and a one-month export of the small company.
    await fetch(`${server.url}/export`, { headers: { cookie: cookieSmall } });
    await httpExport(
      `${server.url}/api/export/getExcelV1?start_year=${end.year}&start_month=${end.month}&end_year=${end.year}&end_month=${end.month}`,
      cookieSmall,
      pid,
    );
    await new Promise((r) => setTimeout(r, 500));
    const idleRss = rssOf(pid);

    const smallRun = await httpExport(exportUrl, cookieSmall, pid);
    // Baseline and HTTP runs alternate, so a busy moment of the machine does not favour either side.
    const runs: Array<Awaited<ReturnType<typeof httpExport>>> = [];
    for (let i = 0; i < RUNS; i++) {
      const b = await baseline(rows);
      baselines.push(b.ms);
      baselineBytes = b.bytes;
      const r = await httpExport(exportUrl, cookieBig, pid);
      log(
        `run ${i + 1}: baseline ${Math.round(b.ms)} ms; HTTP ${Math.round(r.ms)} ms, first byte after ${Math.round(r.ttfbMs)} ms, ${r.bytes} bytes`,
      );
      runs.push(r);
    }
    const http = median(runs.map((r) => r.ms));
    const base = median(baselines);
    const peakRss = Math.max(...runs.map((r) => r.peakRss));
    const ratio = Math.round((http / base) * 100) / 100;
    const growth = mb(peakRss - idleRss);
    const smallGrowth = mb(smallRun.peakRss - idleRss);
    // A growth under 1 MB at the small size is noise; do not let it make the ratio meaningless.
    const growthRatio = Math.round((growth / Math.max(smallGrowth, 1)) * 100) / 100;
    const result = {
      date: new Date().toISOString(),
      machine: { cpus: os.cpus().length, node: process.version },
      database: target.kind,
      sims: SIMS,
      period: `${formatYearMonth(period.start)}..${formatYearMonth(period.end)}`,
      rows: rowCount,
      runs: RUNS,
      baseline: { medianMs: Math.round(base), runsMs: baselines.map(Math.round), bytes: baselineBytes },
      http: {
        medianMs: Math.round(http),
        runsMs: runs.map((r) => Math.round(r.ms)),
        firstByteMs: runs.map((r) => Math.round(r.ttfbMs)),
        bytes: runs[0]?.bytes,
      },
      ratio,
      rowsPerSecond: Math.round(rowCount / (http / 1000)),
      rss: {
        idleMB: mb(idleRss),
        peakMB: mb(peakRss),
        growthMB: growth,
        // Per run: peak over the RSS just before that run. The first export of a size pays the one-time
        // costs (V8 heap and the database cache growing); later ones show what an export itself holds.
        perRunGrowthMB: runs.map((r) => mb(r.peakRss - r.rssBefore)),
        small: { sims: SMALL, rows: smallRows, ms: Math.round(smallRun.ms), growthMB: smallGrowth },
      },
      growthRatio,
      loadavg: os.loadavg().map((l) => Math.round(l * 10) / 10),
      targets: { ratioMax: TARGET_RATIO, rssGrowthMaxMB: TARGET_RSS_MB, growthRatioMax: TARGET_RSS_RATIO },
      pass:
        ratio <= TARGET_RATIO &&
        growth < TARGET_RSS_MB &&
        smallGrowth < TARGET_RSS_MB &&
        growthRatio <= TARGET_RSS_RATIO,
    };
    mkdirSync(path.join(root, 'bench/results'), { recursive: true });
    writeFileSync(path.join(root, 'bench/results/export.json'), JSON.stringify(result, null, 2) + '\n');
    console.log(
      [
        '',
        `invoice export, ${SIMS} SIMs, 12 months, ${rowCount} rows (${target.kind})`,
        `  HTTP export (median of ${RUNS}): ${result.http.medianMs} ms, first byte after ${Math.min(...result.http.firstByteMs)} ms`,
        `  baseline, exceljs alone       : ${result.baseline.medianMs} ms`,
        `  ratio                         : ${ratio} (target <= ${TARGET_RATIO})`,
        `  rows per second               : ${result.rowsPerSecond}`,
        `  server peak RSS               : ${result.rss.peakMB} MB, growth ${growth} MB over ${result.rss.idleMB} MB idle (target < ${TARGET_RSS_MB})`,
        `  10x fewer rows (${smallRows})     : growth ${smallGrowth} MB`,
        `  growth ratio, full / tenth    : ${growthRatio} (target <= ${TARGET_RSS_RATIO})`,
        `  load average (1, 5, 15 min)   : ${result.loadavg.join(', ')}`,
        `  growth per run (over RSS before it): ${result.rss.perRunGrowthMB.join(', ')} MB`,
        `  ${result.pass ? 'PASS' : 'FAIL'}  -> bench/results/export.json`,
      ].join('\n'),
    );
    return result;
  } finally {
    await server.stop();
    await pg?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** A byte counter that hashes what it is given, so the writers can be checked to make the same file. */
function hashingSink() {
  const hash = createHash('sha256');
  let bytes = 0;
  const stream = new Writable({
    highWaterMark: 64 * 1024,
    write(chunk: Buffer, _e, cb) {
      bytes += chunk.length;
      hash.update(chunk);
      cb();
    },
  });
  const done = new Promise<void>((resolve) => stream.on('finish', resolve));
  return { stream, done: async () => (await done, `${bytes} bytes, sha256 ${hash.digest('hex').slice(0, 12)}`) };
}

/** The /sims list's CSV three ways, rows a second (median of BENCH_RUNS, alternated): see the header. */
async function csvWriters(): Promise<{ pass: boolean }> {
  const rows = Number(process.env.BENCH_CSV_ROWS ?? 200_000);
  const batch: Array<SimView & { usage: SimUsage; tags: string[] }> = Array.from({ length: 500 }, (_, i) => ({
    id: i + 1,
    iccid: `89460123456789${String(i).padStart(5, '0')}0`,
    invoiceLineMark: i % 50 === 0 ? `=Fordon ${i}` : `Fordon ${i}`,
    invoiceLineNote: i % 7 === 0 ? `Låda "${i}"; hylla 2` : `Kommentar ${i}`,
    status: 'active',
    activatedAt: new Date(Date.UTC(2026, 2, 1, 12, i % 60)).toISOString(),
    pausedAt: null,
    ratePlan: {
      ...{ id: 1, code: 'BAS500', description: 'Bas 500 MB & tal', dataLimit: 500 },
      ...{ call: true, sms: true, roaming: i % 2 === 0, isLegacy: false },
    },
    // This month's usage and the last sighting, as the list export writes them since issue 39.
    usage: {
      ...{ month: '2026-03', monthBytesUp: i * 1000, monthBytesDown: i * 9000, monthBytes: i * 10_000 },
      ...{ lastSeenAt: new Date(Date.UTC(2026, 2, 2, 8, i % 60)).toISOString(), lastSeenNetwork: '24001' },
      ...{ lastSeenCountry: 'SE', asOf: null },
    },
    // Its tags, as the list export writes them since issue 40.
    tags: i % 3 === 0 ? ['Göteborg', 'Kylbilar'] : [],
  }));
  async function* batches() {
    for (let n = 0; n < rows; n += batch.length) yield batch;
  }
  // The same fields as writeListCsv's, neutralised but not quoted: csv-stringify quotes them.
  const safe = (v: string) => (looksLikeFormula(v) ? `'${v}` : v);
  const record = (s: SimView) => {
    const p = s.ratePlan;
    return [
      `\t${s.iccid}`,
      safe(p.code),
      safe(p.description),
      formatDataAmount(p.dataLimit),
      yesNo(p.call && p.sms),
      yesNo(p.roaming),
      safe(s.invoiceLineMark),
      safe(s.invoiceLineNote),
      stockholmText(s.activatedAt),
    ];
  };
  const header = () => '\uFEFF' + stringify([LIST_COLUMNS.map((c) => c.header)], CSV_STRINGIFY_OPTIONS);
  const writers: Record<string, (out: Writable) => Promise<unknown>> = {
    'by hand (writeListCsv)': (out) => writeListCsv(out, batches()),
    'csv-stringify/sync, a batch at a time': async (out) => {
      await writeOrWait(out, header());
      for await (const b of batches()) await writeOrWait(out, stringify(b.map(record), CSV_STRINGIFY_OPTIONS));
      out.end();
    },
    'csv-stringify stream, a record at a time': async (out) => {
      const csv = stringifyStream(CSV_STRINGIFY_OPTIONS);
      csv.pipe(out);
      out.write(header());
      for await (const b of batches()) for (const s of b) if (!csv.write(record(s))) await drained(csv);
      csv.end();
    },
  };
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(writers).map((k) => [k, []]));
  const files = new Set<string>();
  for (let run = 0; run < RUNS; run++) {
    for (const [name, write] of Object.entries(writers)) {
      const sink = hashingSink();
      const t0 = performance.now();
      await write(sink.stream);
      files.add(await sink.done());
      (times[name] ??= []).push(performance.now() - t0);
    }
  }
  const result = Object.fromEntries(
    Object.entries(times).map(([name, ms]) => [name, Math.round(rows / (median(ms) / 1000))]),
  );
  log(`the /sims list's CSV, ${rows} rows, median of ${RUNS} runs (rows/s):`, result, 'files:', [...files]);
  // One file from all three, or the comparison means nothing.
  return { pass: files.size === 1 };
}

runBenchmark(process.env.BENCH_EXPORT_CSV === '1' ? csvWriters : main);
