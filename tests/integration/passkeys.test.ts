// Long: the passkey rules share one authenticator, its users and callers.
// The passkey rules through the procedures (createCaller), with a software authenticator: challenges are single
// use, expire, belong to one session (or signed-out browser) and one purpose; recovery codes work once and wrong
// ones are limited; the last passkey of a user who must have one stays; a session still signing in reaches only
// its own procedures.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession, findSession, isSteppedUp, readSessionCookie } from '#server/auth/sessions.ts';
import { readBindingCookie } from '#server/auth/passkeys.ts';
import { AuditEvent, Company, Passkey, RecoveryCode, User, WebauthnChallenge } from '#server/db/entities.ts';
import type { Services } from '#server/services.ts';
import { createCaller } from '#server/trpc/caller.ts';
import { createContextInner, type Context } from '#server/trpc/context.ts';
import { startServices } from '#tests/helpers/caller.ts';
import { signedInSession } from '#tests/helpers/signed-in.ts';
import { SoftAuthenticator } from '#tests/helpers/webauthn.ts';

let env: Awaited<ReturnType<typeof startServices>>;
let services: Services;

beforeAll(async () => {
  env = await startServices();
  services = env.services;
});
afterAll(() => env.stop());

const userId = async (email: string) => (await services.orm.em.fork().findOneOrFail(User, { email })).id;

/** A caller on the session with this raw id (full or pending), and its context (to read Set-Cookie). */
async function as(raw: string | null, opts: { ip?: string } = {}) {
  const session = raw ? await findSession(services.orm.em.fork(), raw) : null;
  const ctx: Context = createContextInner({ services, session, ip: opts.ip ?? '10.0.0.1' });
  return { ctx, trpc: createCaller(ctx), session };
}

const cookieFrom = (ctx: Context) =>
  readSessionCookie(ctx.resHeaders.get('set-cookie')?.split(', ').join('; '), services.config.secureCookies);

async function fullSession(email: string, steppedUp = true) {
  return signedInSession(services.orm.em.fork(), await userId(email), { steppedUp });
}

async function pendingSession(email: string, stage: 'passkey' | 'register') {
  return createSession(services.orm.em.fork(), await userId(email), { stage, method: 'link' });
}

async function registerWith(auth: SoftAuthenticator, raw: string, name = '') {
  const { trpc, ctx } = await as(raw);
  const options = await trpc.passkeys.registrationOptions();
  const result = await trpc.passkeys.register({ response: auth.register(options), name });
  return { result, ctx };
}

async function auditActions(email: string): Promise<string[]> {
  const id = await userId(email);
  const rows = await services.orm.em
    .fork()
    .find(AuditEvent, { targetId: String(id), kind: 'security' }, { orderBy: { id: 'asc' } });
  return rows.map((r) => r.action);
}

describe('registering a passkey', () => {
  it('stores the credential; the first brings ten recovery codes, shown once; the second none', async () => {
    const auth = new SoftAuthenticator(services.config.appUrl);
    const raw = await fullSession('anna@demo.test');
    const first = await registerWith(auth, raw, 'Min telefon');
    expect(first.result.name).toBe('Min telefon');
    expect(first.result.signedIn).toBe(false);
    expect(first.result.recoveryCodes).toHaveLength(10);
    for (const code of first.result.recoveryCodes!) expect(code).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/);
    const em = services.orm.em.fork();
    const stored = await em.findOneOrFail(Passkey, { user: await userId('anna@demo.test') });
    expect(stored).toMatchObject({ counter: 0, deviceType: 'multiDevice', backedUp: true, transports: ['internal'] });
    expect(stored.credentialId).toBe(auth.credentials[0]!.id.toString('base64url'));
    // Only hashes are stored.
    const hashes = (await em.find(RecoveryCode, { user: stored.user.id })).map((r) => r.codeHash);
    expect(hashes).toHaveLength(10);
    expect(hashes).not.toContain(first.result.recoveryCodes![0]);

    const second = await registerWith(new SoftAuthenticator(services.config.appUrl, { backedUp: false }), raw);
    expect(second.result.recoveryCodes).toBeNull();
    expect(second.result.name).toBe('Inloggningsnyckel 2');
    const overview = await (await as(raw)).trpc.passkeys.overview();
    expect(overview.passkeys.map((p) => [p.name, p.backedUp])).toEqual([
      ['Min telefon', true],
      ['Inloggningsnyckel 2', false],
    ]);
    expect(overview.recoveryCodesLeft).toBe(10);
    expect(await auditActions('anna@demo.test')).toEqual(
      expect.arrayContaining(['passkeyAdded', 'recoveryCodesCreated', 'passkeyAdded']),
    );
  });

  it('refuses the same answer twice, an answer to another session and one whose challenge expired', async () => {
    const auth = new SoftAuthenticator(services.config.appUrl);
    const raw = await fullSession('ella@demo.test');
    const { trpc } = await as(raw);
    const options = await trpc.passkeys.registrationOptions();
    const response = auth.register(options);
    // Another session of the same user cannot use this session's challenge.
    const other = await as(await fullSession('ella@demo.test'));
    await expect(other.trpc.passkeys.register({ response, name: '' })).rejects.toThrow(/gått ut|använts/);
    // Nor the right one afterwards: the failed try did not take it, but it is still single use below.
    await trpc.passkeys.register({ response, name: '' });
    await expect(trpc.passkeys.register({ response, name: '' })).rejects.toThrow(/gått ut|använts/);

    const late = await trpc.passkeys.registrationOptions();
    await services.orm.em
      .fork()
      .nativeUpdate(WebauthnChallenge, { challenge: late.challenge }, { expiresAt: new Date(Date.now() - 1000) });
    await expect(trpc.passkeys.register({ response: auth.register(late), name: '' })).rejects.toThrow(/gått ut/);
    expect(await services.orm.em.fork().count(WebauthnChallenge, { challenge: late.challenge })).toBe(0);
  });

  it('a session that must add its first passkey is signed in by it (new id, stepped up, signIn audited)', async () => {
    const raw = await pendingSession('admin@demo.test', 'register');
    const { ctx, trpc, session } = await as(raw);
    expect(session?.stage).toBe('register');
    expect(ctx.session).toBeNull();
    // Nothing else is open to it meanwhile.
    await expect(trpc.passkeys.overview()).rejects.toThrow();
    await expect(trpc.passkeys.stepUpOptions()).rejects.toThrow();
    await expect(trpc.passkeys.secondFactorOptions()).rejects.toThrow();
    const options = await trpc.passkeys.registrationOptions();
    const result = await trpc.passkeys.register({
      response: new SoftAuthenticator(services.config.appUrl).register(options),
      name: 'Admin',
    });
    expect(result).toMatchObject({ signedIn: true });
    expect(result.recoveryCodes).toHaveLength(10);
    const fresh = cookieFrom(ctx);
    expect(fresh).toBeTruthy();
    expect(await findSession(services.orm.em.fork(), raw)).toBeNull();
    const signedIn = await findSession(services.orm.em.fork(), fresh!);
    expect(signedIn).toMatchObject({ stage: 'full', method: 'link' });
    expect(isSteppedUp(signedIn!)).toBe(true);
    expect(await auditActions('admin@demo.test')).toContain('signIn');
  });
});

describe('using a passkey', () => {
  let auth: SoftAuthenticator;
  let codes: string[];
  beforeAll(() => {
    auth = new SoftAuthenticator(services.config.appUrl);
  });

  it('after the link (secondFactor): signs in with a new id, stepped up, with the link as its method', async () => {
    const setup = await registerWith(auth, await fullSession('anna@demo.test'));
    expect(setup.result.recoveryCodes).toBeNull(); // anna has passkeys from the first test
    const raw = await pendingSession('anna@demo.test', 'passkey');
    const { ctx, trpc } = await as(raw);
    // A pending session is signed out to everything else.
    await expect(trpc.passkeys.overview()).rejects.toThrow();
    await expect(trpc.sim.list({})).rejects.toThrow();
    await expect(trpc.passkeys.registrationOptions()).rejects.toThrow();
    const options = await trpc.passkeys.secondFactorOptions();
    expect(options.allowCredentials?.length).toBe(3);
    const response = auth.assert(options);
    await trpc.passkeys.secondFactor({ response });
    const fresh = cookieFrom(ctx)!;
    const session = await findSession(services.orm.em.fork(), fresh);
    expect(session).toMatchObject({ stage: 'full', method: 'link' });
    expect(isSteppedUp(session!)).toBe(true);
    expect(await findSession(services.orm.em.fork(), raw)).toBeNull();
    const stored = await services.orm.em
      .fork()
      .findOneOrFail(Passkey, { credentialId: auth.credentials[0]!.id.toString('base64url') });
    expect(stored.counter).toBe(1);
    expect(stored.lastUsedAt).toBeInstanceOf(Date);

    // The same answer again (replay), on another pending session: refused.
    const again = await as(await pendingSession('anna@demo.test', 'passkey'));
    await again.trpc.passkeys.secondFactorOptions();
    await expect(again.trpc.passkeys.secondFactor({ response })).rejects.toThrow();
    // A full session may not call the pending procedures.
    await expect((await as(fresh)).trpc.passkeys.secondFactorOptions()).rejects.toThrow();
  });

  it('refuses another user’s passkey and a challenge of another purpose', async () => {
    const other = new SoftAuthenticator(services.config.appUrl);
    await registerWith(other, await fullSession('ella@demo.test'));
    const { trpc } = await as(await pendingSession('anna@demo.test', 'passkey'));
    const options = await trpc.passkeys.secondFactorOptions();
    await expect(trpc.passkeys.secondFactor({ response: other.assert(options) })).rejects.toThrow();

    // A register challenge answered as a step-up (adding a passkey needs a recent step-up itself: issue 37).
    const full = await as(await fullSession('anna@demo.test', true));
    const reg = await full.trpc.passkeys.registrationOptions();
    await expect(
      full.trpc.passkeys.stepUp({ response: auth.assert({ challenge: reg.challenge, rpId: reg.rp.id }) }),
    ).rejects.toThrow();
    expect(await auditActions('anna@demo.test')).toContain('stepUpFailed');
  });

  it('step-up marks the session; removing needs it; the last required passkey stays', async () => {
    const raw = await fullSession('anna@demo.test', false);
    const caller = await as(raw);
    const list = await caller.trpc.passkeys.overview();
    await expect(caller.trpc.passkeys.remove({ id: list.passkeys[1]!.id })).rejects.toThrow(/Bekräfta/);
    const options = await caller.trpc.passkeys.stepUpOptions();
    await caller.trpc.passkeys.stepUp({ response: auth.assert(options) });
    const steppedUp = await as(raw);
    expect(isSteppedUp(steppedUp.session!)).toBe(true);
    // One answer sent twice at once: only one is accepted (the challenge row is deleted by exactly one).
    const twice = auth.assert(await caller.trpc.passkeys.stepUpOptions());
    const both = await Promise.allSettled([
      (await as(raw)).trpc.passkeys.stepUp({ response: twice }),
      (await as(raw)).trpc.passkeys.stepUp({ response: twice }),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    // anna need not use passkeys: she may remove even her last.
    for (const p of list.passkeys) await steppedUp.trpc.passkeys.remove({ id: p.id });
    expect((await steppedUp.trpc.passkeys.overview()).passkeys).toEqual([]);
    expect(await auditActions('anna@demo.test')).toContain('passkeyRemoved');

    // The super admin must keep one.
    const admin = await as(await fullSession('admin@demo.test'));
    const own = (await admin.trpc.passkeys.overview()).passkeys;
    expect(own).toHaveLength(1);
    await expect(admin.trpc.passkeys.remove({ id: own[0]!.id })).rejects.toThrow(/minst en inloggningsnyckel/);
    // Nor anyone else's.
    await expect(steppedUp.trpc.passkeys.remove({ id: own[0]!.id })).rejects.toThrow();
  });

  it('signIn (passkey alone): bound to the browser cookie; a removed user never signs in', async () => {
    const passkeyOf = new SoftAuthenticator(services.config.appUrl);
    await registerWith(passkeyOf, await fullSession('ella@demo.test'));
    const browser = await as(null);
    const options = await browser.trpc.passkeys.signInOptions();
    expect(options.allowCredentials ?? []).toEqual([]);
    expect(options.userVerification).toBe('required');
    const binding = readBindingCookie(browser.ctx.resHeaders.get('set-cookie'));
    expect(binding).toBeTruthy();
    const response = passkeyOf.assert(options);
    // Another browser (another binding) cannot use this challenge.
    const thief = await as(null);
    await expect(thief.trpc.passkeys.signIn({ response, binding: 'x'.repeat(43) })).rejects.toThrow();
    const done = await as(null);
    await done.trpc.passkeys.signIn({ response, binding: binding! });
    const session = await findSession(services.orm.em.fork(), cookieFrom(done.ctx)!);
    expect(session).toMatchObject({ stage: 'full', method: 'passkey', email: 'ella@demo.test' });
    await expect((await as(null)).trpc.passkeys.signIn({ response, binding: binding! })).rejects.toThrow();

    await services.orm.em.fork().nativeUpdate(User, { email: 'ella@demo.test' }, { removedAt: new Date() });
    const next = await as(null);
    const o2 = await next.trpc.passkeys.signInOptions();
    await expect(
      next.trpc.passkeys.signIn({
        response: passkeyOf.assert(o2),
        binding: readBindingCookie(next.ctx.resHeaders.get('set-cookie'))!,
      }),
    ).rejects.toThrow();
    await services.orm.em.fork().nativeUpdate(User, { email: 'ella@demo.test' }, { removedAt: null });
  });

  it('signed-out ceremonies are limited per address; expired challenges are swept by the next one', async () => {
    const em = services.orm.em.fork();
    em.create(WebauthnChallenge, {
      challenge: 'old-challenge',
      purpose: 'signIn',
      binding: 'b'.repeat(64),
      user: null,
      expiresAt: new Date(Date.now() - 1000),
    });
    await em.flush();
    let refused: unknown = null;
    for (let i = 0; i < 61 && !refused; i++) {
      refused = await (await as(null, { ip: '10.9.9.9' })).trpc.passkeys.signInOptions().then(
        () => null,
        (e: unknown) => e,
      );
      if (i === 0)
        expect(await services.orm.em.fork().count(WebauthnChallenge, { challenge: 'old-challenge' })).toBe(0);
    }
    expect(String(refused)).toMatch(/För många/);
    // Another address is not affected.
    await (await as(null, { ip: '10.9.9.10' })).trpc.passkeys.signInOptions();
  });

  it('recovery codes: each works once, wrong ones are limited, new ones replace the old', async () => {
    const raw = await fullSession('ella@demo.test');
    const renewed = await (await as(raw)).trpc.passkeys.renewRecoveryCodes();
    codes = renewed.recoveryCodes;
    expect(codes).toHaveLength(10);
    const first = await as(await pendingSession('ella@demo.test', 'passkey'), { ip: '10.0.0.2' });
    await expect(first.trpc.passkeys.recoverySignIn({ code: 'aaaa-bbbb-cccc' })).rejects.toThrow(/stämmer inte/);
    await first.trpc.passkeys.recoverySignIn({ code: codes[0]!.toUpperCase().replace(/-/g, ' ') });
    const session = await findSession(services.orm.em.fork(), cookieFrom(first.ctx)!);
    expect(session).toMatchObject({ stage: 'full', method: 'recovery' });
    expect(await auditActions('ella@demo.test')).toContain('recoveryCodeUsed');
    const second = await as(await pendingSession('ella@demo.test', 'passkey'), { ip: '10.0.0.2' });
    await expect(second.trpc.passkeys.recoverySignIn({ code: codes[0]! })).rejects.toThrow(/stämmer inte/);

    // Step-up with a code on a full session.
    const olderRaw = await fullSession('ella@demo.test', false);
    await (await as(olderRaw, { ip: '10.0.0.2' })).trpc.passkeys.recoveryStepUp({ code: codes[1]! });
    expect(isSteppedUp((await as(olderRaw)).session!)).toBe(true);

    // Wrong codes run out: after the limit even a right one is refused for a while.
    const guesser = await as(await pendingSession('ella@demo.test', 'passkey'), { ip: '10.0.0.3' });
    let limited = false;
    for (let i = 0; i < 12 && !limited; i++) {
      const err = await guesser.trpc.passkeys.recoverySignIn({ code: `zzzz-zzzz-zz${i}z` }).catch((e: Error) => e);
      limited = err instanceof Error && /För många/.test(err.message);
    }
    expect(limited).toBe(true);
    await expect(guesser.trpc.passkeys.recoverySignIn({ code: codes[2]! })).rejects.toThrow(/För många/);

    // Renewing (stepped up) ends the old codes.
    const newer = (await (await as(raw)).trpc.passkeys.renewRecoveryCodes()).recoveryCodes;
    expect(newer).not.toContain(codes[3]);
    expect(
      await services.orm.em.fork().count(RecoveryCode, { user: await userId('ella@demo.test'), usedAt: null }),
    ).toBe(10);
    // Renewing needs a step-up.
    await expect(
      (await as(await fullSession('ella@demo.test', false))).trpc.passkeys.renewRecoveryCodes(),
    ).rejects.toThrow(/Bekräfta/);
  });
});

describe('adding a passkey is a sensitive change (issue 37, finding 1)', () => {
  it('a full session without a recent step-up is refused (403 stepUp); one still registering at sign-in is not', async () => {
    const stale = await as(await fullSession('anna@demo.test', false));
    await expect(stale.trpc.passkeys.registrationOptions()).rejects.toMatchObject({ code: 'FORBIDDEN' });
    const fresh = await as(await fullSession('anna@demo.test', true));
    const options = await fresh.trpc.passkeys.registrationOptions();
    // An answer made on a stepped-up session is refused on the stale one (its own challenge is what counts).
    const auth = new SoftAuthenticator(services.config.appUrl);
    await expect(
      stale.trpc.passkeys.register({ response: auth.register(options), name: 'Tjuv' }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });

  it('a session still registering at sign-in adds no passkey once the user has one (added elsewhere meanwhile)', async () => {
    const em = services.orm.em.fork();
    const demo = await em.findOneOrFail(Company, { customerNumber: '100001' });
    em.create(User, { email: 'nora.ny@demo.test', name: 'Nora Ny', company: demo, role: 'owner' });
    await em.flush();
    const pending = await pendingSession('nora.ny@demo.test', 'register');
    const options = await (await as(pending)).trpc.passkeys.registrationOptions();
    // Meanwhile another, stepped-up session of hers adds her first passkey.
    await registerWith(new SoftAuthenticator(services.config.appUrl), await fullSession('nora.ny@demo.test', true));
    const late = await as(pending);
    await expect(late.trpc.passkeys.registrationOptions()).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(
      late.trpc.passkeys.register({ response: new SoftAuthenticator(services.config.appUrl).register(options) }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect(await services.orm.em.fork().count(Passkey, { user: await userId('nora.ny@demo.test') })).toBe(1);
  });
});
