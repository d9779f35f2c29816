// Long: one benchmark run end to end (seed, server, the one-by-one, bulk, chunked and file paths, the report).
// Bulk activation (npm run bench:bulk), on PostgreSQL. Makes a fresh database on the machine's PostgreSQL
// (DATABASE_URL's server, else postgres://postgres@127.0.0.1:5432; dropped at the end), seeds BENCH_SEEDED SIMs for
// Demo AB, starts the production server (BUILD_DIR=build-bench) in its own process and, in the same run:
// - activates N ICCIDs one by one (N sequential POST /api/sim over one keep-alive connection, as a client
//   script would) and N other ICCIDs in one POST /api/sim/bulk, then the same bulk list again (the idempotent
//   repeat: nothing left to activate): the ratio of the two;
// - deactivates the bulk list's N SIMs in one POST /api/sim/bulk/deactivate (N = 10,000 in < 5 s);
// - the browser's run with JS (/add/bulk): the live preview of N (sim.bulkActivate with dryRun over /api/trpc),
//   then the activation in chunks of CHUNK_SIZE (sim.bulkActivateChunk, one after another) and its summary;
// - a file of N rows, CSV and XLSX, through /add/bulk as the page's form posts it without JS: the file to
//   "Förhandsgranska", then the preview's list to "Aktivera N SIM-kort" (each < 5 s, with the pages' sizes).
// Prints the times against the targets and the server's RSS growth per phase; writes bench/results/bulk.json.
//
//   BENCH_ICCIDS=10000  BENCH_SEEDED=100000 (SIMs already in the company)  BENCH_SMOKE=1 (50 ICCIDs, 100 SIMs)
//   BENCH_ENFORCE=1 exits 1 when a target is missed.
import { defined } from '#domain/defined.ts';
import { SMOKE } from './env.ts';
import http from 'node:http';
import ExcelJS from 'exceljs';
import { CHUNK_SIZE } from '#app/bulk/run.ts';
import { withCheckDigit } from '#domain/sims/iccid.ts';
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
import { hiddenValue } from '#tests/helpers/html.ts';

const log = logger('bulk');
const N = Number(process.env.BENCH_ICCIDS ?? (SMOKE ? 50 : 10_000));
const SEEDED_SIMS = Number(process.env.BENCH_SEEDED ?? (SMOKE ? 100 : 100_000));
/** speedupMin: the bulk path against N single calls; listMaxMs: one list of N (10,000 in under 5 s). */
const TARGET = { speedupMin: 5, listMaxMs: 5000 };

const plan = { dataLimit: 1000, callAndSms: true, roaming: false, invoiceLineMark: 'Bänk', invoiceLineNote: '' };

let serial = 0;
/** Valid ICCIDs of their own prefix (the seeded SIMs start 8946000, and fail the check digit). */
const iccids = (n: number) =>
  Array.from({ length: n }, () => withCheckDigit(`89467${String(serial++).padStart(14, '0')}`));

// One keep-alive connection: what a client script activating SIMs one by one would hold.
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

function postJson(url: string, cookie: string, body: unknown): Promise<{ status: number; data: any }> {
  return postBody(url, cookie, Buffer.from(JSON.stringify(body)), 'application/json');
}

function postBody(
  url: string,
  cookie: string,
  payload: Buffer,
  contentType: string,
  accept = 'application/json',
): Promise<{ status: number; data: any }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: { cookie, accept, 'content-type': contentType, 'content-length': payload.length },
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

/** A multipart form as a browser posts it: text fields, and the file. */
async function multipart(
  fields: Record<string, string>,
  file?: { name: string; bytes: Uint8Array; type: string },
): Promise<{ body: Buffer; type: string }> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  if (file) form.set('file', new Blob([file.bytes as Uint8Array<ArrayBuffer>], { type: file.type }), file.name);
  const req = new Request('http://x/', { method: 'POST', body: form });
  return { body: Buffer.from(await req.arrayBuffer()), type: req.headers.get('content-type') ?? '' };
}

const countOf = (html: string, outcome: string) =>
  Number(new RegExp(`data-outcome="${outcome}"><dt>(?:(?!</dt>)[\\s\\S])*</dt><dd>(\\d+)</dd>`).exec(html)?.[1] ?? -1);

/** A file of these ICCIDs as a member would fill in the template: a header, a mark of its own on every row. */
async function listFile(
  format: 'csv' | 'xlsx',
  list: string[],
): Promise<{ name: string; bytes: Uint8Array; type: string }> {
  const mark = (i: number) => `Mätare ${i}`;
  if (format === 'csv') {
    const text =
      'iccid;fakturamärkning;fakturakommentar\r\n' + list.map((c, i) => `${c};${mark(i)};Låda ${i % 50}`).join('\r\n');
    return { name: 'lista.csv', bytes: Buffer.from(text, 'utf8'), type: 'text/csv' };
  }
  const wb = new ExcelJS.Workbook();
  const sheet = wb.addWorksheet('SIM-kort');
  sheet.addRow(['iccid', 'fakturamärkning', 'fakturakommentar']);
  list.forEach((c, i) => sheet.addRow([c, mark(i), `Låda ${i % 50}`]));
  return {
    name: 'lista.xlsx',
    bytes: new Uint8Array(await wb.xlsx.writeBuffer()),
    type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  };
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
    const { pid, url } = app;

    // Warm-up of both paths (JIT, pool, plan cache), on ICCIDs of their own.
    for (const iccid of iccids(SMOKE ? 5 : 50)) await postJson(`${app.url}/api/sim`, cookie, { ...plan, iccid });
    for (let i = 0; i < 3; i++) await postJson(`${app.url}/api/sim/bulk`, cookie, { ...plan, iccids: iccids(50) });
    const rssStart = rssOf(pid);

    const singleList = iccids(N);
    const single = await measured(pid, async () => {
      let failed = 0;
      for (const iccid of singleList) {
        const r = await postJson(`${url}/api/sim`, cookie, { ...plan, iccid });
        if (r.status !== 200) failed++;
      }
      return failed;
    });
    if (single.value > 0) throw new Error(`${single.value} of ${N} single activations failed`);
    log(`${N} x POST /api/sim: ${single.ms} ms (${round(single.ms / N, 2)} ms each), RSS +${single.rssGrowthMB} MB`);

    const bulkList = iccids(N);
    const bulk = await measured(pid, () => postJson(`${url}/api/sim/bulk`, cookie, { ...plan, iccids: bulkList }));
    if (bulk.value.status !== 200 || bulk.value.data.counts?.activated !== N)
      throw new Error(
        `POST /api/sim/bulk answered ${bulk.value.status}: ${JSON.stringify(bulk.value.data).slice(0, 300)}`,
      );
    log(`POST /api/sim/bulk with ${N} ICCIDs: ${bulk.ms} ms, RSS +${bulk.rssGrowthMB} MB`);

    const repeat = await measured(pid, () => postJson(`${url}/api/sim/bulk`, cookie, { ...plan, iccids: bulkList }));
    if (repeat.value.status !== 200 || repeat.value.data.counts?.alreadyActive !== N)
      throw new Error(`the repeat answered ${repeat.value.status}: ${JSON.stringify(repeat.value.data).slice(0, 300)}`);
    log(`the same list again (nothing left): ${repeat.ms} ms`);

    const bulkIds: number[] = bulk.value.data.results.map((r: { simId: number }) => r.simId);
    const deactivation = await measured(pid, () =>
      postJson(`${url}/api/sim/bulk/deactivate`, cookie, { ids: bulkIds }),
    );
    if (deactivation.value.status !== 200 || deactivation.value.data.counts?.deactivated !== N)
      throw new Error(
        `POST /api/sim/bulk/deactivate answered ${deactivation.value.status}: ${JSON.stringify(deactivation.value.data).slice(0, 300)}`,
      );
    log(`POST /api/sim/bulk/deactivate with ${N} ids: ${deactivation.ms} ms, RSS +${deactivation.rssGrowthMB} MB`);

    // The browser's run with JS: the live preview of the whole list, then chunks one after another, then the toast.
    const trpc = (procedure: string, input: unknown) =>
      postJson(`${url}/api/trpc/${procedure}?batch=1`, cookie, { 0: input }).then((r) => {
        if (r.status !== 200)
          throw new Error(`${procedure} answered ${r.status}: ${JSON.stringify(r.data).slice(0, 300)}`);
        return r.data[0].result.data;
      });
    const jsList = iccids(N);
    const livePreview = await measured(pid, () => trpc('sim.bulkActivate', { ...plan, iccids: jsList, dryRun: true }));
    if (livePreview.value.counts.ready !== N) throw new Error('the live preview did not find the list ready');
    const chunkMs: number[] = [];
    const jsRun = await measured(pid, async () => {
      const simIds: number[] = [];
      for (let from = 0; from < N; from += CHUNK_SIZE) {
        const t = performance.now();
        const answer = await trpc('sim.bulkActivateChunk', { ...plan, iccids: jsList.slice(from, from + CHUNK_SIZE) });
        chunkMs.push(performance.now() - t);
        simIds.push(...answer.results.map((r: { simId: number }) => r.simId));
      }
      return trpc('sim.bulkActivateSummary', { simIds, total: N });
    });
    if (jsRun.value.activated !== N) throw new Error(`the chunked run activated ${jsRun.value.activated} of ${N}`);
    chunkMs.sort((a, b) => a - b);
    const chunks = {
      count: chunkMs.length,
      size: CHUNK_SIZE,
      p50Ms: round(chunkMs[Math.floor(chunkMs.length / 2)] ?? NaN, 1),
      maxMs: round(chunkMs.at(-1) ?? NaN, 1),
    };
    log(`the JS run: preview ${livePreview.ms} ms, ${chunks.count} chunks of ${CHUNK_SIZE}: ${jsRun.ms} ms`);

    // A file of N rows through /add/bulk without JS: the file to the preview, the preview's list to the activation.
    const page = async (fields: Record<string, string>, file?: Awaited<ReturnType<typeof listFile>>) => {
      const { body, type } = await multipart(
        {
          iccids: '',
          dataLimit: String(plan.dataLimit),
          callAndSms: 'on',
          invoiceLineMark: 'Bänk',
          invoiceLineNote: '',
          ...fields,
        },
        file,
      );
      const r = await postBody(`${url}/add/bulk`, cookie, body, type, 'text/html');
      if (r.status !== 200 || typeof r.data !== 'string') throw new Error(`/add/bulk answered ${r.status}`);
      return r.data;
    };
    const files: Record<string, unknown> = {};
    for (const format of ['csv', 'xlsx'] as const) {
      const file = await listFile(format, iccids(N));
      const preview = await measured(pid, () => page({ intent: 'preview' }, file));
      if (countOf(preview.value, 'ready') !== N) throw new Error(`the ${format} preview did not find ${N} rows ready`);
      const rows = defined(hiddenValue(preview.value, 'rows'), `the rows of the ${format} preview`);
      const activation = await measured(pid, () =>
        page({ intent: 'activate', rows, fileName: hiddenValue(preview.value, 'fileName') ?? '' }),
      );
      if (countOf(activation.value, 'activated') !== N)
        throw new Error(`the ${format} activation did not activate ${N} rows`);
      files[format] = {
        fileKB: round(file.bytes.length / 1024, 1),
        previewMs: preview.ms,
        activateMs: activation.ms,
        totalMs: round(preview.ms + activation.ms, 1),
        previewPageKB: round(preview.value.length / 1024, 1),
        resultPageKB: round(activation.value.length / 1024, 1),
        rssGrowthMB: Math.max(preview.rssGrowthMB, activation.rssGrowthMB),
      };
      log(
        `${format.toUpperCase()} of ${N} rows through /add/bulk: preview ${preview.ms} ms, activation ${activation.ms} ms`,
      );
    }
    const csv = files.csv as {
      previewMs: number;
      activateMs: number;
      totalMs: number;
      fileKB: number;
      resultPageKB: number;
    };
    const xlsx = files.xlsx as typeof csv;
    const rssEnd = rssOf(pid);

    const speedup = round(single.ms / bulk.ms, 1);
    const lists = {
      bulk: bulk.ms,
      deactivation: deactivation.ms,
      jsRun: jsRun.ms,
      csv: Math.max(csv.previewMs, csv.activateMs),
      xlsx: Math.max(xlsx.previewMs, xlsx.activateMs),
    };
    const listsMet = Object.values(lists).every((ms) => ms < TARGET.listMaxMs);
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
      deactivation: { totalMs: deactivation.ms, rssGrowthMB: deactivation.rssGrowthMB },
      js: { previewMs: livePreview.ms, runMs: jsRun.ms, chunks, rssGrowthMB: jsRun.rssGrowthMB },
      files,
      speedup,
      serverRss: { startMB: mb(rssStart), endMB: mb(rssEnd), growthMB: mb(rssEnd - rssStart) },
      targets: TARGET,
      pass: speedup >= TARGET.speedupMin && listsMet,
    };
    const file = writeResult('bulk', result);
    console.log(
      [
        '',
        `bulk activation, ${N} ICCIDs, PostgreSQL${SMOKE ? ' (smoke)' : ''}`,
        `  ${N} x POST /api/sim (keep-alive)  ${single.ms} ms   RSS peak +${single.rssGrowthMB} MB`,
        `  1 x POST /api/sim/bulk            ${bulk.ms} ms   RSS peak +${bulk.rssGrowthMB} MB`,
        `  the same list again               ${repeat.ms} ms`,
        `  bulk is ${speedup}x faster (target >= ${TARGET.speedupMin}x) ${speedup >= TARGET.speedupMin ? 'met' : 'MISSED'}`,
        `one list of ${N} (target < ${TARGET.listMaxMs} ms each) ${listsMet ? 'met' : 'MISSED'}; ${SEEDED_SIMS} SIMs in the company before`,
        `  POST /api/sim/bulk                ${bulk.ms} ms`,
        `  POST /api/sim/bulk/deactivate     ${deactivation.ms} ms   RSS peak +${deactivation.rssGrowthMB} MB`,
        `  with JS: live preview (dryRun)    ${livePreview.ms} ms`,
        `  with JS: ${chunks.count} chunks of ${CHUNK_SIZE}           ${jsRun.ms} ms (a chunk p50 ${chunks.p50Ms} ms, max ${chunks.maxMs} ms)`,
        `  CSV, ${csv.fileKB} kB, /add/bulk       preview ${csv.previewMs} ms + activate ${csv.activateMs} ms (result page ${csv.resultPageKB} kB)`,
        `  XLSX, ${xlsx.fileKB} kB, /add/bulk      preview ${xlsx.previewMs} ms + activate ${xlsx.activateMs} ms (result page ${xlsx.resultPageKB} kB)`,
        `  server RSS ${mb(rssStart)} -> ${mb(rssEnd)} MB`,
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
