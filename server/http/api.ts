// The API answered straight by Express besides the REST paths: the logged-in user's event stream, and the context
// of a REST call (its session or API key, its budgets spent with the call's weight, and the request's signal).
import type { Request, RequestHandler } from 'express';
import { t } from '#domain/texts/common.ts';
import { Unauthenticated } from '#domain/errors.ts';
import type { Services } from '#server/services.ts';
import type { Context } from '#server/trpc/context.ts';
import { asyncHandler } from './async-handler.ts';
import { apiContext, requestContext } from './request-context.ts';
import { sendRestError } from './rest.ts';
import { STREAM_HEADERS } from './sse.ts';

/** GET /api/sse: the logged-in user's event stream (server/http/sse.ts) on the Express response; 401 without a session. */
export function eventStream(services: Services): RequestHandler {
  return asyncHandler(async (req, res) => {
    const { session } = await apiContext(services, req);
    if (!session) return sendRestError(req, res, new Unauthenticated(t.errors.unauthenticated), services.log);
    res.status(200).set(STREAM_HEADERS);
    res.flushHeaders();
    // The stream writes its frames straight to the response, and ends with it.
    services.streams.open(session, res);
  });
}

/** The context of a REST path's call or the list export (a cookie or an API key), cancelled when its client leaves. */
export function restContextOf(services: Services) {
  return (req: Request, weight = 1): Promise<Context> =>
    requestContext(services, req, req.res, { keys: true, budget: { weight, words: 'api' } });
}
