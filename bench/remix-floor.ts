// A bare Remix v2 app of this repo's versions, built on the fly in a temp folder with this repo's node_modules
// (nothing installed), and served the plain way (Express, compression, static assets): the floor the
// benchmarks compare the portal with. bench:pages measures its bytes (one route, FLOOR_ROUTES); bench:load's
// /sims baseline (bench/load-baseline-remix.ts) renders the same 50 SIMs as the portal from the same SQL.
import { defined } from '#domain/defined.ts';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createRequestHandler, type GetLoadContextFunction } from '@remix-run/express';
import type { ServerBuild } from '@remix-run/node';
import compression from 'compression';
import express from 'express';

const root = path.resolve(import.meta.dirname, '..');

const ROOT_ROUTE = `import { Links, Meta, Outlet, Scripts, ScrollRestoration } from '@remix-run/react';

export default function App() {
  return (
    <html lang="sv">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body>
        <Outlet />
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}
`;

/** bench:pages's floor: one route, a heading. */
export const FLOOR_ROUTES: Record<string, string> = {
  '_index.tsx': `export const meta = () => [{ title: 'Golv' }];

export default function Index() {
  return (
    <main>
      <h1>Hej</h1>
    </main>
  );
}
`,
};

/**
 * Builds a bare Remix app with the given routes (file name in app/routes -> source) and the standard root in a
 * temp folder; returns the folder (build/ inside). Remove it with rmSync when done.
 */
export function buildRemixApp(routes: Record<string, string> = FLOOR_ROUTES, prefix = 'sim-bench-floor-'): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  mkdirSync(path.join(dir, 'app/routes'), { recursive: true });
  writeFileSync(path.join(dir, 'app/root.tsx'), ROOT_ROUTE);
  for (const [file, source] of Object.entries(routes)) writeFileSync(path.join(dir, 'app/routes', file), source);
  // Remix reads package.json to find the server runtime; the versions are this repo's (nothing is installed:
  // node_modules is a link to this repo's).
  const own = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
    devDependencies: Record<string, string>;
  };
  const pick = (names: string[], from: Record<string, string>) =>
    Object.fromEntries(names.map((n) => [n, defined(from[n], `the version of ${n} in package.json`)]));
  writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({
      name: 'remix-floor',
      private: true,
      type: 'module',
      dependencies: pick(['@remix-run/node', '@remix-run/react', 'react', 'react-dom', 'isbot'], own.dependencies),
      devDependencies: pick(['@remix-run/dev', 'vite'], own.devDependencies),
    }),
  );
  symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  // The same Remix future flags and build target as the app.
  writeFileSync(
    path.join(dir, 'vite.config.mjs'),
    `import { vitePlugin as remix } from '@remix-run/dev';
import { defineConfig } from 'vite';
import app from ${JSON.stringify(pathToFileURL(path.join(root, 'remix.config.js')).href)};
export default defineConfig({
  plugins: [remix({ appDirectory: 'app', buildDirectory: 'build', future: app.future })],
  build: { target: 'es2022' },
});
`,
  );
  const r = spawnSync(path.join(root, 'node_modules/.bin/remix'), ['vite:build'], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, BUILD_DIR: '' },
  });
  if (r.status !== 0) throw new Error(`the bare Remix app did not build:\n${r.stdout}\n${r.stderr}`);
  return dir;
}

/**
 * Serves a built bare Remix app (buildRemixApp's folder) on 127.0.0.1: compression, immutable hashed assets,
 * Remix's Express handler with an optional load context. Port 0 picks a free one.
 */
export async function serveRemixApp(
  dir: string,
  opts: { port?: number; getLoadContext?: GetLoadContextFunction } = {},
): Promise<{ url: string; server: Server; close: () => Promise<void> }> {
  const build = (await import(pathToFileURL(path.join(dir, 'build/server/index.js')).href)) as ServerBuild;
  const app = express();
  app.use(compression());
  app.get('/favicon.ico', (_req, res) => res.status(204).end());
  app.use(
    '/assets',
    express.static(path.join(dir, 'build/client/assets'), { immutable: true, maxAge: '1y', index: false }),
  );
  app.use(express.static(path.join(dir, 'build/client'), { maxAge: '1h', index: false }));
  const handle = createRequestHandler({ build, mode: 'production', getLoadContext: opts.getLoadContext });
  app.all('*', (req, res, next) => void handle(req, res, next));
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(opts.port ?? 0, '127.0.0.1', () => resolve(s));
  });
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
