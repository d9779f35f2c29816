// A fresh database per test file (server/db/scratch.ts, shared with the benchmarks).
export { freshDatabase, scratchPostgres, usingPostgres } from '../../server/db/scratch.js';
