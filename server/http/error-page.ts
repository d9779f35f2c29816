// Whatever a handler threw: the one translation (server/http/answer.ts), logged, and answered as JSON or, for a
// browser's navigation, as a page.
import type { ErrorRequestHandler } from 'express';
import type { Services } from '#server/services.ts';
import { httpError } from './answer.ts';
import { isNavigation, sendErrorPage } from './refusal.ts';

export function errorAnswer(services: Services): ErrorRequestHandler {
  const { log } = services;
  return (err: unknown, req, res, _next) => {
    const answer = httpError(err, req.id);
    if (answer.unexpected) log.error({ reqId: req.id, err }, 'request failed');
    else log.warn({ reqId: req.id, status: answer.status, err: (err as Error | null)?.message }, 'request refused');
    if (res.headersSent) return res.end();
    // Also on an /api path that a browser opens (the invoice download is a Remix resource route there).
    if (isNavigation(req)) return sendErrorPage(res, answer);
    res
      .status(answer.status)
      .set({ ...answer.headers, 'Cache-Control': 'no-store' })
      .json(answer.body);
  };
}
