// All benchmarks in sequence (npm run bench): export, pages, load, sse, bulk, scale, xlsx-bomb, data, usage, tags, rules, doors, each in its own process, then a summary
// from their bench/results/*.json. `npm run bench -- pages load` runs only those.
//
//   BENCH_SMOKE=1   tiny and quick (what CI runs): every benchmark at its smallest size, in about 2-3 minutes
//   BENCH_ENFORCE=1 each benchmark exits 1 when a target is missed, and so does this script
// Results: bench/results/<name>.json (smoke runs: bench/results/smoke/<name>.json, git-ignored).
// Exit code: 1 when a benchmark failed to run (or missed a target under BENCH_ENFORCE=1), else 0.
import { ENFORCE, SMOKE } from './env.ts';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildDir, ensureBuild, logger, resultFile, root } from './lib.ts';

const log = logger('run');
const ALL = [
  'export',
  'pages',
  'load',
  'sse',
  'bulk',
  'scale',
  'xlsx-bomb',
  'data',
  'usage',
  'tags',
  'rules',
  'doors',
] as const;
type Name = (typeof ALL)[number];

// bench/export.ts has its own size knobs (it does not read BENCH_SMOKE).
const extraEnv: Record<Name, Record<string, string>> = {
  export: SMOKE ? { BENCH_SIMS: process.env.BENCH_SIMS ?? '100', BENCH_RUNS: process.env.BENCH_RUNS ?? '1' } : {},
  pages: {},
  load: {},
  sse: {},
  bulk: {},
  scale: {},
  'xlsx-bomb': {},
  // The smoke of bench:data: a fleet and a history small enough for seconds, not minutes, and without today's SQL
  // (seconds a query); every phase still runs.
  data: SMOKE
    ? {
        BENCH_DATA_SIMS: process.env.BENCH_DATA_SIMS ?? '5000',
        BENCH_DATA_COMPANIES: process.env.BENCH_DATA_COMPANIES ?? '20',
        BENCH_LEGACY: process.env.BENCH_LEGACY ?? '0',
        BENCH_HISTORY_SIM_EVENTS: process.env.BENCH_HISTORY_SIM_EVENTS ?? '20000',
        BENCH_HISTORY_AUDIT_EVENTS: process.env.BENCH_HISTORY_AUDIT_EVENTS ?? '5000',
        BENCH_OVERLOAD_USERS: process.env.BENCH_OVERLOAD_USERS ?? '20',
      }
    : {},
  usage: {},
  tags: {},
  rules: {},
  doors: {},
};

function runOne(name: Name): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', `bench/${name}.ts`], {
      cwd: root,
      env: { ...process.env, BUILD_DIR: buildDir, ...extraEnv[name] },
      stdio: 'inherit',
    });
    const forward = (signal: NodeJS.Signals) => child.kill(signal);
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    child.on('exit', (code, signal) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

type J = Record<string, any>;

function summary(name: Name, r: J): string[] {
  const ok = (b: unknown) => (b === true ? 'met' : b === false ? 'MISSED' : 'n/a');
  switch (name) {
    case 'export':
      return [
        `${r.sims} SIMs, ${r.rows} rows (${r.database}): HTTP ${r.http.medianMs} ms vs exceljs alone ${r.baseline.medianMs} ms, ratio ${r.ratio} (<= ${r.targets.ratioMax} ${ok(r.ratio <= r.targets.ratioMax)})`,
        `${r.rowsPerSecond} rows/s; RSS growth ${r.rss.growthMB} MB, 10x fewer rows ${r.rss.small.growthMB} MB (< ${r.targets.rssGrowthMaxMB} ${ok(r.rss.growthMB < r.targets.rssGrowthMaxMB && r.rss.small.growthMB < r.targets.rssGrowthMaxMB)})`,
      ];
    case 'pages': {
      const worst = Math.max(...r.routes.map((x: J) => x.jsFloorRatio));
      const sims = Math.max(...Object.values(r.simsPageHtml as Record<string, J>).map((x) => x.gzip));
      const lh = r.lighthouse.ran
        ? Object.entries(r.lighthouse.routes as Record<string, J>)
            .map(([k, v]) => `${k} ${v.error ? 'error' : `${v.performance}/${v.accessibility}`}`)
            .join(', ')
        : `not run: ${r.lighthouse.reason}`;
      return [
        `floor JS ${(r.floor.gzipBytes.js / 1024).toFixed(1)} kB gzip; JS/floor per route: ${r.routes.map((x: J) => `${x.route} ${x.jsFloorRatio.toFixed(2)}`).join(', ')} (worst ${worst.toFixed(2)}, <= 1.15 ${ok(r.checks.jsFloorRatio)})`,
        `quagga in a first visit: ${r.checks.noQuaggaInInitialLoad ? 'never' : 'YES'} (${ok(r.checks.noQuaggaInInitialLoad)}); CSS ${(r.css.buildGzipBytes / 1024).toFixed(1)} kB gzip (< 15 ${ok(r.checks.cssTotal)}); /sims page HTML ${(sims / 1024).toFixed(1)} kB gzip with ${r.sims} SIMs (< 30 ${ok(r.checks.simsHtml)})`,
        `Lighthouse perf/a11y (floor ${r.lighthouse.floor ? `${r.lighthouse.floor.performance}/${r.lighthouse.floor.accessibility}` : '-'}): ${lh} (>= 98 ${ok(r.checks.performance)}, 100 ${ok(r.checks.accessibility)})`,
        ...(r.journey
          ? [
              `activation journey on the wire: first visit ${(r.journey.first.wireBytes.total / 1024).toFixed(1)} kB (< ${r.targets.journeyFirstMaxKB} ${ok(r.checks.journeyFirst)}), repeat visit ${(r.journey.repeat.wireBytes.total / 1024).toFixed(1)} kB (< ${r.targets.journeyRepeatMaxKB} ${ok(r.checks.journeyRepeat)}); hashed assets fetched again: ${r.journey.repeat.assetsFetched.length} (${ok(r.checks.noAssetRefetched)}); routes with zod in their JS: ${Object.keys(r.zodInRouteJs).length} (${ok(r.checks.noZodInRouteJs)})`,
            ]
          : []),
      ];
    }
    case 'load':
      return r.routes.map(
        (x: J) =>
          `${x.name}: ${x.portal.reqPerSec} req/s, p50 ${x.portal.p50} ms, p99 ${x.portal.p99} ms, errors ${x.portal.errors + x.portal.timeouts + x.portal.non2xx}` +
          `; baseline ${x.baseline.reqPerSec} req/s, ratio ${x.ratio} (>= ${x.ratioMin} ${ok(x.ratio >= x.ratioMin)})` +
          `; p99/p50 ${x.p99OverP50} (< 10 ${ok(x.p99OverP50 < 10)})`,
      );
    case 'sse':
      return [
        `${r.connections} streams held ${r.heldSeconds} s (${r.database}): ${r.streamsComplete}/${r.connections} got all ${r.seconds} toasts (${r.toastsReceived}/${r.toastsPublished}) ${ok(r.pass)}`,
        `server RSS ${r.serverRss.idleMB} -> ${r.serverRss.connectedMB} MB (peak ${r.serverRss.peakMB}): ${r.memoryPerConnectionKB.connected} kB per connection`,
      ];
    case 'bulk':
      return [
        `${r.iccids} ICCIDs (${r.database}): ${r.iccids} x POST /api/sim ${r.single.totalMs} ms vs one POST /api/sim/bulk ${r.bulk.totalMs} ms: ${r.speedup}x (>= ${r.targets.speedupMin} ${ok(r.speedup >= r.targets.speedupMin)})`,
        `server RSS peak growth: singles +${r.single.rssGrowthMB} MB, bulk +${r.bulk.rssGrowthMB} MB; ${r.serverRss.startMB} -> ${r.serverRss.endMB} MB`,
      ];
    case 'xlsx-bomb':
      return [
        `a ${r.bomb.fileKB} kB file unpacking to ${r.bomb.unpacksToMB} MB (${r.database}): one ${r.one.ms} ms, RSS +${r.one.rssGrowthMB} MB; four at once ${r.four.ms} ms, RSS +${r.four.rssGrowthMB} MB; /livez at most ${Math.max(r.one.livezMaxMs, r.four.livezMaxMs)} ms (${ok(r.pass)})`,
      ];
    case 'data':
      return r.rows.map(
        (x: J) =>
          `${x.scenario} (${r.sims} SIMs): /sims p50 ${x.page_http.p50} p95 ${x.page_http.p95}, API p50 ${x.api_http.p50} p95 ${x.api_http.p95} ms; SQL new ${x.sql_new.p50} vs today ${x.sql_old?.p50 ?? '-'} ms (${ok(x.pass)})`,
      );
    case 'usage': {
      const door = (name: string, d: J | null) =>
        d
          ? `${name} ${d.perSecond} records/s (${d.copyRatio ?? '-'}x COPY, >= ${r.targets.perSecondMin} ${ok(d.perSecond >= r.targets.perSecondMin)})`
          : `${name} not run`;
      return [
        `${r.sims} SIMs, ${r.daysStored} days stored, ${r.recordsPerDoor} records a door: COPY ${r.copy?.perSecond ?? '-'} records/s; ${door('usage:import', r.cli)}; ${door('REST', r.rest)}`,
        r.rules
          ? `with ${100} rules on: ${r.rules.perSecond} records/s, ${r.rulesRatio ?? '-'}x without (>= 0.8 ${ok(r.rulesRatio !== null && r.rulesRatio >= 0.8)}); ${r.rules.firings} firings, at most ${r.rules.maxLate} record(s) late`
          : 'rules not run',
        r.reads
          ? `reads beside ${r.reads.beside.perSecond} records/s: ${r.reads.rows.filter((x: J) => x.pass).length} of ${r.reads.rows.length} met p50 < 30 / p95 < 100 ms; worst p95 ${Math.max(...r.reads.rows.map((x: J) => x.stats.p95))} ms; freshness ${r.freshness?.visibleMs ?? '-'} ms`
          : 'reads not run',
        `totals ${r.totals.exact ? 'exact' : 'NOT EXACT'} (${r.totals.raw} raw records, expected ${r.totals.expected})`,
      ];
    }
    case 'tags': {
      const route = (name: string) =>
        `${name} p50 ${r.paced[name].p50} / p95 ${r.paced[name].p95} ms (back to back p50 ${r.routes[name].p50})`;
      return [
        `${r.sims} SIMs, ${r.connections} users at their pace: ${['the whole list', 'tag on half the fleet', 'tag on the 20 oldest', 'tag and a search'].map(route).join('; ')} (p95 < ${r.targets.p95MaxMs} ${ok(r.targets.p95Met)})`,
        `tagging a search of ${r.tagging.matches} SIMs ${r.tagging.first.ms} ms, again ${r.tagging.again.ms} ms (< ${r.targets.tagSearchMaxMs} ${ok(r.targets.taggingMet)})`,
      ];
    }
    case 'rules':
      return [
        `a rule firing for ${r.sims} SIMs: ingest ${r.ingestMs} ms, ${r.firings} firings; ${r.delivered} webhooks (${r.distinct} distinct) in ${r.deliveryMs} ms, ${r.perSecond}/s; another company's event ${r.otherCompanyMs} ms (< ${r.targets.otherMaxMs}); ${r.digests} digest (${ok(r.pass)})`,
      ];
    case 'doors':
      return [
        `CPU a request without signing in, against the login page's ${r.doors.find((d: J) => d.door === '/login')?.cpuMs} ms: ` +
          r.doors
            .filter((d: J) => d.door !== '/login')
            .map((d: J) => `${d.door} ${d.ofLogin}x`)
            .join(', ') +
          ` (<= ${r.targets.maxOfLogin}x each, ${r.errors} errors: ${ok(r.pass)})`,
      ];
    case 'scale':
      if (r.skipped) return [`skipped: ${r.skipped}`];
      return [
        ...r.table.map(
          (t: J) =>
            `${t.route}: ${Object.entries(t.reqPerSec as Record<string, number>)
              .map(([c, v]) => `${c} ${v} req/s (${t.ratioToOneBehindNginx[c] ?? '-'}x)`)
              .join(', ')}`,
        ),
        `CPU cores (servers/nginx/postgres/autocannon/other), CPU ms per request: ${r.configs.map((c: J) => `${c.name} ${c.cpu.servers}/${c.cpu.nginx}/${c.cpu.postgres}/${c.cpu.autocannon}/${c.cpu.other}, ${c.cpuMsPerRequest.total} ms`).join('; ')}; errors ${r.errors}`,
      ];
  }
}

async function main() {
  const wanted = process.argv.slice(2).filter((a) => (ALL as readonly string[]).includes(a)) as Name[];
  const names = wanted.length ? wanted : [...ALL];
  const started = Date.now();
  log(`${names.join(', ')}${SMOKE ? ' (smoke)' : ''}${ENFORCE ? ', targets enforced' : ''}; build ${buildDir}`);
  ensureBuild(log);
  const outcomes: Array<{ name: Name; code: number; seconds: number; result: J | null }> = [];
  for (const name of names) {
    const t = Date.now();
    log(`== ${name}`);
    // bench/export.ts always writes bench/results/export.json: in a smoke run, its tiny result is moved to
    // bench/results/smoke/ and the real figures put back.
    const exportFile = path.join(root, 'bench/results/export.json');
    const kept = SMOKE && name === 'export' && existsSync(exportFile) ? readFileSync(exportFile) : null;
    const code = await runOne(name);
    const file = resultFile(name);
    if (SMOKE && name === 'export' && existsSync(exportFile) && statSync(exportFile).mtimeMs >= t) {
      mkdirSync(path.dirname(file), { recursive: true });
      renameSync(exportFile, file);
      if (kept) writeFileSync(exportFile, kept);
    }
    const fresh = existsSync(file) && statSync(file).mtimeMs >= t;
    outcomes.push({
      name,
      code,
      seconds: Math.round((Date.now() - t) / 1000),
      result: fresh ? (JSON.parse(readFileSync(file, 'utf8')) as J) : null,
    });
  }
  console.log(
    `\n== benchmark summary${SMOKE ? ' (smoke: tiny sizes, the figures mean little)' : ''}, ${Math.round((Date.now() - started) / 1000)} s in all`,
  );
  for (const o of outcomes) {
    const status =
      o.code !== 0
        ? `FAILED TO RUN (exit ${o.code})`
        : !o.result
          ? 'no result'
          : o.result.pass
            ? 'PASS'
            : 'targets missed';
    console.log(`${o.name} (${o.seconds} s): ${status}`);
    if (o.result) {
      try {
        for (const line of summary(o.name, o.result)) console.log(`  ${line}`);
      } catch (e) {
        console.log(`  (summary unavailable: ${(e as Error).message})`);
      }
    }
  }
  return outcomes.every((o) => o.code === 0 && o.result !== null);
}

main().then(
  (ok) => process.exit(ok ? 0 : 1),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
