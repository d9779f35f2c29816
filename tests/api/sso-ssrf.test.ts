// Long: the address policy at every step of one provider's set-up, with one set of hostile addresses.
// A company's identity provider is held to the address policy of webhook targets (issue 37, findings 4 and 6):
// the issuer and every endpoint its discovery document names, at save and at every connection, refused before any
// packet is sent; and a provider whose document cannot be used is a Swedish message at every login door (never a
// 500) and a message naming the field to the owner who saves it.
// No traffic leaves loopback: the addresses the portal must not reach are loopback itself (on the server without
// SSO_ALLOW_PRIVATE_TARGETS), or forms of it the policy refuses (0.0.0.0, ::ffff:127.0.0.1), each with a listener
// behind it that counts what arrives; literal inside addresses (10.0.0.1, 169.254.169.254) appear only where the
// policy refuses them before connecting (the old code did not connect there either: it saved them unseen).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveSso } from '#server/auth/sso.ts';
import { Company, SsoConfig, User } from '#server/db/entities.ts';
import { tSecurity } from '#domain/texts/security.ts';
import { decodeHtml } from '#tests/helpers/html.ts';
import { proveSsoDomains, startDns, type TestDns } from '#tests/helpers/dns-server.ts';
import { CookieBrowser, startOidcProvider, type TestProvider } from '#tests/helpers/oidc-provider.ts';
import { startTestServer, type TestServer } from '#tests/helpers/server.ts';

const p = tSecurity.sso.problems;
const e = tSecurity.sso.errors;

/** An HTTP listener on 127.0.0.1 that counts the connections and requests it gets (the portal must send none). */
async function trap() {
  const seen = { connections: 0, requests: [] as string[] };
  const server = http.createServer((req, res) => {
    seen.requests.push(`${req.method} ${req.url} ${req.headers.authorization ?? ''}`);
    res.writeHead(500).end();
  });
  server.on('connection', () => void seen.connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

type Portal = { server: TestServer; dns: TestDns; companyId: number; owner: string };

async function portal(env: Record<string, string>, name: string, domain: string): Promise<Portal> {
  const dns = await startDns();
  const server = await startTestServer({ logs: true, env: { SSO_DNS_SERVERS: dns.address, ...env } });
  const em = server.services.orm.em.fork();
  const company = em.create(Company, { name, customerNumber: `SSRF-${domain.length}`, invoiceNote: '' });
  em.create(User, { email: `agare@${domain}`, name: 'Ägare', company, role: 'owner' });
  em.create(User, { email: `anna@${domain}`, name: 'Anna', company, role: 'member' });
  await em.flush();
  return { server, dns, companyId: company.id, owner: await server.sessionCookie(`agare@${domain}`) };
}

/** sso.save through the tRPC door, as the owner's page's script calls it. */
async function trpcSave(at: Portal, input: Record<string, unknown>) {
  const res = await fetch(`${at.server.url}/api/trpc/sso.save`, {
    method: 'POST',
    headers: { cookie: at.owner, 'content-type': 'application/json' },
    body: JSON.stringify({
      clientId: 'c',
      clientSecret: 's',
      allowEmailLink: true,
      createUsers: false,
      mfaClaim: '',
      ...input,
    }),
  });
  const body = (await res.json()) as { error?: { message: string; data?: { issues?: Array<{ path: string[] }> } } };
  return {
    status: res.status,
    message: body.error?.message ?? '',
    paths: body.error?.data?.issues?.map((i) => i.path.join('.')) ?? [],
  };
}

/** A provider stored as an older release let it be saved (the service itself: no check of ours in between). */
async function stored(
  at: Portal,
  issuer: string,
  domain: string,
  extra: { clientId?: string; clientSecret?: string } = {},
) {
  await saveSso(
    at.server.services,
    at.server.services.orm.em.fork(),
    { userId: 1, actingCompanyId: null },
    at.companyId,
    {
      issuer,
      clientId: extra.clientId ?? 'c',
      clientSecret: extra.clientSecret ?? 'stored-secret-must-not-travel',
      domains: [domain],
      allowEmailLink: false,
      createUsers: false,
      mfaClaim: null,
    },
  );
  await proveSsoDomains(at.dns, at.server.services, at.companyId);
}

/** A browser's form post without JavaScript (undici's fetch would send Sec-Fetch-Mode: cors, a script's). */
function formPost(url: string, fields: Record<string, string>) {
  const body = new URLSearchParams(fields).toString();
  return new Promise<{ status: number; location: string | null; body: string }>((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'content-length': Buffer.byteLength(body),
          accept: 'text/html',
          'sec-fetch-mode': 'navigate',
          'sec-fetch-site': 'same-origin',
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            location: res.headers.location ?? null,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Every login door with this address: the JSON door, the form door (no JS), the login page, tRPC sso.start. */
async function everyDoor(at: Portal, email: string) {
  const url = at.server.url;
  const json = await fetch(`${url}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', 'sec-fetch-mode': 'cors' },
    body: JSON.stringify({ destination: email }),
  });
  const form = await formPost(`${url}/auth/login`, { destination: email });
  const page = await formPost(`${url}/login`, { destination: email });
  const start = await fetch(`${url}/api/trpc/sso.start`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ destination: email }),
  });
  return {
    json: { status: json.status, body: (await json.json()) as { error?: string; redirect?: string } },
    form: { status: form.status, location: form.location },
    page: { status: page.status, html: decodeHtml(page.body) },
    start: { status: start.status, body: (await start.json()) as { result?: { data?: { problem?: string } } } },
  };
}

const refusedInLog = (server: TestServer) =>
  server.logs.filter((l) => l.msg === 'sso: connection refused by the address policy').length;

describe('without SSO_ALLOW_PRIVATE_TARGETS (as in production)', () => {
  const DOMAIN = 'strikt-ssrf.se';
  let at: Portal;
  let listener: Awaited<ReturnType<typeof trap>>;

  beforeAll(async () => {
    listener = await trap();
    at = await portal({}, 'Strikt AB', DOMAIN);
  }, 120_000);

  afterAll(async () => {
    await at?.server.stop();
    await at?.dns.close();
    await listener?.close();
  });

  it('the save refuses an issuer on loopback or an inside address, on the issuer field, before any connection', async () => {
    const port = listener.port;
    for (const issuer of [
      `http://127.0.0.1:${port}`,
      `https://127.0.0.1:${port}`,
      `https://localhost:${port}`,
      `https://[::1]:${port}`,
      `https://0.0.0.0:${port}`,
      `https://[::ffff:127.0.0.1]:${port}`,
      'https://10.0.0.1',
      'https://169.254.169.254/latest/meta-data',
      'https://192.168.1.1',
      'https://[fd00::1]',
    ]) {
      const r = await trpcSave(at, { issuer, domains: [DOMAIN] });
      expect(r.status, issuer).toBe(400);
      expect(r.paths, issuer).toEqual(['issuer']);
    }
    expect(await at.server.services.orm.em.fork().count(SsoConfig, {})).toBe(0);
    expect(listener.seen.connections).toBe(0);
  });

  it('the owner page (no JS) says so next to the issuer field', async () => {
    const res = await fetch(`${at.server.url}/company/sign-in`, {
      method: 'POST',
      headers: { cookie: at.owner, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        intent: 'save',
        issuer: 'https://169.254.169.254',
        clientId: 'c',
        clientSecret: 's',
        domains: DOMAIN,
      }),
    });
    const html = decodeHtml(await res.text());
    expect(html).toMatch(/id="issuer-error"[^>]*>[^<]*internt nät/);
    expect(html).toContain('value="https://169.254.169.254"');
  });

  it('a provider stored on such an address: no login door connects there; the users get a Swedish message', async () => {
    // localhost: a name, refused at the connection's own lookup (what it resolves to then is what is checked).
    for (const issuer of [
      `http://127.0.0.1:${listener.port}`,
      `https://0.0.0.0:${listener.port}`,
      `https://localhost:${listener.port}`,
    ]) {
      await stored(at, issuer, DOMAIN);
      const before = refusedInLog(at.server);
      const r = await everyDoor(at, `anna@${DOMAIN}`);
      expect(r.json.status, issuer).toBe(503);
      expect(r.json.body.error).toBe(p.misconfigured);
      expect(r.form.status).toBe(302);
      expect(r.form.location).toBe('/auth/sso/callback?problem=misconfigured');
      expect(r.page.status).toBe(200);
      expect(r.page.html).toContain(p.misconfigured);
      expect(r.start.status).toBe(200);
      expect(r.start.body.result?.data?.problem).toBe('misconfigured');
      // Refused by the policy (its hook, the log), and nothing reached the listener.
      expect(refusedInLog(at.server)).toBeGreaterThan(before);
      expect(listener.seen.connections).toBe(0);
    }
  });
});

describe('with SSO_ALLOW_PRIVATE_TARGETS (a provider on loopback, as the tests run it)', () => {
  const DOMAIN = 'lokal-ssrf.se';
  let at: Portal;
  let idp: TestProvider;
  let listener: Awaited<ReturnType<typeof trap>>;

  beforeAll(async () => {
    listener = await trap();
    at = await portal({ SSO_ALLOW_PRIVATE_TARGETS: 'true', SSO_DISCOVERY_TIMEOUT_MS: '2000' }, 'Lokal AB', DOMAIN);
    idp = await startOidcProvider({ redirectUri: `${at.server.url}/auth/sso/callback` });
  }, 120_000);

  afterAll(async () => {
    await idp?.close();
    await at?.server.stop();
    await at?.dns.close();
    await listener?.close();
  });

  it('the save checks every endpoint the discovery names: an inside one is refused, naming it', async () => {
    const cases: Array<[string, string]> = [
      ['token_endpoint', `http://0.0.0.0:${listener.port}/token`],
      ['token_endpoint', `http://[::ffff:127.0.0.1]:${listener.port}/token`],
      ['jwks_uri', 'https://169.254.169.254/jwks'],
      ['userinfo_endpoint', 'https://10.0.0.1/me'],
      ['end_session_endpoint', 'http://192.168.0.1/logout'],
    ];
    for (const [field, value] of cases) {
      idp.discovery = { [field]: value };
      const r = await trpcSave(at, { issuer: idp.issuer, domains: [DOMAIN] });
      expect(r.status, `${field} ${value}`).toBe(400);
      expect(r.paths).toEqual(['issuer']);
      expect(r.message).toContain(field);
    }
    idp.discovery = {};
    expect(await at.server.services.orm.em.fork().count(SsoConfig, {})).toBe(0);
    expect(listener.seen.connections).toBe(0);
    // The provider as it is: saved.
    const ok = await trpcSave(at, { issuer: idp.issuer, domains: [DOMAIN] });
    expect(ok.status).toBe(200);
  });

  it('a provider that names an inside token endpoint after it was saved: the client secret never travels there', async () => {
    await stored(at, idp.issuer, DOMAIN, { clientId: idp.clientId, clientSecret: idp.clientSecret });
    const sub = 'anna-ssrf';
    idp.accounts.set(sub, { email: `anna@${DOMAIN}`, email_verified: true });
    idp.next = { accountId: sub };
    idp.discovery = { token_endpoint: `http://[::ffff:127.0.0.1]:${listener.port}/token` };
    try {
      // The whole round trip a browser without JavaScript makes, as far as the portal lets it go.
      const browser = new CookieBrowser();
      const res = await browser.request(`${at.server.url}/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ destination: `anna@${DOMAIN}` }),
      });
      let html = decodeHtml(await res.clone().text());
      const to =
        res.headers.get('location') && new URL(res.headers.get('location')!, at.server.url).searchParams.get('to');
      if (to) {
        const { res: last } = await browser.follow(await browser.request(to), to);
        html = decodeHtml(await last.text());
      }
      expect(html).toContain(p.misconfigured);
      expect(browser.cookie(at.server.url, at.server.cookieName)).toBeUndefined();
      expect(listener.seen.connections).toBe(0);
      expect(listener.seen.requests).toEqual([]);
    } finally {
      idp.discovery = {};
    }
  });

  describe('an authorization endpoint that cannot be used: no 500 from any login door', () => {
    const bad: Array<[string, string | null]> = [
      ['ftp', 'ftp://127.0.0.1/auth'],
      ['javascript', 'javascript:alert(1)'],
      ['malformed', 'http://[nicht'],
      ['missing', null],
    ];
    for (const [name, value] of bad) {
      it(`${name}: the save names authorization_endpoint; every door says the company's sign-in does not answer`, async () => {
        idp.discovery = { authorization_endpoint: value };
        try {
          const save = await trpcSave(at, { issuer: idp.issuer, domains: [DOMAIN] });
          expect(save.status).toBe(400);
          expect(save.paths).toEqual(['issuer']);
          expect(save.message).toContain('authorization_endpoint');
          // Stored before this check existed (or the provider changed its document since): every door answers.
          await stored(at, idp.issuer, DOMAIN, { clientId: idp.clientId, clientSecret: idp.clientSecret });
          const r = await everyDoor(at, `anna@${DOMAIN}`);
          expect(r.json.status).toBe(503);
          expect(r.json.body.error).toBe(p.misconfigured);
          expect(r.form.location).toBe('/auth/sso/callback?problem=misconfigured');
          expect(r.page.status).toBe(200);
          expect(r.page.html).toContain(p.misconfigured);
          expect(r.start.status).toBe(200);
          expect(r.start.body.result?.data?.problem).toBe('misconfigured');
        } finally {
          idp.discovery = {};
        }
      });
    }

    it("a document that is no provider's, or a provider that is down: the owner is told at save", async () => {
      idp.discovery = { issuer: 'https://someone-else.example' };
      try {
        const r = await trpcSave(at, { issuer: idp.issuer, domains: [DOMAIN] });
        expect(r.paths).toEqual(['issuer']);
        expect(r.message).toBe(e.discoveryInvalid(`${idp.issuer}/.well-known/openid-configuration`));
      } finally {
        idp.discovery = {};
      }
      const closed = await trap();
      await closed.close();
      const down = await trpcSave(at, { issuer: `http://127.0.0.1:${closed.port}`, domains: [DOMAIN] });
      expect(down.paths).toEqual(['issuer']);
      expect(down.message).toBe(
        e.providerUnreachable(`http://127.0.0.1:${closed.port}/.well-known/openid-configuration`),
      );
    });
  });
});
