// Single sign-on in a real Chromium, with and without JavaScript: the login form sends an address of a company
// with its own identity provider there (through the portal's hand-on page: the pages' CSP form-action 'self'
// would block a form post redirected to another origin), the provider (oidc-provider on loopback) signs the
// user in, and the callback lands on the page asked for, signed in.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveSso } from '#server/auth/sso.ts';
import { Company, User } from '#server/db/entities.ts';
import { axeViolations, newContext } from '#tests/helpers/browser.ts';
import { needs } from '#tests/helpers/needs.ts';
import { startOidcProvider, type TestProvider } from '#tests/helpers/oidc-provider.ts';
import { useScreens } from '#tests/helpers/screens.ts';
import { proveSsoDomains, startDns } from '#tests/helpers/dns-server.ts';
import { ssoTxtName, ssoTxtValue } from '#domain/sso/domains.ts';
import { tSsoDomains } from '#domain/texts/sso-domains.ts';
import { SsoDomain } from '#server/db/entities.ts';

// The provider is on loopback: the address policy lets it be reached only with SSO_ALLOW_PRIVATE_TARGETS.
// The domains' proofs are asked of a DNS server on loopback that the test controls.
const dns = await startDns();
const portal = useScreens({ env: { SSO_DNS_SERVERS: dns.address, SSO_ALLOW_PRIVATE_TARGETS: 'true' } });
let idp: TestProvider;

beforeAll(async () => {
  const server = portal.server;
  idp = await startOidcProvider({ redirectUri: `${server.url}/auth/sso/callback` });
  const em = server.services.orm.em.fork();
  const company = em.create(Company, { name: 'Webbläsare SSO AB', customerNumber: 'SSO-E2E', invoiceNote: '' });
  em.create(User, { email: 'vera@webb-sso.se', name: 'Vera Webb', company, role: 'member' });
  em.create(User, { email: 'agda@webb-sso.se', name: 'Agda Ägare', company, role: 'owner' });
  await em.flush();
  await saveSso(server.services, em.fork(), { userId: 1, actingCompanyId: null }, company.id, {
    issuer: idp.issuer,
    clientId: idp.clientId,
    clientSecret: idp.clientSecret,
    domains: ['webb-sso.se'],
    allowEmailLink: false,
    createUsers: false,
    mfaClaim: null,
  });
  await proveSsoDomains(dns, server.services, company.id);
  idp.accounts.set('vera', { email: 'vera@webb-sso.se', email_verified: true, name: 'Vera Webb' });
  idp.next = { accountId: 'vera' };
});

afterAll(async () => {
  await idp?.close();
  await dns.close();
});

needs(describe, 'chromium')('single sign-on in the browser', () => {
  for (const js of [true, false]) {
    it(`signs in through the company's provider and lands on the page asked for (JS ${js ? 'on' : 'off'})`, async () => {
      const ctx = await newContext(portal.browser, { baseURL: portal.server.url, js });
      try {
        const page = await ctx.newPage();
        const blocked: string[] = [];
        page.on('console', (m) => {
          if (/Content Security Policy|Refused/i.test(m.text())) blocked.push(m.text());
        });
        await page.goto('/sims');
        expect(page.url()).toContain('/login?redirectTo=%2Fsims');
        await page.getByLabel('E-postadress').fill('vera@webb-sso.se');
        await page.getByLabel('E-postadress').press('Enter');
        await page.waitForURL((url) => url.pathname === '/sims', { timeout: 20_000 });
        expect(blocked).toEqual([]);
        // Signed in: the session cookie is there, and the page is the SIM list, not the login.
        const cookies = await ctx.cookies(portal.server.url);
        expect(cookies.find((c) => c.name === portal.server.cookieName)).toBeDefined();
        expect(cookies.find((c) => c.name === 'sim_sso')).toBeUndefined();
        await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.not.toContain('Logga in');
        expect(idp.authorizations.at(-1)?.get('login_hint')).toBe('vera@webb-sso.se');
      } finally {
        await ctx.close();
      }
    });
  }

  for (const js of [true, false]) {
    it(`the owner's sign-in settings: saved from the form, errors next to the fields (JS ${js ? 'on' : 'off'})`, async () => {
      const page = await portal.loggedInPage('agda@webb-sso.se', { js });
      try {
        await page.goto('/company');
        // The tab among the company's pages.
        await page.getByRole('navigation', { name: 'Mitt företag' }).getByRole('link', { name: 'Inloggning' }).click();
        await page.waitForURL((u) => u.pathname === '/company/sign-in');
        await page.getByRole('heading', { level: 1, name: 'Inloggning' }).waitFor();
        if (js) await page.waitForFunction(() => '__remixRouter' in window);
        expect(await page.getByLabel('Klienthemlighet').inputValue()).toBe('');
        await page.getByLabel('Utfärdarens URL (issuer)').fill('http://inte-loopback.example');
        await page.getByRole('button', { name: 'Spara inloggning' }).click();
        await page.locator('#issuer-error').waitFor();
        // What was typed is still there, the secret never comes back.
        expect(await page.getByLabel('Utfärdarens URL (issuer)').inputValue()).toBe('http://inte-loopback.example');
        await page.getByLabel('Utfärdarens URL (issuer)').fill(idp.issuer);
        await page.getByLabel('Domäner', { exact: true }).fill('webb-sso.se');
        await page.getByRole('button', { name: 'Spara inloggning' }).click();
        await page.getByText('Inloggningen via identitetsleverantören är sparad.').waitFor();
        if (js) expect(await axeViolations(page)).toEqual([]);
        expect(await page.content()).not.toContain(idp.clientSecret);
      } finally {
        await page.context().close();
      }
    });
  }

  for (const js of [true, false]) {
    it(`the owner proves a new domain by its TXT record, and a public one is refused (JS ${js ? 'on' : 'off'})`, async () => {
      const domain = `bevis-${js ? 'js' : 'utan'}-sso.se`;
      const page = await portal.loggedInPage('agda@webb-sso.se', { js });
      try {
        await page.goto('/company/sign-in');
        await page.getByRole('heading', { level: 1, name: 'Inloggning' }).waitFor();
        if (js) await page.waitForFunction(() => '__remixRouter' in window);
        await page.getByLabel('Domäner', { exact: true }).fill(`webb-sso.se\n${domain}`);
        await page.getByRole('button', { name: 'Spara inloggning' }).click();
        await page.getByText('Inloggningen via identitetsleverantören är sparad.').waitFor();
        // Saved, not proved: the record to add is shown, and the address does not sign in there yet.
        const item = page.getByTestId(`sso-domain-${domain}`);
        await item.getByText(tSsoDomains.unverified).waitFor();
        const row = await portal.server.services.orm.em.fork().findOneOrFail(SsoDomain, { domain });
        expect(row.verifiedAt).toBeNull();
        expect(await item.textContent()).toContain(ssoTxtName(domain));
        expect(await item.textContent()).toContain(ssoTxtValue(row.verificationToken));
        // The record added in DNS, then "Kontrollera": proved.
        dns.txt(ssoTxtName(domain), [ssoTxtValue(row.verificationToken)]);
        await page.getByRole('button', { name: tSsoDomains.checkLabel(domain) }).click();
        await page.getByText(tSsoDomains.results.verified(domain)).waitFor();
        await page.getByTestId(`sso-domain-${domain}`).getByText(tSsoDomains.verified, { exact: true }).waitFor();
        if (js) expect(await axeViolations(page)).toEqual([]);
        expect(
          (await portal.server.services.orm.em.fork().findOneOrFail(SsoDomain, { domain })).verifiedAt,
        ).not.toBeNull();

        // A public mail domain: the one refusal next to the domains, nothing saved.
        await page.getByLabel('Domäner', { exact: true }).fill(`webb-sso.se\n${domain}\ngmail.com`);
        await page.getByRole('button', { name: 'Spara inloggning' }).click();
        await page.locator('#domains-error').getByText(tSsoDomains.refused('gmail.com')).waitFor();
        expect(await portal.server.services.orm.em.fork().count(SsoDomain, { domain: 'gmail.com' })).toBe(0);
      } finally {
        await page.context().close();
      }
    });
  }
});
