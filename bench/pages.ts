// Long: one benchmark run end to end (build, server, page weights, journeys, layout shift, Lighthouse, the report).
// Page weight and speed (npm run bench:pages). Starts the real production server (BUILD_DIR=build-bench) with
// 10,000 SIMs in Demo AB and visits each screen once in a fresh Chromium profile (playwright-core), logged in as
// admin@demo.test where the page needs it. Every response of the first visit is recorded and gzipped (level 6,
// what the server's compression sends): HTML, CSS, JS and other bytes per route. The floor, measured the same
// way in this run: a bare Remix v2 app of the same versions (React + Remix runtime, one route), built on the fly
// in a temp folder with this repo's node_modules. Then Lighthouse (default mobile emulation: Slow 4G, 4x CPU)
// on the same routes and the floor. The activation journey (open /add, activate a fresh ICCID with JS on, land on
// /sims) in one Chromium context, twice: bytes on the wire from the Chrome DevTools protocol (encodedDataLength:
// headers and bodies as sent, 304s included), first visit with an empty cache and a repeat visit with the warm
// cache, per resource type; no hashed asset may be fetched again. Which built route modules (with their static
// imports) hold zod is read from the build. Layout shift: each route (and /add/bulk, a SIM's page, /company,
// /security) opened in a fresh context over 400 kbps with 400 ms latency (CDP), JS on, at 390 and 1280 px; the
// browser's 'layout-shift' entries summed until hydrated and quiet (tests/helpers/layout-shift.ts). Writes
// bench/results/pages.json.
//
//   BENCH_SIMS=10000  BENCH_LIGHTHOUSE=0 (skip)  BENCH_LH_RUNS=3 (median kept)  BENCH_SMOKE=1 (200 SIMs, one
//   Lighthouse run on the floor and /login only, layout shift on /login and /add only)
//   BENCH_ENFORCE=1 exits 1 when a target is missed.
import { SMOKE } from './env.ts';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { DbTarget } from '#server/db/orm.ts';
import { withCheckDigit } from '#domain/sims/iccid.ts';
import { Sim } from '#server/db/entities.ts';
import { layoutShiftOf, SLOW_NETWORK, type Shift } from '#tests/helpers/layout-shift.ts';
import {
  buildDir,
  firstRow,
  ensureBuild,
  freshPostgres,
  kb,
  logger,
  machine,
  postgresReachable,
  root,
  round,
  runBenchmark,
  seedDatabase,
  serverEnv,
  startProcess,
  writeResult,
} from './lib.ts';
import { buildRemixApp, serveRemixApp } from './remix-floor.ts';

const log = logger('pages');
const SIMS = Number(process.env.BENCH_SIMS ?? (SMOKE ? 200 : 10_000));
const LIGHTHOUSE = process.env.BENCH_LIGHTHOUSE !== '0';
const LH_RUNS = Math.max(1, Number(process.env.BENCH_LH_RUNS ?? (SMOKE ? 1 : 3)));
const CHROME = process.env.CHROME_PATH ?? process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const TARGET = {
  jsFloorRatioMax: 1.15,
  cssTotalGzipMaxKB: 15,
  simsHtmlGzipMaxKB: 30,
  performanceMin: 98,
  accessibilityMin: 100,
  journeyFirstMaxKB: 120,
  journeyRepeatMaxKB: 15,
  clsMax: 0,
};

type Route = { path: string; auth: boolean };
const ROUTES: Route[] = [
  { path: '/login', auth: false },
  { path: '/', auth: true },
  { path: '/add', auth: true },
  { path: '/sims', auth: true },
  { path: '/export', auth: true },
  { path: '/admin/companies', auth: true },
];

/** Where layout shift is measured besides ROUTES (a SIM's page is added once the seed says which). */
const CLS_EXTRA: Route[] = [
  { path: '/add/bulk', auth: true },
  { path: '/company', auth: true },
  { path: '/security', auth: true },
];
const CLS_WIDTHS = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
];

const gz = (b: Buffer | string) => gzipSync(b, { level: 6 }).length;

// ---------------------------------------------------------------------------------------------------------------
// Layout shift of a first visit on a slow network, JS on, per width.

/** A shift's sum as read: 0 only when nothing moved (a tiny shift is not rounded away). */
const clsText = (v: number | undefined) =>
  v === undefined ? '-' : v === 0 ? '0' : v < 0.0001 ? v.toExponential(1) : String(round(v, 4));

type ClsVisit = { route: string; cls: number; byWidth: Record<string, number>; shifts: Record<string, Shift[]> };

async function layoutShifts(browser: Browser, base: string, route: string, cookie: string | null): Promise<ClsVisit> {
  const byWidth: Record<string, number> = {};
  const shifts: Record<string, Shift[]> = {};
  for (const viewport of CLS_WIDTHS) {
    const context = await browser.newContext({ viewport, locale: 'sv-SE', serviceWorkers: 'block' });
    try {
      if (cookie) {
        const [name, value] = cookie.split('=') as [string, string];
        await context.addCookies([{ name, value, url: base }]);
      }
      const page = await context.newPage();
      const seen = await layoutShiftOf(page, base + route);
      const landed = page.url().replace(base, '').split('?')[0];
      if (landed !== route) throw new Error(`${route} ended at ${landed}: not the page itself (logged out?)`);
      byWidth[viewport.width] = seen.cls;
      shifts[viewport.width] = seen.shifts;
    } finally {
      await context.close();
    }
  }
  return { route, cls: Math.max(...Object.values(byWidth)), byWidth, shifts };
}

// ---------------------------------------------------------------------------------------------------------------
// First visit in Chromium: every response, gzipped.

type Visit = {
  route: string;
  status: number;
  finalUrl: string;
  gzip: { html: number; css: number; js: number; other: number; total: number };
  raw: { html: number; css: number; js: number; other: number };
  files: Array<{ url: string; type: string; bytes: number; gzip: number }>;
  quaggaInJs: string[];
};

async function visit(browser: Browser, base: string, route: string, cookie: string | null): Promise<Visit> {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    locale: 'sv-SE',
    serviceWorkers: 'block',
  });
  if (cookie) {
    const [name, value] = cookie.split('=') as [string, string];
    await context.addCookies([{ name, value, url: base }]);
  }
  const page = await context.newPage();
  type Recorded = Visit['files'][number] & { text: string };
  const pending: Array<Promise<Recorded | null>> = [];
  // The open event stream (/api/sse) never finishes: it is left out, and "quiet" means no other request in flight.
  const inflight = new Set<unknown>();
  let lastActivity = performance.now();
  page.on('request', (req) => {
    if (req.resourceType() === 'eventsource') return;
    inflight.add(req);
    lastActivity = performance.now();
  });
  const done = (req: unknown) => {
    inflight.delete(req);
    lastActivity = performance.now();
  };
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  page.on('response', (res) => {
    pending.push(
      (async () => {
        const type = res.request().resourceType();
        if (type === 'eventsource' || (res.status() >= 300 && res.status() < 400)) return null;
        const body = await res.body().catch(() => null);
        if (!body) return null;
        return {
          url: res.url().replace(base, ''),
          type,
          bytes: body.length,
          gzip: gz(body),
          text: type === 'script' ? body.toString('utf8') : '',
        };
      })(),
    );
  });
  const response = await page.goto(base + route, { waitUntil: 'load', timeout: 60_000 });
  // Then until nothing but the event stream has been in flight for 1 s (at most 20 s): lazy imports and the
  // route manifest requests that follow hydration are part of a first visit.
  const deadline = performance.now() + 20_000;
  while (performance.now() < deadline && (inflight.size > 0 || performance.now() - lastActivity < 1000))
    await page.waitForTimeout(100);
  const files = (await Promise.all(pending)).filter((f): f is Recorded => f !== null);
  const finalUrl = page.url().replace(base, '');
  await context.close();
  const kind = (t: string) =>
    t === 'document' ? 'html' : t === 'stylesheet' ? 'css' : t === 'script' ? 'js' : 'other';
  const gzip = { html: 0, css: 0, js: 0, other: 0, total: 0 };
  const raw = { html: 0, css: 0, js: 0, other: 0 };
  for (const f of files) {
    gzip[kind(f.type)] += f.gzip;
    raw[kind(f.type)] += f.bytes;
    gzip.total += f.gzip;
  }
  const quaggaInJs = files.filter((f) => f.type === 'script' && /quagga/i.test(f.text)).map((f) => f.url);
  return {
    route,
    status: response?.status() ?? 0,
    finalUrl,
    gzip,
    raw,
    files: files.map(({ text: _t, ...f }) => f),
    quaggaInJs,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// The activation journey, bytes on the wire (Chrome DevTools protocol).

const WIRE_KINDS = ['document', 'script', 'stylesheet', 'fetch', 'other'] as const;
type WireKind = (typeof WIRE_KINDS)[number];
type JourneyVisit = {
  iccid: string;
  finalUrl: string;
  ms: number;
  /** Bytes on the wire per kind (fetch: Remix's .data and /__manifest, tRPC) and in all. */
  wireBytes: Record<WireKind | 'total', number>;
  requests: number;
  fromCache: number;
  /** Hashed assets that went to the server (a 200 or a 304) instead of coming from the cache. */
  assetsFetched: string[];
  /** Of wireBytes.total: the response headers (status line included). */
  headerBytes: number;
  responses: Array<{
    url: string;
    type: string;
    status: number;
    cached: boolean;
    wireBytes: number;
    headerBytes: number;
    dataBytes: number;
    failed?: string;
  }>;
};

const wireKind = (type: string): WireKind =>
  type === 'Document'
    ? 'document'
    : type === 'Script'
      ? 'script'
      : type === 'Stylesheet'
        ? 'stylesheet'
        : type === 'Fetch' || type === 'XHR'
          ? 'fetch'
          : 'other';

let iccidSerial = 0;
/** A valid ICCID no seeded SIM has (the seed's are 8946 + 15 digits + 0; these start 89467). */
const freshIccid = () =>
  withCheckDigit(`89467${String(Date.now() % 1e9).padStart(9, '0')}${String(++iccidSerial).padStart(5, '0')}`);

/** One pass of the journey in a new tab of `context`: /add, activate with JS, wait on /sims until quiet. */
async function activationJourney(context: BrowserContext, base: string): Promise<JourneyVisit> {
  const page: Page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  type Seen = JourneyVisit['responses'][number] & { done: boolean };
  const seen = new Map<string, Seen>();
  let lastActivity = performance.now();
  const of = (id: string) => {
    let r = seen.get(id);
    if (!r)
      seen.set(
        id,
        (r = {
          url: '',
          type: 'Other',
          status: 0,
          cached: false,
          wireBytes: 0,
          headerBytes: 0,
          dataBytes: 0,
          done: false,
        }),
      );
    lastActivity = performance.now();
    return r;
  };
  cdp.on('Network.requestWillBeSent', (e) => {
    const r = of(e.requestId);
    // A redirect reuses the request id: the redirect's own bytes are counted at its loadingFinished.
    r.url = e.request.url.replace(base, '');
    r.type = e.type ?? r.type;
  });
  cdp.on('Network.requestServedFromCache', (e) => {
    of(e.requestId).cached = true;
  });
  cdp.on('Network.responseReceived', (e) => {
    const r = of(e.requestId);
    r.status = e.response.status;
    r.type = e.type;
    if (e.response.fromDiskCache || e.response.fromPrefetchCache) r.cached = true;
  });
  cdp.on('Network.responseReceivedExtraInfo', (e) => {
    if (e.headersText) of(e.requestId).headerBytes += Buffer.byteLength(e.headersText);
  });
  cdp.on('Network.loadingFinished', (e) => {
    const r = of(e.requestId);
    r.wireBytes += e.encodedDataLength;
    r.done = true;
  });
  // Remix cancels the body stream of a single-fetch answer once it has what it needs: such a request ends in
  // loadingFailed (net::ERR_ABORTED) with no total, although its headers and body came over the wire. Then the
  // received headers and data chunks are what it cost.
  cdp.on('Network.loadingFailed', (e) => {
    const r = of(e.requestId);
    r.failed = e.errorText;
    r.wireBytes += r.headerBytes + r.dataBytes;
    r.done = true;
  });
  cdp.on('Network.dataReceived', (e) => {
    of(e.requestId).dataBytes += e.encodedDataLength;
  });
  await cdp.send('Network.enable');

  const iccid = freshIccid();
  const started = performance.now();
  await page.goto(`${base}/add`, { waitUntil: 'load', timeout: 60_000 });
  // Hydrated: the scan button is a button (before, its place is kept by an unseen box).
  await page.waitForFunction(() => document.querySelector('button.scan-toggle') !== null, undefined, {
    timeout: 30_000,
  });
  await page.getByLabel('ICCID').fill(iccid);
  await page.getByLabel('Datamängd').selectOption({ label: '500 MB' });
  await page.getByRole('button', { name: 'Aktivera' }).click();
  try {
    await page.waitForURL((u) => u.pathname === '/sims', { timeout: 30_000 });
  } catch {
    throw new Error(`the activation of ${iccid} did not land on /sims but on ${page.url()}`);
  }
  await page.getByText(iccid).first().waitFor({ state: 'attached', timeout: 30_000 });
  // Then until nothing but the event stream (never finished) has been in flight for 1 s (at most 20 s).
  const busy = () => [...seen.values()].some((r) => !r.done && r.type !== 'EventSource');
  const deadline = performance.now() + 20_000;
  while (performance.now() < deadline && (busy() || performance.now() - lastActivity < 1000))
    await page.waitForTimeout(100);
  const ms = Math.round(performance.now() - started);
  const finalUrl = page.url().replace(base, '');
  await cdp.detach();
  await page.close();

  const responses = [...seen.values()].filter((r) => r.type !== 'EventSource' && r.url).map(({ done: _d, ...r }) => r);
  const wireBytes = Object.fromEntries([...WIRE_KINDS, 'total'].map((k) => [k, 0])) as JourneyVisit['wireBytes'];
  for (const r of responses) {
    wireBytes[wireKind(r.type)] += r.wireBytes;
    wireBytes.total += r.wireBytes;
  }
  return {
    iccid,
    finalUrl,
    ms,
    wireBytes,
    headerBytes: responses.reduce((sum, r) => sum + (r.cached ? 0 : r.headerBytes), 0),
    requests: responses.length,
    fromCache: responses.filter((r) => r.cached).length,
    assetsFetched: responses
      .filter((r) => r.url.startsWith('/assets/') && !r.cached)
      .map((r) => `${r.url} (${r.status})`),
    responses,
  };
}

/** The journey twice in one fresh context (logged in by the session cookie): empty cache, then warm. */
async function journeys(
  browser: Browser,
  base: string,
  cookie: string,
): Promise<{ first: JourneyVisit; repeat: JourneyVisit }> {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    locale: 'sv-SE',
    serviceWorkers: 'block',
  });
  try {
    const [name, value] = cookie.split('=') as [string, string];
    await context.addCookies([{ name, value, url: base }]);
    const first = await activationJourney(context, base);
    const repeat = await activationJourney(context, base);
    return { first, repeat };
  } finally {
    await context.close();
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Which route modules of the build (with their static imports: what a first visit of the route loads) hold zod.

const ZOD_MARK = /\$ZodType|ZodError/;

function zodInRouteJs(): Record<string, string[]> {
  const assets = path.join(root, buildDir, 'client/assets');
  const file = readdirSync(assets).find((f) => /^manifest-.*\.js$/.test(f));
  if (!file) throw new Error(`no Remix manifest in ${assets}`);
  const text = readFileSync(path.join(assets, file), 'utf8');
  const manifest = JSON.parse(text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1)) as {
    entry: { module: string; imports?: string[] };
    routes: Record<string, { module: string; imports?: string[] }>;
  };
  const holds = new Map<string, boolean>();
  const zod = (url: string) => {
    const known = holds.get(url);
    if (known !== undefined) return known;
    const held = ZOD_MARK.test(readFileSync(path.join(root, buildDir, 'client', url), 'utf8'));
    holds.set(url, held);
    return held;
  };
  const found: Record<string, string[]> = {};
  for (const [id, r] of Object.entries({ entry: manifest.entry, ...manifest.routes })) {
    const files = [r.module, ...(r.imports ?? [])].filter(zod);
    if (files.length) found[id] = files;
  }
  return found;
}

// ---------------------------------------------------------------------------------------------------------------
// Lighthouse (its Node API, Chromium started by chrome-launcher).

type LighthouseScores = {
  url: string;
  performance: number | null;
  accessibility: number | null;
  metrics: Record<string, number | null>;
  failedA11y: string[];
  error?: string;
  runs?: Array<{ performance: number | null; accessibility: number | null; error?: string }>;
};

async function runLighthouse(
  targets: Array<{ name: string; url: string; cookie: string | null }>,
): Promise<{ ran: boolean; reason?: string; results: Record<string, LighthouseScores> }> {
  if (!existsSync(CHROME)) return { ran: false, reason: `no Chromium at ${CHROME} (set CHROME_PATH)`, results: {} };
  process.env.CHROME_PATH = CHROME;
  let lighthouse: typeof import('lighthouse').default;
  let launch: typeof import('chrome-launcher').launch;
  try {
    lighthouse = (await import('lighthouse')).default;
    launch = (await import('chrome-launcher')).launch;
  } catch (e) {
    return {
      ran: false,
      reason: `lighthouse or chrome-launcher could not be loaded: ${(e as Error).message}`,
      results: {},
    };
  }
  let chrome: Awaited<ReturnType<typeof launch>>;
  try {
    chrome = await launch({
      chromePath: CHROME,
      chromeFlags: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
    });
  } catch (e) {
    return {
      ran: false,
      reason: `Chromium could not be started by chrome-launcher: ${(e as Error).message}`,
      results: {},
    };
  }
  const once = async (t: (typeof targets)[number]): Promise<LighthouseScores> => {
    try {
      const r = await lighthouse(t.url, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility'],
        ...(t.cookie ? { extraHeaders: { Cookie: t.cookie } } : {}),
      });
      if (!r) throw new Error('lighthouse returned no result');
      const lhr = r.lhr;
      if (lhr.runtimeError) throw new Error(`${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
      const score = (c: string) =>
        lhr.categories[c]?.score == null ? null : Math.round(lhr.categories[c].score * 100);
      const metric = (id: string) =>
        lhr.audits[id]?.numericValue == null ? null : Math.round(lhr.audits[id].numericValue);
      const a11yRefs = lhr.categories.accessibility?.auditRefs ?? [];
      const failedA11y = a11yRefs
        .filter((a) => a.weight > 0 && lhr.audits[a.id]?.score !== null && (lhr.audits[a.id]?.score ?? 1) < 1)
        .map((a) => a.id);
      if (lhr.runWarnings?.length) log(`lighthouse ${t.name}: warnings: ${lhr.runWarnings.join(' | ')}`);
      return {
        url: t.url,
        performance: score('performance'),
        accessibility: score('accessibility'),
        metrics: {
          fcpMs: metric('first-contentful-paint'),
          lcpMs: metric('largest-contentful-paint'),
          tbtMs: metric('total-blocking-time'),
          cls1000:
            lhr.audits['cumulative-layout-shift']?.numericValue == null
              ? null
              : Math.round(lhr.audits['cumulative-layout-shift'].numericValue * 1000),
          siMs: metric('speed-index'),
          ttiMs: metric('interactive'),
          serverResponseMs: metric('server-response-time'),
          benchmarkIndex: lhr.environment?.benchmarkIndex == null ? null : Math.round(lhr.environment.benchmarkIndex),
        },
        failedA11y,
      };
    } catch (e) {
      return {
        url: t.url,
        performance: null,
        accessibility: null,
        metrics: {},
        failedA11y: [],
        error: (e as Error).message,
      };
    }
  };
  // LH_RUNS passes over all targets (a busy moment of the machine hits every route alike); per route the run
  // with the median performance score is kept, every run's scores are listed.
  const runs = new Map<string, LighthouseScores[]>(targets.map((t) => [t.name, []]));
  try {
    for (let pass = 0; pass < LH_RUNS; pass++) {
      for (const t of targets) {
        const started = performance.now();
        const s = await once(t);
        runs.get(t.name)?.push(s);
        log(
          `lighthouse ${t.name} (${pass + 1}/${LH_RUNS}): performance ${s.performance ?? '-'}, accessibility ${s.accessibility ?? '-'}${s.error ? ` (error: ${s.error})` : ''} in ${Math.round((performance.now() - started) / 1000)} s`,
        );
      }
    }
  } finally {
    chrome.kill();
  }
  const results: Record<string, LighthouseScores> = {};
  for (const [name, list] of runs) {
    const ok = list.filter((r) => !r.error).sort((a, b) => (a.performance ?? 0) - (b.performance ?? 0));
    const median = ok[Math.floor((ok.length - 1) / 2)] ?? firstRow(list);
    results[name] = {
      ...median,
      runs: list.map((r) => ({ performance: r.performance, accessibility: r.accessibility, error: r.error })),
    };
  }
  const allFailed = Object.values(results).every((r) => r.error);
  return allFailed
    ? { ran: false, reason: `every Lighthouse run failed: ${Object.values(results)[0]?.error}`, results }
    : { ran: true, results };
}

// ---------------------------------------------------------------------------------------------------------------

async function main() {
  ensureBuild(log);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'sim-bench-pages-'));
  const pg = (await postgresReachable()) ? await freshPostgres() : null;
  const target: DbTarget = pg ? pg.target : { kind: 'pglite', dataDir: path.join(dataDir, 'pglite') };
  let floorDir: string | null = null;
  let server: Awaited<ReturnType<typeof startProcess>> | null = null;
  let floor: Awaited<ReturnType<typeof serveRemixApp>> | null = null;
  try {
    let t = performance.now();
    floorDir = buildRemixApp();
    log(`floor app built in ${Math.round(performance.now() - t)} ms (${floorDir})`);

    t = performance.now();
    log(`seeding ${SIMS} SIMs for Demo AB into ${target.kind === 'postgres' ? 'PostgreSQL' : 'PGlite'}`);
    const seeded = await seedDatabase(target, SIMS);
    const cookie = seeded.adminCookie;
    const aSim = await seeded.orm.em
      .fork()
      .findOneOrFail(Sim, { company: seeded.demoCompanyId, status: 'active' }, { orderBy: { id: 'asc' } });
    // A smoke run only keeps the measure from rotting: two pages.
    const clsRoutes = SMOKE
      ? ROUTES.filter((r) => r.path === '/login' || r.path === '/add')
      : [...ROUTES, ...CLS_EXTRA, { path: `/sims/${aSim.id}`, auth: true }];
    await seeded.orm.close(true); // PGlite: one process at a time
    log(`seeded in ${Math.round(performance.now() - t)} ms`);

    server = await startProcess(serverEnv(target, dataDir));
    const serverUrl = server.url;
    floor = await serveRemixApp(floorDir);

    // Warm both servers (first render, database caches) before measuring.
    for (const r of ROUTES) await fetch(server.url + r.path, { headers: r.auth ? { cookie } : {} });
    await fetch(floor.url + '/');

    const browser = await chromium.launch({
      executablePath: CHROME,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'],
    });
    const visits: Visit[] = [];
    let floorVisit: Visit;
    let journey: Awaited<ReturnType<typeof journeys>>;
    const cls: ClsVisit[] = [];
    try {
      floorVisit = await visit(browser, floor.url, '/', null);
      for (const r of ROUTES) {
        const v = await visit(browser, server.url, r.path, r.auth ? cookie : null);
        if (v.status !== 200 || v.finalUrl.split('?')[0] !== r.path)
          throw new Error(`${r.path} answered ${v.status} at ${v.finalUrl}: not the page itself (logged out?)`);
        visits.push(v);
      }
      journey = await journeys(browser, server.url, cookie);
      for (const r of clsRoutes) {
        const c = await layoutShifts(browser, server.url, r.path, r.auth ? cookie : null);
        log(
          `layout shift ${r.path}: ${Object.entries(c.byWidth)
            .map(([w, v]) => `${clsText(v)} at ${w} px`)
            .join(', ')}`,
        );
        cls.push(c);
      }
    } finally {
      await browser.close();
    }
    const zodRoutes = zodInRouteJs();

    // One page of /sims with the company's SIMs, the document alone: page 1 and a page in the middle.
    const simsHtml: Record<string, { bytes: number; gzip: number; wireBytes: number }> = {};
    for (const p of ['/sims', `/sims?page=${Math.max(1, Math.floor(SIMS / 100))}`]) {
      const res = await fetch(server.url + p, { headers: { cookie } });
      const body = Buffer.from(await res.arrayBuffer());
      if (res.status !== 200) throw new Error(`${p} answered ${res.status}`);
      // The bytes on the wire too, as the server compresses them.
      const wire = await new Promise<number>((resolve, reject) => {
        httpGet(serverUrl + p, { headers: { cookie, 'accept-encoding': 'gzip' } }, (r) => {
          let n = 0;
          r.on('data', (c: Buffer) => (n += c.length));
          r.on('end', () => resolve(n));
        }).on('error', reject);
      });
      simsHtml[p] = { bytes: body.length, gzip: gz(body), wireBytes: wire };
    }

    // All CSS of the build (what any page could load), gzipped.
    const assets = path.join(root, buildDir, 'client/assets');
    const cssFiles = readdirSync(assets).filter((f) => f.endsWith('.css'));
    const cssBuildGzip = cssFiles.reduce((s, f) => s + gz(readFileSync(path.join(assets, f))), 0);
    const cssLoaded = new Map<string, number>();
    for (const v of visits) for (const f of v.files) if (f.type === 'stylesheet') cssLoaded.set(f.url, f.gzip);
    const cssLoadedGzip = [...cssLoaded.values()].reduce((a, b) => a + b, 0);

    // Lighthouse, the floor first (what this machine can score at best).
    let lighthouse: Awaited<ReturnType<typeof runLighthouse>> = {
      ran: false,
      reason: 'skipped (BENCH_LIGHTHOUSE=0)',
      results: {},
    };
    if (LIGHTHOUSE) {
      const lhRoutes = SMOKE ? ROUTES.filter((r) => r.path === '/login') : ROUTES;
      lighthouse = await runLighthouse([
        { name: 'floor', url: floor.url + '/', cookie: null },
        ...lhRoutes.map((r) => ({ name: r.path, url: serverUrl + r.path, cookie: r.auth ? cookie : null })),
      ]);
    }

    // Figures, ratios, targets.
    const floorJs = floorVisit.gzip.js;
    const routes = visits.map((v) => {
      const lh = lighthouse.results[v.route];
      return {
        route: v.route,
        gzipBytes: v.gzip,
        rawBytes: v.raw,
        jsFloorRatio: round(v.gzip.js / floorJs),
        files: v.files,
        quaggaInJs: v.quaggaInJs,
        lighthouse: lh
          ? {
              performance: lh.performance,
              accessibility: lh.accessibility,
              metrics: lh.metrics,
              failedA11y: lh.failedA11y,
              error: lh.error,
              runs: lh.runs,
            }
          : null,
      };
    });
    const maxRatio = Math.max(...routes.map((r) => r.jsFloorRatio));
    const quagga = routes.flatMap((r) => r.quaggaInJs.map((f) => `${r.route}: ${f}`));
    const simsHtmlMax = Math.max(...Object.values(simsHtml).map((s) => s.gzip));
    const clsWorst = Math.max(...cls.map((c) => c.cls));
    const lhRan = Object.entries(lighthouse.results).filter(([n, r]) => n !== 'floor' && !r.error);
    const checks = {
      jsFloorRatio: maxRatio <= TARGET.jsFloorRatioMax,
      noQuaggaInInitialLoad: quagga.length === 0,
      cssTotal: cssBuildGzip < TARGET.cssTotalGzipMaxKB * 1024,
      simsHtml: simsHtmlMax < TARGET.simsHtmlGzipMaxKB * 1024,
      performance: lighthouse.ran ? lhRan.every(([, r]) => (r.performance ?? 0) >= TARGET.performanceMin) : null,
      accessibility: lighthouse.ran ? lhRan.every(([, r]) => (r.accessibility ?? 0) >= TARGET.accessibilityMin) : null,
      journeyFirst: journey.first.wireBytes.total < TARGET.journeyFirstMaxKB * 1024,
      journeyRepeat: journey.repeat.wireBytes.total < TARGET.journeyRepeatMaxKB * 1024,
      noAssetRefetched: journey.repeat.assetsFetched.length === 0,
      noZodInRouteJs: Object.keys(zodRoutes).length === 0,
      cls: clsWorst <= TARGET.clsMax,
    };
    const result = {
      date: new Date().toISOString(),
      machine: machine(),
      smoke: SMOKE,
      database: target.kind,
      sims: SIMS,
      build: buildDir,
      method:
        'first visit in a fresh Chromium profile (390x844), every response body gzipped at level 6, until network idle',
      floor: {
        what: 'bare Remix v2 app, same versions and future flags, one route',
        gzipBytes: floorVisit.gzip,
        rawBytes: floorVisit.raw,
        files: floorVisit.files,
      },
      routes,
      css: { buildFiles: cssFiles, buildGzipBytes: cssBuildGzip, loadedGzipBytes: cssLoadedGzip },
      simsPageHtml: simsHtml,
      journey: {
        what: 'open /add logged in, activate a fresh ICCID (JS on), land on /sims; then again in the same context',
        method:
          'Chrome DevTools protocol, sum of Network.loadingFinished encodedDataLength (headers + bodies on the wire, 304s included; the event stream left out); a request cancelled after its answer arrived (loadingFailed) counts its received headers and data chunks',
        first: journey.first,
        repeat: journey.repeat,
      },
      zodInRouteJs: zodRoutes,
      layoutShift: {
        what: 'cumulative layout shift of a first visit with JS on, per width (px), and the shifts with the elements that moved',
        method: `fresh Chromium context per route and width, CDP Network.emulateNetworkConditions (${SLOW_NETWORK.downloadThroughput * 8} bit/s, ${SLOW_NETWORK.latency} ms); PerformanceObserver 'layout-shift' (buffered) summed without entries after input, until hydrated, 1 s with nothing but the event stream in flight, and 500 ms more`,
        routes: cls,
      },
      lighthouse: {
        ran: lighthouse.ran,
        reason: lighthouse.reason ?? null,
        settings: `lighthouse 13.5.0 Node API, default mobile emulation (simulated Slow 4G, 4x CPU), Chromium ${CHROME}; median of ${LH_RUNS} run(s) by performance`,
        floor: lighthouse.results.floor ?? null,
        routes: Object.fromEntries(Object.entries(lighthouse.results).filter(([n]) => n !== 'floor')),
      },
      targets: TARGET,
      checks,
      pass: Object.values(checks).every((c) => c !== false),
    };
    const file = writeResult('pages', result);

    const pad = (s: string | number, n: number) => String(s).padStart(n);
    const lhRuns = (runs?: LighthouseScores['runs']) =>
      runs && runs.length > 1 ? ` (${runs.map((x) => x.performance ?? 'err').join(', ')})` : '';
    const lines = [
      '',
      `page weight, first visit, gzip kB (${target.kind}, ${SIMS} SIMs in Demo AB${SMOKE ? ', smoke' : ''})`,
      `  ${'route'.padEnd(18)} ${pad('HTML', 7)} ${pad('CSS', 7)} ${pad('JS', 7)} ${pad('other', 7)} ${pad('total', 7)} ${pad('JS/floor', 9)}   Lighthouse perf/a11y${LH_RUNS > 1 ? ` (median of ${LH_RUNS}; every run's perf)` : ''}`,
      `  ${'floor (bare Remix)'.padEnd(18)} ${pad(kb(floorVisit.gzip.html), 7)} ${pad(kb(floorVisit.gzip.css), 7)} ${pad(kb(floorJs), 7)} ${pad(kb(floorVisit.gzip.other), 7)} ${pad(kb(floorVisit.gzip.total), 7)} ${pad('1.00', 9)}   ${lighthouse.results.floor ? `${lighthouse.results.floor.performance ?? '-'}/${lighthouse.results.floor.accessibility ?? '-'}${lhRuns(lighthouse.results.floor.runs)}` : '-'}`,
      ...routes.map(
        (r) =>
          `  ${r.route.padEnd(18)} ${pad(kb(r.gzipBytes.html), 7)} ${pad(kb(r.gzipBytes.css), 7)} ${pad(kb(r.gzipBytes.js), 7)} ${pad(kb(r.gzipBytes.other), 7)} ${pad(kb(r.gzipBytes.total), 7)} ${pad(r.jsFloorRatio.toFixed(2), 9)}   ${r.lighthouse ? (r.lighthouse.error ? 'error' : `${r.lighthouse.performance}/${r.lighthouse.accessibility}${lhRuns(r.lighthouse.runs)}`) : '-'}`,
      ),
      `  JS/floor, worst route        : ${maxRatio.toFixed(2)} (target <= ${TARGET.jsFloorRatioMax}) ${checks.jsFloorRatio ? 'met' : 'MISSED'}`,
      `  quagga in a first visit's JS : ${quagga.length ? quagga.join(', ') : 'never'} ${checks.noQuaggaInInitialLoad ? 'met' : 'MISSED'}`,
      `  CSS, all of the build        : ${kb(cssBuildGzip)} kB gzip (${cssFiles.length} file(s); loaded by these routes ${kb(cssLoadedGzip)} kB) (target < ${TARGET.cssTotalGzipMaxKB}) ${checks.cssTotal ? 'met' : 'MISSED'}`,
      ...Object.entries(simsHtml).map(
        ([p, s]) =>
          `  ${p.padEnd(28)} : HTML ${kb(s.gzip)} kB gzip (${kb(s.bytes)} kB raw, ${kb(s.wireBytes)} kB on the wire) (target < ${TARGET.simsHtmlGzipMaxKB}) ${s.gzip < TARGET.simsHtmlGzipMaxKB * 1024 ? 'met' : 'MISSED'}`,
      ),
      `  activation journey, bytes on the wire (kB): ${WIRE_KINDS.join(' / ')} = total (requests, from cache)`,
      ...(['first', 'repeat'] as const).map((k) => {
        const j = journey[k];
        const max = k === 'first' ? TARGET.journeyFirstMaxKB : TARGET.journeyRepeatMaxKB;
        const met = k === 'first' ? checks.journeyFirst : checks.journeyRepeat;
        return `    ${(k === 'first' ? 'first visit' : 'repeat visit').padEnd(26)} : ${WIRE_KINDS.map((w) => kb(j.wireBytes[w])).join(' / ')} = ${kb(j.wireBytes.total)} kB (headers ${kb(j.headerBytes)} kB; ${j.requests} requests, ${j.fromCache} from cache; ${j.ms} ms) (target < ${max}) ${met ? 'met' : 'MISSED'}`;
      }),
      `    hashed assets fetched again : ${journey.repeat.assetsFetched.length ? journey.repeat.assetsFetched.join(', ') : 'none'} ${checks.noAssetRefetched ? 'met' : 'MISSED'}`,
      `  layout shift (CLS), first visit at ${SLOW_NETWORK.downloadThroughput * 8e-3} kbps and ${SLOW_NETWORK.latency} ms, JS on: ${CLS_WIDTHS.map((w) => `${w.width} px`).join(' / ')}`,
      ...cls.map(
        (c) =>
          `    ${c.route.padEnd(26)} : ${CLS_WIDTHS.map((w) => clsText(c.byWidth[w.width])).join(' / ')}${c.cls > 0 ? `  (moved: ${[...new Set(Object.values(c.shifts).flatMap((l) => l.flatMap((x) => x.sources.map((src) => src.split(' ')[0]))))].join(', ')})` : ''}`,
      ),
      `    CLS, worst page            : ${clsText(clsWorst)} (target <= ${TARGET.clsMax}) ${checks.cls ? 'met' : 'MISSED'}`,
      `  zod in a route's JS          : ${
        Object.keys(zodRoutes).length
          ? Object.entries(zodRoutes)
              .map(([r, f]) => `${r} (${f.join(', ')})`)
              .join('; ')
          : 'none'
      } ${checks.noZodInRouteJs ? 'met' : 'MISSED'}`,
      lighthouse.ran
        ? `  Lighthouse                   : performance ${checks.performance ? 'met' : 'MISSED'} (target >= ${TARGET.performanceMin}), accessibility ${checks.accessibility ? 'met' : 'MISSED'} (target ${TARGET.accessibilityMin})${SMOKE ? ' (smoke: /login only)' : ''}`
        : `  Lighthouse                   : NOT RUN: ${lighthouse.reason}`,
      ...Object.entries(lighthouse.results)
        .filter(([, r]) => r.failedA11y.length || r.error)
        .map(
          ([n, r]) =>
            `    ${n}: ${r.error ? `error ${r.error}` : `accessibility audits failing: ${r.failedA11y.join(', ')}`}`,
        ),
      `  ${result.pass ? 'PASS' : 'FAIL'}  -> ${file}`,
    ];
    console.log(lines.join('\n'));
    return result;
  } finally {
    await floor?.close();
    await server?.stop();
    await pg?.drop();
    rmSync(dataDir, { recursive: true, force: true });
    if (floorDir) rmSync(floorDir, { recursive: true, force: true });
  }
}

runBenchmark(main);
