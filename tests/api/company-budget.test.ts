// Long: the budgets of one company through every door share one server with small limits.
// Budgets that cannot be multiplied or gone around, through the real doors (issue 37, finding 7): the keys of one
// company share its budget (COMPANY_RATE_LIMIT) on top of their own, with RateLimit-* headers of whichever budget
// is tightest; a signed-in user's /api/trpc calls, page data requests, pages and form posts spend the same budget as
// the REST paths and are refused with it; and a company holds at most API_KEYS_MAX_ACTIVE live keys (REST and the
// page without JS).
import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { createApiKey } from '#server/api-keys/keys.ts';
import { ApiKey, User } from '#server/db/entities.ts';
import { companyWithOwner } from '#tests/helpers/company.ts';
import { decodeHtml } from '#tests/helpers/html.ts';
import { useScreens } from '#tests/helpers/screens.ts';

const KEY = 30;
const USER = 20;
const COMPANY = 50;
const MAX_KEYS = 30;
const portal = useScreens({
  browser: false,
  env: {
    API_KEY_RATE_LIMIT: String(KEY),
    API_SESSION_RATE_LIMIT: String(USER),
    COMPANY_RATE_LIMIT: String(COMPANY),
    API_KEYS_MAX_ACTIVE: String(MAX_KEYS),
  },
});
const em = () => portal.server.services.orm.em.fork();

type Answer = { status: number; headers: Headers; text: string };

async function get(path: string, who: { key?: string; cookie?: string }, headers: Record<string, string> = {}) {
  const h: Record<string, string> = { ...headers };
  if (who.key) h.authorization = `Bearer ${who.key}`;
  if (who.cookie) h.cookie = who.cookie;
  const res = await fetch(portal.server.url + path, { headers: h, redirect: 'manual' });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

const limits = (a: Answer) => ({
  limit: Number(a.headers.get('ratelimit-limit') ?? NaN),
  remaining: Number(a.headers.get('ratelimit-remaining') ?? NaN),
});

/** A 429 as every door answers it: Retry-After equal to the window's RateLimit-Reset, nothing left. */
function expectRefused(a: Answer) {
  expect(a.status).toBe(429);
  const retry = Number(a.headers.get('retry-after'));
  expect(retry).toBeGreaterThanOrEqual(1);
  expect(retry).toBeLessThanOrEqual(60);
  expect(Number(a.headers.get('ratelimit-reset'))).toBe(retry);
  expect(limits(a).remaining).toBe(0);
}

/** A page's form post as a browser without JavaScript sends it (from its own origin). */
async function postForm(path: string, cookie: string, form: Record<string, string>) {
  const res = await fetch(portal.server.url + path, {
    method: 'POST',
    headers: {
      cookie,
      origin: portal.server.url,
      'sec-fetch-site': 'same-origin',
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams(form).toString(),
    redirect: 'manual',
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/**
 * Budgets count in windows aligned to the minute: a test's requests must fall into one. It starts with at least 40 s
 * of its window left (about 60 requests take a few seconds; seconds more on a loaded machine), waiting up to 40 s.
 */
async function windowWithRoom() {
  await expect.poll(() => new Date().getSeconds() < 20, { timeout: 45_000, interval: 250 }).toBe(true);
}

/** A company of its own (its own budget) with its owner signed in. */
async function company(tag: string) {
  const c = await companyWithOwner(portal.server, 'Budget', tag);
  return { ...c, owner: await portal.server.sessionCookie(c.ownerEmail) };
}

/** Keys made in the database (no request spends a budget making them). */
async function keysOf(c: { companyId: number; ownerId: number }, n: number, expiresAt?: Date) {
  const keys: { id: number; key: string }[] = [];
  const actor = { userId: c.ownerId, actingCompanyId: null, companyId: c.companyId };
  for (let i = 0; i < n; i++)
    keys.push(await createApiKey(em(), actor, { name: `k${i}`, scope: 'read', expiresAt }, 1000));
  return keys;
}

let members = 0;
async function member(companyId: number) {
  const e = em();
  const email = `budget-${++members}-${Date.now()}@budget.test`;
  e.create(User, { name: `Medlem ${members}`, email, company: companyId, role: 'member' });
  await e.flush();
  return portal.server.sessionCookie(email);
}

const trpcList = (calls = 1) =>
  `/api/trpc/${Array.from({ length: calls }, () => 'sim.list').join(',')}?batch=1&input=${encodeURIComponent(
    JSON.stringify(Object.fromEntries(Array.from({ length: calls }, (_, i) => [i, {}]))),
  )}`;

/** A browser's navigation to a page (fetch would send its own Sec-Fetch-Mode: cors). */
function navigate(path: string, cookie: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers = { cookie, accept: 'text/html', 'sec-fetch-mode': 'navigate', 'sec-fetch-site': 'none' };
    http
      .get(portal.server.url + path, { headers }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => {
          const h = new Headers();
          for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') h.set(k, v);
          resolve({ status: res.statusCode ?? 0, headers: h, text });
        });
      })
      .on('error', reject);
  });
}

describe('the company budget', () => {
  it('is one for all its keys: 25 keys spend one budget, the headers name the tightest, then all are refused', async () => {
    const c = await company('keys');
    const keys = (await keysOf(c, 25)).map((k) => k.key);
    const [other] = (await keysOf(await company('other'), 1)).map((k) => k.key);
    await windowWithRoom();
    let n = 0;
    for (let round = 0; round < 2; round++) {
      for (const key of keys) {
        const a = await get('/api/rate_plans', { key });
        n++;
        expect(a.status).toBe(200);
        // The key's own budget (KEY - round - 1 left) until the company's has less left (of equals, the smaller).
        const own = KEY - round - 1;
        const left = COMPANY - n;
        expect(limits(a)).toEqual(left < own ? { limit: COMPANY, remaining: left } : { limit: KEY, remaining: own });
      }
    }
    expect(n).toBe(COMPANY);
    // Every key of the company is refused now, with the company's words, and so is its owner's cookie.
    for (const key of keys.slice(0, 3)) {
      const over = await get('/api/rate_plans', { key });
      expectRefused(over);
      expect(limits(over).limit).toBe(COMPANY);
      expect(JSON.parse(over.text)).toEqual({
        error: expect.stringMatching(/^För många anrop från företaget/),
        issues: [],
      });
    }
    expectRefused(await get('/api/rate_plans', { cookie: c.owner }));
    // Another company's key is not.
    const apart = await get('/api/rate_plans', { key: other! });
    expect(apart.status).toBe(200);
    expect(limits(apart)).toEqual({ limit: KEY, remaining: KEY - 1 });
  }, 120_000);

  it('is one for all its users too, on every door', async () => {
    const c = await company('users');
    const a = await member(c.companyId);
    const b = await member(c.companyId);
    await windowWithRoom();
    // Two users spend the company's 50 between them: 20 each through the API and the pages, then 10 more.
    for (let i = 0; i < USER; i++) expect((await get('/api/rate_plans', { cookie: a })).status).toBe(200);
    for (let i = 0; i < USER; i++) expect((await get('/sims.data', { cookie: b })).status).toBe(200);
    for (let i = 0; i < COMPANY - 2 * USER; i++)
      expect((await get('/api/rate_plans', { cookie: c.owner })).status).toBe(200);
    const over = await get(trpcList(), { cookie: c.owner });
    expectRefused(over);
    expect(limits(over).limit).toBe(COMPANY);
    expect(JSON.parse(over.text).error).toMatch(/^För många anrop från företaget/);
  }, 120_000);
});

describe('a signed-in user over the budget', () => {
  it('is refused on /api/trpc, the page data requests, the pages and the form posts too', async () => {
    const c = await company('doors');
    const m = await member(c.companyId);
    await windowWithRoom();
    for (let i = 1; i <= USER; i++) {
      const a = await get('/api/rate_plans', { cookie: m });
      expect(a.status).toBe(200);
      expect(limits(a)).toEqual({ limit: USER, remaining: USER - i });
    }
    expectRefused(await get('/api/rate_plans', { cookie: m }));

    const trpc = await get(trpcList(), { cookie: m });
    expectRefused(trpc);
    expect(JSON.parse(trpc.text)).toEqual({ error: expect.stringMatching(/^För många anrop till API:t/), issues: [] });
    expectRefused(await get('/sims.data', { cookie: m }));
    const page = await navigate('/sims', m);
    expectRefused(page);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(decodeHtml(page.text)).toContain('För många förfrågningar på kort tid');
    const post = await postForm('/feedback', m, { message: 'Hej' });
    expect(post.status).toBe(429);
    // Signing out is never refused.
    const out = await postForm('/auth/logout', m, {});
    expect(out.status).toBeLessThan(400);
    expect((await get('/api/rate_plans', { cookie: m })).status).toBe(401);
    // The company's budget was not spent by the refused requests: another user of it goes on.
    const other = await get(trpcList(), { cookie: c.owner });
    expect(other.status).toBe(200);
    expect(limits(other)).toEqual({ limit: USER, remaining: USER - 1 });
  }, 120_000);

  it('spends it through /api/trpc and the pages as through the REST paths, with the headers on each', async () => {
    const c = await company('spend');
    const m = await member(c.companyId);
    await windowWithRoom();
    // A batch of five calls costs five.
    const batch = await get(trpcList(5), { cookie: m });
    expect(batch.status).toBe(200);
    expect(limits(batch)).toEqual({ limit: USER, remaining: USER - 5 });
    const data = await get('/sims.data', { cookie: m });
    expect(data.status).toBe(200);
    expect(limits(data)).toEqual({ limit: USER, remaining: USER - 6 });
    const page = await navigate('/sims', m);
    expect(page.status).toBe(200);
    expect(limits(page)).toEqual({ limit: USER, remaining: USER - 7 });
    // Remix's route manifest holds no user data and is not counted.
    await get('/__manifest?p=%2Fsims&version=x', { cookie: m });
    const rest = await get('/api/rate_plans', { cookie: m });
    expect(limits(rest)).toEqual({ limit: USER, remaining: USER - 8 });
  }, 120_000);
});

describe('the cap on active API keys', () => {
  it(`refuses the company's key number ${MAX_KEYS + 1} on REST (400) and on the page without JS (values kept)`, async () => {
    const c = await company('cap');
    await keysOf(c, MAX_KEYS - 2);
    // A revoked and an expired key do not count: MAX_KEYS - 2 live, two more fit.
    const [revoked] = await keysOf(c, 1);
    await em().nativeUpdate(ApiKey, { id: revoked!.id }, { revokedAt: new Date() });
    const [expired] = await keysOf(c, 1, new Date(Date.now() + 60_000));
    await em().nativeUpdate(ApiKey, { id: expired!.id }, { expiresAt: new Date() });
    const post = (name: string) =>
      fetch(`${portal.server.url}/api/company/apiKeys`, {
        method: 'POST',
        headers: { cookie: c.owner, 'content-type': 'application/json' },
        body: JSON.stringify({ name, scope: 'read' }),
      });
    expect((await post('Nästsista')).status).toBe(200);
    expect((await post('Sista')).status).toBe(200);
    const refused = await post('En för mycket');
    expect(refused.status).toBe(400);
    const message = `Företaget har redan ${MAX_KEYS} aktiva API-nycklar, det högsta antalet. Återkalla en nyckel som inte används innan du skapar en ny.`;
    expect(await refused.json()).toEqual({ error: message, issues: [] });
    const live = () => em().count(ApiKey, { company: c.companyId, revokedAt: null, expiresAt: null });
    expect(await live()).toBe(MAX_KEYS);

    // The page without JS: the form's post answers the page again with the message and the typed values.
    const page = await postForm('/company/api-keys', c.owner, { name: 'Lagersystemet', scope: 'write', expiresAt: '' });
    expect(page.status).toBe(200);
    const html = decodeHtml(page.text);
    expect(html).toContain(message);
    expect(html).toMatch(
      /<input[^>]*name="name"[^>]*value="Lagersystemet"|<input[^>]*value="Lagersystemet"[^>]*name="name"/,
    );
    expect(html).toMatch(/<option[^>]*value="write"[^>]*selected/);
    expect(await live()).toBe(MAX_KEYS);

    // A key revoked frees a place.
    const one = await em().findOneOrFail(ApiKey, { company: c.companyId, name: 'Sista' });
    const revoke = await fetch(`${portal.server.url}/api/company/apiKeys/revoke/${one.id}`, {
      method: 'POST',
      headers: { cookie: c.owner },
    });
    expect(revoke.status).toBe(200);
    expect((await post('I stället')).status).toBe(200);
  });
});
