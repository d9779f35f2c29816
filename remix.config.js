// Remix options in one place; vite.config.ts passes them to the Remix Vite plugin.
/** @type {import('@remix-run/dev').VitePluginConfig} */
export default {
  appDirectory: 'app',
  // BUILD_DIR lets several builds live side by side (parallel work); the server reads the same variable.
  buildDirectory: process.env.BUILD_DIR ?? 'build',
  ignoredRouteFiles: ['**/*.test.*', '**/.*'],
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_lazyRouteDiscovery: true,
    v3_singleFetch: true,
  },
};
