// Long: one owner, its keys of each scope and one server serve every rule of a key.
// API keys over REST: created, listed and revoked by an owner under /api/company/apiKeys; a key of
// scope read on every GET path of its company, write on its SIM changes too; 401 for a wrong, revoked or
// expired key; the rate limit (API_KEY_RATE_LIMIT, small here) with 429, Retry-After and RateLimit-*; a cookie and
// a key together refused; the key named as the actor in the SIM history and the trail; never /api/company/*, the
// admin paths or /api/trpc.
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiKey, Company, User } from '#server/db/entities.ts';
import { needs } from '#tests/helpers/needs.ts';
import { iccidFactory } from '#tests/helpers/iccid.ts';
import { useScreens } from '#tests/helpers/screens.ts';
import { startTestServer } from '#tests/helpers/server.ts';

const LIMIT = 25;
const portal = useScreens({ browser: false, env: { API_KEY_RATE_LIMIT: String(LIMIT) } });
const newIccid = iccidFactory('8946477');
const em = () => portal.server.services.orm.em.fork();

type Answer = {
  status: number;
  headers: Headers;
  data: Record<string, unknown> & { error?: string; issues?: unknown[] };
};

async function call(
  method: string,
  path: string,
  opts: { key?: string; cookie?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.key) headers.authorization = `Bearer ${opts.key}`;
  if (opts.cookie) headers.cookie = opts.cookie;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(portal.server.url + path, {
    method,
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, data: text ? JSON.parse(text) : {} };
}

const activation = (iccid: string) => ({
  iccid,
  dataLimit: 1000,
  callAndSms: true,
  roaming: false,
  invoiceLineMark: 'Nyckel',
  invoiceLineNote: '',
});

let owner: string;
let member: string;
let otherOwner: string;
let demoId: number;

/** A new key of the owner's company, as the API answers it. */
async function newKey(scope: 'read' | 'write', name = `${scope}-${Math.random().toString(36).slice(2, 8)}`) {
  const r = await call('POST', '/api/company/apiKeys', { cookie: owner, body: { name, scope } });
  expect(r.status).toBe(200);
  return { ...(r.data as { id: number; key: string; prefix: string }), name };
}

/**
 * The limit counts in windows aligned to the minute: a test of it starts with at least 20 s of its window
 * left, so its requests are counted in one window (waits on the clock, at most 20 s).
 */
async function windowWithRoom() {
  await expect.poll(() => new Date().getSeconds() < 40, { timeout: 25_000, interval: 250 }).toBe(true);
}

beforeAll(async () => {
  const e = em();
  const demo = await e.findOneOrFail(Company, { customerNumber: '100001' });
  demoId = demo.id;
  e.create(User, { name: 'Kim Ägare', email: 'kim@demo.test', company: demo, role: 'owner' });
  const other = e.create(Company, {
    name: 'Andra AB',
    customerNumber: `KEY-${Date.now()}`,
    invoiceNote: '',
    invoiceInterval: 'monthly',
  });
  e.create(User, { name: 'Olga Annan', email: 'olga@andra.se', company: other, role: 'owner' });
  await e.flush();
  owner = await portal.server.sessionCookie('kim@demo.test');
  member = await portal.server.sessionCookie('anna@demo.test');
  otherOwner = await portal.server.sessionCookie('olga@andra.se');
});

describe('/api/company/apiKeys', () => {
  it('creates a key answered once, lists it by prefix without the key, and refuses bad input', async () => {
    const created = await newKey('read', 'Lager');
    expect(created.key).toMatch(/^sp_[A-Za-z0-9_-]{43}$/);
    expect(created.prefix).toBe(created.key.slice(0, 11));
    const list = await call('GET', '/api/company/apiKeys', { cookie: owner });
    expect(list.status).toBe(200);
    const row = (list.data as unknown as Array<Record<string, unknown>>).find((k) => k.id === created.id);
    expect(row).toMatchObject({ name: 'Lager', scope: 'read', prefix: created.prefix, createdBy: 'Kim Ägare' });
    expect(row).toMatchObject({ status: 'active', lastUsedAt: null, expiresAt: null, revokedAt: null });
    expect(JSON.stringify(list.data)).not.toContain(created.key);
    // Only the hash is stored.
    const stored = await em().findOneOrFail(ApiKey, { id: created.id });
    expect(stored.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored.hash).not.toContain(created.key);

    const bad = await call('POST', '/api/company/apiKeys', {
      cookie: owner,
      body: { name: '', scope: 'admin', expiresAt: '2001-01-01' },
    });
    expect(bad.status).toBe(400);
    const paths = (bad.data.issues as Array<{ path: string[] }>).map((i) => i.path.join('.'));
    expect(paths).toEqual(expect.arrayContaining(['name', 'scope', 'expiresAt']));
  });

  it('is for owners only: a member gets 403, nobody 401, and another company cannot revoke the key', async () => {
    expect((await call('GET', '/api/company/apiKeys', { cookie: member })).status).toBe(403);
    expect((await call('GET', '/api/company/apiKeys')).status).toBe(401);
    const k = await newKey('read');
    const foreign = await call('POST', `/api/company/apiKeys/revoke/${k.id}`, { cookie: otherOwner });
    expect(foreign.status).toBe(404);
    expect((await call('GET', '/api/sim/all', { key: k.key })).status).toBe(200);
  });

  it('writes the creation and the revocation to the trail as kind apiKey', async () => {
    const k = await newKey('write', 'Spårad');
    await call('POST', `/api/company/apiKeys/revoke/${k.id}`, { cookie: owner });
    const trail = await call('GET', '/api/company/audit?kind=apiKey', { cookie: owner });
    const whats = (trail.data.items as Array<{ what: string; who: string }>).map((i) => i.what);
    expect(whats).toContain('Skapade API-nyckeln Spårad (Skriv)');
    expect(whats).toContain('Återkallade API-nyckeln Spårad');
  });
});

describe('a bearer key on the REST paths', () => {
  it('read: every GET path of its company, but no SIM change (403 in Swedish)', async () => {
    const k = await newKey('read');
    const all = await call('GET', '/api/sim/all?limit=5', { key: k.key });
    expect(all.status).toBe(200);
    const sims = all.data as unknown as Array<{ id: number }>;
    expect(sims.length).toBeGreaterThan(0);
    expect((await call('GET', `/api/sim/${sims[0]!.id}`, { key: k.key })).status).toBe(200);
    expect((await call('GET', '/api/rate_plans', { key: k.key })).status).toBe(200);
    const file = await fetch(`${portal.server.url}/api/sim/export?format=csv`, {
      headers: { authorization: `Bearer ${k.key}` },
    });
    expect(file.status).toBe(200);
    await file.arrayBuffer();

    const refused = await call('POST', '/api/sim', { key: k.key, body: activation(newIccid()) });
    expect(refused.status).toBe(403);
    expect(refused.data).toEqual({
      error: 'API-nyckeln har behörigheten Läs: den kan inte ändra SIM-kort.',
      issues: [],
    });
    expect((await call('POST', `/api/sim/deactivate/${sims[0]!.id}`, { key: k.key })).status).toBe(403);
    expect((await call('POST', '/api/sim/bulk/deactivate', { key: k.key, body: { ids: [sims[0]!.id] } })).status).toBe(
      403,
    );
  });

  it('write: activates, edits and deactivates, named "API-nyckel <name>" in the history and the trail', async () => {
    const k = await newKey('write', 'Ordersystemet');
    const iccid = newIccid();
    const made = await call('POST', '/api/sim', { key: k.key, body: activation(iccid) });
    expect(made.status).toBe(200);
    const id = (made.data as { id: number }).id;
    const edit = await call('PUT', '/api/sim/edit', {
      key: k.key,
      body: { ...activation(iccid), id, invoiceLineMark: 'Ändrad' },
    });
    expect(edit.status).toBe(200);
    const bulk = await call('POST', '/api/sim/bulk', {
      key: k.key,
      body: { iccids: [newIccid()], dataLimit: 1000, callAndSms: true, roaming: false },
    });
    expect(bulk.status).toBe(200);
    const got = await call('GET', `/api/sim/${id}`, { key: k.key });
    const history = got.data.history as Array<{ kind: string; by: string }>;
    expect(history.map((h) => h.by)).toEqual(['API-nyckel Ordersystemet', 'API-nyckel Ordersystemet']);
    expect((await call('POST', `/api/sim/deactivate/${id}`, { key: k.key })).status).toBe(200);

    const trail = await call('GET', '/api/company/audit?limit=10', { cookie: owner });
    const rows = (trail.data.items as Array<{ who: string; what: string }>).filter((r) =>
      r.who.startsWith('API-nyckel'),
    );
    expect(rows.map((r) => r.what)).toEqual(
      expect.arrayContaining([`Aktiverade ${iccid}`, `Ändrade ${iccid}`, `Avaktiverade ${iccid}`]),
    );
    expect(new Set(rows.map((r) => r.who))).toEqual(new Set(['API-nyckel Ordersystemet']));
    // The list shows the key's last use.
    const list = await call('GET', '/api/company/apiKeys', { cookie: owner });
    const row = (list.data as unknown as Array<{ id: number; lastUsedAt: string | null }>).find((r) => r.id === k.id);
    expect(row?.lastUsedAt).not.toBeNull();
  });

  it('acts for its own company only: another company’s SIM is 404', async () => {
    const e = em();
    const other = await e.findOneOrFail(User, { email: 'olga@andra.se' });
    const cookie = otherOwner;
    const made = await call('POST', '/api/sim', { cookie, body: activation(newIccid()) });
    expect(made.status).toBe(200);
    expect(other.id).toBeGreaterThan(0);
    const k = await newKey('write');
    const id = (made.data as { id: number }).id;
    expect((await call('GET', `/api/sim/${id}`, { key: k.key })).status).toBe(404);
    expect((await call('POST', `/api/sim/deactivate/${id}`, { key: k.key })).status).toBe(404);
  });

  it('answers 401 in the one shape for a missing, malformed, wrong, revoked or expired key', async () => {
    const shape = { error: 'API-nyckel saknas eller är ogiltig, återkallad eller utgången.', issues: [] };
    const revoked = await newKey('read');
    expect((await call('GET', '/api/sim/all', { key: revoked.key })).status).toBe(200);
    const r = await call('POST', `/api/company/apiKeys/revoke/${revoked.id}`, { cookie: owner });
    expect(r.status).toBe(200);
    expect(r.data).toMatchObject({ status: 'revoked' });
    const expired = await newKey('read');
    expect((await call('GET', '/api/sim/all', { key: expired.key })).status).toBe(200);
    await em().nativeUpdate(ApiKey, { id: expired.id }, { expiresAt: new Date(Date.now() - 1000) });
    const wrong = `sp_${'A'.repeat(43)}`;
    for (const headers of [
      { authorization: `Bearer ${revoked.key}` },
      { authorization: `Bearer ${expired.key}` },
      { authorization: `Bearer ${wrong}` },
      { authorization: 'Bearer' },
      { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` },
    ]) {
      const a = await call('GET', '/api/sim/all', { headers });
      expect(a.status, headers.authorization).toBe(401);
      expect(a.data).toEqual(shape);
    }
    const list = await call('GET', '/api/company/apiKeys', { cookie: owner });
    const statuses = new Map(
      (list.data as unknown as Array<{ id: number; status: string }>).map((k) => [k.id, k.status]),
    );
    expect(statuses.get(revoked.id)).toBe('revoked');
    expect(statuses.get(expired.id)).toBe('expired');
  });

  it('a key with a future expiry date works until then', async () => {
    const r = await call('POST', '/api/company/apiKeys', {
      cookie: owner,
      body: { name: 'Tillfällig', scope: 'read', expiresAt: '2999-12-31' },
    });
    expect(r.status).toBe(200);
    const key = (r.data as { key: string }).key;
    expect((await call('GET', '/api/sim/all', { key })).status).toBe(200);
    const stored = await em().findOneOrFail(ApiKey, { id: (r.data as { id: number }).id });
    expect(stored.expiresAt?.toISOString()).toBe('2999-12-31T23:00:00.000Z');
  });

  it(`limits a key to API_KEY_RATE_LIMIT (${LIMIT}) requests a minute: 429 with Retry-After, other keys unaffected`, async () => {
    const k = await newKey('read');
    const other = await newKey('read');
    await windowWithRoom();
    const answers = [];
    for (let i = 0; i < LIMIT; i++) answers.push((await call('GET', '/api/rate_plans', { key: k.key })).status);
    expect(answers.every((s) => s === 200)).toBe(true);
    const over = await call('GET', '/api/rate_plans', { key: k.key });
    expect(over.status).toBe(429);
    const retry = Number(over.headers.get('retry-after'));
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(60);
    expect(over.data.error).toMatch(/^För många anrop med API-nyckeln/);
    expect(over.data.issues).toEqual([]);
    // The budget's fields too (tests/api/rate-limits.test.ts has the rest).
    expect(over.headers.get('ratelimit-limit')).toBe(String(LIMIT));
    expect(over.headers.get('ratelimit-remaining')).toBe('0');
    expect(over.headers.get('ratelimit-reset')).toBe(String(retry));
    expect((await call('GET', '/api/rate_plans', { key: other.key })).status).toBe(200);
  });

  needs(it, 'PostgreSQL')('shares the limit between two server instances on one database', async () => {
    const second = await startTestServer({ db: portal.server.db, env: { API_KEY_RATE_LIMIT: String(LIMIT) } });
    try {
      const k = await newKey('read');
      await windowWithRoom();
      const statuses: number[] = [];
      for (let i = 0; i < LIMIT; i++) {
        const url = (i % 2 ? second.url : portal.server.url) + '/api/rate_plans';
        const res = await fetch(url, { headers: { authorization: `Bearer ${k.key}` } });
        statuses.push(res.status);
        await res.text();
      }
      expect(statuses.every((s) => s === 200)).toBe(true);
      // The limit is used up across both: each instance refuses the next request.
      for (const url of [portal.server.url, second.url]) {
        const res = await fetch(`${url}/api/rate_plans`, { headers: { authorization: `Bearer ${k.key}` } });
        expect(res.status).toBe(429);
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        await res.text();
      }
    } finally {
      await second.stop();
    }
  });

  it('refuses a cookie and a key together (400), even when both are valid', async () => {
    const k = await newKey('write');
    const both = await call('GET', '/api/sim/all', { key: k.key, cookie: member });
    expect(both.status).toBe(400);
    expect(both.data).toEqual({
      error: 'Skicka antingen en sessionscookie eller en API-nyckel, inte båda.',
      issues: [],
    });
    expect((await call('POST', '/api/sim', { key: k.key, cookie: member, body: activation(newIccid()) })).status).toBe(
      400,
    );
  });

  it('is not held to the cross-site check without cookies (no browser sends it), as a cookie is', async () => {
    const k = await newKey('write');
    const crossSite = { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' };
    const made = await call('POST', '/api/sim', { key: k.key, headers: crossSite, body: activation(newIccid()) });
    expect(made.status).toBe(200);
    const withCookie = await call('POST', '/api/sim', {
      cookie: member,
      headers: crossSite,
      body: activation(newIccid()),
    });
    expect(withCookie.status).toBe(403);
  });

  it('never reaches /api/company/*, the admin paths, feedback or /api/trpc', async () => {
    const k = await newKey('write');
    const notHere = { error: 'API-nycklar kan inte användas här.', issues: [] };
    for (const [method, path, body] of [
      ['GET', '/api/company/users', undefined],
      ['GET', '/api/company/audit', undefined],
      ['GET', '/api/company/apiKeys', undefined],
      ['POST', '/api/company/apiKeys', { name: 'Ny', scope: 'write' }],
      ['POST', `/api/company/apiKeys/revoke/${k.id}`, undefined],
      ['GET', '/api/admin/getCompanies', undefined],
      ['POST', '/api/admin/loginAsCompany', { companyId: demoId }],
      ['POST', '/api/feedback', { message: 'Hej' }],
    ] as const) {
      const r = await call(method, path, { key: k.key, body });
      expect(r.status, path).toBe(403);
      expect(r.data, path).toEqual(notHere);
    }
    // The key is still live: its revoke above was refused.
    expect((await call('GET', '/api/sim/all', { key: k.key })).status).toBe(200);
    // tRPC (the browser's door) takes only the cookie: a bearer key there is nobody.
    const trpc = await fetch(`${portal.server.url}/api/trpc/sim.list?input=${encodeURIComponent('{}')}`, {
      headers: { authorization: `Bearer ${k.key}` },
    });
    expect(trpc.status).toBe(401);
    await trpc.text();
    // The event stream likewise.
    const sse = await fetch(`${portal.server.url}/api/sse`, { headers: { authorization: `Bearer ${k.key}` } });
    expect(sse.status).toBe(401);
    await sse.text();
  });

  it('the OpenAPI document declares the bearer scheme and each path’s scope', async () => {
    const doc = (await call('GET', '/api/openapi.json')).data as {
      components: { securitySchemes: Record<string, { type: string; scheme?: string }> };
      paths: Record<string, Record<string, { 'x-required-scope': string | null; security: unknown[] }>>;
    };
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.paths['/sim/all']!.get!['x-required-scope']).toBe('read');
    expect(doc.paths['/sim/{id}']!.get!['x-required-scope']).toBe('read');
    expect(doc.paths['/sim']!.post!['x-required-scope']).toBe('write');
    expect(doc.paths['/sim/bulk/deactivate']!.post!['x-required-scope']).toBe('write');
    expect(doc.paths['/company/apiKeys']!.post!['x-required-scope']).toBeNull();
    expect(doc.paths['/admin/getCompanies']!.get!['x-required-scope']).toBeNull();
    expect(doc.paths['/sim']!.post!.security).toEqual([{ session: [] }, { apiKey: ['write'] }]);
  });
});
