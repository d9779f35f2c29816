// The REST door's caller: `Authorization: Bearer <key>` makes the request an API key's, looked up
// (with its rate limit) before any procedure runs; without that header the session cookie counts, as before.
// Only the REST paths (and the list export) take keys: /api/trpc, the event stream and the pages never do.
import type { Request } from 'express';
import { tApiKeys } from '#domain/texts/api-keys.ts';
import { cookieName } from '#server/auth/sessions.ts';
import { Invalid, Unauthenticated } from '#domain/errors.ts';
import type { Services } from '#server/services.ts';
import { createContext, createContextInner, type Context } from '#server/trpc/context.ts';
import { ApiKeyLimiter, lookUpApiKey } from '#server/api-keys/keys.ts';

// One per server instance: the per-key counts it has not yet added to the shared row.
const limiter = new ApiKeyLimiter();

/** A key over its requests per minute: 429 with Retry-After (the seconds left of its window). */
export class ApiKeyRateLimited extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super(tApiKeys.errors.rateLimited(retryAfterSeconds));
  }
}

/** The request carries our session cookie (whatever its value). */
function hasSessionCookie(services: Services, cookie: string | undefined): boolean {
  if (!cookie) return false;
  const name = cookieName(services.config.secureCookies);
  return cookie.split(';').some((part) => part.split('=', 1)[0]!.trim() === name);
}

/** The tRPC context of a REST request: an API key's with a bearer key, else the session cookie's. */
export async function restContext(services: Services, req: Request): Promise<Context> {
  const auth = req.headers.authorization;
  if (auth === undefined) {
    return createContext({
      services,
      cookie: req.headers.cookie ?? null,
      requestId: req.id,
      ip: req.ip ?? '',
      userAgent: req.headers['user-agent'] ?? '',
    });
  }
  // Two callers in one request: which one acts would be a guess, so neither does.
  if (hasSessionCookie(services, req.headers.cookie)) throw new Invalid(tApiKeys.errors.both);
  const m = /^Bearer +(\S+) *$/i.exec(auth);
  if (!m) throw new Unauthenticated(tApiKeys.errors.missing);
  const ctx = createContextInner({ services, requestId: req.id, ip: req.ip ?? '' });
  const found = await lookUpApiKey(ctx.em, m[1]!, services.config.apiKeyRateLimit, limiter);
  if (found.kind === 'unknown') throw new Unauthenticated(tApiKeys.errors.missing);
  if (found.kind === 'limited') throw new ApiKeyRateLimited(found.retryAfterSeconds);
  ctx.apiKey = found.caller;
  return ctx;
}

/** A bearer request without cookies: no browser sends it on its own, so the cross-site check does not apply. */
export const isBearerOnly = (req: Request) =>
  req.headers.authorization !== undefined && req.headers.cookie === undefined;
