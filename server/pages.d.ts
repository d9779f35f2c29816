// The pages' server build (Remix's, BUILD_DIR/server/index.js) as server/main.ts imports it: esbuild's alias
// (scripts/build.js) names the file; it exists only after `remix vite:build`, so its type is ServerBuild's.
declare module 'sim-portal-pages' {
  import type { ServerBuild } from '@remix-run/node';
  export const assets: ServerBuild['assets'];
  export const assetsBuildDirectory: ServerBuild['assetsBuildDirectory'];
  export const basename: ServerBuild['basename'];
  export const entry: ServerBuild['entry'];
  export const future: ServerBuild['future'];
  export const isSpaMode: ServerBuild['isSpaMode'];
  export const mode: ServerBuild['mode'];
  export const publicPath: ServerBuild['publicPath'];
  export const routes: ServerBuild['routes'];
}
