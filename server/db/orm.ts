// Opens the database through MikroORM: PostgreSQL when DATABASE_URL is set, else embedded PGlite.
// Both use the same PostgreSQL SQL stack, so one set of migrations serves both.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Migrator } from '@mikro-orm/migrations';
import { MikroORM as PgliteORM, type PgliteDriver } from '@mikro-orm/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { MikroORM as PostgresORM, type PostgreSqlDriver } from '@mikro-orm/postgresql';
import type { Options } from '@mikro-orm/core';
import type pg from 'pg';
import { migrationsList } from '#migrations/index.ts';
import { entities } from './entities.ts';
import { usePreparedStatements } from './prepared.ts';
import { closeControl, POOL_QUEUE_FACTOR, shedLoad } from './overload.ts';
import type { Orm } from './entity-manager.ts';

// Declared in entity-manager.ts (prepared.ts needs them too); most modules take them from here.
export type { Em, Orm } from './entity-manager.ts';

/**
 * `prepare`: the hot reads as named prepared statements (server/db/prepared.ts); default true. `acquireTimeoutMs`:
 * how long a request waits for a pooled connection (default POOL_ACQUIRE_TIMEOUT_MS). PGlite's `dataDir` is a folder,
 * or 'memory://'; `loadDataDir` starts it from a cluster dumped by PGlite's dumpDataDir (PGlite's own option) instead
 * of a new initdb, which is most of an empty database's start (the tests' fresh databases, tests/helpers/scratch-db.ts).
 */
export type DbTarget =
  | { kind: 'postgres'; url: string; prepare?: boolean; acquireTimeoutMs?: number }
  | { kind: 'pglite'; dataDir: string; loadDataDir?: Blob };

export function dbTargetFrom(config: {
  databaseUrl?: string;
  preparedStatements?: boolean;
  acquireTimeoutMs?: number;
  dataDir: string;
}): DbTarget {
  if (config.databaseUrl)
    return {
      kind: 'postgres',
      url: config.databaseUrl,
      prepare: config.preparedStatements ?? true,
      acquireTimeoutMs: config.acquireTimeoutMs,
    };
  return { kind: 'pglite', dataDir: path.join(config.dataDir, 'pglite') };
}

export const POOL_MAX = 10;
/** How long a request waits for a pooled connection (or a new one) before it is answered 503. */
export const POOL_ACQUIRE_TIMEOUT_MS = 5_000;

export const migrationsPath = path.resolve(import.meta.dirname, '../../prisma-free-migrations');

/** What both databases share; `satisfies` keeps its own type, so each driver's init infers its own ORM. */
const commonOptions = {
  entities,
  extensions: [Migrator],
  debug: false,
  // Services fork the entity manager per request; the global one is never used for data.
  allowGlobalContext: false,
  forceUtcTimezone: true,
  // The database's functions are the migrations' (sim_history: a SIM's history with its planner settings, decision
  // 020); the entities declare none, so the schema diff must not count them as ones to drop.
  schemaGenerator: { ignoreRoutines: true },
  migrations: {
    tableName: 'mikro_orm_migrations',
    path: migrationsPath,
    pathTs: migrationsPath,
    glob: 'Migration*.{js,ts}',
    migrationsList,
    snapshot: false,
    snapshotOnMigrate: false,
    snapshotName: '.snapshot-sim-portal',
    emit: 'ts',
    silent: true,
  },
} satisfies Partial<Options>;

/** Opens the target's database through its own driver (the other's driver is never loaded into the ORM). */
async function openOrm(target: DbTarget): Promise<Orm> {
  if (target.kind === 'postgres') {
    return PostgresORM.init<PostgreSqlDriver>({
      ...commonOptions,
      clientUrl: target.url,
      pool: { min: 0, max: POOL_MAX, idleTimeoutMillis: 30_000 },
      driverOptions: {
        // pg-pool applies this both to opening a connection and to waiting for a free one: a request
        // never waits for ever (it gets 503, see db/errors.ts), whatever holds the slots.
        connectionTimeoutMillis: target.acquireTimeoutMs ?? POOL_ACQUIRE_TIMEOUT_MS,
        keepAlive: true,
        // A transaction left open by a stuck request cannot hold its row locks and slot for ever.
        idle_in_transaction_session_timeout: 60_000,
      },
    });
  }
  if (target.dataDir !== 'memory://') mkdirSync(target.dataDir, { recursive: true });
  // pg_trgm for the search's indexes (PGlite ships it as a contrib extension; PostgreSQL has it in contrib).
  return PgliteORM.init<PgliteDriver>({
    ...commonOptions,
    dbName: target.dataDir,
    driverOptions: {
      extensions: { pg_trgm },
      ...(target.loadDataDir ? { loadDataDir: copied(target.loadDataDir) } : {}),
    },
  });
}

/**
 * A Blob that survives MikroORM's copy of its options: the copy keeps a Blob's prototype but not its data, and PGlite
 * then fails with "Illegal invocation". PGlite reads a tarball's bytes (arrayBuffer) and its type, nothing else.
 */
function copied(blob: Blob): Pick<Blob, 'arrayBuffer' | 'type'> {
  return { arrayBuffer: () => blob.arrayBuffer(), type: blob.type };
}

export async function initOrm(target: DbTarget): Promise<Orm> {
  const orm = await openOrm(target);
  const pool = target.kind === 'postgres' ? await pgPoolOf(orm) : null;
  if (pool) {
    if (target.kind === 'postgres' && target.prepare !== false) usePreparedStatements(orm, pool);
    shedLoad(pool, POOL_MAX * POOL_QUEUE_FACTOR);
    // The cancelling connection (db/overload.ts) goes with the pool.
    const close = orm.close.bind(orm);
    orm.close = async (force?: boolean) => {
      await closeControl(pool);
      return close(force);
    };
  }
  return orm;
}

/** The pg pool behind MikroORM, or null on PGlite (one in-process connection). */
export async function pgPoolOf(orm: Orm): Promise<pg.Pool | null> {
  const native = await orm.em.getConnection().getNativeClient();
  return native && typeof native === 'object' && 'totalCount' in native ? (native as pg.Pool) : null;
}

export async function migrate(orm: Orm): Promise<string[]> {
  const done = await orm.migrator.up();
  return done.map((m) => m.name);
}
