// The one way a request becomes a tRPC context, at every door (the REST paths and the list export, /api/trpc, the
// pages' loaders and actions, the event stream): requestContext finds the caller (an API key where the door takes
// keys, else the session cookie), spends the budgets the door asks for, and makes the context once, with the
// request's signal; nothing changes it afterwards. The load context of a page (app/load-context.ts declares it as
// Remix's AppLoadContext) is made of it.
import type { Request, Response } from 'express';
import { t } from '#domain/texts/common.ts';
import { tApiKeys } from '#domain/texts/api-keys.ts';
import { Invalid, Unauthenticated } from '#domain/errors.ts';
import { lookUpApiKey, type ApiKeyCaller } from '#server/api-keys/keys.ts';
import { lookUpNetworkKey, NETWORK_KEY_PREFIX } from '#server/network/keys.ts';
import { tNetwork } from '#domain/texts/network.ts';
import { cookieName, findSession, readSessionCookie } from '#server/auth/sessions.ts';
import { isDatabaseUnavailable } from '#server/db/errors.ts';
import type { Services } from '#server/services.ts';
import { createContextInner, type Context } from '#server/trpc/context.ts';
import { createCaller } from '#server/trpc/caller.ts';
import type { IdempotentCall } from '#server/trpc/idempotency.ts';
import { companyBudget, RateLimited, spendBudgets, spendSessionBudgets } from './rate-limits.ts';

export type AppLoadContextValue = Awaited<ReturnType<typeof loadContextFor>>;

/** What a door asks of its context. */
export type DoorOptions = {
  /** `Authorization: Bearer <key>` makes the request an API key's (the REST paths and the list export only). */
  keys?: boolean;
  /**
   * Spends the caller's budgets (decision 030) with this weight, the user's refusal in the API's or the pages'
   * words (the REST paths; /api/trpc and the pages spend theirs by their own count); a key's request always spends
   * its key's, as part of its lookup. Anonymous requests spend none.
   */
  budget?: { weight: number; words: 'api' | 'page' };
  /** How a procedure's toasts are shown: 'held' for a page's action (ctx.showToasts), else 'live'. */
  toastMode?: Context['toastMode'];
  /** A REST write's Idempotency-Key and request hash, for the procedure's `idempotent` middleware. */
  idempotency?: IdempotentCall | null;
};

const signals = new WeakMap<Request, AbortSignal>();

/**
 * Aborted once the answer to this request can no longer be written (the client went away): what a search still
 * running for it is cancelled by (server/db/overload.ts). One per request, shared by its page and procedures.
 */
export function requestSignal(req: Request, res: Response): AbortSignal {
  let signal = signals.get(req);
  if (!signal) {
    const controller = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) controller.abort();
    });
    signal = controller.signal;
    signals.set(req, signal);
  }
  return signal;
}

/** The request carries our session cookie (whatever its value). */
function hasSessionCookie(services: Services, cookie: string | undefined): boolean {
  if (!cookie) return false;
  const name = cookieName(services.config.secureCookies);
  return cookie.split(';').some((part) => part.split('=', 1)[0]?.trim() === name);
}

/** The API key of a bearer request, its budgets spent; 401 unknown, 429 over budget. */
async function apiKeyOf(
  services: Services,
  em: Context['em'],
  req: Request,
  token: string,
  weight: number,
): Promise<ApiKeyCaller> {
  let refusal: RateLimited | null = null;
  const found = await lookUpApiKey(em, token, async (key) => {
    const budgets = [
      { key: `apiKey:${key.id}`, max: services.config.apiKeyRateLimit },
      companyBudget(services, key.companyId),
    ];
    refusal = await spendBudgets(em, req, budgets, weight, tApiKeys.errors.rateLimited);
    return refusal === null;
  });
  if (found.kind === 'unknown') throw new Unauthenticated(tApiKeys.errors.missing);
  if (found.kind === 'limited') throw refusal ?? new RateLimited(1, tApiKeys.errors.rateLimited(1));
  return found.caller;
}

/**
 * The context of a request at a door: its caller (a company's API key, the network's key, or the session cookie),
 * budgets spent, made once. A bearer key and a cookie together: 400.
 */
export async function requestContext(
  services: Services,
  req: Request,
  res: Response | undefined,
  door: DoorOptions = {},
): Promise<Context> {
  const em = services.orm.em.fork();
  const auth = req.headers.authorization;
  const common = {
    services,
    em,
    requestId: req.id,
    ip: req.ip ?? '',
    signal: res ? requestSignal(req, res) : undefined,
    toastMode: door.toastMode,
    idempotency: door.idempotency,
  };
  if (door.keys && auth !== undefined) {
    // Two callers in one request: which one acts would be a guess, so neither does.
    if (hasSessionCookie(services, req.headers.cookie)) throw new Invalid(tApiKeys.errors.both);
    const token = /^Bearer +(\S+) *$/i.exec(auth)?.[1];
    if (!token) throw new Unauthenticated(tApiKeys.errors.missing);
    // The network's integration key (decision 034): no budget (its batches are bounded by their size).
    if (token.startsWith(NETWORK_KEY_PREFIX)) {
      const networkKey = await lookUpNetworkKey(em, token);
      if (!networkKey) throw new Unauthenticated(tNetwork.errors.missing);
      return createContextInner({ ...common, networkKey });
    }
    const apiKey = await apiKeyOf(services, em, req, token, door.budget?.weight ?? 1);
    return createContextInner({ ...common, apiKey });
  }
  const raw = readSessionCookie(req.headers.cookie ?? null, services.config.secureCookies);
  const session = raw ? await findSession(em, raw) : null;
  const ctx = createContextInner({ ...common, session, userAgent: req.headers['user-agent'] ?? '' });
  // Anonymous (or still signing in): no budget; the door answers 401 where a caller is needed.
  if (door.budget && ctx.session)
    await spendSessionBudgets(services, em, req, ctx.session, door.budget.weight, door.budget.words);
  return ctx;
}

/** A bearer request without cookies: no browser sends it on its own, so the cross-site check does not apply. */
export const isBearerOnly = (req: Request) =>
  req.headers.authorization !== undefined && req.headers.cookie === undefined;

/** The context of an API request that takes no key (/api/trpc, the event stream): only its cookie counts. */
export const apiContext = (services: Services, req: Request): Promise<Context> =>
  requestContext(services, req, req.res);

/** The context of a REST path's call or the list export (a cookie or an API key), cancelled when its client leaves. */
export function restContextOf(services: Services) {
  return (req: Request, weight = 1, idempotency: IdempotentCall | null = null): Promise<Context> =>
    requestContext(services, req, req.res, { keys: true, budget: { weight, words: 'api' }, idempotency });
}

/**
 * The load context of a page's loader or action: the request's context, whose toasts the page's action shows
 * (ctx.showToasts), and the procedures as the page calls them.
 */
export async function loadContextFor(services: Services, req: Request, res: Response) {
  const ctx = await requestContext(services, req, res, { toastMode: 'held' });
  return {
    services,
    ctx,
    trpc: pageCaller(createCaller(ctx)),
    session: ctx.session,
    /** A session still signing in (a passkey to use or add): only the passkey and logout pages read it. */
    pending: ctx.pending,
    requestId: req.id,
    /** The nonce of this response's Content-Security-Policy, for Remix's inline scripts (app/entry.server.tsx). */
    cspNonce: String(res.locals.cspNonce ?? ''),
  };
}

/**
 * The procedures as a page's loader or action calls them: an unreachable database (down, or no pooled connection
 * within the acquire timeout) is thrown as a 503 response, so the page answers 503 with Retry-After as the API
 * does (app/components/RouteError.tsx shows it), never a 500.
 */
function pageCaller<T extends object>(caller: T): T {
  const wrap = (target: object): object =>
    new Proxy(target, {
      get: (target, key) => {
        const v = Reflect.get(target, key) as unknown;
        return (typeof v === 'function' || (typeof v === 'object' && v !== null)) && typeof key === 'string'
          ? wrap(v)
          : v;
      },
      apply: (target, self, args) =>
        Promise.resolve(Reflect.apply(target as (...a: unknown[]) => unknown, self, args)).catch((err: unknown) => {
          if (isDatabaseUnavailable(err))
            throw new Response(t.errors.databaseDown, { status: 503, statusText: 'Service Unavailable' });
          throw err;
        }),
    });
  return wrap(caller) as T;
}
