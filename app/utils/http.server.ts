// Small helpers for loaders and actions.
import type { AppLoadContext } from '@remix-run/node';

/** Headers a procedure asked for (Set-Cookie after a session change), to put on the answer. */
export function procedureHeaders(context: AppLoadContext, extra?: Record<string, string>): Headers {
  const headers = new Headers(extra);
  context.ctx.resHeaders.forEach((value, key) => headers.append(key, value));
  return headers;
}

/** A fetch() from script rather than a page navigation (answer JSON or 204 instead of a redirect). */
export function isFetchRequest(request: Request): boolean {
  const mode = request.headers.get('sec-fetch-mode');
  if (mode) return mode !== 'navigate';
  return (request.headers.get('accept') ?? '').includes('application/json');
}
