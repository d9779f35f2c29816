// The sessions a user sees and ends (/security/sessions), and a super admin's view of any user's: list the live
// ones, end one, end all but this one, reset a user's passkeys. Every end deletes the rows, writes `sessionEnded`
// to the audit trail in the same transaction, and then closes the ended sessions' event streams on every instance.
import { UAParser } from 'ua-parser-js';
import { Forbidden, NotFound } from '#domain/errors.ts';
import { tSecurity } from '#domain/texts/security.ts';
import { MAX_SESSIONS_LISTED, SIGN_IN_METHODS, type SessionItem, type SessionList } from '#domain/auth/sessions.ts';
import { Passkey, RecoveryCode, Session, User } from '#server/db/entities.ts';
import type { Em } from '#server/db/orm.ts';
import type { Hub } from '#server/events/hub.ts';
import type { Logger } from '#server/log.ts';
import { recordSecurityEvent } from './security-audit.ts';
import { announceSessionEnded, IDLE_TIMEOUT_MS, type SessionInfo, type SignInMethod } from './sessions.ts';

const s = tSecurity.sessions;

/** Who ends a session: the signed-in user (their own) or a super admin (anyone's). */
type Caller = Pick<SessionInfo, 'id' | 'userId' | 'actingCompanyId'>;
type Announcer = { hub: Hub; log: Logger };

/** "Chrome 131 på macOS" from a User-Agent; the parts it can tell, else "Okänd webbläsare". */
export function browserName(userAgent: string | null): string {
  if (!userAgent) return s.unknownBrowser;
  const { browser, os } = UAParser(userAgent);
  const name = [browser.name, browser.major].filter(Boolean).join(' ');
  const system = [os.name, os.name === 'macOS' ? null : os.version].filter(Boolean).join(' ');
  if (name && system) return s.browserOn(name, system);
  return name || system || s.unknownBrowser;
}

const methodOf = (m: string): SignInMethod =>
  (SIGN_IN_METHODS as readonly string[]).includes(m) ? (m as SignInMethod) : 'link';

/**
 * The user's live, signed-in sessions, the most recently active first, at most MAX_SESSIONS_LISTED; the one with
 * `currentId` is marked. Sessions still signing in, expired or idle ones are not listed.
 */
export async function listSessions(
  em: Em,
  userId: number,
  currentId: string | null,
  now = new Date(),
): Promise<SessionList> {
  const rows = await em.find(
    Session,
    {
      user: userId,
      stage: 'full',
      expiresAt: { $gt: now },
      lastSeenAt: { $gt: new Date(now.getTime() - IDLE_TIMEOUT_MS) },
    },
    { orderBy: { lastSeenAt: 'desc', createdAt: 'desc', id: 'asc' }, limit: MAX_SESSIONS_LISTED + 1 },
  );
  const sessions: SessionItem[] = rows.slice(0, MAX_SESSIONS_LISTED).map((r) => ({
    id: r.id,
    browser: browserName(r.userAgent ?? null),
    ip: r.ip ?? null,
    method: methodOf(r.method),
    createdAt: r.createdAt.toISOString(),
    lastSeenAt: r.lastSeenAt.toISOString(),
    current: r.id === currentId,
  }));
  return { sessions, more: rows.length > MAX_SESSIONS_LISTED };
}

/** The user the sessions belong to (not a removed one): their name for the trail and their company. */
async function targetUser(tx: Em, userId: number): Promise<User> {
  const user = await tx.findOne(User, { id: userId, removedAt: null });
  if (!user) throw new NotFound(s.userNotFound);
  return user;
}

/** Deletes the sessions and writes one `sessionEnded` row each, in the caller's transaction. */
async function endRows(tx: Em, by: Caller, user: User, rows: Session[]): Promise<string[]> {
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  await tx.nativeDelete(Session, { id: { $in: ids } });
  for (const r of rows)
    recordSecurityEvent(tx, {
      action: 'sessionEnded',
      by: { userId: by.userId, actingCompanyId: by.actingCompanyId },
      about: { userId: user.id, companyId: user.company.id },
      details: {
        userName: user.name,
        browser: browserName(r.userAgent ?? null),
        ip: r.ip ?? null,
        method: r.method,
        own: by.userId === user.id,
      },
    });
  await tx.flush();
  return ids;
}

async function announce(services: Announcer, ids: string[]): Promise<void> {
  for (const id of ids) await announceSessionEnded(services, id);
}

/**
 * Ends one session of the user `userId` (the caller's own, or any user's for a super admin's procedure). A session
 * id that is not that user's is "not found", the same as one that does not exist.
 */
export async function endSession(
  services: Announcer,
  em: Em,
  by: Caller,
  userId: number,
  id: string,
): Promise<{ ended: number; current: boolean }> {
  const ids = await em.transactional(async (tx) => {
    const user = await targetUser(tx, userId);
    const row = await tx.findOne(Session, { id, user: userId });
    if (!row) throw new NotFound(s.notFound);
    return endRows(tx, by, user, [row]);
  });
  await announce(services, ids);
  return { ended: ids.length, current: ids.includes(by.id) };
}

/** Ends every session of the caller's user but the caller's own (also ones still signing in). */
export async function endOtherSessions(services: Announcer, em: Em, by: Caller): Promise<{ ended: number }> {
  const ids = await em.transactional(async (tx) => {
    const user = await targetUser(tx, by.userId);
    const rows = await tx.find(Session, { user: by.userId, id: { $ne: by.id } });
    return endRows(tx, by, user, rows);
  });
  await announce(services, ids);
  return { ended: ids.length };
}

/** How many passkeys the user has. */
export function countPasskeys(em: Em, userId: number): Promise<number> {
  return em.count(Passkey, { user: userId });
}

/** The user must exist (not removed) for a super admin to see their sessions. */
export async function ensureUser(em: Em, userId: number): Promise<void> {
  await targetUser(em, userId);
}

/**
 * A super admin resets a user's passkeys (a lost phone): deletes the user's passkeys and recovery codes and ends
 * every session of theirs, so the next sign-in adds a new passkey. One transaction; `passkeysReset` in the trail.
 */
export async function resetPasskeys(
  services: Announcer,
  em: Em,
  by: Caller,
  userId: number,
): Promise<{ passkeys: number; recoveryCodes: number; ended: number; current: boolean }> {
  // A reset is how support restores another user's access; one's own passkeys are managed on "Säkerhet" (a
  // super admin resetting their own would sign themselves out and leave their account without its factor).
  if (userId === by.userId) throw new Forbidden(tSecurity.sessions.resetOwn);
  const result = await em.transactional(async (tx) => {
    const user = await targetUser(tx, userId);
    const passkeys = await tx.nativeDelete(Passkey, { user: userId });
    const recoveryCodes = await tx.nativeDelete(RecoveryCode, { user: userId });
    recordSecurityEvent(tx, {
      action: 'passkeysReset',
      by: { userId: by.userId, actingCompanyId: by.actingCompanyId },
      about: { userId: user.id, companyId: user.company.id },
      details: { userName: user.name, passkeys, recoveryCodes },
    });
    const ids = await endRows(tx, by, user, await tx.find(Session, { user: userId }));
    return { passkeys, recoveryCodes, ids };
  });
  await announce(services, result.ids);
  return {
    passkeys: result.passkeys,
    recoveryCodes: result.recoveryCodes,
    ended: result.ids.length,
    current: result.ids.includes(by.id),
  };
}
