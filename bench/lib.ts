// Long: what every benchmark shares (build, database, seeding, processes, autocannon, results), one import.
// Shared parts of the benchmarks: the build, a fresh database, seeding, the real server in its own process,
// and the results file. Import './env.js' before this module (it sets BUILD_DIR).
import { defined } from '#domain/defined.ts';
import { spawn, type ChildProcess } from 'node:child_process';
import autocannon, { type Result } from 'autocannon';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { freePort } from '#tests/helpers/ports.ts';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { signedInSession } from '#tests/helpers/signed-in.ts';
import { scratchPostgres } from '#tests/helpers/scratch-db.ts';
import { Company, RatePlan, Sim, User } from '#server/db/entities.ts';
import { initOrm, migrate, type DbTarget, type Em, type Orm } from '#server/db/orm.ts';
import { seedDemo } from '#server/db/seed.ts';
import { buildClient, buildIsStale } from '#server/index.ts';

export const root = path.resolve(import.meta.dirname, '..');
export const buildDir = process.env.BUILD_DIR ?? 'build-bench';
export const SESSION_SECRET = 'bench-secret-bench-secret-bench-secret-0123456789';

export const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;
export const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;
export const round = (x: number, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits;
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** The first row of a query that always gives one (a count, a row known to be there); an Error if it gave none. */
export const firstRow = <T>(rows: readonly T[]): T => defined(rows[0], 'the row a query always returns');
export const machine = () => ({
  cpus: os.cpus().length,
  node: process.version,
  loadavg: os.loadavg().map((x) => round(x, 1)),
});

export function logger(name: string) {
  return (...a: unknown[]) => console.log(`[bench:${name}]`, ...a);
}

/** Builds the app into BUILD_DIR when it is missing or older than the sources. */
export function ensureBuild(log: (...a: unknown[]) => void): void {
  if (buildIsStale()) {
    log(`building the app into ${buildDir}`);
    buildClient();
  }
}

export { freePort };

export function rssOf(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : 0;
}

/** A process's user and system CPU time, in clock ticks (1/100 s), from /proc. */
export function cpuTicks(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return Number(fields[11]) + Number(fields[12]);
}

/** The middle value (the upper of the two middle ones for an even count); NaN for none. */
export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

/** The PostgreSQL server the benchmarks make their databases on: DATABASE_URL's, else the machine's. */
export const pgAdminUrl = () =>
  process.env.BENCH_PG_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export async function postgresReachable(): Promise<boolean> {
  const c = new pg.Client({ connectionString: pgAdminUrl(), connectionTimeoutMillis: 3000 });
  try {
    await c.connect();
    await c.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await c.end().catch(() => {});
  }
}

/** A new PostgreSQL database on the machine's server, dropped by drop() (also on Ctrl-C). */
export async function freshPostgres(): Promise<{ target: DbTarget & { kind: 'postgres' }; drop: () => Promise<void> }> {
  const db = await scratchPostgres(pgAdminUrl(), 'sim_bench');
  const unregister = onInterrupt(db.drop);
  const drop = async () => {
    unregister();
    await db.drop();
  };
  return { target: { kind: 'postgres', url: db.url }, drop };
}

/** N active SIMs for the company, one SQL statement, each with its activation event (and a tenth a plan change). */
export async function seedSims(em: Em, companyId: number, n: number, prefix = '8946'): Promise<void> {
  if (n <= 0) return;
  const plans = await em.find(RatePlan, { isLegacy: false }, { orderBy: { id: 'asc' } });
  const ids = `{${plans.map((p) => p.id).join(',')}}`;
  await em.execute(
    `insert into sim (iccid, company_id, rate_plan_id, invoice_line_mark, invoice_line_note, status, activated_at)
     select ? || lpad(g::text, 15, '0') || '0', ?, (?::int[])[1 + (g % ?)], 'Fordon ' || g, 'Kommentar ' || g, 'active',
            now() - ((g % 700) || ' days')::interval - ((g % 1440) || ' minutes')::interval
       from generate_series(1, ?) g`,
    [prefix, companyId, ids, plans.length, n],
  );
  await em.execute(
    `insert into sim_event (sim_id, kind, rate_plan_id, at, after)
     select id, 'activated', rate_plan_id, activated_at, jsonb_build_object('invoiceLineMark', invoice_line_mark)
       from sim where company_id = ? and iccid like ? || '%'`,
    [companyId, prefix],
  );
  await em.execute(
    `insert into sim_event (sim_id, kind, rate_plan_id, at, before, after)
     select id, 'updated', rate_plan_id, activated_at + interval '1 day', '{"invoiceLineNote":"Gammal"}'::jsonb, jsonb_build_object('invoiceLineNote', invoice_line_note)
       from sim where company_id = ? and iccid like ? || '%' and id % 10 = 0`,
    [companyId, prefix],
  );
}

export type Seeded = { orm: Orm; demoCompanyId: number; adminId: number; adminCookie: string };

/**
 * Migrates, seeds the demo data and `sims` more SIMs for Demo AB; returns a session cookie of admin@demo.test acting as
 * Demo AB (a super admin is staff, not a user of the customer: docs/decisions/014), who sees its SIMs and /admin.
 */
export async function seedDatabase(target: DbTarget, sims: number): Promise<Seeded> {
  const orm = await initOrm(target);
  await migrate(orm);
  await seedDemo(orm.em.fork());
  const em = orm.em.fork();
  const demo = await em.findOneOrFail(Company, { customerNumber: '100001' });
  const admin = await em.findOneOrFail(User, { email: 'admin@demo.test' });
  await seedSims(em, demo.id, sims);
  await em.execute('analyze');
  const adminCookie = `sim_session=${await signedInSession(em, admin.id, { actingCompanyId: demo.id })}`;
  return { orm, demoCompanyId: demo.id, adminId: admin.id, adminCookie };
}

/**
 * Seeds `sims` SIMs for Demo AB (seedDatabase, logged with the time it took) and picks a SIM in the middle of the
 * company's list, for GET /api/sim/{id}. `more` runs on the seeded database before its ORM is closed (in the
 * timed part); what it returns comes back as `more`.
 */
export async function seedWithMiddleSim<T = void>(
  target: DbTarget & { kind: 'postgres' },
  sims: number,
  log: (...a: unknown[]) => void,
  more: (em: Em, seeded: Seeded) => Promise<T> = async () => undefined as T,
): Promise<{ cookie: string; simId: number; more: T }> {
  const t = performance.now();
  log(`seeding ${sims} SIMs for Demo AB into PostgreSQL (${new URL(target.url).pathname.slice(1)})`);
  const seeded = await seedDatabase(target, sims);
  const em = seeded.orm.em.fork();
  const middle = await em.find(
    Sim,
    { company: seeded.demoCompanyId, status: 'active' },
    { orderBy: { id: 'asc' }, limit: 1, offset: Math.floor(sims / 2) },
  );
  const simId = firstRow(middle).id;
  const extra = await more(em, seeded);
  await seeded.orm.close(true);
  log(`seeded in ${Math.round(performance.now() - t)} ms; SIM ${simId} for /api/sim/{id}`);
  return { cookie: seeded.adminCookie, simId, more: extra };
}

/**
 * What a benchmark of one server on PostgreSQL starts from: the build (made when stale), a data directory for
 * the server (sim-bench-<name>-...) and a fresh database; `cleanup` drops the database and removes the directory.
 */
export async function benchOnPostgres(name: string, log: (...a: unknown[]) => void) {
  ensureBuild(log);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `sim-bench-${name}-`));
  const pg = await freshPostgres().catch((e: unknown) => {
    rmSync(dataDir, { recursive: true, force: true });
    throw e;
  });
  return {
    dataDir,
    pg,
    cleanup: async () => {
      // BENCH_KEEP=1: the seeded database stays, to read its plans on afterwards (dropped by hand).
      if (process.env.BENCH_KEEP === '1') log(`database kept: ${pg.target.url}`);
      else await pg.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export type CannonRun = {
  reqPerSec: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  requests: number;
  errors: number;
  timeouts: number;
  non2xx: number;
};

/** autocannon on one URL, in this process (gzip accepted). `auth`: a cookie header value, or { bearer } for an API key. */
export async function cannon(
  url: string,
  auth: string | { bearer: string },
  duration: number,
  connections: number,
): Promise<CannonRun> {
  const who: Record<string, string> =
    typeof auth === 'string' ? { cookie: auth } : { authorization: `Bearer ${auth.bearer}` };
  const r: Result = await autocannon({
    url,
    connections,
    duration,
    headers: { ...who, 'accept-encoding': 'gzip' },
    timeout: 10,
  });
  return {
    reqPerSec: round(r.requests.average, 1),
    p50: r.latency.p50,
    p90: r.latency.p90,
    p99: r.latency.p99,
    max: r.latency.max,
    requests: r.requests.total,
    errors: r.errors,
    timeouts: r.timeouts,
    non2xx: r.non2xx,
  };
}

/** The node flags of `npm start` (package.json's start script of this checkout, or of `dir`'s), to start as it starts. */
export function startFlags(dir = root): string[] {
  const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { scripts: { start: string } };
  return pkg.scripts.start.split(/\s+/).filter((w) => w.startsWith('--'));
}

export type ServerProcess = { child: ChildProcess; pid: number; url: string; port: number; stop: () => Promise<void> };

/**
 * Starts the built portal the way `npm start` does (`node scripts/start.js`: the compiled server in BUILD_DIR,
 * built first when missing or stale) on a free port, or with `script`, another program (a baseline) through
 * `node --import tsx <script>`; waits for GET <readyPath>. `host`: APP_URL's host (default localhost). `cwd`: another
 * checkout of the portal to start (its own sources and build; default this one).
 */
export async function startProcess(
  env: Record<string, string>,
  opts: { script?: string; readyPath?: string; name?: string; host?: string; cwd?: string } = {},
): Promise<ServerProcess> {
  const port = await freePort();
  // The started program is this child itself (the tsx CLI would put a script in a grandchild).
  // BENCH_CPU_PROF=<dir>: each started process writes a V8 CPU profile there when it stops (open it in Chrome DevTools),
  // sampled every 100 microseconds (V8's default, 1 ms, leaves a request's parts to chance).
  const profile = process.env.BENCH_CPU_PROF
    ? ['--cpu-prof', '--cpu-prof-interval', '100', '--cpu-prof-dir', path.resolve(process.env.BENCH_CPU_PROF)]
    : [];
  // As `npm start` runs it, with its V8 flags (package.json's start script: one place for them; another checkout's
  // own, so that a change of the flags can be measured with BENCH_BEFORE).
  const program = opts.script ? ['--import', 'tsx', opts.script] : [...startFlags(opts.cwd), 'scripts/start.js'];
  const child = spawn(process.execPath, [...profile, ...program], {
    cwd: opts.cwd ?? root,
    env: {
      ...process.env,
      BUILD_DIR: buildDir,
      ...env,
      PORT: String(port),
      APP_URL: `http://${opts.host ?? 'localhost'}:${port}`,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error(`${opts.name ?? 'the server'} did not start (no process id)`);
  const url = `http://127.0.0.1:${port}`;
  const unregister = onInterrupt(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`${opts.name ?? 'the server'} exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}${opts.readyPath ?? '/healthz'}`)).ok) break;
    } catch {
      // not listening yet
    }
    if (i > 600) throw new Error(`${opts.name ?? 'the server'} did not start in 60 s`);
    await sleep(100);
  }
  return {
    child,
    pid,
    url,
    port,
    stop: () =>
      new Promise<void>((resolve) => {
        unregister();
        if (child.exitCode !== null) return resolve();
        const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

/** The production server's environment for a database target. */
export function serverEnv(target: DbTarget, dataDir: string): Record<string, string> {
  return {
    NODE_ENV: 'production',
    SESSION_SECRET,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    // The benchmarks call the REST paths with one cookie far beyond a person's budget: measure the work, not refusals.
    API_SESSION_RATE_LIMIT: '100000000',
    COMPANY_RATE_LIMIT: '100000000',
    BUILD_DIR: buildDir,
    ...(target.kind === 'postgres' ? { DATABASE_URL: target.url } : { DATABASE_URL: '' }),
  };
}

/** bench/results/<name>.json; a smoke run writes bench/results/smoke/<name>.json (never over real figures). */
export function resultFile(name: string, smoke = process.env.BENCH_SMOKE === '1'): string {
  return path.join(root, 'bench/results', ...(smoke ? ['smoke'] : []), `${name}.json`);
}

export function writeResult(name: string, result: unknown): string {
  const file = resultFile(name);
  const dir = path.dirname(file);
  mkdirSync(dir, { recursive: true });
  writeFileSync(file, JSON.stringify(result, null, 2) + '\n');
  return path.relative(root, file);
}

const cleanups: Array<() => Promise<void> | void> = [];
/** Registers work to undo on Ctrl-C or SIGTERM too (the temp database, the server process); returns an unregister. */
export function onInterrupt(fn: () => Promise<void> | void): () => void {
  cleanups.push(fn);
  if (cleanups.length === 1) {
    const handler = (signal: string) => {
      console.error(`[bench] ${signal}: cleaning up`);
      const fns = cleanups.splice(0).reverse();
      void (async () => {
        for (const f of fns) await Promise.resolve(f()).catch(() => {});
      })().finally(() => process.exit(130));
    };
    process.once('SIGINT', () => handler('SIGINT'));
    process.once('SIGTERM', () => handler('SIGTERM'));
  }
  return () => {
    const i = cleanups.indexOf(fn);
    if (i >= 0) cleanups.splice(i, 1);
  };
}

/** Runs a benchmark's main and exits: 1 on a crash, or on a missed target when BENCH_ENFORCE=1. */
export function runBenchmark(main: () => Promise<{ pass: boolean }>): void {
  main().then(
    // A tiny CI smoke run is all overhead, so missed targets fail the process only when asked.
    (r) => process.exit(!r.pass && process.env.BENCH_ENFORCE === '1' ? 1 : 0),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
