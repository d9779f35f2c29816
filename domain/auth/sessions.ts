// The inputs and answers of the sessions a user sees (/security/sessions) and a super admin ends on a user's page.
import { rowId, z } from '#domain/zod.ts';
import { tSecurity } from '#domain/texts/security.ts';

/** The most sessions one list shows (the most recently active first). */
export const MAX_SESSIONS_LISTED = 50;

const notFound = tSecurity.sessions.notFound;
/** A session's row id: the SHA-256 (hex) of its cookie value, never the cookie itself. */
export const sessionId = z.string({ error: notFound }).regex(/^[0-9a-f]{64}$/, { error: notFound });

export const endSessionInput = z.object({ id: sessionId });
export const userSessionsInput = z.object({ userId: rowId(tSecurity.sessions.userNotFound) });
export const endUserSessionInput = z.object({ userId: rowId(tSecurity.sessions.userNotFound), id: sessionId });

export const SIGN_IN_METHODS = ['link', 'passkey', 'sso', 'recovery'] as const;

export const sessionItemOutput = z.object({
  id: z.string(),
  /** "Chrome 131 på macOS", from the User-Agent the session was made with. */
  browser: z.string(),
  ip: z.string().nullable(),
  method: z.enum(SIGN_IN_METHODS),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  /** The caller's own session (this browser). */
  current: z.boolean(),
});
export type SessionItem = z.output<typeof sessionItemOutput>;

export const sessionListOutput = z.object({
  sessions: z.array(sessionItemOutput),
  /** More live sessions than MAX_SESSIONS_LISTED: only the most recently active are listed. */
  more: z.boolean(),
});
export type SessionList = z.output<typeof sessionListOutput>;

export const userSessionsOutput = sessionListOutput.extend({
  userId: z.number(),
  /** How many passkeys the user has (what "Återställ nycklar" removes). */
  passkeys: z.number(),
});

export const endedOutput = z.object({ ended: z.number() });
export const resetPasskeysOutput = z.object({ passkeys: z.number(), recoveryCodes: z.number(), ended: z.number() });
