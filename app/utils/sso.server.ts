// Single sign-on in the login doors: the browser binding cookie of a sign-in through a company's provider.
import type { AppLoadContext } from '@remix-run/node';
import { readBindingCookie } from '#server/auth/sso.ts';

export function ssoBinding(request: Request, context: AppLoadContext): string | null {
  return readBindingCookie(request.headers.get('cookie'), context.services.config.secureCookies);
}
