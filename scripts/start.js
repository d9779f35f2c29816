// `npm start`: builds first when the build is missing or older than the sources (scripts/build.js), then runs
// the compiled server with its pages (build/node/index.js, from server/main.ts) in this node process. tsx is for
// `npm run dev`, the CLI and the tests.
import { pathToFileURL } from 'node:url';
import { build, buildIsStale, serverBundle } from './build.js';

if (buildIsStale()) build();
// Stack traces in the logs name the TypeScript files and lines: the logger maps a logged error's stack with
// build/node/index.js.map (server/log-stacks.ts). Not Node's source maps, which hold the map for good (about 30 MB).
const server = await import(pathToFileURL(serverBundle).href);
await server.run();
