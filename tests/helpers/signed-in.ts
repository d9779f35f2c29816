// A session as a user has it right after signing in with a passkey: stage full, stepped up now. A user who must
// use passkeys (a super admin, or one of a company that requires them) and has none gets one registered first,
// as the sign-in would have demanded: a stored credential row of a fixture authenticator (it is never asked to
// sign; the passkey tests register and use real credentials in Chromium's virtual authenticator).
import { randomBytes } from 'node:crypto';
import { createSession, type NewSession } from '#server/auth/sessions.ts';
import { Passkey, User } from '#server/db/entities.ts';
import type { Em } from '#server/db/orm.ts';

export type SignInOptions = NewSession & {
  /** false: the session has not used a passkey lately (sensitive changes are refused until it steps up). */
  steppedUp?: boolean;
};

export async function ensureFixturePasskey(em: Em, userId: number): Promise<void> {
  const user = await em.findOneOrFail(User, { id: userId }, { populate: ['company'] });
  if (!user.isSuperAdmin && !user.company.requirePasskeys) return;
  if (await em.count(Passkey, { user: userId })) return;
  em.create(Passkey, {
    user,
    credentialId: randomBytes(32).toString('base64url'),
    publicKey: randomBytes(77).toString('base64url'),
    counter: 0,
    transports: ['internal'],
    deviceType: 'multiDevice',
    backedUp: true,
    name: 'Testnyckel',
  });
  await em.flush();
}

/** Creates the session and answers its raw id for the cookie. */
export async function signedInSession(em: Em, userId: number, opts: SignInOptions = {}): Promise<string> {
  await ensureFixturePasskey(em, userId);
  const { steppedUp = true, ...rest } = opts;
  return createSession(em, userId, {
    method: 'passkey',
    steppedUpAt: steppedUp ? (rest.now ?? new Date()) : null,
    ...rest,
  });
}
