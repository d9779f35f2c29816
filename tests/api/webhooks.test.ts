// Long: one receiver and one server serve every rule of delivery, from the signature to two instances.
// Webhooks over REST against a real HTTP receiver on 127.0.0.1 (the only address any test sends to): the
// signature checked by docs/api.md's own recipe, retries after a 500 and after a timeout, delivery after a
// restart, two instances delivering each event once (PostgreSQL), the outbox's atomicity and SSRF refusals.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditEvent, Company, User, WebhookDelivery, WebhookEndpoint, WebhookEvent } from '#server/db/entities.ts';
import { freshDatabase, usingPostgres } from '#tests/helpers/db.ts';
import { needs } from '#tests/helpers/needs.ts';
import { iccidFactory } from '#tests/helpers/iccid.ts';
import { useScreens } from '#tests/helpers/screens.ts';
import { startTestServer, type TestServer } from '#tests/helpers/server.ts';

const FAST = {
  WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  WEBHOOK_TIMEOUT_MS: '700',
  WEBHOOK_BACKOFF_MS: '100',
  WEBHOOK_POLL_MS: '100',
};
const portal = useScreens({ browser: false, env: FAST });
const newIccid = iccidFactory('8946777');
const em = () => portal.server.services.orm.em.fork();

/** The verification snippet of docs/api.md ("Verifying a webhook"), run as it is written there. */
function docsVerifier(): (secret: string, header: string, body: string, now?: number) => boolean {
  const page = readFileSync(path.resolve(import.meta.dirname, '../../docs/api.md'), 'utf8');
  const code = /<!-- webhook-verify -->\s*```js\n([\s\S]*?)```/.exec(page)?.[1];
  if (!code) throw new Error('docs/api.md: no webhook-verify snippet');
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- runs docs/api.md's snippet as a reader would
  return new Function('require', `${code}\nreturn verifySignature;`)(createRequire(import.meta.url));
}
const verify = docsVerifier();

type Received = { headers: http.IncomingHttpHeaders; body: string; json: Record<string, any> };
type Mode = 'ok' | 'fail' | 'hang';

/** A receiver on 127.0.0.1 that answers as told (each request takes the next mode; then 'ok'). */
async function receiver() {
  const got: Received[] = [];
  const modes: Mode[] = [];
  let hits = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      hits++;
      const mode = modes.shift() ?? 'ok';
      if (mode === 'hang') return; // never answers: the sender's timeout ends it
      const body = Buffer.concat(chunks).toString('utf8');
      if (mode === 'fail') {
        res.writeHead(500).end('secret internals of the receiver');
        return;
      }
      got.push({ headers: req.headers, body, json: JSON.parse(body) });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    got,
    modes,
    hits: () => hits,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
type Receiver = Awaited<ReturnType<typeof receiver>>;

async function call(base: string, method: string, p: string, cookie: string | null, body?: unknown) {
  const headers: Record<string, string> = {};
  if (cookie) headers.cookie = cookie;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(base + p, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  expect(text).not.toMatch(/\n\s+at |node_modules|select .* from|insert into/i);
  return { status: res.status, data: text ? JSON.parse(text) : {} };
}
const plan = { dataLimit: 1000, callAndSms: true, roaming: false, invoiceLineMark: 'Hook', invoiceLineNote: '' };

let n = 0;
/** A company of its own with an owner; answers its id and the owner's cookie. */
async function company(server: TestServer = portal.server) {
  n++;
  const e = server.services.orm.em.fork();
  const c = e.create(Company, { name: `Hook ${n} AB`, customerNumber: `HOOK-${n}-${Date.now()}`, invoiceNote: '' });
  const u = e.create(User, { name: `Ägare ${n}`, email: `owner${n}.${Date.now()}@hook.se`, company: c, role: 'owner' });
  await e.flush();
  return { id: c.id, cookie: await server.sessionCookie(u.email) };
}

const receivers: Receiver[] = [];
afterAll(async () => {
  for (const r of receivers) await r.close();
});
async function newReceiver() {
  const r = await receiver();
  receivers.push(r);
  return r;
}

describe('registering an endpoint', () => {
  it('answers the secret once, never lists it, and keeps the change in the trail', async () => {
    const rx = await newReceiver();
    const c = await company();
    const created = await call(portal.server.url, 'POST', '/api/company/webhooks', c.cookie, {
      url: rx.url,
      events: ['sim.activated', 'sim.deactivated'],
    });
    expect(created.status).toBe(200);
    expect(created.data.secret).toMatch(/^whsec_/);
    const list = await call(portal.server.url, 'GET', '/api/company/webhooks', c.cookie);
    expect(list.status).toBe(200);
    expect(list.data).toHaveLength(1);
    expect(list.data[0]).toMatchObject({ id: created.data.id, url: rx.url, enabled: true, failing: false });
    expect(JSON.stringify(list.data)).not.toContain(created.data.secret);
    const trail = await em().find(AuditEvent, { company: c.id, kind: 'webhook' });
    expect(trail.map((a) => a.action)).toEqual(['webhookCreated']);
    expect(JSON.stringify(trail)).not.toContain(created.data.secret);
  });

  it('refuses bad input with Swedish issues, and members and other companies', async () => {
    const c = await company();
    const bad = await call(portal.server.url, 'POST', '/api/company/webhooks', c.cookie, { url: '', events: [] });
    expect(bad.status).toBe(400);
    expect(bad.data.issues.map((i: { path: string[] }) => i.path[0]).sort()).toEqual(['events', 'url']);
    const unknown = await call(portal.server.url, 'POST', '/api/company/webhooks', c.cookie, {
      url: 'https://hooks.example.com/x',
      events: ['sim.exploded'],
    });
    expect(unknown.status).toBe(400);
    const member = await portal.server.sessionCookie('anna@demo.test');
    expect((await call(portal.server.url, 'GET', '/api/company/webhooks', member)).status).toBe(403);
    expect((await call(portal.server.url, 'GET', '/api/company/webhooks', null)).status).toBe(401);
    const rx = await newReceiver();
    const other = await company();
    const mine = await call(portal.server.url, 'POST', '/api/company/webhooks', c.cookie, {
      url: rx.url,
      events: ['sim.activated'],
    });
    for (const [method, p] of [
      ['POST', `/api/company/webhooks/delete/${mine.data.id}`],
      ['POST', `/api/company/webhooks/test/${mine.data.id}`],
      ['POST', `/api/company/webhooks/rotate/${mine.data.id}`],
      ['GET', `/api/company/webhooks/${mine.data.id}/deliveries`],
    ] as const)
      expect((await call(portal.server.url, method, p, other.cookie)).status).toBe(404);
  });

  it('refuses inside addresses, and plain http to public ones, even with WEBHOOK_ALLOW_PRIVATE_TARGETS (only loopback is let through)', async () => {
    const c = await company();
    for (const url of [
      'http://10.0.0.8/hook',
      'https://10.0.0.8/hook',
      'https://169.254.169.254/latest/meta-data',
      'https://[fd00::1]/hook',
      'https://[::ffff:10.0.0.1]/hook',
      'https://100.64.1.1/hook',
      'ftp://127.0.0.1/hook',
      // Plain http to a public address, and ranges that were missing.
      'http://8.8.8.8/hook',
      'http://[2606:4700::1111]/hook',
      'https://[64:ff9b:1::a00:1]/hook',
      'https://[fec0::1]/hook',
      'https://[::ffff:0:a00:1]/hook',
    ]) {
      const r = await call(portal.server.url, 'POST', '/api/company/webhooks', c.cookie, {
        url,
        events: ['sim.activated'],
      });
      expect(r.status, url).toBe(400);
      expect(r.data.issues[0].path).toEqual(['url']);
    }
  });
});

describe('without WEBHOOK_ALLOW_PRIVATE_TARGETS', () => {
  let strict: TestServer;
  beforeAll(async () => {
    strict = await startTestServer({ env: { WEBHOOK_POLL_MS: '100', WEBHOOK_BACKOFF_MS: '100' } });
  });
  afterAll(() => strict?.stop());

  it('refuses 127.0.0.1, localhost (a name resolving to loopback) and http at registration', async () => {
    const c = await company(strict);
    for (const url of [
      'http://127.0.0.1:9/hook',
      'https://127.0.0.1/hook',
      'https://localhost/hook',
      'https://[::1]/hook',
      'http://hooks.example.com/hook',
    ]) {
      const r = await call(strict.url, 'POST', '/api/company/webhooks', c.cookie, { url, events: ['sim.activated'] });
      expect(r.status, url).toBe(400);
      expect(r.data.error).toBeTruthy();
    }
  });

  it('refuses again at delivery: an endpoint stored with a loopback URL gets nothing', async () => {
    const rx = await newReceiver();
    const c = await company(strict);
    const e = strict.services.orm.em.fork();
    // As if registered when the flag was on (or the name resolved elsewhere then).
    const ep = e.create(WebhookEndpoint, {
      company: c.id,
      url: rx.url.replace('http://127.0.0.1', 'https://localhost'),
      events: ['sim.activated'],
      secret: 'whsec_x',
      enabled: true,
      createdAt: new Date(),
    });
    await e.flush();
    expect((await call(strict.url, 'POST', `/api/company/webhooks/test/${ep.id}`, c.cookie)).status).toBe(200);
    await expect
      .poll(
        async () => (await call(strict.url, 'GET', `/api/company/webhooks/${ep.id}/deliveries`, c.cookie)).data[0],
        {
          timeout: 20_000,
        },
      )
      .toMatchObject({ lastError: expect.stringMatching(/^Adressen nekas/), lastStatusCode: null });
    expect(rx.hits()).toBe(0);
  });
});

describe('delivery', () => {
  it('signs each event as docs/api.md verifies it, with a stable id and the change’s data', async () => {
    const rx = await newReceiver();
    const c = await company();
    const { data: ep } = await call(portal.server.url, 'POST', '/api/company/webhooks', c.cookie, {
      url: rx.url,
      events: ['sim.activated', 'sim.updated', 'sim.deactivated'],
    });
    const iccid = newIccid();
    const act = await call(portal.server.url, 'POST', '/api/sim', c.cookie, {
      iccid,
      ...plan,
      tags: ['Kylbilar', 'Göteborg'],
    });
    expect(act.status).toBe(200);
    const edit = await call(portal.server.url, 'PUT', '/api/sim/edit', c.cookie, {
      id: act.data.id,
      ...plan,
      invoiceLineMark: 'Ny',
    });
    expect(edit.status).toBe(200);
    expect((await call(portal.server.url, 'POST', `/api/sim/deactivate/${act.data.id}`, c.cookie)).status).toBe(200);
    await expect.poll(() => rx.got.length, { timeout: 20_000 }).toBe(3);
    const byType = Object.fromEntries(rx.got.map((g) => [g.json.type, g]));
    expect(Object.keys(byType).sort()).toEqual(['sim.activated', 'sim.deactivated', 'sim.updated']);
    for (const g of rx.got) {
      expect(verify(ep.secret, String(g.headers['x-sim-portal-signature']), g.body)).toBe(true);
      // Another secret, a changed body or an old timestamp fail.
      expect(verify('whsec_other', String(g.headers['x-sim-portal-signature']), g.body)).toBe(false);
      expect(verify(ep.secret, String(g.headers['x-sim-portal-signature']), g.body + ' ')).toBe(false);
      expect(
        verify(ep.secret, String(g.headers['x-sim-portal-signature']), g.body, Math.floor(Date.now() / 1000) + 600),
      ).toBe(false);
      expect(g.json).toMatchObject({ companyId: c.id, id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
      expect(g.headers['content-type']).toBe('application/json');
    }
    expect(byType['sim.activated']!.json.data.sim).toMatchObject({ id: act.data.id, iccid, invoiceLineMark: 'Hook' });
    expect(byType['sim.updated']!.json.data).toMatchObject({
      before: { invoiceLineMark: 'Hook' },
      after: { invoiceLineMark: 'Ny' },
    });
    expect(byType['sim.deactivated']!.json.data.sim).toMatchObject({ id: act.data.id, iccid });
    // Each event about the SIM carries its tags, in code point order (a receiver routes by group).
    for (const type of ['sim.activated', 'sim.updated', 'sim.deactivated'])
      expect(byType[type]!.json.data.sim.tags).toEqual(['Göteborg', 'Kylbilar']);
    const deliveries = await call(portal.server.url, 'GET', `/api/company/webhooks/${ep.id}/deliveries`, c.cookie);
    expect(deliveries.data.map((d: { status: string }) => d.status)).toEqual(['delivered', 'delivered', 'delivered']);
    expect(deliveries.data[0]).toMatchObject({ lastStatusCode: 204, attempts: 1 });
  });

  it('writes bulk events in the bulk statements: one per SIM and one bulk.completed', async () => {
    const rx = await newReceiver();
    const c = await company();
    await call(portal.server.url, 'POST', '/api/company/webhooks', c.cookie, {
      url: rx.url,
      events: ['sim.activated', 'bulk.completed', 'sim.deactivated'],
    });
    const iccids = [newIccid(), newIccid(), newIccid()];
    const r = await call(portal.server.url, 'POST', '/api/sim/bulk', c.cookie, { ...plan, iccids: [...iccids, 'bad'] });
    expect(r.data.counts.activated).toBe(3);
    await expect.poll(() => rx.got.length, { timeout: 20_000 }).toBe(4);
    const types = rx.got.map((g) => g.json.type).sort();
    expect(types).toEqual(['bulk.completed', 'sim.activated', 'sim.activated', 'sim.activated']);
    for (const g of rx.got.filter((x) => x.json.type === 'sim.activated'))
      expect(g.json.data.sim.activatedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const done = rx.got.find((g) => g.json.type === 'bulk.completed')!.json.data;
    expect(done).toMatchObject({ operation: 'activate', count: 3 });
    expect(done.sims.map((s: { iccid: string }) => s.iccid).sort()).toEqual([...iccids].sort());
    // A bulk deactivation: one sim.deactivated per SIM with its tags (written in the same statement).
    const ids = done.sims.map((s: { id: number }) => s.id);
    expect(
      (await call(portal.server.url, 'POST', '/api/sim/tags', c.cookie, { ids: [ids[0]], add: ['Test', 'Arlanda'] }))
        .status,
    ).toBe(200);
    expect((await call(portal.server.url, 'POST', '/api/sim/bulk/deactivate', c.cookie, { ids })).status).toBe(200);
    const deactivated = () => rx.got.filter((g) => g.json.type === 'sim.deactivated');
    await expect.poll(() => deactivated().length, { timeout: 20_000 }).toBe(3);
    const tagsById = Object.fromEntries(deactivated().map((g) => [g.json.data.sim.id, g.json.data.sim.tags]));
    expect(tagsById).toEqual({ [ids[0]]: ['Arlanda', 'Test'], [ids[1]]: [], [ids[2]]: [] });
    // A company without a subscriber writes no event at all.
    const quiet = await company();
    const before = await em().count(WebhookEvent, {});
    await call(portal.server.url, 'POST', '/api/sim/bulk', quiet.cookie, { ...plan, iccids: [newIccid()] });
    expect(await em().count(WebhookEvent, {})).toBe(before);
  });

  it('retries after a 500 and after a timeout, then delivers the same event id; the peer’s body is not kept', async () => {
    const rx = await newReceiver();
    rx.modes.push('fail', 'hang');
    const c = await company();
    const { data: ep } = await call(portal.server.url, 'POST', '/api/company/webhooks', c.cookie, {
      url: rx.url,
      events: ['sim.activated'],
    });
    const { data: test } = await call(portal.server.url, 'POST', `/api/company/webhooks/test/${ep.id}`, c.cookie);
    await expect.poll(() => rx.got.length, { timeout: 30_000 }).toBe(1);
    expect(rx.hits()).toBe(3);
    expect(rx.got[0]!.json).toMatchObject({ id: test.eventId, type: 'webhook.test' });
    // The receiver has the event before the sender has written down its 204.
    const delivery = async () =>
      (await call(portal.server.url, 'GET', `/api/company/webhooks/${ep.id}/deliveries`, c.cookie)).data[0];
    await expect.poll(async () => (await delivery()).status, { timeout: 10_000 }).toBe('delivered');
    const d = await delivery();
    expect(d).toMatchObject({ status: 'delivered', attempts: 3, lastStatusCode: 204, eventId: test.eventId });
    const row = await em().findOneOrFail(WebhookDelivery, { id: d.id });
    expect(JSON.stringify(row)).not.toContain('secret internals');
    const list = (await call(portal.server.url, 'GET', '/api/company/webhooks', c.cookie)).data;
    expect(list[0].failingSince).toBeNull();
  });

  it('marks a delivery failed once its retry window is over, and the endpoint as failing', async () => {
    const rx = await newReceiver();
    rx.modes.push(...Array<Mode>(100).fill('fail'));
    const short = await startTestServer({
      env: { ...FAST, WEBHOOK_RETRY_FOR_MS: '1500' },
    });
    try {
      const c = await company(short);
      const { data: ep } = await call(short.url, 'POST', '/api/company/webhooks', c.cookie, {
        url: rx.url,
        events: ['sim.activated'],
      });
      await call(short.url, 'POST', `/api/company/webhooks/test/${ep.id}`, c.cookie);
      await expect
        .poll(
          async () =>
            (await call(short.url, 'GET', `/api/company/webhooks/${ep.id}/deliveries`, c.cookie)).data[0]?.status,
          {
            timeout: 30_000,
          },
        )
        .toBe('failed');
      const [d] = (await call(short.url, 'GET', `/api/company/webhooks/${ep.id}/deliveries`, c.cookie)).data;
      expect(d.lastStatusCode).toBe(500);
      expect(d.attempts).toBeGreaterThan(1);
      await expect
        .poll(async () => (await call(short.url, 'GET', '/api/company/webhooks', c.cookie)).data[0].failing, {
          timeout: 10_000,
        })
        .toBe(true);
    } finally {
      await short.stop();
    }
  });

  it('delivers after a restart what was pending when the server stopped', async () => {
    const rx = await newReceiver();
    const dir = mkdtempSync(path.join(os.tmpdir(), 'webhook-restart-'));
    // A database of its own: on the file's shared one, the portal's own worker (woken by the event's NOTIFY) could
    // deliver the event before the first instance stops (it did once, in a run of tests/api on PostgreSQL).
    const own = usingPostgres ? await freshDatabase() : null;
    const db = own ? own.target : { kind: 'pglite' as const, dataDir: dir };
    try {
      // The first instance never polls (a minute): its events stay pending when it stops.
      const first = await startTestServer({ db, env: { ...FAST, WEBHOOK_POLL_MS: '60000' } });
      const c = await company(first);
      const { data: ep } = await call(first.url, 'POST', '/api/company/webhooks', c.cookie, {
        url: rx.url,
        events: ['sim.activated'],
      });
      const act = await call(first.url, 'POST', '/api/sim', c.cookie, { iccid: newIccid(), ...plan });
      expect(act.status).toBe(200);
      await first.stop();
      expect(rx.hits()).toBe(0);
      const second = await startTestServer({ db, env: FAST });
      try {
        await expect.poll(() => rx.got.length, { timeout: 20_000 }).toBe(1);
        expect(rx.got[0]!.json.data.sim.id).toBe(act.data.id);
        // The receiver has the event before the sender has written down its answer.
        await expect
          .poll(
            async () =>
              (await call(second.url, 'GET', `/api/company/webhooks/${ep.id}/deliveries`, c.cookie)).data[0].status,
            { timeout: 10_000 },
          )
          .toBe('delivered');
      } finally {
        await second.stop();
      }
    } finally {
      await own?.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  // Skipped on PGlite: its database lives inside one process, so two instances cannot share it.
  needs(it, 'PostgreSQL')('two instances on one database deliver each event once (PostgreSQL)', async () => {
    const rx = await newReceiver();
    const second = await startTestServer({ db: portal.server.db, env: FAST });
    try {
      const c = await company();
      await call(portal.server.url, 'POST', '/api/company/webhooks', c.cookie, {
        url: rx.url,
        events: ['sim.activated', 'bulk.completed'],
      });
      const iccids = Array.from({ length: 40 }, () => newIccid());
      const r = await call(second.url, 'POST', '/api/sim/bulk', c.cookie, { ...plan, iccids });
      expect(r.data.counts.activated).toBe(40);
      await expect.poll(() => rx.got.length, { timeout: 30_000 }).toBe(41);
      // Nothing more arrives: each event once.
      const ids = rx.got.map((g) => g.json.id);
      expect(new Set(ids).size).toBe(41);
      // The receiver has the last event before its sender has written down the answer.
      const pending = () => em().count(WebhookDelivery, { status: { $ne: 'delivered' }, event: { company: c.id } });
      await expect.poll(pending, { timeout: 10_000 }).toBe(0);
      expect(rx.hits()).toBe(41);
      // Each delivery was claimed once: one attempt per row, none left over.
      const attempts = await em().execute<{ attempts: number }[]>(
        `select d.attempts from webhook_delivery d join webhook_event e on e.id = d.event_id where e.company_id = ?`,
        [c.id],
      );
      expect(attempts.map((a) => a.attempts)).toEqual(Array<number>(41).fill(1));
    } finally {
      await second.stop();
    }
  });
});

describe('the outbox', () => {
  it('writes no event for a change that fails, and one per change that succeeds', async () => {
    const rx = await newReceiver();
    const c = await company();
    await call(portal.server.url, 'POST', '/api/company/webhooks', c.cookie, {
      url: rx.url,
      events: ['sim.activated', 'sim.deactivated', 'sim.updated'],
    });
    const events = () => em().count(WebhookEvent, { company: c.id });
    const iccid = newIccid();
    expect((await call(portal.server.url, 'POST', '/api/sim', c.cookie, { iccid, ...plan })).status).toBe(200);
    expect(await events()).toBe(1);
    // The same ICCID again (refused by the one-active index at commit), an unknown SIM, a bad plan.
    expect((await call(portal.server.url, 'POST', '/api/sim', c.cookie, { iccid, ...plan })).status).toBe(409);
    expect((await call(portal.server.url, 'POST', '/api/sim/deactivate/999999999', c.cookie)).status).toBe(404);
    const badPlan = await call(portal.server.url, 'POST', '/api/sim', c.cookie, {
      iccid: newIccid(),
      ...plan,
      dataLimit: 7,
    });
    expect(badPlan.status).toBe(400);
    expect(await events()).toBe(1);
  });

  it('rolls the change back when its event cannot be written', async () => {
    const rx = await newReceiver();
    const c = await company();
    await call(portal.server.url, 'POST', '/api/company/webhooks', c.cookie, {
      url: rx.url,
      events: ['sim.activated'],
    });
    // A check that refuses this company's events: the event's insert fails inside the change's transaction.
    const conn = em();
    await conn.execute(
      `alter table webhook_event add constraint webhook_test_refuse check (company_id <> ${Number(c.id)})`,
    );
    try {
      const iccid = newIccid();
      const r = await call(portal.server.url, 'POST', '/api/sim', c.cookie, { iccid, ...plan });
      expect(r.status).toBe(500);
      const bulk = await call(portal.server.url, 'POST', '/api/sim/bulk', c.cookie, { ...plan, iccids: [newIccid()] });
      expect(bulk.status).toBe(500);
      expect(await em().count(WebhookEvent, { company: c.id })).toBe(0);
      const sims = await em().execute<{ n: number }>(
        `select count(*)::int as n from sim where company_id = ?`,
        [c.id],
        'get',
      );
      expect(sims.n).toBe(0);
    } finally {
      await conn.execute(`alter table webhook_event drop constraint webhook_test_refuse`);
    }
  });
});

describe('fair delivery', () => {
  /** A receiver that never answers, counting the attempts it holds open at once. */
  async function hangingReceiver() {
    let open = 0;
    let most = 0;
    let hits = 0;
    const server = http.createServer((req) => {
      hits++;
      open++;
      most = Math.max(most, open);
      req.resume();
      req.socket.on('close', () => open--);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    return {
      url: `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`,
      most: () => most,
      hits: () => hits,
      close: () =>
        new Promise<void>((r) => {
          server.closeAllConnections();
          server.close(() => r());
        }),
    };
  }

  it('a hanging endpoint with 1,000 due deliveries delays another company’s delivery by less than one timeout', async () => {
    const TIMEOUT = 3000;
    const env = { ...FAST, WEBHOOK_TIMEOUT_MS: String(TIMEOUT) };
    const first = await startTestServer({
      db: portal.server.db.kind === 'postgres' ? portal.server.db : undefined,
      env,
    });
    // On PostgreSQL a second instance serves the same database: still one attempt at a time per endpoint.
    const second = usingPostgres ? await startTestServer({ db: portal.server.db, env }) : null;
    const hanging = await hangingReceiver();
    const rx = await newReceiver();
    try {
      const slow = await company(first);
      const { data: slowEp } = await call(first.url, 'POST', '/api/company/webhooks', slow.cookie, {
        url: hanging.url,
        events: ['sim.activated'],
      });
      const e = first.services.orm.em.fork();
      await e.execute(
        `with ev as (
           insert into webhook_event (id, company_id, type, data)
           select gen_random_uuid(), ?, 'sim.activated', '{}'::jsonb from generate_series(1, 1000) returning id)
         insert into webhook_delivery (event_id, endpoint_id) select id, ? from ev`,
        [slow.id, slowEp.id],
      );
      // The hanging endpoint is being served (an attempt is open) before the other company's event is written.
      await expect.poll(() => hanging.hits(), { timeout: 20_000 }).toBeGreaterThan(0);
      const other = await company(first);
      const { data: ep } = await call(first.url, 'POST', '/api/company/webhooks', other.cookie, {
        url: rx.url,
        events: ['sim.activated'],
      });
      const t0 = Date.now();
      await call(first.url, 'POST', `/api/company/webhooks/test/${ep.id}`, other.cookie);
      await expect.poll(() => rx.got.length, { timeout: 20_000, interval: 20 }).toBe(1);
      const waited = Date.now() - t0;
      expect(waited).toBeLessThan(TIMEOUT);
      // Never more than one attempt at a time at one endpoint, across instances; it backs off as a whole.
      expect(hanging.most()).toBe(1);
      const [row] = await e.execute<{ failures_in_row: number; pending: number }[]>(
        `select w.failures_in_row, (select count(*)::int from webhook_delivery d
           where d.endpoint_id = w.id and d.status = 'pending' and d.attempts = 0) as pending
         from webhook_endpoint w where w.id = ?`,
        [slowEp.id],
      );
      expect(row!.pending).toBeGreaterThan(990);
    } finally {
      await second?.stop();
      await first.stop();
      await hanging.close();
    }
  });
});

describe('managing endpoints', () => {
  it('rotates the secret (the new one signs), disables (nothing is sent) and deletes', async () => {
    const rx = await newReceiver();
    const c = await company();
    const { data: ep } = await call(portal.server.url, 'POST', '/api/company/webhooks', c.cookie, {
      url: rx.url,
      events: ['sim.activated'],
    });
    const rotated = await call(portal.server.url, 'POST', `/api/company/webhooks/rotate/${ep.id}`, c.cookie);
    expect(rotated.data.secret).not.toBe(ep.secret);
    const until = Date.parse(rotated.data.previousSecretValidUntil);
    expect(Math.abs(until - Date.now() - 24 * 3600_000)).toBeLessThan(60_000);
    // Within the overlap both secrets sign: the new one first.
    await call(portal.server.url, 'POST', `/api/company/webhooks/test/${ep.id}`, c.cookie);
    await expect.poll(() => rx.got.length, { timeout: 20_000 }).toBe(1);
    const sig = String(rx.got[0]!.headers['x-sim-portal-signature']);
    expect(sig).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    expect(verify(rotated.data.secret, sig, rx.got[0]!.body)).toBe(true);
    expect(verify(ep.secret, sig, rx.got[0]!.body)).toBe(true);
    expect(verify('whsec_other', sig, rx.got[0]!.body)).toBe(false);
    // Once the overlap is over, only the new one.
    await em().execute(`update webhook_endpoint set previous_secret_until = now() - interval '1 second' where id = ?`, [
      ep.id,
    ]);
    await call(portal.server.url, 'POST', `/api/company/webhooks/test/${ep.id}`, c.cookie);
    await expect.poll(() => rx.got.length, { timeout: 20_000 }).toBe(2);
    const later = String(rx.got[1]!.headers['x-sim-portal-signature']);
    expect(later).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verify(rotated.data.secret, later, rx.got[1]!.body)).toBe(true);
    expect(verify(ep.secret, later, rx.got[1]!.body)).toBe(false);
    const row = await em().findOneOrFail(WebhookEndpoint, { id: ep.id });
    const trail = await em().find(AuditEvent, { company: c.id, kind: 'webhook' });
    expect(JSON.stringify(trail)).not.toContain(row.previousSecret);
    expect(JSON.stringify(trail)).not.toContain(row.secret);

    const off = await call(portal.server.url, 'PUT', '/api/company/webhooks', c.cookie, {
      id: ep.id,
      url: rx.url,
      events: ['sim.activated'],
      enabled: false,
    });
    expect(off.status).toBe(200);
    await call(portal.server.url, 'POST', '/api/sim', c.cookie, { iccid: newIccid(), ...plan });
    expect(await em().count(WebhookEvent, { company: c.id, type: 'sim.activated' })).toBe(0);
    expect((await call(portal.server.url, 'POST', `/api/company/webhooks/test/${ep.id}`, c.cookie)).status).toBe(409);

    expect((await call(portal.server.url, 'POST', `/api/company/webhooks/delete/${ep.id}`, c.cookie)).status).toBe(200);
    expect((await call(portal.server.url, 'GET', '/api/company/webhooks', c.cookie)).data).toEqual([]);
    const actions = (await em().find(AuditEvent, { company: c.id, kind: 'webhook' }, { orderBy: { id: 'asc' } })).map(
      (a) => a.action,
    );
    expect(actions).toEqual([
      'webhookCreated',
      'webhookRotated',
      'webhookTested',
      'webhookTested',
      'webhookUpdated',
      'webhookDeleted',
    ]);
  });
});
