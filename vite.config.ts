import { vitePlugin as remix } from '@remix-run/dev';
import { defineConfig } from 'vite';
import remixConfig from './remix.config.js';

declare module '@remix-run/node' {
  interface Future {
    v3_singleFetch: true;
  }
}

export default defineConfig({
  plugins: [remix(remixConfig)],
  resolve: { alias: { '~': new URL('./app', import.meta.url).pathname } },
  // Server-only packages must never be pre-bundled for the browser.
  optimizeDeps: { exclude: ['@mikro-orm/core', '@mikro-orm/postgresql', '@mikro-orm/pglite', '@trpc/server', 'zod'] },
  build: { target: 'es2022' },
});
