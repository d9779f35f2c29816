// Bulk activation (npm run bench:bulk), on PostgreSQL. Makes a fresh database on the machine's PostgreSQL
// (DATABASE_URL's server, else postgres://postgres@127.0.0.1:5432; dropped at the end), seeds 1,000 SIMs for
// Demo AB, starts the production server (BUILD_DIR=build-bench) in its own process and, in the same run,
// activates N ICCIDs one by one (N sequential POST /api/sim over one keep-alive connection, as a client
// script would) and N other ICCIDs in one POST /api/sim/bulk, then the same bulk list again (the idempotent
// repeat: nothing left to activate). Prints the times, the ratio and the server's RSS growth per phase;
// writes bench/results/bulk.json.
//
//   BENCH_ICCIDS=1000  BENCH_SMOKE=1 (50 ICCIDs)  BENCH_ENFORCE=1 exits 1 when a target is missed.
import { SMOKE } from './env.js';
import http from 'node:http';
import { withCheckDigit } from '../server/sims/iccid.js';
import {
  benchOnPostgres,
  logger,
  machine,
  mb,
  round,
  rssOf,
  runBenchmark,
  seedDatabase,
  serverEnv,
  startProcess,
  writeResult,
} from './lib.js';

const log = logger('bulk');
const N = Number(process.env.BENCH_ICCIDS ?? (SMOKE ? 50 : 1000));
const SEEDED_SIMS = SMOKE ? 100 : 1000;
const TARGET = { speedupMin: 5 };

const plan = { dataLimit: 1000, callAndSms: true, roaming: false, invoiceLineMark: 'Bänk', invoiceLineNote: '' };

let serial = 0;
/** Valid ICCIDs of their own prefix (the seeded SIMs start 8946000, and fail the check digit). */
const iccids = (n: number) =>
  Array.from({ length: n }, () => withCheckDigit(`89467${String(serial++).padStart(14, '0')}`));

// One keep-alive connection: what a client script activating SIMs one by one would hold.
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

function postJson(url: string, cookie: string, body: unknown): Promise<{ status: number; data: any }> {
  const payload = Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: { cookie, 'content-type': 'application/json', 'content-length': payload.length },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          try {
            resolve({ status: res.statusCode ?? 0, data: JSON.parse(text) });
          } catch {
            resolve({ status: res.statusCode ?? 0, data: text });
          }
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** Runs fn while sampling the server's RSS; the growth is the peak over the RSS before. */
async function measured<T>(pid: number, fn: () => Promise<T>): Promise<{ ms: number; value: T; rssGrowthMB: number }> {
  const before = rssOf(pid);
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 20);
  const t = performance.now();
  try {
    const value = await fn();
    const ms = performance.now() - t;
    peak = Math.max(peak, rssOf(pid));
    return { ms: round(ms, 1), value, rssGrowthMB: mb(peak - before) };
  } finally {
    clearInterval(timer);
  }
}

async function main() {
  const { dataDir, pg, cleanup } = await benchOnPostgres('bulk', log);
  let app: Awaited<ReturnType<typeof startProcess>> | null = null;
  try {
    log(`seeding ${SEEDED_SIMS} SIMs for Demo AB into PostgreSQL (${new URL(pg.target.url).pathname.slice(1)})`);
    const seeded = await seedDatabase(pg.target, SEEDED_SIMS);
    await seeded.orm.close(true);
    const cookie = seeded.adminCookie;
    app = await startProcess(serverEnv(pg.target, dataDir), { name: 'the portal' });
    const pid = app.child.pid!;

    // Warm-up of both paths (JIT, pool, plan cache), on ICCIDs of their own.
    for (const iccid of iccids(SMOKE ? 5 : 50)) await postJson(`${app.url}/api/sim`, cookie, { ...plan, iccid });
    for (let i = 0; i < 3; i++) await postJson(`${app.url}/api/sim/bulk`, cookie, { ...plan, iccids: iccids(50) });
    const rssStart = rssOf(pid);

    const singleList = iccids(N);
    const single = await measured(pid, async () => {
      let failed = 0;
      for (const iccid of singleList) {
        const r = await postJson(`${app!.url}/api/sim`, cookie, { ...plan, iccid });
        if (r.status !== 200) failed++;
      }
      return failed;
    });
    if (single.value > 0) throw new Error(`${single.value} of ${N} single activations failed`);
    log(`${N} x POST /api/sim: ${single.ms} ms (${round(single.ms / N, 2)} ms each), RSS +${single.rssGrowthMB} MB`);

    const bulkList = iccids(N);
    const bulk = await measured(pid, () => postJson(`${app!.url}/api/sim/bulk`, cookie, { ...plan, iccids: bulkList }));
    if (bulk.value.status !== 200 || bulk.value.data.counts?.activated !== N)
      throw new Error(
        `POST /api/sim/bulk answered ${bulk.value.status}: ${JSON.stringify(bulk.value.data).slice(0, 300)}`,
      );
    log(`POST /api/sim/bulk with ${N} ICCIDs: ${bulk.ms} ms, RSS +${bulk.rssGrowthMB} MB`);

    const repeat = await measured(pid, () =>
      postJson(`${app!.url}/api/sim/bulk`, cookie, { ...plan, iccids: bulkList }),
    );
    if (repeat.value.status !== 200 || repeat.value.data.counts?.alreadyActive !== N)
      throw new Error(`the repeat answered ${repeat.value.status}: ${JSON.stringify(repeat.value.data).slice(0, 300)}`);
    log(`the same list again (nothing left): ${repeat.ms} ms`);
    const rssEnd = rssOf(pid);

    const speedup = round(single.ms / bulk.ms, 1);
    const result = {
      date: new Date().toISOString(),
      machine: machine(),
      smoke: SMOKE,
      database: 'postgres',
      iccids: N,
      seededSims: SEEDED_SIMS,
      client: 'node:http, one keep-alive connection, requests in sequence',
      single: { totalMs: single.ms, perRequestMs: round(single.ms / N, 2), rssGrowthMB: single.rssGrowthMB },
      bulk: { totalMs: bulk.ms, rssGrowthMB: bulk.rssGrowthMB },
      repeat: { totalMs: repeat.ms, rssGrowthMB: repeat.rssGrowthMB },
      speedup,
      serverRss: { startMB: mb(rssStart), endMB: mb(rssEnd), growthMB: mb(rssEnd - rssStart) },
      targets: TARGET,
      pass: speedup >= TARGET.speedupMin,
    };
    const file = writeResult('bulk', result);
    console.log(
      [
        '',
        `bulk activation, ${N} ICCIDs, PostgreSQL${SMOKE ? ' (smoke)' : ''}`,
        `  ${N} x POST /api/sim (keep-alive)  ${single.ms} ms   RSS peak +${single.rssGrowthMB} MB`,
        `  1 x POST /api/sim/bulk            ${bulk.ms} ms   RSS peak +${bulk.rssGrowthMB} MB`,
        `  the same list again               ${repeat.ms} ms`,
        `  bulk is ${speedup}x faster (target >= ${TARGET.speedupMin}x) ${result.pass ? 'met' : 'MISSED'}; server RSS ${mb(rssStart)} -> ${mb(rssEnd)} MB`,
        `  ${result.pass ? 'PASS' : 'FAIL'}  -> ${file}`,
      ].join('\n'),
    );
    return result;
  } finally {
    agent.destroy();
    await app?.stop();
    await cleanup();
  }
}

runBenchmark(main);
