// Express 4 ignores the promise an async handler returns: a rejection would be lost and the request left hanging.
// `asyncHandler` hands it to next(err), where the one error answer (error-page.ts) takes it.
import type { NextFunction, Request, RequestHandler, Response } from 'express';

export function asyncHandler(
  fn: (req: Request, res: Response, next: NextFunction) => Promise<unknown>,
): RequestHandler {
  return (req, res, next) => {
    fn(req, res, next).catch(next);
  };
}
