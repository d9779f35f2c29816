// bench:data's overload: 100 searchers at once on the 1,000,000-SIM fleet, back to back, more than the
// database can answer: searches of every kind through the API and the /sims page, a fifth of them given up by their
// client after 300 ms; a third of the way in, the database stalls for 3 s (`sim` locked from another connection). What must hold: no 500; the refusals (503 with Retry-After) come fast (p99 < 1 s); no search
// is left running for a client that went away; and afterwards the portal serves a person's pace normally within
// seconds (the first 2-second window whose p95 is under 100 ms).
import { defined } from '#domain/defined.ts';
import pg from 'pg';
import { fleetIccid } from './fleet.ts';
import { stats, type DataPhaseContext, type PhaseResult } from './data-phase.ts';
import { firstRow, round, sleep } from './lib.ts';

const SEARCHERS = Number(process.env.BENCH_OVERLOAD_USERS ?? 100);
/** How long the database stalls in the middle of the run. */
const STALL_MS = 3_000;
const TARGET = { refusalP99Ms: 1000, recoveredWithinMs: 10_000, normalP95Ms: 100 };

export async function overloadPhase(ctx: DataPhaseContext): Promise<PhaseResult> {
  const seconds = ctx.smoke ? 2 : Math.max(10, ctx.seconds * 4);
  const searchers = ctx.smoke ? 30 : SEARCHERS;
  const queries = [
    () => fleetIccid(Math.floor(Math.random() * ctx.sims) + 1).slice(-8),
    () => fleetIccid(Math.floor(Math.random() * ctx.sims) + 1).slice(-4),
    () => fleetIccid(Math.floor(Math.random() * ctx.sims) + 1).slice(8, 14),
    () => `Kassa ${Math.floor(Math.random() * 5000)}`,
    () => 'Avtal',
    () => 'xyzzy-ingen',
    () => 'Data 5 GB',
  ];
  const statuses = new Map<number, number>();
  const lat = { ok: [] as number[], refused: [] as number[], other: [] as number[] };
  let abandoned = 0;
  let refusedWithoutRetryAfter = 0;
  const until = performance.now() + seconds * 1000;
  // A third of the way in, the database stalls for 3 s (another connection holds `sim` locked, as a long
  // maintenance statement would): the queue stops draining, and what cannot be served must be refused fast.
  const stall = (async () => {
    await sleep((seconds * 1000) / 3);
    const locker = new pg.Client({ connectionString: ctx.dbUrl });
    await locker.connect();
    try {
      await locker.query('begin');
      await locker.query('lock table sim in access exclusive mode');
      await sleep(STALL_MS);
      await locker.query('rollback');
    } finally {
      await locker.end();
    }
  })();
  await Promise.all(
    Array.from({ length: searchers }, async (_, u) => {
      for (let i = 0; performance.now() < until; i++) {
        const q = defined(queries[(u + i) % queries.length], 'a search')();
        const page = i % 2 === 0;
        const url = page ? `/sims?q=${encodeURIComponent(q)}` : `/api/sim/all?limit=50&q=${encodeURIComponent(q)}`;
        const giveUp = (u + i) % 5 === 0;
        const t = performance.now();
        try {
          const res = await fetch(ctx.server.url + url, {
            headers: { cookie: ctx.cookie },
            signal: giveUp ? AbortSignal.timeout(300) : AbortSignal.timeout(30_000),
          });
          await res.arrayBuffer();
          const ms = performance.now() - t;
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          if (res.status === 200) lat.ok.push(ms);
          else if (res.status === 503) {
            lat.refused.push(ms);
            if (!res.headers.get('retry-after')) refusedWithoutRetryAfter++;
          } else lat.other.push(ms);
        } catch {
          abandoned++;
        }
      }
    }),
  );
  await stall;
  // No search left running for a client that went away (each is tagged: server/db/overload.ts).
  const db = new pg.Client({ connectionString: ctx.dbUrl });
  await db.connect();
  let leftRunning = 0;
  try {
    await sleep(500);
    leftRunning = firstRow(
      (
        await db.query<{ n: number }>(
          `select count(*)::int as n from pg_stat_activity where application_name like 'sim-portal search %'`,
        )
      ).rows,
    ).n;
  } finally {
    await db.end();
  }

  // Recovery: 20 people at their pace, in 2-second windows, until a window's p95 is normal.
  const t0 = performance.now();
  let recoveredMs = NaN;
  const windows: Array<{ p50: number; p95: number; errors: number }> = [];
  while (performance.now() - t0 < 30_000) {
    const w = await ctx.load(
      async () => {
        const res = await fetch(`${ctx.server.url}/api/sim/all?limit=50&q=${fleetIccid(7).slice(-6)}`, {
          headers: { cookie: ctx.cookie },
        });
        await res.arrayBuffer();
        return res.status === 200;
      },
      { seconds: 2, thinkMs: ctx.thinkMs },
    );
    windows.push({ p50: w.p50, p95: w.p95, errors: w.errors });
    if (w.p95 < TARGET.normalP95Ms && w.errors === 0) {
      recoveredMs = round(performance.now() - t0, 0);
      break;
    }
  }

  const ok = stats(lat.ok, 0);
  const refused = stats(lat.refused, 0);
  const fivehundreds = [...statuses].filter(([s]) => s >= 500 && s !== 503).reduce((n, [, c]) => n + c, 0);
  const pass =
    fivehundreds === 0 &&
    lat.other.length === 0 &&
    refusedWithoutRetryAfter === 0 &&
    (lat.refused.length === 0 || refused.p99 < TARGET.refusalP99Ms) &&
    leftRunning === 0 &&
    recoveredMs <= TARGET.recoveredWithinMs;
  const row = {
    searchers,
    seconds,
    statuses: Object.fromEntries(statuses),
    abandonedByClient: abandoned,
    served: ok,
    refused,
    otherStatuses: lat.other.length,
    refusedWithoutRetryAfter,
    searchesLeftRunning: leftRunning,
    recoveryWindows: windows,
    recoveredWithinMs: recoveredMs,
    pass,
  };
  ctx.log(
    `overload: ${searchers} searchers for ${seconds} s: ${JSON.stringify(row.statuses)}, ${abandoned} given up by their client; served p50 ${ok.p50} p95 ${ok.p95}; refused p50 ${refused.p50} p99 ${refused.p99} ms; left running ${leftRunning}; normal again after ${recoveredMs} ms${pass ? '' : '  MISSED'}`,
  );
  const table = [
    `overload: ${searchers} searchers back to back for ${seconds} s at ${ctx.sims} SIMs (a fifth give up after 300 ms; the database stalled for ${STALL_MS / 1000} s a third of the way in); then 20 people at their pace`,
    '| answers | served p50 / p95 | refused (503) p50 / p99 | 500s | searches left running | normal again (p95 < 100 ms) after |',
    '|---|---|---|---|---|---|',
    `| ${[...statuses].map(([s, c]) => `${s}: ${c}`).join(', ')}; ${abandoned} given up | ${ok.p50} / ${ok.p95} ms | ${refused.p50} / ${refused.p99} ms | ${fivehundreds} | ${leftRunning} | ${recoveredMs} ms |`,
  ];
  return { name: 'overload', rows: [row], pass, table };
}
