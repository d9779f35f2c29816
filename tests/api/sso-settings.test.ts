// A company's sign-in settings pages (/company/sign-in for its owner, /admin/companies/:id/sign-in for a super
// admin) as a browser without JavaScript posts them: saved with the domains, the secret kept when left empty and
// never shown, errors next to their field with the values kept, a step-up required, the audit rows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decryptSecret } from '#server/auth/sso-secret.ts';
import { AuditEvent, Company, SsoConfig, SsoDomain, User } from '#server/db/entities.ts';
import { tSecurity } from '#domain/texts/security.ts';
import { tSsoDomains } from '#domain/texts/sso-domains.ts';
import { decodeHtml } from '#tests/helpers/html.ts';
import { startOidcProvider, type TestProvider } from '#tests/helpers/oidc-provider.ts';
import { startTestServer, type TestServer } from '#tests/helpers/server.ts';

const s = tSecurity.sso;
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const SECRET = 'settings-client-secret-that-must-never-show';

let server: TestServer;
// A real provider (on loopback): a save fetches the issuer's discovery document and checks its endpoints.
let idp: TestProvider;
let companyId: number;
let otherId: number;
let owner: string;

async function post(path: string, cookie: string, fields: Record<string, string>) {
  const res = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
  });
  return { status: res.status, html: decodeHtml(await res.text()) };
}

const saveFields = (extra: Record<string, string> = {}) => ({
  intent: 'save',
  issuer: idp.issuer,
  clientId: 'portal-client',
  clientSecret: SECRET,
  domains: 'installning-sso.se,\nWWW.Installning-SSO.se',
  allowEmailLink: 'on',
  mfaClaim: 'mfa',
  ...extra,
});

const em = () => server.services.orm.em.fork();

beforeAll(async () => {
  server = await startTestServer({ env: { SSO_ALLOW_PRIVATE_TARGETS: 'true' } });
  idp = await startOidcProvider({ redirectUri: `${server.url}/auth/sso/callback` });
  const e = em();
  const company = e.create(Company, { name: 'Inställning AB', customerNumber: 'SSO-SET', invoiceNote: '' });
  const other = e.create(Company, { name: 'Annan AB', customerNumber: 'SSO-OTHER', invoiceNote: '' });
  e.create(User, { email: 'agare@installning-sso.se', name: 'Ägare', company, role: 'owner' });
  e.create(User, { email: 'medarbetare@installning-sso.se', name: 'Medarbetare', company, role: 'member' });
  await e.flush();
  companyId = company.id;
  otherId = other.id;
  owner = await server.sessionCookie('agare@installning-sso.se');
}, 60_000);

afterAll(async () => {
  await idp?.close();
  await server?.stop();
});

describe('the owner page /company/sign-in', () => {
  it('shows the form with the callback URL to register, linked from /company', async () => {
    const home = decodeHtml(await (await fetch(`${server.url}/company`, { headers: { cookie: owner } })).text());
    expect(home).toContain('href="/company/sign-in"');
    const res = await fetch(`${server.url}/company/sign-in`, { headers: { cookie: owner } });
    expect(res.status).toBe(200);
    const html = decodeHtml(await res.text());
    expect(html).toContain(s.notConfigured);
    expect(html).toContain(`${server.url}/auth/sso/callback`);
    expect(html).toContain('type="password"');
  });

  it('saves without JavaScript: domains lower-cased, the secret encrypted, an audit row without it', async () => {
    const r = await post('/company/sign-in', owner, saveFields());
    expect(r.status).toBe(200);
    expect(r.html).toContain(s.saved);
    expect(r.html).not.toContain(SECRET);
    const row = await em().findOneOrFail(SsoConfig, { company: companyId });
    expect(row).toMatchObject({
      issuer: idp.issuer,
      clientId: 'portal-client',
      allowEmailLink: true,
      createUsers: false,
      mfaClaim: 'mfa',
    });
    expect(row.clientSecret).not.toContain(SECRET);
    expect(decryptSecret(row.clientSecret, server.services.config.sso.secretKey)).toBe(SECRET);
    const domains = (await em().find(SsoDomain, { company: companyId })).map((d) => d.domain).sort();
    expect(domains).toEqual(['installning-sso.se', 'www.installning-sso.se']);
    const audit = await em().findOneOrFail(AuditEvent, { action: 'ssoConfigured', company: companyId });
    expect(audit.after).toMatchObject({ issuer: idp.issuer });
    expect(JSON.stringify([audit.before, audit.after])).not.toContain(SECRET);
    // Shown again: the values, never the secret.
    const page = decodeHtml(
      await (await fetch(`${server.url}/company/sign-in`, { headers: { cookie: owner } })).text(),
    );
    expect(page).toContain(idp.issuer);
    expect(page).toContain(s.clientSecretKeep);
    expect(page).not.toContain(SECRET);
  });

  it('an empty secret on an edit keeps the stored one', async () => {
    const r = await post('/company/sign-in', owner, saveFields({ clientSecret: '', clientId: 'portal-client-2' }));
    expect(r.html).toContain(s.saved);
    const row = await em().findOneOrFail(SsoConfig, { company: companyId });
    expect(row.clientId).toBe('portal-client-2');
    expect(decryptSecret(row.clientSecret, server.services.config.sso.secretKey)).toBe(SECRET);
  });

  it('a session without a recent step-up gets the step-up error and nothing changes', async () => {
    const stale = await server.sessionCookie('agare@installning-sso.se', { steppedUp: false });
    const r = await post('/company/sign-in', stale, saveFields({ clientId: 'changed-without-step-up' }));
    expect(r.html).toContain(tSecurity.stepUp.required);
    expect((await em().findOneOrFail(SsoConfig, { company: companyId })).clientId).toBe('portal-client-2');
    const passkeys = await post('/company/sign-in', stale, { intent: 'passkeys', requirePasskeys: 'on' });
    expect(passkeys.html).toContain(tSecurity.stepUp.required);
    expect((await em().findOneOrFail(Company, { id: companyId })).requirePasskeys).toBe(false);
  });

  it('a domain another company has proved: the one neutral refusal next to the domains, the values kept', async () => {
    const e = em();
    e.create(SsoDomain, {
      domain: 'upptagen-sso.se',
      company: e.getReference(Company, otherId),
      verificationToken: 'annan-token',
      verifiedAt: new Date(),
    });
    await e.flush();
    const r = await post(
      '/company/sign-in',
      owner,
      saveFields({ clientId: 'ny-klient', domains: 'installning-sso.se\nupptagen-sso.se' }),
    );
    expect(r.html).toMatch(new RegExp(`id="domains-error"[^>]*>${escaped(tSsoDomains.refused('upptagen-sso.se'))}`));
    expect(r.html).not.toContain('Annan AB');
    expect(r.html).toContain('value="ny-klient"');
    expect(r.html).toContain('upptagen-sso.se');
    expect(r.html).not.toContain(SECRET);
    // Nothing half-saved.
    expect((await em().findOneOrFail(SsoConfig, { company: companyId })).clientId).toBe('portal-client-2');
    expect((await em().findOneOrFail(SsoDomain, { domain: 'upptagen-sso.se' })).company.id).toBe(otherId);
  });

  it('an issuer that is not https (nor loopback http): an error next to it', async () => {
    const r = await post('/company/sign-in', owner, saveFields({ issuer: 'http://login.installning.example' }));
    expect(r.html).toMatch(new RegExp(`id="issuer-error"[^>]*>${escaped(s.errors.issuer)}`));
    const bad = await post('/company/sign-in', owner, saveFields({ domains: 'inte en domän' }));
    expect(bad.html).toContain('id="domains-error"');
  });

  it('requires passkeys for everyone and back, each in the trail', async () => {
    const on = await post('/company/sign-in', owner, { intent: 'passkeys', requirePasskeys: 'on' });
    expect(on.html).toContain(s.passkeysSaved);
    expect((await em().findOneOrFail(Company, { id: companyId })).requirePasskeys).toBe(true);
    // The owner has no passkey yet: the next page asks for one first. Signed in again with one, as the sign-in
    // would have demanded:
    owner = await server.sessionCookie('agare@installning-sso.se');
    const off = await post('/company/sign-in', owner, { intent: 'passkeys' });
    expect(off.html).toContain(s.passkeysSaved);
    expect((await em().findOneOrFail(Company, { id: companyId })).requirePasskeys).toBe(false);
    expect(await em().count(AuditEvent, { action: 'passkeysRequired', company: companyId })).toBe(1);
    expect(await em().count(AuditEvent, { action: 'passkeysNotRequired', company: companyId })).toBe(1);
  });

  it('is the owner’s only: a member gets 403, the procedures too', async () => {
    const member = await server.sessionCookie('medarbetare@installning-sso.se');
    expect((await fetch(`${server.url}/company/sign-in`, { headers: { cookie: member } })).status).toBe(403);
    expect((await post('/company/sign-in', member, saveFields())).status).toBe(403);
    const api = await fetch(`${server.url}/api/trpc/sso.settings`, { headers: { cookie: member } });
    expect(api.status).toBe(403);
  });
});

describe('the super admin page /admin/companies/:id/sign-in', () => {
  it('saves, shows and removes a company’s provider; linked from the company page', async () => {
    const admin = await server.sessionCookie('admin@demo.test');
    const companyPage = await fetch(`${server.url}/admin/companies/${otherId}`, { headers: { cookie: admin } });
    expect(decodeHtml(await companyPage.text())).toContain(`href="/admin/companies/${otherId}/sign-in"`);
    const path = `/admin/companies/${otherId}/sign-in`;
    const saved = await post(path, admin, saveFields({ domains: 'upptagen-sso.se', clientSecret: 'annan-secret-x' }));
    expect(saved.html).toContain(s.saved);
    expect(saved.html).not.toContain('annan-secret-x');
    expect((await em().findOneOrFail(SsoConfig, { company: otherId })).issuer).toBe(idp.issuer);

    const stale = await server.sessionCookie('admin@demo.test', { steppedUp: false });
    const refused = await post(path, stale, { intent: 'remove' });
    expect(refused.html).toContain(tSecurity.stepUp.required);
    expect(await em().count(SsoConfig, { company: otherId })).toBe(1);

    const removed = await post(path, admin, { intent: 'remove' });
    expect(removed.html).toContain(s.removed);
    expect(await em().count(SsoConfig, { company: otherId })).toBe(0);
    expect(await em().count(SsoDomain, { company: otherId })).toBe(0);
    expect(await em().count(AuditEvent, { action: 'ssoRemoved', company: otherId })).toBe(1);
  });

  it('is not for a company owner', async () => {
    expect(
      (await fetch(`${server.url}/admin/companies/${otherId}/sign-in`, { headers: { cookie: owner } })).status,
    ).toBe(403);
  });
});
