// What a request's handlers are given: the signal aborted when its client leaves, the load context of a page's
// loaders and actions (app/load-context.ts declares it as Remix's AppLoadContext), and the tRPC context of an API call.
import type { Request, Response } from 'express';
import { t } from '#domain/texts/common.ts';
import { isDatabaseUnavailable } from '#server/db/errors.ts';
import type { Services } from '#server/services.ts';
import { createContext, type Context } from '#server/trpc/context.ts';
import { createCaller } from '#server/trpc/caller.ts';

export type AppLoadContextValue = Awaited<ReturnType<typeof loadContextFor>>;

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

export async function loadContextFor(services: Services, req: Request, res: Response) {
  // A page's action decides how a procedure's toast is shown (app/routes: ctx.showToasts).
  const ctx = await createContext({
    services,
    cookie: req.headers.cookie ?? null,
    requestId: req.id,
    ip: req.ip ?? '',
    userAgent: req.headers['user-agent'] ?? '',
    toastMode: 'held',
    signal: requestSignal(req, res),
  });
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

/** The tRPC context of an API request: only its cookie counts. API callers get toasts over the event stream only. */
export function apiContext(services: Services, req: Request): Promise<Context> {
  return createContext({
    services,
    cookie: req.headers.cookie ?? null,
    requestId: req.id,
    ip: req.ip ?? '',
    userAgent: req.headers['user-agent'] ?? '',
    signal: req.res ? requestSignal(req, req.res) : undefined,
  });
}
