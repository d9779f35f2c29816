// bench:data's exports: on the 1,000,000-SIM fleet, through HTTP on the built server, one at a time, each on a server
// just started (BENCH_SMOKE: on the one server): the invoice specification of this month (a row per SIM), the list
// export as CSV and as XLSX (every SIM), each asked for as a browser asks (`Accept-Encoding: gzip, br`, read at
// 4 MB/s on the wire) and with no compression (`identity`, 20 MB/s). For each: the encoding sent, the first byte, the
// whole download, rows per second, the bytes sent and the server's RSS growth (its peak while the download ran over
// its RSS just before). Then a CSV download abandoned after its first megabyte: how long until no export statement
// runs in the database. Targets: growth < 60 MB (issue 39), >= 50,000 rows/s, first byte < 1 s.
// BENCH_EXPORTS=invoice,csv,xlsx: only these.
import { defined } from '#domain/defined.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { DataPhaseContext, PhaseResult } from './data-phase.ts';
import { firstRow, mb, round, rssOf, serverEnv, sleep, startProcess, type ServerProcess } from './lib.ts';

const TARGET = { growthMB: 60, rowsPerSecond: 50_000, firstByteMs: 1_000 };

type Download = {
  encoding: string;
  firstByteMs: number;
  ms: number;
  /** Bytes on the wire (compressed when the answer was). */
  bytes: number;
  lines: number;
  growthMB: number;
};

/** How a download is asked for: the client's Accept-Encoding, and the pace it reads at (wire bytes a second). */
export type Asked = { acceptEncoding: string; bytesPerSecond: number };

/** A browser (`gzip, br`, what every browser sends) on a fast line, and a client that asks for no compression. */
export const ASKED: Asked[] = [
  { acceptEncoding: 'gzip, br', bytesPerSecond: 4 * 1024 * 1024 },
  { acceptEncoding: 'identity', bytesPerSecond: 20 * 1024 * 1024 },
];

/**
 * One download read to its end over plain HTTP (node:http: the bytes as sent, no decompression in the client), at
 * most `bytesPerSecond`: times, wire bytes, lines (of an uncompressed answer) and the server's peak RSS growth.
 */
async function download(ctx: DataPhaseContext, path: string, asked: Asked): Promise<Download> {
  // Each download on a server of its own, just started (as after a deploy): a server that has served a large file
  // already holds the heap the next one needs, so in one process the first download showed all the growth and the
  // others little. A smoke run (CI) keeps to the one server, for time.
  if (ctx.smoke) return downloadFrom(ctx.server, ctx.cookie, path, asked);
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-exports-'));
  const server = await startProcess(
    { ...serverEnv({ kind: 'postgres', url: ctx.dbUrl }, dataDir), LOG_LEVEL: 'warn' },
    { name: 'portal (exports)' },
  );
  try {
    return await downloadFrom(server, ctx.cookie, path, asked);
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function downloadFrom(server: ServerProcess, cookie: string, path: string, asked: Asked): Promise<Download> {
  const pid = server.pid;
  // A settled server first (its start's work done).
  await sleep(1000);
  const before = rssOf(pid);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 20);
  const t0 = performance.now();
  try {
    const r = await new Promise<Omit<Download, 'growthMB' | 'ms'>>((resolve, reject) => {
      const req = http.get(
        server.url + path,
        { headers: { cookie, 'accept-encoding': asked.acceptEncoding } },
        (res) => {
          if (res.statusCode !== 200) {
            res.resume();
            return reject(new Error(`${path} answered ${res.statusCode}`));
          }
          let firstByteMs = 0;
          let bytes = 0;
          let lines = 0;
          res.on('data', (chunk: Buffer) => {
            if (!firstByteMs) firstByteMs = performance.now() - t0;
            bytes += chunk.length;
            for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
            // The pace: paused until the bytes so far fit the line's rate.
            const ahead = (bytes / asked.bytesPerSecond) * 1000 - (performance.now() - t0);
            if (ahead > 5) {
              res.pause();
              setTimeout(() => res.resume(), ahead);
            }
          });
          res.on('end', () =>
            resolve({
              encoding: String(res.headers['content-encoding'] ?? 'identity'),
              firstByteMs: round(firstByteMs, 0),
              bytes,
              lines,
            }),
          );
          res.on('error', reject);
        },
      );
      req.on('error', reject);
    });
    const ms = performance.now() - t0;
    peak = Math.max(peak, rssOf(pid));
    return { ...r, ms: round(ms, 0), growthMB: mb(peak - before) };
  } finally {
    clearInterval(sampler);
  }
}

/** Statements of the server's pool that read SIMs right now (the export's batches). */
async function exportStatements(db: pg.Client): Promise<number> {
  const r = await db.query<{ n: number }>(
    `select count(*)::int as n from pg_stat_activity
      where datname = current_database() and pid <> pg_backend_pid() and state = 'active' and query ilike '%from sim s%'`,
  );
  return firstRow(r.rows).n;
}

/**
 * The downloads, one at a time. `only`: some of invoice, csv, xlsx (default BENCH_EXPORTS, else all); bench:usage
 * runs the two list exports on its fleet, where every row carries its usage.
 */
export async function exportsPhase(
  ctx: DataPhaseContext,
  only = process.env.BENCH_EXPORTS?.split(',').map((x) => x.trim()),
): Promise<PhaseResult> {
  const db = new pg.Client({ connectionString: ctx.dbUrl });
  await db.connect();
  try {
    const now = new Date();
    const stockholm = new Intl.DateTimeFormat('sv-SE', {
      timeZone: 'Europe/Stockholm',
      year: 'numeric',
      month: 'numeric',
    })
      .formatToParts(now)
      .reduce<Record<string, number>>((o, p) => (p.type === 'literal' ? o : { ...o, [p.type]: Number(p.value) }), {});
    const month = `start_year=${stockholm.year}&start_month=${stockholm.month}&end_year=${stockholm.year}&end_month=${stockholm.month}`;
    const sims = firstRow(
      (
        await db.query<{ n: number }>(
          `select count(*)::int as n from sim where company_id = $1 and status = 'active'`,
          [ctx.companyId],
        )
      ).rows,
    ).n;

    const rows: Array<Record<string, unknown>> = [];
    // One row per SIM in each (the invoice specification: one 'activated' event each this month, all active).
    const runs: Array<[string, string]> = [
      ['invoice specification, this month (XLSX)', `/api/export/getExcelV1?${month}`],
      ['list export, CSV', '/api/sim/export?format=csv'],
      ['list export, XLSX', '/api/sim/export?format=xlsx'],
    ];
    const chosen = runs.filter((_, i) => !only || only.includes(['invoice', 'csv', 'xlsx'][i] ?? ''));
    for (const [name, path, asked] of chosen.flatMap(([n, p]) => ASKED.map((a) => [n, p, a] as const))) {
      const d = await download(ctx, path, asked);
      const n = sims;
      const rowsPerSecond = Math.round(n / (d.ms / 1000));
      const pass =
        d.growthMB < TARGET.growthMB && rowsPerSecond >= TARGET.rowsPerSecond && d.firstByteMs < TARGET.firstByteMs;
      rows.push({ export: name, acceptEncoding: asked.acceptEncoding, rows: n, ...d, rowsPerSecond, pass });
      ctx.log(
        `${name}, Accept-Encoding ${asked.acceptEncoding} (sent ${d.encoding}): ${n} rows, first byte ${d.firstByteMs} ms, ${d.ms} ms, ${rowsPerSecond} rows/s, ${mb(d.bytes)} MB, RSS +${d.growthMB} MB${pass ? '' : '  MISSED'}`,
      );
    }

    // Abandoned after its first megabyte: how long until the database runs none of its statements.
    const client = new AbortController();
    const res = await fetch(ctx.server.url + '/api/sim/export?format=csv', {
      headers: { cookie: ctx.cookie },
      signal: client.signal,
    });
    let read = 0;
    const reader = defined(res.body, 'the body of the export').getReader();
    while (read < 1024 * 1024) {
      const r = await reader.read();
      if (r.done) break;
      read += r.value.length;
    }
    const t0 = performance.now();
    client.abort();
    let quietFor = 0;
    let stoppedMs = NaN;
    // Stopped: no export statement in five looks 20 ms apart; at most 10 s.
    while (performance.now() - t0 < 10_000) {
      if ((await exportStatements(db)) === 0) {
        if (++quietFor === 5) {
          stoppedMs = round(performance.now() - t0 - 80, 0);
          break;
        }
      } else quietFor = 0;
      await sleep(20);
    }
    const cancelPass = Number.isFinite(stoppedMs) && stoppedMs < 1000;
    rows.push({ export: 'CSV abandoned after 1 MB: database work stopped after (ms)', stoppedMs, pass: cancelPass });
    ctx.log(`abandoned CSV download: the database's export statements stopped ${stoppedMs} ms after the abort`);

    const table = [
      `exports at ${ctx.sims} SIMs (one at a time, each on a server just started; RSS growth = the server's peak during the download over its RSS before; size: bytes sent)`,
      '| export | Accept-Encoding (sent) | rows | first byte | whole download | rows/s | size | server RSS growth |',
      '|---|---|---|---|---|---|---|---|',
      ...rows
        .filter((r) => 'rowsPerSecond' in r)
        .map(
          (r) =>
            `| ${String(r.export)} | ${String(r.acceptEncoding)} (${String(r.encoding)}) | ${Number(r.rows).toLocaleString('en')} | ${String(r.firstByteMs)} ms | ${String(r.ms)} ms | ${Number(r.rowsPerSecond).toLocaleString('en')} | ${mb(Number(r.bytes))} MB | ${String(r.growthMB)} MB |`,
        ),
      `| CSV download abandoned after 1 MB | | | | | | | the export's statements stopped ${stoppedMs} ms after |`,
    ];
    return { name: 'exports', rows, pass: rows.every((r) => r.pass), table };
  } finally {
    await db.end();
  }
}
