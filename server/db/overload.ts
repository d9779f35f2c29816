// Overload (docs/decisions/021): when PostgreSQL cannot keep up, a request is refused at once with 503 and Retry-After
// rather than queued behind a hundred others until its acquire timeout (5 s), and a search whose client went
// away, or that runs past its statement timeout, is cancelled in the database rather than run for nobody.
// PostgreSQL only: embedded PGlite is one in-process connection with no pool and no other backend to cancel from.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { poolRefusals } from '#server/metrics.ts';

/**
 * The longest a request waits in the queue for a pooled connection before it is refused (503, Retry-After): what a
 * person would rather learn at once than after the acquire timeout. A burst the pool serves in time (fifty people's
 * requests of a few milliseconds each) waits a few tens of milliseconds.
 */
export const QUEUE_WAIT_MS = 750;
/**
 * When the queue is not draining: its oldest request has waited this long. New requests are then refused at once
 * rather than queued behind it; a database that cannot keep up soon gets there.
 */
export const QUEUE_STALLED_MS = 500;
/** However it drains, no more than this many requests wait for a connection (a multiple of the pool's size). */
export const POOL_QUEUE_FACTOR = 20;
/** How long one statement of a search may run, unless told (SEARCH_TIMEOUT_MS; `SET LOCAL statement_timeout`). */
export const SEARCH_STATEMENT_TIMEOUT_MS = 5_000;

/** No pooled connection now and too many already waiting: answered 503 (db/errors.ts knows its code). */
export class PoolSaturated extends Error {
  readonly code = 'POOL_SATURATED';
  constructor(
    /** At once: the queue stalled or full; or after waiting QUEUE_WAIT_MS (counted by reason in /metrics). */
    readonly reason: 'stalled' | 'full' | 'waited',
  ) {
    super('the connection pool is saturated');
    this.name = 'PoolSaturated';
    poolRefusals.inc({ reason });
  }
}

/** A search not started because its client had gone (the code of PostgreSQL's own cancel: query_canceled). */
export class SearchAbandoned extends Error {
  readonly code = '57014';
  constructor() {
    super('the client went away before the search ran');
    this.name = 'SearchAbandoned';
  }
}

type ConnectCallback = (err: Error | undefined, client?: pg.PoolClient, release?: () => void) => void;

/**
 * Makes the pool refuse a connection at once, instead of queueing it, while its queue is stalled (its oldest request
 * has waited QUEUE_STALLED_MS, or a request gave up waiting and every connection is still taken) or full
 * (`maxWaiting`), and a request that has waited QUEUE_WAIT_MS give up (the
 * connection it was waiting for goes back to the pool when it comes). Every refusal comes within QUEUE_WAIT_MS,
 * never at the acquire timeout. `pool.query` and MikroORM both take connections through here.
 */
export function shedLoad(
  pool: pg.Pool,
  maxWaiting: number,
  limits: { stalledMs: number; waitMs: number } = { stalledMs: QUEUE_STALLED_MS, waitMs: QUEUE_WAIT_MS },
): void {
  const connect = pool.connect.bind(pool) as (cb: ConnectCallback) => void;
  // When each request now waiting began to wait, oldest first (a Set keeps the order of insertion).
  const waiting = new Set<{ since: number }>();
  // A request gave up waiting and no connection has been handed out since: the queue is still stalled even when it
  // is empty again (its waiting requests all gave up), so a new request is refused at once, not after its own wait.
  let stalled = false;
  const max = pool.options.max ?? 10;
  /** A connection for `cb`, or a PoolSaturated error: at once, or when the wait is over. */
  const take = (cb: ConnectCallback) => {
    const now = performance.now();
    if (stalled && pool.idleCount === 0 && pool.totalCount >= max) {
      process.nextTick(() => cb(new PoolSaturated('stalled')));
      return;
    }
    if (pool.waitingCount > 0) {
      const oldest = waiting.values().next().value;
      const full = pool.waitingCount >= maxWaiting;
      if (full || (oldest && now - oldest.since >= limits.stalledMs)) {
        process.nextTick(() => cb(new PoolSaturated(full ? 'full' : 'stalled')));
        return;
      }
    }
    const entry = { since: now };
    waiting.add(entry);
    let settled = false;
    const timer = setTimeout(() => {
      settled = true;
      stalled = true;
      waiting.delete(entry);
      cb(new PoolSaturated('waited'));
    }, limits.waitMs);
    connect((err, client, release) => {
      if (settled) {
        // Given up already: the connection goes back to the pool for the next in the queue (which drains again).
        if (client) stalled = false;
        release?.();
        return;
      }
      settled = true;
      clearTimeout(timer);
      waiting.delete(entry);
      if (client) stalled = false;
      cb(err, client, release);
    });
  };
  pool.connect = ((cb?: ConnectCallback) => {
    if (cb) return void take(cb);
    return new Promise<pg.PoolClient>((resolve, reject) =>
      take((err, client) =>
        err || !client ? reject(err ?? new Error('The pool gave neither a client nor an error')) : resolve(client),
      ),
    );
  }) as typeof pool.connect;
}

/** One connection per pool outside it, for cancelling: a saturated pool must not hold up the cancel. */
const controls = new WeakMap<pg.Pool, Promise<pg.Client>>();

function controlClient(pool: pg.Pool): Promise<pg.Client> {
  let client = controls.get(pool);
  if (!client) {
    const c = new pg.Client({ ...pool.options, application_name: 'sim-portal control' });
    // A lost control connection is made anew at the next cancel.
    c.on('error', () => controls.delete(pool));
    c.on('end', () => controls.delete(pool));
    client = c.connect().then(() => c);
    client.catch(() => controls.delete(pool));
    controls.set(pool, client);
  }
  return client;
}

/** Ends the control connection of a pool (at shutdown, before the pool). */
export async function closeControl(pool: pg.Pool): Promise<void> {
  const client = controls.get(pool);
  controls.delete(pool);
  await client?.then((c) => c.end()).catch(() => {});
}

/** What of an entity manager this module uses (typed here, so it imports nothing of db/orm.ts). */
type WithConnection = { getConnection(): { getNativeClient(): unknown } };

/** The pg pool behind an entity manager (PostgreSQL), or null (PGlite). */
async function poolOf(em: WithConnection): Promise<pg.Pool | null> {
  const native = await em.getConnection().getNativeClient();
  return native && typeof native === 'object' && 'totalCount' in native ? (native as pg.Pool) : null;
}

/**
 * The first statement of a search's transaction: a statement timeout, and a name of its own
 * (`application_name`, local to the transaction, so it names the backend only while this search runs there).
 */
export function searchTag(timeoutMs = SEARCH_STATEMENT_TIMEOUT_MS): { tag: string; sql: string; params: unknown[] } {
  const tag = `sim-portal search ${randomUUID()}`;
  return {
    tag,
    sql: `select set_config('application_name', ?, true), set_config('statement_timeout', ?, true)`,
    params: [tag, `${Math.trunc(timeoutMs)}ms`],
  };
}

/**
 * Runs `work` (a search's transaction, tagged by `tag`) and cancels its statement in the database when `signal`
 * aborts (the client went away). Only a backend whose application_name is still this tag is cancelled: once the
 * transaction ends the name reverts, so another request's statement on that connection is never hit.
 */
export async function cancelledOnAbort<T>(
  em: WithConnection,
  signal: AbortSignal | undefined,
  tag: string,
  work: () => Promise<T>,
): Promise<T> {
  if (!signal) return work();
  if (signal.aborted) throw new SearchAbandoned();
  const pool = await poolOf(em);
  if (!pool) return work();
  const cancel = () => {
    controlClient(pool)
      .then((c) =>
        c.query(
          `select pg_cancel_backend(pid) from pg_stat_activity
            where application_name = $1 and datname = current_database()`,
          [tag],
        ),
      )
      .catch(() => {}); // best effort: the statement timeout ends it anyway
  };
  signal.addEventListener('abort', cancel, { once: true });
  try {
    return await work();
  } finally {
    signal.removeEventListener('abort', cancel);
  }
}
