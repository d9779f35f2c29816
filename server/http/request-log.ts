// Every request's id (X-Request-Id, and the name of its log lines), its log line and its metrics, and the metrics
// of this app labelled by the route patterns of its REST paths and pages.
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import type { RequestHandler } from 'express';
import type { Services } from '#server/services.ts';
import { createMetrics, routeLabeller, type Metrics } from './metrics.ts';
import { openApi } from './openapi.ts';
import type { BuildSource } from './remix.ts';

declare module 'express-serve-static-core' {
  interface Request {
    id: string;
  }
}

/** Names the request, and when its answer is finished logs it and counts it in the metrics. */
export function requestLog(services: Services, metrics: Metrics): RequestHandler {
  const { log } = services;
  return (req, res, next) => {
    req.id = randomUUID();
    // The id names the request in the log; a hashed asset (identical for everyone) goes without it on the wire.
    if (!req.path.startsWith('/assets/')) res.setHeader('X-Request-Id', req.id);
    const start = process.hrtime.bigint();
    // As it came: the REST door answers a HEAD as the GET it stands for.
    const method = req.method;
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      const urlPath = req.originalUrl.split('?')[0] ?? req.originalUrl;
      metrics.observe(method, urlPath, res.statusCode, ms / 1000);
      log.info(
        {
          reqId: req.id,
          method,
          path: urlPath,
          status: res.statusCode,
          ms: Math.round(ms * 10) / 10,
        },
        'request',
      );
    });
    next();
  };
}

/** Metrics of this app's requests, labelled by the route patterns of its REST paths and pages. */
export function metricsFor(services: Services, source: BuildSource, clientDir: string): Metrics {
  return createMetrics({
    orm: services.orm,
    streams: services.streams,
    token: services.config.metricsToken,
    routes: () => {
      const pagePaths: string[] = [];
      if ('build' in source) {
        const routes = source.build.routes;
        const whole = (id: string | undefined): string =>
          id && routes[id] ? [whole(routes[id].parentId), routes[id].path ?? ''].filter(Boolean).join('/') : '';
        for (const id of Object.keys(routes)) pagePaths.push(whole(id));
      }
      return routeLabeller({
        restPaths: Object.keys((openApi(services) as { paths?: object }).paths ?? {}),
        pagePaths,
        staticFiles: existsSync(clientDir)
          ? readdirSync(clientDir, { withFileTypes: true })
              .filter((e) => e.isFile())
              .map((e) => e.name)
          : [],
      });
    },
  });
}
