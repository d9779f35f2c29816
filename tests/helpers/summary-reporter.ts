// Prints the closing line CI reads: "N passed, N failed, N skipped".
// In CI a failed test is run once more (vitest.config.ts); one that passes only then is named here as flaky,
// so it is seen and mended, not hidden.
import type { Reporter, TestModule } from 'vitest/node';

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    const flaky: string[] = [];
    for (const mod of testModules) {
      let failedHere = 0;
      for (const test of mod.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed' && test.diagnostic()?.flaky) flaky.push(`${mod.moduleId} > ${test.fullName}`);
        if (state === 'passed') passed++;
        else if (state === 'failed') failedHere++;
        else skipped++;
      }
      // A file that failed outside its tests (a beforeAll, an import) leaves them skipped: that is a failure too.
      failed += mod.state() === 'failed' && failedHere === 0 ? 1 : failedHere;
    }
    if (flaky.length) console.log(`\nflaky (passed only on a second run): ${flaky.length}\n  ${flaky.join('\n  ')}`);
    console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`);
  }
}
