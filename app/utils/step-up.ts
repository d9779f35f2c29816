// Where changes need a step-up (a passkey use within 10 minutes): the layout shows the prompt on these paths to
// an owner or super admin whose session has not stepped up. The procedures refuse regardless (server/trpc/trpc.ts).
export const STEP_UP_PATHS = ['/admin', '/company/users', '/company/api-keys', '/company/webhooks', '/company/sign-in'];

/** /company itself (its settings form) and everything under the prefixes above. */
export function needsStepUpHere(pathname: string): boolean {
  const path = pathname.replace(/\/+$/, '') || '/';
  if (path === '/company') return true;
  return STEP_UP_PATHS.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}

/** The step-up page, coming back here afterwards. */
export function confirmHref(returnTo: string): string {
  return `/security/confirm?redirectTo=${encodeURIComponent(returnTo)}`;
}
