// A fresh database per test file (tests/helpers/scratch-db.ts, shared with the benchmarks).
export { freshDatabase, scratchPostgres, usingPostgres } from './scratch-db.ts';
