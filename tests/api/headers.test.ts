// Long: every kind of answer is held to one set of header rules, and the CSP to one Chromium.
// Security and cache headers on every kind of answer (pages, data requests, API, assets, refusals), the CSP
// nonce on Remix's inline scripts, no CSP violation in a real Chromium, and which proxy headers are trusted.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Sim } from '#server/db/entities.ts';
import { launchBrowser, newContext } from '#tests/helpers/browser.ts';
import { useScreens } from '#tests/helpers/screens.ts';
import { startTestServer, type TestServer } from '#tests/helpers/server.ts';

const portal = useScreens({ browser: false });
let anna: string;
let admin: string;

beforeAll(async () => {
  anna = await portal.server.sessionCookie('anna@demo.test');
  admin = await portal.server.sessionCookie('admin@demo.test');
});

const get = (path: string, headers: Record<string, string> = {}, base = portal.server.url) =>
  fetch(base + path, { headers, redirect: 'manual' });

async function anAsset(): Promise<string> {
  const html = await (await get('/login')).text();
  return /src="(\/assets\/[^"]+\.js)"|href="(\/assets\/[^"]+\.js)"/.exec(html)!.slice(1).find(Boolean)!;
}

function expectSecurityHeaders(res: Response) {
  const csp = res.headers.get('content-security-policy') ?? '';
  expect(csp).toMatch(/(^|;)script-src 'self' 'nonce-[A-Za-z0-9+/=]{16,}'(;|$)/);
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("default-src 'self'");
  expect(csp).toContain("object-src 'none'");
  expect(csp).not.toContain('unsafe-inline');
  expect(csp).not.toContain('unsafe-eval');
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('x-frame-options')).toBe('DENY');
  expect(res.headers.get('permissions-policy')).toContain('camera=(self)');
  expect(res.headers.get('permissions-policy')).toContain('microphone=()');
  expect(res.headers.get('strict-transport-security')).toBeNull(); // APP_URL is http here
}

describe('security headers', () => {
  it.each([
    ['a page', '/login', false],
    ['a logged-in page', '/sims', true],
    ['a data request', '/sims.data', true],
    ['a REST answer', '/api/sim/all', true],
    ['the tRPC endpoint', '/api/trpc/plans.list', true],
    ['an API 404', '/api/no/such', false],
    ['a page 404', '/no/such/page', false],
    ['a refusal at the door', '/sims?q=%00', false],
    ['the health check', '/healthz', false],
    ['the favicon', '/favicon.svg', false],
  ])('are on %s (%s)', async (_what, path, loggedIn) => {
    const res = await get(path, loggedIn ? { cookie: anna } : {});
    expectSecurityHeaders(res);
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    // Headers only a document heeds, and helmet's for old clients: on whatever can be a document
    // (server/http/security-headers.ts).
    if (!path.endsWith('.data')) {
      expect(res.headers.get('cross-origin-opener-policy'), path).toBe('same-origin');
      expect(res.headers.get('x-download-options'), path).toBe('noopen');
      expect(res.headers.get('x-xss-protection'), path).toBe('0');
    }
  });

  it("are a subresource's on hashed scripts and styles, which keep their year-long cache", async () => {
    // Never a document nor a worker's script: nosniff and the resource policy, none of a document's policies.
    const expectSubresourceHeaders = (res: Response) => {
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('cross-origin-resource-policy')).toBe('same-origin');
      for (const name of [
        'content-security-policy',
        'x-frame-options',
        'permissions-policy',
        'referrer-policy',
        'cross-origin-opener-policy',
        'x-download-options',
        'x-xss-protection',
        'x-request-id',
      ])
        expect(res.headers.get(name), name).toBeNull();
    };
    const res = await get(await anAsset(), { 'accept-encoding': 'br' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('javascript');
    expectSubresourceHeaders(res);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    // Never revalidated, so no validators.
    for (const name of ['etag', 'last-modified']) expect(res.headers.get(name), name).toBeNull();
    const plain = await get(await anAsset(), { 'accept-encoding': 'identity' });
    expect(plain.status).toBe(200);
    expectSubresourceHeaders(plain);
    expect(plain.headers.get('etag')).toBeNull();
    const css = /href="(\/assets\/[^"]+\.css)"/.exec(await (await get('/login')).text())?.[1];
    expect(css).toBeTruthy();
    expectSubresourceHeaders(await get(css!));
  });

  it('answer an asset the build does not have with a short plain 404, not a page', async () => {
    const res = await get('/assets/entry.client-gone0000.js');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('text/plain');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.text()).toBe('Det du söker finns inte.');
  });

  it("serve the build's other files by their name for an hour, and a page's path as the page", async () => {
    for (const path of ['/favicon.svg', '/favicon%2Esvg']) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type'), path).toContain('image/svg+xml');
      expect(res.headers.get('cache-control'), path).toBe('public, max-age=3600');
      expect(await res.text(), path).toContain('<svg');
    }
    // Not a file of the build: the app answers (its 404 page), never the disk.
    for (const path of ['/Favicon.svg', '/favicon.svg/x']) {
      const res = await get(path, { cookie: anna });
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type'), path).toContain('text/html');
    }
  });

  it('give every page a fresh nonce, carried by each of Remix’s inline scripts', async () => {
    const first = await get('/login');
    const second = await get('/login');
    const nonce = /'nonce-([^']+)'/.exec(first.headers.get('content-security-policy')!)![1]!;
    expect(/'nonce-([^']+)'/.exec(second.headers.get('content-security-policy')!)![1]).not.toBe(nonce);
    const html = await first.text();
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    expect(scripts.length).toBeGreaterThan(1);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
  });

  it('keep no-referrer (one value) on the login-link page', async () => {
    const res = await get('/auth/magic?token=whatever');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
  });
});

describe('Cache-Control', () => {
  it('is no-store on a logged-in page, its data request and the API', async () => {
    const sim = await portal.server.services.orm.em
      .fork()
      .findOneOrFail(Sim, { status: 'active', company: { name: 'Demo AB' } });
    for (const path of [
      '/sims',
      '/sims.data',
      `/sims/${sim.id}`,
      `/sims/${sim.id}.data`,
      '/',
      '/_root.data',
      '/api/sim/all',
      '/api/trpc/plans.list',
    ]) {
      const res = await get(path, { cookie: anna });
      expect(res.status, path).toBeLessThan(400);
      expect(res.headers.get('cache-control'), path).toBe('no-store');
    }
    const adminPage = await get('/admin', { cookie: admin });
    expect(adminPage.headers.get('cache-control')).toBe('no-store');
  });

  it("keeps Remix's year-long public cache on the route manifest of the build, logged in too", async () => {
    // The build's version, as the browser reads it: from the manifest module the page links.
    const html = await (await get('/sims', { cookie: anna })).text();
    const manifestModule = /\/assets\/manifest-[^"]+\.js/.exec(html)?.[0];
    expect(manifestModule).toBeTruthy();
    const version = /"version":"([^"]+)"/.exec(await (await get(manifestModule!)).text())?.[1];
    expect(version).toBeTruthy();
    const res = await get(`/__manifest?p=%2Fadd&p=%2Fsims&version=${version}`, { cookie: anna });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('set-cookie')).toBeNull();
    expect(Object.keys((await res.json()) as object)).toContain('routes/add');
    expectSecurityHeaders(res);
    // Another build's version: Remix asks for a reload, which must not be cached.
    const stale = await get('/__manifest?p=%2Fadd&version=0', { cookie: anna });
    expect(stale.status).toBe(204);
    expect(stale.headers.get('cache-control')).toBe('no-store');
  });

  it('is no-store on a page whose answer sets a cookie', async () => {
    const res = await fetch(`${portal.server.url}/theme`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'theme=light',
      redirect: 'manual',
    });
    expect(res.headers.get('set-cookie')).toBeTruthy();
    expect(res.headers.get('cache-control')).toBe('no-store');
  });
});

describe('proxy headers (TRUST_PROXY)', () => {
  const ipKeys = async (s: TestServer) =>
    (
      (await s.services.orm.em
        .fork()
        .getConnection()
        .execute(`select key from rate_limit_counter where key like 'login:ip:%'`)) as Array<{ key: string }>
    ).map((r) => r.key);
  const login = (s: TestServer, forwardedFor: string) =>
    fetch(`${s.url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', 'x-forwarded-for': forwardedFor },
      body: JSON.stringify({ destination: 'anna@demo.test' }),
    });

  it('ignores X-Forwarded-For by default: the login rate limit counts the socket’s address', async () => {
    expect((await login(portal.server, '203.0.113.7')).status).toBe(200);
    // The counting runs after the answer (the same answer in every case).
    await expect.poll(async () => (await ipKeys(portal.server)).some((k) => /127\.0\.0\.1|::1/.test(k))).toBe(true);
    expect((await ipKeys(portal.server)).some((k) => k.includes('203.0.113.7'))).toBe(false);
  });

  it('believes X-Forwarded-For from a proxy TRUST_PROXY names; HSTS and upgrade-insecure-requests behind an https APP_URL', async () => {
    const proxied = await startTestServer({ env: { TRUST_PROXY: 'loopback', APP_URL: 'https://sim.example.se' } });
    try {
      expect((await login(proxied, '203.0.113.8')).status).toBe(200);
      await expect.poll(() => ipKeys(proxied)).toContain('login:ip:203.0.113.8');
      const res = await get('/login', {}, proxied.url);
      expect(res.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
      expect(res.headers.get('content-security-policy')).toContain('upgrade-insecure-requests');
    } finally {
      await proxied.stop();
    }
  });
});

describe('the Content-Security-Policy in a real Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser(['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream']);
  });
  afterAll(async () => browser?.close());

  it('lets every screen run with JS (the scanner too) without a single violation', async () => {
    const sim = await portal.server.services.orm.em
      .fork()
      .findOneOrFail(Sim, { status: 'active', company: { name: 'Demo AB' } });
    const context = await newContext(browser, { baseURL: portal.server.url, cookie: admin });
    await context.grantPermissions(['camera'], { origin: portal.server.url });
    const violations: string[] = [];
    await context.exposeFunction('reportViolation', (text: string) => void violations.push(text));
    await context.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) =>
        (window as unknown as { reportViolation: (t: string) => void }).reportViolation(
          `${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`,
        ),
      );
    });
    const page = await context.newPage();
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
    });
    await page.goto('/sims');
    await page.getByRole('heading', { level: 1 }).waitFor();
    // Hydrated (typing before React has taken over the page is not a live search): the live search answers
    // as the user types, through the tRPC client.
    await page.waitForFunction(() => '__remixRouter' in window);
    await page.getByRole('searchbox').first().fill('8946');
    await expect.poll(() => page.url()).toContain('q=8946');
    await page.goto(`/sims/${sim.id}`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.goto('/admin');
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.goto('/add');
    await page.getByRole('button', { name: 'Skanna streckkod' }).click();
    await page.getByRole('button', { name: 'Stäng skanner' }).waitFor();
    await expect.poll(() => page.locator('video').count()).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Stäng skanner' }).click();
    await page.goto('/feedback');
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(violations).toEqual([]);
    await context.close();
  });
});
