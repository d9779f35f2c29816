// Where changes need a step-up (a passkey use within 10 minutes): the layout shows the prompt on these paths to
// an owner or super admin whose session has not stepped up. The procedures refuse regardless (server/trpc/trpc.ts).
export const STEP_UP_PATHS = [
  '/admin',
  '/company/users',
  '/company/api-keys',
  '/company/webhooks',
  '/company/rules',
  '/company/sign-in',
];

/** What the layout's prompt offers: the user's passkey, or (none yet) the way to add one. */
export type StepUpWanted = 'passkey' | 'none' | false;

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

// A form refused for want of a step-up keeps what was typed in its address (the draft): the page is sent there,
// its loader fills the form from it, and the layout's prompt links to the step-up with that address to come
// back to, so the values survive the step-up page, the e-mail link, adding a passkey and the provider's sign-in,
// with JavaScript or without. Only the fields a page names, never a secret (no page's form has one).
export const DRAFT_FLAG = 'stepUp';

/** The page's address with the refused form's values and the flag that says it was refused. */
export function draftHref(path: string, values: Record<string, string | string[]> = {}): string {
  const query = new URLSearchParams({ [DRAFT_FLAG]: '1' });
  for (const [name, value] of Object.entries(values))
    for (const v of Array.isArray(value) ? value : [value]) if (v) query.append(name, v.slice(0, 2000));
  return `${path}?${query.toString()}`;
}

/** The draft in a page's address: null when the address carries none. */
export function draftOf<K extends string>(url: URL, names: readonly K[]): Record<K, string> | null {
  if (url.searchParams.get(DRAFT_FLAG) !== '1') return null;
  const values = {} as Record<K, string>;
  for (const name of names) values[name] = (url.searchParams.get(name) ?? '').slice(0, 2000);
  return values;
}

/** A list field of the draft (a webhook's events). */
export function draftList(url: URL, name: string): string[] {
  return url.searchParams.get(DRAFT_FLAG) === '1' ? url.searchParams.getAll(name).slice(0, 50) : [];
}
