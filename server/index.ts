// Starts the portal: config, database (migrated, seeded when empty), HTTP server, graceful shutdown.
// `npm start` runs it compiled, bundled with the pages (server/main.ts; scripts/start.js, built first if missing or
// older than the sources); `npm run dev` runs this file through tsx with `--dev` (Vite), and the tests call
// startServer, which then loads the pages' build (BUILD_DIR/server): its imports of #server/ and #domain/ are
// the modules this process has already loaded (vite.config.ts), one copy of each.
import { createServer, type Server } from 'node:http';
import { Server as NetServer } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ServerBuild } from '@remix-run/node';
import { TableNotFoundException } from '@mikro-orm/core';
import { build, buildDir, buildIsStale, remixServerBuild, root } from '#scripts/build.js';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { databaseIsEmpty, seedDemo } from './db/seed.ts';
import { createHttpApp } from './http/app.ts';
import { trackEnds, whenEnded } from './http/ended.ts';
import type { BuildSource } from './http/remix.ts';
import { metricsFor } from './http/request-log.ts';
import type { Metrics } from './http/metrics.ts';
import { closeServices, createServices, type Services } from './services.ts';
import { startWebhookDelivery } from './webhooks/deliver.ts';

export { buildIsStale };

/** Builds everything (Remix and the server, scripts/build.js). */
export function buildClient(): void {
  build();
}

export async function loadProductionBuild(): Promise<ServerBuild> {
  return (await import(pathToFileURL(remixServerBuild).href)) as ServerBuild;
}

/** How long a shutdown waits for the requests in flight before it closes their connections. */
const DRAIN_MS = 10_000;
/** How long the worker and the services may take to close after the drain, before the process ends regardless. */
const CLOSE_MS = 10_000;

export type RunningServer = {
  services: Services;
  server: Server;
  url: string;
  /** http://127.0.0.1:<METRICS_PORT>/metrics when METRICS_PORT is set. */
  metricsUrl?: string;
  close: () => Promise<void>;
};

/** METRICS_PORT: /metrics without a token, on 127.0.0.1 only (nothing else is served there). */
async function metricsListener(metrics: Metrics, port: number): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found\n');
      return;
    }
    metrics.scrape().then(
      ({ contentType, body }) => res.writeHead(200, { 'Content-Type': contentType }).end(body),
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return server;
}

/** Starts a server on the given config; used by `npm start` and by the tests. */
export async function startServer(
  config: Config,
  opts: { dev?: boolean; seed?: boolean; services?: Services; build?: ServerBuild } = {},
): Promise<RunningServer> {
  const services = opts.services ?? (await createServices(config));
  const { log } = services;
  // Demo data only where the caller asks for it: `run` passes DEMO_DATA (the embedded default, or an operator's
  // explicit opt-in), never a production PostgreSQL by itself; the first super admin there comes from the CLI.
  const seed = opts.seed ?? config.demoData;
  // A database without this build's tables (a server started before `migrate`, as an operator may) is not empty
  // in any sense that seeding could help: it waits, unready (/readyz says so), and seeds nothing.
  const empty = await databaseIsEmpty(services.orm.em.fork()).catch((e: unknown) => {
    if (e instanceof TableNotFoundException) return false;
    throw e;
  });
  if (empty) {
    if (seed) {
      const r = await seedDemo(services.orm.em.fork(), { networkKeyDir: config.dataDir });
      log.info(r, 'empty database: demo data seeded (admin@demo.test, ella@demo.test, anna@demo.test)');
    } else {
      log.warn(
        'empty database: no demo data (DEMO_DATA is not true); create the first super admin with ' +
          '`npm run cli -- user:create --email E --name N --super-admin`',
      );
    }
  }
  let source: BuildSource;
  if (opts.dev) {
    const vite = await import('vite');
    const devServer = await vite.createServer({ root, server: { middlewareMode: true } });
    source = {
      dev: {
        middlewares: devServer.middlewares,
        loadBuild: () => devServer.ssrLoadModule('virtual:remix/server-build') as Promise<ServerBuild>,
      },
    };
  } else {
    source = { build: opts.build ?? (await loadProductionBuild()) };
  }
  const clientDir = path.join(buildDir, 'client');
  const metrics = metricsFor(services, source, clientDir);
  const app = createHttpApp(services, source, clientDir, metrics);
  const metricsServer = config.metricsPort !== undefined ? await metricsListener(metrics, config.metricsPort) : null;
  const webhooks = startWebhookDelivery(services);
  // The requests in flight: from their arrival until their handler ends the answer (res.end), whether or not the
  // client is still there to read it (a connection that has closed says nothing about its handler).
  const inFlight = new Set<Promise<void>>();
  trackEnds(app.response);
  let draining = false;
  const server = createServer((req, res) => {
    // While draining, a request that comes on a kept-alive connection (a proxy's cached one) is answered, and its
    // connection closed after the answer, so the proxy retires it cleanly instead of having it closed under a request.
    if (draining) res.setHeader('Connection', 'close');
    const handled = whenEnded(res);
    inFlight.add(handled);
    void handled.then(() => inFlight.delete(handled));
    app(req, res);
  });
  await new Promise<void>((resolve) => server.listen(config.port, resolve));
  server.keepAliveTimeout = 65_000;
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  let closing: Promise<void> | null = null;
  const close = () =>
    (closing ??= (async () => {
      // Stop taking connections, end the event streams (they would hold the close for the whole drain; ended
      // cleanly, browsers reconnect, behind a load balancer to another instance), let the requests in flight
      // finish, including those whose client has gone (at most 10 s), then close the webhook worker and the
      // database (the ORM, the hub's LISTEN connection). The idle keep-alive connections are closed once nothing is
      // in flight, not at once: a proxy (nginx's upstream keepalive) may be writing a request on one at this very
      // moment, and a POST it has sent it never resends, so closing the connection under it is a 502 for a request
      // the portal never saw. Until then each request on one is answered with Connection: close. Node's
      // http.Server.close would close them at once, so the listener is closed by net.Server's own close.
      draining = true;
      const connectionsClosed = new Promise<void>((resolve) => NetServer.prototype.close.call(server, () => resolve()));
      services.streams.closeAll();
      let timer: NodeJS.Timeout | undefined;
      const drained = await Promise.race([
        (async () => {
          while (inFlight.size) await Promise.all([...inFlight]);
          // Answers written: a keep-alive connection now idle goes at once, a slow reader gets the rest (http's
          // close also stops its timer of request and header timeouts; the listener is closed already).
          server.closeIdleConnections();
          server.close(() => {});
          await connectionsClosed;
          return true;
        })(),
        new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), DRAIN_MS))),
      ]);
      clearTimeout(timer);
      if (!drained) {
        log.warn({ inFlight: inFlight.size }, 'shutdown: requests still running after the drain timeout');
        server.closeAllConnections();
        server.close(() => {});
      }
      metricsServer?.closeAllConnections();
      await new Promise((resolve) => (metricsServer ? metricsServer.close(resolve) : resolve(undefined)));
      // The worker, then the services: bounded (CLOSE_MS), logged with what it waited on when it ran out.
      await closeServices(services, { first: () => webhooks.stop(), withinMs: CLOSE_MS });
    })());
  const metricsAddress = metricsServer?.address();
  const metricsUrl =
    typeof metricsAddress === 'object' && metricsAddress
      ? `http://127.0.0.1:${metricsAddress.port}/metrics`
      : undefined;
  return { services, server, url: `http://localhost:${port}`, metricsUrl, close };
}

/**
 * Starts the portal from the command line; `buildChecked`: the caller (scripts/start.js) has built already;
 * `build`: the pages' build, bundled with the server (server/main.ts), else loaded from BUILD_DIR.
 */
export async function run(opts: { buildChecked?: boolean; build?: ServerBuild } = {}): Promise<void> {
  const dev = process.argv.includes('--dev');
  let config: Config;
  try {
    // `npm run dev` is the one development mode; everything else is production unless NODE_ENV says otherwise.
    config = loadConfig(dev ? { ...process.env, NODE_ENV: process.env.NODE_ENV ?? 'development' } : process.env);
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      process.exit(1);
    }
    throw e;
  }
  // React (loaded with the build) picks its production build by NODE_ENV.
  process.env.NODE_ENV ??= config.nodeEnv;
  if (!dev && !opts.buildChecked && buildIsStale()) build();
  const running = await startServer(config, { dev, build: opts.build });
  if (config.sessionSecretGenerated && config.nodeEnv === 'production') {
    running.services.log.warn(
      { file: path.join(config.dataDir, 'session-secret') },
      'SESSION_SECRET is not set: using a generated secret kept in DATA_DIR (set SESSION_SECRET when several instances share a database)',
    );
  }
  running.services.log.info(
    {
      url: config.appUrl,
      port: config.port,
      database: config.databaseUrl ? 'postgresql' : 'pglite',
      // From the process's start to listening (performance.now() counts from there).
      startupMs: Math.round(performance.now()),
    },
    'SIM-portalen is running',
  );
  const shutdown = (signal: string) => {
    running.services.log.info({ signal }, 'shutting down');
    running.close().then(
      () => process.exit(0),
      (err) => {
        running.services.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}

// Run as `tsx server/index.ts` (in the bundle, build/node/index.js, server/main.ts is the program).
if (
  path.basename(import.meta.filename) === 'index.ts' &&
  process.argv[1] &&
  path.resolve(process.argv[1]) === path.resolve(import.meta.filename)
) {
  run().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
