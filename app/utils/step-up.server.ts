// Whether the layout should ask this session to step up before changes: an owner (or support acting as one) or a
// super admin without a passkey use in the last 10 minutes (app/utils/step-up.ts says on which paths), and with
// what: their passkey, or (none yet) the e-mail link and a new passkey.
import type { SessionInfo } from '#server/auth/sessions.ts';
import { isSteppedUp } from '#server/auth/sessions.ts';
import { callerRole } from '#domain/companies/kinds.ts';
import { redirect } from '@remix-run/node';
import { tPasskeyPrompt } from '#domain/texts/passkey-prompt.ts';
import { draftHref, type StepUpWanted } from './step-up.ts';

export function stepUpWanted(session: SessionInfo | null): StepUpWanted {
  if (!session) return false;
  if (!(session.isSuperAdmin || callerRole(session) === 'owner') || isSteppedUp(session)) return false;
  return session.hasPasskey ? 'passkey' : 'none';
}

/** A form refused for want of a step-up: back to the page with what was typed (step-up.ts, the draft). */
export function stepUpRedirect(path: string, values: Record<string, string | string[]> = {}): Response {
  return redirect(draftHref(path, values));
}

/** What a page says when its change was refused for want of a step-up (the layout's prompt offers the way). */
export function stepUpRefusal(session: SessionInfo): string {
  return tPasskeyPrompt.stepUp[session.hasPasskey ? 'notDoneHere' : 'notDoneHereNone'];
}
