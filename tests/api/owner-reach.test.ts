// A company's owner never reaches a super admin (not listed, not read, not edited,
// not demoted, not removed; by id or by e-mail; through the pages, REST and tRPC), and adding or editing a user
// tells an owner nothing about other companies' users. Both the seeded super admin (in the staff company, as
// the migration leaves every super admin) and one left inside the customer company (data written around the
// services) are out of reach. docs/decisions/014.
import { beforeAll, describe, expect, it } from 'vitest';
import { Company, User } from '#server/db/entities.ts';
import { useScreens } from '#tests/helpers/screens.ts';

const portal = useScreens({ browser: false, smtp: true });
const em = () => portal.server.services.orm.em.fork();

type Answer = { status: number; text: string; data: unknown };

async function call(method: string, path: string, cookie: string, body?: unknown, form = false): Promise<Answer> {
  const headers: Record<string, string> = { cookie };
  let payload: string | undefined;
  if (body !== undefined && form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    payload = new URLSearchParams(body as Record<string, string>).toString();
  } else if (body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const res = await fetch(portal.server.url + path, { method, headers, body: payload, redirect: 'manual' });
  const text = await res.text();
  let data: unknown = null;
  try {
    data = JSON.parse(text);
  } catch {
    // a page
  }
  return { status: res.status, text, data };
}

/** A tRPC call over /api/trpc, as the browser's client makes it. */
function trpc(kind: 'query' | 'mutation', path: string, cookie: string, input: unknown): Promise<Answer> {
  return kind === 'query'
    ? call('GET', `/api/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`, cookie)
    : call('POST', `/api/trpc/${path}`, cookie, input);
}

let demo: Company;
let owner: string;
/** The seeded super admin (staff company) and one left inside Demo AB by data written around the services. */
const targets: Array<{ label: string; id: number; email: string; companyId: number }> = [];

const superAdminRow = (email: string) => em().findOneOrFail(User, { email }, { populate: ['company'] });

beforeAll(async () => {
  const e = em();
  demo = await e.findOneOrFail(Company, { customerNumber: '100001' });
  const seeded = await e.findOneOrFail(User, { email: 'admin@demo.test' });
  const inside = e.create(User, {
    name: 'Insmugglad Admin',
    email: 'inside.admin@demo.test',
    company: demo,
    role: 'owner',
    isSuperAdmin: true,
  });
  await e.flush();
  targets.push(
    { label: 'the seeded super admin', id: seeded.id, email: seeded.email, companyId: seeded.company.id },
    { label: 'a super admin inside the company', id: inside.id, email: inside.email, companyId: demo.id },
  );
  owner = await portal.server.sessionCookie('ella@demo.test');
});

describe('a super admin is staff, not a customer’s user (decision 014)', () => {
  it('the seeded super admin belongs to the staff company, and Demo AB has an owner of its own', async () => {
    const admin = await superAdminRow('admin@demo.test');
    expect(admin.company.isStaff).toBe(true);
    expect(admin.company.id).not.toBe(demo.id);
    const ella = await superAdminRow('ella@demo.test');
    expect(ella).toMatchObject({ role: 'owner', isSuperAdmin: false });
    expect(ella.company.id).toBe(demo.id);
  });
});

describe('an owner acts on a super admin', () => {
  it('does not list them on the /company page, nor find them by a search there', async () => {
    for (const q of ['', 'admin', 'Insmugglad']) {
      const page = await call('GET', `/company${q ? `?q=${encodeURIComponent(q)}` : ''}`, owner);
      expect(page.status).toBe(200);
      // The search's own words come back in its field; the super admins' names and addresses never.
      expect(page.text).not.toMatch(/admin@demo\.test|inside\.admin@|Insmugglad Admin|Admin Demo/);
    }
  });

  it('does not list them, nor find them by a search for their name or e-mail (REST and tRPC)', async () => {
    for (const q of ['', 'admin', 'ADMIN@DEMO.TEST', 'Insmugglad']) {
      const rest = await call('GET', `/api/company/users${q ? `?q=${encodeURIComponent(q)}` : ''}`, owner);
      expect(rest.status).toBe(200);
      expect(rest.text).not.toMatch(/admin@demo\.test|inside\.admin|"isSuperAdmin":true/);
      const t = await trpc('query', 'company.users', owner, q ? { q } : {});
      expect(t.status).toBe(200);
      expect(t.text).not.toMatch(/admin@demo\.test|inside\.admin|"isSuperAdmin":true/);
    }
  });

  for (const target of [0, 1]) {
    it(`cannot read, edit, demote or remove ${target === 0 ? 'the seeded super admin' : 'one inside the company'}`, async () => {
      const { id, email } = targets[target]!;
      const edit = { id, name: 'Kapad', email: 'attacker@evil.example', role: 'viewer' };
      // REST
      expect((await call('PUT', '/api/company/users', owner, edit)).status).toBe(404);
      expect((await call('POST', `/api/company/users/remove/${id}`, owner, {})).status).toBe(404);
      // tRPC
      expect((await trpc('query', 'company.user', owner, { id })).status).toBe(404);
      expect((await trpc('mutation', 'company.updateUser', owner, edit)).status).toBe(404);
      expect((await trpc('mutation', 'company.removeUser', owner, { id })).status).toBe(404);
      // Pages, with their forms posted as a browser without JavaScript does
      expect((await call('GET', `/company/users/${id}`, owner)).status).toBe(404);
      expect((await call('GET', `/company/users/${id}/remove`, owner)).status).toBe(404);
      const { id: _, ...fields } = edit;
      expect((await call('POST', `/company/users/${id}`, owner, fields, true)).status).toBe(404);
      expect((await call('POST', `/company/users/${id}/remove`, owner, {}, true)).status).toBe(404);
      // Untouched: still a super admin with their own address, in their own company, not removed.
      const row = await superAdminRow(email);
      expect(row).toMatchObject({ name: expect.not.stringMatching(/Kapad/), isSuperAdmin: true, removedAt: null });
      expect(row.company.id).toBe(targets[target]!.companyId);
    });
  }

  it('does not count a super admin inside the company as an owner: the last real owner stays', async () => {
    const ella = await superAdminRow('ella@demo.test');
    const r = await call('PUT', '/api/company/users', owner, {
      id: ella.id,
      name: ella.name,
      email: ella.email,
      role: 'member',
    });
    expect(r.status).toBe(409);
    expect((await superAdminRow('ella@demo.test')).role).toBe('owner');
  });

  it('cannot take a super admin’s address: adding or editing a user with it leaves the super admin alone', async () => {
    const added = await call('POST', '/api/company/users', owner, {
      name: 'Kopia',
      email: 'Admin@Demo.test',
      role: 'owner',
    });
    expect(added.status).toBe(200);
    const edited = await call('POST', '/api/company/users', owner, {
      name: 'Annan',
      email: 'annan@demo.test',
      role: 'member',
    });
    const otherId = (edited.data as { newUser: { id: number } }).newUser.id;
    expect(
      (
        await call('PUT', '/api/company/users', owner, {
          id: otherId,
          name: 'Annan',
          email: 'admin@demo.test',
          role: 'member',
        })
      ).status,
    ).toBe(200);
    const admin = await superAdminRow('admin@demo.test');
    expect(admin.company.isStaff).toBe(true);
    // A login link for the address reaches the super admin's own row only: the copies cannot log in with it.
    const copies = await em().find(User, { requestedEmail: 'admin@demo.test' });
    expect(copies).toHaveLength(2);
    for (const c of copies) expect(c.email).toMatch(/@pending\.invalid$/);
  });
});

describe('adding a user tells an owner nothing about other companies (finding 8)', () => {
  it('answers an address used in another company exactly as a free one, and keeps e-mail unique', async () => {
    const e = em();
    const other = e.create(Company, {
      name: 'Grannen AB',
      customerNumber: 'GRANN-1',
      invoiceNote: '',
      invoiceInterval: 'monthly',
    });
    const neighbour = e.create(User, { name: 'Granne', email: 'granne@grannen.se', company: other, role: 'owner' });
    await e.flush();
    const shape = (a: Answer) => {
      const u = (a.data as { newUser: Record<string, unknown> }).newUser;
      return {
        status: a.status,
        keys: Object.keys(u).sort(),
        email: u.email,
        role: u.role,
        isSuperAdmin: u.isSuperAdmin,
      };
    };
    const free = await call('POST', '/api/company/users', owner, {
      name: 'Fri',
      email: 'Fri.Adress@Ny.se',
      role: 'member',
    });
    const used = await call('POST', '/api/company/users', owner, {
      name: 'Upptagen',
      email: 'Granne@Grannen.se',
      role: 'member',
    });
    expect(shape(used)).toEqual({ ...shape(free), email: 'granne@grannen.se' });
    expect(shape(free).email).toBe('fri.adress@ny.se');
    // The owner's list and search show the address as given, for both.
    const list = (await call('GET', '/api/company/users?q=grannen', owner)).data as Array<{ email: string }>;
    expect(list.map((u) => u.email)).toEqual(['granne@grannen.se']);
    const one = (used.data as { newUser: { id: number } }).newUser.id;
    expect((await call('GET', `/company/users/${one}`, owner)).text).toContain('granne@grannen.se');
    // The neighbour is untouched and still the one a login link for the address reaches.
    const again = await em().findOneOrFail(User, { email: 'granne@grannen.se' }, { populate: ['company'] });
    expect(again.id).toBe(neighbour.id);
    expect(again.company.id).toBe(other.id);
    await call('POST', '/auth/login', '', { destination: 'granne@grannen.se' }, true);
    await expect.poll(() => portal.smtp.to('granne@grannen.se').length, { timeout: 15_000 }).toBe(1);
    // Editing to another company's address is answered as success too, and giving a free one back frees the row.
    const edited = await call('PUT', '/api/company/users', owner, {
      id: one,
      name: 'Upptagen',
      email: 'ledig@ny.se',
      role: 'member',
    });
    expect(edited.status).toBe(200);
    const row = await em().findOneOrFail(User, { id: one });
    expect(row).toMatchObject({ email: 'ledig@ny.se', requestedEmail: null });
    // The company's own users stay the owner's to see: their addresses are refused as taken.
    expect(
      (await call('POST', '/api/company/users', owner, { name: 'X', email: 'anna@demo.test', role: 'member' })).status,
    ).toBe(409);
  });
});
