// The CPU each request costs the server process (`npx tsx bench/load-cpu.ts`), steadier than bench:load's req/s on
// a shared machine: the portal, optionally another checkout of it (BENCH_BEFORE=<dir>, built there with
// BUILD_DIR=build-bench, as for bench:load) and bench:load's bare baselines on one seeded PostgreSQL database;
// for GET /sims, /api/sim/all?limit=50 and /api/sim/{id}, alternated BENCH_ROUNDS times (default 3): N requests
// (autocannon, 20 connections) and the process's utime + stime from /proc over them. Prints each side's CPU
// milliseconds a request, their medians and the bare server's over the portal's. The sides take turns going first
// (a side measured right after another can pay for the other's garbage or a busier machine). BENCH_LOAD_ONLY=
// sims,list,one (as bench:load) measures some of the routes only.
import './env.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { buildSimsBaseline } from './load-baseline-remix.ts';
import {
  benchOnPostgres,
  cpuTicks,
  logger,
  median,
  runBenchmark,
  seedWithMiddleSim,
  serverEnv,
  startProcess,
  type ServerProcess,
} from './lib.ts';

const log = logger('load-cpu');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const BEFORE = process.env.BENCH_BEFORE ? path.resolve(process.env.BENCH_BEFORE) : null;
const ONLY = new Set((process.env.BENCH_LOAD_ONLY ?? 'sims,list,one').split(',').map((s) => s.trim()));

/** The process's CPU ticks (it has a pid once started). */
function ticks(pid: number | undefined): number {
  if (pid === undefined) throw new Error('the process has no pid');
  return cpuTicks(pid);
}

async function main() {
  const { dataDir, pg, cleanup } = await benchOnPostgres('load-cpu', log);
  const remixDir = buildSimsBaseline();
  const beforeData = BEFORE ? mkdtempSync(path.join(os.tmpdir(), 'sim-bench-load-cpu-before-')) : null;
  const started: ServerProcess[] = [];
  try {
    const { cookie, simId } = await seedWithMiddleSim(pg.target, 10_000, log);
    const start = async (...args: Parameters<typeof startProcess>) => {
      const p = await startProcess(...args);
      started.push(p);
      return p;
    };
    const portal = await start(serverEnv(pg.target, dataDir), { name: 'the portal' });
    const before =
      BEFORE && beforeData ? await start(serverEnv(pg.target, beforeData), { name: 'before', cwd: BEFORE }) : null;
    const remix = await start(
      { DATABASE_URL: pg.target.url, REMIX_DIR: remixDir },
      { script: 'bench/load-baseline-remix.ts', readyPath: '/favicon.ico', name: 'the bare Remix baseline' },
    );
    const bare = await start(
      { DATABASE_URL: pg.target.url },
      { script: 'bench/load-baseline.ts', name: 'the baseline' },
    );
    const run = (url: string, amount: number) =>
      autocannon({ url, connections: 20, amount, headers: { cookie, 'accept-encoding': 'gzip' } });
    /** CPU milliseconds a request of this side, after a short warm-up. */
    const cpu = async (p: ServerProcess, route: string, amount: number) => {
      await run(p.url + route, 200);
      const t0 = ticks(p.child.pid);
      const r = await run(p.url + route, amount);
      if (r.non2xx || r.errors) log(`${route}: ${r.non2xx} not 2xx, ${r.errors} errors`);
      return ((ticks(p.child.pid) - t0) * 10) / amount;
    };
    const routes = [
      { part: 'sims', route: '/sims', base: remix, amount: 800 },
      { part: 'list', route: '/api/sim/all?limit=50', base: bare, amount: 3000 },
      { part: 'one', route: `/api/sim/${simId}`, base: bare, amount: 3000 },
    ].filter((r) => ONLY.has(r.part));
    const f = (xs: number[]) => xs.map((x) => x.toFixed(2)).join(' ');
    for (const { route, base, amount } of routes) {
      const sides = { before: [] as number[], portal: [] as number[], bare: [] as number[] };
      const turns = [
        ...(before ? [{ side: sides.before, p: before }] : []),
        { side: sides.portal, p: portal },
        { side: sides.bare, p: base },
      ];
      for (let i = 0; i < ROUNDS; i++)
        for (let j = 0; j < turns.length; j++) {
          const turn = turns[(i + j) % turns.length];
          if (turn) turn.side.push(await cpu(turn.p, route, amount));
        }
      const ratio = (xs: number[]) => (median(sides.bare) / median(xs)).toFixed(2);
      console.log(
        `${route}: CPU ms a request: ` +
          (before
            ? `before ${f(sides.before)} (median ${median(sides.before).toFixed(2)}, bare/before ${ratio(sides.before)}x); `
            : '') +
          `portal ${f(sides.portal)} (median ${median(sides.portal).toFixed(2)}, bare/portal ${ratio(sides.portal)}x); bare ${f(sides.bare)}`,
      );
    }
    return { pass: true };
  } finally {
    for (const p of started.reverse()) await p.stop();
    rmSync(remixDir, { recursive: true, force: true });
    if (beforeData) rmSync(beforeData, { recursive: true, force: true });
    await cleanup();
  }
}

runBenchmark(main);
