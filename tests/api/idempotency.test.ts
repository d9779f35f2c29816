// Long: each case needs the same callers and the same few helpers (about 380 lines).
// Retries of the REST writes with Idempotency-Key over HTTP: a replay answers the first answer again without
// doing the work again, another request with the key is 422, a malformed key 400, keys belong to one caller,
// twenty parallel bulk calls with one key do the work once and answer alike, a server killed mid-request leaves
// nothing (the retry does the work), and the purge deletes the answers after a day.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tIdempotency } from '#domain/texts/idempotency.ts';
import { ApiKey, AuditEvent, Company, IdempotencyKey, Sim, SimEvent, User } from '#server/db/entities.ts';
import { newToast, type HubEvent } from '#server/events/hub.ts';
import { initOrm, pgPoolOf, type Orm } from '#server/db/orm.ts';
import { lockNameOf } from '#server/trpc/idempotency.ts';
import { purgeExpired } from '#server/maintenance/purge.ts';
import { freshDatabase } from '#tests/helpers/db.ts';
import { iccidFactory } from '#tests/helpers/iccid.ts';
import { waitForOk } from '#tests/helpers/nginx.ts';
import { needs } from '#tests/helpers/needs.ts';
import { startTestServer, type TestServer } from '#tests/helpers/server.ts';

const newIccid = iccidFactory('8946717');
// Twenty bulk lists of 1,000 rows are far beyond a minute's budget of a key or a person.
const budgets = { API_KEY_RATE_LIMIT: '1000000', API_SESSION_RATE_LIMIT: '100000000', COMPANY_RATE_LIMIT: '100000000' };
let server: TestServer;
let owner: string; // a session cookie of the demo company's owner
let member: string;
let otherCompany: string; // a session cookie of another company's owner
let keyA: string; // two write keys of the demo company
let keyB: string;
let demoId: number;

type Caller = { key?: string; cookie?: string };
type Answer = { status: number; headers: Headers; text: string; data: any };

async function call(
  method: string,
  url: string,
  who: Caller,
  body?: unknown,
  idempotencyKey?: string,
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (who.key) headers.authorization = `Bearer ${who.key}`;
  if (who.cookie) headers.cookie = who.cookie;
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey;
  const res = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, data: text ? JSON.parse(text) : null };
}
const post = (path: string, who: Caller, body: unknown, key?: string) =>
  call('POST', server.url + path, who, body, key);

const plan = { dataLimit: 1000, callAndSms: true, roaming: false, invoiceLineMark: 'Retry', invoiceLineNote: '' };
const activation = (iccid: string) => ({ ...plan, iccid });
const em = () => server.services.orm.em.fork();
const activeCount = (iccids: string[]) => em().count(Sim, { iccid: { $in: iccids }, status: 'active' });
const activationEvents = (iccids: string[]) =>
  em().count(SimEvent, { kind: 'activated', sim: { iccid: { $in: iccids } } });
/** Runs `watch` with a connection to the server's database of its own (not one of the server's pool). */
async function withWatcher<T>(watch: (client: pg.Client) => Promise<T>): Promise<T> {
  const pool = await pgPoolOf(server.services.orm);
  if (!pool) throw new Error('a watcher connection is made on PostgreSQL');
  const client = new pg.Client({ ...pool.options, application_name: 'idempotency test watcher' });
  await client.connect();
  try {
    return await watch(client);
  } finally {
    await client.end();
  }
}
const uniqueKey = () => `retry-${Math.random().toString(36).slice(2)}-${Date.now()}`;

beforeAll(async () => {
  server = await startTestServer({ env: budgets });
  const e = em();
  const demo = await e.findOneOrFail(Company, { customerNumber: '100001' });
  demoId = demo.id;
  const other = e.create(Company, { name: 'Annat AB', customerNumber: `IDEM-${Date.now()}`, invoiceNote: '' });
  e.create(User, { name: 'Otto Annan', email: 'otto@annat.se', company: other, role: 'owner' });
  await e.flush();
  owner = await server.sessionCookie('ella@demo.test');
  member = await server.sessionCookie('anna@demo.test');
  otherCompany = await server.sessionCookie('otto@annat.se');
  const newKey = async (name: string) => {
    const r = await post('/api/company/apiKeys', { cookie: owner }, { name, scope: 'write' });
    expect(r.status).toBe(200);
    return r.data.key as string;
  };
  keyA = await newKey('retry-a');
  keyB = await newKey('retry-b');
}, 120_000);
afterAll(() => server?.stop(), 60_000);

describe('Idempotency-Key on the REST writes', { timeout: 60_000 }, () => {
  it('replays the first answer with Idempotent-Replayed: true and does the work once', async () => {
    const iccid = newIccid();
    const key = uniqueKey();
    const first = await post('/api/sim', { key: keyA }, activation(iccid), key);
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(first.data).toMatchObject({ success: true, id: expect.any(Number) });
    for (let i = 0; i < 2; i++) {
      const again = await post('/api/sim', { key: keyA }, activation(iccid), key);
      expect(again.status).toBe(200);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.headers.get('content-type')).toMatch(/^application\/json/);
      expect(again.headers.get('cache-control')).toBe('no-store');
      expect(again.text).toBe(first.text);
    }
    expect(await activeCount([iccid])).toBe(1);
    expect(await activationEvents([iccid])).toBe(1);
    // Without the key the same request is done again: the SIM is active already.
    const plain = await post('/api/sim', { key: keyA }, activation(iccid));
    expect(plain.status).toBe(409);
    expect(plain.headers.get('idempotent-replayed')).toBeNull();
  });

  it("replays a procedure's refusal too (the same request gets it again), and a cookie caller's answers", async () => {
    const key = uniqueKey();
    const first = await post('/api/sim/deactivate/2147483000', { cookie: member }, {}, key);
    expect(first.status).toBe(404);
    const again = await post('/api/sim/deactivate/2147483000', { cookie: member }, {}, key);
    expect(again.status).toBe(404);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.text).toBe(first.text);
    const iccid = newIccid();
    const key2 = uniqueKey();
    const made = await post('/api/sim', { cookie: member }, activation(iccid), key2);
    expect(made.status).toBe(200);
    const replayed = await post('/api/sim', { cookie: member }, activation(iccid), key2);
    expect([replayed.status, replayed.headers.get('idempotent-replayed'), replayed.text]).toEqual([
      200,
      'true',
      made.text,
    ]);
    expect(await activeCount([iccid])).toBe(1);
  });

  it('tells the user once: the first answer sends its toast after the commit, a replay none', async () => {
    const annaId = (await em().findOneOrFail(User, { email: 'anna@demo.test' })).id;
    const events: HubEvent[] = [];
    const unsubscribe = server.services.hub.subscribe((e) => events.push(e));
    try {
      /** The toast titles for Anna until a marker published now arrives (events arrive in order). */
      const toastsSoFar = async () => {
        const marker = newToast('info', `marker-${Math.random()}`, '');
        await server.services.hub.publish({ kind: 'toast', userId: annaId, toast: marker });
        const titles = () => events.flatMap((e) => (e.kind === 'toast' && e.userId === annaId ? [e.toast.title] : []));
        await expect.poll(() => titles().includes(marker.title), { timeout: 10_000 }).toBe(true);
        const seen = titles().filter((x) => x !== marker.title);
        events.length = 0;
        return seen;
      };
      await toastsSoFar();
      const [iccid, key] = [newIccid(), uniqueKey()];
      expect((await post('/api/sim', { cookie: member }, activation(iccid), key)).status).toBe(200);
      expect(await toastsSoFar()).toEqual(['SIM-kortet är aktiverat']);
      expect((await post('/api/sim', { cookie: member }, activation(iccid), key)).status).toBe(200);
      expect(await toastsSoFar()).toEqual([]);
    } finally {
      unsubscribe();
    }
  });

  it('never stores a 403 (a step-up may come), and keeps a secret answer unreadable in the database', async () => {
    const key = uniqueKey();
    const body = { name: `retry-secret-${Date.now()}`, scope: 'read' };
    const before = await server.sessionCookie('ella@demo.test', { steppedUp: false });
    const refused = await post('/api/company/apiKeys', { cookie: before }, body, key);
    expect([refused.status, refused.data.stepUp]).toEqual([403, true]);
    // The same user, now stepped up in another session: the key is theirs, and the 403 was not kept.
    const made = await post('/api/company/apiKeys', { cookie: owner }, body, key);
    expect([made.status, made.headers.get('idempotent-replayed')]).toEqual([200, null]);
    const again = await post('/api/company/apiKeys', { cookie: owner }, body, key);
    expect([again.status, again.headers.get('idempotent-replayed'), again.text]).toEqual([200, 'true', made.text]);
    expect(await em().count(ApiKey, { name: body.name })).toBe(1);
    // Stored are the key's hash and the answer sealed with a key derived from the Idempotency-Key.
    const rows = await em().execute<{ key_hash: string; body: string }[]>('select key_hash, body from idempotency_key');
    expect(rows.some((r) => r.key_hash === key || r.body.includes(made.data.key))).toBe(false);
    expect(rows.map((r) => r.body).join('')).not.toContain(made.data.key.slice(3, 20));
  });

  it('refuses the key with another method, path or body: 422, and nothing is done', async () => {
    const [iccid, other] = [newIccid(), newIccid()];
    const key = uniqueKey();
    expect((await post('/api/sim', { key: keyA }, activation(iccid), key)).status).toBe(200);
    const otherBody = await post('/api/sim', { key: keyA }, activation(other), key);
    expect(otherBody.status).toBe(422);
    expect(otherBody.data).toEqual({ error: tIdempotency.otherRequest, issues: [] });
    const otherPath = await post('/api/sim/bulk', { key: keyA }, { ...plan, iccids: [other] }, key);
    expect(otherPath.status).toBe(422);
    expect(await activeCount([other])).toBe(0);
  });

  it('refuses a malformed key with 400 in the one error shape, before any work', async () => {
    const iccid = newIccid();
    for (const bad of ['', 'två ord', 'a b', 'x'.repeat(256), 'tab\there']) {
      const r = await post('/api/sim', { key: keyA }, activation(iccid), bad);
      expect(r.status, JSON.stringify(bad)).toBe(400);
      expect(r.data).toEqual({
        error: tIdempotency.badKey,
        issues: [{ path: ['Idempotency-Key'], message: tIdempotency.badKey }],
      });
    }
    expect(await activeCount([iccid])).toBe(0);
    // 255 visible ASCII characters are a key; a GET ignores the header.
    const longest = Array.from({ length: 255 }, (_, i) => String.fromCharCode(0x21 + (i % 94))).join('');
    expect((await post('/api/sim', { key: keyA }, activation(iccid), longest)).status).toBe(200);
    const list = await call('GET', `${server.url}/api/rate_plans`, { key: keyA }, undefined, 'a b');
    expect(list.status).toBe(200);
  });

  it("keeps keys per caller: another API key or another company's user with the same key does its own work", async () => {
    const key = uniqueKey();
    const [a, b, c, d] = [newIccid(), newIccid(), newIccid(), newIccid()];
    expect((await post('/api/sim', { key: keyA }, activation(a), key)).status).toBe(200);
    const byB = await post('/api/sim', { key: keyB }, activation(b), key);
    expect([byB.status, byB.headers.get('idempotent-replayed')]).toEqual([200, null]);
    const byOther = await post('/api/sim', { cookie: otherCompany }, activation(c), key);
    expect([byOther.status, byOther.headers.get('idempotent-replayed')]).toEqual([200, null]);
    const byMember = await post('/api/sim', { cookie: member }, activation(d), key);
    expect([byMember.status, byMember.headers.get('idempotent-replayed')]).toEqual([200, null]);
    expect(await activeCount([a, b, c, d])).toBe(4);
    // The same request by another caller is that caller's own: done again (here refused, the SIM being active).
    expect((await post('/api/sim', { key: keyB }, activation(a), uniqueKey())).status).toBe(409);
  });

  it('twenty parallel bulk calls with one key: every SIM activated once, every answer the same', async () => {
    const iccids = Array.from({ length: 1_000 }, () => newIccid());
    const key = uniqueKey();
    const trailBefore = await em().count(AuditEvent, { kind: 'bulk', company: demoId });
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => post('/api/sim/bulk', { key: keyA }, { ...plan, iccids }, key)),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(new Set(answers.map((a) => a.text)).size).toBe(1);
    expect(answers[0]!.data.counts.activated).toBe(1_000);
    expect(answers.filter((a) => a.headers.get('idempotent-replayed') === 'true')).toHaveLength(19);
    expect(await activeCount(iccids)).toBe(1_000);
    expect(await activationEvents(iccids)).toBe(1_000);
    // One run, so one row in the company's trail (written inside the run's transaction).
    expect(await em().count(AuditEvent, { kind: 'bulk', company: demoId })).toBe(trailBefore + 1);
  }, 180_000);

  it('deletes answers older than a day in the purge; the key is then free again', async () => {
    const [iccid, other] = [newIccid(), newIccid()];
    const key = uniqueKey();
    expect((await post('/api/sim', { key: keyA }, activation(iccid), key)).status).toBe(200);
    expect(await em().count(IdempotencyKey, {})).toBeGreaterThan(0);
    // Stored answers as the clock sees them a day and a minute later.
    const later = new Date(Date.now() + 24 * 60 * 60 * 1000 + 60_000);
    const live = await em().count(IdempotencyKey, { createdAt: { $gte: new Date(Date.now() - 60 * 60 * 1000) } });
    // More than a batch (IDEMPOTENCY_KEYS_PER_BATCH) of old answers too: every one is deleted in the one run.
    await em().execute(
      `insert into idempotency_key (scope, key_hash, request_hash, status, body, link, created_at)
       select 'apiKey:0', md5(n::text) || md5(n::text), '', 200, '', null, now() - interval '2 days'
       from generate_series(1, 1234) as n`,
    );
    const purged = await purgeExpired(em(), later);
    expect(purged.idempotencyKeys).toBeGreaterThanOrEqual(live + 1234);
    expect(await em().count(IdempotencyKey, {})).toBe(0);
    expect((await purgeExpired(em(), later)).idempotencyKeys).toBe(0);
    // Nothing stored: the key stands for a new request now.
    const fresh = await post('/api/sim', { key: keyA }, activation(other), key);
    expect([fresh.status, fresh.headers.get('idempotent-replayed')]).toEqual([200, null]);
  });

  needs(it, 'PostgreSQL')(
    'a request whose key is held waits for it without a connection, then does the work',
    async () => {
      const iccid = newIccid();
      const key = uniqueKey();
      const apiKeyId = (await em().execute<{ id: number }[]>('select id from api_key where name = ?', ['retry-a']))[0]!
        .id;
      const holder = em();
      let answer: Promise<Answer> | null = null;
      await holder.transactional(async (tx) => {
        await tx.execute('select pg_advisory_xact_lock(hashtextextended(?, 0))', [
          lockNameOf(`apiKey:${apiKeyId}`, key),
        ]);
        answer = post('/api/sim', { key: keyA }, activation(iccid), key);
        // It polls (one statement a try, no connection held between): once it has looked three times, as the
        // database's sessions show (each look's start), it has still done nothing while the lock is held here.
        // Watched on a connection of its own: a look through the server's pool would take the connection the last
        // look was released to, and its own query would replace that look in pg_stat_activity before it was seen.
        const looks = new Set<string>();
        await withWatcher(async (watcher) => {
          await expect
            .poll(
              async () => {
                const { rows } = await watcher.query<{ look: string }>(
                  `select pid || ' ' || query_start as look from pg_stat_activity
                   where query like 'select pg_try_advisory_xact_lock%'`,
                );
                for (const r of rows) looks.add(r.look);
                return looks.size;
              },
              { timeout: 10_000, interval: 20 },
            )
            .toBeGreaterThanOrEqual(3);
        });
        expect(await activeCount([iccid])).toBe(0);
      });
      const done = await answer!;
      expect([done.status, done.headers.get('idempotent-replayed')]).toEqual([200, null]);
      expect(await activeCount([iccid])).toBe(1);
    },
  );
});

needs(describe, 'PostgreSQL')('a server killed in the middle of a request', { timeout: 300_000 }, () => {
  let child: ChildProcess | null = null;
  let dataDir = '';
  let watcher: Orm;
  let drop: () => Promise<void>;
  let fresh: TestServer;

  const freePort = () =>
    new Promise<number>((resolve, reject) => {
      const s = createServer();
      s.listen(0, '127.0.0.1', () => {
        const port = (s.address() as { port: number }).port;
        s.close(() => resolve(port));
      });
      s.on('error', reject);
    });

  beforeAll(async () => {
    const db = await freshDatabase();
    drop = db.drop;
    // The fresh server migrates and seeds the database the killed one then shares.
    fresh = await startTestServer({ db: db.target, env: budgets });
    watcher = await initOrm(db.target);
  }, 180_000);
  afterAll(async () => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    await watcher?.close();
    await fresh?.stop();
    await drop?.();
  }, 60_000);

  it('leaves neither work nor answer; the retry on another server does the work once', async () => {
    const port = await freePort();
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'sim-portal-killed-'));
    // The server from its sources, as the test servers run (the compiled bundle may be older than them).
    const start = `const m = await import(${JSON.stringify(pathToFileURL(path.resolve('server/index.ts')).href)}); await m.run({ buildChecked: true });`;
    child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '--eval', start], {
      env: {
        ...process.env,
        NODE_ENV: 'production',
        PORT: String(port),
        APP_URL: `http://127.0.0.1:${port}`,
        DATABASE_URL: (fresh.db as { url: string }).url,
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        ...budgets,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    await waitForOk(`http://127.0.0.1:${port}/readyz`, child);
    const cookie = await fresh.sessionCookie('ella@demo.test');
    const made = await call('POST', `${fresh.url}/api/company/apiKeys`, { cookie }, { name: 'killed', scope: 'write' });
    expect(made.status).toBe(200);
    const apiKey = made.data.key as string;
    const iccids = Array.from({ length: 10_000 }, () => newIccid());
    const key = uniqueKey();
    const body = { ...plan, iccids };

    const inFlight = call('POST', `http://127.0.0.1:${port}/api/sim/bulk`, { key: apiKey }, body, key).catch(
      (err: unknown) => err,
    );
    // Killed once its transaction holds the key's lock, that is while it works.
    const advisoryLocks = async () =>
      Number(
        (
          await watcher.em
            .fork()
            .execute<{ n: string }[]>(`select count(*) as n from pg_locks where locktype = 'advisory' and granted`)
        )[0]!.n,
      );
    await expect.poll(advisoryLocks, { timeout: 60_000, interval: 20 }).toBeGreaterThan(0);
    child.kill('SIGKILL');
    expect(await inFlight).toBeInstanceOf(Error);
    // The database ends the dead server's transaction: nothing of it stays.
    await expect.poll(advisoryLocks, { timeout: 30_000, interval: 100 }).toBe(0);
    expect(await watcher.em.fork().count(Sim, { iccid: { $in: iccids } })).toBe(0);
    expect(await watcher.em.fork().count(IdempotencyKey, {})).toBe(0);

    // The retry, on a server that is up: the work done once, answered as a first answer.
    const retry = await call('POST', `${fresh.url}/api/sim/bulk`, { key: apiKey }, body, key);
    expect([retry.status, retry.headers.get('idempotent-replayed')]).toEqual([200, null]);
    expect(retry.data.counts.activated).toBe(10_000);
    const again = await call('POST', `${fresh.url}/api/sim/bulk`, { key: apiKey }, body, key);
    expect([again.status, again.headers.get('idempotent-replayed')]).toEqual([200, 'true']);
    expect(again.text).toBe(retry.text);
    expect(await watcher.em.fork().count(Sim, { iccid: { $in: iccids }, status: 'active' })).toBe(10_000);
    expect(await watcher.em.fork().count(SimEvent, { kind: 'activated', sim: { iccid: { $in: iccids } } })).toBe(
      10_000,
    );
  });
});
