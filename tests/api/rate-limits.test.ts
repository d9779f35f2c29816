// Long: the keys' and users' budgets share one server with small limits; two instances one budget.
// The REST paths' request budgets through the real doors: per API key (API_KEY_RATE_LIMIT) and per signed-in user
// (API_SESSION_RATE_LIMIT), both small here; RateLimit-Limit, -Remaining and -Reset on every answer (200, 400, 404,
// the list export, the 429 with Retry-After); a bulk list costing its rows and refused before any work; another
// key's or user's budget apart; two instances on one PostgreSQL database spending one budget.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Company, Sim, User } from '#server/db/entities.ts';
import { needs } from '#tests/helpers/needs.ts';
import { iccidFactory } from '#tests/helpers/iccid.ts';
import { startTestServer, type TestServer } from '#tests/helpers/server.ts';

const LIMIT = 30;
const ENV = { API_KEY_RATE_LIMIT: String(LIMIT), API_SESSION_RATE_LIMIT: String(LIMIT) };
const newIccid = iccidFactory('8946479');
let server: TestServer;

type Answer = { status: number; headers: Headers; data: Record<string, unknown> };
type Caller = { key: string } | { cookie: string };

async function call(
  who: Caller | null,
  method: string,
  path: string,
  body?: unknown,
  base = server.url,
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (who && 'key' in who) headers.authorization = `Bearer ${who.key}`;
  if (who && 'cookie' in who) headers.cookie = who.cookie;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(base + path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let data: Record<string, unknown> = {};
  try {
    data = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    data = { text };
  }
  return { status: res.status, headers: res.headers, data };
}

/** The three fields as numbers (NaN when missing). */
const limits = (a: Answer) => ({
  limit: Number(a.headers.get('ratelimit-limit') ?? NaN),
  remaining: Number(a.headers.get('ratelimit-remaining') ?? NaN),
  reset: Number(a.headers.get('ratelimit-reset') ?? NaN),
});

function expectHeaders(a: Answer, remaining: number) {
  const l = limits(a);
  expect(l.limit).toBe(LIMIT);
  expect(l.remaining).toBe(remaining);
  expect(l.reset).toBeGreaterThanOrEqual(1);
  expect(l.reset).toBeLessThanOrEqual(60);
}

/**
 * Budgets count in windows aligned to the minute: a test of one starts with at least 20 s of its window left,
 * so its requests are counted in one window (waits on the clock, at most 20 s).
 */
async function windowWithRoom() {
  await expect.poll(() => new Date().getSeconds() < 40, { timeout: 25_000, interval: 250 }).toBe(true);
}

let owner: string;
let users = 0;
/** A new member of Demo AB, signed in: a budget of its own. */
async function newMember(): Promise<{ cookie: string }> {
  const em = server.services.orm.em.fork();
  const demo = await em.findOneOrFail(Company, { customerNumber: '100001' });
  const email = `rl-${++users}-${Date.now()}@demo.test`;
  em.create(User, { name: `Budget ${users}`, email, company: demo, role: 'member' });
  await em.flush();
  return { cookie: await server.sessionCookie(email) };
}

/** A new key of Demo AB (created by the owner over REST, a few requests of the owner's budget). */
async function newKey(scope: 'read' | 'write'): Promise<{ key: string }> {
  const r = await call({ cookie: owner }, 'POST', '/api/company/apiKeys', {
    name: `rl-${Math.random().toString(36).slice(2, 8)}`,
    scope,
  });
  expect(r.status).toBe(200);
  return { key: r.data.key as string };
}

const bulk = (iccids: string[]) => ({
  iccids,
  dataLimit: 1000,
  callAndSms: true,
  roaming: false,
  invoiceLineMark: 'Budget',
  invoiceLineNote: '',
});

beforeAll(async () => {
  server = await startTestServer({ env: ENV });
  const em = server.services.orm.em.fork();
  const demo = await em.findOneOrFail(Company, { customerNumber: '100001' });
  em.create(User, { name: 'Budget Ägare', email: 'rl-agare@demo.test', company: demo, role: 'owner' });
  await em.flush();
  owner = await server.sessionCookie('rl-agare@demo.test');
});
afterAll(async () => {
  await server?.stop();
});

describe('the budget of an API key', () => {
  it('is on every answer (200, 400, 404, 429), counts down, and refuses with 429 and Retry-After when spent', async () => {
    const k = await newKey('read');
    const other = await newKey('read');
    await windowWithRoom();
    const first = await call(k, 'GET', '/api/rate_plans');
    expect(first.status).toBe(200);
    expectHeaders(first, LIMIT - 1);
    expectHeaders(await call(k, 'GET', '/api/rate_plans'), LIMIT - 2);
    const notFound = await call(k, 'GET', '/api/sim/999999999');
    expect(notFound.status).toBe(404);
    expectHeaders(notFound, LIMIT - 3);
    const refused = await call(k, 'GET', '/api/sim/all?limit=abc');
    expect(refused.status).toBe(400);
    expectHeaders(refused, LIMIT - 4);
    for (let i = 5; i <= LIMIT; i++) {
      const a = await call(k, 'GET', '/api/rate_plans');
      expect(a.status).toBe(200);
      expect(limits(a).remaining).toBe(LIMIT - i);
    }
    const over = await call(k, 'GET', '/api/rate_plans');
    expect(over.status).toBe(429);
    expect(over.data).toEqual({ error: expect.stringMatching(/^För många anrop med API-nyckeln/), issues: [] });
    expectHeaders(over, 0);
    const retry = Number(over.headers.get('retry-after'));
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(60);
    expect(retry).toBe(limits(over).reset);
    // Another key of the same company has its own budget.
    expectHeaders(await call(other, 'GET', '/api/rate_plans'), LIMIT - 1);
  });

  it('is on the list export too', async () => {
    const k = await newKey('read');
    await windowWithRoom();
    const res = await fetch(`${server.url}/api/sim/export?format=csv`, {
      headers: { authorization: `Bearer ${k.key}` },
    });
    await res.arrayBuffer();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
    expect(res.headers.get('ratelimit-limit')).toBe(String(LIMIT));
    expect(res.headers.get('ratelimit-remaining')).toBe(String(LIMIT - 1));
    const bad = await call(k, 'GET', '/api/sim/export?format=pdf');
    expect(bad.status).toBe(400);
    expectHeaders(bad, LIMIT - 2);
  });
});

describe('the budget of a signed-in user', () => {
  it('counts a cookie caller per user: headers, 429 with Retry-After when spent, another user apart', async () => {
    const a = await newMember();
    const b = await newMember();
    await windowWithRoom();
    expectHeaders(await call(a, 'GET', '/api/sim/all?limit=1'), LIMIT - 1);
    const notFound = await call(a, 'GET', '/api/sim/999999999');
    expect(notFound.status).toBe(404);
    expectHeaders(notFound, LIMIT - 2);
    for (let i = 3; i <= LIMIT; i++) expect((await call(a, 'GET', '/api/rate_plans')).status).toBe(200);
    const over = await call(a, 'GET', '/api/rate_plans');
    expect(over.status).toBe(429);
    expect(over.data).toEqual({ error: expect.stringMatching(/^För många anrop till API:t/), issues: [] });
    expectHeaders(over, 0);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // The list export is refused as well; another user is not.
    expect((await call(a, 'GET', '/api/sim/export?format=csv')).status).toBe(429);
    expectHeaders(await call(b, 'GET', '/api/rate_plans'), LIMIT - 1);
  });

  it('has no budget while signed out: 401 without the headers', async () => {
    const anonymous = await call(null, 'GET', '/api/sim/all');
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('ratelimit-limit')).toBeNull();
  });
});

describe('a bulk list weighs its rows', () => {
  it('costs the ICCIDs of POST /api/sim/bulk, and a list that does not fit is refused before any work', async () => {
    const k = await newKey('write');
    await windowWithRoom();
    const first = Array.from({ length: 25 }, newIccid);
    const done = await call(k, 'POST', '/api/sim/bulk', bulk(first));
    expect(done.status).toBe(200);
    expect((done.data.counts as { activated: number }).activated).toBe(25);
    expectHeaders(done, LIMIT - 25);

    const tooMany = Array.from({ length: 10 }, newIccid);
    const over = await call(k, 'POST', '/api/sim/bulk', bulk(tooMany));
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // Nothing was spent: what is left stays left.
    expectHeaders(over, LIMIT - 25);
    const em = server.services.orm.em.fork();
    expect(await em.count(Sim, { iccid: { $in: tooMany } })).toBe(0);

    const rest = await call(k, 'POST', '/api/sim/bulk', bulk(tooMany.slice(0, 5)));
    expect(rest.status).toBe(200);
    expectHeaders(rest, 0);
    expect((await call(k, 'GET', '/api/rate_plans')).status).toBe(429);
  });

  it('costs the ids of POST /api/sim/bulk/deactivate, for a cookie caller too', async () => {
    const m = await newMember();
    await windowWithRoom();
    const iccids = Array.from({ length: 4 }, newIccid);
    const done = await call(m, 'POST', '/api/sim/bulk', bulk(iccids));
    expect(done.status).toBe(200);
    expectHeaders(done, LIMIT - 4);
    const ids = (done.data.results as { simId: number }[]).map((r) => r.simId);
    const off = await call(m, 'POST', '/api/sim/bulk/deactivate', { ids: [...ids, 999_999_999] });
    expect(off.status).toBe(200);
    expectHeaders(off, LIMIT - 9);
    // A malformed body costs one: the door refuses it.
    const bad = await call(m, 'POST', '/api/sim/bulk/deactivate', { ids: 'all' });
    expect(bad.status).toBe(400);
    expectHeaders(bad, LIMIT - 10);
  });
});

needs(describe, 'PostgreSQL')('two instances on one database', () => {
  it('spend one budget between them', async () => {
    const second = await startTestServer({ db: server.db, env: ENV });
    try {
      const k = await newKey('read');
      const m = await newMember();
      await windowWithRoom();
      for (const who of [k, m]) {
        for (let i = 1; i <= LIMIT; i++) {
          const a = await call(who, 'GET', '/api/rate_plans', undefined, i % 2 ? second.url : server.url);
          expect(a.status).toBe(200);
          // A budget of 30 syncs every hit (a chunk is a twentieth, at least 1): what is left is exact.
          expect(limits(a).remaining).toBe(LIMIT - i);
        }
        for (const base of [server.url, second.url]) {
          const over = await call(who, 'GET', '/api/rate_plans', undefined, base);
          expect(over.status).toBe(429);
          expect(limits(over).remaining).toBe(0);
        }
      }
    } finally {
      await second.stop();
    }
  });
});
