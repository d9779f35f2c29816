// The hot reads as named prepared statements (server/db/prepared.ts), on PostgreSQL: the same rows as MikroORM's
// execute, really prepared on the connection, run inside a transaction on the transaction's own connection, and
// prepared again on a new connection after the old one was killed. On PGlite the reads go through MikroORM
// (checked too).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashSessionId, SESSION_SQL } from '#server/auth/sessions.ts';
import { signedInSession } from '#tests/helpers/signed-in.ts';
import { Company, Sim, User } from '#server/db/entities.ts';
import { initOrm, migrate, pgPoolOf, type Orm } from '#server/db/orm.ts';
import { readRow, readRows } from '#server/db/prepared.ts';
import { seedDemo } from '#server/db/seed.ts';
import { isDatabaseUnavailable } from '#server/db/errors.ts';
import { HISTORY_PAGE, HISTORY_SQL, ONE_SQL } from '#server/sims/read.ts';
import { listSql, WHOLE_LIST } from '#server/sims/search.ts';
import { freshDatabase, usingPostgres } from '#tests/helpers/db.ts';
import { needs } from '#tests/helpers/needs.ts';

let orm: Orm;
let unprepared: Orm | null = null;
let drop: () => Promise<void>;
let companyId: number;
let simId: number;
let sessionHash: string;

const preparedNames = async (o: Orm) =>
  (await (await pgPoolOf(o))!.query<{ name: string }>('select name from pg_prepared_statements')).rows.map(
    (r) => r.name,
  );

beforeAll(async () => {
  const db = await freshDatabase();
  drop = db.drop;
  orm = await initOrm(db.target);
  await migrate(orm);
  await seedDemo(orm.em.fork());
  const em = orm.em.fork();
  const demo = await em.findOneOrFail(Company, { customerNumber: '100001' });
  companyId = demo.id;
  simId = (await em.findOneOrFail(Sim, { company: demo.id, status: 'active' }, { orderBy: { id: 'asc' } })).id;
  const admin = await em.findOneOrFail(User, { email: 'admin@demo.test' });
  sessionHash = hashSessionId(await signedInSession(em, admin.id));
  if (db.target.kind === 'postgres') unprepared = await initOrm({ ...db.target, prepare: false });
});
afterAll(async () => {
  await unprepared?.close(true);
  await orm?.close(true);
  await drop?.();
});

/** Every other backend of this database (the pool's) terminated by a connection of its own (PostgreSQL). */
async function killPoolConnections(): Promise<void> {
  if (!unprepared) throw new Error('the killer connection is made on PostgreSQL');
  await unprepared.em
    .getConnection()
    .execute(
      'select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
    );
}

/** A read done 12 times after the kill: on a killed connection it fails as "database unavailable" (503), never as a bug; not every time. */
async function readsAfterKill(read: () => Promise<void>): Promise<void> {
  let failures = 0;
  for (let i = 0; i < 12; i++) {
    try {
      await read();
    } catch (err) {
      expect(isDatabaseUnavailable(err)).toBe(true);
      failures++;
    }
  }
  expect(failures).toBeLessThan(12);
}

/** The newest page of the SIM's history (sim_history's parameters). */
const historyParams = () => [companyId, simId, null, HISTORY_PAGE + 1];

const reads = () => [
  { sql: listSql(WHOLE_LIST).page, params: [companyId, 50, 0] },
  { sql: listSql(WHOLE_LIST).count, params: [companyId] },
  { sql: ONE_SQL, params: [simId, companyId] },
  { sql: HISTORY_SQL, params: historyParams() },
  { sql: SESSION_SQL, params: [sessionHash] },
];

describe('prepared reads', () => {
  it('give the same rows as MikroORM execute', async () => {
    for (const { sql, params } of reads()) {
      const em = orm.em.fork();
      const prepared = await readRows<Record<string, unknown>>(em, sql, params);
      const executed = await em.execute<Array<Record<string, unknown>>>(sql, params);
      expect(prepared.length).toBeGreaterThan(0);
      expect(prepared).toEqual(executed);
    }
    expect(await readRow(orm.em.fork(), ONE_SQL, [-1, companyId])).toBeUndefined();
  });

  needs(it, 'PostgreSQL')('are named prepared statements on PostgreSQL, and not with prepare: false', async () => {
    await readRows(orm.em.fork(), ONE_SQL, [simId, companyId]);
    // pg-pool hands out the connection released last: the one that just ran the read.
    expect((await preparedNames(orm)).some((n) => n.startsWith('sim_'))).toBe(true);
    await readRows(unprepared!.em.fork(), ONE_SQL, [simId, companyId]);
    expect(await preparedNames(unprepared!)).toEqual([]);
  });

  it('run on the transaction connection inside a transaction (they see its uncommitted rows)', async () => {
    await orm.em
      .fork()
      .transactional(async (em) => {
        await em.nativeUpdate(Sim, { id: simId }, { invoiceLineMark: 'Inom transaktionen' });
        const row = await readRow<{ invoice_line_mark: string }>(em, ONE_SQL, [simId, companyId]);
        expect(row?.invoice_line_mark).toBe('Inom transaktionen');
        // Outside it, the change is not there yet (PGlite's one connection waits for the transaction instead).
        if (!usingPostgres) throw new RollBack();
        const outside = await readRow<{ invoice_line_mark: string }>(orm.em.fork(), ONE_SQL, [simId, companyId]);
        expect(outside?.invoice_line_mark).not.toBe('Inom transaktionen');
        throw new RollBack();
      })
      .catch((e: unknown) => {
        if (!(e instanceof RollBack)) throw e;
      });
  });

  needs(it, 'PostgreSQL')('are prepared again on a new connection after the database killed the old ones', async () => {
    const em = orm.em.fork();
    expect(await readRow(em, ONE_SQL, [simId, companyId])).toBeDefined();
    await killPoolConnections();
    await readsAfterKill(async () => {
      const row = await readRow<{ id: number }>(orm.em.fork(), ONE_SQL, [simId, companyId]);
      expect(row?.id).toBe(simId);
    });
    expect(await readRow<{ id: number }>(orm.em.fork(), ONE_SQL, [simId, companyId])).toMatchObject({ id: simId });
    expect((await preparedNames(orm)).some((n) => n.startsWith('sim_'))).toBe(true);
  });
});

describe("the history read (sim_history, a function with the planner's settings)", () => {
  it('carries its settings as its own, and leaves none behind on the connection', async () => {
    const [fn] = await orm.em
      .fork()
      .execute<Array<{ proconfig: string[] }>>(`select proconfig from pg_proc where proname = 'sim_history'`);
    expect(fn?.proconfig).toEqual(['enable_bitmapscan=off', 'enable_seqscan=off']);
    for (let i = 0; i < 12; i++) expect(await readRows(orm.em.fork(), HISTORY_SQL, historyParams())).not.toEqual([]);
    // Every connection the pool holds, at once: each with the server's own settings.
    const after = await Promise.all(
      Array.from({ length: 12 }, () =>
        readRows<{ bitmap: string; seq: string }>(
          orm.em.fork(),
          `select current_setting('enable_bitmapscan') as bitmap, current_setting('enable_seqscan') as seq`,
          [],
        ),
      ),
    );
    expect(after.flat()).toEqual(Array.from({ length: 12 }, () => ({ bitmap: 'on', seq: 'on' })));
  });

  needs(it, 'PostgreSQL')('fails as "database unavailable" on a killed connection, and reads again after', async () => {
    await killPoolConnections();
    await readsAfterKill(async () => {
      const rows = await readRows(orm.em.fork(), HISTORY_SQL, historyParams());
      expect(rows).not.toEqual([]);
    });
  });
});

class RollBack extends Error {}
