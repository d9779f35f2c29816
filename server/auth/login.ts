// Login by e-mail link, on remix-auth's EmailLinkStrategy with what it lacks added here:
// links built on APP_URL, sent only to known users, single use (a hash in login_token), rate limits,
// and a confirm step (only a POST logs in, so mail scanners that GET the link do not use it up).
import { defined } from '#domain/defined.ts';
import { createHash } from 'node:crypto';
import { LockMode } from '@mikro-orm/core';
import { createCookieSessionStorage } from '@remix-run/node';
import { Authenticator } from 'remix-auth';
import { EmailLinkStrategy } from 'remix-auth-email-link';
import { LoginToken, Passkey, User, type SessionStage } from '#server/db/entities.ts';
import { recordSecurityEvent } from './security-audit.ts';
import type { Em } from '#server/db/orm.ts';
import { escapeHtml } from '#server/mail/mailer.ts';
import type { Services } from '#server/services.ts';
import { normalizeEmail } from '#server/companies/email.ts';
import { ADDRESS_LIMIT, ADDRESS_SOURCE_LIMIT, IP_LIMIT } from './login-limits.ts';
import { hit } from './rate-limit.ts';
import { createSession } from './sessions.ts';
import { loginLinks } from '#server/metrics.ts';

// The rate limits live in login-limits.ts (the purge reads them too); callers may still take them from here.
export { ADDRESS_LIMIT, ADDRESS_SOURCE_LIMIT, IP_LIMIT };

export const LOGIN_LINK_TTL_MS = 15 * 60 * 1000;
const MAGIC_PATH = '/auth/magic';

export type LinkProblem = 'invalid' | 'expired' | 'used';

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

type Verified = { user: User; redirectTo: string | null };

function authenticatorFor(
  services: Services,
  em: Em,
  onLink: (email: string, link: string, user: User | null) => void,
) {
  const { config } = services;
  // The strategy keeps its link in a session; ours is only ever the server-made request below.
  const storage = createCookieSessionStorage({
    cookie: { name: 'sim_auth', secrets: [config.sessionSecret], httpOnly: true, sameSite: 'lax', path: '/auth' },
  });
  const authenticator = new Authenticator<Verified>(storage);
  authenticator.use(
    new EmailLinkStrategy(
      {
        secret: config.sessionSecret,
        emailField: 'destination',
        callbackURL: MAGIC_PATH,
        linkExpirationTime: LOGIN_LINK_TTL_MS,
        validateSessionMagicLink: false,
        verifyEmailAddress: async () => {},
        sendEmail: async ({ emailAddress, magicLink, user }) => {
          // Keep only the token; the origin is always APP_URL, whatever Host the request had.
          const token = new URL(magicLink).searchParams.get('token') ?? '';
          const link = new URL(MAGIC_PATH, config.appUrl + '/');
          link.searchParams.set('token', token);
          onLink(emailAddress, link.toString(), (user as Verified | null)?.user ?? null);
        },
      },
      async ({ email, form }) => {
        const user = await em.findOne(User, { email: normalizeEmail(email) }, { populate: ['company'] });
        if (!user) throw new Error('unknown user');
        const redirectTo = form.get('redirectTo');
        return { user, redirectTo: typeof redirectTo === 'string' ? redirectTo : null };
      },
    ),
    'email-link',
  );
  return authenticator;
}

function loginMail(link: string, name: string) {
  const minutes = LOGIN_LINK_TTL_MS / 60000;
  const text = `Hej ${name}!\n\nÖppna länken nedan och tryck på "Logga in" för att logga in i SIM-portalen:\n\n${link}\n\nLänken gäller i ${minutes} minuter och kan bara användas en gång.\nHar du inte bett om att logga in kan du bortse från det här meddelandet.\n`;
  const html = `<p>Hej ${escapeHtml(name)}!</p><p>Öppna länken nedan och tryck på "Logga in" för att logga in i SIM-portalen:</p><p><a href="${escapeHtml(link)}">Logga in i SIM-portalen</a></p><p>Länken gäller i ${minutes} minuter och kan bara användas en gång.<br>Har du inte bett om att logga in kan du bortse från det här meddelandet.</p>`;
  return { subject: 'Din inloggningslänk till SIM-portalen', text, html };
}

/**
 * Sends a login link if the address belongs to a user and the rate limits allow it.
 * Answers the same, at once, in every case: the lookup and the mail run after the answer.
 */
export function requestLoginLink(
  services: Services,
  input: { email: string; ip: string; redirectTo?: string | null },
): void {
  const { log } = services;
  const email = normalizeEmail(input.email);
  services.background(async () => {
    const em = services.orm.em.fork();
    // The IP first: a caller over its own limit must not use up (and so lock) another person's address.
    if (!(await hit(em, `login:ip:${input.ip}`, IP_LIMIT))) {
      log.warn({ email, ip: input.ip, limit: 'ip' }, 'login link refused: rate limit');
      loginLinks.inc({ outcome: 'refused', reason: 'ip' });
      return;
    }
    // This source's share of the address before the address's own ceiling: a refused share counts nowhere else.
    if (!(await hit(em, `login:address-source:${email}:${input.ip}`, ADDRESS_SOURCE_LIMIT))) {
      log.warn({ email, ip: input.ip, limit: 'address-source' }, 'login link refused: rate limit');
      loginLinks.inc({ outcome: 'refused', reason: 'address' });
      return;
    }
    if (!(await hit(em, `login:address:${email}`, ADDRESS_LIMIT))) {
      log.warn({ email, ip: input.ip, limit: 'address' }, 'login link refused: rate limit');
      loginLinks.inc({ outcome: 'refused', reason: 'address' });
      return;
    }
    // The mail's sending, started by the strategy's callback and awaited below.
    const mail: { sent?: Promise<void> } = {};
    const authenticator = authenticatorFor(services, em, (to, link, user) => {
      if (!user) return; // unknown address: no token, no mail
      mail.sent = (async () => {
        const token = defined(new URL(link).searchParams.get('token'), 'the token of the login link');
        em.create(LoginToken, {
          tokenHash: hashToken(token),
          email: user.email,
          expiresAt: new Date(Date.now() + LOGIN_LINK_TTL_MS),
        });
        await em.flush();
        const mail = loginMail(link, user.name);
        if (!services.config.smtpUrl) log.info({ to, link }, 'login link (development: no SMTP_URL)');
        try {
          await services.mailer.send({ to: user.email, ...mail });
          loginLinks.inc({ outcome: 'sent', reason: '' });
        } catch (err) {
          loginLinks.inc({ outcome: 'failed', reason: '' });
          log.error({ err, to: user.email }, 'login mail could not be sent');
        }
      })();
    });
    const body = new URLSearchParams({ destination: email });
    if (input.redirectTo) body.set('redirectTo', input.redirectTo);
    const request = new Request(new URL('/auth/login', services.config.appUrl + '/'), {
      method: 'POST',
      body,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        // The strategy wants a host; it is ours, and sendEmail rebuilds the link on APP_URL anyway.
        'x-forwarded-host': new URL(services.config.appUrl).host,
      },
    });
    try {
      await authenticator.authenticate('email-link', request, { successRedirect: '/login' });
    } catch (thrown) {
      if (!(thrown instanceof Response)) throw thrown; // the strategy answers with a redirect
    }
    await mail.sent;
  });
}

/** What a link would do, without using it (for the confirm page). */
export async function checkLoginLink(em: Em, token: string, now = new Date()): Promise<LinkProblem | null> {
  if (!token) return 'invalid';
  const row = await em.findOne(LoginToken, { tokenHash: hashToken(token) });
  if (!row) return 'invalid';
  if (row.usedAt) return 'used';
  if (row.expiresAt.getTime() <= now.getTime()) return 'expired';
  return null;
}

/**
 * Uses a link: marks it used and creates the session in one transaction. A user with a passkey gets a session
 * that still asks for it (stage passkey); one who must have a passkey and has none must add one first (stage
 * register); both expire in 10 minutes and reach nothing else. Everyone else is signed in.
 */
export async function consumeLoginLink(
  services: Services,
  token: string,
  browser: { ip: string; userAgent: string } = { ip: '', userAgent: '' },
): Promise<
  { ok: true; sessionId: string; redirectTo: string | null; stage: SessionStage } | { ok: false; problem: LinkProblem }
> {
  return services.orm.em.fork().transactional(async (tx) => {
    const now = new Date();
    if (!token) return { ok: false, problem: 'invalid' as const };
    const tokenHash = hashToken(token);
    const found = await tx.findOne(LoginToken, { tokenHash });
    if (!found) return { ok: false, problem: 'invalid' as const };
    // Lock all links of the address, in one order: of two links used at once only the first logs in
    // (the other's row is gone when its lock is granted), and the two cannot deadlock.
    const links = await tx.find(
      LoginToken,
      { email: found.email },
      { lockMode: LockMode.PESSIMISTIC_WRITE, orderBy: { id: 'asc' }, refresh: true },
    );
    const row = links.find((l) => l.tokenHash === tokenHash);
    if (!row) return { ok: false, problem: 'invalid' as const };
    if (row.usedAt) return { ok: false, problem: 'used' as const };
    if (row.expiresAt.getTime() <= now.getTime()) return { ok: false, problem: 'expired' as const };
    const authenticator = authenticatorFor(services, tx, () => {});
    const url = new URL(MAGIC_PATH, services.config.appUrl + '/');
    url.searchParams.set('token', token);
    let verified: Verified;
    try {
      verified = await authenticator.authenticate('email-link', new Request(url), {});
    } catch (e) {
      const message = e instanceof Error ? e.message : '';
      return { ok: false, problem: /expired/i.test(message) ? ('expired' as const) : ('invalid' as const) };
    }
    if (verified.user.email !== row.email) return { ok: false, problem: 'invalid' as const };
    row.usedAt = now;
    verified.user.lastLoginAt = now;
    await tx.flush();
    // The user's other unused links stop working: a mail read later, or by someone else, no longer logs in.
    await tx.nativeDelete(LoginToken, { email: row.email, usedAt: null, id: { $ne: row.id } });
    const user = verified.user;
    const stage: SessionStage = (await tx.count(Passkey, { user: user.id }))
      ? 'passkey'
      : user.isSuperAdmin || user.company.requirePasskeys
        ? 'register'
        : 'full';
    if (stage === 'full')
      recordSecurityEvent(tx, {
        action: 'signIn',
        by: null,
        about: { userId: user.id, companyId: user.company.id },
        details: { method: 'link', ip: browser.ip },
      });
    const sessionId = await createSession(tx, user.id, { now, stage, method: 'link', ...browser });
    return { ok: true as const, sessionId, redirectTo: verified.redirectTo, stage };
  });
}
