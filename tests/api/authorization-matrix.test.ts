// Long: one table of 33 procedures with their inputs and page forms, which reads best in one place.
// The authorization matrix of the sensitive changes (issue 37): every procedure that needs a recent passkey use
// (step-up) × every kind of caller × every door it has: its REST path in the OpenAPI document, `/api/trpc/<name>`,
// and its page's form post (or the page's JSON door, for the passkey ceremonies). Only a fresh step-up of the right
// role and company goes through; a stale step-up or an owner with no passkey gets 403 `stepUp: true` (the page: its
// step-up prompt); a session still signing in is answered as sign-in-states.test.ts says (as a visitor, a login
// redirect going to /login/passkey); an API key is 403 where keys are read and a visitor elsewhere; another company's
// owner gets 403/404 for A's rows, or acts on its own company and leaves A as it was. Every refusal leaves the
// database as it was (tests/helpers/doors.ts: fingerprint). The sensitive list is checked against the router: a
// mutation that is neither in it nor in NOT_SENSITIVE (with its reason) fails the first test, as does a procedure
// built on ownerChangeProcedure or superAdminChangeProcedure that is missing from it.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRAFT_FLAG } from '#app/utils/step-up.ts';
import { ssoTxtName, ssoTxtValue } from '#domain/sso/domains.ts';
import { tPasskeyPrompt } from '#domain/texts/passkey-prompt.ts';
import { tSecurity } from '#domain/texts/security.ts';
import { createSession, hashSessionId } from '#server/auth/sessions.ts';
import { Company, SsoDomain, User, WebauthnChallenge } from '#server/db/entities.ts';
import { appRouter } from '#server/trpc/router.ts';
import { ownerChangeProcedure, superAdminChangeProcedure } from '#server/trpc/trpc.ts';
import {
  fingerprint,
  fixturePasskey,
  send,
  sendPage,
  type Answer,
  type Credentials,
  type PageRequest,
} from '#tests/helpers/doors.ts';
import { startDns } from '#tests/helpers/dns-server.ts';
import { startOidcProvider } from '#tests/helpers/oidc-provider.ts';
import { useScreens } from '#tests/helpers/screens.ts';
import { SoftAuthenticator } from '#tests/helpers/webauthn.ts';

// The company's provider (checked at every save) and the DNS that proves its domains, both on loopback; no sign-in
// through them is made here, so the provider's redirect URI is never used.
const dns = await startDns();
const idp = await startOidcProvider({ redirectUri: 'http://127.0.0.1/auth/sso/callback' });
afterAll(async () => {
  await idp.close();
  await dns.close();
});
const portal = useScreens({
  browser: false,
  smtp: true,
  // Webhook targets and the provider on loopback; the API key's budget out of the way (1500 requests in all).
  env: {
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    SSO_ALLOW_PRIVATE_TARGETS: 'true',
    SSO_DNS_SERVERS: dns.address,
    API_KEY_RATE_LIMIT: '1000000',
  },
});
const em = () => portal.server.services.orm.em.fork();
const url = () => portal.server.url;

const STATES = [
  'fresh',
  'stale',
  'noPasskey',
  'halfPasskey',
  'halfRegister',
  'keyRead',
  'keyWrite',
  'otherCompany',
] as const;
type State = (typeof STATES)[number];
const DOORS = ['rest', 'trpc', 'page'] as const;
type Door = (typeof DOORS)[number];
/** Who may make the change: an owner of the company, a super admin, or the user for themself (their passkeys). */
type Role = 'owner' | 'superAdmin' | 'self';
type Caller = Credentials & { userId: number | null; sessionId: string | null };
type Case = { input: unknown; page?: PageRequest };
type Row = {
  name: string;
  role: Role;
  /** Another company's caller: refused (the change names a row of company A), or acts on its own company. */
  other: 'refused' | 'own';
  make: (caller: Caller) => Promise<Case>;
};

/** Mutations that need no step-up, and why. A new mutation must be named here or in ROWS. */
const NOT_SENSITIVE: Record<string, string> = {
  'auth.requestLink': 'signed out: asks for a login link by e-mail',
  'auth.consumeLink': 'signed out: uses a login link (the sign-in itself)',
  'auth.logout': 'ends the own session',
  'auth.takeFlash': "reads and clears the own session's one-time notice",
  'auth.stopActing': 'a super admin stops acting as a company: gives reach up',
  'network.usage': "the network's usage feed: a network integration key only, no person (tests/api/network-usage)",
  'sim.activate': "the company's SIMs: a member's daily work (role and key scope decide)",
  'sim.edit': "the company's SIMs: a member's daily work",
  'sim.deactivate': "the company's SIMs: a member's daily work",
  'sim.bulkActivate': "the company's SIMs: a member's daily work",
  'sim.bulkActivateChunk': "the company's SIMs: a member's daily work",
  'sim.bulkActivateSummary': "the company's SIMs: a member's daily work",
  'sim.bulkDeactivate': "the company's SIMs: a member's daily work",
  'sim.tags': "the company's SIMs: a member's daily work",
  'sim.pause': "the company's SIMs: a member's daily work (resumed at once)",
  'sim.resume': "the company's SIMs: a member's daily work",
  'sim.bulkPause': "the company's SIMs: a member's daily work (resumed at once)",
  'sim.bulkResume': "the company's SIMs: a member's daily work",
  'tags.rename': "the company's SIMs' tags: a member's daily work",
  'tags.delete': "the company's SIMs' tags: a member's daily work",
  'feedback.send': 'a message to the portal staff',
  'webhooks.test': 'sends a test event to an endpoint the owner already has; changes no setting',
  'passkeys.signInOptions': 'signed out: the passkey sign-in (its proof is the passkey)',
  'passkeys.signIn': 'signed out: the passkey sign-in',
  'passkeys.secondFactorOptions': 'the sign-in after the e-mail link: this is the passkey use',
  'passkeys.secondFactor': 'the sign-in after the e-mail link: this is the passkey use',
  'passkeys.recoverySignIn': 'the sign-in after the e-mail link with a recovery code instead',
  'passkeys.stepUpOptions': 'the step-up itself',
  'passkeys.stepUp': 'the step-up itself',
  'passkeys.recoveryStepUp': 'the step-up itself, with a recovery code',
  'sso.start': "signed out: sends the browser to the company's provider",
  'sso.finish': "signed out: the provider's answer (the sign-in itself)",
  'sso.stepUp': 'the step-up itself, through the provider',
  'passkeys.requestStepUpLink': 'the step-up itself, by an e-mail link (a user without a passkey)',
  'passkeys.stepUpWithLink': 'the step-up itself, by an e-mail link (a user without a passkey)',
  'sessions.end': 'ends one of the own sessions: gives reach up',
  'sessions.endOthers': 'ends the own other sessions: gives reach up',
};

let ids: {
  companyA: number;
  companyB: number;
  anna: number;
  ella: number;
};
const keys = { read: '', write: '', readId: 0, writeId: 0 };
/** The callers' users: the owner of A (with a passkey), an owner of A with none, super admins, B's owner. */
const EMAIL = {
  owner: 'ella@demo.test',
  ownerNoPasskey: 'olle.nyckellos@demo.test',
  superAdmin: 'admin@demo.test',
  superAdminNoPasskey: 'sigrid.nyckellos@demo.test',
  otherOwner: 'bo@matris-b.test',
  /** A user still to add her first passkey (stage register), for the passkey rows. */
  firstPasskey: 'nora.ny@demo.test',
};
let seq = 0;
const n = () => ++seq;
const STALE = () => new Date(Date.now() - 11 * 60_000);

beforeAll(async () => {
  const e = em();
  const a = await e.findOneOrFail(Company, { customerNumber: '100001' });
  const staff = await e.findOneOrFail(User, { email: EMAIL.superAdmin }, { populate: ['company'] });
  const b = e.create(Company, { name: 'Matris B AB', customerNumber: 'MATRIS-B', invoiceNote: '' });
  e.create(User, { name: 'Olle Nyckellös', email: EMAIL.ownerNoPasskey, company: a, role: 'owner' });
  e.create(User, { name: 'Nora Ny', email: EMAIL.firstPasskey, company: a, role: 'member' });
  e.create(User, {
    name: 'Sigrid Nyckellös',
    email: EMAIL.superAdminNoPasskey,
    company: staff.company,
    isSuperAdmin: true,
  });
  const bo = e.create(User, { name: 'Bo Bolag', email: EMAIL.otherOwner, company: b, role: 'owner' });
  await e.flush();
  const ella = await e.findOneOrFail(User, { email: EMAIL.owner });
  const anna = await e.findOneOrFail(User, { email: 'anna@demo.test' });
  ids = { companyA: a.id, companyB: b.id, anna: anna.id, ella: ella.id };
  // A stepped-up session is one that used a passkey: the owners have one (the super admin gets his fixture's).
  await fixturePasskey(em(), ella.id, 'Ellas nyckel');
  await fixturePasskey(em(), bo.id, 'Bos nyckel');
  for (const scope of ['read', 'write'] as const) {
    const made = await send(
      url(),
      'POST',
      '/api/company/apiKeys',
      { cookie: await cookie(EMAIL.owner) },
      {
        json: { name: `Matris ${scope}`, scope },
      },
    );
    expect(made.status, made.text).toBe(200);
    const { key, id } = made.json as { key: string; id: number };
    keys[scope] = key;
    keys[`${scope}Id`] = id;
  }
});

async function cookie(email: string, opts: Parameters<typeof portal.server.sessionCookie>[1] = {}) {
  return portal.server.sessionCookie(email, opts);
}

const sessionIdOf = (c: string) => hashSessionId(c.split('=')[1] ?? '');
const userIds = new Map<string, number>();
async function userIdOf(email: string): Promise<number> {
  if (!userIds.has(email)) userIds.set(email, (await em().findOneOrFail(User, { email })).id);
  return userIds.get(email) ?? 0;
}

async function withCookie(email: string, opts: Parameters<typeof portal.server.sessionCookie>[1] = {}) {
  const c = await cookie(email, opts);
  return { cookie: c, userId: await userIdOf(email), sessionId: sessionIdOf(c) };
}

/** A session as the e-mail link leaves it 20 minutes later, of a user with no passkey at all. */
async function linkSessionWithoutPasskey(email: string): Promise<Caller> {
  const userId = await userIdOf(email);
  const raw = await createSession(em(), userId, { method: 'link', now: new Date(Date.now() - 20 * 60_000) });
  return { cookie: `${portal.server.cookieName}=${raw}`, userId, sessionId: hashSessionId(raw) };
}

async function callerFor(role: Role, state: State): Promise<Caller> {
  const own = role === 'superAdmin' ? EMAIL.superAdmin : EMAIL.owner;
  switch (state) {
    case 'fresh':
      return withCookie(own);
    case 'stale':
      // A full session whose last passkey use is 11 minutes old, as stored in its row.
      return withCookie(own, { steppedUpAt: STALE() });
    case 'noPasskey':
      return linkSessionWithoutPasskey(role === 'superAdmin' ? EMAIL.superAdminNoPasskey : EMAIL.ownerNoPasskey);
    case 'halfPasskey':
      return withCookie(own, { stage: 'passkey' });
    case 'halfRegister':
      // Adding a passkey is that session's one way on: as it is met, a user who has none yet.
      return withCookie(role === 'self' ? EMAIL.firstPasskey : own, { stage: 'register' });
    case 'keyRead':
      return { bearer: keys.read, userId: null, sessionId: null };
    case 'keyWrite':
      return { bearer: keys.write, userId: null, sessionId: null };
    case 'otherCompany':
      // For a super admin's change: a stepped-up owner of a customer company (Demo AB's); else B's owner.
      return withCookie(role === 'superAdmin' ? EMAIL.owner : EMAIL.otherOwner);
  }
}

// ---- the rows' fixtures, made anew for every cell ----

async function webhookOfA(): Promise<number> {
  const r = await send(
    url(),
    'POST',
    '/api/company/webhooks',
    { cookie: await cookie(EMAIL.owner) },
    {
      json: { url: `http://127.0.0.1:9/matris/${n()}`, events: ['sim.activated'] },
    },
  );
  expect(r.status, r.text).toBe(200);
  return (r.json as { id: number }).id;
}

async function ruleOfA(): Promise<number> {
  const r = await send(
    url(),
    'POST',
    '/api/company/rules',
    { cookie: await cookie(EMAIL.owner) },
    { json: { name: `Matris ${n()}`, target: 'all', condition: 'silent', threshold: 60, notifyToast: true } },
  );
  expect(r.status, r.text).toBe(200);
  return (r.json as { id: number }).id;
}

async function apiKeyOfA(): Promise<number> {
  const r = await send(
    url(),
    'POST',
    '/api/company/apiKeys',
    { cookie: await cookie(EMAIL.owner) },
    {
      json: { name: `Återkallas ${n()}`, scope: 'read' },
    },
  );
  expect(r.status, r.text).toBe(200);
  return (r.json as { id: number }).id;
}

async function networkKeyMade(): Promise<number> {
  const r = await send(
    url(),
    'POST',
    '/api/admin/networkKeys',
    { cookie: await cookie(EMAIL.superAdmin) },
    { json: { name: `matris-${n()}` } },
  );
  expect(r.status, r.text).toBe(200);
  return (r.json as { id: number }).id;
}

async function userOfA(): Promise<number> {
  const e = em();
  const i = n();
  const user = e.create(User, {
    name: `Tas bort ${i}`,
    email: `tas.bort.${i}@demo.test`,
    company: e.getReference(Company, ids.companyA),
    role: 'viewer',
  });
  await e.flush();
  return user.id;
}

/** Another session of Anna's (the super admin ends it, or resets her passkeys, which ends them all). */
const annasSession = async () => sessionIdOf(await cookie('anna@demo.test'));

/** Company A has single sign-on settings (to remove). */
async function ssoOfA(): Promise<void> {
  await em().execute(
    `insert into sso_config (company_id, issuer, client_id, client_secret, allow_email_link, create_users, mfa_claim, updated_at)
     values (?, ?, 'matris', 'x', true, false, null, now()) on conflict (company_id) do nothing`,
    [ids.companyA, idp.issuer],
  );
}

/** A domain of A's settings, not yet proved, whose TXT record is now in the DNS (to check). */
async function domainOfA(): Promise<string> {
  await ssoOfA();
  const domain = `bevis-${n()}.test`;
  const token = randomBytes(16).toString('hex');
  const e = em();
  e.create(SsoDomain, { company: e.getReference(Company, ids.companyA), domain, verificationToken: token });
  await e.flush();
  dns.txt(ssoTxtName(domain), [ssoTxtValue(token)]);
  return domain;
}

const ssoInput = (i: number) => ({
  issuer: idp.issuer,
  clientId: `matris-${i}`,
  clientSecret: 'matrisens-hemlighet',
  domains: [`matris-${i}.test`],
  allowEmailLink: true,
  createUsers: false,
  mfaClaim: '',
});
const ssoForm = (i: number) => ({
  intent: 'save',
  issuer: idp.issuer,
  clientId: `matris-${i}`,
  clientSecret: 'matrisens-hemlighet',
  domains: `matris-${i}.test`,
  allowEmailLink: 'on',
  mfaClaim: '',
});

/** A registration answer to a challenge stored for the caller's session, as the options would have stored it. */
async function registration(caller: Caller) {
  const challenge = randomBytes(32).toString('base64url');
  const e = em();
  e.create(WebauthnChallenge, {
    challenge,
    purpose: 'register',
    binding: caller.sessionId ?? randomBytes(32).toString('hex'),
    user: caller.userId ? e.getReference(User, caller.userId) : null,
    expiresAt: new Date(Date.now() + 5 * 60_000),
  });
  await e.flush();
  const response = new SoftAuthenticator(url()).register({
    challenge,
    rp: {},
    user: { id: randomBytes(16).toString('base64url') },
  });
  return { response, name: `Matrisnyckel ${n()}` };
}

/** Passkeys for everyone in A switched the other way than they are now (the checkbox: on, or left out). */
async function passkeysSwitched() {
  const a = await em().findOneOrFail(Company, { id: ids.companyA });
  const on = !a.requirePasskeys;
  const form: Record<string, string> = { intent: 'passkeys' };
  if (on) form.requirePasskeys = 'on';
  return { input: { requirePasskeys: on }, form };
}

const adminCompany = () => `/admin/companies/${ids.companyA}`;
const adminAnna = () => `/admin/companies/${ids.companyA}/${ids.anna}`;

const ROWS: Row[] = [
  {
    name: 'admin.createCompany',
    role: 'superAdmin',
    other: 'refused',
    make: async () => {
      const i = n();
      const fields = { name: `Matris ${i} AB`, customerNumber: `MATRIS-${i}` };
      return {
        input: fields,
        page: { path: '/admin/companies', form: { intent: 'createCompany', ...fields, invoiceNote: '' } },
      };
    },
  },
  {
    name: 'admin.updateCompany',
    role: 'superAdmin',
    other: 'refused',
    make: async () => {
      const fields = { name: `Demo AB ${n()}`, customerNumber: '100001', invoiceNote: '', invoiceInterval: 'monthly' };
      return {
        input: { id: ids.companyA, ...fields },
        page: { path: adminCompany(), form: { intent: 'updateCompany', ...fields } },
      };
    },
  },
  {
    name: 'admin.createUser',
    role: 'superAdmin',
    other: 'refused',
    make: async () => {
      const i = n();
      const fields = { name: `Matris ${i}`, email: `matris.${i}@demo.test` };
      return {
        input: { ...fields, companyId: ids.companyA },
        page: { path: adminCompany(), form: { intent: 'createUser', ...fields, role: 'member' } },
      };
    },
  },
  {
    name: 'admin.updateUser',
    role: 'superAdmin',
    other: 'refused',
    make: async () => {
      const fields = { name: `Anna ${n()}`, email: 'anna@demo.test' };
      return {
        input: { id: ids.anna, ...fields, isCompanyOwner: false, isSuperAdmin: false, role: 'member' },
        page: { path: adminAnna(), form: { intent: 'updateUser', ...fields, role: 'member' } },
      };
    },
  },
  {
    name: 'admin.loginAsCompany',
    role: 'superAdmin',
    other: 'refused',
    make: async () => ({
      input: { companyId: ids.companyA },
      page: { path: adminCompany(), form: { intent: 'loginAs' } },
    }),
  },
  {
    name: 'sessions.endForUser',
    role: 'superAdmin',
    other: 'refused',
    make: async () => {
      const id = await annasSession();
      return {
        input: { userId: ids.anna, id },
        page: { path: adminAnna(), form: { intent: 'endSession', id } },
      };
    },
  },
  {
    name: 'sessions.resetPasskeys',
    role: 'superAdmin',
    other: 'refused',
    make: async () => {
      await annasSession();
      return { input: { userId: ids.anna }, page: { path: adminAnna(), form: { intent: 'resetPasskeys' } } };
    },
  },
  {
    name: 'sso.adminSave',
    role: 'superAdmin',
    other: 'refused',
    make: async () => {
      const i = n();
      return {
        input: { companyId: ids.companyA, ...ssoInput(i) },
        page: { path: `${adminCompany()}/sign-in`, form: ssoForm(i) },
      };
    },
  },
  {
    name: 'sso.adminRemove',
    role: 'superAdmin',
    other: 'refused',
    make: async () => {
      await ssoOfA();
      return {
        input: { companyId: ids.companyA },
        page: { path: `${adminCompany()}/sign-in`, form: { intent: 'remove' } },
      };
    },
  },
  {
    name: 'sso.adminCheckDomain',
    role: 'superAdmin',
    other: 'refused',
    make: async () => {
      const domain = await domainOfA();
      return {
        input: { companyId: ids.companyA, domain },
        page: { path: `${adminCompany()}/sign-in`, form: { intent: 'check', domain } },
      };
    },
  },
  {
    name: 'sso.adminRequirePasskeys',
    role: 'superAdmin',
    other: 'refused',
    make: async () => {
      const { input, form } = await passkeysSwitched();
      return { input: { companyId: ids.companyA, ...input }, page: { path: `${adminCompany()}/sign-in`, form } };
    },
  },
  {
    name: 'networkKeys.create',
    role: 'superAdmin',
    other: 'refused',
    make: async () => {
      const name = `matris-${n()}`;
      return { input: { name }, page: { path: '/admin/network', form: { name } } };
    },
  },
  {
    name: 'networkKeys.revoke',
    role: 'superAdmin',
    other: 'refused',
    make: async () => {
      const id = await networkKeyMade();
      return { input: { id }, page: { path: `/admin/network/${id}/revoke`, form: {} } };
    },
  },
  {
    name: 'company.createUser',
    role: 'owner',
    other: 'own',
    make: async () => {
      const i = n();
      const fields = { name: `Matris ${i}`, email: `matris.${i}@demo.test`, role: 'viewer' };
      return { input: fields, page: { path: '/company', form: fields } };
    },
  },
  {
    name: 'company.updateUser',
    role: 'owner',
    other: 'refused',
    make: async () => {
      const anna = await em().findOneOrFail(User, { id: ids.anna });
      const fields = {
        name: 'Anna Andersson',
        email: 'anna@demo.test',
        role: anna.role === 'viewer' ? 'member' : 'viewer',
      };
      return { input: { id: ids.anna, ...fields }, page: { path: `/company/users/${ids.anna}`, form: fields } };
    },
  },
  {
    name: 'company.removeUser',
    role: 'owner',
    other: 'refused',
    make: async () => {
      const id = await userOfA();
      return { input: { id }, page: { path: `/company/users/${id}/remove`, form: {} } };
    },
  },
  {
    name: 'webhooks.create',
    role: 'owner',
    other: 'own',
    make: async () => {
      const target = `http://127.0.0.1:9/ny/${n()}`;
      return {
        input: { url: target, events: ['sim.activated'] },
        page: { path: '/company/webhooks', form: { intent: 'create', url: target, events: ['sim.activated'] } },
      };
    },
  },
  {
    name: 'webhooks.update',
    role: 'owner',
    other: 'refused',
    make: async () => {
      const id = await webhookOfA();
      return {
        input: { id, url: `http://127.0.0.1:9/andrad/${n()}`, events: ['sim.updated'], enabled: false },
        page: { path: '/company/webhooks', form: { intent: 'disable', id: String(id) } },
      };
    },
  },
  {
    name: 'webhooks.delete',
    role: 'owner',
    other: 'refused',
    make: async () => {
      const id = await webhookOfA();
      return { input: { id }, page: { path: `/company/webhooks/${id}/delete`, form: {} } };
    },
  },
  {
    name: 'webhooks.rotate',
    role: 'owner',
    other: 'refused',
    make: async () => {
      const id = await webhookOfA();
      return { input: { id }, page: { path: '/company/webhooks', form: { intent: 'rotate', id: String(id) } } };
    },
  },
  {
    name: 'rules.create',
    role: 'owner',
    other: 'own',
    make: async () => {
      const name = `Regel ${n()}`;
      return {
        input: { name, target: 'all', condition: 'month_share', threshold: 80, notifyToast: true },
        page: {
          path: '/company/rules',
          form: { intent: 'create', name, target: 'all', condition: 'month_share', share: '80', notifyToast: 'on' },
        },
      };
    },
  },
  {
    name: 'rules.update',
    role: 'owner',
    other: 'refused',
    make: async () => {
      const id = await ruleOfA();
      return {
        input: {
          id,
          name: `Ändrad ${n()}`,
          target: 'all',
          condition: 'silent',
          threshold: 120,
          pause: true,
          enabled: false,
        },
        page: { path: '/company/rules', form: { intent: 'disable', id: String(id) } },
      };
    },
  },
  {
    name: 'rules.delete',
    role: 'owner',
    other: 'refused',
    make: async () => {
      const id = await ruleOfA();
      return { input: { id }, page: { path: `/company/rules/${id}/delete`, form: {} } };
    },
  },
  {
    name: 'apiKeys.create',
    role: 'owner',
    other: 'own',
    make: async () => {
      const name = `Matris ${n()}`;
      return {
        input: { name, scope: 'read' },
        page: { path: '/company/api-keys', form: { name, scope: 'read', expiresAt: '' } },
      };
    },
  },
  {
    name: 'apiKeys.revoke',
    role: 'owner',
    other: 'refused',
    make: async () => {
      const id = await apiKeyOfA();
      return { input: { id }, page: { path: `/company/api-keys/${id}/revoke`, form: {} } };
    },
  },
  {
    name: 'sso.save',
    role: 'owner',
    other: 'own',
    make: async () => {
      const i = n();
      return { input: ssoInput(i), page: { path: '/company/sign-in', form: ssoForm(i) } };
    },
  },
  {
    name: 'sso.remove',
    role: 'owner',
    other: 'own',
    make: async () => {
      await ssoOfA();
      return { input: undefined, page: { path: '/company/sign-in', form: { intent: 'remove' } } };
    },
  },
  {
    name: 'sso.checkDomain',
    role: 'owner',
    // The domain is A's: another company has no such domain of its own to check.
    other: 'refused',
    make: async () => {
      const domain = await domainOfA();
      return { input: { domain }, page: { path: '/company/sign-in', form: { intent: 'check', domain } } };
    },
  },
  {
    name: 'sso.requirePasskeys',
    role: 'owner',
    other: 'own',
    make: async () => {
      const { input, form } = await passkeysSwitched();
      return { input, page: { path: '/company/sign-in', form } };
    },
  },
  {
    name: 'passkeys.renewRecoveryCodes',
    role: 'self',
    other: 'own',
    make: async () => ({ input: undefined, page: { path: '/security', form: { intent: 'renewCodes' } } }),
  },
  {
    name: 'passkeys.remove',
    role: 'self',
    other: 'refused',
    make: async () => {
      const id = await fixturePasskey(em(), ids.ella, `Tas bort ${n()}`);
      return { input: { id }, page: { path: '/security', form: { intent: 'remove', id: String(id) } } };
    },
  },
  {
    name: 'passkeys.registrationOptions',
    role: 'self',
    other: 'own',
    make: async () => ({ input: undefined, page: { path: '/auth/passkey/options', json: { purpose: 'register' } } }),
  },
  {
    name: 'passkeys.register',
    role: 'self',
    other: 'own',
    make: async (caller) => {
      const input = await registration(caller);
      return { input, page: { path: '/auth/passkey/verify', json: { purpose: 'register', ...input } } };
    },
  },
];

/** Adding a passkey: a session that must add its first (stage register) does so as its sign-in. */
const REGISTRATION = ['passkeys.registrationOptions', 'passkeys.register'];

type Expected = 'allowed' | 'stepUp' | 'signedOut' | 'key' | 'refused' | 'own';

function expected(row: Row, state: State): Expected {
  switch (state) {
    case 'fresh':
      return 'allowed';
    case 'stale':
      return 'stepUp';
    case 'noPasskey':
      // A super admin without a passkey is still signing in (he must add one first): see sign-in-states.
      return row.role === 'superAdmin' ? 'signedOut' : 'stepUp';
    case 'halfPasskey':
      return 'signedOut';
    case 'halfRegister':
      return REGISTRATION.includes(row.name) ? 'allowed' : 'signedOut';
    case 'keyRead':
    case 'keyWrite':
      return 'key';
    case 'otherCompany':
      return row.other;
  }
}

type Procedure = { _def: { type: string; middlewares: unknown[] } };
const procedures = () => (appRouter._def as unknown as { procedures: Record<string, Procedure> }).procedures;

/** The REST operations of the OpenAPI document by procedure (trpc-to-openapi's operationId: the name with '-'). */
let restOps: Map<string, { method: string; template: string }>;
beforeAll(async () => {
  const doc = (await (await fetch(`${url()}/api/openapi.json`)).json()) as {
    paths: Record<string, Record<string, { operationId?: string }>>;
  };
  restOps = new Map();
  for (const [template, methods] of Object.entries(doc.paths))
    for (const [method, op] of Object.entries(methods))
      if (op.operationId) restOps.set(op.operationId.replace('-', '.'), { method: method.toUpperCase(), template });
});

/** The request of one door for a case, to send as any caller; null where the procedure has no such door. */
function door(d: Door, row: Row, c: Case): ((who: Credentials) => Promise<Answer>) | null {
  if (d === 'trpc') return (who) => send(url(), 'POST', `/api/trpc/${row.name}`, who, { json: c.input });
  if (d === 'page') {
    const page = c.page;
    return page ? (who) => sendPage(url(), page, who) : null;
  }
  const op = restOps.get(row.name);
  if (!op) return null;
  const body: Record<string, unknown> = { ...(c.input as Record<string, unknown> | undefined) };
  const path =
    '/api' +
    op.template.replace(/\{(\w+)\}/g, (_, k: string) => {
      const v = String(body[k]);
      delete body[k];
      return v;
    });
  return (who) => send(url(), op.method, path, who, op.method === 'GET' ? undefined : { json: body });
}

const isJsonPage = (c: Case) => !!c.page && 'json' in c.page;
const toLogin = (a: Answer) => (a.status === 302 || a.status === 303) && /^\/login(\?|$)/.test(a.location ?? '');
/** What a change refused for want of a step-up says: the usual, or (adding a passkey) with what to confirm. */
const STEP_UP_TEXTS: string[] = [tSecurity.stepUp.required, tSecurity.stepUp.toAdd, tSecurity.stepUp.toAddNone];
/** A page's form says it in its own words: the change is not made, confirm first (or add a passkey first). */
const PAGE_STEP_UP_TEXTS = [
  ...STEP_UP_TEXTS,
  tPasskeyPrompt.stepUp.notDone,
  tPasskeyPrompt.stepUp.notDoneNone,
  // A confirm page (revoke a key, remove a user) has nothing typed to keep.
  tPasskeyPrompt.stepUp.notDoneHere,
  tPasskeyPrompt.stepUp.notDoneHereNone,
];
const sayStepUp = (text: string) => PAGE_STEP_UP_TEXTS.some((t) => text.includes(t));
/** A page's form refused for want of a step-up: sent back to the page with its draft, or to the step-up page. */
const toStepUp = (a: Answer) =>
  (a.status === 302 || a.status === 303) &&
  (new URL(a.location ?? '/', url()).searchParams.get(DRAFT_FLAG) === '1' ||
    /^\/security\/confirm/.test(a.location ?? ''));

/**
 * After every cell: the settings a fresh change turned on are off again, the keys it made are revoked, the
 * webhooks are gone (a company may have 10) and the user still to add her first passkey has none again.
 */
async function tidy() {
  await em().execute('update company set require_passkeys = false');
  await em().execute('delete from passkey where user_id = ?', [await userIdOf(EMAIL.firstPasskey)]);
  await em().execute('delete from webhook_endpoint');
  // A company may have 100 rules: the cells' rules are gone again.
  await em().execute('delete from rule');
  await em().execute('update api_key set revoked_at = now() where revoked_at is null and id not in (?, ?)', [
    keys.readId,
    keys.writeId,
  ]);
  // At most 20 live network keys: the ones a cell made are revoked, as the company's API keys are.
  await em().execute('update network_key set revoked_at = now() where revoked_at is null');
}

async function cell(row: Row, state: State, d: Door): Promise<boolean> {
  const caller = await callerFor(row.role, state);
  const c = await row.make(caller);
  const request = door(d, row, c);
  if (!request) return false;
  const want = expected(row, state);
  const before = await fingerprint(em());
  const beforeA = want === 'own' ? await fingerprint(em(), ids.companyB) : '';
  // What a visitor gets at this door, where the caller is to be answered as one.
  const anon = want === 'signedOut' || (want === 'key' && d !== 'rest') ? await request({}) : null;
  const got = await request(caller);
  const after = await fingerprint(em());
  const label = `${row.name} × ${state} × ${d}: ${got.status} ${got.location ?? ''} ${got.text.slice(0, 300)}`;
  const page = d === 'page' && !isJsonPage(c);
  switch (want) {
    case 'allowed':
      if (page) {
        expect.soft(got.status, label).toBeLessThan(400);
        expect.soft(got.text, label).not.toContain(tSecurity.stepUp.required);
      } else expect.soft(got.status, label).toBe(200);
      expect.soft(after, `${label}: the change is made`).not.toBe(before);
      break;
    case 'stepUp':
      if (page) {
        // The page's form error with the step-up prompt (values kept), or the page again with its draft.
        expect.soft(toStepUp(got) || ([200, 403].includes(got.status) && sayStepUp(got.text)), label).toBe(true);
      } else if (d === 'trpc') {
        // tRPC's error shape carries the message and, in its data, the flag (as the other doors do).
        expect.soft(got.status, label).toBe(403);
        const error = (got.json as { error?: { message?: string; data?: { stepUp?: boolean } } } | null)?.error;
        expect.soft(STEP_UP_TEXTS, label).toContain(error?.message ?? '');
        expect.soft(error?.data?.stepUp, `${label}: tRPC's data says stepUp`).toBe(true);
      } else {
        expect.soft(got.status, label).toBe(403);
        expect.soft(got.json, label).toEqual({ error: expect.any(String), issues: [], stepUp: true });
        expect.soft(STEP_UP_TEXTS, label).toContain((got.json as { error?: string } | null)?.error);
      }
      break;
    case 'signedOut':
    case 'key':
      if (want === 'key' && d === 'rest') {
        // The REST door reads the key: a person's change is never a key's.
        expect.soft(got.status, label).toBe(403);
      } else if (anon && anon.status === 401) expect.soft(got.status, label).toBe(401);
      else if (anon && toLogin(anon) && want === 'signedOut')
        expect.soft([got.status, got.location], label).toEqual([302, '/login/passkey']);
      else if (anon) {
        // A door that takes no key answers the key's request as a visitor's.
        expect.soft(got.status, label).toBe(anon.status);
        expect.soft(got.location, label).toBe(anon.location);
      }
      break;
    case 'refused':
      // A page may say it as its form error (the passkey list's 'not found'); nothing changes either way.
      expect.soft(page ? [200, 403, 404] : [403, 404], label).toContain(got.status);
      if (page && got.status === 200) expect.soft(got.text, label).not.toContain(tSecurity.stepUp.required);
      break;
    case 'own':
      expect.soft(got.status, label).toBeLessThan(500);
      expect.soft(await fingerprint(em(), ids.companyB), `${label}: company A as it was`).toBe(beforeA);
      break;
  }
  if (want !== 'allowed' && want !== 'own') expect.soft(after, `${label}: nothing changed`).toBe(before);
  return true;
}

describe('the sensitive procedures', () => {
  it('are every procedure built on a step-up procedure, and every other mutation is named as not sensitive', () => {
    const all = procedures();
    const sensitive = ROWS.map((r) => r.name);
    const stepUpMiddlewares = [ownerChangeProcedure, superAdminChangeProcedure].map((p) =>
      (p as unknown as Procedure)._def.middlewares.at(-1),
    );
    const unlisted: string[] = [];
    const builtOnStepUp: string[] = [];
    for (const [name, proc] of Object.entries(all)) {
      if (proc._def.middlewares.some((m) => stepUpMiddlewares.includes(m))) builtOnStepUp.push(name);
      if (proc._def.type === 'mutation' && !sensitive.includes(name) && !(name in NOT_SENSITIVE)) unlisted.push(name);
    }
    expect(unlisted, 'a mutation in neither ROWS nor NOT_SENSITIVE (with its reason)').toEqual([]);
    expect(
      builtOnStepUp.filter((name) => !sensitive.includes(name)),
      'built on ownerChangeProcedure or superAdminChangeProcedure but not in ROWS',
    ).toEqual([]);
    expect(
      sensitive.filter((name) => name in NOT_SENSITIVE),
      'in both lists',
    ).toEqual([]);
    expect(
      [...sensitive, ...Object.keys(NOT_SENSITIVE)].filter((name) => !(name in all)),
      'no such procedure',
    ).toEqual([]);
    expect(new Set(sensitive).size).toBe(sensitive.length);
  });

  it('have their REST door where the OpenAPI document names one', () => {
    const withRest = ROWS.filter((r) => restOps.has(r.name)).map((r) => r.name);
    expect(withRest).toEqual(expect.arrayContaining(['admin.createCompany', 'apiKeys.revoke', 'company.removeUser']));
    expect(withRest.length).toBeGreaterThan(15);
  });
});

describe.each(ROWS)('$name', (row) => {
  it.each(STATES)('× %s, on every door', async (state) => {
    let doors = 0;
    // Tidied after each door: a passkey the first door added must not be there for the next (stage register is
    // for a user's first passkey only).
    for (const d of DOORS) {
      if (await cell(row, state, d)) doors++;
      await tidy();
    }
    expect(doors).toBeGreaterThanOrEqual(2);
  });
});
