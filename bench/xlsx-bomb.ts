// An XLSX zip bomb posted to /add/bulk (npm run bench:xlsx-bomb), on PostgreSQL: the
// production server in its own process, a member's session, then one bomb and four at once (a sheet whose zip
// declares 2 kB and which unpacks to BENCH_BOMB_MB), each while /livez is asked in a loop. Prints the time, the
// server's RSS peak growth and the slowest /livez answer per phase; writes bench/results/xlsx-bomb.json.
//
//   BENCH_BOMB_MB=300  BENCH_SMOKE=1 (50 MB)  BENCH_ENFORCE=1 exits 1 when a target is missed.
import { SMOKE } from './env.ts';
import { signedInSession } from '#tests/helpers/signed-in.ts';
import { User } from '#server/db/entities.ts';
import { lyingSizeBomb } from '#tests/helpers/xlsx-bombs.ts';
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
} from './lib.ts';

const log = logger('xlsx-bomb');
const BOMB_MB = Number(process.env.BENCH_BOMB_MB ?? (SMOKE ? 50 : 300));
/** What the fix promises (docs/decisions/015-xlsx-bounded-unpack.md): a bomb costs about what a good file does. */
const TARGET = { oneMsMax: 3000, rssGrowthMaxMB: 600, livezMsMax: 1000 };

async function upload(url: string, cookie: string, file: Buffer): Promise<string> {
  const form = new FormData();
  form.set('file', new Blob([new Uint8Array(file)]), 'lista.xlsx');
  const res = await fetch(`${url}/add/bulk`, { method: 'POST', headers: { cookie }, body: form });
  const html = await res.text();
  if (res.status !== 200) throw new Error(`/add/bulk answered ${res.status}`);
  return /<p id="bulkFile-error" class="error">([^<]*)<\/p>/.exec(html)?.[1] ?? '(no message)';
}

/** Runs fn while sampling the server's RSS and asking /livez in a loop. */
async function measured<T>(url: string, pid: number, fn: () => Promise<T>) {
  const before = rssOf(pid);
  let peak = before;
  let livezMax = 0;
  let done = false;
  const sampler = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 20);
  const prober = (async () => {
    while (!done) {
      const t = performance.now();
      await (await fetch(`${url}/livez`)).text();
      livezMax = Math.max(livezMax, performance.now() - t);
    }
  })();
  const t = performance.now();
  try {
    const value = await fn();
    return {
      ms: round(performance.now() - t, 1),
      value,
      rssGrowthMB: mb(peak - before),
      livezMaxMs: round(livezMax, 1),
    };
  } finally {
    done = true;
    clearInterval(sampler);
    await prober;
  }
}

async function main() {
  const { dataDir, pg, cleanup } = await benchOnPostgres('xlsx-bomb', log);
  let app: Awaited<ReturnType<typeof startProcess>> | null = null;
  try {
    const seeded = await seedDatabase(pg.target, 0);
    const em = seeded.orm.em.fork();
    const member = await em.findOneOrFail(User, { email: 'anna@demo.test' });
    const cookie = `sim_session=${await signedInSession(em, member.id)}`;
    await seeded.orm.close(true);
    app = await startProcess(serverEnv(pg.target, dataDir), { name: 'the portal' });
    const { pid, url } = app;
    const bomb = await lyingSizeBomb('89460000000000000000', BOMB_MB);
    log(`the bomb: ${Math.round(bomb.length / 1024)} kB, unpacks to ${BOMB_MB} MB, declares 2 kB`);
    const rssStart = rssOf(pid);

    const one = await measured(app.url, pid, () => upload(url, cookie, bomb));
    log(`one bomb: ${one.ms} ms, RSS +${one.rssGrowthMB} MB, /livez at most ${one.livezMaxMs} ms: ${one.value}`);
    const four = await measured(app.url, pid, () => Promise.all([1, 2, 3, 4].map(() => upload(url, cookie, bomb))));
    log(`four at once: ${four.ms} ms, RSS +${four.rssGrowthMB} MB, /livez at most ${four.livezMaxMs} ms`);
    const rssEnd = rssOf(pid);

    const pass =
      one.ms <= TARGET.oneMsMax &&
      Math.max(one.rssGrowthMB, four.rssGrowthMB) <= TARGET.rssGrowthMaxMB &&
      Math.max(one.livezMaxMs, four.livezMaxMs) <= TARGET.livezMsMax;
    const result = {
      date: new Date().toISOString(),
      machine: machine(),
      smoke: SMOKE,
      database: 'postgres',
      bomb: { fileKB: Math.round(bomb.length / 1024), unpacksToMB: BOMB_MB, declaresKB: 2 },
      one: { ms: one.ms, rssGrowthMB: one.rssGrowthMB, livezMaxMs: one.livezMaxMs, message: one.value },
      four: { ms: four.ms, rssGrowthMB: four.rssGrowthMB, livezMaxMs: four.livezMaxMs, messages: four.value },
      serverRss: { startMB: mb(rssStart), endMB: mb(rssEnd) },
      targets: TARGET,
      pass,
    };
    const file = writeResult('xlsx-bomb', result);
    console.log(
      [
        '',
        `XLSX bomb (${result.bomb.fileKB} kB -> ${BOMB_MB} MB) posted to /add/bulk, PostgreSQL${SMOKE ? ' (smoke)' : ''}`,
        `  one        ${one.ms} ms   RSS peak +${one.rssGrowthMB} MB   /livez max ${one.livezMaxMs} ms`,
        `  four       ${four.ms} ms   RSS peak +${four.rssGrowthMB} MB   /livez max ${four.livezMaxMs} ms`,
        `  server RSS ${mb(rssStart)} -> ${mb(rssEnd)} MB`,
        `  ${pass ? 'PASS' : 'FAIL'} (one <= ${TARGET.oneMsMax} ms, RSS +<= ${TARGET.rssGrowthMaxMB} MB, /livez <= ${TARGET.livezMsMax} ms)  -> ${file}`,
      ].join('\n'),
    );
    return result;
  } finally {
    await app?.stop();
    await cleanup();
  }
}

runBenchmark(main);
