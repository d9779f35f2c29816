// Prints what CI reads, after vitest's own report:
//   - every skipped test with its reason: "skipped (needs PostgreSQL): <file> > <test>" for a test declared
//     through needs() (tests/helpers/needs.ts), the note of a ctx.skip(note), "todo", or "no reason declared";
//   - every flaky test: one that failed and passed only when run again (vitest.config.ts retries in CI), with its
//     first run's error;
//   - the closing line "N passed, N failed, N skipped, N flaky" (a flaky test is counted in passed, too).
// .ci/run checks the skips and the flaky count against its limits (.ci/tally.mjs).
import path from 'node:path';
import type { Reporter, TestCase, TestModule } from 'vitest/node';
// The type of the needs() metadata on suites and tests.
import type {} from './needs.ts';

/** Why a skipped test did not run. */
function skipReason(test: TestCase): string {
  const result = test.result();
  if (result.state === 'skipped' && result.note) return result.note;
  if (test.options.mode === 'todo') return 'todo';
  // The requirements are declared on the test or on one of its suites.
  for (let task: TestCase | TestCase['parent'] = test; task.type !== 'module'; task = task.parent) {
    const missing = task.meta().needs;
    if (missing?.length) return `needs ${missing.join(', ')}`;
  }
  return 'no reason declared';
}

/** The first error of a test that passed on a retry (vitest keeps the failed runs' errors), on the flaky line so
 * that a flake is named with its cause: its first line, the stack's first frame in the tests. */
function firstError(test: TestCase): string {
  const error = test.result().errors?.[0];
  if (!error) return '';
  const message = (error.message || error.name || 'error').split('\n')[0]?.slice(0, 300) ?? '';
  const at = (error.stack ?? '').split('\n').find((l) => l.includes('/tests/'));
  return `: ${message}${at ? ` (${at.trim()})` : ''}`;
}

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
    let passed = 0;
    let failed = 0;
    const skipped: string[] = [];
    const flaky: string[] = [];
    for (const mod of testModules) {
      const file = path.relative(process.cwd(), mod.moduleId);
      let failedHere = 0;
      for (const test of mod.children.allTests()) {
        const state = test.result().state;
        const name = `${file} > ${test.fullName}`;
        if (state === 'passed') {
          passed++;
          const retries = test.diagnostic()?.retryCount ?? 0;
          if (retries > 0) flaky.push(`${name} (passed on run ${retries + 1})${firstError(test)}`);
        } else if (state === 'failed') failedHere++;
        else skipped.push(`skipped (${skipReason(test)}): ${name}`);
      }
      // A file that failed outside its tests (a beforeAll, an import) leaves them skipped: that is a failure too.
      failed += mod.state() === 'failed' && failedHere === 0 ? 1 : failedHere;
    }
    if (skipped.length) console.log(`\nskipped tests: ${skipped.length}\n  ${skipped.join('\n  ')}`);
    if (flaky.length) console.log(`\nflaky (passed only after a retry): ${flaky.length}\n  ${flaky.join('\n  ')}`);
    console.log(`\n${passed} passed, ${failed} failed, ${skipped.length} skipped, ${flaky.length} flaky`);
  }
}
