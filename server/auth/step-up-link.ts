// The step-up by e-mail link, for a signed-in user who has no passkey yet: the mailbox they sign in with proves it
// is them, as a fresh sign-in would. The link is a login link's row (login_token: a hash, an expiry, used once)
// whose hash is taken over this session's id as well as the token: it never signs anyone in (the login's lookup
// hashes the token alone), and it works only in the session that asked for it. Using it steps the session up
// for 10 minutes, like a passkey use; the page then offers to add a passkey (docs/decisions/030).
import { randomBytes } from 'node:crypto';
import { LockMode } from '@mikro-orm/core';
import { Invalid } from '#domain/errors.ts';
import { tSecurity } from '#domain/texts/security.ts';
import { LoginToken } from '#server/db/entities.ts';
import type { Em } from '#server/db/orm.ts';
import { sendSecurityMail, stepUpLinkMail } from '#server/mail/security-mails.ts';
import type { Services } from '#server/services.ts';
import { hashToken } from './login.ts';
import { hit, type Limit } from './rate-limit.ts';
import { recordSecurityEvent } from './security-audit.ts';
import { markSteppedUp, STEP_UP_WINDOW_MS, type SessionInfo } from './sessions.ts';

export const STEP_UP_LINK_TTL_MS = STEP_UP_WINDOW_MS;
export const STEP_UP_LINK_PATH = '/security/confirm/link';
/** Links asked for per user (each is a mail). */
export const STEP_UP_LINK_LIMIT: Limit = { max: 5, windowMs: 15 * 60 * 1000 };
const p = tSecurity.stepUpPrompt.linkProblem;

const linkHash = (sessionId: string, token: string) => hashToken(`step-up:${sessionId}:${token}`);

/** Mails the session's user a step-up link. Only for a user without a passkey (one who has one uses it). */
export async function requestStepUpLink(services: Services, em: Em, session: SessionInfo): Promise<void> {
  if (session.hasPasskey) throw new Invalid(p.hasPasskey);
  if (!(await hit(em, `step-up-link:${session.userId}`, STEP_UP_LINK_LIMIT))) throw new Invalid(p.tooMany);
  const token = randomBytes(32).toString('base64url');
  em.create(LoginToken, {
    tokenHash: linkHash(session.id, token),
    email: session.email,
    expiresAt: new Date(Date.now() + STEP_UP_LINK_TTL_MS),
  });
  await em.flush();
  const link = new URL(STEP_UP_LINK_PATH, services.config.appUrl + '/');
  link.searchParams.set('token', token);
  if (!services.config.smtpUrl) services.log.info({ link: link.toString() }, 'step-up link (development: no SMTP_URL)');
  const mail = stepUpLinkMail(session, link.toString(), STEP_UP_LINK_TTL_MS / 60000);
  sendSecurityMail(services, mail, 'step-up link');
}

/** Uses a step-up link in the session that asked for it: once, within its 10 minutes. A refusal is in the trail. */
export async function stepUpWithLink(em: Em, session: SessionInfo, token: string): Promise<void> {
  if (session.hasPasskey) throw new Invalid(p.hasPasskey);
  const ok = await em.transactional(async (tx) => {
    const now = new Date();
    const about = { userId: session.userId, companyId: session.ownCompanyId };
    const row = /^[A-Za-z0-9_-]{43}$/.test(token)
      ? await tx.findOne(
          LoginToken,
          { tokenHash: linkHash(session.id, token) },
          { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
        )
      : null;
    if (!row || row.usedAt || row.expiresAt.getTime() <= now.getTime() || row.email !== session.email) {
      recordSecurityEvent(tx, { action: 'stepUpFailed', by: null, about, details: { method: 'emailLink' } });
      await tx.flush();
      return false;
    }
    row.usedAt = now;
    recordSecurityEvent(tx, { action: 'stepUpByEmail', by: null, about });
    await tx.flush();
    await markSteppedUp(tx, session.id, now);
    return true;
  });
  if (!ok) throw new Invalid(p.invalid);
}
