// A database that fails mid-request, made on purpose (PostgreSQL only): `work` runs until its statement writes to
// `table`, where a statement trigger makes it sleep; then its connection is cut from another one
// (pg_terminate_backend), as a failing database or network would cut it. The work must fail; what it wrote must be
// gone. Used by tests/integration/usage-faults.test.ts and tags-faults.test.ts.
import pg from 'pg';
import { expect } from 'vitest';
import type { Orm } from '#server/db/orm.ts';

export async function cutInside(orm: Orm, table: string, work: () => Promise<unknown>): Promise<unknown> {
  const em = orm.em.fork();
  await em.execute(`create or replace function test_cut_wait() returns trigger language plpgsql as $$
    begin perform pg_sleep(60); return null; end $$`);
  await em.execute(
    `create trigger test_cut_wait after insert or update on ${table} for each statement execute function test_cut_wait()`,
  );
  const admin = new pg.Client({ connectionString: String(orm.config.get('clientUrl')) });
  await admin.connect();
  try {
    const failed = work().then(
      () => null,
      (e: unknown) => e,
    );
    // Wait for the work's session to sleep in the trigger, then cut its connection.
    await expect
      .poll(
        async () =>
          (
            await admin.query(
              `select pg_terminate_backend(pid) from pg_stat_activity
               where datname = current_database() and pid <> pg_backend_pid() and wait_event = 'PgSleep'`,
            )
          ).rowCount,
        { timeout: 30_000, interval: 100 },
      )
      .toBe(1);
    const result = await failed;
    // The cut connection may have gone back to the pool before its socket closed (the error came first): the next
    // query on it fails with "Connection terminated unexpectedly". Queries until one succeeds: a failed one takes
    // the dead connection out of the pool, so the test's own checks and retry get a live one.
    await expect
      .poll(
        () =>
          orm.em
            .fork()
            .execute('select 1')
            .then(
              () => true,
              () => false,
            ),
        { timeout: 10_000, interval: 50 },
      )
      .toBe(true);
    return result;
  } finally {
    await admin.query(`drop trigger if exists test_cut_wait on ${table}`);
    await admin.query(`drop function if exists test_cut_wait()`);
    await admin.end();
  }
}
