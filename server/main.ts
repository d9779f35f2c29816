// `npm start`'s program: the portal (./index.ts) with the pages' server build imported statically, so esbuild
// (scripts/build.js) bundles both into one file, build/node/index.js, with one copy of every module. The pages'
// build imports #server/, #domain/ and #migrations/ at run time (vite.config.ts); esbuild resolves them to the same
// files as the server's own imports. 'sim-portal-pages' is BUILD_DIR/server/index.js, named by scripts/build.js.
// tsx (`npm run dev`, the tests) runs ./index.ts instead, which loads the pages' build itself.
import path from 'node:path';
import * as pages from 'sim-portal-pages';
import { run as runPortal } from './index.ts';

/**
 * Starts the portal on the pages bundled with it. The bundle runs what it holds: scripts/start.js builds anew first
 * when the sources are newer (a build now could change nothing in this process).
 */
export function run(): Promise<void> {
  return runPortal({ buildChecked: true, build: pages });
}

// Run as `node build/node/index.js` (scripts/start.js imports it and calls run).
if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  run().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
