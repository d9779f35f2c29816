// Long: four WebAuthn ceremonies share the challenge rows, the binding cookie and the verification.
// Passkeys (WebAuthn) with @simplewebauthn/server: adding one (register), signing in with one alone (signIn), the
// passkey after the e-mail link (secondFactor) and confirming a sensitive change (stepUp). Every ceremony's
// challenge is a row bound to the session (or a signed-out browser's binding cookie) and its purpose; it lives
// 5 minutes and is deleted in the transaction that verifies the answer, so an answer is never accepted twice.
// Long on purpose: the four ceremonies share the challenge store, the verification and the session changes, and
// reading them side by side is how a reviewer checks that none of them skips a step.
import { createHash, createHmac, randomBytes } from 'node:crypto';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { LockMode } from '@mikro-orm/core';
import { Forbidden, Invalid, NotFound, StepUpRequired } from '#domain/errors.ts';
import { t as common } from '#domain/texts/common.ts';
import { tSecurity } from '#domain/texts/security.ts';
import { Passkey, User, WebauthnChallenge } from '#server/db/entities.ts';
import type { Em } from '#server/db/orm.ts';
import type { Config } from '#server/config.ts';
import { recoveryTryAllowed, replaceRecoveryCodes, unusedRecoveryCodes, useRecoveryCode } from './recovery-codes.ts';
import { hit, type Limit } from './rate-limit.ts';
import { recordSecurityEvent } from './security-audit.ts';
import {
  createSession,
  isSteppedUp,
  markSteppedUp,
  rotateSession,
  type SessionInfo,
  type SignInMethod,
} from './sessions.ts';

export type CeremonyPurpose = 'register' | 'signIn' | 'secondFactor' | 'stepUp';
export const CHALLENGE_TTL_MS = 5 * 60 * 1000;
export const RP_NAME = 'SIM-portalen';
/** COSE algorithms offered and accepted: EdDSA, ES256, RS256. */
export const SUPPORTED_ALGORITHMS = [-8, -7, -257];
export const BINDING_COOKIE = 'sim_webauthn';
/** Signed-out sign-in ceremonies begun per client address (each stores a challenge row). */
export const SIGN_IN_OPTIONS_LIMIT: Limit = { max: 60, windowMs: 15 * 60 * 1000 };
const t = tSecurity.passkeys;

/** The relying party: APP_URL's host name and origin (the browser checks both against the page). */
export function relyingParty(config: Pick<Config, 'appUrl'>): { rpID: string; origin: string } {
  const url = new URL(config.appUrl);
  return { rpID: url.hostname, origin: url.origin };
}

// A signed-out browser's binding: a random cookie, of which the challenge row keeps the SHA-256.
export function hashBinding(raw: string): string {
  return createHash('sha256').update(raw).digest('hex');
}

export function newBrowserBinding(): { raw: string; hash: string } {
  const raw = randomBytes(32).toString('base64url');
  return { raw, hash: hashBinding(raw) };
}

export function bindingCookie(raw: string, secure: boolean): string {
  const parts = [
    `${BINDING_COOKIE}=${raw}`,
    'Path=/',
    'HttpOnly',
    'SameSite=Lax',
    `Max-Age=${CHALLENGE_TTL_MS / 1000}`,
  ];
  if (secure) parts.push('Secure');
  return parts.join('; ');
}

export function clearBindingCookie(secure: boolean): string {
  return bindingCookie('', secure).replace(/Max-Age=\d+/, 'Max-Age=0');
}

export function readBindingCookie(cookieHeader: string | null | undefined): string | null {
  for (const part of (cookieHeader ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === BINDING_COOKIE) {
      const value = part.slice(eq + 1).trim();
      return /^[A-Za-z0-9_-]{43}$/.test(value) ? value : null;
    }
  }
  return null;
}

// The WebAuthn user handle: stable per user, not their row id in the clear.
function userHandle(config: Pick<Config, 'sessionSecret'>, userId: number): Uint8Array<ArrayBuffer> {
  return new Uint8Array(createHmac('sha256', config.sessionSecret).update(`passkey-user:${userId}`).digest());
}

async function saveChallenge(
  em: Em,
  challenge: string,
  purpose: CeremonyPurpose,
  binding: string,
  userId: number | null,
  now = new Date(),
): Promise<void> {
  // Ceremonies begun and never finished leave their rows: every new one sweeps the expired (an index on expiresAt),
  // so the table holds at most the last 5 minutes' challenges.
  await em.nativeDelete(WebauthnChallenge, { expiresAt: { $lte: now } });
  em.create(WebauthnChallenge, {
    challenge,
    purpose,
    binding,
    user: userId === null ? null : em.getReference(User, userId),
    expiresAt: new Date(now.getTime() + CHALLENGE_TTL_MS),
  });
  await em.flush();
}

/** The challenge the browser signed, read from the answer's client data (verified again by the library). */
function challengeOf(response: { response: { clientDataJSON: string } }): string | null {
  try {
    const data = JSON.parse(Buffer.from(response.response.clientDataJSON, 'base64url').toString('utf8')) as {
      challenge?: unknown;
    };
    return typeof data.challenge === 'string' && data.challenge.length <= 100 ? data.challenge : null;
  } catch {
    return null;
  }
}

/**
 * Takes (deletes) the challenge the answer was made for, if it was given to this binding for this purpose and has
 * not expired. Of two requests with one answer only one deletes the row: the other finds nothing.
 */
async function takeChallenge(
  tx: Em,
  response: { response: { clientDataJSON: string } },
  purpose: CeremonyPurpose,
  binding: string,
  now: Date,
): Promise<WebauthnChallenge | null> {
  const challenge = challengeOf(response);
  const row = challenge ? await tx.findOne(WebauthnChallenge, { challenge, purpose, binding }) : null;
  if (!row) return null;
  const deleted = await tx.nativeDelete(WebauthnChallenge, { challenge: row.challenge });
  return deleted === 1 && row.expiresAt.getTime() > now.getTime() ? row : null;
}

// ---- register ----

/**
 * Who may add a passkey: a session that must add its first one to finish signing in (stage register), or a full
 * session that has stepped up within 10 minutes, like any sensitive change (a new passkey signs in alone later,
 * so a stolen cookie must not be able to add one). A user without a passkey steps up by an e-mail link
 * (step-up-link.ts) or the company's provider with MFA.
 */
function mayRegister(session: SessionInfo): void {
  if (session.stage === 'passkey') throw new Forbidden(t.notSignedIn);
  // Stage register is for a user's FIRST passkey; once one exists (added elsewhere meanwhile), it is signed in with.
  if (session.stage === 'register' && session.hasPasskey) throw new Forbidden(t.notSignedIn);
  if (session.stage === 'full' && !isSteppedUp(session))
    throw new StepUpRequired(session.hasPasskey ? tSecurity.stepUp.toAdd : tSecurity.stepUp.toAddNone);
}

/** Options to add a passkey: a stepped-up full session, or one that must add its first passkey (stage register). */
export async function registrationOptions(
  config: Config,
  em: Em,
  session: SessionInfo,
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  mayRegister(session);
  const { rpID } = relyingParty(config);
  const existing = await em.find(Passkey, { user: session.userId }, { orderBy: { id: 'asc' } });
  const options = await generateRegistrationOptions({
    rpName: RP_NAME,
    rpID,
    userName: session.email,
    userDisplayName: session.name,
    userID: userHandle(config, session.userId),
    timeout: CHALLENGE_TTL_MS,
    attestationType: 'none',
    excludeCredentials: existing.map((p) => ({ id: p.credentialId, transports: p.transports })),
    authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'required' },
    // The established algorithms only: the library would put ML-DSA-44 first where Node offers it (still
    // experimental there), and an authenticator taking it answers with signatures of 2.4 kB.
    supportedAlgorithmIDs: SUPPORTED_ALGORITHMS,
  });
  await saveChallenge(em, options.challenge, 'register', session.id, session.userId);
  return options;
}

export type Registered = {
  name: string;
  /** The user's first passkey: the recovery codes, to show once. */
  recoveryCodes: string[] | null;
  /** A session that had to add a passkey is signed in now: its new id (the old one stops working). */
  newSession: string | null;
};

export async function finishRegistration(
  config: Config,
  em: Em,
  session: SessionInfo,
  response: RegistrationResponseJSON,
  requestedName: string,
  ip: string,
): Promise<Registered> {
  mayRegister(session);
  const { rpID, origin } = relyingParty(config);
  return em
    .transactional(async (tx) => {
      const now = new Date();
      // A failed verification still uses the challenge up: it is deleted before anything is checked.
      const row = await takeChallenge(tx, response, 'register', session.id, now);
      if (!row) return { failed: 'expired' as const };
      const verification = await verifyRegistrationResponse({
        response,
        expectedChallenge: row.challenge,
        expectedOrigin: origin,
        expectedRPID: rpID,
        requireUserVerification: true,
        supportedAlgorithmIDs: SUPPORTED_ALGORITHMS,
      }).catch(() => null);
      if (!verification?.verified) return { failed: true as const };
      const info = verification.registrationInfo;
      if (await tx.count(Passkey, { credentialId: info.credential.id })) return { failed: 'duplicate' as const };
      const count = await tx.count(Passkey, { user: session.userId });
      const name = requestedName.trim().slice(0, 100) || t.defaultName(count + 1);
      const user = await tx.findOneOrFail(User, { id: session.userId }, { populate: ['company'] });
      tx.create(Passkey, {
        user,
        credentialId: info.credential.id,
        publicKey: Buffer.from(info.credential.publicKey).toString('base64url'),
        counter: info.credential.counter,
        transports: (response.response.transports ?? []).slice(0, 10),
        deviceType: info.credentialDeviceType,
        backedUp: info.credentialBackedUp,
        name,
        createdAt: now,
        lastUsedAt: null,
      });
      const about = { userId: user.id, companyId: user.company.id };
      const by = { userId: user.id, actingCompanyId: null };
      recordSecurityEvent(tx, { action: 'passkeyAdded', by, about, details: { name } });
      let recoveryCodes: string[] | null = null;
      if (count === 0) {
        recoveryCodes = await replaceRecoveryCodes(tx, user.id);
        recordSecurityEvent(tx, { action: 'recoveryCodesCreated', by, about });
      }
      let newSession: string | null = null;
      if (session.stage === 'register') {
        // Stored as full already when the requirement came after the sign-in: only the id is new then.
        newSession = await rotateSession(tx, session.id, user.id, session.actingCompanyId, {
          stage: 'full',
          steppedUpAt: now,
        });
        recordSecurityEvent(tx, { action: 'signIn', by: null, about, details: { method: session.method, ip } });
      }
      await tx.flush();
      return { failed: false as const, registered: { name, recoveryCodes, newSession } };
    })
    .then((result) => {
      if (result.failed === 'duplicate') throw new Invalid(t.alreadyAdded);
      if (result.failed === 'expired') throw new Invalid(t.expired);
      if (result.failed) throw new Invalid(t.failed);
      return result.registered;
    });
}

// ---- authentication: signIn, secondFactor, stepUp ----

/** Options to use a passkey. signIn: any discoverable passkey of this site; else one of the session user's. */
export async function authenticationOptions(
  config: Config,
  em: Em,
  purpose: Exclude<CeremonyPurpose, 'register'>,
  binding: string,
  userId: number | null,
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const { rpID } = relyingParty(config);
  const own = userId === null ? [] : await em.find(Passkey, { user: userId }, { orderBy: { id: 'asc' } });
  if (userId !== null && !own.length) throw new NotFound(t.notFound);
  const options = await generateAuthenticationOptions({
    rpID,
    timeout: CHALLENGE_TTL_MS,
    userVerification: 'required',
    allowCredentials: own.map((p) => ({ id: p.credentialId, transports: p.transports })),
  });
  await saveChallenge(em, options.challenge, purpose, binding, userId);
  return options;
}

/** signIn's options for a signed-out browser, bound to its new binding (hash); limited per client address. */
export async function signInOptions(
  config: Config,
  em: Em,
  bindingHash: string,
  ip: string,
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  if (!(await hit(em, `passkey:sign-in:${ip}`, SIGN_IN_OPTIONS_LIMIT)))
    throw new Invalid(common.errors.byCode.TOO_MANY_REQUESTS);
  return authenticationOptions(config, em, 'signIn', bindingHash, null);
}

/**
 * Verifies a passkey answer in the caller's transaction: takes the challenge, checks the signature with the stored
 * key, and records the use (counter, backup state, last use). `userId`: the passkey must be this user's. Answers
 * the passkey's user, or null when the answer does not verify (the challenge is used up either way).
 */
async function verifyAssertion(
  config: Config,
  tx: Em,
  purpose: Exclude<CeremonyPurpose, 'register'>,
  binding: string,
  response: AuthenticationResponseJSON,
  userId: number | null,
  now: Date,
): Promise<User | null> {
  const { rpID, origin } = relyingParty(config);
  const row = await takeChallenge(tx, response, purpose, binding, now);
  if (!row) return null;
  const passkey = await tx.findOne(
    Passkey,
    { credentialId: String(response.id).slice(0, 1400) },
    {
      populate: ['user', 'user.company'],
    },
  );
  if (!passkey) return null;
  if (userId !== null && passkey.user.id !== userId) return null;
  if (row.user && row.user.id !== passkey.user.id) return null;
  const verification = await verifyAuthenticationResponse({
    response,
    expectedChallenge: row.challenge,
    expectedOrigin: origin,
    expectedRPID: rpID,
    requireUserVerification: true,
    credential: {
      id: passkey.credentialId,
      publicKey: new Uint8Array(Buffer.from(passkey.publicKey, 'base64url')),
      counter: passkey.counter,
      transports: passkey.transports,
    },
  }).catch(() => null);
  if (!verification?.verified) return null;
  passkey.counter = verification.authenticationInfo.newCounter;
  passkey.backedUp = verification.authenticationInfo.credentialBackedUp;
  passkey.deviceType = verification.authenticationInfo.credentialDeviceType;
  passkey.lastUsedAt = now;
  return passkey.user;
}

/** signIn: a signed-out browser's passkey answer. Answers the new full session's id. */
export async function signInWithPasskey(
  config: Config,
  em: Em,
  bindingHash: string,
  response: AuthenticationResponseJSON,
  browser: { ip: string; userAgent: string },
): Promise<string> {
  const raw = await em.transactional(async (tx) => {
    const now = new Date();
    const user = await verifyAssertion(config, tx, 'signIn', bindingHash, response, null, now);
    // A removed user keeps no way in, passkey or not.
    if (!user || user.removedAt) return null;
    user.lastLoginAt = now;
    recordSecurityEvent(tx, {
      action: 'signIn',
      by: null,
      about: { userId: user.id, companyId: user.company.id },
      details: { method: 'passkey', ip: browser.ip },
    });
    await tx.flush();
    return createSession(tx, user.id, { now, stage: 'full', method: 'passkey', steppedUpAt: now, ...browser });
  });
  if (!raw) throw new Invalid(tSecurity.signIn.failed);
  return raw;
}

function requirePending(pending: SessionInfo | null, stage: 'passkey' | 'register'): SessionInfo {
  if (!pending || pending.stage !== stage) throw new Forbidden(t.notSignedIn);
  return pending;
}

/** secondFactor: the pending session's passkey after the e-mail link. Answers the full session's new id. */
export async function confirmSignIn(
  config: Config,
  em: Em,
  pending: SessionInfo | null,
  response: AuthenticationResponseJSON,
  ip: string,
): Promise<string> {
  const session = requirePending(pending, 'passkey');
  const raw = await em.transactional(async (tx) => {
    const now = new Date();
    const user = await verifyAssertion(config, tx, 'secondFactor', session.id, response, session.userId, now);
    if (!user) return null;
    return finishPendingSignIn(tx, session, user, session.method, ip, now);
  });
  if (!raw) throw new Invalid(t.failed);
  return raw;
}

async function finishPendingSignIn(
  tx: Em,
  session: SessionInfo,
  user: User,
  method: SignInMethod,
  ip: string,
  now: Date,
): Promise<string> {
  recordSecurityEvent(tx, {
    action: 'signIn',
    by: null,
    about: { userId: user.id, companyId: user.company.id },
    details: { method, ip },
  });
  await tx.flush();
  return rotateSession(tx, session.id, user.id, session.actingCompanyId, { stage: 'full', steppedUpAt: now, method });
}

/** stepUp: a full session's passkey use before a sensitive change. A failed one is in the audit trail. */
export async function stepUpWithPasskey(
  config: Config,
  em: Em,
  session: SessionInfo,
  response: AuthenticationResponseJSON,
): Promise<void> {
  const ok = await em.transactional(async (tx) => {
    const now = new Date();
    const user = await verifyAssertion(config, tx, 'stepUp', session.id, response, session.userId, now);
    if (!user) {
      recordSecurityEvent(tx, {
        action: 'stepUpFailed',
        by: null,
        about: { userId: session.userId, companyId: session.ownCompanyId },
        details: { method: 'passkey' },
      });
      return false;
    }
    await tx.flush();
    await markSteppedUp(tx, session.id, now);
    return true;
  });
  if (!ok) throw new Invalid(tSecurity.stepUp.failed);
}

// ---- recovery codes ----

/** A recovery code instead of the passkey after the e-mail link. Answers the full session's new id. */
export async function signInWithRecoveryCode(
  em: Em,
  pending: SessionInfo | null,
  code: string,
  ip: string,
): Promise<string> {
  const session = requirePending(pending, 'passkey');
  if (!(await recoveryTryAllowed(em, session.userId, ip))) throw Invalid.field('code', tSecurity.recovery.tooMany);
  const raw = await em.transactional(async (tx) => {
    const now = new Date();
    if (!(await useRecoveryCode(tx, session.userId, code, now))) return null;
    const user = await tx.findOneOrFail(User, { id: session.userId }, { populate: ['company'] });
    recordSecurityEvent(tx, {
      action: 'recoveryCodeUsed',
      by: null,
      about: { userId: user.id, companyId: user.company.id },
    });
    return finishPendingSignIn(tx, session, user, 'recovery', ip, now);
  });
  if (!raw) throw Invalid.field('code', tSecurity.recovery.wrong);
  return raw;
}

/** A recovery code as a full session's step-up. */
export async function stepUpWithRecoveryCode(em: Em, session: SessionInfo, code: string, ip: string): Promise<void> {
  if (!(await recoveryTryAllowed(em, session.userId, ip))) throw Invalid.field('code', tSecurity.recovery.tooMany);
  const ok = await em.transactional(async (tx) => {
    const now = new Date();
    const ok = await useRecoveryCode(tx, session.userId, code, now);
    const about = { userId: session.userId, companyId: session.ownCompanyId };
    if (ok) {
      recordSecurityEvent(tx, { action: 'recoveryCodeUsed', by: null, about });
      await tx.flush();
      await markSteppedUp(tx, session.id, now);
    } else {
      recordSecurityEvent(tx, { action: 'stepUpFailed', by: null, about, details: { method: 'recovery' } });
      await tx.flush();
    }
    return ok;
  });
  if (!ok) throw Invalid.field('code', tSecurity.recovery.wrong);
}

/** New recovery codes (a step-up first): the old ones stop working; the new ones are shown once. */
export async function renewRecoveryCodes(em: Em, session: SessionInfo): Promise<string[]> {
  if (!isSteppedUp(session)) throw new StepUpRequired(tSecurity.stepUp.required);
  return em.transactional(async (tx) => {
    const codes = await replaceRecoveryCodes(tx, session.userId);
    recordSecurityEvent(tx, {
      action: 'recoveryCodesCreated',
      by: { userId: session.userId, actingCompanyId: null },
      about: { userId: session.userId, companyId: session.ownCompanyId },
    });
    await tx.flush();
    return codes;
  });
}

// ---- the list on /security ----

export type PasskeyRow = {
  id: number;
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  backedUp: boolean;
  deviceType: string;
};

export async function securityOverview(
  em: Em,
  userId: number,
): Promise<{ passkeys: PasskeyRow[]; recoveryCodesLeft: number }> {
  const rows = await em.find(Passkey, { user: userId }, { orderBy: { createdAt: 'asc', id: 'asc' } });
  return {
    passkeys: rows.map((p) => ({
      id: p.id,
      name: p.name,
      createdAt: p.createdAt,
      lastUsedAt: p.lastUsedAt ?? null,
      backedUp: p.backedUp,
      deviceType: p.deviceType,
    })),
    recoveryCodesLeft: await unusedRecoveryCodes(em, userId),
  };
}

/** Removes one of the session user's passkeys (after a step-up); never the last one of a user who must have one. */
export async function removePasskey(em: Em, session: SessionInfo, passkeyId: number): Promise<string> {
  if (!isSteppedUp(session)) throw new StepUpRequired(tSecurity.stepUp.required);
  return em.transactional(async (tx) => {
    // The user's row locked: two removals at once cannot both see a second passkey and leave none.
    await tx.findOneOrFail(User, { id: session.userId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    const passkey = await tx.findOne(Passkey, { id: passkeyId, user: session.userId });
    if (!passkey) throw new NotFound(t.notFound);
    if (session.passkeyRequired && (await tx.count(Passkey, { user: session.userId })) <= 1)
      throw new Invalid(t.lastRequired);
    const name = passkey.name;
    tx.remove(passkey);
    recordSecurityEvent(tx, {
      action: 'passkeyRemoved',
      by: { userId: session.userId, actingCompanyId: null },
      about: { userId: session.userId, companyId: session.ownCompanyId },
      details: { name },
    });
    await tx.flush();
    return name;
  });
}
