// Database-backed sessions: the cookie holds a random id, the table holds its SHA-256 and the user.
// Deleting the row ends the session everywhere (logout, revocation).
import { defined } from '#domain/defined.ts';
import { createHash, randomBytes } from 'node:crypto';
import type { Em } from '#server/db/orm.ts';
import { readRow } from '#server/db/prepared.ts';
import { Company, Session, User, type SessionStage, type UserRole } from '#server/db/entities.ts';
import type { Hub, Toast } from '#server/events/hub.ts';
import type { Logger } from '#server/log.ts';

export const IDLE_TIMEOUT_MS = 7 * 24 * 60 * 60 * 1000;
export const ABSOLUTE_TIMEOUT_MS = 30 * 24 * 60 * 60 * 1000;
/** A session that is not yet signed in (a passkey still to use or to add) lives this long. */
export const PENDING_TIMEOUT_MS = 10 * 60 * 1000;
/** Sensitive changes need a passkey use (or provider MFA, or a recovery code) this recent. */
export const STEP_UP_WINDOW_MS = 10 * 60 * 1000;

export type SignInMethod = 'link' | 'passkey' | 'sso' | 'recovery';
// Writing lastSeenAt on every request costs a write per page; once a minute is enough for a 7-day idle timeout.
const TOUCH_AFTER_MS = 60 * 1000;

export type SessionInfo = {
  id: string; // the hash, i.e. the row id
  userId: number;
  name: string;
  email: string;
  companyId: number; // the company the user acts for: the acting company for a super admin, else their own
  ownCompanyId: number;
  companyName: string;
  actingCompanyId: number | null;
  isSuperAdmin: boolean;
  /** The user's role in their own company (a super admin acting for another company acts as its owner). */
  role: UserRole;
  /** role = owner (the spec's flag). */
  isCompanyOwner: boolean;
  expiresAt: Date;
  /** A toast to show once on the next page (set by an action before its redirect). */
  flash: Toast | null;
  /**
   * full: signed in. passkey: the link was used and the user's passkey is still asked. register: the user must
   * add a passkey first (a super admin, or a company requiring them, without one). Only a full session is a
   * session to the procedures and pages (server/trpc/context.ts); the others reach the passkey pages only.
   */
  stage: SessionStage;
  method: SignInMethod;
  /** The session's last passkey use (step-up), or null. */
  steppedUpAt: Date | null;
  /** The user has at least one passkey. */
  hasPasskey: boolean;
  /** The user must use passkeys (a super admin, or a company that requires them). */
  passkeyRequired: boolean;
};

/** Whether the session used a passkey (or equal) recently enough for a sensitive change. */
export function isSteppedUp(session: Pick<SessionInfo, 'steppedUpAt'>, now = new Date()): boolean {
  return session.steppedUpAt !== null && now.getTime() - session.steppedUpAt.getTime() <= STEP_UP_WINDOW_MS;
}

export function cookieName(secure: boolean): string {
  return secure ? '__Host-sim_session' : 'sim_session';
}

export function hashSessionId(raw: string): string {
  return createHash('sha256').update(raw).digest('hex');
}

export function sessionCookie(raw: string, secure: boolean, maxAgeSeconds = ABSOLUTE_TIMEOUT_MS / 1000): string {
  const parts = [
    `${cookieName(secure)}=${raw}`,
    'Path=/',
    'HttpOnly',
    'SameSite=Lax',
    `Max-Age=${Math.floor(maxAgeSeconds)}`,
  ];
  if (secure) parts.push('Secure');
  return parts.join('; ');
}

export function clearSessionCookie(secure: boolean): string {
  return sessionCookie('', secure, 0);
}

export function readSessionCookie(cookieHeader: string | null | undefined, secure: boolean): string | null {
  if (!cookieHeader) return null;
  const name = cookieName(secure);
  for (const part of cookieHeader.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) {
      const value = part.slice(eq + 1).trim();
      return /^[A-Za-z0-9_-]{20,100}$/.test(value) ? value : null;
    }
  }
  return null;
}

/** Creates a session row for the user and returns the raw id for the cookie. */
export type NewSession = {
  actingCompanyId?: number | null;
  now?: Date;
  /** Not full: the session expires in PENDING_TIMEOUT_MS. */
  stage?: SessionStage;
  method?: SignInMethod;
  steppedUpAt?: Date | null;
  /** The browser's User-Agent and address, as the security page shows them. */
  userAgent?: string | null;
  ip?: string | null;
};

export async function createSession(em: Em, userId: number, opts: NewSession = {}): Promise<string> {
  const raw = randomBytes(32).toString('base64url');
  const now = opts.now ?? new Date();
  const stage = opts.stage ?? 'full';
  em.create(Session, {
    id: hashSessionId(raw),
    user: em.getReference(User, userId),
    actingCompany: opts.actingCompanyId ? em.getReference(Company, opts.actingCompanyId) : null,
    createdAt: now,
    lastSeenAt: now,
    expiresAt: new Date(now.getTime() + (stage === 'full' ? ABSOLUTE_TIMEOUT_MS : PENDING_TIMEOUT_MS)),
    stage,
    method: opts.method ?? 'link',
    steppedUpAt: opts.steppedUpAt ?? null,
    userAgent: opts.userAgent?.slice(0, 300) ?? null,
    ip: opts.ip?.slice(0, 64) ?? null,
  });
  await em.flush();
  return raw;
}

// Every request reads its session, so this is one plain query for the fields a request needs, without
// entity hydration (which cost more than the query itself under load).
export const SESSION_SQL = `select s.id, s.data, s.last_seen_at, s.expires_at, s.stage, s.method, s.stepped_up_at,
  u.id as user_id, u.name, u.email, u.is_super_admin, u.role, c.id as company_id, c.name as company_name,
  c.require_passkeys, a.id as acting_id, a.name as acting_name,
  exists (select 1 from passkey k where k.user_id = u.id) as has_passkey
  from app_session s join app_user u on u.id = s.user_id join company c on c.id = u.company_id
  left join company a on a.id = s.acting_company_id where s.id = ? and u.removed_at is null`;

type SessionRow = {
  id: string;
  data: unknown;
  last_seen_at: Date | string;
  expires_at: Date | string;
  user_id: number;
  name: string;
  email: string;
  is_super_admin: boolean;
  role: UserRole;
  company_id: number;
  company_name: string;
  acting_id: number | null;
  acting_name: string | null;
  stage: SessionStage;
  method: SignInMethod;
  stepped_up_at: Date | string | null;
  require_passkeys: boolean;
  has_passkey: boolean;
};

/** Looks up a live session; expired or idle ones are deleted and give null. */
export async function findSession(em: Em, raw: string, now = new Date()): Promise<SessionInfo | null> {
  const row = await readRow<SessionRow>(em, SESSION_SQL, [hashSessionId(raw)]);
  if (!row) return null;
  const lastSeenAt = new Date(row.last_seen_at);
  const expiresAt = new Date(row.expires_at);
  const idle = now.getTime() - lastSeenAt.getTime() > IDLE_TIMEOUT_MS;
  if (idle || expiresAt.getTime() <= now.getTime()) {
    await em.nativeDelete(Session, { id: row.id });
    return null;
  }
  if (now.getTime() - lastSeenAt.getTime() > TOUCH_AFTER_MS) {
    await em.nativeUpdate(Session, { id: row.id }, { lastSeenAt: now });
  }
  // A super admin acting as a company: that company's id and name (the left join finds it, or acting_id is null).
  const acting = row.is_super_admin && row.acting_id !== null ? { id: row.acting_id, name: row.acting_name } : null;
  const passkeyRequired = row.is_super_admin || row.require_passkeys;
  const data = (typeof row.data === 'string' ? JSON.parse(row.data) : row.data) as { flash?: Toast } | null;
  return {
    id: row.id,
    userId: row.user_id,
    name: row.name,
    email: row.email,
    companyId: acting ? acting.id : row.company_id,
    ownCompanyId: row.company_id,
    companyName: acting ? defined(acting.name, "the acting company's name") : row.company_name,
    actingCompanyId: acting ? acting.id : null,
    isSuperAdmin: row.is_super_admin,
    role: row.role,
    isCompanyOwner: row.role === 'owner',
    expiresAt,
    flash: data?.flash ?? null,
    // A super admin (or a user of a company requiring passkeys) without one adds one before anything else,
    // also when the requirement came after the session was signed in.
    stage: row.stage === 'full' && passkeyRequired && !row.has_passkey ? 'register' : row.stage,
    method: row.method,
    steppedUpAt: row.stepped_up_at ? new Date(row.stepped_up_at) : null,
    hasPasskey: row.has_passkey,
    passkeyRequired,
  };
}

export async function deleteSession(em: Em, id: string): Promise<void> {
  await em.nativeDelete(Session, { id });
}

/**
 * Closes the event streams of a session that was deleted, on every server instance (through the hub). Takes the
 * services' hub and log only, so this module does not depend on services.ts (which builds the purge and streams).
 */
export async function announceSessionEnded(services: { hub: Hub; log: Logger }, id: string): Promise<void> {
  // The session is already gone; a failing event channel must not fail the logout or switch that succeeded.
  await services.hub
    .publish({ kind: 'sessionEnded', sessionId: id })
    .catch((err) => services.log.warn({ err }, 'session end not published'));
}

/**
 * A new session id for the same user (switching company, finishing a sign-in with a passkey): the old id stops
 * working. The new one keeps the old one's method, step-up, browser and address unless `changes` says otherwise.
 */
export async function rotateSession(
  em: Em,
  oldId: string,
  userId: number,
  actingCompanyId: number | null,
  changes: Omit<NewSession, 'actingCompanyId'> = {},
): Promise<string> {
  const old = await em.findOne(Session, { id: oldId });
  await em.nativeDelete(Session, { id: oldId });
  return createSession(em, userId, {
    actingCompanyId,
    method: (old?.method as SignInMethod | undefined) ?? 'link',
    steppedUpAt: old?.steppedUpAt ?? null,
    userAgent: old?.userAgent ?? null,
    ip: old?.ip ?? null,
    ...changes,
  });
}

/** Records a passkey use (or equal) on the session: sensitive changes are allowed for STEP_UP_WINDOW_MS. */
export async function markSteppedUp(em: Em, id: string, now = new Date()): Promise<void> {
  await em.nativeUpdate(Session, { id }, { steppedUpAt: now });
}

export async function setFlash(em: Em, id: string, toast: Toast | null): Promise<void> {
  await em.nativeUpdate(Session, { id }, { data: toast ? { flash: toast } : null });
}
