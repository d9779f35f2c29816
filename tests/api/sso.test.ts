// Long: one OpenID provider and one portal serve every case of single sign-on, one rule a case.
// Single sign-on through a company's identity provider, against a real OpenID provider (oidc-provider on
// loopback) and the real portal, through the doors a browser uses: POST /login, the provider, GET
// /auth/sso/callback. Each rule is one case: who signs in, who is refused and why, what a tampered or replayed
// callback gets, a provider that is down, and that the client secret never leaves the database (encrypted there).
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveSso } from '#server/auth/sso.ts';
import { removeCompanyUser } from '#server/companies/owner-admin.ts';
import { hashSessionId } from '#server/auth/sessions.ts';
import { AuditEvent, Company, Passkey, Session, SsoConfig, SsoLogin, User } from '#server/db/entities.ts';
import { tSecurity } from '#domain/texts/security.ts';
import { decodeHtml } from '#tests/helpers/html.ts';
import { CookieBrowser, startOidcProvider, type TestProvider } from '#tests/helpers/oidc-provider.ts';
import { startTestServer, type TestServer } from '#tests/helpers/server.ts';
import { startSmtp } from '#tests/helpers/smtp.ts';
import { proveSsoDomains, startDns, type TestDns } from '#tests/helpers/dns-server.ts';

const p = tSecurity.sso.problems;
const DOMAIN = 'alfa-sso.se';
const ONLY_SSO_DOMAIN = 'bara-sso.se';

let server: TestServer;
let idp: TestProvider;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let dns: TestDns;
let alfaId: number;
let onlyId: number;

async function company(name: string, customerNumber: string) {
  const em = server.services.orm.em.fork();
  const c = em.create(Company, { name, customerNumber, invoiceNote: '', invoiceInterval: 'monthly' });
  await em.flush();
  return c.id;
}

async function user(email: string, companyId: number, role: 'owner' | 'member' = 'member') {
  const em = server.services.orm.em.fork();
  const u = em.create(User, { email, name: email.split('@')[0]!, company: em.getReference(Company, companyId), role });
  await em.flush();
  return u.id;
}

async function configure(companyId: number, domains: string[], extra: Partial<Parameters<typeof saveSso>[4]> = {}) {
  await saveSso(server.services, server.services.orm.em.fork(), { userId: 1, actingCompanyId: null }, companyId, {
    issuer: idp.issuer,
    clientId: idp.clientId,
    clientSecret: idp.clientSecret,
    domains,
    allowEmailLink: true,
    createUsers: false,
    mfaClaim: null,
    ...extra,
  });
  // The company has proved its domains (tests/api/sso-domains.test.ts is about the proof).
  await proveSsoDomains(dns, server.services, companyId);
}

/** The provider signs in this subject with these claims next. */
function providerSays(claims: { email?: string; email_verified?: boolean; name?: string }, amr?: string[]) {
  const sub = `sub-${Math.random().toString(36).slice(2)}`;
  idp.accounts.set(sub, claims);
  idp.next = { accountId: sub, amr };
}

async function postLogin(browser: CookieBrowser, email: string) {
  return browser.request(`${server.url}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ destination: email }),
  });
}

/**
 * The page that hands a browser without JavaScript on to its provider (a same-origin redirect from the login form,
 * then a refresh): the provider URL it refreshes to, or null when the answer is not that page.
 */
function refreshTarget(html: string): string | null {
  const m = /<meta http-equiv="refresh" content="0;url=([^"]+)"/.exec(html);
  return m ? decodeHtml(m[1]!) : null;
}

/** The whole round trip without JavaScript: the login form, the provider, the callback, where it ends. */
async function signIn(email: string, opts: { browser?: CookieBrowser; hop?: (url: URL) => URL | void } = {}) {
  const browser = opts.browser ?? new CookieBrowser();
  const res = await postLogin(browser, email);
  const toContinue = await browser.follow(res, `${server.url}/login`, opts.hop);
  const continueHtml = await toContinue.res.text();
  const target = refreshTarget(continueHtml);
  if (!target)
    return {
      browser,
      first: res,
      authUrl: null,
      last: toContinue.res,
      visited: toContinue.visited,
      html: decodeHtml(continueHtml),
      session: browser.cookie(server.url, server.cookieName) ?? null,
    };
  let authUrl = new URL(target);
  authUrl = opts.hop?.(authUrl) ?? authUrl;
  const atProvider = await browser.request(authUrl.toString());
  const { res: last, visited } = await browser.follow(atProvider, authUrl.toString(), opts.hop);
  const html = last.headers.get('content-type')?.includes('text/html') ? decodeHtml(await last.text()) : '';
  const session = browser.cookie(server.url, server.cookieName) ?? null;
  return { browser, first: res, authUrl, last, visited, html, session };
}

async function sessionRow(raw: string | null) {
  if (!raw) return null;
  return server.services.orm.em.fork().findOne(Session, { id: hashSessionId(raw) });
}

const sessionCount = () => server.services.orm.em.fork().count(Session, { method: 'sso' });

beforeAll(async () => {
  smtp = await startSmtp();
  dns = await startDns();
  server = await startTestServer({
    logs: true,
    // The provider is on loopback: let the address policy reach it, as the webhook tests do.
    env: {
      SMTP_URL: smtp.url,
      SSO_DNS_SERVERS: dns.address,
      SSO_DISCOVERY_TIMEOUT_MS: '1500',
      SSO_ALLOW_PRIVATE_TARGETS: 'true',
    },
  });
  idp = await startOidcProvider({ redirectUri: `${server.url}/auth/sso/callback` });
  alfaId = await company('Alfa SSO AB', 'SSO-ALFA');
  onlyId = await company('Bara SSO AB', 'SSO-BARA');
  await user(`maja@${DOMAIN}`, alfaId);
  await user(`olle@${ONLY_SSO_DOMAIN}`, onlyId);
  await configure(alfaId, [DOMAIN]);
  await configure(onlyId, [ONLY_SSO_DOMAIN], { allowEmailLink: false });
  // A fresh database's migrations take most of a minute on a loaded machine.
}, 120_000);

afterAll(async () => {
  await idp?.close();
  await server?.stop();
  await smtp?.close();
  await dns?.close();
});

describe('single sign-on through the company identity provider', () => {
  it('signs in a user of the company: PKCE S256, state, nonce, and a full session by method sso', async () => {
    providerSays({ email: `Maja@${DOMAIN}`, email_verified: true });
    const before = await server.services.orm.em.fork().count(AuditEvent, { action: 'signIn' });
    const r = await signIn(`maja@${DOMAIN}`);
    expect(r.first.status).toBe(302);
    expect(new URL(r.first.headers.get('location')!, server.url).pathname).toBe('/auth/sso/continue');
    const auth = r.authUrl!;
    expect(auth.origin).toBe(idp.issuer);
    expect(auth.searchParams.get('code_challenge_method')).toBe('S256');
    expect(auth.searchParams.get('scope')).toBe('openid email profile');
    expect(auth.searchParams.get('state')).toBeTruthy();
    expect(auth.searchParams.get('nonce')).toBeTruthy();
    expect(auth.searchParams.get('redirect_uri')).toBe(`${server.url}/auth/sso/callback`);
    // Landed on the start page, signed in.
    expect(new URL(r.visited.at(-1)!).pathname).toBe('/');
    expect(r.last.status).toBe(200);
    const row = await sessionRow(r.session);
    expect(row).toMatchObject({ stage: 'full', method: 'sso', steppedUpAt: null });
    // The login in flight is gone, and the sign-in is in the trail.
    expect(await server.services.orm.em.fork().count(SsoLogin, {})).toBe(0);
    expect(await server.services.orm.em.fork().count(AuditEvent, { action: 'signIn' })).toBe(before + 1);
  });

  it('an address outside every SSO domain gets the e-mail link as before', async () => {
    const browser = new CookieBrowser();
    const res = await postLogin(browser, 'anna@demo.test');
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/login?sent=1');
    await expect.poll(() => smtp.to('anna@demo.test').length, { timeout: 10_000 }).toBe(1);
  });

  it('a company that allows only its provider: no login mail for its domain, through any door', async () => {
    const sent = smtp.mails.length;
    // The login form sends the browser to the provider ...
    const browser = new CookieBrowser();
    const res = await postLogin(browser, `olle@${ONLY_SSO_DOMAIN}`);
    const to = new URL(res.headers.get('location')!, server.url).searchParams.get('to')!;
    expect(new URL(to).origin).toBe(idp.issuer);
    // ... and the API door of the link answers as always, without a mail.
    const api = await fetch(`${server.url}/api/trpc/auth.requestLink`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ destination: `olle@${ONLY_SSO_DOMAIN}` }),
    });
    expect(api.status).toBe(200);
    // A mail to a known address of another domain still goes, so the wait below is not for nothing.
    await fetch(`${server.url}/api/trpc/auth.requestLink`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ destination: 'ella@demo.test' }),
    });
    await expect.poll(() => smtp.to('ella@demo.test').length, { timeout: 10_000 }).toBe(1);
    expect(smtp.to(`olle@${ONLY_SSO_DOMAIN}`)).toEqual([]);
    expect(smtp.mails.length).toBe(sent + 1);
  });

  it("the hand-on page follows only the authorization URL of this browser's own login (no open redirect)", async () => {
    const browser = new CookieBrowser();
    const res = await postLogin(browser, `maja@${DOMAIN}`);
    const location = new URL(res.headers.get('location')!, server.url).toString();
    const to = new URL(location).searchParams.get('to')!;
    const open = async (b: CookieBrowser, target: string) => {
      const r = await b.request(`${server.url}/auth/sso/continue?to=${encodeURIComponent(target)}`);
      return { status: r.status, location: r.headers.get('location'), html: await r.text() };
    };
    expect(refreshTarget((await open(browser, to)).html)).toBe(to);
    // Anywhere else, or the same URL in another browser: back to a problem page of ours.
    const evil = new URL(to);
    evil.host = 'evil.example';
    for (const [b, target] of [
      [browser, evil.toString()],
      [browser, 'https://evil.example/'],
      [new CookieBrowser(), to],
    ] as const) {
      const r = await open(b, target);
      expect(r.status).toBe(302);
      expect(r.location).toBe('/auth/sso/callback?problem=invalid');
    }
  });

  it('a fetch caller of /auth/login gets the provider URL as JSON', async () => {
    const res = await fetch(`${server.url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', 'sec-fetch-mode': 'cors' },
      body: JSON.stringify({ destination: `maja@${DOMAIN}` }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { redirect: string };
    expect(new URL(body.redirect).origin).toBe(idp.issuer);
  });

  it('refuses an address the provider has not verified, and makes no session', async () => {
    const count = await sessionCount();
    providerSays({ email: `maja@${DOMAIN}`, email_verified: false });
    const r = await signIn(`maja@${DOMAIN}`);
    expect(r.html).toContain(p.unverified);
    expect(r.session).toBeNull();
    expect(await sessionCount()).toBe(count);
    providerSays({ email: `maja@${DOMAIN}` }); // no email_verified at all
    expect((await signIn(`maja@${DOMAIN}`)).html).toContain(p.unverified);
  });

  it('refuses a user of another company, even in the same domain', async () => {
    await user(`bo@${DOMAIN}`, 1 /* Demo AB's id is the first company's */);
    const em = server.services.orm.em.fork();
    const bo = await em.findOneOrFail(User, { email: `bo@${DOMAIN}` }, { populate: ['company'] });
    expect(bo.company.id).not.toBe(alfaId);
    const count = await sessionCount();
    providerSays({ email: `bo@${DOMAIN}`, email_verified: true });
    const r = await signIn(`maja@${DOMAIN}`);
    expect(r.html).toContain(p.noAccount);
    expect(r.session).toBeNull();
    expect(await sessionCount()).toBe(count);
  });

  it('refuses an address the company has no user for when it does not create users', async () => {
    providerSays({ email: `ny@${DOMAIN}`, email_verified: true });
    const r = await signIn(`ny@${DOMAIN}`);
    expect(r.html).toContain(p.noAccount);
    expect(await server.services.orm.em.fork().count(User, { email: `ny@${DOMAIN}` })).toBe(0);
  });

  it('refuses a tampered state and a tampered nonce, without a session', async () => {
    const count = await sessionCount();
    providerSays({ email: `maja@${DOMAIN}`, email_verified: true });
    const state = await signIn(`maja@${DOMAIN}`, {
      hop: (url) => {
        if (url.pathname === '/auth/sso/callback' && url.searchParams.has('state'))
          url.searchParams.set('state', url.searchParams.get('state')! + 'x');
      },
    });
    expect(state.html).toContain(p.invalid);
    expect(state.session).toBeNull();

    const nonce = await signIn(`maja@${DOMAIN}`, {
      hop: (url) => {
        if (url.origin === idp.issuer && url.pathname === '/auth' && url.searchParams.has('nonce'))
          url.searchParams.set('nonce', 'tampered-nonce-0123456789');
      },
    });
    expect(nonce.html).toContain(p.invalid);
    expect(nonce.session).toBeNull();

    // PKCE: a code challenge that is not the verifier's, as an attacker's own would be.
    const pkce = await signIn(`maja@${DOMAIN}`, {
      hop: (url) => {
        if (url.origin === idp.issuer && url.pathname === '/auth' && url.searchParams.has('code_challenge'))
          url.searchParams.set('code_challenge', 'A'.repeat(43));
      },
    });
    expect(pkce.html).toContain(p.invalid);
    expect(pkce.session).toBeNull();
    expect(await sessionCount()).toBe(count);
  });

  it('refuses the callback in another browser (no binding cookie), and a replayed callback', async () => {
    const count = await sessionCount();
    providerSays({ email: `maja@${DOMAIN}`, email_verified: true });
    let callback = '';
    const started = await signIn(`maja@${DOMAIN}`, {
      hop: (url) => {
        if (url.pathname === '/auth/sso/callback' && url.searchParams.has('code')) {
          callback = url.toString();
          return new URL('/auth/sso/callback?problem=invalid', server.url); // stop the first browser here
        }
      },
    });
    expect(started.session).toBeNull();
    expect(callback).not.toBe('');
    // Another browser opens the callback (a link sent to a victim): refused, and the login is used up.
    const other = new CookieBrowser();
    const { html } = await (async () => {
      const res = await other.request(callback);
      const { res: last } = await other.follow(res, callback);
      return { html: decodeHtml(await last.text()) };
    })();
    expect(html).toContain(p.invalid);
    expect(other.cookie(server.url, server.cookieName)).toBeUndefined();
    // The first browser, now with its cookie: the state was consumed, so a replay is refused too.
    const replay = await started.browser.request(callback);
    const { res: last } = await started.browser.follow(replay, callback);
    expect(decodeHtml(await last.text())).toContain(p.invalid);
    expect(started.browser.cookie(server.url, server.cookieName)).toBeUndefined();
    expect(await sessionCount()).toBe(count);
  });

  it('mfaClaim satisfied: a full session stepped up now; not satisfied: the passkey stage', async () => {
    await configure(alfaId, [DOMAIN], { mfaClaim: 'mfa', clientSecret: '' });
    providerSays({ email: `maja@${DOMAIN}`, email_verified: true }, ['pwd', 'mfa']);
    const withMfa = await signIn(`maja@${DOMAIN}`);
    const row = await sessionRow(withMfa.session);
    expect(row).toMatchObject({ stage: 'full', method: 'sso' });
    expect(row!.steppedUpAt).not.toBeNull();
    expect(Date.now() - row!.steppedUpAt!.getTime()).toBeLessThan(60_000);

    // Without the MFA the provider names: a user without passkeys in a company that does not require them is
    // signed in, not stepped up.
    providerSays({ email: `maja@${DOMAIN}`, email_verified: true }, ['pwd']);
    const plain = await signIn(`maja@${DOMAIN}`);
    expect(await sessionRow(plain.session)).toMatchObject({ stage: 'full', steppedUpAt: null });

    // A user with a passkey: the passkey is still asked (stage passkey, the passkey page next).
    const em = server.services.orm.em.fork();
    const maja = await em.findOneOrFail(User, { email: `maja@${DOMAIN}` });
    em.create(Passkey, {
      user: maja,
      credentialId: `sso-test-${Date.now()}`,
      publicKey: 'x',
      counter: 0,
      transports: [],
      deviceType: 'multiDevice',
      backedUp: true,
      name: 'Test',
    });
    await em.flush();
    providerSays({ email: `maja@${DOMAIN}`, email_verified: true }, ['pwd']);
    const passkey = await signIn(`maja@${DOMAIN}`);
    expect(new URL(passkey.visited.find((u) => u.includes('/login/passkey')) ?? 'http://x/none').pathname).toBe(
      '/login/passkey',
    );
    expect(await sessionRow(passkey.session)).toMatchObject({ stage: 'passkey', steppedUpAt: null });
    await em.nativeDelete(Passkey, { user: maja.id });

    // A company that requires passkeys, a user without one: a passkey to add first.
    await em.nativeUpdate(Company, { id: alfaId }, { requirePasskeys: true });
    providerSays({ email: `maja@${DOMAIN}`, email_verified: true }, ['pwd']);
    const register = await signIn(`maja@${DOMAIN}`);
    expect(await sessionRow(register.session)).toMatchObject({ stage: 'register' });
    await em.nativeUpdate(Company, { id: alfaId }, { requirePasskeys: false });
    await configure(alfaId, [DOMAIN], { clientSecret: '' });
  });

  it('steps up through the provider (prompt=login, max_age=0) when its MFA is named, never without it', async () => {
    await configure(alfaId, [DOMAIN], { mfaClaim: 'mfa', clientSecret: '' });
    providerSays({ email: `maja@${DOMAIN}`, email_verified: true }, ['pwd', 'mfa']);
    const signedIn = await signIn(`maja@${DOMAIN}`);
    const em = server.services.orm.em.fork();
    const id = hashSessionId(signedIn.session!);
    const stepUp = async (amr: string[], email = `maja@${DOMAIN}`) => {
      await em.nativeUpdate(Session, { id }, { steppedUpAt: null });
      providerSays({ email, email_verified: true }, amr);
      const b = signedIn.browser;
      // A fresh sign-in at the provider (its own session would else be another account's to switch from).
      b.forget(idp.issuer);
      const res = await b.request(`${server.url}/auth/sso/step-up`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ redirectTo: '/company' }),
      });
      const toContinue = await b.follow(res, `${server.url}/auth/sso/step-up`);
      const target = refreshTarget(await toContinue.res.text());
      expect(target).not.toBeNull();
      const auth = new URL(target!);
      expect(auth.searchParams.get('prompt')).toBe('login');
      expect(auth.searchParams.get('max_age')).toBe('0');
      const { visited, res: last } = await b.follow(await b.request(target!), target!);
      await last.body?.cancel();
      return { visited, row: await em.fork().findOneOrFail(Session, { id }) };
    };
    // The step-up page offers the provider to an owner signed in through it (and only then).
    const confirmPage = async () => {
      const res = await signedIn.browser.request(`${server.url}/security/confirm?redirectTo=%2Fcompany`);
      return res.text();
    };
    // The provider's MFA at sign-in was a step-up: the page would offer adding a passkey. Ten minutes later:
    await em.nativeUpdate(Session, { id }, { steppedUpAt: null });
    expect(await confirmPage()).not.toContain('action="/auth/sso/step-up"');
    await em.nativeUpdate(User, { email: `maja@${DOMAIN}` }, { role: 'owner' });
    expect(await confirmPage()).toContain('action="/auth/sso/step-up"');
    await em.nativeUpdate(User, { email: `maja@${DOMAIN}` }, { role: 'member' });
    const ok = await stepUp(['pwd', 'mfa']);
    expect(ok.row.steppedUpAt).not.toBeNull();
    expect(new URL(ok.visited.at(-1)!).pathname).toBe('/company');
    // The provider did not do its MFA: no step-up.
    const weak = await stepUp(['pwd']);
    expect(weak.row.steppedUpAt).toBeNull();
    expect(weak.visited.at(-1)).toContain('/auth/sso/callback?problem=invalid');
    // The provider signed in someone else: no step-up for this session.
    await user(`annan@${DOMAIN}`, alfaId);
    const other = await stepUp(['pwd', 'mfa'], `annan@${DOMAIN}`);
    expect(other.row.steppedUpAt).toBeNull();
    // A session signed in by a link (not by the provider) cannot step up there.
    const linkSession = await server.sessionCookie(`maja@${DOMAIN}`, { steppedUp: false, method: 'link' });
    const refused = await fetch(`${server.url}/api/trpc/sso.stepUp`, {
      method: 'POST',
      headers: { cookie: linkSession, 'content-type': 'application/json' },
      body: JSON.stringify({ redirectTo: '/' }),
    });
    expect(refused.status).toBe(403);
    await configure(alfaId, [DOMAIN], { clientSecret: '' });
  });

  it('createUsers: a verified new address of the domain becomes a member, never more; a removed user never', async () => {
    await configure(alfaId, [DOMAIN], { createUsers: true, clientSecret: '' });
    providerSays({ email: `nyanstalld@${DOMAIN}`, email_verified: true, name: 'Ny Anställd' });
    const r = await signIn(`nyanstalld@${DOMAIN}`);
    expect(r.session).not.toBeNull();
    const em = server.services.orm.em.fork();
    const created = await em.findOneOrFail(User, { email: `nyanstalld@${DOMAIN}` }, { populate: ['company'] });
    expect(created).toMatchObject({ role: 'member', isSuperAdmin: false, name: 'Ny Anställd' });
    expect(created.company.id).toBe(alfaId);

    // Another domain the provider vouches for is not the company's: nobody is created there.
    providerSays({ email: 'someone@elsewhere-sso.se', email_verified: true });
    expect((await signIn(`maja@${DOMAIN}`)).html).toContain(p.noAccount);
    expect(await em.count(User, { email: 'someone@elsewhere-sso.se' })).toBe(0);

    // A user removed by the owner does not come back through the provider.
    const owner = await user(`agare@${DOMAIN}`, alfaId, 'owner');
    await removeCompanyUser(em.fork(), { userId: owner, companyId: alfaId, actingCompanyId: null }, created.id);
    providerSays({ email: `nyanstalld@${DOMAIN}`, email_verified: true });
    const again = await signIn(`nyanstalld@${DOMAIN}`);
    expect(again.html).toContain(p.noAccount);
    expect(await em.fork().count(User, { email: `nyanstalld@${DOMAIN}` })).toBe(0);
    await configure(alfaId, [DOMAIN], { clientSecret: '' });
  });

  it('the client secret is stored encrypted and never appears in a page, an answer or a log line', async () => {
    const em = server.services.orm.em.fork();
    const row = await em.findOneOrFail(SsoConfig, { company: alfaId });
    expect(row.clientSecret).not.toContain(idp.clientSecret);
    const rows = await em.execute<Array<{ client_secret: string }>>('select client_secret from sso_config');
    for (const r of rows) expect(r.client_secret).not.toContain(idp.clientSecret);
    const audit = await em.execute<Array<{ before: unknown; after: unknown }>>('select before, after from audit_event');
    expect(JSON.stringify(audit)).not.toContain(idp.clientSecret);

    // The settings pages and the procedure answers.
    const admin = await server.sessionCookie('admin@demo.test');
    const page = await fetch(`${server.url}/admin/companies/${alfaId}/sign-in`, { headers: { cookie: admin } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(idp.issuer);
    expect(html).not.toContain(idp.clientSecret);
    const api = await fetch(
      `${server.url}/api/trpc/sso.adminSettings?input=${encodeURIComponent(JSON.stringify({ companyId: alfaId }))}`,
      { headers: { cookie: admin } },
    );
    const body = await api.text();
    expect(api.status).toBe(200);
    expect(body).toContain('hasClientSecret');
    expect(body).not.toContain(idp.clientSecret);
    expect(body).not.toContain(row.clientSecret);
    // Every log line of this server so far (sign-ins, refusals, the provider's errors).
    expect(server.logs.length).toBeGreaterThan(0);
    expect(JSON.stringify(server.logs)).not.toContain(idp.clientSecret);
  });
});

describe('a provider that does not answer', () => {
  it('a closed port: the Swedish "does not respond" message at once, no session, no mail', async () => {
    const closed = await new Promise<number>((resolve) => {
      const s = net.createServer();
      s.listen(0, '127.0.0.1', () => {
        const port = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(port));
      });
    });
    const id = await company('Nere AB', 'SSO-NERE');
    await user('nils@nere-sso.se', id);
    await saveSso(server.services, server.services.orm.em.fork(), { userId: 1, actingCompanyId: null }, id, {
      issuer: `http://127.0.0.1:${closed}`,
      clientId: 'x',
      clientSecret: 'closed-port-secret',
      domains: ['nere-sso.se'],
      allowEmailLink: false,
      createUsers: false,
      mfaClaim: null,
    });
    await proveSsoDomains(dns, server.services, id);
    const count = await sessionCount();
    const browser = new CookieBrowser();
    const res = await postLogin(browser, 'nils@nere-sso.se');
    expect(res.status).toBe(200);
    expect(decodeHtml(await res.text())).toContain(p.unavailable);
    expect(await sessionCount()).toBe(count);
    expect(smtp.to('nils@nere-sso.se')).toEqual([]);
    // The API door says 503 with the same text.
    const api = await fetch(`${server.url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', 'sec-fetch-mode': 'cors' },
      body: JSON.stringify({ destination: 'nils@nere-sso.se' }),
    });
    expect(api.status).toBe(503);
    expect(((await api.json()) as { error: string }).error).toBe(p.unavailable);
  });

  it('a hanging discovery is cut at SSO_DISCOVERY_TIMEOUT_MS', async () => {
    const sockets: net.Socket[] = [];
    const hanging = net.createServer((socket) => void sockets.push(socket)); // accepts, never answers
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    const port = (hanging.address() as net.AddressInfo).port;
    try {
      const id = await company('Seg AB', 'SSO-SEG');
      await user('sara@seg-sso.se', id);
      await saveSso(server.services, server.services.orm.em.fork(), { userId: 1, actingCompanyId: null }, id, {
        issuer: `http://127.0.0.1:${port}`,
        clientId: 'x',
        clientSecret: 'hanging-secret',
        domains: ['seg-sso.se'],
        allowEmailLink: true,
        createUsers: false,
        mfaClaim: null,
      });
      await proveSsoDomains(dns, server.services, id);
      const started = Date.now();
      const res = await postLogin(new CookieBrowser(), 'sara@seg-sso.se');
      const took = Date.now() - started;
      expect(decodeHtml(await res.text())).toContain(p.unavailable);
      expect(took).toBeGreaterThanOrEqual(1400);
      expect(took).toBeLessThan(6000);
    } finally {
      sockets.forEach((s) => s.destroy());
      await new Promise<void>((resolve) => hanging.close(() => resolve()));
    }
  });

  it('the provider stopping between the start and the callback: "does not respond", no session', async () => {
    const id = await company('Borta AB', 'SSO-BORTA');
    await user('bert@borta-sso.se', id);
    const second = await startOidcProvider({ redirectUri: `${server.url}/auth/sso/callback` });
    await saveSso(server.services, server.services.orm.em.fork(), { userId: 1, actingCompanyId: null }, id, {
      issuer: second.issuer,
      clientId: second.clientId,
      clientSecret: second.clientSecret,
      domains: ['borta-sso.se'],
      allowEmailLink: true,
      createUsers: false,
      mfaClaim: null,
    });
    await proveSsoDomains(dns, server.services, id);
    const sub = 'bert';
    second.accounts.set(sub, { email: 'bert@borta-sso.se', email_verified: true });
    second.next = { accountId: sub };
    const count = await sessionCount();
    const browser = new CookieBrowser();
    const res = await postLogin(browser, 'bert@borta-sso.se');
    const to = new URL(res.headers.get('location')!, server.url).searchParams.get('to')!;
    let callback = '';
    await browser.follow(await browser.request(to), to, (url) => {
      if (url.pathname === '/auth/sso/callback' && url.searchParams.has('code')) {
        callback = url.toString();
        return new URL('/', server.url);
      }
    });
    expect(callback).not.toBe('');
    await second.close();
    // The discovery document is still cached; the token endpoint is gone.
    const done = await browser.request(callback);
    const { res: last } = await browser.follow(done, callback);
    expect(decodeHtml(await last.text())).toContain(p.unavailable);
    expect(await sessionCount()).toBe(count);
  });
});

describe('bounds', () => {
  // Last in the file: it uses up this client address's sign-in starts.
  it('sign-ins started from one address are bounded (each keeps a login in flight): 429 beyond', async () => {
    const start = () =>
      fetch(`${server.url}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', 'sec-fetch-mode': 'cors' },
        body: JSON.stringify({ destination: `maja@${DOMAIN}` }),
      });
    let status = 200;
    for (let i = 0; i < 120 && status === 200; i++) {
      const res = await start();
      status = res.status;
      await res.body?.cancel();
    }
    expect(status).toBe(429);
    const res = await start();
    expect(((await res.json()) as { error: string }).error).toBe(p.tooMany);
    // Logins in flight stay bounded too.
    expect(await server.services.orm.em.fork().count(SsoLogin, {})).toBeLessThanOrEqual(100);
  });
});
