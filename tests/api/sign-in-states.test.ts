// Long: one matrix, every route, REST path and procedure against the sign-in states.
// The authorization matrix of the sign-in states. A session still signing in (stage passkey: the link was used, the
// passkey is still asked; stage register: a passkey must be added first) is signed out to the whole portal: every page
// route of the build (each GET, and each POST to a route with an action) and every /api path (the OpenAPI document's
// REST paths, every tRPC procedure, the event stream, the list export) answers it exactly as an anonymous visitor,
// except that a page sending the visitor to /login sends it to /login/passkey; only the passkey page, /auth/logout and
// the public pages are reachable. A full session without a recent passkey use is refused every sensitive change with
// 403 `stepUp: true` on the REST door and with the step-up message on the page's form post (no JS), changing nothing;
// the same change stepped up goes through. A pending session older than 10 minutes is gone.
import { pathToFileURL } from 'node:url';
import type { ServerBuild } from '@remix-run/node';
import { beforeAll, describe, expect, it } from 'vitest';
import { DRAFT_FLAG } from '#app/utils/step-up.ts';
import { tPasskeyPrompt } from '#domain/texts/passkey-prompt.ts';
import { tSecurity } from '#domain/texts/security.ts';
import { hashSessionId } from '#server/auth/sessions.ts';
import { Company, Session, User } from '#server/db/entities.ts';
import { appRouter } from '#server/trpc/router.ts';
import { remixServerBuild } from '#scripts/build.js';
import { useScreens } from '#tests/helpers/screens.ts';

const portal = useScreens({ browser: false, env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
const em = () => portal.server.services.orm.em.fork();

const STAGES = ['passkey', 'register'] as const;
/** Reachable by a session still signing in, whatever it answers: the passkey page, logging out, the login pages. */
const PENDING_PAGES = [/^\/login(\/.*)?$/, /^\/auth\/logout$/, /^\/auth\/(passkey|sso)(\/.*)?$/];
/**
 * Pages anyone may see (200 to an anonymous visitor): the login pages, the passkey sign-in's resource routes, the
 * theme switch, the session probe, the bulk templates. A new one must be named here on purpose.
 */
const PUBLIC_PAGES = [
  /^\/login(\/.*)?$/,
  /^\/auth\/(login|magic|logout|session)$/,
  /^\/auth\/(passkey|sso)(\/.*)?$/,
  /^\/theme$/,
  /^\/add\/bulk\/template\.(csv|xlsx)$/,
];
/** tRPC procedures a session still signing in may call (the passkey ceremonies, logging out). */
const PENDING_PROCEDURES = [/^passkeys\./, /^auth\.logout$/];

let ids: { companyA: number; anna: number; sim: number };
const pending: Record<(typeof STAGES)[number], string> = { passkey: '', register: '' };

type Hit = { status: number; location: string | null; text: string };

async function hit(method: string, path: string, cookie: string | null, body?: string, type?: string): Promise<Hit> {
  const headers: Record<string, string> = {};
  if (cookie) headers.cookie = cookie;
  if (type) headers['content-type'] = type;
  const res = await fetch(portal.server.url + path, { method, headers, body, redirect: 'manual' });
  const text = (res.headers.get('content-type') ?? '').match(/json|text|html/) ? await res.text() : '';
  return { status: res.status, location: res.headers.get('location'), text };
}

beforeAll(async () => {
  const e = em();
  const a = await e.findOneOrFail(Company, { customerNumber: '100001' });
  const anna = await e.findOneOrFail(User, { email: 'anna@demo.test' });
  const sim = await e.execute<Array<{ id: number }>>('select id from sim where company_id = ? limit 1', [a.id]);
  ids = { companyA: a.id, anna: anna.id, sim: Number(sim[0]!.id) };
  // A super admin signing in (register: no passkey yet would also make it so) and a company user.
  pending.passkey = await portal.server.sessionCookie('anna@demo.test', { stage: 'passkey' });
  pending.register = await portal.server.sessionCookie('admin@demo.test', { stage: 'register' });
});

/** Every page route of the build as a path, its parameters filled with rows that exist. */
async function pageRoutes(): Promise<Array<{ path: string; action: boolean }>> {
  const build = (await import(pathToFileURL(remixServerBuild).href)) as ServerBuild;
  const full = (id: string): string => {
    const r = build.routes[id]!;
    const own = r.path ?? '';
    const parent = r.parentId ? full(r.parentId) : '';
    return [parent, own].filter(Boolean).join('/');
  };
  const fill = (segment: string) => {
    if (segment === '*') return 'nope';
    if (!segment.startsWith(':')) return segment;
    const name = segment.slice(1).replace(/\?$/, '');
    if (name === 'companyId') return String(ids.companyA);
    if (name === 'userId') return String(ids.anna);
    return String(ids.sim);
  };
  const out = new Map<string, boolean>();
  for (const r of Object.values(build.routes)) {
    if (r.id === 'root' || (!r.module.loader && !r.module.action && !r.module.default)) continue;
    if (!r.path && !r.index) continue; // a pathless layout
    const path = '/' + full(r.id).split('/').filter(Boolean).map(fill).join('/');
    out.set(path, (out.get(path) ?? false) || !!r.module.action);
  }
  return [...out].map(([path, action]) => ({ path, action })).sort((x, y) => x.path.localeCompare(y.path));
}

const toLogin = (h: Hit) => (h.status === 302 || h.status === 303) && /^\/login(\?|$)/.test(h.location ?? '');

/** A session still signing in gets what an anonymous visitor gets, a login redirect being one to /login/passkey. */
function expectSignedOut(label: string, anon: Hit, got: Hit, api: boolean) {
  if (api && anon.status === 401) {
    expect(got.status, label).toBe(401);
    expect(JSON.parse(got.text), label).toEqual({ error: expect.any(String), issues: expect.any(Array) });
  } else if (toLogin(anon)) {
    expect([got.status, got.location], label).toEqual([302, '/login/passkey']);
  } else {
    expect(got.status, label).toBe(anon.status);
    if (got.location !== null || anon.location !== null) expect(got.location, label).toBe(anon.location);
  }
}

describe('a session still signing in (stage passkey or register)', () => {
  it('reaches no page route: each one answers as to a visitor, its login redirect going to /login/passkey', async () => {
    const routes = await pageRoutes();
    // The build's routes, not a copy of them: the portal's main pages are among them.
    for (const p of ['/', '/sims', '/admin', '/company/api-keys', '/security/sessions', '/feedback'])
      expect(routes.map((r) => r.path)).toContain(p);
    const publicPages: string[] = [];
    for (const { path, action } of routes) {
      const api = path.startsWith('/api/');
      const flexible = PENDING_PAGES.some((re) => re.test(path));
      const requests: Array<[string, string | undefined, string | undefined]> = [['GET', undefined, undefined]];
      // An action is posted to as a form without JS would (logging out would end the session: checked on its own).
      if (action && path !== '/auth/logout') requests.push(['POST', 'x=1', 'application/x-www-form-urlencoded']);
      for (const [method, body, type] of requests) {
        const anon = await hit(method, path, null, body, type);
        if (method === 'GET' && anon.status === 200) publicPages.push(path);
        for (const stage of STAGES) {
          const got = await hit(method, path, pending[stage], body, type);
          const label = `${stage}: ${method} ${path} (${got.status} ${got.location ?? ''})`;
          expect(got.status, label).toBeLessThan(500);
          if (flexible) {
            // The passkey page, the login and the provider's pages lead only among themselves, never into the portal.
            if (got.location) {
              const to = new URL(got.location, portal.server.url).pathname;
              expect(
                PENDING_PAGES.some((re) => re.test(to)),
                label,
              ).toBe(true);
            }
          } else expectSignedOut(label, anon, got, api);
        }
      }
    }
    const unexpected = publicPages.filter((p) => !PUBLIC_PAGES.some((re) => re.test(p)));
    expect(unexpected, 'pages anyone may see: name a new one in PUBLIC_PAGES on purpose').toEqual([]);
  });

  it('reaches no REST path of the OpenAPI document: 401 { error } wherever a visitor gets 401', async () => {
    const doc = (await (await fetch(`${portal.server.url}/api/openapi.json`)).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    let count = 0;
    for (const [template, methods] of Object.entries(doc.paths)) {
      const path = '/api' + template.replace(/\{[^}]+\}/g, '999999');
      for (const method of Object.keys(methods).map((m) => m.toUpperCase())) {
        const body = method === 'GET' || method === 'DELETE' ? undefined : '{}';
        const type = body ? 'application/json' : undefined;
        const anon = await hit(method, path, null, body, type);
        for (const stage of STAGES) {
          const got = await hit(method, path, pending[stage], body, type);
          expectSignedOut(`${stage}: ${method} ${path}`, anon, got, true);
        }
        count++;
      }
    }
    expect(count).toBeGreaterThan(40);
  });

  it('calls no tRPC procedure but the passkey ones and logging out, and opens no event stream or export', async () => {
    const procedures = Object.entries(
      (appRouter._def as unknown as { procedures: Record<string, { _def: { type: string } }> }).procedures,
    );
    expect(procedures.length).toBeGreaterThan(40);
    for (const [name, proc] of procedures) {
      if (name === 'auth.logout') continue;
      const query = proc._def.type === 'query';
      const path = `/api/trpc/${name}`;
      const call = (cookie: string | null) =>
        query ? hit('GET', path, cookie) : hit('POST', path, cookie, '{}', 'application/json');
      const anon = await call(null);
      for (const stage of STAGES) {
        const got = await call(pending[stage]);
        const label = `${stage}: ${name} (${got.status})`;
        expect(got.status, label).toBeLessThan(500);
        if (PENDING_PROCEDURES.some((re) => re.test(name))) continue;
        if (anon.status === 401) expect(got.status, label).toBe(401);
      }
    }
    for (const path of ['/api/sse', '/api/sim/export?format=csv', '/api/export/getExcelV1']) {
      for (const stage of STAGES) {
        const got = await hit('GET', path, pending[stage]);
        expect(got.status, `${stage}: ${path}`).toBe(401);
      }
    }
  });

  it('reaches the public pages, the assets and the probes', async () => {
    const login = await hit('GET', '/login', null);
    const asset = /\/assets\/[^"]+\.js/.exec(login.text)?.[0];
    expect(asset).toBeTruthy();
    for (const path of ['/livez', '/readyz', '/healthz', '/favicon.svg', asset!, '/api/openapi.json'])
      for (const stage of STAGES) expect((await hit('GET', path, pending[stage])).status, path).toBe(200);
  });

  it('may log out, which ends it', async () => {
    const cookie = await portal.server.sessionCookie('anna@demo.test', { stage: 'passkey' });
    const out = await fetch(`${portal.server.url}/auth/logout`, { method: 'POST', headers: { cookie } });
    // Answered as to a script's fetch (204; a form post without JS is sent on to /login), the cookie cleared.
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/sim_session=;/);
    expect(await em().count(Session, { id: hashSessionId(cookie.split('=')[1]!) })).toBe(0);
  });

  it('is gone after 10 minutes: the visitor is sent to /login, not to /login/passkey, and the row is deleted', async () => {
    const fresh = await portal.server.sessionCookie('anna@demo.test', {
      stage: 'passkey',
      now: new Date(Date.now() - 9 * 60_000),
    });
    expect((await hit('GET', '/sims', fresh)).location).toBe('/login/passkey');
    for (const stage of STAGES) {
      const old = await portal.server.sessionCookie('anna@demo.test', {
        stage,
        now: new Date(Date.now() - 10 * 60_000 - 5_000),
      });
      const r = await hit('GET', '/sims', old);
      expect([r.status, r.location]).toEqual([302, '/login?redirectTo=%2Fsims']);
      expect(await em().count(Session, { id: hashSessionId(old.split('=')[1]!) })).toBe(0);
    }
  });
});

/**
 * What a change leaves in the database: the audit trail's length (every change writes a row) and the rows that the
 * sensitive changes touch, hashed, with the number of sessions and passkeys.
 */
async function fingerprint(): Promise<string> {
  const rows = await em().execute<Array<Record<string, unknown>>>(
    `select (select count(*) from audit_event) as audit,
      (select md5(coalesce(string_agg(c::text, ',' order by c.id), '')) from company c) as companies,
      (select md5(coalesce(string_agg(u::text, ',' order by u.id), '')) from app_user u) as users,
      (select md5(coalesce(string_agg(k::text, ',' order by k.id), '')) from api_key k) as keys,
      (select md5(coalesce(string_agg(w::text, ',' order by w.id), '')) from webhook_endpoint w) as webhooks,
      (select md5(coalesce(string_agg(r::text, ',' order by r.id), '')) from rule r) as rules,
      (select count(*) from app_session) as sessions, (select count(*) from passkey) as passkeys`,
  );
  return JSON.stringify(rows[0]);
}

type Who = 'superAdmin' | 'owner';
const EMAILS: Record<Who, string> = { superAdmin: 'admin@demo.test', owner: 'ella@demo.test' };
const cookieOf = (who: Who, steppedUp: boolean) => portal.server.sessionCookie(EMAILS[who], { steppedUp });
let seq = 0;
const next = () => ++seq;

/** A webhook endpoint of Demo AB, made by a stepped-up owner. */
async function webhook(): Promise<number> {
  const r = await fetch(`${portal.server.url}/api/company/webhooks`, {
    method: 'POST',
    headers: { cookie: await cookieOf('owner', true), 'content-type': 'application/json' },
    body: JSON.stringify({ url: `http://127.0.0.1:9/hook/${next()}`, events: ['sim.activated'] }),
  });
  expect(r.status).toBe(200);
  return ((await r.json()) as { id: number }).id;
}

/** A rule of Demo AB, made by a stepped-up owner. */
async function rule(): Promise<number> {
  const r = await fetch(`${portal.server.url}/api/company/rules`, {
    method: 'POST',
    headers: { cookie: await cookieOf('owner', true), 'content-type': 'application/json' },
    body: JSON.stringify({
      name: `Regel ${next()}`,
      target: 'all',
      condition: 'silent',
      threshold: 60,
      notifyToast: true,
    }),
  });
  expect(r.status).toBe(200);
  return ((await r.json()) as { id: number }).id;
}

/** Another session of Anna's, as the super admin ends it. */
async function annasSession(): Promise<string> {
  return hashSessionId((await portal.server.sessionCookie('anna@demo.test')).split('=')[1]!);
}

type Change = {
  label: string;
  who: Who;
  /** The REST door's request. */
  rest: () => Promise<{ method: string; path: string; body: unknown }>;
  /** The page's form post, as a browser without JS sends it. */
  page: () => Promise<{ path: string; form: Record<string, string | string[]> }>;
};

const user = (n: number) => ({ name: `Steg ${n}`, email: `steg.${n}@demo.test` });

const changes: Change[] = [
  {
    label: 'admin: create a company',
    who: 'superAdmin',
    rest: async () => {
      const n = next();
      return {
        method: 'POST',
        path: '/api/admin/createCompany',
        body: { name: `Steg ${n} AB`, customerNumber: `STEG-${n}` },
      };
    },
    page: async () => {
      const n = next();
      return {
        path: '/admin/companies',
        form: { intent: 'createCompany', name: `Steg ${n} AB`, customerNumber: `STEG-${n}`, invoiceNote: '' },
      };
    },
  },
  {
    label: 'admin: update a company',
    who: 'superAdmin',
    rest: async () => ({
      method: 'PUT',
      path: '/api/admin/updateCompany',
      body: {
        id: ids.companyA,
        name: `Demo AB ${next()}`,
        customerNumber: '100001',
        invoiceNote: '',
        invoiceInterval: 'monthly',
      },
    }),
    page: async () => ({
      path: `/admin/companies/${ids.companyA}`,
      form: {
        intent: 'updateCompany',
        name: `Demo AB ${next()}`,
        customerNumber: '100001',
        invoiceNote: '',
        invoiceInterval: 'monthly',
      },
    }),
  },
  {
    label: 'admin: create a user',
    who: 'superAdmin',
    rest: async () => ({
      method: 'POST',
      path: '/api/admin/createUser',
      body: { ...user(next()), companyId: ids.companyA },
    }),
    page: async () => ({
      path: `/admin/companies/${ids.companyA}`,
      form: { intent: 'createUser', ...user(next()), role: 'member' },
    }),
  },
  {
    label: 'admin: update a user',
    who: 'superAdmin',
    rest: async () => ({
      method: 'PUT',
      path: '/api/admin/updateUser',
      body: {
        id: ids.anna,
        name: `Anna ${next()}`,
        email: 'anna@demo.test',
        isCompanyOwner: false,
        isSuperAdmin: false,
        role: 'member',
      },
    }),
    page: async () => ({
      path: `/admin/companies/${ids.companyA}/${ids.anna}`,
      form: { intent: 'updateUser', name: `Anna ${next()}`, email: 'anna@demo.test', role: 'member' },
    }),
  },
  {
    label: 'admin: act as a company (loginAsCompany)',
    who: 'superAdmin',
    rest: async () => ({ method: 'POST', path: '/api/admin/loginAsCompany', body: { companyId: ids.companyA } }),
    page: async () => ({ path: `/admin/companies/${ids.companyA}`, form: { intent: 'loginAs' } }),
  },
  {
    label: "admin: end a user's session",
    who: 'superAdmin',
    rest: async () => ({
      method: 'POST',
      path: '/api/admin/sessions/end',
      body: { userId: ids.anna, id: await annasSession() },
    }),
    page: async () => ({
      path: `/admin/companies/${ids.companyA}/${ids.anna}`,
      form: { intent: 'endSession', id: await annasSession() },
    }),
  },
  {
    label: "admin: reset a user's passkeys",
    who: 'superAdmin',
    rest: async () => {
      await annasSession();
      return { method: 'POST', path: `/api/admin/resetPasskeys/${ids.anna}`, body: {} };
    },
    page: async () => {
      await annasSession();
      return { path: `/admin/companies/${ids.companyA}/${ids.anna}`, form: { intent: 'resetPasskeys' } };
    },
  },
  {
    label: 'owner: create an API key',
    who: 'owner',
    rest: async () => ({
      method: 'POST',
      path: '/api/company/apiKeys',
      body: { name: `Steg ${next()}`, scope: 'read' },
    }),
    page: async () => ({ path: '/company/api-keys', form: { name: `Steg ${next()}`, scope: 'read', expiresAt: '' } }),
  },
  {
    label: 'owner: create a webhook',
    who: 'owner',
    rest: async () => ({
      method: 'POST',
      path: '/api/company/webhooks',
      body: { url: `http://127.0.0.1:9/steg/${next()}`, events: ['sim.activated'] },
    }),
    page: async () => ({
      path: '/company/webhooks',
      form: { intent: 'create', url: `http://127.0.0.1:9/steg/${next()}`, events: ['sim.activated'] },
    }),
  },
  {
    label: 'owner: update a webhook',
    who: 'owner',
    rest: async () => ({
      method: 'PUT',
      path: '/api/company/webhooks',
      body: {
        id: await webhook(),
        url: `http://127.0.0.1:9/andrad/${next()}`,
        events: ['sim.updated'],
        enabled: false,
      },
    }),
    page: async () => ({ path: '/company/webhooks', form: { intent: 'disable', id: String(await webhook()) } }),
  },
  {
    label: "owner: rotate a webhook's secret",
    who: 'owner',
    rest: async () => ({ method: 'POST', path: `/api/company/webhooks/rotate/${await webhook()}`, body: {} }),
    page: async () => ({ path: '/company/webhooks', form: { intent: 'rotate', id: String(await webhook()) } }),
  },
  {
    label: 'owner: delete a webhook',
    who: 'owner',
    rest: async () => ({ method: 'POST', path: `/api/company/webhooks/delete/${await webhook()}`, body: {} }),
    page: async () => ({ path: `/company/webhooks/${await webhook()}/delete`, form: {} }),
  },
  {
    label: 'owner: create a rule',
    who: 'owner',
    rest: async () => ({
      method: 'POST',
      path: '/api/company/rules',
      body: { name: `Steg ${next()}`, target: 'all', condition: 'month_share', threshold: 80, notifyToast: true },
    }),
    page: async () => ({
      path: '/company/rules',
      form: {
        intent: 'create',
        name: `Steg ${next()}`,
        target: 'all',
        condition: 'month_share',
        share: '80',
        notifyToast: 'on',
      },
    }),
  },
  {
    label: 'owner: update a rule',
    who: 'owner',
    rest: async () => ({
      method: 'PUT',
      path: '/api/company/rules',
      body: {
        id: await rule(),
        name: `Ändrad ${next()}`,
        target: 'all',
        condition: 'silent',
        threshold: 120,
        pause: true,
        enabled: false,
      },
    }),
    page: async () => ({ path: '/company/rules', form: { intent: 'disable', id: String(await rule()) } }),
  },
  {
    label: 'owner: delete a rule',
    who: 'owner',
    rest: async () => ({ method: 'POST', path: `/api/company/rules/delete/${await rule()}`, body: {} }),
    page: async () => ({ path: `/company/rules/${await rule()}/delete`, form: {} }),
  },
  {
    label: 'owner: add a user',
    who: 'owner',
    rest: async () => ({ method: 'POST', path: '/api/company/users', body: { ...user(next()), role: 'viewer' } }),
    page: async () => ({ path: '/company', form: { ...user(next()), role: 'viewer' } }),
  },
  {
    label: "owner: change a user's role",
    who: 'owner',
    rest: async () => ({
      method: 'PUT',
      path: '/api/company/users',
      body: { id: ids.anna, name: 'Anna Andersson', email: 'anna@demo.test', role: next() % 2 ? 'viewer' : 'member' },
    }),
    page: async () => ({
      path: `/company/users/${ids.anna}`,
      form: { name: 'Anna Andersson', email: 'anna@demo.test', role: next() % 2 ? 'viewer' : 'member' },
    }),
  },
];

function formBody(form: Record<string, string | string[]>): string {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(form)) for (const one of [v].flat()) body.append(k, one);
  return body.toString();
}

describe('a full session without a recent passkey use (step-up)', () => {
  for (const change of changes) {
    it(`${change.label}: REST 403 stepUp and nothing changed; stepped up it goes through`, async () => {
      const req = await change.rest();
      // Both sessions made first: a new session row is no change of the request's.
      const cookies = { false: await cookieOf(change.who, false), true: await cookieOf(change.who, true) };
      const send = (steppedUp: boolean) =>
        hit(req.method, req.path, cookies[`${steppedUp}`], JSON.stringify(req.body), 'application/json');
      const before = await fingerprint();
      const refused = await send(false);
      expect(refused.status, refused.text).toBe(403);
      expect(JSON.parse(refused.text)).toEqual({ error: tSecurity.stepUp.required, issues: [], stepUp: true });
      expect(await fingerprint()).toBe(before);
      const done = await send(true);
      expect(done.status, done.text).toBe(200);
      expect(await fingerprint()).not.toBe(before);
    });

    it(`${change.label}: the page's form post shows the step-up message and changes nothing; stepped up it goes through`, async () => {
      const { path, form } = await change.page();
      const cookies = { false: await cookieOf(change.who, false), true: await cookieOf(change.who, true) };
      const send = (steppedUp: boolean) =>
        hit('POST', path, cookies[`${steppedUp}`], formBody(form), 'application/x-www-form-urlencoded');
      const before = await fingerprint();
      const refused = await send(false);
      // The refusal: the page again with the message, or (a form with values to keep) back to the page with the
      // typed values in the address, where the page says the change is not made (issue 37: values kept).
      if (refused.status === 200) expect(refused.text).toContain(tSecurity.stepUp.required);
      else {
        expect([302, 303], `${path}: ${refused.status} ${refused.location}`).toContain(refused.status);
        const back = new URL(refused.location ?? '', portal.server.url);
        expect(back.pathname).toBe(new URL(path, portal.server.url).pathname);
        expect(back.searchParams.get(DRAFT_FLAG)).toBe('1');
        const page = await hit('GET', back.pathname + back.search, cookies.false);
        expect(page.status).toBe(200);
        expect(
          [tPasskeyPrompt.stepUp.notDone, tPasskeyPrompt.stepUp.notDoneNone].some((t) => page.text.includes(t)),
        ).toBe(true);
      }
      expect(await fingerprint()).toBe(before);
      const done = await send(true);
      expect(done.status).toBeLessThan(400);
      expect(done.text).not.toContain(tSecurity.stepUp.required);
      expect(await fingerprint()).not.toBe(before);
    });
  }
});
