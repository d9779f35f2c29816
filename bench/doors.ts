// The doors anyone may knock on without signing in, by the CPU a request costs the server process (`npm run
// bench:doors`): the probes (/livez, /readyz, /healthz), the OpenAPI document and its reference page, the login page
// and the icon, each asked by 20 clients at once as a browser would (Accept-Encoding br, gzip), on PostgreSQL with
// the built server. What a request of the login page costs (a page rendered for whoever asks) is the most any of
// them may cost: one that costs more lets anyone spend the server's CPU or the database's connections faster than
// by asking for pages (the OpenAPI document serialized and compressed per request was 5.5 ms; a flood of /healthz
// opened a connection each). CPU from /proc (utime + stime) over the requests, after a warm-up, the median of
// BENCH_ROUNDS (3; smoke 1) rounds in which the doors take turns.
//
//   BENCH_DOORS_REQUESTS (2,000; smoke 300)  BENCH_ROUNDS (3; smoke 1)
// Target: every door's median at most the login page's; no error.
import { SMOKE } from './env.ts';
import autocannon from 'autocannon';
import {
  benchOnPostgres,
  cpuTicks,
  logger,
  median,
  runBenchmark,
  seedWithMiddleSim,
  serverEnv,
  startProcess,
  writeResult,
} from './lib.ts';

const log = logger('doors');
const REQUESTS = Number(process.env.BENCH_DOORS_REQUESTS ?? (SMOKE ? 300 : 2_000));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (SMOKE ? 1 : 3));
/** The page every visitor gets: the yardstick. */
const LOGIN = '/login';
const DOORS = ['/livez', '/readyz', '/healthz', '/api/openapi.json', '/api/docs', '/favicon.svg', LOGIN];

async function main(): Promise<{ pass: boolean }> {
  const { dataDir, pg, cleanup } = await benchOnPostgres('doors', log);
  try {
    await seedWithMiddleSim(pg.target, 100, log);
    const portal = await startProcess(serverEnv(pg.target, dataDir), { name: 'the portal' });
    try {
      const run = (path: string, amount: number) =>
        autocannon({ url: portal.url + path, connections: 20, amount, headers: { 'accept-encoding': 'br, gzip' } });
      const cpu: Record<string, number[]> = Object.fromEntries(DOORS.map((d) => [d, []]));
      let failed = 0;
      for (let round = 0; round < ROUNDS; round++)
        for (const door of round % 2 ? [...DOORS].reverse() : DOORS) {
          await run(door, 200);
          const t0 = cpuTicks(portal.pid);
          const r = await run(door, REQUESTS);
          const ms = ((cpuTicks(portal.pid) - t0) * 10) / REQUESTS;
          cpu[door]?.push(ms);
          if (r.non2xx || r.errors) {
            failed += r.non2xx + r.errors;
            log(`${door}: ${r.non2xx} answers not 2xx, ${r.errors} errors`);
          }
        }
      const login = median(cpu[LOGIN] ?? []);
      const doors = DOORS.map((door) => {
        const ms = median(cpu[door] ?? []);
        return { door, cpuMs: Number(ms.toFixed(3)), ofLogin: Number((ms / login).toFixed(2)), met: ms <= login };
      });
      for (const d of doors) log(`${d.door}: ${d.cpuMs} ms CPU a request, ${d.ofLogin}x the login page's`);
      const pass = failed === 0 && doors.every((d) => d.met);
      const result = {
        requests: REQUESTS,
        rounds: ROUNDS,
        connections: 20,
        doors,
        errors: failed,
        targets: { maxOfLogin: 1, errors: 0 },
        pass,
      };
      log(`-> ${writeResult('doors', result)}`);
      return { pass };
    } finally {
      await portal.stop();
    }
  } finally {
    await cleanup();
  }
}

runBenchmark(main);
