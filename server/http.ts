// Express: request ids and logs, compression, hashed static assets, /healthz, and Remix for everything else.
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { createRequestHandler, writeReadableStreamToWritable, type AppLoadContext, type ServerBuild } from '@remix-run/node';
import compression from 'compression';
import express, { type NextFunction, type Request, type Response } from 'express';
import { handleTrpc, openApi, restMiddleware } from './api/handlers.js';
import { DATABASE_DOWN_MESSAGE, isDatabaseUnavailable } from './db/errors.js';
import { bytesOf, guardBodies, guardUrls, plainPage, validHost } from './doors.js';
import { encodingFor } from './encoding.js';
import { databaseHealth } from './db/health.js';
import { securityHeaders } from './security-headers.js';
import type { Services } from './services.js';
import { createContext } from './trpc/context.js';
import { createCaller } from './trpc/caller.js';

export type AppLoadContextValue = Awaited<ReturnType<typeof loadContextFor>>;

declare module 'express-serve-static-core' {
  interface Request {
    id: string;
  }
}

async function loadContextFor(services: Services, req: Request, res: Response) {
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
  // A page's action decides how a procedure's toast is shown (app/routes: ctx.showToasts).
  const ctx = await createContext({ services, headers, requestId: req.id, ip: req.ip ?? '', toastMode: 'held' });
  return {
    services,
    ctx,
    trpc: createCaller(ctx),
    session: ctx.session,
    requestId: req.id,
    /** The nonce of this response's Content-Security-Policy, for Remix's inline scripts (app/entry.server.tsx). */
    cspNonce: String(res.locals.cspNonce ?? ''),
    api: {
      // API callers get toasts over the event stream only, not as a flash for a next page.
      trpc: (request: globalThis.Request) => handleTrpc(services, Object.assign(ctx, { toastMode: 'live' as const }), request),
      /** GET /api/sse for this request's session (401 without one). */
      events: (request: globalThis.Request) =>
        ctx.session
          ? services.streams.open(ctx.session, request.signal)
          : Response.json({ error: 'Du är inte inloggad.', issues: [] }, { status: 401 }),
      openapi: () => openApi(services),
    },
  };
}

/** Serves an asset's .br or .gz sibling (written by the build, vite.config.ts) to a client that takes it. */
function precompressedAssets(dir: string): express.RequestHandler {
  const files = new Set(existsSync(dir) ? readdirSync(dir) : []);
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const name = req.path.slice(1);
    if (!files.has(`${name}.br`) && !files.has(`${name}.gz`)) return next();
    res.setHeader('Vary', 'Accept-Encoding');
    const encoding = encodingFor(req.headers['accept-encoding']);
    const file = encoding === 'br' && files.has(`${name}.br`) ? `${name}.br` : encoding && files.has(`${name}.gz`) ? `${name}.gz` : null;
    if (!file) return next();
    res.type(path.extname(name));
    res.setHeader('Content-Encoding', file.endsWith('.br') ? 'br' : 'gzip');
    res.sendFile(file, { root: dir, immutable: true, maxAge: '1y', dotfiles: 'deny' }, (err) => err && next(err));
  };
}

export type BuildSource = { build: ServerBuild } | { dev: { middlewares: express.RequestHandler; loadBuild: () => Promise<ServerBuild> } };

/** The request as Remix sees it; its body is the one guardBodies read (bounded), not the socket. */
function remixRequest(req: Request, res: Response): globalThis.Request {
  // X-Forwarded-Host only from a proxy that TRUST_PROXY trusts, and only when well-formed.
  const forwarded = req.app.get('trust proxy fn')(req.socket.remoteAddress, 0) ? req.get('x-forwarded-host')?.split(',')[0]?.trim() : undefined;
  const host = forwarded && validHost(forwarded) ? forwarded : req.get('host');
  const controller = new AbortController();
  // Abort loaders and actions once the answer can no longer be written.
  res.on('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(key, v);
    else if (value !== undefined) headers.set(key, value);
  }
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD' && req.rawBody !== undefined;
  return new Request(`${req.protocol}://${host}${req.originalUrl}`, {
    method: req.method,
    headers,
    signal: controller.signal,
    body: hasBody ? bytesOf(req.rawBody!) : undefined,
  });
}

/**
 * Remix for pages, form posts and the resource routes. Anything answered to a logged-in browser (a page, its
 * `.data` loader fetch, an /api answer) or setting a cookie is `no-store`, so the back button after logout
 * shows no cached page. A route's own header replaces the default of the same name (Referrer-Policy of the
 * login-link page).
 */
function remixHandler(services: Services, build: BuildSource, mode: 'production' | 'development'): express.RequestHandler {
  const handle = createRequestHandler('dev' in build ? build.dev.loadBuild : build.build, mode);
  return async (req, res, next) => {
    try {
      const request = remixRequest(req, res);
      const context = await loadContextFor(services, req, res);
      const response = await handle(request, context as unknown as AppLoadContext);
      if (response.statusText) res.statusMessage = response.statusText;
      res.status(response.status);
      for (const [key, value] of response.headers) if (key !== 'set-cookie') res.setHeader(key, value);
      const cookies = response.headers.getSetCookie();
      if (cookies.length) res.setHeader('Set-Cookie', cookies);
      if ((context.session || cookies.length) && !String(res.getHeader('Cache-Control') ?? '').includes('no-store')) {
        res.setHeader('Cache-Control', 'no-store');
      }
      if (/text\/event-stream/i.test(response.headers.get('content-type') ?? '')) res.flushHeaders();
      if (response.body) await writeReadableStreamToWritable(response.body, res);
      else res.end();
    } catch (err) {
      next(err);
    }
  };
}

export function createHttpApp(services: Services, source: BuildSource, clientDir = path.resolve('build/client')) {
  const { log } = services;
  const app = express();
  app.disable('x-powered-by');
  // Whose X-Forwarded-For/-Proto to believe (req.ip feeds the login rate limit): TRUST_PROXY, default none.
  app.set('trust proxy', services.config.trustProxy);
  const dev = 'dev' in source;

  app.use((req, res, next) => {
    req.id = randomUUID();
    res.setHeader('X-Request-Id', req.id);
    const start = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      log.info({ reqId: req.id, method: req.method, path: req.originalUrl.split('?')[0], status: res.statusCode, ms: Math.round(ms * 10) / 10 }, 'request');
    });
    next();
  });

  app.use(securityHeaders(services.config, { dev }));
  app.use(guardUrls);

  // The event stream must reach the browser as it is written: never compress it.
  app.use(compression({ filter: (req, res) => !String(res.getHeader('Content-Type') ?? '').includes('text/event-stream') && compression.filter(req, res) }));

  // Cross-site requests never change state: a non-GET whose Origin or Sec-Fetch-Site shows another site
  // is refused before any handler runs.
  app.use((req, res, next) => {
    if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return next();
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
    log.warn({ reqId: req.id, origin, site, path: req.path }, 'cross-site request refused');
    res.status(403).json({ error: 'Förfrågan kom från en annan webbplats och avvisades.' });
  });

  app.use(guardBodies);

  app.get('/favicon.ico', (_req, res) => res.redirect(301, '/favicon.svg'));

  app.get('/healthz', async (_req, res) => {
    const health = await databaseHealth(services.orm);
    res.status(health.db === 'ok' ? 200 : 503).json(health);
  });

  // The spec's REST paths, straight from Express (the rest of /api goes on to Remix's resource routes).
  app.use(
    '/api',
    restMiddleware(services, (req) =>
      createContext({ services, headers: new Headers(req.headers.cookie ? { cookie: req.headers.cookie } : {}), requestId: req.id, ip: req.ip ?? '' }),
    ),
  );

  if (dev) {
    app.use(source.dev.middlewares);
  } else {
    // Hashed file names: cache for a year, sent as compressed at build time where the client takes it.
    // Everything else in build/client: an hour.
    app.use('/assets', precompressedAssets(path.join(clientDir, 'assets')));
    app.use('/assets', express.static(path.join(clientDir, 'assets'), { immutable: true, maxAge: '1y', index: false }));
    app.use(express.static(clientDir, { maxAge: '1h', index: false }));
  }

  // Only `npm run dev` runs Remix in development mode (its error pages and data answers carry stack traces).
  app.all('*', remixHandler(services, source, dev ? 'development' : 'production'));

  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    if (isDatabaseUnavailable(err)) {
      log.warn({ reqId: req.id, err: (err as Error).message }, 'database unavailable');
      if (res.headersSent) return res.end();
      res.setHeader('Retry-After', '5');
      const wantsPage = !req.path.startsWith('/api/') && (req.get('accept') ?? '').includes('text/html');
      if (wantsPage) {
        return res.status(503).type('html').send(plainPage(res, 'Tillfälligt otillgänglig', `<p>${DATABASE_DOWN_MESSAGE}</p><p><a href="">Försök igen</a></p>`));
      }
      return res.status(503).json({ error: DATABASE_DOWN_MESSAGE, issues: [], requestId: req.id });
    }
    log.error({ reqId: req.id, err }, 'request failed');
    if (res.headersSent) return res.end();
    res.status(500).json({ error: 'Något gick fel på servern.', requestId: req.id });
  });
  return app;
}
