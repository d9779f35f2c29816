// Whether the database answers, for /healthz and the health procedure: within a second, whatever the
// pool is doing. On PostgreSQL the check uses its own connection, not a pooled one, so a pool whose
// slots are all busy (or leaked) cannot hang it, and the pool's counts are reported beside it.
import pg from 'pg';
import type { Orm } from './orm.js';

export const HEALTH_TIMEOUT_MS = 1_000;

export type PoolCounts = { total: number; idle: number; waiting: number };
export type DatabaseHealth = { status: 'ok' | 'error'; db: 'ok' | 'down'; pool?: PoolCounts };

type PgPool = { totalCount: number; idleCount: number; waitingCount: number; options: pg.PoolConfig };

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('health check timed out')), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** The pg pool behind MikroORM, or null on PGlite. */
async function pgPool(orm: Orm): Promise<PgPool | null> {
  const client = (await orm.em.getConnection().getNativeClient()) as unknown;
  return client && typeof client === 'object' && 'totalCount' in client ? (client as PgPool) : null;
}

async function postgresAnswers(options: pg.PoolConfig): Promise<boolean> {
  const client = new pg.Client({
    ...options,
    connectionTimeoutMillis: HEALTH_TIMEOUT_MS,
    query_timeout: HEALTH_TIMEOUT_MS,
  });
  client.on('error', () => {}); // a dropped connection is the answer "down", not a crash
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } finally {
    void client.end().catch(() => {});
  }
}

export async function databaseHealth(orm: Orm): Promise<DatabaseHealth> {
  let pool: PgPool | null = null;
  let up: boolean;
  try {
    pool = await withTimeout(pgPool(orm), HEALTH_TIMEOUT_MS);
    up = await withTimeout(
      pool
        ? postgresAnswers(pool.options)
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
