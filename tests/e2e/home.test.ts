import http from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { MOBILE, newContext } from '#tests/helpers/browser.ts';
import { useScreens } from '#tests/helpers/screens.ts';

const portal = useScreens();

describe('home page', () => {
  for (const js of [true, false]) {
    it(`shows the Swedish menu to a user (JS ${js ? 'on' : 'off'})`, async () => {
      const page = await portal.loggedInPage('anna@demo.test', { js });
      const ctx = page.context();
      await page.goto('/');
      expect(await page.getAttribute('html', 'lang')).toBe('sv');
      expect(await page.getAttribute('html', 'data-theme')).toBe('dark');
      const nav = page.getByRole('navigation', { name: 'Start' });
      for (const label of [
        'Aktivera SIM-kort',
        'Visa SIM-kort',
        'Exportera fakturaspecifikation till Excel',
        'Lämna feedback',
      ]) {
        await expect(nav.getByRole('link', { name: label }).isVisible()).resolves.toBe(true);
      }
      expect(await nav.getByRole('button', { name: 'Logga ut' }).isVisible()).toBe(true);
      expect(await nav.getByRole('link', { name: 'Admin' }).count()).toBe(0);
      expect(await page.locator('.back').count()).toBe(0);
      // Every other page has "< Backa" to its parent.
      await nav.getByRole('link', { name: 'Visa SIM-kort' }).click();
      await page.waitForURL('**/sims');
      await page.getByRole('link', { name: '< Backa' }).click();
      await page.waitForURL((u) => u.pathname === '/');
      await ctx.close();
    });
  }

  for (const js of [true, false]) {
    it(`logs out to the login page (JS ${js ? 'on' : 'off'})`, async () => {
      const cookie = await portal.server.sessionCookie('anna@demo.test');
      const ctx = await newContext(portal.browser, { baseURL: portal.server.url, js, cookie });
      const page = await ctx.newPage();
      await page.goto('/');
      if (js) await page.waitForFunction(() => '__remixRouter' in window);
      await page.getByRole('button', { name: 'Logga ut' }).click();
      await page.waitForURL((u) => u.pathname === '/login');
      await page.getByLabel('E-postadress').waitFor();
      const session = await fetch(`${portal.server.url}/auth/session`, { headers: { cookie } });
      expect(await session.json()).toMatchObject({ authenticated: false });
      await ctx.close();
    });

    it(`after logout the back button shows no SIM list (JS ${js ? 'on' : 'off'})`, async () => {
      // The browser shows a page from its cache on "back" unless the page said no-store (server/http/guards.ts).
      const page = await portal.loggedInPage('anna@demo.test', { js });
      const ctx = page.context();
      await page.goto('/sims');
      await page.locator('table.sims').waitFor();
      await page.getByRole('link', { name: '< Backa' }).click();
      await page.waitForURL((u) => u.pathname === '/');
      if (js) await page.waitForFunction(() => '__remixRouter' in window);
      await page.getByRole('button', { name: 'Logga ut' }).click();
      await page.waitForURL((u) => u.pathname === '/login');
      await page.getByLabel('E-postadress').waitFor();
      // Back to the menu, then to the list: each time the server is asked again and answers with the login page.
      for (const towards of ['/', '/sims']) {
        await page.goBack();
        await expect.poll(() => new URL(page.url()).pathname, { message: `back towards ${towards}` }).toBe('/login');
        expect(await page.locator('table.sims').count()).toBe(0);
        expect(await page.getByText('Anna Andersson').count()).toBe(0);
      }
      await ctx.close();
    });
  }

  it('shows Admin (destructive style) only to a super admin', async () => {
    const page = await portal.loggedInPage('admin@demo.test');
    const ctx = page.context();
    await page.goto('/');
    const admin = page.getByRole('navigation', { name: 'Start' }).getByRole('link', { name: 'Admin' });
    expect(await admin.getAttribute('class')).toContain('btn-destructive');
    await ctx.close();
  });

  it('fits a 390 px wide phone without horizontal scrolling', async () => {
    const page = await portal.loggedInPage('anna@demo.test', { width: MOBILE.width });
    const ctx = page.context();
    await page.goto('/');
    const widths = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
    expect(widths[0]).toBeLessThanOrEqual(widths[1]!);
    await page.screenshot({ path: 'test-results/home-390.png', fullPage: true });
    await ctx.close();
  });

  it('switches to the light theme and back without JS', async () => {
    const page = await portal.loggedInPage('anna@demo.test', { js: false });
    const ctx = page.context();
    await page.goto('/sims');
    await page.getByRole('button', { name: /Ljust tema/ }).click();
    await page.waitForURL('**/sims');
    expect(await page.getAttribute('html', 'data-theme')).toBe('light');
    await page.getByRole('button', { name: /Mörkt tema/ }).click();
    expect(await page.getAttribute('html', 'data-theme')).toBe('dark');
    await ctx.close();
  });

  it('answers /healthz and sends the login screen to an anonymous visitor', async () => {
    const health = await fetch(`${portal.server.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok', db: 'ok' });
    const ctx = await newContext(portal.browser, { baseURL: portal.server.url, js: false });
    const page = await ctx.newPage();
    await page.goto('/sims');
    expect(new URL(page.url()).pathname).toBe('/login');
    expect(await page.getByLabel('E-postadress').getAttribute('type')).toBe('email');
    await ctx.close();
  });

  it('serves hashed assets with long immutable caching, compressed', async () => {
    const html = await (await fetch(`${portal.server.url}/login`)).text();
    const css = html.match(/href="(\/assets\/[^"]+\.css)"/)![1]!;
    const res = await fetch(`${portal.server.url}${css}`, { headers: { 'accept-encoding': 'gzip' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toContain('immutable');
    expect(res.headers.get('cache-control')).toContain('max-age=31536000');
    expect(res.headers.get('content-encoding')).toBe('gzip');
  });

  it('sends the JS compressed at build time (brotli 11 or gzip 9) as the client takes it, else plain', async () => {
    const html = await (await fetch(`${portal.server.url}/login`)).text();
    const js = html.match(/(\/assets\/components-[^"]+\.js)"/)![1]!;
    const raw = (url: string, encoding?: string) =>
      new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        http
          .get(url, { headers: encoding ? { 'accept-encoding': encoding } : {} }, (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
          })
          .on('error', reject);
      });
    const plain = await raw(portal.server.url + js);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString('utf8')).toContain('react');
    const br = await raw(portal.server.url + js, 'gzip, deflate, br');
    const gz = await raw(portal.server.url + js, 'gzip');
    for (const [r, encoding, decode] of [
      [br, 'br', brotliDecompressSync],
      [gz, 'gzip', gunzipSync],
    ] as const) {
      expect(r.headers['content-encoding']).toBe(encoding);
      expect(r.headers['content-type']).toContain('javascript');
      expect(r.headers['cache-control']).toContain('immutable');
      expect(r.headers.vary).toContain('Accept-Encoding');
      expect(decode(r.body).equals(plain.body)).toBe(true);
    }
    // Brotli at quality 11 is what makes the first visit on a slow network smaller than gzip.
    expect(br.body.length).toBeLessThan(gz.body.length);
  });
});
