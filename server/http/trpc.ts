// The native tRPC endpoint for the browser's one client (app/utils/trpc.client.ts): tRPC's Express adapter,
// mounted at /api/trpc before Remix, on the body server/http/bodies.ts already read. A signed-in user's calls spend
// the user's and the company's budgets, as on the REST paths. Its answers keep tRPC's shape; only the messages are
// ours (Swedish, never a library or driver text).
import { createExpressMiddleware } from '@trpc/server/adapters/express';
import type { Request, RequestHandler } from 'express';
import { t } from '#domain/texts/common.ts';
import { errorBody, httpError } from './answer.ts';
import { RateLimited, spendSessionBudgets } from './rate-limits.ts';
import type { Services } from '#server/services.ts';
import type { Context } from '#server/trpc/context.ts';
import { appRouter } from '#server/trpc/router.ts';

/** At most this many calls in one tRPC batch request; the browser's client splits larger batches. */
export const MAX_BATCH_CALLS = 10;

/**
 * How many procedure calls tRPC will make of a request to /api/trpc (`path` is the part after the mount): 1 when it
 * is no batch, the number of comma-separated names when it is; null when the URL could be read two ways.
 */
export function batchCalls(originalUrl: string, path: string): number | null {
  const query = originalUrl.includes('?') ? originalUrl.slice(originalUrl.indexOf('?') + 1) : '';
  const batch = new URLSearchParams(query).getAll('batch');
  if (batch.length > 1) return null;
  if (batch[0] !== '1') return 1;
  const last = path.slice(path.lastIndexOf('/') + 1);
  let names: string;
  try {
    names = decodeURIComponent(last);
  } catch {
    return null; // tRPC refuses it as well
  }
  return names.split(',').length;
}

/** The middlewares of /api/trpc: the batch bound, the budgets, then tRPC. */
export function trpcDoor(services: Services, contextOf: (req: Request) => Promise<Context>): RequestHandler[] {
  // Refused before any procedure runs: one request must not fan out into a thousand queries. The calls are
  // counted as tRPC reads them (@trpc/server 11: `batch` is the first value of the URL's parameter; the procedure
  // names are the path's last segment, percent-decoded, split at commas), and a request tRPC could read otherwise
  // than this count (a repeated `batch`) is refused too. tRPC's own maxBatchSize (below) is the second line; it would
  // answer in its envelope, and clients have always had { error, issues } here.
  const batchBound: RequestHandler = (req, res, next) => {
    const calls = batchCalls(req.originalUrl, req.path);
    if (calls === null || calls > MAX_BATCH_CALLS) {
      res
        .status(400)
        .set('Cache-Control', 'no-store')
        .json(errorBody(t.refused.batchTooLarge(MAX_BATCH_CALLS)));
      return;
    }
    // The adapter takes an already-read body as req.body.
    if (req.rawBody) req.body = req.rawBody.toString('utf8');
    next();
  };
  // Each call of a signed-in user's request costs one of the user's budget and the company's (a batch as many as it
  // has calls): a user over the budget of the REST paths is over it here too. The context made for it is the one
  // tRPC is given; one that failed (the database out of reach) fails there, in tRPC's answer, as before.
  const contexts = new WeakMap<Request, Promise<Context>>();
  const budget: RequestHandler = (req, res, next) => {
    const context = contextOf(req);
    contexts.set(req, context);
    const refuse = (err: RateLimited) =>
      res
        .status(429)
        .set({ 'Retry-After': String(err.retryAfterSeconds), 'Cache-Control': 'no-store' })
        .json(errorBody(err.message));
    const calls = batchCalls(req.originalUrl, req.path) ?? 1;
    void context.then(
      (ctx) =>
        (ctx.session ? spendSessionBudgets(services, ctx.em, req, ctx.session, calls, 'api') : Promise.resolve()).then(
          () => next(),
          (err: unknown) => (err instanceof RateLimited ? refuse(err) : next(err)),
        ),
      () => next(),
    );
  };
  const trpc = createExpressMiddleware({
    router: appRouter,
    maxBatchSize: MAX_BATCH_CALLS,
    createContext: ({ req }) => contexts.get(req) ?? contextOf(req),
    // What the answer says is the router's errorFormatter (server/http/answer.ts httpError).
    onError: ({ error, ctx }) => {
      if (httpError(error).unexpected)
        services.log.error({ reqId: ctx?.requestId, err: error.cause ?? error }, 'trpc error');
    },
    responseMeta: ({ ctx }) => {
      const headers = new Headers({ 'Cache-Control': 'no-store' });
      ctx?.resHeaders.forEach((v, k) => headers.append(k, v));
      return { headers };
    },
  });
  return [batchBound, budget, trpc];
}
