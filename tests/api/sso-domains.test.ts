// Long: one DNS server, the companies and their domains serve every rule of who may use a domain.
// Who may use an e-mail domain for single sign-on, through the doors an owner and a signed-out visitor use: the
// settings procedure (tRPC) and page (a form post without JavaScript), and the login doors (POST /auth/login, the
// link procedure). A company proves a domain with a DNS TXT record, asked of a real DNS server on loopback that the
// test controls (SSO_DNS_SERVERS); a domain of another company's users, of the staff, or of a public mail service
// is refused with one message naming no holder; only a proved domain routes, and never another company's user.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ssoTxtName, ssoTxtValue } from '#domain/sso/domains.ts';
import { tSecurity } from '#domain/texts/security.ts';
import { tSsoDomains } from '#domain/texts/sso-domains.ts';
import { AuditEvent, Company, SsoDomain, User } from '#server/db/entities.ts';
import { startDns, type TestDns } from '#tests/helpers/dns-server.ts';
import { decodeHtml } from '#tests/helpers/html.ts';
import { startOidcProvider, type TestProvider } from '#tests/helpers/oidc-provider.ts';
import { startTestServer, type TestServer } from '#tests/helpers/server.ts';
import { startSmtp } from '#tests/helpers/smtp.ts';

const d = tSsoDomains;
let server: TestServer;
let dns: TestDns;
let idp: TestProvider;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
const ids: Record<string, number> = {};
const cookies: Record<string, string> = {};

const em = () => server.services.orm.em.fork();

async function company(key: string, name: string, users: Array<[string, 'owner' | 'member']>, isStaff = false) {
  const e = em();
  const c = isStaff
    ? await e.findOneOrFail(Company, { isStaff: true })
    : e.create(Company, { name, customerNumber: `DOM-${key.toUpperCase()}`, invoiceNote: '' });
  for (const [email, role] of users) e.create(User, { email, name: email.split('@')[0]!, company: c, role });
  await e.flush();
  ids[key] = c.id;
}

type Answer = { status: number; body: { result?: { data?: unknown }; error?: { message: string } } };

async function trpc(path: string, cookie: string, input: unknown): Promise<Answer> {
  const res = await fetch(`${server.url}/api/trpc/${path}`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify(input),
  });
  return { status: res.status, body: (await res.json()) as Answer['body'] };
}

const settings = (domains: string[], allowEmailLink = false) => ({
  issuer: idp.issuer,
  clientId: idp.clientId,
  clientSecret: idp.clientSecret,
  domains,
  allowEmailLink,
  createUsers: false,
  mfaClaim: '',
});

/** POST /auth/login as a script does (JSON in, JSON out): the provider's URL, or the link's answer. */
async function login(destination: string): Promise<{ status: number; redirect?: string; success?: boolean }> {
  const res = await fetch(`${server.url}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', 'sec-fetch-mode': 'cors' },
    body: JSON.stringify({ destination }),
  });
  return { status: res.status, ...((await res.json()) as { redirect?: string; success?: boolean }) };
}

async function postForm(path: string, cookie: string, fields: Record<string, string>) {
  const res = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
  });
  return { status: res.status, html: decodeHtml(await res.text()) };
}

const row = (companyId: number, domain: string) => em().findOneOrFail(SsoDomain, { company: companyId, domain });

async function putProof(companyId: number, domain: string) {
  dns.txt(ssoTxtName(domain), [ssoTxtValue((await row(companyId, domain)).verificationToken)]);
}

beforeAll(async () => {
  smtp = await startSmtp();
  dns = await startDns();
  server = await startTestServer({
    env: { SMTP_URL: smtp.url, SSO_DNS_SERVERS: dns.address, SSO_ALLOW_PRIVATE_TARGETS: 'true' },
  });
  idp = await startOidcProvider({ redirectUri: `${server.url}/auth/sso/callback` });
  await company('offer', 'Offer AB', [
    ['vera@offer-sso.se', 'owner'],
    ['olof@offer-sso.se', 'member'],
  ]);
  await company('angripare', 'Angripare AB', [['anton@angripare-sso.se', 'owner']]);
  await company('gamma', 'Gamma AB', [
    ['gun@gamma-sso.se', 'owner'],
    ['gustav@gamma-sso.se', 'member'],
  ]);
  await company('staff', '', [['stina@personal-sso.se', 'member']], true);
  for (const email of ['vera@offer-sso.se', 'anton@angripare-sso.se', 'gun@gamma-sso.se', 'ella@demo.test'])
    cookies[email] = await server.sessionCookie(email);
}, 60_000);

afterAll(async () => {
  await idp?.close();
  await server?.stop();
  await smtp?.close();
  await dns?.close();
});

describe('claiming a domain', () => {
  it("another company's domain, the staff's and a public one are refused, with one message naming no holder", async () => {
    for (const domain of ['offer-sso.se', 'personal-sso.se', 'gmail.com', 'mail.outlook.com']) {
      const r = await trpc('sso.save', cookies['anton@angripare-sso.se']!, settings([domain]));
      expect(r.status, domain).toBe(409);
      expect(r.body.error?.message).toBe(d.refused(domain));
      expect(r.body.error?.message).not.toMatch(/Offer AB|Angripare AB|Demo AB/);
      expect(await em().count(SsoDomain, { domain })).toBe(0);
    }
    // The same through the page without JavaScript: the message next to the domains, nothing saved.
    const page = await postForm('/company/sign-in', cookies['anton@angripare-sso.se']!, {
      intent: 'save',
      issuer: idp.issuer,
      clientId: idp.clientId,
      clientSecret: idp.clientSecret,
      domains: 'angripare-sso.se\noffer-sso.se',
    });
    expect(page.html).toMatch(/id="domains-error"[^>]*>Domänen offer-sso.se kan inte användas/);
    expect(page.html).not.toContain('Offer AB');
    expect(await em().count(SsoDomain, { company: ids.angripare })).toBe(0);
    // A company whose own users are there is refused too where the staff have addresses (demo.test).
    const demo = await trpc('sso.save', cookies['ella@demo.test']!, settings(['demo.test']));
    expect(demo.status).toBe(409);
    expect(demo.body.error?.message).toBe(d.refused('demo.test'));
  });

  it('a saved claim without its TXT record signs nobody in; the rightful company can still claim it', async () => {
    // A domain nobody uses yet: saved, not verified, and its owner's page shows the record to add.
    const saved = await trpc('sso.save', cookies['anton@angripare-sso.se']!, settings(['ny-sso.se']));
    expect(saved.status).toBe(200);
    const claim = await row(ids.angripare!, 'ny-sso.se');
    expect(claim.verifiedAt).toBeNull();
    const page = await fetch(`${server.url}/company/sign-in`, {
      headers: { cookie: cookies['anton@angripare-sso.se']! },
    });
    const html = decodeHtml(await page.text());
    expect(html).toContain(d.unverified);
    expect(html).toContain(ssoTxtName('ny-sso.se'));
    expect(html).toContain(ssoTxtValue(claim.verificationToken));
    // Not a way in for anyone at that domain.
    const r = await login('someone@ny-sso.se');
    expect(r).toMatchObject({ status: 200, success: true });
    expect(r.redirect).toBeUndefined();

    // Gamma saves the same domain (its pending claim blocks nobody), proves it with its own record, and it is
    // Gamma's; the first claim's record would not have proved it for Gamma.
    expect((await trpc('sso.save', cookies['gun@gamma-sso.se']!, settings(['gamma-sso.se', 'ny-sso.se']))).status).toBe(
      200,
    );
    dns.txt(ssoTxtName('ny-sso.se'), [ssoTxtValue(claim.verificationToken)]);
    const wrong = await trpc('sso.checkDomain', cookies['gun@gamma-sso.se']!, { domain: 'ny-sso.se' });
    expect(wrong.body.result?.data).toEqual({ domain: 'ny-sso.se', state: 'missing' });
    await putProof(ids.gamma!, 'ny-sso.se');
    const proved = await trpc('sso.checkDomain', cookies['gun@gamma-sso.se']!, { domain: 'ny-sso.se' });
    expect(proved.body.result?.data).toEqual({ domain: 'ny-sso.se', state: 'verified' });
    // Now the first claimant, even with Gamma's record in DNS, cannot have it.
    dns.txt(ssoTxtName('ny-sso.se'), [
      ssoTxtValue((await row(ids.gamma!, 'ny-sso.se')).verificationToken),
      ssoTxtValue(claim.verificationToken),
    ]);
    const late = await trpc('sso.checkDomain', cookies['anton@angripare-sso.se']!, { domain: 'ny-sso.se' });
    expect(late.body.result?.data).toEqual({ domain: 'ny-sso.se', state: 'refused' });
    expect((await row(ids.angripare!, 'ny-sso.se')).verifiedAt).toBeNull();
    // And a new claim of it elsewhere is refused at once.
    const again = await trpc('sso.save', cookies['vera@offer-sso.se']!, settings(['offer-sso.se', 'ny-sso.se']));
    expect(again.status).toBe(409);
    expect(again.body.error?.message).toBe(d.refused('ny-sso.se'));
  });
});

describe('signing in by a domain', () => {
  it('an unverified domain does not route: its users get their link; proved, it routes to the provider', async () => {
    // Offer saves its own domain, allowing only its provider, but has not added the record yet.
    expect((await trpc('sso.save', cookies['vera@offer-sso.se']!, settings(['offer-sso.se']))).status).toBe(200);
    const before = await login('olof@offer-sso.se');
    expect(before.redirect).toBeUndefined();
    expect(before.success).toBe(true);
    await expect.poll(() => smtp.to('olof@offer-sso.se').length, { timeout: 10_000 }).toBe(1);

    // The record added, "Kontrollera" on the owner's page without JavaScript: verified.
    await putProof(ids.offer!, 'offer-sso.se');
    const checked = await postForm('/company/sign-in', cookies['vera@offer-sso.se']!, {
      intent: 'check',
      domain: 'offer-sso.se',
    });
    expect(checked.status).toBe(200);
    expect(checked.html).toContain(d.results.verified('offer-sso.se'));
    expect(checked.html).toMatch(/data-testid="sso-domain-offer-sso.se"[\s\S]*?Bekräftad/);
    // In the company's trail, by its owner.
    const proved = await em().findOneOrFail(AuditEvent, { action: 'ssoDomainVerified', company: ids.offer! });
    expect(proved.after).toMatchObject({ domain: 'offer-sso.se' });
    const after = await login('olof@offer-sso.se');
    expect(new URL(after.redirect!).origin).toBe(idp.issuer);
    expect(new URL(after.redirect!).searchParams.get('login_hint')).toBe('olof@offer-sso.se');
  });

  it('a domain whose record is gone is no longer used once the settings are saved again', async () => {
    dns.txt(ssoTxtName('offer-sso.se'), []);
    expect((await trpc('sso.save', cookies['vera@offer-sso.se']!, settings(['offer-sso.se']))).status).toBe(200);
    expect((await row(ids.offer!, 'offer-sso.se')).verifiedAt).toBeNull();
    expect(await em().count(AuditEvent, { action: 'ssoDomainUnverified', company: ids.offer! })).toBe(1);
    expect((await login('olof@offer-sso.se')).redirect).toBeUndefined();
    await expect.poll(() => smtp.to('olof@offer-sso.se').length, { timeout: 10_000 }).toBe(2);
    // Back: saving finds the record again (the token is the domain's own, kept across saves).
    await putProof(ids.offer!, 'offer-sso.se');
    expect((await trpc('sso.save', cookies['vera@offer-sso.se']!, settings(['offer-sso.se']))).status).toBe(200);
    expect((await row(ids.offer!, 'offer-sso.se')).verifiedAt).not.toBeNull();
  });

  it('a DNS server that does not answer changes nothing and says so', async () => {
    dns.mode = 'fail';
    try {
      const r = await postForm('/company/sign-in', cookies['vera@offer-sso.se']!, {
        intent: 'check',
        domain: 'offer-sso.se',
      });
      expect(r.html).toContain(d.results.unavailable('offer-sso.se'));
      expect((await row(ids.offer!, 'offer-sso.se')).verifiedAt).not.toBeNull();
    } finally {
      dns.mode = 'answer';
    }
    // Every question went to the test's server on loopback.
    expect(dns.queries.length).toBeGreaterThan(0);
    expect(dns.queries.every((q) => q.startsWith('TXT _sim-portal.'))).toBe(true);
  });

  it("another company's existing user in a proved domain keeps their link and is never sent to the provider", async () => {
    // A Gamma user whose address is in Offer's domain (added after Offer proved it).
    const e = em();
    e.create(User, {
      email: 'gast@offer-sso.se',
      name: 'Gäst',
      company: e.getReference(Company, ids.gamma!),
      role: 'member',
    });
    await e.flush();
    const r = await login('gast@offer-sso.se');
    expect(r.redirect).toBeUndefined();
    expect(r.success).toBe(true);
    await expect.poll(() => smtp.to('gast@offer-sso.se').length, { timeout: 10_000 }).toBe(1);
    // The login page without JavaScript: the link is sent, no hand-on to the provider.
    const form = await fetch(`${server.url}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ destination: 'gast@offer-sso.se' }),
      redirect: 'manual',
    });
    expect(form.headers.get('location')).toBe('/login?sent=1');
    // The link procedure itself (Offer allows no links for its own users: still one for Gamma's).
    const link = await trpc('auth.requestLink', '', { destination: 'gast@offer-sso.se' });
    expect(link.status).toBe(200);
    await expect.poll(() => smtp.to('gast@offer-sso.se').length, { timeout: 10_000 }).toBe(3);
    // Offer's own users still go to their provider, and get no link (a later mail to Gamma's user shows the
    // mail queue has moved past this request).
    expect(new URL((await login('olof@offer-sso.se')).redirect!).origin).toBe(idp.issuer);
    await trpc('auth.requestLink', '', { destination: 'gast@offer-sso.se' });
    await expect.poll(() => smtp.to('gast@offer-sso.se').length, { timeout: 10_000 }).toBe(4);
    expect(smtp.to('olof@offer-sso.se').length).toBe(2);
  });

  it('the super admin sees the proof and checks it; a check needs a recent step-up like every change', async () => {
    const admin = await server.sessionCookie('admin@demo.test');
    const path = `/admin/companies/${ids.gamma}/sign-in`;
    const html = decodeHtml(await (await fetch(`${server.url}${path}`, { headers: { cookie: admin } })).text());
    expect(html).toMatch(/data-testid="sso-domain-gamma-sso.se"[\s\S]*?Inte bekräftad/);
    expect(html).toContain(ssoTxtValue((await row(ids.gamma!, 'gamma-sso.se')).verificationToken));
    await putProof(ids.gamma!, 'gamma-sso.se');
    const checked = await postForm(path, admin, { intent: 'check', domain: 'gamma-sso.se' });
    expect(checked.html).toContain(d.results.verified('gamma-sso.se'));
    const stale = await server.sessionCookie('gun@gamma-sso.se', { steppedUp: false });
    const refused = await trpc('sso.checkDomain', stale, { domain: 'gamma-sso.se' });
    expect(refused.status).toBe(403);
    expect(refused.body.error?.message).toBe(tSecurity.stepUp.required);
  });
});
