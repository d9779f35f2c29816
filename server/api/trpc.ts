// The native tRPC endpoint for the browser's one client (app/utils/trpc.client.ts): tRPC's Express adapter,
// mounted at /api/trpc before Remix, on the body server/doors.ts already read. Its answers keep tRPC's shape;
// only the messages are ours (Swedish, never a library or driver text).
import { createExpressMiddleware } from '@trpc/server/adapters/express';
import type { Request, RequestHandler } from 'express';
import { t } from '../../app/texts.js';
import { errorBody, httpError } from '../errors/answer.js';
import type { Services } from '../services.js';
import type { Context } from '../trpc/context.js';
import { appRouter } from '../trpc/router.js';

/** At most this many calls in one tRPC batch request; the browser's client splits larger batches. */
export const MAX_BATCH_CALLS = 10;

/** The middlewares of /api/trpc: the batch bound, then tRPC. */
export function trpcDoor(services: Services, contextOf: (req: Request) => Promise<Context>): RequestHandler[] {
  // Refused before any procedure runs: one request must not fan out into a thousand queries. tRPC's own
  // maxBatchSize would answer in its envelope; clients have always had { error, issues } here.
  const batchBound: RequestHandler = (req, res, next) => {
    if (req.query.batch === '1' && req.path.split(',').length > MAX_BATCH_CALLS) {
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
  const trpc = createExpressMiddleware({
    router: appRouter,
    createContext: ({ req }) => contextOf(req),
    // What the answer says is the router's errorFormatter (server/errors/answer.ts httpError).
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
  return [batchBound, trpc];
}
