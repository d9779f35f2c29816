// Long: the passkeys' step-up rules through every door share one authenticator, mailbox and server.
// Issue 37, findings 1 and 3 through the real doors (tRPC /api/trpc, REST /api, the browser's JSON doors
// /auth/passkey/*, the pages' forms): adding a passkey to a signed-in session needs a step-up like any sensitive
// change (a stolen cookie must not add a passkey that later signs in alone); a user without a passkey proves it
// is them by a step-up link from their e-mail (this session only, once, 10 minutes); every added or removed
// passkey is mailed to the user (the real SMTP peer) and in the audit trail; removing a user and revoking an API
// key need a step-up, and their confirm pages say so instead of going through (or pretending to).
import { beforeAll, describe, expect, it } from 'vitest';
import { AuditEvent, Company, LoginToken, Passkey, User } from '#server/db/entities.ts';
import { ApiKey } from '#server/db/entities.ts';
import { useScreens } from '#tests/helpers/screens.ts';
import { stepUpTokenIn } from '#tests/helpers/smtp.ts';
import { SoftAuthenticator } from '#tests/helpers/webauthn.ts';

const portal = useScreens({ browser: false, smtp: true });
const em = () => portal.server.services.orm.em.fork();
const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000);

type Answer = { status: number; data: Record<string, unknown>; text: string; location: string | null };

async function send(method: string, path: string, cookie: string, body?: unknown, asForm = false): Promise<Answer> {
  const headers: Record<string, string> = { cookie };
  let payload: string | undefined;
  if (asForm) {
    Object.assign(headers, {
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'text/html',
      'sec-fetch-mode': 'navigate',
      'sec-fetch-site': 'same-origin',
    });
    payload = new URLSearchParams(body as Record<string, string> | URLSearchParams).toString();
  } else {
    // tRPC wants the type even without an input.
    headers['content-type'] = 'application/json';
    payload = body === undefined ? undefined : JSON.stringify(body);
  }
  const res = await fetch(portal.server.url + path, { method, headers, body: payload, redirect: 'manual' });
  const text = await res.text();
  let data: Record<string, unknown> = {};
  try {
    data = text && !asForm ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    data = {};
  }
  return { status: res.status, data, text, location: res.headers.get('location') };
}

/** A tRPC mutation as the browser's client sends it; answers the status and the result's data (or the error). */
async function trpc(cookie: string, procedure: string, input?: unknown) {
  const r = await send('POST', `/api/trpc/${procedure}`, cookie, input);
  const result = (r.data.result as { data?: unknown } | undefined)?.data;
  return { status: r.status, data: result, raw: r.data, text: r.text };
}

/** The step-up refusal at the tRPC door: 403 with the step-up's words (REST and the JSON doors add stepUp: true). */
const stepUpMarked = (text: string) => /Bekräfta att det är du/.test(text);

const userId = async (email: string) => (await em().findOneOrFail(User, { email })).id;

async function securityActions(email: string): Promise<string[]> {
  const rows = await em().find(
    AuditEvent,
    { targetId: String(await userId(email)), kind: 'security' },
    { orderBy: { id: 'asc' } },
  );
  return rows.map((r) => r.action);
}

/** The plain text of the mails to an address, quoted-printable undone. */
async function mailsTo(address: string): Promise<string[]> {
  await portal.server.services.settled();
  // Quoted-printable: the bytes of UTF-8, each as =XX.
  return portal.smtp.to(address).map((m) =>
    Buffer.from(
      m.raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))),
      'latin1',
    ).toString('utf8'),
  );
}

let n = 0;
/** An owner of a company of their own (no passkey: the company does not require them), and their cookie. */
async function newOwner(opts: { steppedUp?: boolean; now?: Date } = {}) {
  n++;
  const e = em();
  const company = e.create(Company, {
    name: `Steg ${n} AB`,
    customerNumber: `STEG-${n}-${Date.now()}`,
    invoiceNote: '',
    invoiceInterval: 'monthly',
  });
  const owner = e.create(User, { name: `Ägare ${n}`, email: `agare${n}@steg${n}.test`, company, role: 'owner' });
  const coOwner = e.create(User, { name: `Delägare ${n}`, email: `del${n}@steg${n}.test`, company, role: 'owner' });
  await e.flush();
  const cookie = await portal.server.sessionCookie(owner.email, {
    steppedUp: opts.steppedUp ?? false,
    method: 'link',
    now: opts.now,
  });
  return { company, owner, coOwner, cookie };
}

type Options = { challenge: string; rp: { id?: string }; user: { id: string } };

async function register(cookie: string, auth: SoftAuthenticator, name: string) {
  const options = await trpc(cookie, 'passkeys.registrationOptions');
  if (options.status !== 200) return options;
  return trpc(cookie, 'passkeys.register', { response: auth.register(options.data as Options), name });
}

/** The step-up link mailed to the address, as the user's mailbox has it. */
async function stepUpLinkToken(email: string): Promise<string> {
  const mails = await mailsTo(email);
  return stepUpTokenIn(mails.at(-1)!);
}

describe('adding a passkey to a signed-in session (finding 1)', () => {
  it('is refused with 403 stepUp when the session has not stepped up lately, at the tRPC and the browser door', async () => {
    const { cookie, owner } = await newOwner({ now: minutesAgo(30) });
    const auth = new SoftAuthenticator(portal.server.url);
    // tRPC: the options and the answer are both refused (an answer to options fetched earlier is no way round).
    const options = await trpc(cookie, 'passkeys.registrationOptions');
    expect(options.status).toBe(403);
    expect(stepUpMarked(options.text)).toBe(true);
    const fake = auth.register({ challenge: 'AAAA', rp: { id: 'localhost' }, user: { id: 'AAAA' } });
    const answer = await trpc(cookie, 'passkeys.register', { response: fake, name: 'Tjuvens' });
    expect(answer.status).toBe(403);
    // The browser's JSON door says why, with the way for a user without a passkey.
    const door = await send('POST', '/auth/passkey/options', cookie, { purpose: 'register' });
    expect(door.status).toBe(403);
    expect(door.data).toMatchObject({ stepUp: true });
    expect(door.data.error).toContain('länk till din e-post');
    expect(await em().count(Passkey, { user: owner.id })).toBe(0);
  });

  it('a user with a passkey and a stale step-up must use it first; a fresh step-up adds one (and it is mailed)', async () => {
    const { cookie, owner } = await newOwner({ steppedUp: true });
    const first = new SoftAuthenticator(portal.server.url);
    expect((await register(cookie, first, 'Telefon')).status).toBe(200);
    // The same user, another session, stepped up 30 minutes ago: the stolen-cookie case of the finding.
    const stale = await portal.server.sessionCookie(owner.email, { now: minutesAgo(30), method: 'passkey' });
    const thief = new SoftAuthenticator(portal.server.url);
    const refused = await register(stale, thief, 'Tjuvens');
    expect(refused.status).toBe(403);
    expect(stepUpMarked(refused.text)).toBe(true);
    const door = await send('POST', '/auth/passkey/options', stale, { purpose: 'register' });
    expect(door.data.error).toContain('inloggningsnyckel du redan har');
    // A step-up link is for a user without a passkey only.
    const link = await trpc(stale, 'passkeys.requestStepUpLink');
    expect(link.status).toBe(400);
    expect(link.text).toContain('Du har redan en inloggningsnyckel');
    // With the passkey used now, the second one is added.
    const request = await trpc(stale, 'passkeys.stepUpOptions');
    expect((await trpc(stale, 'passkeys.stepUp', { response: first.assert(request.data as Options) })).status).toBe(
      200,
    );
    expect((await register(stale, new SoftAuthenticator(portal.server.url), 'Surfplatta')).status).toBe(200);
    expect(await em().count(Passkey, { user: owner.id })).toBe(2);
    const mails = await mailsTo(owner.email);
    expect(mails.filter((m) => m.includes('har lagts till på ditt konto'))).toHaveLength(2);
    expect(mails.some((m) => m.includes('Inloggningsnyckel "Surfplatta" har lagts till'))).toBe(true);
  });

  it('a user without a passkey steps up by the e-mail link (this session, once) and then adds one', async () => {
    const { cookie, owner } = await newOwner({ now: minutesAgo(30) });
    expect((await trpc(cookie, 'passkeys.requestStepUpLink')).status).toBe(200);
    const mails = await mailsTo(owner.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toContain('Subject: =?UTF-8?Q?Bekr');
    expect(mails[0]).toContain('Öppna länken nedan i samma webbläsare');
    const token = await stepUpLinkToken(owner.email);
    // The link never signs in: the login door does not know it.
    const asLogin = await send('POST', '/api/trpc/auth.consumeLink', '', { token });
    expect((asLogin.data.result as { data: { problem: string } }).data.problem).toBe('invalid');
    // Another session of the same user (another browser) cannot use it.
    const other = await portal.server.sessionCookie(owner.email, { steppedUp: false, method: 'link' });
    expect((await trpc(other, 'passkeys.stepUpWithLink', { token })).status).toBe(400);
    expect((await trpc(other, 'passkeys.registrationOptions')).status).toBe(403);
    // The page's form (JS or not) uses it in the session that asked, and goes on to add a passkey.
    const page = await send('GET', `/security/confirm/link?token=${token}`, cookie);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Bekräfta med e-postlänken');
    const used = await send('POST', `/security/confirm/link?token=${token}`, cookie, { token }, true);
    expect(used.status).toBe(302);
    expect(used.location).toContain('/security/confirm?redirectTo=');
    // Once only.
    expect((await trpc(cookie, 'passkeys.stepUpWithLink', { token })).status).toBe(400);
    const auth = new SoftAuthenticator(portal.server.url);
    const added = await register(cookie, auth, 'Jobbdator');
    expect(added.status).toBe(200);
    expect(await em().count(Passkey, { user: owner.id })).toBe(1);
    expect(await securityActions(owner.email)).toEqual(
      expect.arrayContaining(['stepUpFailed', 'stepUpByEmail', 'passkeyAdded', 'recoveryCodesCreated']),
    );
    const after = await mailsTo(owner.email);
    expect(after.at(-1)).toContain('Inloggningsnyckel "Jobbdator" har lagts till på ditt konto');
  });

  it('an old step-up link, or one with a made-up token, is refused and in the trail', async () => {
    const { cookie, owner } = await newOwner();
    expect((await trpc(cookie, 'passkeys.requestStepUpLink')).status).toBe(200);
    const token = await stepUpLinkToken(owner.email);
    await em().nativeUpdate(LoginToken, { email: owner.email }, { expiresAt: minutesAgo(1) });
    const refused = await send('POST', '/security/confirm/link', cookie, { token }, true);
    expect(refused.status).toBe(200);
    expect(refused.text).toContain('Länken fungerar inte här');
    expect((await trpc(cookie, 'passkeys.stepUpWithLink', { token: 'x'.repeat(43) })).status).toBe(400);
    expect((await trpc(cookie, 'passkeys.registrationOptions')).status).toBe(403);
    expect((await securityActions(owner.email)).filter((a) => a === 'stepUpFailed')).toHaveLength(2);
  });

  it('a session still registering its first passkey at sign-in (stage register) needs nothing more', async () => {
    const e = em();
    const demo = await e.findOneOrFail(Company, { customerNumber: '100001' });
    const user = e.create(User, { name: 'Ny Admin', email: 'ny.admin@demo.test', company: demo, isSuperAdmin: true });
    await e.flush();
    const { createSession } = await import('#server/auth/sessions.ts');
    const raw = await createSession(em(), user.id, { stage: 'register', method: 'link' });
    const cookie = `${portal.server.cookieName}=${raw}`;
    const added = await register(cookie, new SoftAuthenticator(portal.server.url), 'Första');
    expect(added.status).toBe(200);
    expect((added.data as { signedIn: boolean }).signedIn).toBe(true);
    expect((await mailsTo('ny.admin@demo.test')).at(-1)).toContain('Inloggningsnyckel "Första" har lagts till');
  });
});

describe('removing a passkey (finding 1: the user is told)', () => {
  it('mails the user and leaves passkeyRemoved in the trail; a support reset mails them too', async () => {
    const { cookie, owner } = await newOwner({ steppedUp: true });
    await register(cookie, new SoftAuthenticator(portal.server.url), 'Gammal');
    await register(cookie, new SoftAuthenticator(portal.server.url), 'Ny');
    const gammal = await em().findOneOrFail(Passkey, { user: owner.id, name: 'Gammal' });
    const removed = await send('POST', '/security', cookie, { intent: 'remove', id: String(gammal.id) }, true);
    expect(removed.status).toBe(200);
    expect(removed.text).toContain('Inloggningsnyckel Gammal är borttagen.');
    expect((await mailsTo(owner.email)).at(-1)).toContain('Inloggningsnyckel "Gammal" har tagits bort från ditt konto');
    expect(await securityActions(owner.email)).toContain('passkeyRemoved');

    const admin = await portal.server.sessionCookie('admin@demo.test');
    const reset = await send('POST', `/api/admin/resetPasskeys/${owner.id}`, admin, {});
    expect(reset.status).toBe(200);
    expect((await mailsTo(owner.email)).at(-1)).toContain('Support har återställt din inloggningsnyckel');
  });
});

describe('removing a user and revoking an API key need a step-up (finding 3)', () => {
  it('REST and tRPC: 403 stepUp with a stale step-up, nothing removed or revoked; a fresh one goes through', async () => {
    const { cookie, owner, coOwner } = await newOwner({ now: minutesAgo(30) });
    const fresh = await portal.server.sessionCookie(owner.email);
    const created = await send('POST', '/api/company/apiKeys', fresh, { name: 'Lager', scope: 'read' });
    expect(created.status).toBe(200);
    const keyId = created.data.id as number;

    const rest = await send('POST', `/api/company/users/remove/${coOwner.id}`, cookie, {});
    expect([rest.status, rest.data.stepUp]).toEqual([403, true]);
    const viaTrpc = await trpc(cookie, 'company.removeUser', { id: coOwner.id });
    expect(viaTrpc.status).toBe(403);
    expect(stepUpMarked(viaTrpc.text)).toBe(true);
    const revoke = await send('POST', `/api/company/apiKeys/revoke/${keyId}`, cookie, {});
    expect([revoke.status, revoke.data.stepUp]).toEqual([403, true]);
    expect((await trpc(cookie, 'apiKeys.revoke', { id: keyId })).status).toBe(403);
    expect((await em().findOneOrFail(User, { id: coOwner.id })).removedAt).toBeNull();
    expect((await em().findOneOrFail(ApiKey, { id: keyId })).revokedAt).toBeNull();

    expect((await send('POST', `/api/company/apiKeys/revoke/${keyId}`, fresh, {})).status).toBe(200);
    expect((await send('POST', `/api/company/users/remove/${coOwner.id}`, fresh, {})).status).toBe(200);
    expect((await em().findOneOrFail(User, { id: coOwner.id })).removedAt).not.toBeNull();
  });

  it("the pages' confirm forms say what is needed instead of removing, or claiming a revoke that did not happen", async () => {
    const { cookie, owner, coOwner } = await newOwner({ now: minutesAgo(30) });
    const fresh = await portal.server.sessionCookie(owner.email);
    const keyId = (await send('POST', '/api/company/apiKeys', fresh, { name: 'Kassa', scope: 'read' })).data
      .id as number;

    const remove = await send('POST', `/company/users/${coOwner.id}/remove`, cookie, {}, true);
    expect(remove.status).toBe(200);
    expect(remove.text).toContain('Ändringen är inte gjord: du behöver först en inloggningsnyckel (passkey)');
    // The layout's prompt says up front what is needed and leads to the way (no passkey: the e-mail link).
    expect(remove.text).toContain('du har ingen ännu');
    expect(remove.text).toContain(
      `/security/confirm?redirectTo=${encodeURIComponent(`/company/users/${coOwner.id}/remove`)}`,
    );
    const revoke = await send('POST', `/company/api-keys/${keyId}/revoke`, cookie, {}, true);
    expect(revoke.status).toBe(200);
    expect(revoke.location).toBeNull();
    expect(revoke.text).toContain('Ändringen är inte gjord');
    expect((await em().findOneOrFail(User, { id: coOwner.id })).removedAt).toBeNull();
    expect((await em().findOneOrFail(ApiKey, { id: keyId })).revokedAt).toBeNull();

    expect((await send('POST', `/company/api-keys/${keyId}/revoke`, fresh, {}, true)).location).toBe(
      '/company/api-keys?notice=revoked',
    );
    expect((await send('POST', `/company/users/${coOwner.id}/remove`, fresh, {}, true)).location).toBe(
      '/company?notice=removed',
    );
  });

  it('a refused API key, webhook or user form comes back with its values in the address and the form (no JS)', async () => {
    const { cookie, coOwner } = await newOwner({ now: minutesAgo(30) });
    const key = await send(
      'POST',
      '/company/api-keys?index',
      cookie,
      { name: 'Lagersystem', scope: 'write', expiresAt: '2031-01-31' },
      true,
    );
    expect(key.status).toBe(302);
    expect(key.location).toBe('/company/api-keys?stepUp=1&name=Lagersystem&scope=write&expiresAt=2031-01-31');
    const keyPage = await send('GET', key.location!, cookie);
    expect(keyPage.text).toContain('value="Lagersystem"');
    expect(keyPage.text).toMatch(/<option value="write" selected/);
    expect(keyPage.text).toContain('Det du skrev finns kvar');

    const hook = await send(
      'POST',
      '/company/webhooks?index',
      cookie,
      new URLSearchParams([
        ['intent', 'create'],
        ['url', 'https://hooks.example.com/sim'],
        ['events', 'sim.activated'],
      ]),
      true,
    );
    expect(hook.status).toBe(302);
    const hookPage = await send('GET', hook.location!, cookie);
    expect(hookPage.text).toContain('value="https://hooks.example.com/sim"');

    const edit = await send(
      'POST',
      `/company/users/${coOwner.id}`,
      cookie,
      { name: 'Nytt Namn', email: coOwner.email, role: 'member' },
      true,
    );
    expect(edit.status).toBe(302);
    const editPage = await send('GET', edit.location!, cookie);
    expect(editPage.text).toContain('value="Nytt Namn"');
    expect((await em().findOneOrFail(User, { id: coOwner.id })).role).toBe('owner');
  });
});

beforeAll(async () => {
  // The demo's super admin has a passkey (the fixture), so its session is stepped up as after a passkey sign-in.
  expect(await em().count(User, { email: 'admin@demo.test' })).toBe(1);
});
