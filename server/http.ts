// Express: request ids and logs, compression, hashed static assets, /healthz, and Remix for everything else.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { createRequestHandler } from '@remix-run/express';
import type { ServerBuild } from '@remix-run/node';
import compression from 'compression';
import express, { type NextFunction, type Request, type Response } from 'express';
import { databaseIsUp } from './db/orm.js';
import type { Services } from './services.js';
import { createContext } from './trpc/context.js';
import { createCaller } from './trpc/caller.js';

export type AppLoadContextValue = Awaited<ReturnType<typeof loadContextFor>>;

declare module 'express-serve-static-core' {
  interface Request {
    id: string;
  }
}

async function loadContextFor(services: Services, req: Request) {
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
  const ctx = await createContext({ services, headers, requestId: req.id, ip: req.ip ?? '' });
  return { services, ctx, trpc: createCaller(ctx), session: ctx.session, requestId: req.id };
}

export type BuildSource = { build: ServerBuild } | { dev: { middlewares: express.RequestHandler; loadBuild: () => Promise<ServerBuild> } };

export function createHttpApp(services: Services, source: BuildSource, clientDir = path.resolve('build/client')) {
  const { log } = services;
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback');

  app.use((req, res, next) => {
    req.id = randomUUID();
    res.setHeader('X-Request-Id', req.id);
    const start = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      log.info({ reqId: req.id, method: req.method, path: req.path, status: res.statusCode, ms: Math.round(ms * 10) / 10 }, 'request');
    });
    next();
  });

  // The event stream must reach the browser as it is written: never compress it.
  app.use(compression({ filter: (req, res) => !String(res.getHeader('Content-Type') ?? '').includes('text/event-stream') && compression.filter(req, res) }));

  app.get('/healthz', async (_req, res) => {
    const up = await databaseIsUp(services.orm);
    res.status(up ? 200 : 503).json({ status: up ? 'ok' : 'error', db: up ? 'ok' : 'down' });
  });

  if ('dev' in source) {
    app.use(source.dev.middlewares);
  } else {
    // Hashed file names: cache for a year. Everything else in build/client: an hour.
    app.use('/assets', express.static(path.join(clientDir, 'assets'), { immutable: true, maxAge: '1y', index: false }));
    app.use(express.static(clientDir, { maxAge: '1h', index: false }));
  }

  app.all(
    '*',
    createRequestHandler({
      build: 'dev' in source ? source.dev.loadBuild : source.build,
      mode: services.config.nodeEnv === 'production' ? 'production' : 'development',
      getLoadContext: (req) => loadContextFor(services, req) as never,
    }),
  );

  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    log.error({ reqId: req.id, err }, 'request failed');
    if (res.headersSent) return res.end();
    res.status(500).json({ error: 'Något gick fel på servern.', requestId: req.id });
  });
  return app;
}
