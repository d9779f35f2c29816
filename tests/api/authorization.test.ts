// The authorization matrix: every route and API path against every kind of caller, with the expected
// status in one table; answers for callers outside company A never contain A's data.
import { beforeAll, describe, expect, it } from 'vitest';
import { Company, Sim, User } from '../../server/db/entities.js';
import { useScreens } from '../helpers/screens.js';

type Role = 'anon' | 'userA' | 'ownerA' | 'userB' | 'superAdmin' | 'superAsA';
const ROLES: Role[] = ['anon', 'userA', 'ownerA', 'userB', 'superAdmin', 'superAsA'];

const portal = useScreens({ browser: false });
const cookies: Partial<Record<Role, string>> = {};
let ids: { companyA: number; userA: number; simA: number; iccidA: string };

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
  em.create(User, { name: 'Olle Ägare', email: 'olle@demo.se', company: a, isCompanyOwner: true });
  em.create(User, { name: 'Bo B', email: 'bo@b.se', company: b });
  em.create(User, { name: 'Rut Root', email: 'root@drift.se', company: ops, isSuperAdmin: true });
  await em.flush();
  const simA = await em.findOneOrFail(
    Sim,
    { company: a, status: 'active', ratePlan: { isLegacy: false } },
    { populate: ['ratePlan'] },
  );
  const anna = await em.findOneOrFail(User, { email: 'anna@demo.se' });
  ids = { companyA: a.id, userA: anna.id, simA: simA.id, iccidA: simA.iccid };
  cookies.userA = await portal.server.sessionCookie('anna@demo.se');
  cookies.ownerA = await portal.server.sessionCookie('olle@demo.se');
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
});

type Row = { method: string; path: () => string; body?: () => unknown; expect: Record<Role, number> };
const all = (anon: number, rest: number): Record<Role, number> => ({
  anon,
  userA: rest,
  ownerA: rest,
  userB: rest,
  superAdmin: rest,
  superAsA: rest,
});
const aOnly = (ok: number, other: number): Record<Role, number> => ({
  anon: 401,
  userA: ok,
  ownerA: ok,
  userB: other,
  superAdmin: other,
  superAsA: ok,
});
const admins = (ok: number): Record<Role, number> => ({
  anon: 401,
  userA: 403,
  ownerA: 403,
  userB: 403,
  superAdmin: ok,
  superAsA: ok,
});
const page = (ok: number): Record<Role, number> => ({
  anon: 302,
  userA: ok,
  ownerA: ok,
  userB: ok,
  superAdmin: ok,
  superAsA: ok,
});
const adminPage: Record<Role, number> = {
  anon: 302,
  userA: 403,
  ownerA: 403,
  userB: 403,
  superAdmin: 200,
  superAsA: 200,
};
const pageAOnly: Record<Role, number> = {
  anon: 302,
  userA: 200,
  ownerA: 200,
  userB: 404,
  superAdmin: 404,
  superAsA: 200,
};

const now = new Date();
const month = `start_year=${now.getFullYear()}&start_month=${now.getMonth() + 1}&end_year=${now.getFullYear()}&end_month=${now.getMonth() + 1}`;

// The table: one row per route or path, one column per caller.
const matrix: Row[] = [
  { method: 'GET', path: () => '/', expect: page(200) },
  { method: 'GET', path: () => '/add', expect: page(200) },
  { method: 'GET', path: () => '/sims', expect: page(200) },
  { method: 'GET', path: () => `/sims/${ids.simA}`, expect: pageAOnly },
  { method: 'GET', path: () => `/sims/${ids.simA}/deactivate`, expect: pageAOnly },
  { method: 'GET', path: () => '/export', expect: page(200) },
  { method: 'GET', path: () => '/feedback', expect: page(200) },
  { method: 'GET', path: () => '/admin', expect: adminPage },
  { method: 'GET', path: () => '/admin/companies', expect: adminPage },
  { method: 'GET', path: () => `/admin/companies/${ids.companyA}`, expect: adminPage },
  { method: 'GET', path: () => `/admin/companies/${ids.companyA}/${ids.userA}`, expect: adminPage },
  { method: 'GET', path: () => '/auth/session', expect: all(200, 200) },
  { method: 'GET', path: () => '/api/rate_plans', expect: all(401, 200) },
  { method: 'GET', path: () => '/api/sim/all', expect: all(401, 200) },
  { method: 'GET', path: () => `/api/sim/${ids.simA}`, expect: aOnly(200, 404) },
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
    expect: aOnly(400, 404),
  },
  { method: 'POST', path: () => '/api/sim/deactivate/999999', body: () => ({}), expect: all(401, 404) },
  { method: 'POST', path: () => '/api/sim', body: () => ({ iccid: '1', dataLimit: 500 }), expect: all(401, 400) },
  { method: 'GET', path: () => `/api/export/getExcelV1?${month}`, expect: all(401, 200) },
  { method: 'POST', path: () => '/api/feedback', body: () => ({ message: '   ' }), expect: all(401, 400) },
  { method: 'GET', path: () => '/api/admin/getCompanies', expect: admins(200) },
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
    it(`${row.method} ${row.path.toString().replace(/^\(\) => /, '')}`, async () => {
      const got: Partial<Record<Role, number>> = {};
      for (const role of ROLES) {
        const headers: Record<string, string> = {};
        if (cookies[role]) headers.cookie = cookies[role]!;
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
});
