// A real OpenID provider for the single sign-on tests: oidc-provider on a loopback port, with one confidential
// client (client_secret_basic, PKCE required, the portal's callback as its only redirect URI), accounts whose
// claims each test chooses, and an interaction that signs in the test's chosen account at once (no login or
// consent page: the tests are about the portal, not the provider's screens); its discovery document can be changed
// by a test (endpoints the portal must refuse), and it keeps the list of requests it received. Also a small browser for HTTP tests:
// a cookie jar per origin that follows redirects by hand, so a test can look at (and tamper with) each hop.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Provider, type Configuration } from 'oidc-provider';

export type TestAccount = { email?: string; email_verified?: boolean; name?: string };

export type TestProvider = {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The claims of each account (by its subject). */
  accounts: Map<string, TestAccount>;
  /** Who the next interaction signs in, and what it says about how (amr, acr); or an error to answer with. */
  next: { accountId: string; amr?: string[]; acr?: string } | { error: string };
  /** The authorization requests the provider received (their query), newest last. */
  authorizations: URLSearchParams[];
  /**
   * Changes to the discovery document it answers (a value of null drops the field): a provider naming endpoints
   * the portal must refuse. Empty: the document as oidc-provider makes it.
   */
  discovery: Record<string, unknown>;
  /** Every request it received ("GET /path"), newest last: a test's proof of what the portal sent (or did not). */
  requests: string[];
  close: () => Promise<void>;
};

export async function startOidcProvider(opts: { redirectUri: string }): Promise<TestProvider> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'sim-portal';
  const clientSecret = `test-client-secret-${Math.random().toString(36).slice(2)}-do-not-leak`;
  const accounts = new Map<string, TestAccount>();
  const authorizations: URLSearchParams[] = [];
  const requests: string[] = [];

  const configuration: Configuration = {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [opts.redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    // amr and acr ride on the openid scope, so every ID token says how the user signed in.
    claims: {
      acr: null,
      amr: null,
      auth_time: null,
      iss: null,
      sid: null,
      openid: ['sub', 'amr', 'acr'],
      email: ['email', 'email_verified'],
      profile: ['name'],
    },
    // The claims of the scopes go into the ID token too, as the large providers do (the portal reads only it).
    conformIdTokenClaims: false,
    cookies: { keys: ['test-cookie-key-0123456789'] },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    async findAccount(_ctx, sub) {
      const account = accounts.get(sub);
      if (!account) return undefined;
      return { accountId: sub, claims: () => ({ sub, ...account }) };
    },
  };
  const provider = new Provider(issuer, configuration);
  const state: TestProvider = {
    issuer,
    clientId,
    clientSecret,
    accounts,
    next: { accountId: 'nobody' },
    authorizations,
    discovery: {},
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const callback = provider.callback();
  /** The provider's own document (asked of itself), with the test's changes. */
  const answerChangedDiscovery = async (res: http.ServerResponse) => {
    const own = await fetch(`${issuer}/.well-known/openid-configuration`, {
      headers: { 'x-test-original-discovery': '1' },
    });
    const doc = (await own.json()) as Record<string, unknown>;
    for (const [key, value] of Object.entries(state.discovery))
      if (value === null) delete doc[key];
      else doc[key] = value;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(doc));
  };
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const url = new URL(req.url ?? '/', issuer);
    const original = req.headers['x-test-original-discovery'] === '1';
    if (!original) requests.push(`${req.method} ${url.pathname}`);
    if (url.pathname === '/auth') authorizations.push(url.searchParams);
    if (url.pathname === '/.well-known/openid-configuration' && !original && Object.keys(state.discovery).length) {
      void answerChangedDiscovery(res);
      return;
    }
    if (!url.pathname.startsWith('/interaction/')) {
      callback(req, res);
      return;
    }
    void (async () => {
      try {
        const details = await provider.interactionDetails(req, res);
        const next = state.next;
        if ('error' in next) {
          await provider.interactionFinished(req, res, { error: next.error }, { mergeWithLastSubmission: false });
          return;
        }
        if (details.prompt.name === 'login') {
          await provider.interactionFinished(
            req,
            res,
            { login: { accountId: next.accountId, amr: next.amr, acr: next.acr } },
            { mergeWithLastSubmission: false },
          );
          return;
        }
        // Consent: every scope asked for, granted.
        const accountId = details.session!.accountId;
        const grant = details.grantId
          ? (await provider.Grant.find(details.grantId))!
          : new provider.Grant({ accountId, clientId: String(details.params.client_id) });
        grant.addOIDCScope(String(details.params.scope));
        const grantId = await grant.save();
        await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
      } catch (err) {
        res.statusCode = 500;
        res.end(String(err));
      }
    })();
  });
  return state;
}

/** A browser without JavaScript: cookies per origin (host and port), redirects followed one hop at a time. */
export class CookieBrowser {
  private jars = new Map<string, Map<string, string>>();

  cookieHeader(url: string): string {
    const jar = this.jars.get(new URL(url).host);
    return jar ? [...jar].map(([k, v]) => `${k}=${v}`).join('; ') : '';
  }

  cookie(url: string, name: string): string | undefined {
    return this.jars.get(new URL(url).host)?.get(name);
  }

  setCookie(url: string, name: string, value: string | null): void {
    const host = new URL(url).host;
    const jar = this.jars.get(host) ?? new Map<string, string>();
    this.jars.set(host, jar);
    if (value === null) jar.delete(name);
    else jar.set(name, value);
  }

  /** Drops every cookie of the origin of `url` (signed out of a provider, say). */
  forget(url: string): void {
    this.jars.delete(new URL(url).host);
  }

  /** One request; its Set-Cookie headers kept (a Max-Age=0 or empty value clears). */
  async request(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    const cookie = this.cookieHeader(url);
    if (cookie) headers.set('cookie', cookie);
    const res = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) {
      const [pair = '', ...attrs] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const cleared = !value || attrs.some((a) => /^\s*max-age=0\s*$/i.test(a));
      this.setCookie(url, name, cleared ? null : value);
    }
    return res;
  }

  /**
   * Follows redirects from `res` (GETs), calling `hop` on each next URL first so a test may change it; answers
   * the last response and every URL visited.
   */
  async follow(
    res: Response,
    from: string,
    hop: (url: URL) => URL | void = () => {},
  ): Promise<{ res: Response; visited: string[] }> {
    const visited: string[] = [];
    let current = res;
    let base = from;
    for (let i = 0; i < 20 && current.status >= 300 && current.status < 400; i++) {
      const location = current.headers.get('location');
      if (!location) break;
      await current.body?.cancel();
      let next = new URL(location, base);
      next = hop(next) ?? next;
      visited.push(next.toString());
      base = next.toString();
      current = await this.request(base);
    }
    return { res: current, visited };
  }
}
