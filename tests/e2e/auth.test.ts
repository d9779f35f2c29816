// Long: every step of the login by link shares one Chromium, one SMTP server and one portal.
// Login by e-mail link through the real doors: a browser, the HTTP server and a real SMTP server.
import { describe, expect, it } from 'vitest';
import { AuditEvent, Company, LoginToken } from '#server/db/entities.ts';
import { newContext } from '#tests/helpers/browser.ts';
import { useScreens } from '#tests/helpers/screens.ts';
import { linkIn } from '#tests/helpers/smtp.ts';

const portal = useScreens({ smtp: true, env: { MAIL_FROM: 'SIM-portalen <no-reply@test.se>' } });

const post = (path: string, body: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(portal.server.url + path, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(body),
  });

async function requestLink(email: string): Promise<string> {
  const before = portal.smtp.to(email).length;
  const res = await post(
    '/auth/login',
    { destination: email },
    { accept: 'application/json', 'sec-fetch-mode': 'cors' },
  );
  expect(res.status).toBe(200);
  await portal.server.services.settled();
  const mails = portal.smtp.to(email);
  expect(mails.length).toBe(before + 1);
  return linkIn(mails.at(-1)!.raw);
}

async function sessionOf(cookie?: string) {
  const res = await fetch(portal.server.url + '/auth/session', { headers: cookie ? { cookie } : {} });
  expect(res.status).toBe(200);
  return res.json();
}

describe('login by e-mail link', () => {
  for (const js of [true, false]) {
    it(`logs in through the mailed link and lands on the page asked for (JS ${js ? 'on' : 'off'})`, async () => {
      const ctx = await newContext(portal.browser, { baseURL: portal.server.url, js });
      const page = await ctx.newPage();
      await page.goto('/sims');
      expect(page.url()).toContain('/login?redirectTo=%2Fsims');
      await page.getByText('Kontakta supporten för att registrera ett konto').waitFor();
      // The field is ready to type in (with and without JS: the browser's autofocus).
      await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('destination');
      await page.getByLabel('E-postadress').fill('anna@demo.test');
      await page.getByLabel('E-postadress').press('Enter');
      await page.getByText('Om det finns ett konto för adressen har vi skickat en inloggningslänk').waitFor();
      await portal.server.services.settled();
      const mail = portal.smtp.to('anna@demo.test').at(-1)!;
      expect(mail.raw).toContain('15 minuter');
      const link = linkIn(mail.raw);
      expect(link.startsWith(portal.server.url + '/auth/magic?token=')).toBe(true);

      const response = await page.goto(link);
      expect(response!.headers()['referrer-policy']).toBe('no-referrer');
      // The GET alone does not log in.
      const cookiesAfterGet = await ctx.cookies();
      expect(cookiesAfterGet.find((c) => c.name === portal.server.cookieName)).toBeUndefined();
      await page.getByRole('button', { name: 'Logga in' }).click();
      await page.waitForURL((u) => u.pathname === '/sims');
      const cookie = (await ctx.cookies()).find((c) => c.name === portal.server.cookieName)!;
      expect(cookie.httpOnly).toBe(true);
      expect(cookie.sameSite).toBe('Lax');
      expect(await sessionOf(`${portal.server.cookieName}=${cookie.value}`)).toEqual({
        authenticated: true,
        isSuperAdmin: false,
      });

      // A second use of the same link fails with a clear message and the login form.
      const other = await newContext(portal.browser, { baseURL: portal.server.url, js });
      const page2 = await other.newPage();
      await page2.goto(link);
      await page2.getByText('Inloggningslänken har redan använts').waitFor();
      expect(await page2.getByLabel('E-postadress').count()).toBe(1);
      await other.close();
      await ctx.close();
    });
  }

  it('a login link asked with a redirectTo to another site lands on the portal', async () => {
    // The browser decodes %09 to a tab in the form field; browsers drop tabs from a Location, so a
    // target of "/<tab>/evil.example/x" would become "//evil.example/x", another site.
    const ctx = await newContext(portal.browser, { baseURL: portal.server.url, js: true });
    const elsewhere: string[] = [];
    ctx.on('request', (r) => {
      if (new URL(r.url()).origin !== portal.server.url) elsewhere.push(r.url());
    });
    const page = await ctx.newPage();
    await page.goto('/login?redirectTo=/%09/evil.example/x');
    await page.getByLabel('E-postadress').fill('anna@demo.test');
    await page.getByLabel('E-postadress').press('Enter');
    await page.getByText('Om det finns ett konto för adressen har vi skickat en inloggningslänk').waitFor();
    await portal.server.services.settled();
    await page.goto(linkIn(portal.smtp.to('anna@demo.test').at(-1)!.raw));
    await page.getByRole('button', { name: 'Logga in' }).click();
    await page.waitForURL((u) => u.origin === portal.server.url && u.pathname === '/');
    expect(elsewhere).toEqual([]);
    await ctx.close();
  });

  it('gives an unknown address the same answer and sends no mail', async () => {
    const known = await post(
      '/auth/login',
      { destination: 'anna@demo.test' },
      { accept: 'application/json', 'sec-fetch-mode': 'cors' },
    );
    const unknown = await post(
      '/auth/login',
      { destination: 'nobody@demo.test' },
      { accept: 'application/json', 'sec-fetch-mode': 'cors' },
    );
    expect(unknown.status).toBe(known.status);
    expect(await unknown.json()).toEqual(await known.json());
    await portal.server.services.settled();
    expect(portal.smtp.to('nobody@demo.test')).toHaveLength(0);
    // A form post without JS answers with the same redirect.
    const a = await post('/login', { destination: 'anna@demo.test' });
    const b = await post('/login', { destination: 'nobody@demo.test' });
    expect(a.status).toBe(302);
    expect(b.headers.get('location')).toBe(a.headers.get('location'));
  });

  it('accepts JSON, and answers 400 with { error } for a bad address', async () => {
    const res = await fetch(portal.server.url + '/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ destination: 'inte-en-adress' }),
    });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.error).toBe('Ange en giltig e-postadress.');
    expect(body.issues[0].path).toEqual(['destination']);
  });

  it('refuses an expired link and a tampered link', async () => {
    const link = await requestLink('admin@demo.test');
    const em = portal.server.services.orm.em.fork();
    await em.nativeUpdate(
      LoginToken,
      { usedAt: null, email: 'admin@demo.test' },
      { expiresAt: new Date(Date.now() - 1000) },
    );
    const expired = await (await fetch(link)).text();
    expect(expired).toContain('Inloggningslänken har gått ut');
    const link2 = await requestLink('admin@demo.test');
    const url = new URL(link2);
    const token = url.searchParams.get('token')!;
    url.searchParams.set('token', token.slice(0, 10) + (token[10] === 'A' ? 'B' : 'A') + token.slice(11));
    expect(await (await fetch(url)).text()).toContain('Inloggningslänken är ogiltig');
    // A POST with the tampered token does not log in either.
    const res = await post('/auth/magic?token=x', { token: url.searchParams.get('token')! });
    expect(res.status).toBe(200);
    expect(res.headers.get('set-cookie') ?? '').not.toContain(`${portal.server.cookieName}=`);
  });

  it('using one login link ends the other unused links of the user', async () => {
    const first = await requestLink('admin@demo.test');
    const second = await requestLink('admin@demo.test');
    expect(second).not.toBe(first);
    const token = (link: string) => new URL(link).searchParams.get('token')!;
    // Both work until one is used.
    for (const link of [first, second])
      expect(await (await fetch(link)).text()).not.toMatch(/Inloggningslänken (är|har)/);
    const used = await post('/auth/magic', { token: token(second) });
    expect(used.status).toBe(302);
    expect(used.headers.get('set-cookie') ?? '').toContain(`${portal.server.cookieName}=`);

    const page = await (await fetch(first)).text();
    expect(page).toContain('Inloggningslänken är ogiltig');
    const again = await post('/auth/magic', { token: token(first) });
    expect(again.status).toBe(200);
    expect(again.headers.get('set-cookie') ?? '').not.toContain(`${portal.server.cookieName}=`);
    expect(await again.text()).toContain('Inloggningslänken är ogiltig');
  });

  it('builds the link from APP_URL, never from the Host header', async () => {
    await post(
      '/auth/login',
      { destination: 'anna@demo.test' },
      {
        host: 'evil.example',
        'x-forwarded-host': 'evil.example',
        accept: 'application/json',
        'sec-fetch-mode': 'cors',
      },
    );
    await portal.server.services.settled();
    const link = linkIn(portal.smtp.to('anna@demo.test').at(-1)!.raw);
    expect(link.startsWith(portal.server.url)).toBe(true);
  });

  it('limits links per address: the sixth in 15 minutes gets the notice but no mail', async () => {
    const email = 'limit@demo.test';
    const em = portal.server.services.orm.em.fork();
    const company = await em.findOneOrFail(Company, { customerNumber: '100001' });
    em.create((await import('#server/db/entities.ts')).User, { email, name: 'Limit', company });
    await em.flush();
    for (let i = 0; i < 6; i++) {
      const res = await post(
        '/auth/login',
        { destination: email },
        { accept: 'application/json', 'sec-fetch-mode': 'cors' },
      );
      expect(res.status).toBe(200);
    }
    await portal.server.services.settled();
    expect(portal.smtp.to(email)).toHaveLength(5);
  });

  it('still answers with the notice when the SMTP server fails', async () => {
    portal.smtp.setFailing(true);
    try {
      const res = await post('/login', { destination: 'admin@demo.test' });
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe('/login?sent=1');
      await portal.server.services.settled();
    } finally {
      portal.smtp.setFailing(false);
    }
  });
});

describe('sessions', () => {
  it('/auth/session answers for anonymous, user and super admin, never 401', async () => {
    expect(await sessionOf()).toEqual({ authenticated: false, isSuperAdmin: false });
    expect(await sessionOf(await portal.server.sessionCookie('anna@demo.test'))).toEqual({
      authenticated: true,
      isSuperAdmin: false,
    });
    expect(await sessionOf(await portal.server.sessionCookie('admin@demo.test'))).toEqual({
      authenticated: true,
      isSuperAdmin: true,
    });
    expect(await sessionOf(`${portal.server.cookieName}=forged-value-that-is-long-enough`)).toEqual({
      authenticated: false,
      isSuperAdmin: false,
    });
  });

  it('logout deletes the session: replaying the old cookie is refused', async () => {
    const cookie = await portal.server.sessionCookie('anna@demo.test');
    const ctx = await newContext(portal.browser, { baseURL: portal.server.url, js: false, cookie });
    const page = await ctx.newPage();
    await page.goto('/');
    await page.getByRole('button', { name: 'Logga ut' }).click();
    await page.waitForURL('**/login');
    expect(await sessionOf(cookie)).toEqual({ authenticated: false, isSuperAdmin: false });
    const replay = await fetch(portal.server.url + '/', { headers: { cookie }, redirect: 'manual' });
    expect(replay.status).toBe(302);
    expect(replay.headers.get('location')).toBe('/login');
    // A fetch logout answers 204.
    const cookie2 = await portal.server.sessionCookie('anna@demo.test');
    const res = await fetch(portal.server.url + '/auth/logout', {
      method: 'POST',
      headers: { cookie: cookie2, 'sec-fetch-mode': 'cors' },
    });
    expect(res.status).toBe(204);
    expect(await sessionOf(cookie2)).toEqual({ authenticated: false, isSuperAdmin: false });
    await ctx.close();
  });

  it('refuses cross-site POSTs before any handler runs', async () => {
    const cookie = await portal.server.sessionCookie('anna@demo.test');
    const attempts: Record<string, string>[] = [
      { origin: 'https://evil.example' },
      { 'sec-fetch-site': 'cross-site' },
      { origin: 'null' },
    ];
    for (const headers of attempts) {
      const res = await fetch(portal.server.url + '/auth/logout', { method: 'POST', headers: { cookie, ...headers } });
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({ error: 'Förfrågan kom från en annan webbplats och avvisades.', issues: [] });
    }
    expect(await sessionOf(cookie)).toEqual({ authenticated: true, isSuperAdmin: false });
    // The same request from the portal's own origin goes through.
    const ok = await fetch(portal.server.url + '/auth/logout', {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie, origin: portal.server.url },
    });
    expect(ok.status).toBe(204);
    expect(await sessionOf(cookie)).toEqual({ authenticated: false, isSuperAdmin: false });
  });

  it('GET never logs out', async () => {
    const cookie = await portal.server.sessionCookie('anna@demo.test');
    const res = await fetch(portal.server.url + '/auth/logout', { headers: { cookie } });
    expect(res.status).toBe(405);
    expect(await sessionOf(cookie)).toEqual({ authenticated: true, isSuperAdmin: false });
  });
});

describe('log in as a company', () => {
  /** A company of its own for the super admin to act as. */
  async function otherCompany(name: string, customerNumber: string) {
    const em = portal.server.services.orm.em.fork();
    const company = em.create(Company, { name, customerNumber, invoiceNote: '', invoiceInterval: 'monthly' });
    await em.flush();
    return company;
  }

  /** The procedures through createCaller as the session of `cookie` (null: anonymous), and the context they set headers on. */
  async function callerWith(cookie: string | null, ip = '') {
    const { createCaller } = await import('#server/trpc/caller.ts');
    const { createContext } = await import('#server/trpc/context.ts');
    const ctx = await createContext({
      services: portal.server.services,
      headers: new Headers(cookie === null ? {} : { cookie }),
      requestId: 't',
      ip,
    });
    return { ctx, caller: createCaller(ctx) };
  }

  it('a super admin acts as another company and back; the session rotates and audit rows are written', async () => {
    const other = await otherCompany('Annat AB', 'A-200');
    const cookie = await portal.server.sessionCookie('admin@demo.test');
    const { ctx, caller } = await callerWith(cookie, '127.0.0.1');
    expect(await caller.admin.loginAsCompany({ companyId: other.id })).toEqual({ success: true });
    const newCookie = ctx.resHeaders.get('set-cookie')!.split(';')[0]!;
    expect(newCookie).not.toBe(cookie);
    expect(await sessionOf(cookie)).toEqual({ authenticated: false, isSuperAdmin: false });

    const bctx = await newContext(portal.browser, { baseURL: portal.server.url, js: false, cookie: newCookie });
    const page = await bctx.newPage();
    await page.goto('/');
    await page.getByText('Du agerar som Annat AB').waitFor();
    await page.getByRole('button', { name: 'Tillbaka till eget företag' }).click();
    await page.waitForURL((u) => u.pathname === '/');
    expect(await page.getByText('Du agerar som').count()).toBe(0);
    const audits = await portal.server.services.orm.em
      .fork()
      .find(
        AuditEvent,
        { action: { $in: ['loginAsCompany', 'stopActingAsCompany'] } },
        { orderBy: { id: 'asc' }, populate: ['who'] },
      );
    expect(audits.map((a) => a.action)).toEqual(['loginAsCompany', 'stopActingAsCompany']);
    expect(audits.every((a) => a.who?.email === 'admin@demo.test')).toBe(true);
    await bctx.close();
  });

  /** A real /api/sse stream; `ended` resolves when the server closes it. */
  async function openEvents(cookie: string) {
    const res = await fetch(`${portal.server.url}/api/sse`, { headers: { cookie, accept: 'text/event-stream' } });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain('connected');
    const ended = (async () => {
      while (!(await reader.read()).done);
    })();
    return { ended };
  }

  it('switching company, and back, closes the event streams of the old session like logout', async () => {
    const other = await otherCompany('Strömmen AB', 'A-300');
    const cookie = await portal.server.sessionCookie('admin@demo.test');
    const own = await openEvents(cookie);
    const act = await fetch(`${portal.server.url}/api/admin/loginAsCompany`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ companyId: other.id }),
    });
    expect(act.status).toBe(200);
    await own.ended;

    const actingCookie = act.headers.get('set-cookie')!.split(';')[0]!;
    const acting = await openEvents(actingCookie);
    const back = await fetch(`${portal.server.url}/auth/own-company`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: actingCookie },
    });
    expect(back.status).toBe(302);
    expect(back.headers.get('set-cookie')).toContain(`${portal.server.cookieName}=`);
    await acting.ended;
  });

  it('POST /auth/own-company by a user who is not acting changes nothing and writes no audit row', async () => {
    const audits = () => portal.server.services.orm.em.fork().count(AuditEvent, {});
    for (const email of ['admin@demo.test', 'anna@demo.test']) {
      const cookie = await portal.server.sessionCookie(email);
      const before = await audits();
      const res = await fetch(`${portal.server.url}/auth/own-company`, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie },
      });
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe('/');
      expect(res.headers.get('set-cookie')).toBeNull();
      // The same session goes on: no rotation.
      expect((await sessionOf(cookie)).authenticated).toBe(true);
      expect(await audits()).toBe(before);
    }
  });

  it('is refused for a regular user (403) and for an unknown company (404)', async () => {
    const asUser = (await callerWith(await portal.server.sessionCookie('anna@demo.test'))).caller;
    await expect(asUser.admin.loginAsCompany({ companyId: 1 })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    const anonymous = (await callerWith(null)).caller;
    await expect(anonymous.admin.loginAsCompany({ companyId: 1 })).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    const asAdmin = (await callerWith(await portal.server.sessionCookie('admin@demo.test'))).caller;
    await expect(asAdmin.admin.loginAsCompany({ companyId: 99999 })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
