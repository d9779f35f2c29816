// Long: the company's own admin (users, trail, CSV) shares its owners, companies and server.
// The company's own admin over REST: /api/company/users and /api/company/audit. Good and bad
// input, the last-owner rule (also two owners demoting at once, on PostgreSQL a real race), removal ending
// the user's sessions and event streams at once, the trail of SIM changes and support, and its CSV.
import { beforeAll, describe, expect, it } from 'vitest';
import { AuditEvent, Company, Session, User } from '#server/db/entities.ts';
import { iccidFactory } from '#tests/helpers/iccid.ts';
import { useScreens } from '#tests/helpers/screens.ts';
import { openStream as openSse } from '#tests/helpers/sse.ts';

const portal = useScreens({ browser: false });
const newIccid = iccidFactory('8946455');
const em = () => portal.server.services.orm.em.fork();

type Answer = { status: number; data: Record<string, unknown> & { error?: string; issues?: unknown[] } };

async function call(method: string, path: string, cookie: string | null, body?: unknown): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (cookie) headers.cookie = cookie;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(portal.server.url + path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, data: text ? JSON.parse(text) : {} };
}

let n = 0;
/** A company of its own with users of the given roles; answers their ids and session cookies. */
async function company(roles: Array<'owner' | 'member' | 'viewer'>) {
  n++;
  const e = em();
  const c = e.create(Company, {
    name: `Team ${n} AB`,
    customerNumber: `TEAM-${n}-${Date.now()}`,
    invoiceNote: '',
    invoiceInterval: 'monthly',
  });
  const users = roles.map((role, i) =>
    e.create(User, { name: `${role} ${n}.${i}`, email: `${role}.${n}.${i}@team${n}.se`, company: c, role }),
  );
  await e.flush();
  const cookies = await Promise.all(users.map((u) => portal.server.sessionCookie(u.email)));
  return { id: c.id, users: users.map((u, i) => ({ id: u.id, email: u.email, cookie: cookies[i]! })) };
}

let demo: { id: number };
let owner: string;
let member: string;
let viewer: string;

beforeAll(async () => {
  const e = em();
  const a = await e.findOneOrFail(Company, { customerNumber: '100001' });
  demo = { id: a.id };
  e.create(User, { name: 'Olle Ägare', email: 'olle@demo.test', company: a, role: 'owner' });
  e.create(User, { name: 'Vera Visare', email: 'vera@demo.test', company: a, role: 'viewer' });
  await e.flush();
  owner = await portal.server.sessionCookie('olle@demo.test');
  member = await portal.server.sessionCookie('anna@demo.test');
  viewer = await portal.server.sessionCookie('vera@demo.test');
});

describe('GET /api/company/users', () => {
  it('lists the company’s users with their roles to an owner, searched and paged', async () => {
    const r = await call('GET', '/api/company/users', owner);
    expect(r.status).toBe(200);
    const list = r.data as unknown as Array<{ email: string; role: string; isCompanyOwner: boolean }>;
    expect(list.map((u) => u.email)).toEqual(expect.arrayContaining(['olle@demo.test', 'anna@demo.test']));
    expect(list.find((u) => u.email === 'olle@demo.test')).toMatchObject({ role: 'owner', isCompanyOwner: true });
    expect(list.find((u) => u.email === 'vera@demo.test')).toMatchObject({ role: 'viewer', isCompanyOwner: false });
    const found = await call('GET', '/api/company/users?q=VISARE', owner);
    expect((found.data as unknown as unknown[]).length).toBe(1);
    const one = await call('GET', '/api/company/users?limit=1&offset=1', owner);
    expect((one.data as unknown as unknown[]).length).toBe(1);
    expect((await call('GET', '/api/company/users?limit=0', owner)).status).toBe(400);
  });

  it('answers 401 to nobody and 403 in Swedish to a member and a viewer', async () => {
    expect((await call('GET', '/api/company/users', null)).status).toBe(401);
    for (const cookie of [member, viewer]) {
      const r = await call('GET', '/api/company/users', cookie);
      expect(r.status).toBe(403);
      expect(r.data).toEqual({ error: 'Bara företagets ägare kan hantera användare och se aktiviteten.', issues: [] });
    }
  });
});

describe('POST and PUT /api/company/users', () => {
  it('adds a user with the e-mail stored lower-case, sends no mail, and refuses bad input field by field', async () => {
    const made = await call('POST', '/api/company/users', owner, {
      name: ' Ny Kollega ',
      email: ' Ny.Kollega@Demo.TEST ',
      role: 'viewer',
    });
    expect(made.status).toBe(200);
    expect(made.data.newUser).toMatchObject({
      name: 'Ny Kollega',
      email: 'ny.kollega@demo.test',
      role: 'viewer',
      isCompanyOwner: false,
      isSuperAdmin: false,
      companyId: demo.id,
    });
    const bad = await call('POST', '/api/company/users', owner, { name: '', email: 'inte-en-adress', role: 'chef' });
    expect(bad.status).toBe(400);
    const paths = (bad.data.issues as Array<{ path: string[] }>).map((i) => i.path[0]);
    expect(paths).toEqual(expect.arrayContaining(['name', 'email', 'role']));
    expect(JSON.stringify(bad.data)).toContain('Välj en roll: Ägare, Medarbetare eller Läsbehörig.');
    // E-mail unique in the company, whatever the case: the owner sees the company's users anyway.
    const taken = await call('POST', '/api/company/users', owner, {
      name: 'Kopia',
      email: 'ANNA@demo.test',
      role: 'member',
    });
    expect(taken.status).toBe(409);
    expect(taken.data.issues).toEqual([{ path: ['email'], message: expect.any(String) }]);
    // Another company's address is not told apart from a free one (tests/api/owner-reach.test.ts).
    const other = await company(['owner']);
    const elsewhere = await call('POST', '/api/company/users', owner, {
      name: 'Kopia',
      email: other.users[0]!.email,
      role: 'member',
    });
    expect(elsewhere.status).toBe(200);
    // A viewer or member may not add anyone.
    expect(
      (await call('POST', '/api/company/users', member, { name: 'X', email: 'x@x.se', role: 'owner' })).status,
    ).toBe(403);
  });

  it('edits name, e-mail and role, with a trail row; another company’s user is 404', async () => {
    const { data } = await call('POST', '/api/company/users', owner, {
      name: 'Edit Mig',
      email: 'edit.mig@demo.test',
      role: 'member',
    });
    const id = (data.newUser as { id: number }).id;
    const r = await call('PUT', '/api/company/users', owner, {
      id,
      name: 'Edit Ad',
      email: 'Edit.Ad@demo.test',
      role: 'owner',
    });
    expect(r.status).toBe(200);
    expect(r.data.user).toMatchObject({ id, name: 'Edit Ad', email: 'edit.ad@demo.test', role: 'owner' });
    const row = await em().findOneOrFail(AuditEvent, { action: 'updateUser', targetId: String(id) });
    expect(row).toMatchObject({ kind: 'user', before: { role: 'member' }, after: { role: 'owner' } });
    const other = await company(['owner', 'member']);
    const foreign = await call('PUT', '/api/company/users', owner, {
      id: other.users[1]!.id,
      name: 'Kapad',
      email: 'kapad@demo.test',
      role: 'viewer',
    });
    expect(foreign.status).toBe(404);
    expect((await em().findOneOrFail(User, { id: other.users[1]!.id })).name).not.toBe('Kapad');
    expect((await call('POST', `/api/company/users/remove/${other.users[1]!.id}`, owner)).status).toBe(404);
  });
});

describe('the last-owner rule', () => {
  it('refuses to demote or remove the only owner, themself included, in Swedish next to the role', async () => {
    const t = await company(['owner', 'member']);
    const [boss, staff] = t.users as [(typeof t.users)[0], (typeof t.users)[0]];
    const demote = await call('PUT', '/api/company/users', boss.cookie, {
      id: boss.id,
      name: 'Chef',
      email: boss.email,
      role: 'member',
    });
    expect(demote.status).toBe(409);
    expect(demote.data).toEqual({
      error: 'Företaget måste ha minst en ägare. Gör någon annan till ägare först.',
      issues: [{ path: ['role'], message: 'Företaget måste ha minst en ägare. Gör någon annan till ägare först.' }],
    });
    const remove = await call('POST', `/api/company/users/remove/${boss.id}`, boss.cookie);
    expect(remove.status).toBe(409);
    expect(remove.data.error).toBe('Företaget måste ha minst en ägare. Gör någon annan till ägare först.');
    // With a second owner, the first may step down.
    expect(
      (
        await call('PUT', '/api/company/users', boss.cookie, {
          id: staff.id,
          name: 'Ny chef',
          email: staff.email,
          role: 'owner',
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await call('PUT', '/api/company/users', boss.cookie, {
          id: boss.id,
          name: 'Chef',
          email: boss.email,
          role: 'viewer',
        })
      ).status,
    ).toBe(200);
    expect(await em().count(User, { company: t.id, role: 'owner' })).toBe(1);
  });

  it('lets one of two owners demoting each other at once win, never both (a race on PostgreSQL)', async () => {
    for (let round = 0; round < 5; round++) {
      const t = await company(['owner', 'owner']);
      const [p, q] = t.users as [(typeof t.users)[0], (typeof t.users)[0]];
      const answers = await Promise.all([
        call('PUT', '/api/company/users', p.cookie, { id: q.id, name: 'Q', email: q.email, role: 'member' }),
        call('PUT', '/api/company/users', q.cookie, { id: p.id, name: 'P', email: p.email, role: 'member' }),
      ]);
      // The loser is refused by the rule (409), or, once demoted, by the role check (403).
      const statuses = answers.map((a) => a.status).sort();
      expect(statuses[0]).toBe(200);
      expect([403, 409]).toContain(statuses[1]);
      expect(await em().count(User, { company: t.id, role: 'owner' })).toBe(1);
    }
  });

  it('lets one of two owners removing themselves at once go, never both', async () => {
    const t = await company(['owner', 'owner']);
    const answers = await Promise.all(t.users.map((u) => call('POST', `/api/company/users/remove/${u.id}`, u.cookie)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(await em().count(User, { company: t.id, role: 'owner', removedAt: null })).toBe(1);
  });
});

/** Opens /api/sse on the portal and collects its text until closed. */
const openStream = (cookie: string) => openSse(portal.server.url, cookie);

describe('POST /api/company/users/remove/{id}', () => {
  it('ends the user’s sessions and open event streams at once, keeps their name in the history, frees the e-mail', async () => {
    const t = await company(['owner', 'member']);
    const [boss, leaver] = t.users as [(typeof t.users)[0], (typeof t.users)[0]];
    const stream = await openStream(leaver.cookie);
    await expect.poll(() => stream.text(), { timeout: 10_000 }).toMatch(/connected/);
    expect((await call('GET', '/api/sim/all', leaver.cookie)).status).toBe(200);
    const r = await call('POST', `/api/company/users/remove/${leaver.id}`, boss.cookie);
    expect(r).toEqual({ status: 200, data: { success: true } });
    await expect.poll(() => stream.closed(), { timeout: 10_000, message: 'stream not closed' }).toBe(true);
    expect((await call('GET', '/api/sim/all', leaver.cookie)).status).toBe(401);
    expect(await em().count(Session, { user: leaver.id })).toBe(0);
    const list = (await call('GET', '/api/company/users', boss.cookie)).data as unknown as Array<{ id: number }>;
    expect(list.map((u) => u.id)).not.toContain(leaver.id);
    // Gone for good: a second removal and an edit are 404; the address may be given to someone new.
    expect((await call('POST', `/api/company/users/remove/${leaver.id}`, boss.cookie)).status).toBe(404);
    const again = await call('POST', '/api/company/users', boss.cookie, {
      name: 'Åter',
      email: leaver.email,
      role: 'member',
    });
    expect(again.status).toBe(200);
    const audit = await call('GET', '/api/company/audit?kind=user', boss.cookie);
    const whats = (audit.data.items as Array<{ what: string }>).map((i) => i.what);
    expect(whats.some((w) => w.startsWith('Tog bort member') && w.includes(leaver.email))).toBe(true);
  });

  it('takes no body: a path id only; a bad id is 400', async () => {
    expect((await call('POST', '/api/company/users/remove/abc', owner)).status).toBe(400);
  });
});

describe('GET /api/company/audit', () => {
  it('shows SIM changes, user changes and support newest first, filtered by kind and paged by keyset', async () => {
    const iccid = newIccid();
    const act = await call('POST', '/api/sim', member, {
      iccid,
      dataLimit: 500,
      callAndSms: false,
      roaming: false,
      invoiceLineMark: '=SUMMA(A1:A9)',
      invoiceLineNote: '',
    });
    expect(act.status).toBe(200);
    const simId = act.data.id as number;
    expect(
      (
        await call('PUT', '/api/sim/edit', member, {
          id: simId,
          dataLimit: 500,
          callAndSms: false,
          roaming: false,
          invoiceLineMark: 'Ändrad',
          invoiceLineNote: '',
        })
      ).status,
    ).toBe(200);
    expect((await call('POST', `/api/sim/deactivate/${simId}`, member)).status).toBe(200);
    const bulk = await call('POST', '/api/sim/bulk', member, {
      iccids: [newIccid(), '123'],
      dataLimit: 500,
      callAndSms: false,
      roaming: false,
      invoiceLineMark: '',
      invoiceLineNote: '',
    });
    expect(bulk.status).toBe(200);
    // Support: a super admin of another company logs in as this one.
    const e = em();
    const ops = e.create(Company, {
      name: 'Drift AB',
      customerNumber: 'OPS-A',
      invoiceNote: '',
      invoiceInterval: 'monthly',
    });
    e.create(User, { name: 'Rut Root', email: 'root@drift.se', company: ops, isSuperAdmin: true });
    await e.flush();
    const root = await portal.server.sessionCookie('root@drift.se');
    const switched = await fetch(`${portal.server.url}/api/admin/loginAsCompany`, {
      method: 'POST',
      headers: { cookie: root, 'content-type': 'application/json' },
      body: JSON.stringify({ companyId: demo.id }),
    });
    expect(switched.status).toBe(200);
    const support = switched.headers.get('set-cookie')!.split(';')[0]!;

    const all = await call('GET', '/api/company/audit?limit=50', owner);
    expect(all.status).toBe(200);
    const items = all.data.items as Array<{ id: number; kind: string; who: string; what: string }>;
    const ids = items.map((i) => i.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(items[0]).toMatchObject({ kind: 'support', who: 'Support: Rut Root', what: 'Loggade in som företaget' });
    expect(items[1]).toMatchObject({
      kind: 'bulk',
      who: 'Anna Andersson',
      what: 'Aktiverade 1 av 2 SIM-kort i en lista',
    });
    expect(items.find((i) => i.kind === 'simActivated' && i.what === `Aktiverade ${iccid}`)).toBeTruthy();
    expect(items.find((i) => i.kind === 'simUpdated' && i.what === `Ändrade ${iccid}`)).toBeTruthy();
    expect(items.find((i) => i.kind === 'simDeactivated' && i.what === `Avaktiverade ${iccid}`)).toBeTruthy();

    const onlySims = await call('GET', '/api/company/audit?kind=simActivated', owner);
    expect((onlySims.data.items as Array<{ kind: string }>).every((i) => i.kind === 'simActivated')).toBe(true);
    // Keyset: the next page starts below the last id, without repeats.
    const first = await call('GET', '/api/company/audit?limit=2', owner);
    const next = first.data.nextBefore as number;
    expect(next).toBe((first.data.items as Array<{ id: number }>)[1]!.id);
    const second = await call('GET', `/api/company/audit?limit=2&before=${next}`, owner);
    expect((second.data.items as Array<{ id: number }>).every((i) => i.id < next)).toBe(true);
    // Support acting as the company may read it too and change the team (as its owner would), in its own name.
    expect((await call('GET', '/api/company/audit', support)).status).toBe(200);
    const helped = await call('POST', '/api/company/users', support, {
      name: 'Hjälpt Av Support',
      email: 'hjalpt@demo.test',
      role: 'member',
    });
    expect(helped.status).toBe(200);
    const latest = await call('GET', '/api/company/audit?limit=1', owner);
    expect((latest.data.items as unknown[])[0]).toMatchObject({
      kind: 'user',
      who: 'Support: Rut Root',
      what: 'Lade till Hjälpt Av Support (hjalpt@demo.test), Medarbetare',
    });
    expect((await call('GET', '/api/company/audit', member)).status).toBe(403);
    // Another company's trail shows none of this.
    const other = await company(['owner']);
    const theirs = await call('GET', '/api/company/audit', other.users[0]!.cookie);
    expect(JSON.stringify(theirs.data)).not.toContain(iccid);
  });

  it('refuses a bad kind, limit or before with 400 and the field', async () => {
    for (const q of ['kind=allt', 'limit=0', 'limit=51', 'before=-1', 'before=x']) {
      const r = await call('GET', `/api/company/audit?${q}`, owner);
      expect(r.status, q).toBe(400);
      expect((r.data.issues as Array<{ path: string[] }>)[0]!.path[0]).toBe(q.split('=')[0]);
    }
  });

  it('exports the trail as CSV with user-entered text made harmless for Excel', async () => {
    // An owner whose name is a formula: it is the "who" of the next row, a cell of its own.
    const made = await call('POST', '/api/company/users', owner, {
      name: '=HYPERLINK("http://x";"y")',
      email: 'formel@demo.test',
      role: 'owner',
    });
    expect(made.status).toBe(200);
    const formula = await portal.server.sessionCookie('formel@demo.test');
    expect(
      (
        await call('POST', '/api/company/users', formula, {
          name: 'Ofarlig',
          email: 'ofarlig@demo.test',
          role: 'viewer',
        })
      ).status,
    ).toBe(200);
    const res = await fetch(`${portal.server.url}/company/activity.csv?kind=user`, { headers: { cookie: owner } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
    expect(res.headers.get('content-disposition')).toMatch(/attachment; filename="Aktivitet_\d{4}-\d{2}-\d{2}\.csv"/);
    const csv = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await res.arrayBuffer());
    expect(csv.startsWith('\uFEFFTidpunkt;Vem;Typ;Vad\r\n')).toBe(true);
    const line = csv.split('\r\n').find((l) => l.includes('ofarlig@demo.test'))!;
    expect(line).toContain(
      `"'=HYPERLINK(""http://x"";""y"")";Användarändring;Lade till Ofarlig (ofarlig@demo.test), Läsbehörig`,
    );
    // Only the kind asked for.
    expect(csv).not.toContain('SIM-aktivering');
    // Not for a member.
    const refused = await fetch(`${portal.server.url}/company/activity.csv`, { headers: { cookie: member } });
    expect(refused.status).toBe(403);
  });
});

describe('OpenAPI', () => {
  it('lists the company paths', async () => {
    const r = await call('GET', '/api/openapi.json', null);
    const paths = r.data.paths as Record<string, Record<string, unknown>>;
    expect(Object.keys(paths['/company/users']!).sort()).toEqual(['get', 'post', 'put']);
    expect(paths['/company/users/remove/{id}']!.post).toBeTruthy();
    expect(paths['/company/audit']!.get).toBeTruthy();
  });
});
