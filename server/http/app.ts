// The Express app, assembled in the order a request passes: its id, log and metrics; the security headers; the
// guards (URL, cross-site, body, form); the REST paths; compression; the probes; the rest of the API (tRPC, the
// event stream, the OpenAPI document); the built client's files; Remix for everything else; the error answer.
import path from 'node:path';
import express from 'express';
import type { Services } from '#server/services.ts';
import { eventStream } from './api.ts';
import { mountApiDocs } from './api-docs.ts';
import { mountStaticFiles } from './assets.ts';
import { guardBodies } from './bodies.ts';
import { compress } from './compress.ts';
import { crossSiteGuard } from './cross-site.ts';
import { errorAnswer } from './error-page.ts';
import { guardForms, guardUrls } from './guards.ts';
import type { Metrics } from './metrics.ts';
import { mountProbes } from './probes.ts';
import { remixHandler, type BuildSource } from './remix.ts';
import { apiContext, restContextOf } from './request-context.ts';
import { metricsFor, requestLog } from './request-log.ts';
import { sendMadeOnce } from './made-once.ts';
import { openApiAnswer } from './openapi.ts';
import { restDoor } from './rest.ts';
import { securityHeaders } from './security-headers.ts';
import { listExportDoor } from './sim-export.ts';
import { trpcDoor } from './trpc.ts';

export function createHttpApp(
  services: Services,
  source: BuildSource,
  clientDir = path.resolve('build/client'),
  metrics: Metrics = metricsFor(services, source, clientDir),
) {
  const app = express();
  app.disable('x-powered-by');
  // Whose X-Forwarded-For/-Proto to believe (req.ip feeds the login rate limit): TRUST_PROXY, default none.
  app.set('trust proxy', services.config.trustProxy);
  // A query is flat names and values (repeated names: a list), as the REST paths take it; no nested objects.
  app.set('query parser', 'simple');
  const dev = 'dev' in source;

  app.use(requestLog(services, metrics));
  app.use(securityHeaders(services.config, { dev }));
  app.use(guardUrls);
  app.use(crossSiteGuard(services));
  app.use(guardBodies);
  app.use((req, res, next) => void guardForms(req, res, next).catch(next));

  // The REST paths first, past the guards above and before the streaming compression, which they do not need
  // (each answer is one string, compressed in one go by the door): nothing else an API request passes through
  // is meant for it. The list export is a file, not a procedure's JSON: before the REST door, whose
  // GET /api/sim/{id} would take it, and compressed as it streams. Both take an API key too.
  const compression = compress();
  const restContext = restContextOf(services);
  app.get('/api/sim/export', compression, listExportDoor(services, restContext));
  app.use('/api', restDoor(services, restContext));

  app.use(compression);

  app.get('/favicon.ico', (_req, res) => res.redirect(301, '/favicon.svg'));
  mountProbes(app, services, metrics);

  // The rest of the API, straight from Express: the browser's tRPC endpoint, the event stream and the OpenAPI
  // document (the REST paths are above). The rest of /api goes on to Remix (404 for unknown paths).
  // /api/trpc and the stream never take an API key.
  app.use('/api/trpc', ...trpcDoor(services, (req) => apiContext(services, req)));
  app.get('/api/sse', eventStream(services));
  app.get('/api/openapi.json', (req, res, next) => {
    const headers = { 'Cache-Control': 'public, max-age=300', 'Content-Type': 'application/json; charset=utf-8' };
    sendMadeOnce(req, res, openApiAnswer(services), headers)?.catch(next);
  });
  // Its interactive reference, with the page's own policy (server/http/api-docs.ts).
  mountApiDocs(app, services.config);

  if (dev) app.use(source.dev.middlewares);
  else mountStaticFiles(app, clientDir);

  // Only `npm run dev` runs Remix in development mode (its error pages and data answers carry stack traces).
  app.all('*', remixHandler(services, source, dev ? 'development' : 'production'));

  // Whatever a handler threw: the one translation (server/http/answer.ts), as a page for a browser navigation.
  app.use(errorAnswer(services));
  return app;
}
