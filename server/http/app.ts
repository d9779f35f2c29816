// Express: request ids, logs and metrics, the doors, the REST paths, compression, hashed static assets, /livez,
// /readyz, /healthz, /metrics (token only), the rest of the API (tRPC, the event stream, the OpenAPI document),
// and Remix for everything else.
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { constants as zlibConstants } from 'node:zlib';
import { createRequestHandler, type AppLoadContext, type ServerBuild } from '@remix-run/node';
import compression from 'compression';
import express, { type NextFunction, type Request, type Response } from 'express';
import { t } from '#domain/texts/common.ts';
import { openApi, restDoor, sendRestError } from './rest.ts';
import { isBearerOnly, restContext } from './api-key-auth.ts';
import { listExportDoor } from './sim-export.ts';
import { trpcDoor } from './trpc.ts';
import { DATABASE_RETRY_AFTER_SECONDS, errorBody, httpError } from './answer.ts';
import { isDatabaseUnavailable } from '#server/db/errors.ts';
import { NotFound, Unauthenticated } from '#domain/errors.ts';
import { bytesOf, guardBodies, guardForms, guardUrls, isNavigation, sendErrorPage, validHost } from './guards.ts';
import { drained } from '#server/export/workbook.ts';
import { DYNAMIC_BROTLI_QUALITY, DYNAMIC_GZIP_LEVEL, encodingFor } from './encoding.ts';
import { databaseHealth, databaseReadiness } from '#server/db/health.ts';
import { createMetrics, routeLabeller, type Metrics } from './metrics.ts';
import { STREAM_HEADERS } from './sse.ts';
import { securityHeaders } from './security-headers.ts';
import type { Services } from '#server/services.ts';
import { createContext, type Context } from '#server/trpc/context.ts';
import { createCaller } from '#server/trpc/caller.ts';

export type AppLoadContextValue = Awaited<ReturnType<typeof loadContextFor>>;

declare module 'express-serve-static-core' {
  interface Request {
    id: string;
  }
}

const signals = new WeakMap<Request, AbortSignal>();

/**
 * Aborted once the answer to this request can no longer be written (the client went away): what a search still
 * running for it is cancelled by (server/db/overload.ts). One per request, shared by its page and procedures.
 */
function requestSignal(req: Request, res: Response): AbortSignal {
  let signal = signals.get(req);
  if (!signal) {
    const controller = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) controller.abort();
    });
    signal = controller.signal;
    signals.set(req, signal);
  }
  return signal;
}

async function loadContextFor(services: Services, req: Request, res: Response) {
  // A page's action decides how a procedure's toast is shown (app/routes: ctx.showToasts).
  const ctx = await createContext({
    services,
    cookie: req.headers.cookie ?? null,
    requestId: req.id,
    ip: req.ip ?? '',
    toastMode: 'held',
    signal: requestSignal(req, res),
  });
  return {
    services,
    ctx,
    trpc: pageCaller(createCaller(ctx)),
    session: ctx.session,
    requestId: req.id,
    /** The nonce of this response's Content-Security-Policy, for Remix's inline scripts (app/entry.server.tsx). */
    cspNonce: String(res.locals.cspNonce ?? ''),
  };
}

/**
 * The procedures as a page's loader or action calls them: an unreachable database (down, or no pooled connection
 * within the acquire timeout) is thrown as a 503 response, so the page answers 503 with Retry-After as the API
 * does (app/components/RouteError.tsx shows it), never a 500 (issue 25).
 */
function pageCaller<T extends object>(caller: T): T {
  const wrap = (target: object): object =>
    new Proxy(target, {
      get: (target, key) => {
        const v = Reflect.get(target, key) as unknown;
        return (typeof v === 'function' || (typeof v === 'object' && v !== null)) && typeof key === 'string'
          ? wrap(v as object)
          : v;
      },
      apply: (target, self, args) =>
        Promise.resolve(Reflect.apply(target as (...a: unknown[]) => unknown, self, args)).catch((err: unknown) => {
          if (isDatabaseUnavailable(err))
            throw new Response(t.errors.databaseDown, { status: 503, statusText: 'Service Unavailable' });
          throw err;
        }),
    });
  return wrap(caller) as T;
}

/** The tRPC context of an API request: only its cookie counts. API callers get toasts over the event stream only. */
function apiContext(services: Services, req: Request): Promise<Context> {
  return createContext({
    services,
    cookie: req.headers.cookie ?? null,
    requestId: req.id,
    ip: req.ip ?? '',
    signal: req.res ? requestSignal(req, req.res) : undefined,
  });
}

/** GET /api/sse: the logged-in user's event stream (server/http/sse.ts) on the Express response; 401 without a session. */
function eventStream(services: Services): express.RequestHandler {
  return async (req, res, next) => {
    try {
      const { session } = await apiContext(services, req);
      if (!session) return sendRestError(req, res, new Unauthenticated(t.errors.unauthenticated), services.log);
      res.status(200).set(STREAM_HEADERS);
      res.flushHeaders();
      // The stream writes its frames straight to the response, and ends with it.
      services.streams.open(session, res);
    } catch (err) {
      next(err);
    }
  };
}

/**
 * A hashed asset's name changes with its content: cached for a year, never revalidated (immutable), so it needs no
 * validators (ETag, Last-Modified) nor byte ranges: fewer bytes on every one of a first visit's responses.
 */
const HASHED = { immutable: true, maxAge: '1y', etag: false, lastModified: false, acceptRanges: false } as const;

/** Serves an asset's .br or .gz sibling (written by the build, vite.config.ts) to a client that takes it. */
function precompressedAssets(dir: string): express.RequestHandler {
  const files = new Set(existsSync(dir) ? readdirSync(dir) : []);
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const name = req.path.slice(1);
    if (!files.has(`${name}.br`) && !files.has(`${name}.gz`)) return next();
    res.setHeader('Vary', 'Accept-Encoding');
    const encoding = encodingFor(req.headers['accept-encoding']);
    const file =
      encoding === 'br' && files.has(`${name}.br`)
        ? `${name}.br`
        : encoding && files.has(`${name}.gz`)
          ? `${name}.gz`
          : null;
    if (!file) return next();
    res.type(path.extname(name));
    res.setHeader('Content-Encoding', file.endsWith('.br') ? 'br' : 'gzip');
    res.sendFile(file, { root: dir, ...HASHED, dotfiles: 'deny' }, (err) => err && next(err));
  };
}

export type BuildSource =
  { build: ServerBuild } | { dev: { middlewares: express.RequestHandler; loadBuild: () => Promise<ServerBuild> } };

/** The request as Remix sees it; its body is the one guardBodies read (bounded), not the socket. */
function remixRequest(req: Request, res: Response): globalThis.Request {
  // X-Forwarded-Host only from a proxy that TRUST_PROXY trusts, and only when well-formed.
  const forwarded = req.app.get('trust proxy fn')(req.socket.remoteAddress, 0)
    ? req.get('x-forwarded-host')?.split(',')[0]?.trim()
    : undefined;
  const host = forwarded && validHost(forwarded) ? forwarded : req.get('host');
  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(key, v);
    else if (value !== undefined) headers.set(key, value);
  }
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD' && req.rawBody !== undefined;
  return new Request(`${req.protocol}://${host}${req.originalUrl}`, {
    method: req.method,
    headers,
    // Aborts loaders and actions once the answer can no longer be written.
    signal: requestSignal(req, res),
    body: hasBody ? bytesOf(req.rawBody!) : undefined,
  });
}

/** Pieces of an answer gathered into one write at most (a larger body goes out in writes of this size). */
const WRITE_BYTES = 64 * 1024;

/**
 * Writes a Remix answer's body to the response. React streams a page in 2 kB pieces, and Remix's own writer
 * (writeReadableStreamToWritable) sends each alone and flushes the compression stream after it: 17 passes through
 * zlib for the 35 kB of /sims, 0.8 ms of CPU against 0.18 ms for one pass. Here the pieces that are ready in one
 * turn of the event loop go out as one write and one flush; a piece that comes later (a download read from the
 * database as it is sent) still goes out as soon as it comes. A slow client holds the reading (the answer never
 * piles up in memory), and one that leaves stops it.
 */
async function writeBody(body: ReadableStream<Uint8Array>, res: Response): Promise<void> {
  const reader = body.getReader();
  res.once('close', () => {
    if (!res.writableFinished) reader.cancel().catch(() => {});
  });
  const nextTurn = () => new Promise<false>((resolve) => setImmediate(resolve, false));
  let pieces: Uint8Array[] = [];
  let size = 0;
  const send = async () => {
    if (size === 0) return;
    const data = pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces, size);
    pieces = [];
    size = 0;
    if (res.destroyed) return;
    const more = res.write(data);
    // The compression middleware's flush: what was written reaches the client now, not when zlib's buffer fills.
    (res as Response & { flush?: () => void }).flush?.();
    if (!more) await drained(res);
  };
  try {
    let next = reader.read();
    for (;;) {
      const piece = await next;
      if (piece.done) break;
      pieces.push(piece.value);
      size += piece.value.byteLength;
      next = reader.read();
      // The next piece already there (React's pieces of one render are): keep gathering, up to WRITE_BYTES.
      const ready = await Promise.race([
        next.then(
          () => true,
          () => true,
        ),
        nextTurn(),
      ]);
      if (!ready || size >= WRITE_BYTES) await send();
    }
    await send();
    res.end();
  } catch (error) {
    res.destroy(error as Error);
    throw error;
  }
}

/**
 * Remix for pages, form posts and the export download. Anything answered to a logged-in browser (a page, its
 * `.data` loader fetch, the download) or setting a cookie is `no-store`, so the back button after logout
 * shows no cached page; Remix's route manifest is not a user's and keeps its own cache header. A route's own header replaces the default of the same name (Referrer-Policy of the
 * login-link page).
 */
function remixHandler(
  services: Services,
  build: BuildSource,
  mode: 'production' | 'development',
): express.RequestHandler {
  const handle = createRequestHandler('dev' in build ? build.dev.loadBuild : build.build, mode);
  return async (req, res, next) => {
    try {
      const request = remixRequest(req, res);
      const context = await loadContextFor(services, req, res);
      const response = await handle(request, context as unknown as AppLoadContext);
      if (response.statusText) res.statusMessage = response.statusText;
      res.status(response.status);
      for (const [key, value] of response.headers) if (key !== 'set-cookie') res.setHeader(key, value);
      // A page whose database was out of reach (pageCaller): when to try again, as the API says it.
      if (response.status === 503 && !response.headers.has('retry-after'))
        res.setHeader('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
      const cookies = response.headers.getSetCookie();
      if (cookies.length) res.setHeader('Set-Cookie', cookies);
      // Remix's route manifest (/__manifest?version=<build hash>&p=<paths>, lazy route discovery) holds no user
      // data and is content-addressed: it keeps Remix's own year-long public, immutable cache.
      const manifest = req.path === '/__manifest' && response.status === 200 && !cookies.length;
      if (
        !manifest &&
        (context.session || cookies.length) &&
        !String(res.getHeader('Cache-Control') ?? '').includes('no-store')
      ) {
        res.setHeader('Cache-Control', 'no-store');
      }
      if (response.body) await writeBody(response.body, res);
      else res.end();
    } catch (err) {
      next(err);
    }
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

export function createHttpApp(
  services: Services,
  source: BuildSource,
  clientDir = path.resolve('build/client'),
  metrics: Metrics = metricsFor(services, source, clientDir),
) {
  const { log } = services;
  const app = express();
  app.disable('x-powered-by');
  // Whose X-Forwarded-For/-Proto to believe (req.ip feeds the login rate limit): TRUST_PROXY, default none.
  app.set('trust proxy', services.config.trustProxy);
  // A query is flat names and values (repeated names: a list), as the REST paths take it; no nested objects.
  app.set('query parser', 'simple');
  const dev = 'dev' in source;

  app.use((req, res, next) => {
    req.id = randomUUID();
    // The id names the request in the log; a hashed asset (identical for everyone) goes without it on the wire.
    if (!req.path.startsWith('/assets/')) res.setHeader('X-Request-Id', req.id);
    const start = process.hrtime.bigint();
    // As it came: the REST door answers a HEAD as the GET it stands for.
    const method = req.method;
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      const urlPath = req.originalUrl.split('?')[0]!;
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
  });

  app.use(securityHeaders(services.config, { dev }));
  app.use(guardUrls);

  // Cross-site requests never change state: a non-GET whose Origin or Sec-Fetch-Site shows another site
  // is refused before any handler runs.
  app.use((req, res, next) => {
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
    log.warn({ reqId: req.id, origin, site, path: req.path }, 'cross-site request refused');
    res.status(403).json(errorBody(t.crossSite));
  });

  app.use(guardBodies);
  app.use((req, res, next) => void guardForms(req, res, next).catch(next));

  // The event stream must reach the browser as it is written: never compress it.
  const compress = compression({
    level: DYNAMIC_GZIP_LEVEL,
    brotli: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: DYNAMIC_BROTLI_QUALITY } },
    filter: (req, res) =>
      !String(res.getHeader('Content-Type') ?? '').includes('text/event-stream') && compression.filter(req, res),
  });

  // The REST paths first, past the doors above and before the streaming compression, which they do not need
  // (each answer is one string, compressed in one go by the door): nothing else an API request passes through
  // is meant for it. The list export is a file, not a procedure's JSON: before the REST door, whose
  // GET /api/sim/{id} would take it, and compressed as it streams. Both take an API key too (issue 16).
  const restContextOf = async (req: Request) => {
    const ctx = await restContext(services, req);
    if (req.res) ctx.signal = requestSignal(req, req.res);
    return ctx;
  };
  app.get('/api/sim/export', compress, listExportDoor(services, restContextOf));
  app.use('/api', restDoor(services, restContextOf));

  app.use(compress);

  app.get('/favicon.ico', (_req, res) => res.redirect(301, '/favicon.svg'));

  app.get('/healthz', async (_req, res) => {
    const health = await databaseHealth(services.orm);
    res.status(health.db === 'ok' ? 200 : 503).json(health);
  });
  // For a load balancer or an orchestrator: the process answers (restart it if not) ...
  app.get('/livez', (_req, res) => {
    res.set('Cache-Control', 'no-store').json({ status: 'ok' });
  });
  // ... and it can serve: the database answers and has this build's migrations (send it traffic only then).
  app.get('/readyz', async (_req, res) => {
    const ready = await databaseReadiness(services.orm);
    res
      .status(ready.status === 'ok' ? 200 : 503)
      .set('Cache-Control', 'no-store')
      .json(ready);
  });
  // Only for a bearer of METRICS_TOKEN; anyone else (no token, a wrong one) gets the 404 of an unknown API path,
  // so a guess learns nothing, not even that a token is configured. METRICS_PORT: server/index.ts.
  app.get('/metrics', async (req, res, next) => {
    if (!metrics.authorized(req.get('authorization'))) return next(new NotFound(t.errors.byCode.NOT_FOUND!));
    try {
      const { contentType, body } = await metrics.scrape();
      res.set({ 'Content-Type': contentType, 'Cache-Control': 'no-store' }).send(body);
    } catch (err) {
      next(err);
    }
  });

  // The rest of the API, straight from Express: the browser's tRPC endpoint, the event stream and the OpenAPI
  // document (the REST paths are above). The rest of /api goes on to Remix (404 for unknown paths).
  // /api/trpc and the stream never take an API key.
  const contextOf = (req: Request) => apiContext(services, req);
  app.use('/api/trpc', ...trpcDoor(services, contextOf));
  app.get('/api/sse', eventStream(services));
  app.get('/api/openapi.json', (_req, res) => {
    res.set('Cache-Control', 'public, max-age=300').json(openApi(services));
  });

  if (dev) {
    app.use(source.dev.middlewares);
  } else {
    // Hashed file names: cache for a year, sent as compressed at build time where the client takes it.
    // Everything else in build/client: an hour.
    app.use('/assets', precompressedAssets(path.join(clientDir, 'assets')));
    app.use('/assets', express.static(path.join(clientDir, 'assets'), { ...HASHED, index: false }));
    // An asset the build does not have (an old page's chunk after a deploy, a guess): a short plain 404, never a
    // page (its headers are a subresource's: server/http/security-headers.ts).
    app.use('/assets', (_req, res) => {
      res.status(404).set('Cache-Control', 'no-store').type('text/plain').send(t.errors.byCode.NOT_FOUND);
    });
    app.use(express.static(clientDir, { maxAge: '1h', index: false }));
  }

  // Only `npm run dev` runs Remix in development mode (its error pages and data answers carry stack traces).
  app.all('*', remixHandler(services, source, dev ? 'development' : 'production'));

  // Whatever a handler threw: the one translation (server/http/answer.ts), as a page for a browser navigation.
  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
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
  });
  return app;
}
