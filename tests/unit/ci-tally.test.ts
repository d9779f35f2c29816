// .ci/tally.js, the end of .ci/run: the closing line summed over the runs' logs, and the checks that fail CI
// (a skip for a requirement CI provides, more skips than expected, too many flaky tests, a run that died).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const dir = mkdtempSync(path.join(os.tmpdir(), 'ci-tally-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A log as tests/helpers/summary-reporter.ts writes it, within vitest's own (coloured) report. */
function log(
  name: string,
  o: { passed: number; failed?: number; skips?: [why: string, name: string][]; flaky?: string[] },
): string {
  const file = path.join(dir, name);
  const skips = o.skips ?? [];
  const flaky = o.flaky ?? [];
  writeFileSync(
    file,
    [
      '\x1b[32m✓\x1b[39m tests/unit/a.test.ts (3 tests)',
      ...(skips.length
        ? ['', `skipped tests: ${skips.length}`, ...skips.map(([why, name]) => `  skipped (${why}): ${name}`)]
        : []),
      ...(flaky.length
        ? ['', `flaky (passed only after a retry): ${flaky.length}`, ...flaky.map((f) => `  ${f}`)]
        : []),
      '',
      `${o.passed} passed, ${o.failed ?? 0} failed, ${skips.length} skipped, ${flaky.length} flaky`,
      '',
      ' \x1b[2mTest Files\x1b[22m 1 passed (1)',
    ].join('\n'),
  );
  return file;
}

function tally(...args: string[]) {
  const r = spawnSync(process.execPath, ['.ci/tally.js', ...args], { encoding: 'utf8' });
  const lines = r.stdout.trim().split('\n');
  return { code: r.status, closing: lines.at(-1), failures: lines.filter((l) => l.startsWith('CI check failed')) };
}

const pglite = log('pglite.log', {
  passed: 10,
  skips: [
    ['needs PostgreSQL', 'tests/api/fault.test.ts > database outage > x'],
    ['needs PostgreSQL, nginx', 'i > one'],
  ],
  flaky: ['tests/unit/a.test.ts > slow one (passed on run 2)'],
});
const postgres = log('pg.log', { passed: 12, skips: [['needs PGlite', 'tests/integration/backup.test.ts > b']] });

describe('.ci/tally.js', () => {
  it('sums the runs into the closing line and passes when the checks hold', () => {
    const r = tally('--max-flaky', '2', `${pglite}:2:chromium`, `${postgres}:1:PostgreSQL,nginx,chromium`);
    expect(r).toEqual({ code: 0, closing: '22 passed, 0 failed, 3 skipped, 1 flaky', failures: [] });
  });

  it('fails on a skip for a requirement CI provides, naming the test', () => {
    const r = tally(`${pglite}:2:nginx,chromium`, `${postgres}:1`);
    expect(r.code).toBe(1);
    expect(r.failures).toEqual([`CI check failed: ${pglite}: skipped, must not be (needs nginx): i > one`]);
    const onPostgres = tally(`${pglite}:2:PostgreSQL`);
    expect(onPostgres.failures).toHaveLength(2);
  });

  it('fails on more skips than expected, and on more flaky tests than allowed', () => {
    const r = tally('--max-flaky', '0', `${pglite}:1`, `${postgres}:1`);
    expect(r.code).toBe(1);
    expect(r.failures).toEqual([
      `CI check failed: ${pglite}: 2 tests skipped, at most 1 expected`,
      'CI check failed: 1 flaky tests, at most 0 allowed',
    ]);
    expect(r.closing).toBe('22 passed, 0 failed, 3 skipped, 1 flaky');
  });

  it('counts failed tests, a missing log, unhandled errors and --also-failed as failures', () => {
    const failing = log('failing.log', { passed: 1, failed: 2 });
    expect(tally(`${failing}:0`)).toEqual({ code: 1, closing: '1 passed, 2 failed, 0 skipped, 0 flaky', failures: [] });
    const missing = tally('--also-failed', '1', `${path.join(dir, 'none.log')}:0`);
    expect(missing.code).toBe(1);
    expect(missing.closing).toBe('0 passed, 2 failed, 0 skipped, 0 flaky');
    const unhandled = path.join(dir, 'unhandled.log');
    writeFileSync(unhandled, '⎯⎯ Unhandled Error ⎯⎯\nboom\n\n1 passed, 0 failed, 0 skipped, 0 flaky\n');
    expect(tally(`${unhandled}:0`).closing).toBe('1 passed, 1 failed, 0 skipped, 0 flaky');
  });

  it("counts --also-skipped (the benchmark smoke left out) as skipped, without failing and beyond the logs' limits", () => {
    const r = tally('--also-skipped', '1', `${pglite}:2`, `${postgres}:1`);
    expect(r).toEqual({ code: 0, closing: '22 passed, 0 failed, 4 skipped, 1 flaky', failures: [] });
    expect(tally('--also-skipped', 'x', `${pglite}:2`).code).toBe(2);
  });
});
