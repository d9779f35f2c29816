// What every request passes before any page, form action or procedure sees it: a well-formed Host, text
// without NUL bytes and in valid UTF-8 (path, query; the body: server/http/bodies.ts), and a body posted to a page
// that its action can read. A refusal is Swedish: { error, issues } for API and fetch callers, a small page for a
// browser navigation (server/http/refusal.ts).
import type { NextFunction, Request, Response } from 'express';
import { t } from '#domain/texts/common.ts';
import { cleanUrl, validHost } from './clean-text.ts';
import { mediaTypeOf } from './media-type.ts';
import { refuse } from './refusal.ts';

// Where the standalone page has always been imported from (app/utils/downloads.server.ts).
export { plainPage } from './refusal.ts';

/** A malformed Host is refused (request URLs are built from it), and so is a path or query with NUL or bad UTF-8. */
export function guardUrls(req: Request, res: Response, next: NextFunction): void {
  if (!validHost(req.headers.host)) return refuse(req, res, 400, t.refused.badHost);
  if (!cleanUrl(req.originalUrl)) return refuse(req, res, 400, t.refused.badText);
  next();
}

/**
 * Pages whose actions read a JSON body: the login forms (as well as a form: app/utils/login-input.server.ts) and
 * the passkey ceremonies' doors (JSON only: app/utils/passkeys.server.ts).
 */
const JSON_PAGES = /^\/(?:(?:auth\/)?login|auth\/passkey\/(?:options|verify))(?:\.data)?\/?$/i;
/** Pages whose actions read no body at all (a confirmation's button, logout): whatever is sent is ignored. */
const BODYLESS_PAGES =
  /^\/(?:auth\/(?:logout|own-company)|sims\/\d+\/deactivate|company\/(?:api-keys\/\d+\/revoke|users\/\d+\/remove|webhooks\/\d+\/delete))(?:\.data)?\/?$/i;

/**
 * A body posted to a page (a Remix action, which reads request.formData()) must be a form it can read: URL-encoded,
 * or multipart that parses; JSON only where the action reads JSON (server/http/media-type.ts says which is which). A post
 * with no body and no type is an empty form (a client that only posts, as logout's spec does). Anything else is
 * refused here with 415, where request.formData() would have thrown: a 500.
 */
export async function guardForms(req: Request, res: Response, next: NextFunction): Promise<void> {
  if (['GET', 'HEAD', 'OPTIONS'].includes(req.method) || /^\/api(\/|$)/i.test(req.path)) return next();
  if (BODYLESS_PAGES.test(req.path)) return next();
  const header = req.get('content-type');
  const { kind } = mediaTypeOf(header);
  if (kind === 'none' && !req.rawBody?.length) {
    req.headers['content-type'] = 'application/x-www-form-urlencoded';
    return next();
  }
  if (kind === 'form' || (kind === 'json' && JSON_PAGES.test(req.path))) return next();
  if (kind === 'multipart') {
    // A body with text was parsed by guardBodies already; an empty one (or none) must parse as well.
    if (req.rawBody?.length) return next();
    try {
      await new Response(new Uint8Array(0), { headers: { 'content-type': header ?? '' } }).formData();
      return next();
    } catch {
      return refuse(req, res, 400, t.refused.badForm);
    }
  }
  refuse(req, res, 415, t.refused.notAForm);
}
