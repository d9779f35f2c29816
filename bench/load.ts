// Long: one benchmark, its three routes and the API key run alike and print one table (about 350 lines).
// Server throughput (npm run bench:load), on PostgreSQL. Makes a fresh database on the machine's PostgreSQL
// (DATABASE_URL's server, else postgres://postgres@127.0.0.1:5432; dropped at the end), seeds 10,000 SIMs for
// Demo AB, starts the production server (BUILD_DIR=build-bench) in its own process, and runs autocannon on
// loopback (50 connections) against GET /sims (SSR, logged in), GET /api/sim/all?limit=50 and GET /api/sim/{id}.
// The baseline, in the same run and its own process: bench/load-baseline.ts, a bare Node `http` server that
// answers the same JSON from the same SQL with `pg` (checked equal before measuring). Prints req/s, p50, p99,
// errors and the ratio to the baseline (target >= 0.9x, issue 38). GET /sims's baseline: bench/load-baseline-remix.ts, a
// bare Remix v2 app of the same versions (built on the fly, bench/remix-floor.ts) whose one route runs the same
// statements (the session, the page, its count, its usage and tags, the company's tags) and renders the same 50
// SIMs' data as a plain table (target >= 0.8x, issue 38). Writes
// bench/results/load.json. GET /api/sim/{id} with an
// API key (Authorization: Bearer) next to the cookie path, in the same run: its req/s over the cookie path's
// (target >= 0.9x). The key's rate limit is counted as always, with a limit the run never reaches.
// For information beside the API routes' target (no target of its own): the same baseline with its queries as
// named prepared statements (BASELINE_PREPARED=1), as the portal runs its hot reads (server/db/prepared.ts).
//
//   BENCH_SIMS=10000  BENCH_DURATION=10 (s per run)  BENCH_ROUNDS=2 (runs per side, alternated)  BENCH_CONNECTIONS=50
//   BENCH_SMOKE=1 (500 SIMs, 2 s runs, 1 round)
//   BENCH_LOAD_ONLY=sims,list,one,key (some of the parts only, e.g. to profile one route with BENCH_CPU_PROF)
//   BENCH_BEFORE=<dir>: another checkout of the portal (e.g. `git archive <commit> | tar -x -C <dir>`, node_modules
//     linked, built there with BUILD_DIR=build-bench) measured in the same rounds, for before and after in one run
//   BENCH_ENFORCE=1 exits 1 when a target is missed.
import { SMOKE } from './env.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createApiKey } from '#server/api-keys/keys.ts';
import { defined } from '#domain/defined.ts';
import { User } from '#server/db/entities.ts';
import { buildSimsBaseline } from './load-baseline-remix.ts';
import {
  benchOnPostgres,
  logger,
  machine,
  round,
  rssOf,
  runBenchmark,
  seedWithMiddleSim,
  serverEnv,
  sleep,
  startProcess,
  cannon,
  type CannonRun,
  writeResult,
} from './lib.ts';

const log = logger('load');
const SIMS = Number(process.env.BENCH_SIMS ?? (SMOKE ? 500 : 10_000));
const DURATION = Number(process.env.BENCH_DURATION ?? (SMOKE ? 2 : 10));
const WARMUP = SMOKE ? 1 : 3;
/** Measured runs per side and route, alternated (BENCH_ROUNDS). */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (SMOKE ? 1 : 2));

/** Several runs of one side as one: the mean req/s, the sums of requests and errors, the worst latencies. */
function combined(runs: CannonRun[]): CannonRun {
  const worst = (f: (r: CannonRun) => number) => Math.max(...runs.map(f));
  const sum = (f: (r: CannonRun) => number) => runs.reduce((a, r) => a + f(r), 0);
  return {
    reqPerSec: round(sum((r) => r.reqPerSec) / runs.length, 1),
    p50: worst((r) => r.p50),
    p90: worst((r) => r.p90),
    p99: worst((r) => r.p99),
    max: worst((r) => r.max),
    requests: sum((r) => r.requests),
    errors: sum((r) => r.errors),
    timeouts: sum((r) => r.timeouts),
    non2xx: sum((r) => r.non2xx),
  };
}
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
/** The parts to run (BENCH_LOAD_ONLY): GET /sims, the list, one SIM, one SIM with an API key; all by default. */
const ONLY = new Set((process.env.BENCH_LOAD_ONLY ?? 'sims,list,one,key').split(',').map((s) => s.trim()));
/** Another checkout of the portal, measured beside this one (BENCH_BEFORE). */
const BEFORE = process.env.BENCH_BEFORE ? path.resolve(process.env.BENCH_BEFORE) : null;
const TARGET = { apiRatioMin: 0.9, simsRatioMin: 0.8, p99OverP50Max: 10, errors: 0, apiKeyOverCookieMin: 0.9 };

/** JSON with its object keys sorted, to compare two answers. */
function canonical(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) =>
    x && typeof x === 'object' && !Array.isArray(x)
      ? Object.fromEntries(Object.entries(x as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)))
      : x,
  );
}

/**
 * The API-key path against the cookie path of the same route, alternated (cookie, key, key, cookie) so that
 * neither gains from running later on a shared machine: the sums of each pair's req/s compared.
 */
async function keyOverCookie(idUrl: string, cookie: string, keyValue: string) {
  await cannon(idUrl, { bearer: keyValue }, WARMUP, CONNECTIONS);
  const pairs: Array<{ cookie: CannonRun; key: CannonRun }> = [];
  let lastKeyRun: CannonRun | null = null;
  for (let i = 0; i < 2; i++) {
    const keyRun = () => cannon(idUrl, { bearer: keyValue }, DURATION, CONNECTIONS);
    const cookieFirst = i % 2 === 0;
    const first = await (cookieFirst ? cannon(idUrl, cookie, DURATION, CONNECTIONS) : keyRun());
    const second = await (cookieFirst ? keyRun() : cannon(idUrl, cookie, DURATION, CONNECTIONS));
    lastKeyRun = cookieFirst ? second : first;
    pairs.push({ cookie: cookieFirst ? first : second, key: lastKeyRun });
  }
  if (!lastKeyRun) throw new Error('no API key run');
  const sum = (f: (p: { cookie: CannonRun; key: CannonRun }) => number) => pairs.reduce((a, p) => a + f(p), 0);
  const keyErrors = sum((p) => p.key.errors + p.key.timeouts + p.key.non2xx);
  const overCookie = round(sum((p) => p.key.reqPerSec) / sum((p) => p.cookie.reqPerSec));
  const apiKey = {
    name: 'GET /api/sim/{id} (API key)',
    pairs,
    lastKeyRun,
    errors: keyErrors,
    overCookie,
    pass: overCookie >= TARGET.apiKeyOverCookieMin && keyErrors === 0,
  };
  log(
    `${apiKey.name}: ${pairs.map((p) => `cookie ${p.cookie.reqPerSec} / key ${p.key.reqPerSec} req/s`).join(', ')}; errors ${keyErrors}; ${overCookie}x the cookie path`,
  );
  return apiKey;
}

async function main() {
  const { dataDir, pg, cleanup } = await benchOnPostgres('load', log);
  let app: Awaited<ReturnType<typeof startProcess>> | null = null;
  let before: Awaited<ReturnType<typeof startProcess>> | null = null;
  const beforeData = BEFORE ? mkdtempSync(path.join(os.tmpdir(), 'sim-bench-load-before-')) : null;
  let base: Awaited<ReturnType<typeof startProcess>> | null = null;
  let basePrepared: Awaited<ReturnType<typeof startProcess>> | null = null;
  let remixBase: Awaited<ReturnType<typeof startProcess>> | null = null;
  let remixDir: string | null = null;
  try {
    const t = performance.now();
    remixDir = buildSimsBaseline();
    log(`bare Remix baseline app built in ${Math.round(performance.now() - t)} ms (${remixDir})`);
    const {
      cookie,
      simId,
      more: keyValue,
    } = await seedWithMiddleSim(pg.target, SIMS, log, async (em, seeded) => {
      // An API key of Demo AB (scope read) for the key path.
      const owner = await em.findOneOrFail(User, { company: seeded.demoCompanyId, isSuperAdmin: false });
      const { key } = await createApiKey(
        em,
        { userId: owner.id, actingCompanyId: null, companyId: seeded.demoCompanyId },
        { name: 'bench', scope: 'read' },
      );
      return key;
    });

    app = await startProcess(
      { ...serverEnv(pg.target, dataDir), API_KEY_RATE_LIMIT: '1000000' },
      { name: 'the portal' },
    );
    if (BEFORE && beforeData)
      before = await startProcess(
        { ...serverEnv(pg.target, beforeData), API_KEY_RATE_LIMIT: '1000000' },
        { name: 'the portal before', cwd: BEFORE },
      );
    base = await startProcess(
      { DATABASE_URL: pg.target.url },
      { script: 'bench/load-baseline.ts', name: 'the baseline server' },
    );
    basePrepared = await startProcess(
      { DATABASE_URL: pg.target.url, BASELINE_PREPARED: '1' },
      { script: 'bench/load-baseline.ts', name: 'the baseline server with prepared statements' },
    );
    remixBase = await startProcess(
      { DATABASE_URL: pg.target.url, REMIX_DIR: remixDir },
      { script: 'bench/load-baseline-remix.ts', readyPath: '/favicon.ico', name: 'the bare Remix baseline' },
    );

    // Same answers from both before any timing.
    const same: Record<string, boolean> = {};
    for (const p of ['/api/sim/all?limit=50', `/api/sim/${simId}`]) {
      const [a, b, c] = await Promise.all(
        [app.url, base.url, basePrepared.url].map(async (u) => {
          const res = await fetch(u + p, { headers: { cookie } });
          if (res.status !== 200) throw new Error(`${u}${p} answered ${res.status}: ${await res.text()}`);
          return res.json();
        }),
      );
      same[p] = canonical(a) === canonical(b) && canonical(b) === canonical(c);
      if (!same[p]) log(`WARNING: ${p}: the baseline's JSON differs from the portal's`);
    }
    // /sims: both pages list the same first 50 ICCIDs.
    const iccids = async (u: string) => {
      const res = await fetch(`${u}/sims`, { headers: { cookie } });
      const html = await res.text();
      if (res.status !== 200 || !html.includes(`<html`)) throw new Error(`${u}/sims answered ${res.status}`);
      // The portal's row splits the ICCID (its first digits in a span a phone hides): read as the text shows it.
      return [...html.replace(/<\/?span>|<!-- -->/g, '').matchAll(/>(8946\d{16})</g)].map((m) => m[1]);
    };
    const [portalIccids, remixIccids] = await Promise.all([iccids(app.url), iccids(remixBase.url)]);
    same['/sims'] = portalIccids.length === 50 && portalIccids.join() === remixIccids.join();
    if (!same['/sims']) log(`WARNING: /sims: the bare Remix page's ICCIDs differ from the portal's`);

    const targets = [
      { part: 'sims', name: 'GET /sims (SSR)', path: '/sims', base: remixBase, min: TARGET.simsRatioMin },
      {
        part: 'list',
        name: 'GET /api/sim/all?limit=50',
        path: '/api/sim/all?limit=50',
        base,
        prepared: basePrepared,
        min: TARGET.apiRatioMin,
      },
      {
        part: 'one',
        name: 'GET /api/sim/{id}',
        path: `/api/sim/${simId}`,
        base,
        prepared: basePrepared,
        min: TARGET.apiRatioMin,
      },
    ].filter((target) => ONLY.has(target.part));
    const keyAnswer = await fetch(`${app.url}/api/sim/${simId}`, { headers: { authorization: `Bearer ${keyValue}` } });
    if (keyAnswer.status !== 200) throw new Error(`the API key path answered ${keyAnswer.status}`);
    await keyAnswer.text();
    const rows: Array<{
      name: string;
      path: string;
      portal: CannonRun;
      baseline: CannonRun;
      ratio: number;
      /** BENCH_BEFORE's portal in the same rounds: its req/s and its ratio to the baseline. */
      before: { run: CannonRun; ratio: number } | null;
      /** The baseline with prepared statements (information): its req/s and the portal's ratio to it. */
      preparedBaseline: { run: CannonRun; ratio: number } | null;
      ratioMin: number;
      p99OverP50: number;
      rssMB: number;
      pass: boolean;
    }> = [];
    for (const target of targets) {
      // Warm-up (JIT, caches, pool) of both, then the measured runs alternated, portal and baseline, ROUNDS times:
      // a burst of other work on the shared machine falls on both sides, not on one. Each side's req/s is the
      // mean of its runs; its p50 and p99 the worst of them.
      await cannon(app.url + target.path, cookie, WARMUP, CONNECTIONS);
      await cannon(target.base.url + target.path, cookie, WARMUP, CONNECTIONS);
      const preparedBase = 'prepared' in target ? target.prepared : null;
      if (preparedBase) await cannon(preparedBase.url + target.path, cookie, WARMUP, CONNECTIONS);
      if (before) await cannon(before.url + target.path, cookie, WARMUP, CONNECTIONS);
      const beforeRuns: CannonRun[] = [];
      const portalRuns: CannonRun[] = [];
      const baselineRuns: CannonRun[] = [];
      const preparedRuns: CannonRun[] = [];
      let rss = 0;
      const portalUrl = app.url;
      const sides = [
        { url: portalUrl, runs: portalRuns },
        { url: target.base.url, runs: baselineRuns },
        ...(preparedBase ? [{ url: preparedBase.url, runs: preparedRuns }] : []),
        ...(before ? [{ url: before.url, runs: beforeRuns }] : []),
      ];
      for (let i = 0; i < ROUNDS; i++) {
        // The sides take turns going first (as in bench/load-cpu.ts): portal, baseline, then baseline, portal, so
        // a machine growing busier or quieter during the rounds weighs on both alike, not on the one run later.
        for (const side of i % 2 === 0 ? sides : [...sides].reverse()) {
          side.runs.push(await cannon(side.url + target.path, cookie, DURATION, CONNECTIONS));
          if (side.url === portalUrl && app.child.pid !== undefined) rss = Math.max(rss, rssOf(app.child.pid));
          await sleep(500);
        }
        const p = defined(portalRuns[i], "this round's portal run");
        const b = defined(baselineRuns[i], "this round's baseline run");
        const c = preparedRuns[i];
        const o = beforeRuns[i];
        if (o)
          log(`${target.name} (round ${i + 1}): before ${o.reqPerSec} req/s: ${round(o.reqPerSec / b.reqPerSec)}x`);
        log(
          `${target.name} (round ${i + 1}${i % 2 === 0 ? '' : ', the baseline first'}): portal ${p.reqPerSec} req/s (p50 ${p.p50} ms, p99 ${p.p99} ms, errors ${p.errors + p.timeouts + p.non2xx}), baseline ${b.reqPerSec} req/s (p50 ${b.p50} ms, p99 ${b.p99} ms): ${round(p.reqPerSec / b.reqPerSec)}x` +
            (c ? `; baseline with prepared statements ${c.reqPerSec} req/s: ${round(p.reqPerSec / c.reqPerSec)}x` : ''),
        );
      }
      const portal = combined(portalRuns);
      const baseline = combined(baselineRuns);
      const ratio = round(portal.reqPerSec / baseline.reqPerSec);
      const prepared = preparedRuns.length ? combined(preparedRuns) : null;
      const beforeRun = beforeRuns.length ? combined(beforeRuns) : null;
      const p99OverP50 = round(portal.p99 / Math.max(1, portal.p50), 1);
      const errors = portal.errors + portal.timeouts + portal.non2xx;
      rows.push({
        name: target.name,
        path: target.path,
        portal,
        baseline,
        ratio,
        preparedBaseline: prepared ? { run: prepared, ratio: round(portal.reqPerSec / prepared.reqPerSec) } : null,
        before: beforeRun ? { run: beforeRun, ratio: round(beforeRun.reqPerSec / baseline.reqPerSec) } : null,
        ratioMin: target.min,
        p99OverP50,
        rssMB: Math.round(rss / 1024 / 1024),
        pass: ratio >= target.min && p99OverP50 < TARGET.p99OverP50Max && errors === 0,
      });
    }

    // The API-key path against the cookie path of the same route, alternated (cookie, key, key, cookie) so
    // that neither gains from running later on a shared machine: the sums of each pair's req/s compared.
    const apiKey = ONLY.has('key') ? await keyOverCookie(`${app.url}/api/sim/${simId}`, cookie, keyValue) : null;

    const result = {
      date: new Date().toISOString(),
      machine: machine(),
      smoke: SMOKE,
      database: 'postgres',
      sims: SIMS,
      connections: CONNECTIONS,
      durationSeconds: DURATION,
      tool: 'autocannon 9.0.0, in this process, loopback; portal and baseline each in its own process',
      baseline:
        "API: bench/load-baseline.ts, node:http + pg Pool(10), the same SQL as the portal, imported from its modules (session, page / sim and history at once, then usage and tags; a paused SIM's pauser), as unnamed statements (pg's default; also run with named prepared statements, for information); /sims: bench/load-baseline-remix.ts, a bare Remix app of the same versions on Express + compression, the same statements as the portal's (the session, then the page of 50, its count and the company's tags at once, then the page's usage and tags), the same data rendered as a plain table",
      before: BEFORE,
      sameJson: same,
      routes: rows,
      apiKey,
      targets: TARGET,
      pass: rows.every((r) => r.pass) && (apiKey?.pass ?? true),
    };
    const file = writeResult('load', result);
    const pad = (s: string | number, n: number) => String(s).padStart(n);
    console.log(
      [
        '',
        `server throughput, ${SIMS} SIMs, PostgreSQL, ${CONNECTIONS} connections, ${DURATION} s per run${SMOKE ? ' (smoke)' : ''}`,
        `  ${'route'.padEnd(26)} ${pad('req/s', 8)} ${pad('p50 ms', 7)} ${pad('p99 ms', 7)} ${pad('p99/p50', 8)} ${pad('errors', 7)} | ${pad('baseline', 8)} ${pad('p50', 5)} ${pad('p99', 5)} | ${pad('ratio', 6)}`,
        ...rows.flatMap((r) => [
          `  ${r.name.padEnd(26)} ${pad(r.portal.reqPerSec, 8)} ${pad(r.portal.p50, 7)} ${pad(r.portal.p99, 7)} ${pad(r.p99OverP50, 8)} ${pad(r.portal.errors + r.portal.timeouts + r.portal.non2xx, 7)} | ${pad(r.baseline.reqPerSec, 8)} ${pad(r.baseline.p50, 5)} ${pad(r.baseline.p99, 5)} | ${pad(r.ratio, 6)}  ${r.pass ? 'met' : 'MISSED'}`,
          ...(r.before
            ? [
                `    ${'(before: ' + BEFORE + ')'} ${r.before.run.reqPerSec} req/s, p50 ${r.before.run.p50} ms, p99 ${r.before.run.p99} ms: ${r.before.ratio}x the same baseline`,
              ]
            : []),
          ...(r.preparedBaseline
            ? [
                `    ${'(its baseline with prepared statements)'.padEnd(63)} | ${pad(r.preparedBaseline.run.reqPerSec, 8)} ${pad(r.preparedBaseline.run.p50, 5)} ${pad(r.preparedBaseline.run.p99, 5)} | ${pad(r.preparedBaseline.ratio, 6)}  information`,
              ]
            : []),
        ]),
        ...(apiKey
          ? [
              `  ${apiKey.name.padEnd(26)} ${pad(apiKey.lastKeyRun.reqPerSec, 8)} ${pad(apiKey.lastKeyRun.p50, 7)} ${pad(apiKey.lastKeyRun.p99, 7)} ${pad('', 8)} ${pad(apiKey.errors, 7)} | ${pad(apiKey.overCookie, 6)}x the cookie path  ${apiKey.pass ? 'met' : 'MISSED'}`,
            ]
          : []),
        `  targets: API routes >= ${TARGET.apiRatioMin}x the bare http+pg baseline's req/s, /sims >= ${TARGET.simsRatioMin}x the bare Remix page's; p99 < ${TARGET.p99OverP50Max}x p50; zero errors`,
        `  same answers as the baselines: ${Object.entries(same)
          .map(([p, s]) => `${p} ${s ? 'yes' : 'NO'}`)
          .join(', ')}`,
        `  ${result.pass ? 'PASS' : 'FAIL'}  -> ${file}`,
      ].join('\n'),
    );
    return result;
  } finally {
    await remixBase?.stop();
    await base?.stop();
    await basePrepared?.stop();
    await app?.stop();
    await before?.stop();
    if (beforeData) rmSync(beforeData, { recursive: true, force: true });
    if (remixDir) rmSync(remixDir, { recursive: true, force: true });
    await cleanup();
  }
}

runBenchmark(main);
