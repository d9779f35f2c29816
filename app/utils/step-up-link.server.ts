// Where a user without a passkey goes back to after the step-up link from their e-mail: a short-lived cookie of
// this browser (the link works only in the session that asked for it), so the address, with a refused form's
// values in it, never goes into a mail. Read (and checked again as a same-site path) when the link is used.
import { STEP_UP_LINK_TTL_MS } from '#server/auth/step-up-link.ts';
import { isSteppedUp, type SessionInfo } from '#server/auth/sessions.ts';

const COOKIE = 'sim_step_up_return';

export function stepUpReturnCookie(
  target: string,
  secure: boolean,
  maxAgeSeconds = STEP_UP_LINK_TTL_MS / 1000,
): string {
  const parts = [
    `${COOKIE}=${encodeURIComponent(target)}`,
    'Path=/security',
    'HttpOnly',
    'SameSite=Lax',
    `Max-Age=${maxAgeSeconds}`,
  ];
  if (secure) parts.push('Secure');
  return parts.join('; ');
}

export function clearStepUpReturnCookie(secure: boolean): string {
  return stepUpReturnCookie('', secure, 0);
}

/** The target the cookie holds (unchecked: the caller passes it through safeRedirectTarget), or null. */
export function readStepUpReturn(cookieHeader: string | null): string | null {
  for (const part of (cookieHeader ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === COOKIE) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim()).slice(0, 4000) || null;
      } catch {
        return null;
      }
    }
  }
  return null;
}

/** Whether the session may make sensitive changes now (a passkey, recovery code, provider or e-mail link use). */
export function steppedUp(session: Pick<SessionInfo, 'steppedUpAt'>): boolean {
  return isSteppedUp(session);
}
