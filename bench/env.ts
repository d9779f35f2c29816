// Imported first by every benchmark: the benchmarks build into and serve from their own folder
// (BUILD_DIR=build-bench unless set), and server/index.ts reads BUILD_DIR when it is first imported.
process.env.BUILD_DIR ??= 'build-bench';

export const SMOKE = process.env.BENCH_SMOKE === '1';
export const ENFORCE = process.env.BENCH_ENFORCE === '1';
