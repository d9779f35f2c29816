// For a load balancer, an orchestrator and a scraper: /livez (the process answers), /readyz (it can serve),
// /healthz (the database's state), and /metrics for a bearer of METRICS_TOKEN only.
import type { Express } from 'express';
import { t } from '#domain/texts/common.ts';
import { NotFound } from '#domain/errors.ts';
import { databaseHealth, databaseReadiness } from '#server/db/health.ts';
import type { Services } from '#server/services.ts';
import { asyncHandler } from './async-handler.ts';
import type { Metrics } from './metrics.ts';

/** Adds the probes to the app itself (no router of their own: one layer less for every other request to pass). */
export function mountProbes(app: Express, services: Services, metrics: Metrics): void {
  app.get(
    '/healthz',
    asyncHandler(async (_req, res) => {
      const health = await databaseHealth(services.orm);
      res.status(health.db === 'ok' ? 200 : 503).json(health);
    }),
  );
  // For a load balancer or an orchestrator: the process answers (restart it if not) ...
  app.get('/livez', (_req, res) => {
    res.set('Cache-Control', 'no-store').json({ status: 'ok' });
  });
  // ... and it can serve: the database answers and has this build's migrations (send it traffic only then).
  app.get(
    '/readyz',
    asyncHandler(async (_req, res) => {
      const ready = await databaseReadiness(services.orm);
      res
        .status(ready.status === 'ok' ? 200 : 503)
        .set('Cache-Control', 'no-store')
        .json(ready);
    }),
  );
  // Only for a bearer of METRICS_TOKEN; anyone else (no token, a wrong one) gets the 404 of an unknown API path,
  // so a guess learns nothing, not even that a token is configured. METRICS_PORT: server/index.ts.
  app.get(
    '/metrics',
    asyncHandler(async (req, res, next) => {
      if (!metrics.authorized(req.get('authorization'))) return next(new NotFound(t.errors.byCode.NOT_FOUND));
      const { contentType, body } = await metrics.scrape();
      res.set({ 'Content-Type': contentType, 'Cache-Control': 'no-store' }).send(body);
    }),
  );
}
