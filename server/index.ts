// Starts the portal: config, database (migrated, seeded when empty), HTTP server, graceful shutdown.
// `npm start` runs the production build (built first if missing or older than the sources); `--dev` runs Vite.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import type { Server } from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ServerBuild } from '@remix-run/node';
import { ConfigError, loadConfig, type Config } from './config.js';
import { databaseIsEmpty, seedDemo } from './db/seed.js';
import { createHttpApp, type BuildSource } from './http.js';
import { closeServices, createServices, type Services } from './services.js';

const root = path.resolve(import.meta.dirname, '..');
const buildDir = path.resolve(root, process.env.BUILD_DIR ?? 'build');
const serverBuildFile = path.join(buildDir, 'server/index.js');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

export function buildIsStale(): boolean {
  if (!existsSync(serverBuildFile)) return true;
  const built = statSync(serverBuildFile).mtimeMs;
  const sources = [
    newestMtime(path.join(root, 'app')),
    newestMtime(path.join(root, 'server')),
    statSync(path.join(root, 'vite.config.ts')).mtimeMs,
  ];
  return Math.max(...sources) > built;
}

export function buildClient(): void {
  const r = spawnSync(path.join(root, 'node_modules/.bin/remix'), ['vite:build'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) throw new Error('The build failed (remix vite:build)');
}

export async function loadProductionBuild(): Promise<ServerBuild> {
  return (await import(pathToFileURL(serverBuildFile).href)) as ServerBuild;
}

export type RunningServer = { services: Services; server: Server; url: string; close: () => Promise<void> };

/** Starts a server on the given config; used by `npm start` and by the tests. */
export async function startServer(
  config: Config,
  opts: { dev?: boolean; seed?: boolean; services?: Services; build?: ServerBuild } = {},
): Promise<RunningServer> {
  const services = opts.services ?? (await createServices(config));
  const { log } = services;
  if (opts.seed !== false && (await databaseIsEmpty(services.orm.em.fork()))) {
    const r = await seedDemo(services.orm.em.fork());
    log.info(r, 'empty database: demo data seeded (admin@demo.se, anna@demo.se)');
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
  const app = createHttpApp(services, source, path.join(buildDir, 'client'));
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(config.port, () => resolve(s));
  });
  server.keepAliveTimeout = 65_000;
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  let closing: Promise<void> | null = null;
  const close = () =>
    (closing ??= (async () => {
      // Stop taking connections, let requests in flight finish (at most 10 s), then close the database.
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          server.closeAllConnections();
          resolve();
        }, 10_000);
        server.close(() => {
          clearTimeout(timer);
          resolve();
        });
        server.closeIdleConnections();
      });
      await closeServices(services);
    })());
  return { services, server, url: `http://localhost:${port}`, close };
}

async function main() {
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
  if (!dev && buildIsStale()) buildClient();
  const running = await startServer(config, { dev });
  if (config.sessionSecretGenerated && config.nodeEnv === 'production') {
    running.services.log.warn(
      { file: path.join(config.dataDir, 'session-secret') },
      'SESSION_SECRET is not set: using a generated secret kept in DATA_DIR (set SESSION_SECRET when several instances share a database)',
    );
  }
  running.services.log.info(
    { url: config.appUrl, port: config.port, database: config.databaseUrl ? 'postgresql' : 'pglite' },
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

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
