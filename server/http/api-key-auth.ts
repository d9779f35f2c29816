// The REST door's caller: `Authorization: Bearer <key>` makes the request an API key's, looked up before any
// procedure runs; without that header the session cookie counts, as before. Either caller's request is then
// counted against its budget (server/http/rate-limits.ts), with the RateLimit-* headers set on the answer.
// Only the REST paths (and the list export) take keys: /api/trpc, the event stream and the pages never do.
import type { Request } from 'express';
import { tApiKeys } from '#domain/texts/api-keys.ts';
import { cookieName } from '#server/auth/sessions.ts';
import { Invalid, Unauthenticated } from '#domain/errors.ts';
import type { Services } from '#server/services.ts';
import { createContext, createContextInner, type Context } from '#server/trpc/context.ts';
import { t } from '#domain/texts/common.ts';
import { lookUpApiKey } from '#server/api-keys/keys.ts';
import { RateLimiter, requestWeight, setRateLimitHeaders, type RateLimitState } from './rate-limits.ts';

// One per server instance: the budgets' counts it has not yet added to the shared rows.
const limiter = new RateLimiter();

/** A caller over its budget: 429 with Retry-After (the seconds left of its window) and the RateLimit-* headers. */
export class RateLimited extends Error {
  constructor(
    readonly retryAfterSeconds: number,
    message: string,
  ) {
    super(message);
  }
}
/** The name the REST door's error answer (server/http/rest.ts) knows it by. */
export { RateLimited as ApiKeyRateLimited };

/** Counts the request against the budget `key` and puts where it stands on the answer. */
async function spend(em: Context['em'], req: Request, key: string, max: number): Promise<RateLimitState> {
  const state = await limiter.hit(em, key, max, requestWeight(req));
  setRateLimitHeaders(req.res, state);
  return state;
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
    const ctx = await createContext({
      services,
      cookie: req.headers.cookie ?? null,
      requestId: req.id,
      ip: req.ip ?? '',
      userAgent: req.headers['user-agent'] ?? '',
    });
    // Anonymous: no budget; the door answers 401.
    if (!ctx.session) return ctx;
    const s = await spend(ctx.em, req, `user:${ctx.session.userId}`, services.config.apiSessionRateLimit);
    if (!s.allowed) throw new RateLimited(s.resetSeconds, t.errors.rateLimited(s.resetSeconds));
    return ctx;
  }
  // Two callers in one request: which one acts would be a guess, so neither does.
  if (hasSessionCookie(services, req.headers.cookie)) throw new Invalid(tApiKeys.errors.both);
  const m = /^Bearer +(\S+) *$/i.exec(auth);
  if (!m) throw new Unauthenticated(tApiKeys.errors.missing);
  const ctx = createContextInner({ services, requestId: req.id, ip: req.ip ?? '' });
  const spent: { state?: RateLimitState } = {};
  const found = await lookUpApiKey(ctx.em, m[1]!, async (id) => {
    spent.state = await spend(ctx.em, req, `apiKey:${id}`, services.config.apiKeyRateLimit);
    return spent.state.allowed;
  });
  if (found.kind === 'unknown') throw new Unauthenticated(tApiKeys.errors.missing);
  if (found.kind === 'limited') {
    const seconds = spent.state?.resetSeconds ?? 1;
    throw new RateLimited(seconds, tApiKeys.errors.rateLimited(seconds));
  }
  ctx.apiKey = found.caller;
  return ctx;
}

/** A bearer request without cookies: no browser sends it on its own, so the cross-site check does not apply. */
export const isBearerOnly = (req: Request) =>
  req.headers.authorization !== undefined && req.headers.cookie === undefined;
