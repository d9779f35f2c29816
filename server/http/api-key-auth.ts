// The caller of a request and the budgets it spends. On the REST paths `Authorization: Bearer <key>` makes the
// request an API key's, looked up before any procedure runs; without that header the session cookie counts, as
// before. Every request of a key or of a signed-in user (REST, /api/trpc, the pages: server/http/trpc.ts and
// remix.ts call spendSessionBudgets) is counted against its own budget and its company's (server/http/rate-limits.ts),
// with the RateLimit-* headers of the tightest on the answer. Only the REST paths (and the list export) take keys.
import type { Request } from 'express';
import { tApiKeys } from '#domain/texts/api-keys.ts';
import { cookieName, type SessionInfo } from '#server/auth/sessions.ts';
import { Invalid, Unauthenticated } from '#domain/errors.ts';
import type { Services } from '#server/services.ts';
import { createContext, createContextInner, type Context } from '#server/trpc/context.ts';
import { t } from '#domain/texts/common.ts';
import { lookUpApiKey } from '#server/api-keys/keys.ts';
import { RateLimiter, setRateLimitHeaders, type Budget, type SpentState } from './rate-limits.ts';

// One per server instance: the budgets' counts it has not yet added to the shared rows.
const limiter = new RateLimiter();

/** A caller over a budget: 429 with Retry-After (the seconds left of its window) and the RateLimit-* headers. */
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

const companyBudget = (services: Services, companyId: number): Budget => ({
  key: `company:${companyId}`,
  max: services.config.companyRateLimit,
});

/**
 * Counts the request against its budgets and puts where the tightest stands on the answer; over one of them, the
 * refusal names which: the company's, or the caller's own (`own`).
 */
async function spend(
  em: Context['em'],
  req: Request,
  budgets: Budget[],
  weight: number,
  own: (seconds: number) => string,
): Promise<SpentState & { refusal: RateLimited | null }> {
  const state = await limiter.spend(em, budgets, weight);
  setRateLimitHeaders(req.res, state);
  const seconds = state.resetSeconds;
  const refusal = state.refusedBy
    ? new RateLimited(
        seconds,
        state.refusedBy.key.startsWith('company:') ? t.errors.companyRateLimited(seconds) : own(seconds),
      )
    : null;
  return { ...state, refusal };
}

/**
 * Counts a signed-in user's request (of this weight) against the user's budget and the company's it acts for;
 * throws RateLimited when over one. `door` picks the words of the user's own refusal: the API's or the pages'.
 */
export async function spendSessionBudgets(
  services: Services,
  em: Context['em'],
  req: Request,
  session: SessionInfo,
  weight: number,
  door: 'api' | 'page',
): Promise<void> {
  const budgets = [
    { key: `user:${session.userId}`, max: services.config.apiSessionRateLimit },
    companyBudget(services, session.companyId),
  ];
  const { refusal } = await spend(
    em,
    req,
    budgets,
    weight,
    door === 'api' ? t.errors.rateLimited : t.errors.pageRateLimited,
  );
  if (refusal) throw refusal;
}

/** The request carries our session cookie (whatever its value). */
function hasSessionCookie(services: Services, cookie: string | undefined): boolean {
  if (!cookie) return false;
  const name = cookieName(services.config.secureCookies);
  return cookie.split(';').some((part) => part.split('=', 1)[0]!.trim() === name);
}

/** The tRPC context of a REST request: an API key's with a bearer key, else the session cookie's. */
export async function restContext(services: Services, req: Request, weight = 1): Promise<Context> {
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
    await spendSessionBudgets(services, ctx.em, req, ctx.session, weight, 'api');
    return ctx;
  }
  // Two callers in one request: which one acts would be a guess, so neither does.
  if (hasSessionCookie(services, req.headers.cookie)) throw new Invalid(tApiKeys.errors.both);
  const m = /^Bearer +(\S+) *$/i.exec(auth);
  if (!m?.[1]) throw new Unauthenticated(tApiKeys.errors.missing);
  const ctx = createContextInner({ services, requestId: req.id, ip: req.ip ?? '' });
  let refusal: RateLimited | null = null;
  const found = await lookUpApiKey(ctx.em, m[1], async (key) => {
    const budgets = [
      { key: `apiKey:${key.id}`, max: services.config.apiKeyRateLimit },
      companyBudget(services, key.companyId),
    ];
    ({ refusal } = await spend(ctx.em, req, budgets, weight, tApiKeys.errors.rateLimited));
    return refusal === null;
  });
  if (found.kind === 'unknown') throw new Unauthenticated(tApiKeys.errors.missing);
  if (found.kind === 'limited') throw refusal ?? new RateLimited(1, tApiKeys.errors.rateLimited(1));
  ctx.apiKey = found.caller;
  return ctx;
}

/** A bearer request without cookies: no browser sends it on its own, so the cross-site check does not apply. */
export const isBearerOnly = (req: Request) =>
  req.headers.authorization !== undefined && req.headers.cookie === undefined;
