// bench:data's exports: on the 1,000,000-SIM fleet, through HTTP on the built server, one at a time:
// the invoice specification of this month (a row per SIM), the list export as CSV and as XLSX (every SIM). For each:
// the first byte, the whole download, rows per second and the server's RSS growth (its peak while the download
// ran over its RSS just before). Then a CSV download abandoned after its first megabyte: how long until no export
// statement runs in the database. Targets: growth < 100 MB, >= 50,000 rows/s, first byte < 1 s.
import { defined } from '#domain/defined.ts';
import pg from 'pg';
import type { DataPhaseContext, PhaseResult } from './data-phase.ts';
import { firstRow, mb, round, rssOf, sleep } from './lib.ts';

const TARGET = { growthMB: 100, rowsPerSecond: 50_000, firstByteMs: 1_000 };

type Download = { firstByteMs: number; ms: number; bytes: number; lines: number; growthMB: number };

/** One download read to its end: times, bytes, CRLF-ended lines and the server's peak RSS growth. */
async function download(ctx: DataPhaseContext, path: string): Promise<Download> {
  const pid = ctx.server.pid;
  // A settled server first: what the last download left is not this one's growth.
  await sleep(1000);
  const before = rssOf(pid);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 20);
  const t0 = performance.now();
  try {
    const res = await fetch(ctx.server.url + path, { headers: { cookie: ctx.cookie } });
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
    let firstByteMs = 0;
    let bytes = 0;
    let lines = 0;
    const reader = defined(res.body, 'the body of the export').getReader();
    for (;;) {
      const { done, value: chunk } = await reader.read();
      if (done) break;
      if (!firstByteMs) firstByteMs = performance.now() - t0;
      bytes += chunk.length;
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
    }
    const ms = performance.now() - t0;
    peak = Math.max(peak, rssOf(pid));
    return { firstByteMs: round(firstByteMs, 0), ms: round(ms, 0), bytes, lines, growthMB: mb(peak - before) };
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

export async function exportsPhase(ctx: DataPhaseContext): Promise<PhaseResult> {
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
    const runs: Array<[string, string, (d: Download) => number]> = [
      // One row per SIM this month (one 'activated' event each, all active), plus the sheet's header block.
      ['invoice specification, this month (XLSX)', `/api/export/getExcelV1?${month}`, () => sims],
      ['list export, CSV', '/api/sim/export?format=csv', (d) => d.lines - 1],
      ['list export, XLSX', '/api/sim/export?format=xlsx', () => sims],
    ];
    for (const [name, path, rowsOf] of runs) {
      const d = await download(ctx, path);
      const n = rowsOf(d);
      const rowsPerSecond = Math.round(n / (d.ms / 1000));
      const pass =
        d.growthMB < TARGET.growthMB && rowsPerSecond >= TARGET.rowsPerSecond && d.firstByteMs < TARGET.firstByteMs;
      rows.push({ export: name, rows: n, ...d, rowsPerSecond, pass });
      ctx.log(
        `${name}: ${n} rows, first byte ${d.firstByteMs} ms, ${d.ms} ms, ${rowsPerSecond} rows/s, ${mb(d.bytes)} MB, RSS +${d.growthMB} MB${pass ? '' : '  MISSED'}`,
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
      `exports at ${ctx.sims} SIMs (one at a time; RSS growth = the server's peak during the download over its RSS before)`,
      '| export | rows | first byte | whole download | rows/s | size | server RSS growth |',
      '|---|---|---|---|---|---|---|',
      ...rows
        .filter((r) => 'rowsPerSecond' in r)
        .map(
          (r) =>
            `| ${String(r.export)} | ${Number(r.rows).toLocaleString('en')} | ${String(r.firstByteMs)} ms | ${String(r.ms)} ms | ${Number(r.rowsPerSecond).toLocaleString('en')} | ${mb(Number(r.bytes))} MB | ${String(r.growthMB)} MB |`,
        ),
      `| CSV download abandoned after 1 MB | | | | | | the export's statements stopped ${stoppedMs} ms after |`,
    ];
    return { name: 'exports', rows, pass: rows.every((r) => r.pass), table };
  } finally {
    await db.end();
  }
}
