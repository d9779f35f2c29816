// Long: one table of routes and callers with its expected statuses, which reads best whole.
// The authorization matrix: every route and API path against every kind of caller, with the expected
// status in one table; answers for callers outside company A never contain A's data.
import { beforeAll, describe, expect, it } from 'vitest';
import { Company, Sim, User } from '#server/db/entities.ts';
import { useScreens } from '#tests/helpers/screens.ts';

// userA is a member of company A, ownerA its owner, viewerA a viewer; superAdmin is a member of
// another company; superAsA the same super admin acting as A (support: A's owner while acting).
// keyReadA and keyWriteA are API keys of company A (scope read and write): Authorization: Bearer,
// no cookie; the pages, /api/trpc and the Remix export download see nobody (anonymous).
type Role = 'anon' | 'userA' | 'ownerA' | 'viewerA' | 'userB' | 'superAdmin' | 'superAsA' | 'keyReadA' | 'keyWriteA';
const ROLES: Role[] = [
  'anon',
  'userA',
  'ownerA',
  'viewerA',
  'userB',
  'superAdmin',
  'superAsA',
  'keyReadA',
  'keyWriteA',
];

const portal = useScreens({ browser: false });
const cookies: Partial<Record<Role, string>> = {};
const keys: Partial<Record<Role, string>> = {};
let ids: { companyA: number; userA: number; simA: number; iccidA: string };
/** Super admins as the target of an owner's doors: staff (seeded), of another company, inside A. */
const supers: Record<'staff' | 'elsewhere' | 'insideA', number> = { staff: 0, elsewhere: 0, insideA: 0 };

beforeAll(async () => {
  const em = portal.server.services.orm.em.fork();
  const a = await em.findOneOrFail(Company, { customerNumber: '100001' });
  const b = em.create(Company, {
    name: 'Bolag B',
    customerNumber: 'MB-1',
    invoiceNote: '',
    invoiceInterval: 'monthly',
  });
  const ops = em.create(Company, {
    name: 'Drift AB',
    customerNumber: 'OPS-1',
    invoiceNote: '',
    invoiceInterval: 'monthly',
  });
  em.create(User, { name: 'Olle Ägare', email: 'olle@demo.test', company: a, role: 'owner' });
  em.create(User, { name: 'Vera Visare', email: 'vera@demo.test', company: a, role: 'viewer' });
  em.create(User, { name: 'Bo B', email: 'bo@b.se', company: b });
  const root = em.create(User, { name: 'Rut Root', email: 'root@drift.se', company: ops, isSuperAdmin: true });
  // Written around the services (which keep super admins in the staff company): must be out of reach all the same.
  const insideA = em.create(User, {
    name: 'Sam Super',
    email: 'sam.super@demo.test',
    company: a,
    role: 'owner',
    isSuperAdmin: true,
  });
  await em.flush();
  supers.staff = (await em.findOneOrFail(User, { email: 'admin@demo.test' })).id;
  supers.elsewhere = root.id;
  supers.insideA = insideA.id;
  const simA = await em.findOneOrFail(
    Sim,
    { company: a, status: 'active', ratePlan: { isLegacy: false } },
    { populate: ['ratePlan'] },
  );
  const anna = await em.findOneOrFail(User, { email: 'anna@demo.test' });
  ids = { companyA: a.id, userA: anna.id, simA: simA.id, iccidA: simA.iccid };
  cookies.userA = await portal.server.sessionCookie('anna@demo.test');
  cookies.ownerA = await portal.server.sessionCookie('olle@demo.test');
  cookies.viewerA = await portal.server.sessionCookie('vera@demo.test');
  cookies.userB = await portal.server.sessionCookie('bo@b.se');
  cookies.superAdmin = await portal.server.sessionCookie('root@drift.se');
  // The same super admin, acting as company A (through the real door).
  const acting = await portal.server.sessionCookie('root@drift.se');
  const res = await fetch(`${portal.server.url}/api/admin/loginAsCompany/`, {
    method: 'POST',
    headers: { cookie: acting, 'content-type': 'application/json' },
    body: JSON.stringify({ companyId: a.id }),
  });
  expect(res.status).toBe(200);
  cookies.superAsA = res.headers.get('set-cookie')!.split(';')[0]!;
  for (const [role, scope] of [
    ['keyReadA', 'read'],
    ['keyWriteA', 'write'],
  ] as const) {
    const made = await fetch(`${portal.server.url}/api/company/apiKeys`, {
      method: 'POST',
      headers: { cookie: cookies.ownerA, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `Matris ${scope}`, scope }),
    });
    expect(made.status).toBe(200);
    keys[role] = ((await made.json()) as { key: string }).key;
  }
});

type Row = { method: string; path: () => string; body?: () => unknown; expect: Record<Role, number>; label?: string };
const all = (anon: number, rest: number): Record<Role, number> => ({
  anon,
  userA: rest,
  ownerA: rest,
  viewerA: rest,
  userB: rest,
  superAdmin: rest,
  superAsA: rest,
  keyReadA: rest,
  keyWriteA: rest,
});
/** A path no API key reaches: 403 for both (feedback is a person's), or as nobody (401: a Remix door). */
const noKeys = (e: Record<Role, number>, status = 403): Record<Role, number> => ({
  ...e,
  keyReadA: status,
  keyWriteA: status,
});
const aOnly = (ok: number, other: number): Record<Role, number> => ({
  anon: 401,
  userA: ok,
  ownerA: ok,
  viewerA: ok,
  userB: other,
  superAdmin: other,
  superAsA: ok,
  keyReadA: ok,
  keyWriteA: ok,
});
const admins = (ok: number): Record<Role, number> => ({
  anon: 401,
  userA: 403,
  ownerA: 403,
  viewerA: 403,
  userB: 403,
  superAdmin: ok,
  superAsA: ok,
  keyReadA: 403,
  keyWriteA: 403,
});
const page = (ok: number): Record<Role, number> => ({
  anon: 302,
  userA: ok,
  ownerA: ok,
  viewerA: ok,
  userB: ok,
  superAdmin: ok,
  superAsA: ok,
  keyReadA: 302,
  keyWriteA: 302,
});
const adminPage: Record<Role, number> = {
  anon: 302,
  userA: 403,
  ownerA: 403,
  viewerA: 403,
  userB: 403,
  superAdmin: 200,
  superAsA: 200,
  keyReadA: 302,
  keyWriteA: 302,
};
const pageAOnly: Record<Role, number> = {
  anon: 302,
  userA: 200,
  ownerA: 200,
  viewerA: 200,
  userB: 404,
  superAdmin: 404,
  superAsA: 200,
  keyReadA: 302,
  keyWriteA: 302,
};

/** A change to SIMs: a viewer and a read key are refused (403) whatever else the row expects (a page: nobody). */
const write = (e: Record<Role, number>): Record<Role, number> => ({
  ...e,
  viewerA: 403,
  keyReadA: e.keyReadA === 302 ? 302 : 403,
});
/** The company's own admin: its owner and support acting as it; any other logged-in caller 403. */
const owners = (ok: number, anon = 401): Record<Role, number> => ({
  anon,
  userA: 403,
  ownerA: ok,
  viewerA: 403,
  userB: 403,
  superAdmin: 403,
  superAsA: ok,
  keyReadA: anon === 302 ? 302 : 403,
  keyWriteA: anon === 302 ? 302 : 403,
});

const now = new Date();
const month = `start_year=${now.getFullYear()}&start_month=${now.getMonth() + 1}&end_year=${now.getFullYear()}&end_month=${now.getMonth() + 1}`;

// The table: one row per route or path, one column per caller.
const matrix: Row[] = [
  { method: 'GET', path: () => '/', expect: page(200) },
  { method: 'GET', path: () => '/add', expect: write(page(200)) },
  { method: 'GET', path: () => '/add/bulk', expect: write(page(200)) },
  { method: 'GET', path: () => '/sims', expect: page(200) },
  { method: 'GET', path: () => `/sims/${ids.simA}`, expect: pageAOnly },
  { method: 'GET', path: () => `/sims/${ids.simA}/deactivate`, expect: write(pageAOnly) },
  { method: 'GET', path: () => '/export', expect: page(200) },
  { method: 'GET', path: () => '/feedback', expect: page(200) },
  { method: 'GET', path: () => '/admin', expect: adminPage },
  { method: 'GET', path: () => '/admin/companies', expect: adminPage },
  { method: 'GET', path: () => `/admin/companies/${ids.companyA}`, expect: adminPage },
  { method: 'GET', path: () => `/admin/companies/${ids.companyA}/${ids.userA}`, expect: adminPage },
  { method: 'GET', path: () => '/admin/audit', expect: adminPage },
  { method: 'GET', path: () => '/auth/session', expect: all(200, 200) },
  { method: 'GET', path: () => '/api/rate_plans', expect: all(401, 200) },
  { method: 'GET', path: () => '/api/sim/all', expect: all(401, 200) },
  { method: 'GET', path: () => `/api/sim/${ids.simA}`, expect: aOnly(200, 404) },
  { method: 'GET', path: () => `/api/sim/${ids.simA}/history`, expect: aOnly(200, 404) },
  {
    method: 'PUT',
    path: () => '/api/sim/edit/',
    body: () => ({
      id: ids.simA,
      dataLimit: 999_999,
      callAndSms: false,
      roaming: false,
      invoiceLineMark: 'intrång',
      invoiceLineNote: '',
    }),
    expect: write(aOnly(400, 404)),
  },
  { method: 'POST', path: () => '/api/sim/deactivate/999999', body: () => ({}), expect: write(all(401, 404)) },
  {
    method: 'POST',
    path: () => '/api/sim',
    body: () => ({ iccid: '1', dataLimit: 500 }),
    expect: write(all(401, 400)),
  },
  { method: 'POST', path: () => '/api/sim/bulk', body: () => ({}), expect: write(all(401, 400)) },
  { method: 'POST', path: () => '/api/sim/bulk/deactivate', body: () => ({}), expect: write(all(401, 400)) },
  { method: 'GET', path: () => '/api/sim/export?format=csv', expect: all(401, 200) },
  // The invoice export is a Remix resource route, which takes no API key: the key is nobody there.
  { method: 'GET', path: () => `/api/export/getExcelV1?${month}`, expect: noKeys(all(401, 200), 401) },
  { method: 'POST', path: () => '/api/feedback', body: () => ({ message: '   ' }), expect: noKeys(all(401, 400)) },
  // API keys: the owner's, never a key's.
  { method: 'GET', path: () => '/company/api-keys', expect: owners(200, 302) },
  { method: 'GET', path: () => '/api/company/apiKeys', expect: owners(200) },
  { method: 'POST', path: () => '/api/company/apiKeys', body: () => ({}), expect: owners(400) },
  { method: 'POST', path: () => '/api/company/apiKeys/revoke/999999', body: () => ({}), expect: owners(404) },
  // The company's own admin.
  { method: 'GET', path: () => '/company', expect: owners(200, 302) },
  { method: 'GET', path: () => `/company/users/${ids.userA}`, expect: owners(200, 302) },
  { method: 'GET', path: () => `/company/users/${ids.userA}/remove`, expect: owners(200, 302) },
  { method: 'GET', path: () => '/company/activity', expect: owners(200, 302) },
  { method: 'GET', path: () => '/company/activity.csv', expect: owners(200, 302) },
  { method: 'GET', path: () => '/api/company/users', expect: owners(200) },
  { method: 'POST', path: () => '/api/company/users', body: () => ({}), expect: owners(400) },
  { method: 'PUT', path: () => '/api/company/users', body: () => ({}), expect: owners(400) },
  { method: 'POST', path: () => '/api/company/users/remove/999999', body: () => ({}), expect: owners(404) },
  // An owner acts on a super admin: not there, whoever asks; support acting as A included.
  ...(['staff', 'elsewhere', 'insideA'] as const).flatMap((who): Row[] => [
    {
      label: `/company/users/{super admin: ${who}}`,
      method: 'GET',
      path: () => `/company/users/${supers[who]}`,
      expect: owners(404, 302),
    },
    {
      label: `/company/users/{super admin: ${who}}/remove`,
      method: 'GET',
      path: () => `/company/users/${supers[who]}/remove`,
      expect: owners(404, 302),
    },
    {
      label: `/api/company/users {id: super admin: ${who}}`,
      method: 'PUT',
      path: () => '/api/company/users',
      body: () => ({ id: supers[who], name: 'Kapad', email: `kapad.${who}@evil.example`, role: 'viewer' }),
      expect: owners(404),
    },
    {
      label: `/api/company/users/remove/{super admin: ${who}}`,
      method: 'POST',
      path: () => `/api/company/users/remove/${supers[who]}`,
      body: () => ({}),
      expect: owners(404),
    },
  ]),
  { method: 'GET', path: () => '/api/company/audit', expect: owners(200) },
  { method: 'GET', path: () => '/api/company/audit?kind=nej', expect: owners(400) },
  // Webhooks.
  { method: 'GET', path: () => '/company/webhooks', expect: owners(200, 302) },
  { method: 'GET', path: () => '/company/webhooks/999999/delete', expect: owners(404, 302) },
  { method: 'GET', path: () => '/api/company/webhooks', expect: owners(200) },
  { method: 'POST', path: () => '/api/company/webhooks', body: () => ({}), expect: owners(400) },
  { method: 'PUT', path: () => '/api/company/webhooks', body: () => ({}), expect: owners(400) },
  { method: 'POST', path: () => '/api/company/webhooks/delete/999999', body: () => ({}), expect: owners(404) },
  { method: 'POST', path: () => '/api/company/webhooks/test/999999', body: () => ({}), expect: owners(404) },
  { method: 'POST', path: () => '/api/company/webhooks/rotate/999999', body: () => ({}), expect: owners(404) },
  { method: 'GET', path: () => '/api/company/webhooks/999999/deliveries', expect: owners(404) },
  { method: 'GET', path: () => '/api/admin/getCompanies', expect: admins(200) },
  { method: 'GET', path: () => '/api/admin/audit', expect: admins(200) },
  { method: 'GET', path: () => `/api/admin/getCompany/${ids.companyA}`, expect: admins(200) },
  { method: 'GET', path: () => `/api/admin/getUser/${ids.userA}`, expect: admins(200) },
  { method: 'POST', path: () => '/api/admin/createCompany', body: () => ({}), expect: admins(400) },
  { method: 'PUT', path: () => '/api/admin/updateCompany', body: () => ({}), expect: admins(400) },
  { method: 'POST', path: () => '/api/admin/createUser', body: () => ({}), expect: admins(400) },
  { method: 'PUT', path: () => '/api/admin/updateUser', body: () => ({}), expect: admins(400) },
  {
    method: 'POST',
    path: () => '/api/admin/loginAsCompany/',
    body: () => ({ companyId: 999999 }),
    expect: admins(404),
  },
];

describe('authorization matrix', () => {
  for (const row of matrix) {
    it(`${row.method} ${row.label ?? row.path.toString().replace(/^\(\) => /, '')}`, async () => {
      const got: Partial<Record<Role, number>> = {};
      for (const role of ROLES) {
        const headers: Record<string, string> = {};
        if (cookies[role]) headers.cookie = cookies[role]!;
        if (keys[role]) headers.authorization = `Bearer ${keys[role]}`;
        const body = row.body ? JSON.stringify(row.body()) : undefined;
        if (body) headers['content-type'] = 'application/json';
        const res = await fetch(portal.server.url + row.path(), {
          method: row.method,
          headers,
          body,
          redirect: 'manual',
        });
        got[role] = res.status;
        const text = res.headers.get('content-type')?.includes('spreadsheet') ? '' : await res.text();
        // A viewer or member never sees the company's own admin: no user list, no trail.
        if (row.path().includes('company') && res.status === 403) expect(text).not.toContain('anna@demo.test');
        // No leak: callers outside company A never see A's SIM.
        if (role === 'userB' || role === 'superAdmin' || role === 'anon')
          expect(text, `${role} sees A's SIM`).not.toContain(ids.iccidA);
        if (res.status === 302) expect(res.headers.get('location')).toMatch(/^\/login/);
        // Every refusal of an API path, whatever door answers it, is { error, issues }.
        if (res.status >= 400 && row.path().startsWith('/api/')) {
          expect(JSON.parse(text), `${role} ${res.status}`).toEqual({
            error: expect.any(String),
            issues: expect.any(Array),
          });
        }
      }
      expect(got).toEqual(row.expect);
    });
  }

  it('left company A’s data unchanged', async () => {
    const sim = await portal.server.services.orm.em.fork().findOneOrFail(Sim, { id: ids.simA });
    expect(sim.status).toBe('active');
    expect(sim.invoiceLineMark).not.toBe('intrång');
  });

  it('left every super admin as it was', async () => {
    const rows = await portal.server.services.orm.em
      .fork()
      .find(User, { id: Object.values(supers) }, { orderBy: { id: 'asc' } });
    expect(rows.map((u) => [u.name, u.isSuperAdmin, u.removedAt])).toEqual([
      ['Admin Demo', true, null],
      ['Rut Root', true, null],
      ['Sam Super', true, null],
    ]);
    for (const u of rows) expect(u.email).not.toContain('evil.example');
  });
});
