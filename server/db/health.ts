// Whether the database answers, for /healthz, /readyz and the health procedure: within a second, whatever the
// pool is doing. /readyz also asks whether every migration this build knows has been applied. On PostgreSQL the check
// uses its own connection, not a pooled one, so a pool whose slots are all busy (or leaked) cannot hang it, and the
// pool's counts are reported beside it. One check of each kind runs at a time: a probe that asks while one runs gets
// its answer, so a flood of probes (they need no sign-in) opens one connection at a time, not one each, and cannot
// take PostgreSQL's max_connections from the pools (tests/api/probes.test.ts).
import pg from 'pg';
import { migrationsList } from '#migrations/index.ts';
import { pgPoolOf, type Orm } from './orm.ts';

export const HEALTH_TIMEOUT_MS = 1_000;

export type PoolCounts = { total: number; idle: number; waiting: number };
export type DatabaseHealth = { status: 'ok' | 'error'; db: 'ok' | 'down'; pool?: PoolCounts };
/** /readyz: ready to take traffic (the database answers and its schema is this build's). */
export type Readiness = { status: 'ok' | 'error'; db: 'ok' | 'down'; migrations: 'ok' | 'pending' | 'unknown' };

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('health check timed out')), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** Runs a query on a connection of its own (never a pooled one), within the health timeout. */
async function ownConnectionQuery(options: pg.PoolConfig, sql: string): Promise<Array<Record<string, unknown>>> {
  const client = new pg.Client({
    ...options,
    connectionTimeoutMillis: HEALTH_TIMEOUT_MS,
    query_timeout: HEALTH_TIMEOUT_MS,
  });
  client.on('error', () => {}); // a dropped connection is the answer "down", not a crash
  try {
    await client.connect();
    return (await client.query(sql)).rows as Array<Record<string, unknown>>;
  } finally {
    void client.end().catch(() => {});
  }
}

/**
 * The check, one at a time per database: a caller while it runs shares its answer (a check begun at most its
 * timeout, a second, before the caller asked); the first caller after it starts a new one.
 */
function oneAtATime<T>(check: (orm: Orm) => Promise<T>): (orm: Orm) => Promise<T> {
  const running = new WeakMap<Orm, Promise<T>>();
  return (orm) => {
    const current = running.get(orm);
    if (current) return current;
    const started = check(orm).finally(() => running.delete(orm));
    running.set(orm, started);
    return started;
  };
}

export const databaseHealth = oneAtATime(checkHealth);

async function checkHealth(orm: Orm): Promise<DatabaseHealth> {
  let pool: pg.Pool | null = null;
  let up: boolean;
  try {
    pool = await withTimeout(pgPoolOf(orm), HEALTH_TIMEOUT_MS);
    up = await withTimeout(
      pool
        ? ownConnectionQuery(pool.options, 'select 1').then(() => true)
        : orm.em
            .getConnection()
            .execute('select 1')
            .then(() => true),
      HEALTH_TIMEOUT_MS,
    );
  } catch {
    up = false;
  }
  return {
    status: up ? 'ok' : 'error',
    db: up ? 'ok' : 'down',
    ...(pool ? { pool: { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount } } : {}),
  };
}

export async function databaseIsUp(orm: Orm): Promise<boolean> {
  return (await databaseHealth(orm)).db === 'ok';
}

const APPLIED_SQL = 'select name from mikro_orm_migrations';

/** Whether the database answers and has every migration of this build applied (an older schema is not ready). */
export const databaseReadiness = oneAtATime(checkReadiness);

async function checkReadiness(orm: Orm): Promise<Readiness> {
  let rows: Array<Record<string, unknown>>;
  try {
    const pool = await withTimeout(pgPoolOf(orm), HEALTH_TIMEOUT_MS);
    rows = await withTimeout(
      pool
        ? ownConnectionQuery(pool.options, APPLIED_SQL)
        : orm.em.getConnection().execute<Array<Record<string, unknown>>>(APPLIED_SQL),
      HEALTH_TIMEOUT_MS,
    );
  } catch (err) {
    // No migrations table yet is an answering database without its schema; anything else: down.
    const missingTable = (err as { code?: unknown } | null)?.code === '42P01';
    return { status: 'error', db: missingTable ? 'ok' : 'down', migrations: missingTable ? 'pending' : 'unknown' };
  }
  const applied = new Set(rows.map((r) => String(r.name).replace(/\.[jt]s$/, '')));
  const pending = migrationsList.some((m) => !applied.has(m.name));
  return { status: pending ? 'error' : 'ok', db: 'ok', migrations: pending ? 'pending' : 'ok' };
}
