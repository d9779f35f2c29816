// Cross-site requests never change state: a non-GET whose Origin or Sec-Fetch-Site shows another site is refused
// before any handler runs (docs/decisions/005-csrf-by-fetch-metadata.md).
import type { RequestHandler } from 'express';
import { t } from '#domain/texts/common.ts';
import type { Services } from '#server/services.ts';
import { errorBody } from './answer.ts';
import { isBearerOnly } from './request-context.ts';

export function crossSiteGuard(services: Services): RequestHandler {
  return (req, res, next) => {
    if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return next();
    if (isBearerOnly(req)) return next(); // an API key without cookies: no browser's ambient credential
    const site = req.get('sec-fetch-site');
    const origin = req.get('origin');
    const ownOrigin = `${req.protocol}://${req.get('host')}`;
    const appOrigin = new URL(services.config.appUrl).origin;
    // Sec-Fetch-Site is set by the browser and cannot be forged by a page; where it is missing, the Origin
    // decides (a page with Referrer-Policy: no-referrer posts with Origin "null" but same-origin).
    const crossSite = site
      ? site === 'cross-site' || site === 'same-site'
      : origin !== undefined && origin !== appOrigin && origin !== ownOrigin;
    if (!crossSite) {
      // Remix refuses an Origin that differs from Host; "null" from our own no-referrer page is same-origin.
      if (origin === 'null' && site === 'same-origin') delete req.headers.origin;
      return next();
    }
    services.log.warn({ reqId: req.id, origin, site, path: req.path }, 'cross-site request refused');
    res.status(403).json(errorBody(t.crossSite));
  };
}
