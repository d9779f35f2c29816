import { vitePlugin as remix } from '@remix-run/dev';
import { writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { GetManualChunk as ManualChunksFunction } from 'rollup';
import { defineConfig, type Plugin } from 'vite';
import remixConfig from './remix.config.js';

declare module '@remix-run/node' {
  interface Future {
    v3_singleFetch: true;
  }
}

/**
 * Writes a .br (quality 11) and a .gz (level 9) beside each hashed browser asset, once, at build time: the
 * server sends them as they are (server/http/app.ts), smaller than compression on the fly could afford to make
 * them per request, for phones on slow networks, and at no CPU cost per request.
 */
function precompressAssets(): Plugin {
  return {
    name: 'sim-portal:precompress-assets',
    apply: 'build',
    writeBundle(options, bundle) {
      if (!options.dir || path.basename(options.dir) !== 'client') return; // the server build needs none
      for (const file of Object.values(bundle)) {
        if (!/\.(js|css|svg|json)$/.test(file.fileName)) continue;
        const source = Buffer.from(file.type === 'chunk' ? file.code : file.source);
        if (source.length < 1024) continue;
        const target = path.join(options.dir, file.fileName);
        writeFileSync(
          `${target}.br`,
          brotliCompressSync(source, {
            params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: source.length },
          }),
        );
        writeFileSync(`${target}.gz`, gzipSync(source, { level: 9 }));
      }
    },
  };
}

/**
 * The layout's own modules in one chunk, "shell": what the root route imports statically from app/ and domain/
 * (the header, toasts, common texts, the error boundary, the step-up notice), which every page loads anyway. Left
 * to Rollup, each of them that a route shares became a file of its own: ten requests, each gzipped alone. The
 * libraries the layout imports (React, Remix) stay together as "components", the name Rollup gave that chunk,
 * apart from the shell, so a change to the portal's own code leaves the cached framework alone. Anything a route
 * imports that the layout does not, and what is imported only dynamically (the scanner, quagga, the passkey
 * ceremony), is split by Rollup as before.
 */
function shellChunk(): ManualChunksFunction {
  let shell: Set<string> | null = null;
  const vendor = new Set<string>();
  const app = path.resolve(import.meta.dirname, 'app') + path.sep;
  const domain = path.resolve(import.meta.dirname, 'domain') + path.sep;
  const ours = (id: string) => (id.startsWith(app) || id.startsWith(domain)) && !id.includes('?');
  return (id, { getModuleIds, getModuleInfo }) => {
    if (!shell) {
      shell = new Set();
      const root = [...getModuleIds()].find((m) => m.startsWith(`${app}root.tsx?`));
      const todo = root ? [...(getModuleInfo(root)?.importedIds ?? [])] : [];
      while (todo.length) {
        const next = todo.pop()!;
        if (shell.has(next) || vendor.has(next)) continue;
        if (!(ours(next) || next.includes('vite/preload-helper'))) {
          vendor.add(next);
          continue;
        }
        shell.add(next);
        todo.push(...(getModuleInfo(next)?.importedIds ?? []));
      }
    }
    return shell.has(id) ? 'shell' : vendor.has(id) ? 'components' : undefined;
  };
}

/**
 * The server's own modules stay outside the pages' server bundle: what app/ imports from #server/ (the *.server.ts
 * that hand over files and streams, and what they bring: sessions, entities, the ORM), #domain/ (the domain errors
 * the pages test with instanceof, the texts) and #migrations/ is imported at run time, so the process holds one
 * copy of each, the one the server loaded, and a class is the same class on both sides. In the build the import
 * keeps its specifier: tsx resolves it by package.json "imports" to the same .ts files as the server's (the tests,
 * `npm run dev`), and esbuild bundles the pages' build with the server into one file (scripts/build.js, `npm
 * start`). In development (Vite's ssrLoadModule) it becomes the file's URL, which the SSR environment treats as
 * a built-in (see `builtins` below): Node imports it, through tsx, instead of Vite evaluating a second copy.
 */
const SERVER_SIDE = /^#(server|domain|migrations)\//;
const rootUrl = pathToFileURL(import.meta.dirname).href;
const SERVER_SIDE_URL = new RegExp(
  `^${rootUrl.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/(server|domain|prisma-free-migrations)/`,
);

function serverModulesOutside(): Plugin {
  let command: 'build' | 'serve' = 'serve';
  return {
    name: 'sim-portal:server-modules-outside',
    enforce: 'pre',
    configResolved(config) {
      command = config.command;
    },
    async resolveId(source, importer, options) {
      if (!options.ssr || !SERVER_SIDE.test(source)) return null;
      if (command === 'build') return { id: source, external: true };
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      return resolved ? { id: pathToFileURL(resolved.id).href, external: true } : null;
    },
  };
}

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [remix(remixConfig), precompressAssets(), serverModulesOutside()],
  resolve: {
    alias: [
      // quagga2's readable browser bundle, not its prebuilt .min.js (one 150 kB line): patches/ mends it (a
      // Code 128 checksum of 102 read as a trailing FNC1; no eval under our CSP) and Vite minifies it like ours.
      {
        find: /^@ericblade\/quagga2$/,
        replacement: new URL('./node_modules/@ericblade/quagga2/dist/quagga.js', import.meta.url).pathname,
      },
    ],
  },
  // Vite's default built-ins of the server side (Node's modules) and the server's own files by URL (above).
  environments: {
    ssr: {
      resolve: { builtins: [...builtinModules.filter((m) => !m.includes(':')), /^(node|npm|bun):/, SERVER_SIDE_URL] },
    },
  },
  // Server-only packages must never be pre-bundled for the browser.
  optimizeDeps: { exclude: ['@mikro-orm/core', '@mikro-orm/postgresql', '@mikro-orm/pglite', '@trpc/server', 'zod'] },
  build: {
    target: 'es2022',
    ...(isSsrBuild ? {} : { rollupOptions: { output: { manualChunks: shellChunk() } } }),
  },
}));
