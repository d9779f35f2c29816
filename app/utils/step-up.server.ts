// Whether the layout should ask this session to step up before changes: an owner (or support acting as one) or a
// super admin without a passkey use in the last 10 minutes (app/utils/step-up.ts says on which paths).
import type { SessionInfo } from '#server/auth/sessions.ts';
import { isSteppedUp } from '#server/auth/sessions.ts';
import { callerRole } from '#domain/companies/kinds.ts';

export function stepUpWanted(session: SessionInfo | null): boolean {
  if (!session) return false;
  return (session.isSuperAdmin || callerRole(session) === 'owner') && !isSteppedUp(session);
}
