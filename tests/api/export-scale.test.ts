// Downloads of a 1,000,000-SIM company abandoned by the browser stop their database work. On PostgreSQL
// (PGlite would take minutes to hold such a fleet; bench:data measures the whole downloads' speed and memory), the
// fleet is seeded with SQL (bench/fleet.ts); each file is read over HTTP for its first megabyte, then the client
// goes away: the server says it was cancelled after a few of its batches (the list: 2,000 batches of 500; the
// invoice specification: 10,000 of 100), and no statement of it is left running in the database.
import http from 'node:http';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedFleet } from '#bench/fleet.ts';
import { Company } from '#server/db/entities.ts';
import { BATCH_SIZE as INVOICE_BATCH } from '#server/export/invoice-specification.ts';
import { BATCH_SIZE as LIST_BATCH } from '#server/sims/list-file.ts';
import { needs } from '#tests/helpers/needs.ts';
import { startTestServer, type TestServer } from '#tests/helpers/server.ts';

const SIMS = 1_000_000;

needs(describe, 'PostgreSQL')('downloads of 1,000,000 SIMs abandoned by the browser', () => {
  let server: TestServer;
  let cookie: string;
  let db: pg.Client;

  beforeAll(async () => {
    server = await startTestServer({ logs: true });
    const em = server.services.orm.em.fork();
    const demo = await em.findOneOrFail(Company, { customerNumber: '100001' });
    await seedFleet(em, { companyId: demo.id, sims: SIMS, smallCompanies: 0, simsPerSmall: 100 });
    cookie = await server.sessionCookie('anna@demo.test');
    db = new pg.Client({ connectionString: (server.db as { url: string }).url });
    await db.connect();
  }, 300_000);
  afterAll(async () => {
    await db?.end();
    await server?.stop();
  });

  /** Reads the download's first megabyte, then goes away (destroys the connection). */
  function abandonAfterOneMegabyte(path: string): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const req = http.get(`${server.url}${path}`, { headers: { cookie } }, (res) => {
        if (res.statusCode !== 200) return reject(new Error(`${path}: ${res.statusCode}`));
        let read = 0;
        res.on('error', () => {});
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read >= 1024 * 1024 && !req.destroyed) {
            req.destroy();
            resolve();
          }
        });
        res.on('end', () => reject(new Error(`${path}: read to its end`)));
      });
      req.on('error', (err) => (req.destroyed ? undefined : reject(err)));
    });
  }

  /** Statements reading SIMs that run now, other than this test's own. */
  const running = async () =>
    (
      await db.query<{ query: string }>(
        `select query from pg_stat_activity
          where datname = current_database() and pid <> pg_backend_pid() and state = 'active' and query ilike '%from sim%'`,
      )
    ).rows;

  it.each([
    ['CSV', '/api/sim/export?format=csv', 'sim list download cancelled', SIMS / LIST_BATCH],
    ['XLSX', '/api/sim/export?format=xlsx', 'sim list download cancelled', SIMS / LIST_BATCH],
  ])('the list export as %s stops reading the database', async (_format, path, message, allBatches) => {
    const before = server.logs.length;
    await abandonAfterOneMegabyte(path);
    const cancelled = () => server.logs.slice(before).filter((l) => l.msg === message);
    await expect.poll(() => cancelled().length, { timeout: 60_000, interval: 50 }).toBe(1);
    const batches = Number(cancelled()[0]!.batches);
    expect(batches).toBeGreaterThan(0);
    expect(batches).toBeLessThan(allBatches / 10);
    // Nothing of it reads on: no statement left, and no further log of it (neither finished nor failed).
    await expect.poll(async () => (await running()).length, { timeout: 10_000, interval: 50 }).toBe(0);
    expect(server.logs.slice(before).filter((l) => /^sim list (exported|export failed)/.test(l.msg))).toEqual([]);
  });

  it('the invoice specification of this month stops reading the database', async () => {
    const month = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Stockholm', year: 'numeric', month: 'numeric' })
      .formatToParts(new Date())
      .filter((p) => p.type !== 'literal')
      .map((p) => Number(p.value));
    const [year, m] = month as [number, number];
    const before = server.logs.length;
    await abandonAfterOneMegabyte(
      `/api/export/getExcelV1?start_year=${year}&start_month=${m}&end_year=${year}&end_month=${m}`,
    );
    const cancelled = () =>
      server.logs.slice(before).filter((l) => l.msg === 'invoice specification download cancelled');
    await expect.poll(() => cancelled().length, { timeout: 60_000, interval: 50 }).toBe(1);
    const batches = Number(cancelled()[0]!.batches);
    expect(batches).toBeGreaterThan(0);
    expect(batches).toBeLessThan(SIMS / INVOICE_BATCH / 10);
    await expect.poll(async () => (await running()).length, { timeout: 10_000, interval: 50 }).toBe(0);
    expect(
      server.logs.slice(before).filter((l) => /^invoice specification (exported|export failed)/.test(l.msg)),
    ).toEqual([]);
  });
});
