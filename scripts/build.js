// The production build, in plain JavaScript (`npm start` needs it before anything is compiled): Remix's build
// (build/client for the browser, build/server for the pages) and the server's own, bundled by esbuild into one
// JavaScript file, build/node/index.js, that `npm start` runs with node (scripts/start.js). Its entry,
// server/main.ts, imports the pages' build statically, so the one file holds the pages and the server with one copy
// of every module: the pages' build leaves #server/, #domain/ and #migrations/ to be imported at run time
// (vite.config.ts), and esbuild resolves those imports to the same files as the server's own. The XLSX parser's
// worker is built beside it (build/node/xlsx-worker.js). The packages in node_modules stay outside the bundle.
// BUILD_DIR moves all of it (side-by-side builds, the benchmarks); it stays inside the project folder, whose
// package.json "imports" resolve the pages' imports of the server. `node scripts/build.js` (`npm run build`) builds
// everything.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** The project folder: the nearest one up holding package.json (this file is bundled into build/node too). */
function projectRoot(from) {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) return from;
  }
}

export const root = projectRoot(import.meta.dirname);
export const buildDir = path.resolve(root, process.env.BUILD_DIR ?? 'build');
/** Remix's server build: the pages. */
export const remixServerBuild = path.join(buildDir, 'server/index.js');
/** The portal's server with the pages, compiled (server/main.ts and what it imports). */
export const serverBundle = path.join(buildDir, 'node/index.js');

const sources = [
  'app',
  'domain',
  'server',
  'package.json',
  'prisma-free-migrations',
  'scripts/build.js',
  'vite.config.ts',
  'remix.config.js',
];

function newestMtime(p) {
  if (!existsSync(p)) return 0;
  const stat = statSync(p);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(p)) newest = Math.max(newest, newestMtime(path.join(p, entry)));
  return newest;
}

/**
 * @returns {boolean} whether a part of the build is missing or older than a source file, or the server's bundle
 * older than the pages' build it holds
 */
export function buildIsStale() {
  if (!existsSync(remixServerBuild) || !existsSync(serverBundle)) return true;
  const pages = statSync(remixServerBuild).mtimeMs;
  const bundle = statSync(serverBundle).mtimeMs;
  if (bundle < pages) return true;
  return Math.max(...sources.map((s) => newestMtime(path.join(root, s)))) > Math.min(pages, bundle);
}

function run(command, args) {
  const r = spawnSync(path.join(root, 'node_modules/.bin', command), args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`The build failed (${command} ${args[0]})`);
}

/** Compiles the server with the pages' build (a second or so); the pages' build must be there. */
export function bundleServer() {
  run('esbuild', [
    'index=server/main.ts',
    'xlsx-worker=server/files/xlsx-worker.ts',
    // The name server/main.ts imports the pages' build by, wherever BUILD_DIR puts it.
    `--alias:sim-portal-pages=${remixServerBuild}`,
    '--bundle',
    '--platform=node',
    '--format=esm',
    '--target=node22',
    '--packages=external',
    // A map for the logger's stacks (server/log-stacks.ts): positions only, the sources are in the repository.
    '--sourcemap',
    '--sources-content=false',
    '--log-level=warning',
    `--outdir=${path.dirname(serverBundle)}`,
  ]);
}

/** Builds everything: Remix (browser assets and pages), then the server with the pages. */
export function build() {
  run('remix', ['vite:build']);
  bundleServer();
}

// Run as `node scripts/build.js` (not when bundled into the server, whose file has another name).
if (
  path.basename(import.meta.filename) === 'build.js' &&
  path.resolve(process.argv[1] ?? '') === import.meta.filename
) {
  try {
    build();
  } catch (e) {
    console.error(e.message);
    process.exit(1);
  }
}
