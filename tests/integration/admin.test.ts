// Long: the super admin's procedures share one database, its companies and callers.
// Super admin procedures through createContext + createCaller: roles, validation messages, uniqueness,
// the company in the URL, self-demotion and the audit trail. A fresh database for this file.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateOpenApiDocument } from 'trpc-to-openapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cookieName } from '#server/auth/sessions.ts';
import { signedInSession } from '#tests/helpers/signed-in.ts';
import { loadConfig } from '#server/config.ts';
import { AuditEvent, Company, User } from '#server/db/entities.ts';
import { seedDemo } from '#server/db/seed.ts';
import { isDatabaseUnavailable } from '#server/db/errors.ts';
import { POOL_MAX } from '#server/db/orm.ts';
import { closeServices, createServices, type Services } from '#server/services.ts';
import { createCaller } from '#server/trpc/caller.ts';
import { createContext } from '#server/trpc/context.ts';
import { appRouter } from '#server/trpc/router.ts';
import { freshDatabase } from '#tests/helpers/db.ts';
import { bad, type CreateCompanyInput, type CreateUserInput } from '#tests/helpers/inputs.ts';

let services: Services;
let drop: () => Promise<void>;
let dataDir: string;
let demo: Company;
/** The staff company, home of the super admins (docs/decisions/014). */
let staff: Company;
let admin: User;
let anna: User;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'sim-admin-'));
  const db = await freshDatabase();
  drop = db.drop;
  services = await createServices(loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent' }), {
    db: db.target,
  });
  await seedDemo(services.orm.em.fork());
  const em = services.orm.em.fork();
  demo = await em.findOneOrFail(Company, { customerNumber: '100001' });
  staff = await em.findOneOrFail(Company, { isStaff: true });
  admin = await em.findOneOrFail(User, { email: 'admin@demo.test' });
  anna = await em.findOneOrFail(User, { email: 'anna@demo.test' });
});
afterAll(async () => {
  if (services) await closeServices(services);
  await drop?.();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** A caller for a request with this user's session cookie (none: anonymous), as the HTTP server builds it. */
async function as(email: string | null) {
  let cookie = '';
  if (email) {
    const em = services.orm.em.fork();
    const user = await em.findOneOrFail(User, { email });
    cookie = `${cookieName(services.config.secureCookies)}=${await signedInSession(em, user.id)}`;
  }
  const ctx = await createContext({
    services,
    headers: new Headers(cookie ? { cookie } : {}),
    requestId: 'test',
    ip: '127.0.0.1',
  });
  return createCaller(ctx);
}

/** `n` callers of this user, each with its own session, made one after another. */
async function callersOf(email: string, n: number) {
  const callers: Array<Awaited<ReturnType<typeof as>>> = [];
  for (let i = 0; i < n; i++) callers.push(await as(email));
  return callers;
}

/** The refusal's code and its message per field (the zod issues the API also answers with). */
async function refusal(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (err) {
    const e = err as {
      code: string;
      message: string;
      cause?: { issues?: Array<{ path: PropertyKey[]; message: string }> };
    };
    const fields: Record<string, string> = {};
    for (const i of e.cause?.issues ?? []) fields[String(i.path[0])] ??= i.message;
    return { code: e.code, message: e.message, fields };
  }
  throw new Error('expected the call to be refused');
}

const audits = (action: string) =>
  services.orm.em.fork().find(AuditEvent, { action }, { orderBy: { id: 'asc' }, populate: ['who', 'actingCompany'] });

/** The newest audit row of an update: its target, and the values before and after. */
async function expectUpdateAudited(action: string, targetId: number, before: object, after: object) {
  const row = (await audits(action)).at(-1)!;
  expect(row.targetId).toBe(String(targetId));
  expect(row.before).toEqual(before);
  expect(row.after).toEqual(after);
}

describe('who may call the admin procedures', () => {
  const calls = {
    getCompanies: (c: Awaited<ReturnType<typeof as>>) => c.admin.getCompanies({}),
    createCompany: (c: Awaited<ReturnType<typeof as>>) =>
      c.admin.createCompany({ name: 'Roll AB', customerNumber: 'ROLL-1' }),
    getCompany: (c: Awaited<ReturnType<typeof as>>) => c.admin.getCompany({ id: demo.id }),
    updateCompany: (c: Awaited<ReturnType<typeof as>>) =>
      c.admin.updateCompany({
        id: demo.id,
        name: 'Demo AB',
        customerNumber: '100001',
        invoiceNote: 'x',
        invoiceInterval: 'monthly',
      }),
    createUser: (c: Awaited<ReturnType<typeof as>>) =>
      c.admin.createUser({ name: 'Roll', email: 'roll@demo.test', companyId: demo.id }),
    getUser: (c: Awaited<ReturnType<typeof as>>) => c.admin.getUser({ id: anna.id }),
    updateUser: (c: Awaited<ReturnType<typeof as>>) =>
      c.admin.updateUser({
        id: anna.id,
        name: 'Anna',
        email: 'anna@demo.test',
        isCompanyOwner: false,
        isSuperAdmin: true,
      }),
  };
  for (const [name, call] of Object.entries(calls)) {
    it(`${name}: anonymous UNAUTHORIZED, regular user FORBIDDEN, nothing changed`, async () => {
      expect(await refusal(call(await as(null)))).toMatchObject({
        code: 'UNAUTHORIZED',
        message: 'Du är inte inloggad.',
      });
      expect(await refusal(call(await as('anna@demo.test')))).toMatchObject({
        code: 'FORBIDDEN',
        message: 'Du har inte behörighet till detta.',
      });
    });
  }
  it('none of the refused calls changed anything', async () => {
    const em = services.orm.em.fork();
    expect(await em.count(Company, { customerNumber: 'ROLL-1' })).toBe(0);
    expect(await em.count(User, { email: 'roll@demo.test' })).toBe(0);
    expect((await em.findOneOrFail(User, { id: anna.id })).isSuperAdmin).toBe(false);
    expect(await em.count(AuditEvent, {})).toBe(0);
  });
});

describe('companies', () => {
  it('creates a company (monthly by default), answers { newCompany } and writes an audit row', async () => {
    const caller = await as('admin@demo.test');
    const { newCompany } = await caller.admin.createCompany({
      name: '  Nya Bolaget AB ',
      customerNumber: ' 200001 ',
      invoiceNote: 'Ref. Ekonomi',
    });
    expect(newCompany).toEqual({
      id: expect.any(Number),
      name: 'Nya Bolaget AB',
      customerNumber: '200001',
      invoiceNote: 'Ref. Ekonomi',
      invoiceInterval: 'monthly',
    });
    const [row] = await audits('createCompany');
    expect(row).toMatchObject({ targetType: 'Company', targetId: String(newCompany.id), before: null });
    expect(row!.who!.id).toBe(admin.id);
    expect(row!.actingCompany).toBeNull();
    expect(row!.after).toEqual({
      name: 'Nya Bolaget AB',
      customerNumber: '200001',
      invoiceNote: 'Ref. Ekonomi',
      invoiceInterval: 'monthly',
    });
    const { newCompany: quarterly } = await caller.admin.createCompany({
      name: 'Kvartal AB',
      customerNumber: '200002',
      invoiceInterval: 'quarterly',
    });
    expect(quarterly.invoiceInterval).toBe('quarterly');
    expect(quarterly.invoiceNote).toBe('');
  });

  it('refuses bad input, each with its Swedish message, and saves nothing', async () => {
    const caller = await as('admin@demo.test');
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ name: '   ', customerNumber: 'X-1' }, 'name', 'Ange företagets namn.'],
      [{ name: 'a'.repeat(201), customerNumber: 'X-1' }, 'name', 'Namnet får vara högst 200 tecken.'],
      [{ name: 'Bolag', customerNumber: '' }, 'customerNumber', 'Ange ett kundnummer.'],
      [{ name: 'Bolag', customerNumber: '1'.repeat(51) }, 'customerNumber', 'Kundnumret får vara högst 50 tecken.'],
      [
        { name: 'Bolag', customerNumber: 'X-1', invoiceNote: 'n'.repeat(201) },
        'invoiceNote',
        'Fakturamärkningen får vara högst 200 tecken.',
      ],
      [
        { name: 'Bolag', customerNumber: 'X-1', invoiceInterval: 'weekly' },
        'invoiceInterval',
        'Välj ett faktureringsintervall: monthly, quarterly, biannually eller annually.',
      ],
      [{ customerNumber: 'X-1' }, 'name', 'Namnet måste vara text.'],
    ];
    for (const [input, field, message] of cases) {
      const r = await refusal(caller.admin.createCompany(bad<CreateCompanyInput>(input)));
      expect(r.code, JSON.stringify(input)).toBe('BAD_REQUEST');
      expect(r.fields[field], JSON.stringify(input)).toBe(message);
    }
    expect(await services.orm.em.fork().count(Company, { customerNumber: 'X-1' })).toBe(0);
  });

  it('refuses a customer number that is already used (CONFLICT), on create and on update', async () => {
    const caller = await as('admin@demo.test');
    const before = await services.orm.em.fork().count(AuditEvent, {});
    const r = await refusal(caller.admin.createCompany({ name: 'Kopia AB', customerNumber: '100001' }));
    expect(r).toMatchObject({ code: 'CONFLICT', message: 'Kundnumret används redan av ett annat företag.' });
    expect(r.fields.customerNumber).toBe('Kundnumret används redan av ett annat företag.');
    const { newCompany } = await caller.admin.createCompany({ name: 'Annan AB', customerNumber: '300001' });
    const u = await refusal(caller.admin.updateCompany({ ...newCompany, customerNumber: '100001' }));
    expect(u.code).toBe('CONFLICT');
    expect(u.fields.customerNumber).toBe('Kundnumret används redan av ett annat företag.');
    // Only the one successful create was audited; the refused calls left no trace.
    expect(await services.orm.em.fork().count(AuditEvent, {})).toBe(before + 1);
    expect((await services.orm.em.fork().findOneOrFail(Company, { id: newCompany.id })).customerNumber).toBe('300001');
  });

  it('updates a company, keeping its own customer number, with before and after in the audit row', async () => {
    const caller = await as('admin@demo.test');
    const { newCompany } = await caller.admin.createCompany({
      name: 'Före AB',
      customerNumber: '400001',
      invoiceNote: 'Gammal',
    });
    const res = await caller.admin.updateCompany({
      id: newCompany.id,
      name: 'Efter AB',
      customerNumber: '400001',
      invoiceNote: ' Ny ',
      invoiceInterval: 'annually',
    });
    const after = { name: 'Efter AB', customerNumber: '400001', invoiceNote: 'Ny', invoiceInterval: 'annually' };
    expect(res).toEqual({ success: true, company: { id: newCompany.id, ...after } });
    await expectUpdateAudited(
      'updateCompany',
      newCompany.id,
      { name: 'Före AB', customerNumber: '400001', invoiceNote: 'Gammal', invoiceInterval: 'monthly' },
      after,
    );
    expect(await refusal(caller.admin.updateCompany({ ...res.company, id: 999999 }))).toMatchObject({
      code: 'NOT_FOUND',
      message: 'Företaget finns inte.',
    });
  });

  it('lists, searches (name, customer number, invoice mark; any case; % is literal) and pages on the server', async () => {
    const caller = await as('admin@demo.test');
    for (let i = 1; i <= 5; i++)
      await caller.admin.createCompany({
        name: `Sökbolag ${i}`,
        customerNumber: `S-${i}`,
        invoiceNote: i === 3 ? 'Märkt 100% special' : '',
      });
    const all = await caller.admin.getCompanies({});
    expect(all.map((c) => c.name)).toEqual([...all.map((c) => c.name)].sort((a, b) => a.localeCompare(b, 'en')));
    expect((await caller.admin.getCompanies({ q: 'SÖKBOLAG' })).map((c) => c.name)).toEqual([
      'Sökbolag 1',
      'Sökbolag 2',
      'Sökbolag 3',
      'Sökbolag 4',
      'Sökbolag 5',
    ]);
    expect((await caller.admin.getCompanies({ q: 's-4' })).map((c) => c.name)).toEqual(['Sökbolag 4']);
    expect((await caller.admin.getCompanies({ q: '100% special' })).map((c) => c.name)).toEqual(['Sökbolag 3']);
    expect(await caller.admin.getCompanies({ q: '0%s' })).toEqual([]);
    expect((await caller.admin.getCompanies({ q: 'sökbolag', limit: 2, offset: 2 })).map((c) => c.name)).toEqual([
      'Sökbolag 3',
      'Sökbolag 4',
    ]);
    expect((await refusal(caller.admin.getCompanies({ limit: 51 }))).fields.limit).toBe('limit får vara högst 50.');
  });

  it('gives a page of 50 when no limit is asked for (the REST list of companies), and the rest by offset', async () => {
    const caller = await as('admin@demo.test');
    const em = services.orm.em.fork();
    for (let i = 1; i <= 150; i++)
      em.create(Company, {
        name: `Massbolag ${String(i).padStart(3, '0')}`,
        customerNumber: `M-${i}`,
        invoiceNote: '',
        invoiceInterval: 'monthly',
      });
    await em.flush();
    const pages = [];
    for (let offset = 0; ; offset += 50) {
      const page = await caller.admin.getCompanies({ offset });
      expect(page.length).toBeLessThanOrEqual(50);
      pages.push(...page);
      if (page.length < 50) break;
    }
    expect(pages.filter((c) => c.name.startsWith('Massbolag'))).toHaveLength(150);
    expect(pages.length).toBe(await em.count(Company, {}));
  });

  it('gets a company with its users (searchable), and NOT_FOUND for an unknown id', async () => {
    const caller = await as('admin@demo.test');
    const company = await caller.admin.getCompany({ id: demo.id });
    expect(company).toMatchObject({
      id: demo.id,
      name: 'Demo AB',
      customerNumber: '100001',
      invoiceInterval: 'monthly',
    });
    expect(company.users.map((u) => u.email)).toEqual(expect.arrayContaining(['ella@demo.test', 'anna@demo.test']));
    expect(company.users.find((u) => u.email === 'ella@demo.test')).toMatchObject({
      companyId: demo.id,
      isSuperAdmin: false,
      isCompanyOwner: true,
    });
    // The super admin is staff, not a user of the customer (docs/decisions/014).
    expect(company.users.map((u) => u.email)).not.toContain('admin@demo.test');
    expect((await caller.admin.getCompany({ id: staff.id })).users).toEqual([
      expect.objectContaining({ email: 'admin@demo.test', isSuperAdmin: true }),
    ]);
    expect((await caller.admin.getCompany({ id: demo.id, q: 'ANDERS' })).users.map((u) => u.email)).toEqual([
      'anna@demo.test',
    ]);
    expect(await refusal(caller.admin.getCompany({ id: 999999 }))).toMatchObject({
      code: 'NOT_FOUND',
      message: 'Företaget finns inte.',
    });
  });
});

describe('users', () => {
  let other: { id: number };

  beforeAll(async () => {
    const caller = await as('admin@demo.test');
    other = (await caller.admin.createCompany({ name: 'Grannbolaget AB', customerNumber: '500001' })).newCompany;
  });

  it('creates a user with the e-mail stored lower-case, answers { newUser } and writes an audit row', async () => {
    const caller = await as('admin@demo.test');
    const { newUser } = await caller.admin.createUser({
      name: ' Bo Berg ',
      email: '  Bo.Berg@Exempel.SE ',
      companyId: other.id,
    });
    expect(newUser).toEqual({
      id: expect.any(Number),
      name: 'Bo Berg',
      email: 'bo.berg@exempel.se',
      companyId: other.id,
      isCompanyOwner: false,
      isSuperAdmin: false,
      role: 'member',
    });
    const row = (await audits('createUser')).at(-1)!;
    expect(row).toMatchObject({ targetType: 'User', targetId: String(newUser.id), before: null });
    expect(row.after).toMatchObject({ email: 'bo.berg@exempel.se', companyId: other.id });
    expect(row.who!.id).toBe(admin.id);
  });

  it('refuses bad input, each with its message', async () => {
    const caller = await as('admin@demo.test');
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ name: '', email: 'x@exempel.se', companyId: other.id }, 'name', 'Ange ett namn.'],
      [
        { name: 'n'.repeat(201), email: 'x@exempel.se', companyId: other.id },
        'name',
        'Namnet får vara högst 200 tecken.',
      ],
      [{ name: 'X', email: 'inte-en-adress', companyId: other.id }, 'email', 'Ange en giltig e-postadress.'],
      [{ name: 'X', email: '   ', companyId: other.id }, 'email', 'Ange en giltig e-postadress.'],
      [
        { name: 'X', email: `${'a'.repeat(250)}@x.se`, companyId: other.id },
        'email',
        'E-postadressen får vara högst 254 tecken.',
      ],
    ];
    for (const [input, field, message] of cases) {
      const r = await refusal(caller.admin.createUser(bad<CreateUserInput>(input)));
      expect(r.code, JSON.stringify(input)).toBe('BAD_REQUEST');
      expect(r.fields[field], JSON.stringify(input)).toBe(message);
    }
    expect(
      await refusal(caller.admin.createUser({ name: 'X', email: 'x@exempel.se', companyId: 999999 })),
    ).toMatchObject({ code: 'NOT_FOUND' });
    expect(await services.orm.em.fork().count(User, { email: 'x@exempel.se' })).toBe(0);
  });

  it('refuses an e-mail used in any company, whatever its case (CONFLICT)', async () => {
    const caller = await as('admin@demo.test');
    const r = await refusal(
      caller.admin.createUser({ name: 'Anna Kopia', email: 'ANNA@Demo.test', companyId: other.id }),
    );
    expect(r).toMatchObject({ code: 'CONFLICT', message: 'E-postadressen används redan av en annan användare.' });
    expect(r.fields.email).toBe('E-postadressen används redan av en annan användare.');
    const { newUser } = await caller.admin.createUser({
      name: 'Cecilia',
      email: 'cecilia@exempel.se',
      companyId: other.id,
    });
    const u = await refusal(caller.admin.updateUser({ ...newUser, email: 'Anna@DEMO.TEST' }));
    expect(u.code).toBe('CONFLICT');
    expect(u.fields.email).toBe('E-postadressen används redan av en annan användare.');
    expect((await services.orm.em.fork().findOneOrFail(User, { id: newUser.id })).email).toBe('cecilia@exempel.se');
  });

  it('updates a user (flags, e-mail case) with before and after in the audit row', async () => {
    const caller = await as('admin@demo.test');
    const { newUser } = await caller.admin.createUser({ name: 'Dan', email: 'dan@exempel.se', companyId: other.id });
    const res = await caller.admin.updateUser({
      id: newUser.id,
      companyId: other.id,
      name: 'Dan Dansson',
      email: 'Dan.D@Exempel.se',
      isCompanyOwner: true,
      isSuperAdmin: false,
    });
    const after = {
      name: 'Dan Dansson',
      email: 'dan.d@exempel.se',
      companyId: other.id,
      isCompanyOwner: true,
      isSuperAdmin: false,
      role: 'owner',
    };
    expect(res).toEqual({ success: true, user: { id: newUser.id, ...after } });
    await expectUpdateAudited(
      'updateUser',
      newUser.id,
      {
        name: 'Dan',
        email: 'dan@exempel.se',
        companyId: other.id,
        isCompanyOwner: false,
        isSuperAdmin: false,
        role: 'member',
      },
      after,
    );
    // Keeping one's own address in another case is not a conflict with oneself.
    await expect(caller.admin.updateUser({ ...res.user, email: 'DAN.D@exempel.se' })).resolves.toMatchObject({
      user: { email: 'dan.d@exempel.se' },
    });
  });

  it('makes super admins only of the staff company’s users: a customer’s user is refused next to the flag (decision 014)', async () => {
    const caller = await as('admin@demo.test');
    const { newUser } = await caller.admin.createUser({ name: 'Kund', email: 'kund@exempel.se', companyId: other.id });
    const input = { ...newUser, isSuperAdmin: true };
    const r = await refusal(caller.admin.updateUser(input));
    expect(r.code).toBe('BAD_REQUEST');
    expect(r.fields.isSuperAdmin).toContain('personalföretaget');
    expect((await caller.admin.getUser({ id: newUser.id })).isSuperAdmin).toBe(false);
    const { newUser: colleague } = await caller.admin.createUser({
      name: 'Kollega',
      email: 'kollega@portal.se',
      companyId: staff.id,
    });
    expect((await caller.admin.updateUser({ ...colleague, isSuperAdmin: true })).user.isSuperAdmin).toBe(true);
  });

  it('takes a role on createUser and updateUser (the user page’s select); isCompanyOwner must agree with it', async () => {
    const caller = await as('admin@demo.test');
    const { newUser } = await caller.admin.createUser({
      name: 'Vera',
      email: 'vera@exempel.se',
      companyId: other.id,
      role: 'viewer',
    });
    expect(newUser).toMatchObject({ role: 'viewer', isCompanyOwner: false });
    const base = { id: newUser.id, companyId: other.id, name: 'Vera', email: 'vera@exempel.se', isSuperAdmin: false };
    // Left out, the role stays: isCompanyOwner false does not make a viewer a member.
    expect((await caller.admin.updateUser({ ...base, isCompanyOwner: false })).user.role).toBe('viewer');
    expect((await caller.admin.updateUser({ ...base, role: 'owner', isCompanyOwner: true })).user).toMatchObject({
      role: 'owner',
      isCompanyOwner: true,
    });
    const disagree = await refusal(caller.admin.updateUser({ ...base, role: 'owner', isCompanyOwner: false }));
    expect(disagree).toMatchObject({ code: 'BAD_REQUEST' });
    const unknown = await refusal(
      caller.admin.updateUser(bad<Parameters<typeof caller.admin.updateUser>[0]>({ ...base, role: 'admin' })),
    );
    expect(unknown).toMatchObject({
      code: 'BAD_REQUEST',
      fields: { role: 'Välj en roll: Ägare, Medarbetare eller Läsbehörig.' },
    });
    expect((await caller.admin.updateUser({ ...base, role: 'member', isCompanyOwner: false })).user).toMatchObject({
      role: 'member',
      isCompanyOwner: false,
    });
    expect((await services.orm.em.fork().findOneOrFail(User, { id: newUser.id })).role).toBe('member');
  });

  it('finds a user only through their own company: another company in the URL is NOT_FOUND', async () => {
    const caller = await as('admin@demo.test');
    expect(await caller.admin.getUser({ id: anna.id, companyId: demo.id })).toMatchObject({
      email: 'anna@demo.test',
      companyId: demo.id,
    });
    expect(await caller.admin.getUser({ id: anna.id })).toMatchObject({ email: 'anna@demo.test' });
    expect(await refusal(caller.admin.getUser({ id: anna.id, companyId: other.id }))).toMatchObject({
      code: 'NOT_FOUND',
      message: 'Användaren finns inte i det här företaget.',
    });
    const before = await services.orm.em.fork().count(AuditEvent, { action: 'updateUser' });
    const r = await refusal(
      caller.admin.updateUser({
        id: anna.id,
        companyId: other.id,
        name: 'Kapad',
        email: 'anna@demo.test',
        isCompanyOwner: true,
        isSuperAdmin: true,
      }),
    );
    expect(r.code).toBe('NOT_FOUND');
    const fresh = await services.orm.em.fork().findOneOrFail(User, { id: anna.id });
    expect(fresh).toMatchObject({ name: 'Anna Andersson', isSuperAdmin: false, role: 'member' });
    expect(await services.orm.em.fork().count(AuditEvent, { action: 'updateUser' })).toBe(before);
    expect(await refusal(caller.admin.getUser({ id: 999999 }))).toMatchObject({
      code: 'NOT_FOUND',
      message: 'Användaren finns inte.',
    });
  });

  it('refuses a super admin removing their own super-admin flag, but lets them edit the rest', async () => {
    const caller = await as('admin@demo.test');
    const r = await refusal(
      caller.admin.updateUser({
        id: admin.id,
        name: 'Admin Demo',
        email: 'admin@demo.test',
        isCompanyOwner: true,
        isSuperAdmin: false,
      }),
    );
    expect(r).toMatchObject({
      code: 'BAD_REQUEST',
      message: 'Du kan inte ta bort din egen behörighet som superadministratör.',
    });
    expect(r.fields.isSuperAdmin).toBe('Du kan inte ta bort din egen behörighet som superadministratör.');
    expect((await services.orm.em.fork().findOneOrFail(User, { id: admin.id })).isSuperAdmin).toBe(true);
    await caller.admin.updateUser({
      id: admin.id,
      name: 'Admin Demo',
      email: 'admin@demo.test',
      isCompanyOwner: false,
      isSuperAdmin: true,
    });
    expect((await services.orm.em.fork().findOneOrFail(User, { id: admin.id })).role).toBe('member');
    // Another super admin may remove the flag (no lock-out: the first one still has it).
    const { newUser } = await caller.admin.createUser({
      name: 'Extra Admin',
      email: 'extra@demo.test',
      companyId: staff.id,
    });
    await caller.admin.updateUser({ ...newUser, isSuperAdmin: true });
    const extra = await as('extra@demo.test');
    await extra.admin.updateUser({
      id: admin.id,
      name: 'Admin Demo',
      email: 'admin@demo.test',
      isCompanyOwner: false,
      isSuperAdmin: false,
    });
    expect((await services.orm.em.fork().findOneOrFail(User, { id: admin.id })).isSuperAdmin).toBe(false);
    await extra.admin.updateUser({
      id: admin.id,
      name: 'Admin Demo',
      email: 'admin@demo.test',
      isCompanyOwner: true,
      isSuperAdmin: true,
    });
  });

  it('records the acting company of a super admin who acts as another company', async () => {
    const em = services.orm.em.fork();
    const raw = await signedInSession(em, admin.id, { actingCompanyId: other.id });
    const caller = createCaller(
      await createContext({
        services,
        headers: new Headers({ cookie: `${cookieName(services.config.secureCookies)}=${raw}` }),
        requestId: 't',
        ip: '',
      }),
    );
    const { newUser } = await caller.admin.createUser({ name: 'Eva', email: 'eva@exempel.se', companyId: other.id });
    const row = (await audits('createUser')).at(-1)!;
    expect(row.targetId).toBe(String(newUser.id));
    expect(row.actingCompany!.id).toBe(other.id);
    expect(row.who!.id).toBe(admin.id);
  });
});

describe('parallel updates of one row', () => {
  /** The audit rows of one target, oldest first: each starts where the one before ended. */
  async function expectUnbrokenChain(
    action: string,
    targetId: number,
    current: Record<string, unknown>,
    count: number,
  ) {
    const rows = (await audits(action)).filter((a) => a.targetId === String(targetId));
    expect(rows).toHaveLength(count);
    for (let i = 1; i < rows.length; i++) expect(rows[i]!.before, `audit row ${i}`).toEqual(rows[i - 1]!.after);
    expect(rows.at(-1)!.after).toEqual(current);
  }

  /**
   * How many of the racing updates were done. Each is done or refused whole: an update still waiting for a pooled
   * connection after QUEUE_WAIT_MS is refused as overload (503; decision 021), which on a busy machine can meet the
   * last of thirty that take turns on one row. Nothing else may fail, and at least a pool's worth must get through.
   */
  function doneOrOverloaded(results: PromiseSettledResult<unknown>[]): number {
    const refused = results.filter((r) => r.status === 'rejected');
    for (const r of refused) expect(isDatabaseUnavailable(r.reason), String(r.reason)).toBe(true);
    expect(results.length - refused.length).toBeGreaterThanOrEqual(POOL_MAX);
    return results.length - refused.length;
  }

  it('30 parallel company updates take turns: unbroken audit chain, the newest audit row is the state', async () => {
    const caller = await as('admin@demo.test');
    const { newCompany } = await caller.admin.createCompany({ name: 'Kapplöpning AB', customerNumber: '700001' });
    await caller.admin.updateCompany({ ...newCompany, name: 'Kapplöpning AB 0' });
    // Thirty requests, each its own session and context (made one by one: the race is of the updates, not of
    // thirty sign-ins, whose storm on a busy machine once outwaited the pool's queue and was refused).
    const callers = await callersOf('admin@demo.test', 30);
    const results = await Promise.allSettled(
      callers.map((c, i) =>
        c.admin.updateCompany({
          id: newCompany.id,
          name: `Kapplöpning AB ${i + 1}`,
          customerNumber: '700001',
          invoiceNote: `Märkning ${i + 1}`,
          invoiceInterval: i % 2 ? 'quarterly' : 'annually',
        }),
      ),
    );
    const c = await services.orm.em.fork().findOneOrFail(Company, { id: newCompany.id });
    await expectUnbrokenChain(
      'updateCompany',
      newCompany.id,
      {
        name: c.name,
        customerNumber: c.customerNumber,
        invoiceNote: c.invoiceNote,
        invoiceInterval: c.invoiceInterval,
      },
      1 + doneOrOverloaded(results),
    );
  });

  it('30 parallel user updates take turns: unbroken audit chain, the newest audit row is the state', async () => {
    const caller = await as('admin@demo.test');
    const { newUser } = await caller.admin.createUser({
      name: 'Parallell',
      email: 'parallell@demo.test',
      companyId: demo.id,
    });
    await caller.admin.updateUser({ ...newUser, name: 'Parallell 0' });
    const callers = await callersOf('admin@demo.test', 30);
    const results = await Promise.allSettled(
      callers.map((c, i) =>
        c.admin.updateUser({
          id: newUser.id,
          companyId: demo.id,
          name: `Parallell ${i + 1}`,
          email: 'parallell@demo.test',
          isCompanyOwner: i % 2 === 0,
          isSuperAdmin: false,
        }),
      ),
    );
    const u = await services.orm.em.fork().findOneOrFail(User, { id: newUser.id });
    await expectUnbrokenChain(
      'updateUser',
      newUser.id,
      {
        name: u.name,
        email: u.email,
        companyId: demo.id,
        isCompanyOwner: u.role === 'owner',
        role: u.role,
        isSuperAdmin: u.isSuperAdmin,
      },
      1 + doneOrOverloaded(results),
    );
  });
});

describe('REST description', () => {
  it('serves every admin procedure and feedback on the spec paths', () => {
    const doc = generateOpenApiDocument(appRouter, {
      title: 'SIM-portalen',
      version: '1',
      baseUrl: 'http://localhost/api',
    });
    const paths = doc.paths ?? {};
    expect(Object.keys(paths['/admin/getCompanies'] ?? {})).toEqual(['get']);
    expect(Object.keys(paths['/admin/createCompany'] ?? {})).toEqual(['post']);
    expect(Object.keys(paths['/admin/getCompany/{id}'] ?? {})).toEqual(['get']);
    expect(Object.keys(paths['/admin/updateCompany'] ?? {})).toEqual(['put']);
    expect(Object.keys(paths['/admin/loginAsCompany'] ?? {})).toEqual(['post']);
    expect(Object.keys(paths['/admin/createUser'] ?? {})).toEqual(['post']);
    expect(Object.keys(paths['/admin/getUser/{id}'] ?? {})).toEqual(['get']);
    expect(Object.keys(paths['/admin/updateUser'] ?? {})).toEqual(['put']);
    expect(Object.keys(paths['/feedback'] ?? {})).toEqual(['post']);
  });
});
