// A fresh database for one test file: PGlite in memory by default, a new PostgreSQL database when
// DATABASE_URL is set (created here, dropped by the returned cleanup).
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { DbTarget } from '../../server/db/orm.js';

export const usingPostgres = !!process.env.DATABASE_URL;

export async function freshDatabase(): Promise<{ target: DbTarget; drop: () => Promise<void> }> {
  const base = process.env.DATABASE_URL;
  if (!base) return { target: { kind: 'pglite', dataDir: 'memory://' }, drop: async () => {} };
  const name = `sim_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    target: { kind: 'postgres', url: url.toString() },
    drop: async () => {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`drop database if exists "${name}" with (force)`);
      await c.end();
    },
  };
}
