import { listFrom, listHref, withList } from '#app/sims/list-return.ts';

// Where "< Backa" leads: the parent path of the current one.
export function parentPath(pathname: string): string {
  const parts = pathname.replace(/\/+$/, '').split('/').filter(Boolean);
  parts.pop();
  const parent = '/' + parts.join('/');
  // /auth/* (the login link's page) has no page above it but the login.
  return parent === '/auth' ? '/login' : parent;
}

/**
 * "< Backa" of a page: its parent path, and under /sims the list as the user left it (a SIM's page opened from a
 * search carries it as ?list=, app/sims/links.ts), so the search and the page are kept.
 */
export function backHref(pathname: string, search: string): string {
  const parent = parentPath(pathname);
  if (!pathname.startsWith('/sims/')) return parent;
  const list = listFrom(search);
  return parent === '/sims' ? listHref(list) : withList(parent, list);
}

// Any origin serves to resolve a local path; absolute URLs are then only accepted on APP_URL's origin.
const LOCAL_BASE = 'http://portal.invalid';
const SCHEME = /^\s*[a-z][a-z0-9+.-]*:/i;
// C0 controls and DEL, raw or percent-encoded: browsers drop tabs and newlines from URLs, so
// "/%09/evil.example" or "/\t/evil.example" would become "//evil.example" there.
const ENCODED_CONTROL = /%(?:[01][0-9a-f]|7f)/i;
const hasControl = (text: string) =>
  ENCODED_CONTROL.test(text) || [...text].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);

/**
 * The target as a path on the portal (path, query and fragment, normalised), or the fallback.
 * Decided by parsing: resolved against APP_URL it must stay on APP_URL's origin, also once
 * percent-decoded (a later decode must not turn %2F%2F or %5C into another host).
 */
export function safeRedirectTarget(
  target: string | null | undefined,
  fallback = '/',
  appUrl: string = LOCAL_BASE,
): string {
  if (!target || hasControl(target)) return fallback;
  const origin = new URL(appUrl).origin;
  // Only ASCII escapes matter here (slashes, backslashes, controls); a lone % stays as it is.
  const decoded = target.replace(/%([0-7][0-9a-f])/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  if (hasControl(decoded)) return fallback;
  for (const candidate of [target, decoded]) {
    let url: URL;
    try {
      // With a scheme it is read without the base ("https:evil.example" would else pass as a path).
      url = SCHEME.test(candidate) ? new URL(candidate) : new URL(candidate, origin + '/');
    } catch {
      return fallback;
    }
    // A path that starts with // would be read as another host in a Location header.
    if (url.origin !== origin || url.pathname.startsWith('//')) return fallback;
  }
  const url = new URL(target, origin + '/');
  return url.pathname + url.search + url.hash;
}
