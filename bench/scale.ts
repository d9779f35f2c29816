// Long: one benchmark run end to end (instances, nginx, the CPU accounting of each configuration, the report).
// Several instances behind nginx (npm run bench:scale), on PostgreSQL. Makes a fresh database on the machine's
// PostgreSQL (dropped at the end), seeds 10,000 SIMs for Demo AB, and runs the built server (BUILD_DIR=build-bench,
// `node build-bench/node/index.js`, as `npm start` does) as 1, 2 and 3 instances behind a real nginx configured
// from deploy/nginx/sim-portal.conf (tests/helpers/nginx.ts: loopback, no TLS, round robin, keepalive). For
// each, autocannon on loopback (50 connections, in this process) against GET /api/sim/all?limit=50 and
// GET /api/sim/{id} with a session cookie; for reference, one instance without nginx. Prints req/s side by side
// with the ratio to one instance behind nginx, and where the CPU went during each configuration's runs: the
// server processes, nginx (master and worker), the PostgreSQL backends of the bench database and this process
// (autocannon), from /proc/<pid>/stat before and after, next to the whole machine's (/proc/stat). There is no
// target: on two cores the processes share the same two cores, so more instances can only use what the others
// leave. Writes bench/results/scale.json.
//
//   BENCH_SIMS=10000  BENCH_DURATION=10 (s per run)  BENCH_CONNECTIONS=50  BENCH_SCALE_INSTANCES=1,2,3
//   BENCH_SMOKE=1 (500 SIMs, 1 and 2 instances, 2 s runs)
import { defined } from '#domain/defined.ts';
import { SMOKE } from './env.ts';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { DbTarget } from '#server/db/orm.ts';
import { findNginx, heldPort, nginxPids, startNginx } from '#tests/helpers/nginx.ts';
import {
  cannon,
  ensureBuild,
  startProcess,
  type ServerProcess,
  freshPostgres,
  logger,
  machine,
  round,
  runBenchmark,
  seedWithMiddleSim,
  serverEnv,
  sleep,
  writeResult,
} from './lib.ts';

const log = logger('scale');
const SIMS = Number(process.env.BENCH_SIMS ?? (SMOKE ? 500 : 10_000));
const DURATION = Number(process.env.BENCH_DURATION ?? (SMOKE ? 2 : 10));
const WARMUP = SMOKE ? 1 : 3;
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const COUNTS = (process.env.BENCH_SCALE_INSTANCES ?? (SMOKE ? '1,2' : '1,2,3')).split(',').map(Number);
/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on Linux). */
const TICKS = 100;

/** `a`'s requests per second over `b`'s (null without both runs). */
const ratio = (a: { reqPerSec: number } | undefined, b: { reqPerSec: number } | undefined) =>
  a && b ? round(a.reqPerSec / b.reqPerSec) : null;

type Run = { reqPerSec: number; p50: number; p99: number; requests: number; errors: number };

/** One route under load (bench/lib.ts's autocannon run); every failure (error, timeout, non-2xx) counts. */
async function route(url: string, cookie: string, duration: number): Promise<Run> {
  const r = await cannon(url, cookie, duration, CONNECTIONS);
  return {
    reqPerSec: r.reqPerSec,
    p50: r.p50,
    p99: r.p99,
    requests: r.requests,
    errors: r.errors + r.timeouts + r.non2xx,
  };
}

/** A process's user + system CPU time in seconds (0 when it is gone). */
function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // pid (comm) state ppid ...: utime and stime are fields 14 and 15, the 12th and 13th after comm.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / TICKS;
  } catch {
    return 0;
  }
}

/** The whole machine's busy CPU time in seconds (all cores; idle and iowait left out). */
function machineBusySeconds(): number {
  const f = defined(readFileSync('/proc/stat', 'utf8').split('\n')[0], 'the cpu line of /proc/stat')
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  const total = f.reduce((a, b) => a + b, 0);
  const [, , , idle = 0, iowait = 0] = f;
  return (total - idle - iowait) / TICKS;
}

type Instance = ServerProcess & { dataDir: string };

/** One instance of the built server, as `npm start` runs it (bench/lib.ts's startProcess). */
async function startInstance(target: DbTarget, name: string): Promise<Instance> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `sim-bench-scale-${name}-`));
  let p: ServerProcess;
  try {
    p = await startProcess(
      { ...serverEnv(target, dataDir), TRUST_PROXY: 'loopback' },
      { readyPath: '/readyz', name: `instance ${name}`, host: '127.0.0.1' },
    );
  } catch (e) {
    rmSync(dataDir, { recursive: true, force: true });
    throw e;
  }
  return {
    ...p,
    dataDir,
    stop: async () => {
      await p.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

type Groups = { servers: number[]; nginx: number[]; postgres: number[]; autocannon: number[] };
type Cpu = { servers: number; nginx: number; postgres: number; autocannon: number; machine: number; other: number };

/** CPU used by each group of processes (in cores: CPU seconds over wall seconds) while `work` runs. */
async function measureCpu<T>(
  groups: Groups,
  work: () => Promise<T>,
): Promise<{ value: T; cores: Cpu; seconds: Record<keyof Groups, number> }> {
  const sum = (pids: number[]) => pids.reduce((a, p) => a + cpuSeconds(p), 0);
  const names = ['servers', 'nginx', 'postgres', 'autocannon'] as const;
  const before = names.map((n) => sum(groups[n]));
  const busyBefore = machineBusySeconds();
  const t = performance.now();
  const value = await work();
  const wall = (performance.now() - t) / 1000;
  const [servers, nginx, postgres, autocannon] = names.map((n, k) => sum(groups[n]) - (before[k] ?? 0));
  const used = { servers: servers ?? 0, nginx: nginx ?? 0, postgres: postgres ?? 0, autocannon: autocannon ?? 0 };
  const machineUsed = machineBusySeconds() - busyBefore;
  const cores = (s: number) => round(s / wall, 2);
  return {
    value,
    cores: {
      servers: cores(used.servers),
      nginx: cores(used.nginx),
      postgres: cores(used.postgres),
      autocannon: cores(used.autocannon),
      machine: cores(machineUsed),
      other: cores(Math.max(0, machineUsed - Object.values(used).reduce((a, b) => a + b, 0))),
    },
    seconds: used,
  };
}

async function main() {
  if (!findNginx()) {
    // As tests/api/instances.test.ts does: skipped with the reason (CI installs nginx; a failed install should not
    // fail every benchmark).
    const skipped = 'nginx is not installed (apt-get install nginx)';
    log(`skipped: ${skipped}`);
    writeResult('scale', { date: new Date().toISOString(), machine: machine(), smoke: SMOKE, skipped, pass: true });
    return { pass: true };
  }
  ensureBuild(log);
  const pgDb = await freshPostgres();
  const instances: Instance[] = [];
  let stopNginx: (() => Promise<void>) | null = null;
  const admin = new pg.Client({ connectionString: pgDb.target.url });
  try {
    const { cookie, simId } = await seedWithMiddleSim(pgDb.target, SIMS, log);
    await admin.connect();
    // The PostgreSQL backends serving the instances (their pools keep them open under load), this client's left out.
    const backends = async () =>
      (
        await admin.query<{ pid: number }>(
          'select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
        )
      ).rows.map((r) => r.pid);

    const routes = [
      { name: 'GET /api/sim/all?limit=50', path: '/api/sim/all?limit=50' },
      { name: 'GET /api/sim/{id}', path: `/api/sim/${simId}` },
    ];
    type Config = {
      name: string;
      instances: number;
      nginx: boolean;
      runs: Run[];
      cpu: Cpu;
      cpuMsPerRequest: Record<keyof Groups | 'total', number>;
      ceilingReqPerSec: number;
    };
    const configs: Config[] = [];
    /** Both routes against `base` (a warm-up each first); CPU measured over the timed runs. */
    const measure = async (name: string, n: number, base: string, nginxMaster: number | null) => {
      for (const r of routes) {
        // A 503 with Retry-After (the pool refusing while the machine is busy, e.g. right after seeding) is
        // tried again as a client would, a few times; anything else is a failure at once.
        let res = await fetch(base + r.path, { headers: { cookie } });
        for (let tries = 1; res.status === 503 && tries < 5; tries++) {
          await res.arrayBuffer();
          await new Promise((done) => setTimeout(done, 1000 * Number(res.headers.get('retry-after') ?? 1)));
          res = await fetch(base + r.path, { headers: { cookie } });
        }
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`${name}: ${r.path} answered ${res.status}`);
        await route(base + r.path, cookie, WARMUP);
      }
      const groups: Groups = {
        servers: instances.slice(0, n).map((i) => i.pid),
        nginx: nginxMaster ? nginxPids(nginxMaster) : [],
        postgres: await backends(),
        autocannon: [process.pid],
      };
      const {
        value: runs,
        cores,
        seconds,
      } = await measureCpu(groups, async () => {
        const runs: Run[] = [];
        for (const r of routes) runs.push(await route(base + r.path, cookie, DURATION));
        return runs;
      });
      // CPU per request answered: what each part costs, whatever share of the machine it got.
      const requests = runs.reduce((a, x) => a + x.requests, 0);
      const perRequest = (sec: number) => round((sec * 1000) / Math.max(1, requests), 3);
      const total = seconds.servers + seconds.nginx + seconds.postgres + seconds.autocannon;
      const cpuMsPerRequest = {
        servers: perRequest(seconds.servers),
        nginx: perRequest(seconds.nginx),
        postgres: perRequest(seconds.postgres),
        autocannon: perRequest(seconds.autocannon),
        total: perRequest(total),
      };
      // The most this configuration could answer with the machine to itself: all cores for all its processes,
      // and at most one core per instance (a Node process runs JavaScript on one thread).
      const ceilingReqPerSec = Math.round(
        Math.min((os.cpus().length * 1000) / cpuMsPerRequest.total, (n * 1000) / cpuMsPerRequest.servers),
      );
      configs.push({
        name,
        instances: n,
        nginx: nginxMaster !== null,
        runs,
        cpu: cores,
        cpuMsPerRequest,
        ceilingReqPerSec,
      });
      log(
        `${name}: ${runs.map((x, k) => `${routes[k]?.name} ${x.reqPerSec} req/s (errors ${x.errors})`).join(', ')}; ` +
          `CPU cores: servers ${cores.servers}, nginx ${cores.nginx}, postgres ${cores.postgres}, autocannon ${cores.autocannon}, other ${cores.other}`,
      );
    };

    // The reference, one instance without nginx, right after the first configuration (one instance behind nginx),
    // on the same warm instance.
    for (const n of COUNTS) {
      while (instances.length < n) instances.push(await startInstance(pgDb.target, `i${instances.length + 1}`));
      const nginx = await startNginx(
        instances.slice(0, n).map((i) => i.port),
        await heldPort(),
      );
      stopNginx = nginx.stop;
      await measure(
        `${n} instance${n > 1 ? 's' : ''} behind nginx`,
        n,
        nginx.url,
        defined(nginx.child.pid, 'the process id of nginx'),
      );
      await nginx.stop();
      stopNginx = null;
      if (n === COUNTS[0])
        await measure('1 instance, no nginx', 1, defined(instances[0], 'the first instance').url, null);
    }
    // Requests autocannon left behind when its runs ended (their clients gone) finish before the instances stop.
    await sleep(2_000);

    const one = configs.find((c) => c.nginx && c.instances === 1);
    const table = routes.map((r, k) => ({
      route: r.name,
      reqPerSec: Object.fromEntries(configs.map((c) => [c.name, c.runs[k]?.reqPerSec])),
      ratioToOneBehindNginx: Object.fromEntries(configs.map((c) => [c.name, ratio(c.runs[k], one?.runs[k])])),
    }));
    const errors = configs.reduce((a, c) => a + c.runs.reduce((b, x) => b + x.errors, 0), 0);
    const result = {
      date: new Date().toISOString(),
      machine: machine(),
      smoke: SMOKE,
      database: 'postgres',
      sims: SIMS,
      connections: CONNECTIONS,
      durationSeconds: DURATION,
      tool: 'autocannon 9.0.0 in this process, loopback; nginx from deploy/nginx/sim-portal.conf (one worker, no TLS, round robin, keepalive 64); each instance `node build-bench/node/index.js`',
      cpuNote:
        'cores = CPU seconds over wall seconds during the timed runs of a configuration (both routes); machine = all processes (/proc/stat); other = machine minus the four groups (other work on the machine); cpuMsPerRequest = CPU seconds of each group over the requests answered in those runs; ceilingReqPerSec = min(cores x 1000 / total ms, instances x 1000 / servers ms): the most with the machine to itself',
      configs,
      table,
      errors,
      // No target (two cores cap it); the run passes when it completes without a failed request.
      pass: errors === 0,
    };
    const file = writeResult('scale', result);
    const pad = (s: string | number, w: number) => String(s).padStart(w);
    const w = Math.max(...configs.map((c) => c.name.length)) + 1;
    console.log(
      [
        '',
        `instances behind nginx, ${SIMS} SIMs, PostgreSQL, ${CONNECTIONS} connections, ${DURATION} s per run, ${os.cpus().length} cores${SMOKE ? ' (smoke)' : ''}`,
        `  ${'req/s (ratio to 1 behind nginx)'.padEnd(w)} ${routes.map((r) => pad(r.name, 34)).join('')}`,
        ...configs.map(
          (c) =>
            `  ${c.name.padEnd(w)} ${c.runs
              .map((x, k) =>
                pad(
                  `${x.reqPerSec} (${ratio(x, one?.runs[k]) ?? '-'}x) p99 ${x.p99} ms${x.errors ? ` ERR ${x.errors}` : ''}`,
                  34,
                ),
              )
              .join('')}`,
        ),
        `  CPU, cores used (of ${os.cpus().length}):`,
        `  ${''.padEnd(w)} ${['servers', 'nginx', 'postgres', 'autocannon', 'other', 'machine'].map((h) => pad(h, 11)).join('')}`,
        ...configs.map(
          (c) =>
            `  ${c.name.padEnd(w)} ${[c.cpu.servers, c.cpu.nginx, c.cpu.postgres, c.cpu.autocannon, c.cpu.other, c.cpu.machine].map((x) => pad(x, 11)).join('')}`,
        ),
        `  CPU ms per request (both routes): servers + nginx + postgres + autocannon = total -> at most req/s with both cores to itself (and one core per instance)`,
        ...configs.map(
          (c) =>
            `  ${c.name.padEnd(w)} ${[c.cpuMsPerRequest.servers, c.cpuMsPerRequest.nginx, c.cpuMsPerRequest.postgres, c.cpuMsPerRequest.autocannon].join(' + ')} = ${c.cpuMsPerRequest.total} ms -> ${c.ceilingReqPerSec} req/s`,
        ),
        `  errors ${errors}  -> ${file}`,
      ].join('\n'),
    );
    return result;
  } finally {
    await admin.end().catch(() => {});
    await stopNginx?.();
    for (const i of instances.reverse()) await i.stop();
    await pgDb.drop();
  }
}

runBenchmark(main);
