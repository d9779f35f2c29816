// Fault: every backend of the portal's database is terminated while 30 clients write to one SIM, ten
// times in a row (PostgreSQL only: PGlite has no backends to kill). No request may hang, no pool slot may
// leak, the server recovers without a restart, and every acknowledged write is in the database and its
// history. Before the kysely patch (patches/kysely+*.patch, kysely-org/kysely#1990) and the pool's acquire
// timeout (server/db/orm.ts), most runs ended with all ten slots leaked and every request waiting for ever.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { needs } from '#tests/helpers/needs.ts';
import { iccidFactory } from '#tests/helpers/iccid.ts';
import { startTestServer, type TestServer } from '#tests/helpers/server.ts';

const WRITERS = 30;
const ROUNDS = 10;
// A request that has no answer by then is hung: the pool's acquire timeout is 5 s.
const HUNG_AFTER_MS = 20_000;

let server: TestServer;
let admin: pg.Client;
let dbName: string;
const newIccid = iccidFactory('8946444');

type Health = { status: string; db: string; pool?: { total: number; idle: number; waiting: number } };

needs(describe, 'PostgreSQL')('database backends terminated under concurrent writes', () => {
  beforeAll(async () => {
    server = await startTestServer();
    const url = (server.db as { url: string }).url;
    dbName = new URL(url).pathname.slice(1);
    const adminUrl = new URL(url);
    adminUrl.pathname = '/postgres';
    admin = new pg.Client({ connectionString: adminUrl.toString() });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await server?.stop();
  });

  // Ten rounds of serial writes to one row take about 30 s on an idle machine (a round: about 0.9 s to 20 writes, the
  // kill, 20 more, the writers' last answers and the pool idle again); 60 s was missed once on a machine twice as
  // slow, in the whole suite. The writers stop when the test ends for any reason (its signal aborts on a timeout),
  // so a failure here cannot leave 30 writers holding the pool for the tests after it.
  it(
    'never hangs, leaks no pool slot and loses no acknowledged write, ten times in a row',
    { timeout: 180_000 },
    async ({ signal }) => {
      const cookie = await server.sessionCookie('anna@demo.test');
      const headers = { cookie, 'content-type': 'application/json' };
      const created = await fetch(`${server.url}/api/sim`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ iccid: newIccid(), dataLimit: 500, invoiceLineMark: 'Avbrott', invoiceLineNote: '' }),
      });
      expect(created.status).toBe(200);
      const [sim] = (await (await fetch(`${server.url}/api/sim/all`, { headers: { cookie } })).json()) as Array<{
        id: number;
      }>;
      const acknowledged: string[] = [];
      const statuses = new Map<number, number>();
      let hung = 0;

      const edit = async (note: string) => {
        try {
          const res = await fetch(`${server.url}/api/sim/edit`, {
            method: 'PUT',
            headers,
            body: JSON.stringify({
              id: sim!.id,
              dataLimit: 500,
              callAndSms: false,
              roaming: false,
              invoiceLineMark: 'Avbrott',
              invoiceLineNote: note,
            }),
            signal: AbortSignal.timeout(HUNG_AFTER_MS),
          });
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          await res.arrayBuffer();
          if (res.status === 200) acknowledged.push(note);
        } catch (err) {
          if ((err as Error).name === 'TimeoutError') hung++;
          else throw err;
        }
      };

      for (let round = 0; round < ROUNDS; round++) {
        let writing = true;
        const writers = Array.from({ length: WRITERS }, async (_, w) => {
          for (let i = 0; writing && !signal.aborted; i++) await edit(`r${round}-w${w}-${i}`);
        });
        try {
          // Kill in the middle of the traffic: once writes are flowing.
          const before = acknowledged.length;
          await expect.poll(() => acknowledged.length, { timeout: 30_000, interval: 20 }).toBeGreaterThan(before + 20);
          const killed = await admin.query(
            'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
            [dbName],
          );
          expect(killed.rowCount).toBeGreaterThan(0);
          // Keep writing after the blip: the server must serve again without a restart.
          const afterKill = acknowledged.length;
          await expect
            .poll(() => acknowledged.length, { timeout: 30_000, interval: 50 })
            .toBeGreaterThan(afterKill + 20);
        } finally {
          writing = false;
          await Promise.all(writers);
        }
        expect(hung).toBe(0);

        // Quiet again: every slot is back (none checked out, none waiting) and /healthz says the database is up.
        await expect
          .poll(
            async () => {
              const health = (await (
                await fetch(`${server.url}/healthz`, { signal: AbortSignal.timeout(5_000) })
              ).json()) as Health;
              return health.db === 'ok' && health.pool!.waiting === 0 && health.pool!.idle === health.pool!.total;
            },
            { timeout: 20_000, interval: 100 },
          )
          .toBe(true);
      }

      // Only 200 or 503 (the database was away for a moment), never a 500 or a hang.
      expect([...statuses.keys()].filter((s) => s !== 200 && s !== 503)).toEqual([]);
      expect(statuses.get(503) ?? 0).toBeGreaterThan(0);

      // Every acknowledged write is in the history, and the SIM holds the last one.
      const db = new pg.Client({ connectionString: (server.db as { url: string }).url });
      await db.connect();
      try {
        const notes = await db.query<{ note: string }>(
          `select after->>'invoiceLineNote' as note from sim_event where sim_id = $1 and kind = 'updated'`,
          [sim!.id],
        );
        const inHistory = new Set(notes.rows.map((r) => r.note));
        expect(acknowledged.filter((n) => !inHistory.has(n))).toEqual([]);
        const last = await db.query<{ note: string }>(
          `select after->>'invoiceLineNote' as note from sim_event where sim_id = $1 order by id desc limit 1`,
          [sim!.id],
        );
        const current = await db.query<{ invoice_line_note: string }>(
          `select invoice_line_note from sim where id = $1`,
          [sim!.id],
        );
        expect(current.rows[0]!.invoice_line_note).toBe(last.rows[0]!.note);
      } finally {
        await db.end();
      }
      expect(acknowledged.length).toBeGreaterThan(ROUNDS * 40);
    },
  );

  it('answers 503 instead of waiting for ever when every slot is busy, and /healthz still answers', async () => {
    const cookie = await server.sessionCookie('anna@demo.test');
    // Twelve slow queries hold all ten slots (two more wait), as stuck requests would.
    const busy = Array.from({ length: 12 }, () =>
      server.services.orm.em
        .fork()
        .execute('select pg_sleep(8)')
        .catch(() => null),
    );
    await expect
      .poll(async () => ((await (await fetch(`${server.url}/healthz`)).json()) as Health).pool, {
        timeout: 10_000,
        interval: 50,
      })
      .toMatchObject({ total: 10, idle: 0 });

    // /healthz does not queue behind the pool: it answers, says the database is up and shows the queue.
    const health = await fetch(`${server.url}/healthz`, { signal: AbortSignal.timeout(4_000) });
    expect(health.status).toBe(200);
    const body = (await health.json()) as Health;
    expect(body).toMatchObject({ status: 'ok', db: 'ok', pool: { total: 10, idle: 0 } });
    expect(body.pool!.waiting).toBeGreaterThan(0);

    // A request that needs a connection gives up after the acquire timeout with the Swedish 503.
    const list = await fetch(`${server.url}/api/sim/all`, {
      headers: { cookie },
      signal: AbortSignal.timeout(HUNG_AFTER_MS),
    });
    expect(list.status).toBe(503);
    expect(list.headers.get('retry-after')).toBe('5');
    expect(((await list.json()) as { error: string }).error).toBe(
      'Databasen går inte att nå just nu. Försök igen om en stund.',
    );

    await Promise.all(busy);
    expect((await fetch(`${server.url}/api/sim/all`, { headers: { cookie } })).status).toBe(200);
  });

  it('a page whose query loses its connection answers 503 with Retry-After, as the API does', async () => {
    const cookie = await server.sessionCookie('anna@demo.test');
    // The session is read; then the list's query waits on a lock, and its backend is terminated while it waits.
    const url = new URL((server.db as { url: string }).url);
    const locker = new pg.Client({ connectionString: url.toString() });
    await locker.connect();
    try {
      await locker.query('begin');
      await locker.query('lock table sim in access exclusive mode');
      const page = fetch(`${server.url}/sims?q=1234`, {
        headers: { cookie, accept: 'text/html' },
        signal: AbortSignal.timeout(HUNG_AFTER_MS),
      });
      const waiting = async () =>
        (
          await admin.query<{ pid: number }>(
            `select pid from pg_stat_activity where datname = $1 and wait_event_type = 'Lock' and pid <> $2`,
            [dbName, (locker as unknown as { processID: number }).processID],
          )
        ).rows;
      await expect.poll(async () => (await waiting()).length, { timeout: 10_000, interval: 50 }).toBeGreaterThan(0);
      for (const { pid } of await waiting()) await admin.query('select pg_terminate_backend($1)', [pid]);
      const answer = await page;
      expect(answer.status).toBe(503);
      expect(answer.headers.get('retry-after')).toBe('5');
      const html = await answer.text();
      expect(html).toContain('Databasen går inte att nå just nu');
      expect(html).not.toMatch(/terminat|57P01|\n\s+at /i);
    } finally {
      await locker.query('rollback').catch(() => undefined);
      await locker.end();
    }
    expect((await fetch(`${server.url}/sims`, { headers: { cookie } })).status).toBe(200);
  });
});
