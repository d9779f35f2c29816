// Scratch databases for tests and benchmarks (never used by the running portal): PGlite in memory by
// default, a new PostgreSQL database when DATABASE_URL is set (created here, dropped by the cleanup).
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import type { DbTarget } from '#server/db/orm.ts';
import { PGLITE_TEMPLATE_ENV } from './pglite-template.ts';

export const usingPostgres = !!process.env.DATABASE_URL;

/** A new, empty PostgreSQL database on the server of baseUrl, named <prefix>_<time>_<random>; drop() removes it. */
export async function scratchPostgres(
  baseUrl: string,
  prefix: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: baseUrl });
      await c.connect();
      await c.query(`drop database if exists "${name}" with (force)`);
      await c.end();
    },
  };
}

// The run's empty PGlite cluster (tests/helpers/pglite-template.ts), read once per test file's process.
let pgliteTemplate: Blob | undefined;
function emptyPglite(): Blob | undefined {
  const file = process.env[PGLITE_TEMPLATE_ENV];
  if (file) pgliteTemplate ??= new Blob([readFileSync(file)]);
  return pgliteTemplate;
}

export async function freshDatabase(): Promise<{ target: DbTarget; drop: () => Promise<void> }> {
  const base = process.env.DATABASE_URL;
  if (!base) {
    const loadDataDir = emptyPglite();
    return {
      target: { kind: 'pglite', dataDir: 'memory://', ...(loadDataDir ? { loadDataDir } : {}) },
      drop: async () => {},
    };
  }
  const db = await scratchPostgres(base, 'sim_test');
  return { target: { kind: 'postgres', url: db.url }, drop: db.drop };
}
