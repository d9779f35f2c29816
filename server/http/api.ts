// The API answered straight by Express besides the REST paths: the logged-in user's event stream.
import type { RequestHandler } from 'express';
import { t } from '#domain/texts/common.ts';
import { Unauthenticated } from '#domain/errors.ts';
import type { Services } from '#server/services.ts';
import { asyncHandler } from './async-handler.ts';
import { apiContext } from './request-context.ts';
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
