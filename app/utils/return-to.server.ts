// "Go back one page" without JS: the page the user came from (same origin only), carried in the form.
import { safeRedirectTarget } from './paths.ts';

export function cameFrom(request: Request, fallback: string, not: string[] = []): string {
  const referer = request.headers.get('referer');
  if (!referer) return fallback;
  try {
    const url = new URL(referer);
    if (url.origin !== new URL(request.url).origin) return fallback;
    const path = url.pathname + url.search;
    if (not.includes(url.pathname) || url.pathname.startsWith('/login') || url.pathname.startsWith('/auth/'))
      return fallback;
    return safeRedirectTarget(path, fallback);
  } catch {
    return fallback;
  }
}
