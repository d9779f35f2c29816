// Long: one benchmark run end to end (sessions, streams in client threads, publishing, the latency report).
// Event streams under load (npm run bench:sse), on PostgreSQL. Makes a fresh database on the machine's
// PostgreSQL, seeds N users of Demo AB with a session each, starts the production server (BUILD_DIR=build-bench)
// in its own process and opens N concurrent GET /api/sse streams (one per user, each its own session cookie),
// held for the whole run by BENCH_SSE_CLIENT_THREADS worker threads (bench/sse-clients.ts; 2 unless set), so
// that reading them does not queue behind publishing. Every second a toast is published to every one of those users through the portal's
// own hub (server/events/hub.ts: `hub.publish({ kind: 'toast', userId, toast })`), made in this process on the
// same database: PostgreSQL NOTIFY carries it to the server, as it would from a second instance. Checks that
// every stream received every toast of its user, exactly once, in order; prints the delivery latency (the
// publish time carried in the toast's message to its arrival on its stream, p50/p99; target p99 < 1 s), delivered / expected, and the
// server's memory per connection (RSS growth over idle / connections). Writes bench/results/sse.json.
//
//   BENCH_SSE_CONNECTIONS=1000  BENCH_SSE_SECONDS=60  BENCH_SMOKE=1 (20 connections for 5 s)
//   BENCH_ENFORCE=1 exits 1 when a target is missed.
import { defined } from '#domain/defined.ts';
import { SMOKE } from './env.ts';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import os from 'node:os';
import { ABSOLUTE_TIMEOUT_MS, hashSessionId } from '#server/auth/sessions.ts';
import { Session, User } from '#server/db/entities.ts';
import { createHub, newToast } from '#server/events/hub.ts';
import { initOrm } from '#server/db/orm.ts';
import { createLogger } from '#server/log.ts';
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
  sleep,
  startProcess,
  writeResult,
} from './lib.ts';
import { openStream, wallClock, type ClientsInput, type ClientsMessage, type FinishRequest } from './sse-clients.ts';

const log = logger('sse');
const N = Number(process.env.BENCH_SSE_CONNECTIONS ?? (SMOKE ? 20 : 1000));
const SECONDS = Number(process.env.BENCH_SSE_SECONDS ?? (SMOKE ? 5 : 60));
const OPEN_BATCH = 50;
const TARGET_P99_MS = 1000;

/** Client threads (bench/sse-clients.ts) reading the streams: the publisher keeps this thread to itself. */
const CLIENT_THREADS = Math.max(1, Number(process.env.BENCH_SSE_CLIENT_THREADS ?? 2));

/** CPU seconds (user + system) a process has used, from /proc (clock ticks of 1/100 s). */
function cpuSecondsOf(pid: number): number {
  const fields = (readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1] ?? '').split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}
const ownCpuSeconds = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

/** A worker thread holding a share of the streams; `result()` asks for what its streams received and closes them. */
async function startClients(input: ClientsInput) {
  const worker = new Worker(new URL('./sse-clients.ts', import.meta.url), { workerData: input });
  const next = () =>
    new Promise<ClientsMessage>((resolve, reject) => {
      const onError = (err: Error) => reject(err);
      worker.once('error', onError);
      worker.once('message', (m: ClientsMessage) => {
        worker.off('error', onError);
        resolve(m);
      });
    });
  const opened = await next();
  if (opened.type !== 'open' || opened.error) {
    await worker.terminate();
    throw new Error(`client thread: ${opened.type === 'open' ? opened.error : 'no streams'}`);
  }
  return {
    openMs: opened.ms,
    /** Waits (at most timeoutMs) for every stream to have `toasts` toasts, then reports. */
    async result(request: FinishRequest) {
      const answer = next();
      worker.postMessage(request);
      const r = await answer;
      await worker.terminate();
      if (r.type !== 'result') throw new Error('client thread: no result');
      return r;
    },
    stop: () => worker.terminate(),
  };
}

async function main() {
  const { dataDir, pg, cleanup } = await benchOnPostgres('sse', log);
  let server: Awaited<ReturnType<typeof startProcess>> | null = null;
  const clients: Array<Awaited<ReturnType<typeof startClients>>> = [];
  let publisher: Awaited<ReturnType<typeof initOrm>> | null = null;
  let hub: Awaited<ReturnType<typeof createHub>> | null = null;
  try {
    let t = performance.now();
    const seeded = await seedDatabase(pg.target, 0);
    const em = seeded.orm.em.fork();
    await em.execute(
      `insert into app_user (name, email, company_id, role, is_super_admin, created_at)
       select 'Ström ' || g, 'sse' || g || '@bench.se', ?, 'member', false, now() from generate_series(1, ?) g`,
      [seeded.demoCompanyId, N],
    );
    const users = await em.find(User, { email: { $like: 'sse%@bench.se' } }, { orderBy: { id: 'asc' } });
    // One session row per user, as createSession makes them, written in one flush.
    const cookies: string[] = [];
    const now = new Date();
    for (const u of users) {
      const raw = randomBytes(32).toString('base64url');
      em.create(Session, {
        id: hashSessionId(raw),
        user: u,
        actingCompany: null,
        createdAt: now,
        lastSeenAt: now,
        expiresAt: new Date(now.getTime() + ABSOLUTE_TIMEOUT_MS),
      });
      cookies.push(`sim_session=${raw}`);
    }
    await em.flush();
    await seeded.orm.close(true);
    log(`${N} users with a session each seeded into PostgreSQL in ${Math.round(performance.now() - t)} ms`);

    server = await startProcess(serverEnv(pg.target, dataDir), { name: 'the portal' });
    const { pid, url } = server;
    const cookieOf = (i: number) => defined(cookies[i], `the session cookie of user ${i}`);
    // Warm-up: a page and one stream opened and closed, then the idle RSS.
    await fetch(`${url}/`, { headers: { cookie: cookieOf(0) } });
    const warm = await openStream(url, cookieOf(0), defined(users[0], 'a user').id, () => {});
    warm.req.destroy();
    await sleep(1000);
    const idleRss = rssOf(pid);

    // The streams, dealt round to the client threads, which open their shares side by side.
    t = performance.now();
    const shares = Array.from({ length: CLIENT_THREADS }, (_, k) =>
      users.flatMap((u, i) => (i % CLIENT_THREADS === k ? [{ userId: u.id, cookie: cookieOf(i) }] : [])),
    );
    const started = await Promise.allSettled(
      shares.map((share) => startClients({ url, streams: share, openBatch: OPEN_BATCH })),
    );
    for (const r of started) if (r.status === 'fulfilled') clients.push(r.value);
    const failed = started.find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
    const openMs = Math.round(performance.now() - t);
    await sleep(1000);
    const connectedRss = rssOf(pid);
    log(
      `${N} streams open in ${openMs} ms (${CLIENT_THREADS} client threads); server RSS ${mb(idleRss)} MB idle, ${mb(connectedRss)} MB with the streams`,
    );

    // The publisher: the portal's hub on the same database, in this process.
    publisher = await initOrm(pg.target);
    const liveHub = await createHub(publisher, { databaseUrl: pg.target.url, log: createLogger('warn') });
    hub = liveHub;
    const expected = new Map<number, string[]>(users.map((u) => [u.id, []]));
    let peakRss = connectedRss;
    const publishMs: number[] = [];
    const notified: number[] = [];
    const cpu0 = { server: cpuSecondsOf(pid), bench: ownCpuSeconds() };
    const startedAt = performance.now();
    for (let second = 0; second < SECONDS; second++) {
      const tick = performance.now();
      await Promise.all(
        users.map((u) => {
          // The publish time ends the message: the client threads measure the latency from it.
          const t0 = wallClock();
          const toast = newToast('info', 'Benchmark', `Sekund ${second + 1} ${t0}`);
          expected.get(u.id)?.push(toast.id);
          // When its NOTIFY statement is done: the part of the latency before the server gets the toast.
          return liveHub.publish({ kind: 'toast', userId: u.id, toast }).then(() => notified.push(wallClock() - t0));
        }),
      );
      publishMs.push(performance.now() - tick);
      peakRss = Math.max(peakRss, rssOf(pid));
      const next = startedAt + (second + 1) * 1000;
      if (next > performance.now()) await sleep(next - performance.now());
    }
    // Let the last toasts arrive (at most 10 s), then collect what every stream received.
    const total = N * SECONDS;
    const results = await Promise.all(clients.splice(0).map((c) => c.result({ toasts: SECONDS, timeoutMs: 10_000 })));
    const heldSeconds = round((performance.now() - startedAt) / 1000, 1);
    const streams = results.flatMap((r) => r.streams);
    const receivedCount = () => streams.reduce((s, x) => s + x.received.length, 0);
    // Who was busy: the server (fan-out and socket writes) or this process (publishing and reading every stream).
    const cpu = {
      serverSeconds: round(cpuSecondsOf(pid) - cpu0.server, 1),
      benchSeconds: round(ownCpuSeconds() - cpu0.bench, 1),
    };
    const endRss = rssOf(pid);
    peakRss = Math.max(peakRss, endRss);

    let complete = 0;
    let outOfOrder = 0;
    let missing = 0;
    let duplicates = 0;
    let foreign = 0;
    let closedEarly = 0;
    for (const s of streams) {
      const want = expected.get(s.userId) ?? [];
      const got = new Set(s.received);
      duplicates += s.received.length - got.size;
      const wantSet = new Set(want);
      foreign += [...got].filter((id) => !wantSet.has(id)).length;
      const miss = want.filter((id) => !got.has(id)).length;
      missing += miss;
      if (s.closed) closedEarly++;
      if (miss === 0 && got.size === want.length) complete++;
      // In order: the toasts received are a subsequence of those published, in the same order.
      const position = new Map(want.map((id, i) => [id, i]));
      let last = -1;
      for (const id of s.received) {
        const at = position.get(id) ?? -1;
        if (at >= 0 && at < last) outOfOrder++;
        last = Math.max(last, at);
      }
    }
    const perConnKB = round((connectedRss - idleRss) / N / 1024, 1);
    const perConnPeakKB = round((peakRss - idleRss) / N / 1024, 1);
    // Every delivery's latency, sorted (a typed array sorts numerically).
    const sorted = new Float64Array(results.reduce((n, r) => n + r.latencies.length, 0));
    results.reduce((at, r) => (sorted.set(r.latencies, at), at + r.latencies.length), 0);
    sorted.sort();
    const pct = (p: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0);
    const notifiedSorted = Float64Array.from(notified).sort();
    const notifiedMs = {
      p50: Math.round(notifiedSorted[Math.floor(notifiedSorted.length * 0.5)] ?? 0),
      p99: Math.round(notifiedSorted[Math.floor(notifiedSorted.length * 0.99)] ?? 0),
    };
    const latency = { p50: pct(0.5), p99: pct(0.99), max: Math.round(sorted[sorted.length - 1] ?? 0) };
    const pass =
      complete === N &&
      missing === 0 &&
      duplicates === 0 &&
      foreign === 0 &&
      outOfOrder === 0 &&
      closedEarly === 0 &&
      latency.p99 < TARGET_P99_MS;
    const result = {
      date: new Date().toISOString(),
      machine: machine(),
      smoke: SMOKE,
      database: 'postgres',
      connections: N,
      clientThreads: CLIENT_THREADS,
      seconds: SECONDS,
      heldSeconds,
      publishing:
        'one toast per user per second through server/events/hub.ts publish (batched PostgreSQL NOTIFY) from the bench process',
      toastsPublished: total,
      toastsReceived: receivedCount(),
      streamsComplete: complete,
      missing,
      duplicates,
      foreign,
      outOfOrder,
      closedEarly,
      deliveryLatencyMs: latency,
      cpu,
      openAllMs: openMs,
      notifyDoneMs: notifiedMs,
      publishMsPerSecond: {
        median: Math.round([...publishMs].sort((a, b) => a - b)[Math.floor(publishMs.length / 2)] ?? 0),
        max: Math.round(Math.max(...publishMs)),
      },
      serverRss: { idleMB: mb(idleRss), connectedMB: mb(connectedRss), peakMB: mb(peakRss), endMB: mb(endRss) },
      memoryPerConnectionKB: { connected: perConnKB, peak: perConnPeakKB },
      pass,
    };
    const file = writeResult('sse', result);
    console.log(
      [
        '',
        `event streams: ${N} concurrent GET /api/sse (one user and session each), held ${heldSeconds} s, a toast per user every second (PostgreSQL)${SMOKE ? ' (smoke)' : ''}`,
        `  toasts delivered / expected : ${result.toastsReceived} / ${total}`,
        `  streams with every toast    : ${complete} of ${N} (missing ${missing}, duplicates ${duplicates}, foreign ${foreign}, out of order ${outOfOrder}, closed early ${closedEarly})`,
        `  delivery latency            : p50 ${latency.p50} ms, p99 ${latency.p99} ms (target < ${TARGET_P99_MS}), max ${latency.max} ms`,
        `  opening all streams         : ${openMs} ms (${CLIENT_THREADS} client threads, batches of ${OPEN_BATCH} each)`,
        `  NOTIFY statement done       : p50 ${notifiedMs.p50} ms, p99 ${notifiedMs.p99} ms after publish (in the latency above)`,
        `  publishing one round        : median ${result.publishMsPerSecond.median} ms, max ${result.publishMsPerSecond.max} ms`,
        `  server RSS                  : ${mb(idleRss)} MB idle, ${mb(connectedRss)} MB connected, ${mb(peakRss)} MB peak, ${mb(endRss)} MB at the end`,
        `  memory per connection       : ${perConnKB} kB (RSS growth on connecting / connections), ${perConnPeakKB} kB at peak`,
        `  CPU used while publishing   : server ${cpu.serverSeconds} s, bench process (publisher and clients) ${cpu.benchSeconds} s, over ${heldSeconds} s`,
        `  load average (1, 5, 15 min) : ${os
          .loadavg()
          .map((l) => round(l, 1))
          .join(', ')}`,
        `  ${pass ? 'PASS' : 'FAIL'}  -> ${file}`,
      ].join('\n'),
    );
    return result;
  } finally {
    await Promise.all(clients.map((c) => c.stop()));
    await hub?.close();
    await publisher?.close(true);
    await server?.stop();
    await cleanup();
  }
}

runBenchmark(main);
