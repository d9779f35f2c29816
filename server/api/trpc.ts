// The native tRPC endpoint for the browser's one client (app/utils/trpc.client.ts): tRPC's Express adapter,
// mounted at /api/trpc before Remix, on the body server/doors.ts already read. Its answers keep tRPC's shape;
// only the messages are ours (Swedish, never a library or driver text).
import type { TRPCError } from '@trpc/server';
import { createExpressMiddleware } from '@trpc/server/adapters/express';
import type { Request, RequestHandler } from 'express';
import { ZodError } from 'zod';
import { t } from '../../app/texts.js';
import { DATABASE_DOWN_MESSAGE, isDatabaseUnavailable } from '../db/errors.js';
import type { Services } from '../services.js';
import type { Context } from '../trpc/context.js';
import { appRouter } from '../trpc/router.js';
import { userMessage } from './rest.js';

/** At most this many calls in one tRPC batch request; the browser's client splits larger batches. */
export const MAX_BATCH_CALLS = 10;

/** The message a tRPC error answers with: ours (Swedish) where our code threw it, else a Swedish one for its code. */
function trpcMessage(error: TRPCError, path: string | undefined): string {
  if (error.cause instanceof ZodError)
    return error.cause.issues[0]?.message || userMessage('BAD_REQUEST', undefined, false);
  if (error.code === 'INTERNAL_SERVER_ERROR' && isDatabaseUnavailable(error)) return DATABASE_DOWN_MESSAGE;
  // tRPC itself throws BAD_REQUEST (unreadable input, a malformed batch), NOT_FOUND (no such procedure) and the
  // transport codes, in English; our procedures throw these with a field or at a path that exists.
  const ours =
    ['UNAUTHORIZED', 'FORBIDDEN', 'CONFLICT', 'TOO_MANY_REQUESTS'].includes(error.code) ||
    (error.code === 'NOT_FOUND' && !!path && path in appRouter._def.procedures) ||
    (error.code === 'BAD_REQUEST' && typeof (error.cause as { field?: unknown } | undefined)?.field === 'string');
  return userMessage(error.code, error.message, ours);
}

/** The middlewares of /api/trpc: the batch bound, then tRPC. */
export function trpcDoor(services: Services, contextOf: (req: Request) => Promise<Context>): RequestHandler[] {
  // Refused before any procedure runs: one request must not fan out into a thousand queries. tRPC's own
  // maxBatchSize would answer in its envelope; clients have always had { error, issues } here.
  const batchBound: RequestHandler = (req, res, next) => {
    if (req.query.batch === '1' && req.path.split(',').length > MAX_BATCH_CALLS) {
      res
        .status(400)
        .set('Cache-Control', 'no-store')
        .json({ error: t.refused.batchTooLarge(MAX_BATCH_CALLS), issues: [] });
      return;
    }
    // The adapter takes an already-read body as req.body.
    if (req.rawBody) req.body = req.rawBody.toString('utf8');
    next();
  };
  const trpc = createExpressMiddleware({
    router: appRouter,
    createContext: ({ req }) => contextOf(req),
    onError: ({ error, path, ctx }) => {
      if (error.code === 'INTERNAL_SERVER_ERROR' && !isDatabaseUnavailable(error)) {
        services.log.error({ reqId: ctx?.requestId, err: error.cause ?? error }, 'trpc error');
      }
      // The answer is shaped after onError: what it says is decided here.
      error.message = trpcMessage(error, path);
    },
    responseMeta: ({ ctx }) => {
      const headers = new Headers({ 'Cache-Control': 'no-store' });
      ctx?.resHeaders.forEach((v, k) => headers.append(k, v));
      return { headers };
    },
  });
  return [batchBound, trpc];
}
