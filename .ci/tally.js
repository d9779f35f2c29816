// The end of .ci/run: reads the logs of its `npm test` runs (tests/helpers/summary-reporter.ts's output), checks
// them and prints the closing line, "N passed, N failed, N skipped, N flaky" summed over the runs.
//   node .ci/tally.js [--max-flaky N] [--also-failed N] [--also-skipped N] LOG:MAX_SKIPPED[:MUST,NOT,SKIP] ...
// Each LOG may have at most MAX_SKIPPED skipped tests, and none skipped for a listed requirement (the reporter
// writes "skipped (needs nginx): ..."); --max-flaky bounds the flaky tests of all runs together (a flaky test
// also counts as passed); --also-failed adds failures found outside the logs (the benchmark smoke), --also-skipped
// what was left out outside them (the benchmark smoke, when the runs left it no time).
// A log without the reporter's closing line (missing, or the run died) and every unhandled error count as
// failures. Exits 1 when anything failed or a check did not hold.
import { existsSync, readFileSync } from 'node:fs';
import { stripVTControlCharacters } from 'node:util';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  if (i < 0) return fallback;
  const [value] = args.splice(i, 2).slice(1);
  if (!/^\d+$/.test(value ?? '')) usage();
  return Number(value);
};
function usage() {
  console.error(
    'usage: node .ci/tally.js [--max-flaky N] [--also-failed N] [--also-skipped N] LOG:MAX_SKIPPED[:MUST,NOT,SKIP] ...',
  );
  process.exit(2);
}
const maxFlaky = option('--max-flaky', Infinity);
const total = { passed: 0, failed: option('--also-failed', 0), skipped: option('--also-skipped', 0), flaky: 0 };
if (!args.length) usage();

const problems = [];
const flakyNames = [];
for (const run of args) {
  const [log, max, list = ''] = run.split(':');
  if (!log || !/^\d+$/.test(max ?? '')) usage();
  const mustNotSkip = list.split(',').filter(Boolean);
  // Colours of vitest's own report would hide the lines from the patterns.
  const lines = existsSync(log) ? stripVTControlCharacters(readFileSync(log, 'utf8')).split('\n') : [];

  const closing = lines
    .map((l) => /^(\d+) passed, (\d+) failed, (\d+) skipped, (\d+) flaky$/.exec(l.trim()))
    .findLast(Boolean);
  if (closing) {
    const [passed, failed, skipped, flaky] = closing.slice(1).map(Number);
    Object.assign(total, {
      passed: total.passed + passed,
      failed: total.failed + failed,
      skipped: total.skipped + skipped,
      flaky: total.flaky + flaky,
    });
    if (skipped > Number(max)) problems.push(`${log}: ${skipped} tests skipped, at most ${max} expected`);
  } else {
    total.failed++;
    problems.push(`${log}: no closing "N passed, N failed, N skipped, N flaky" line (the run did not finish)`);
  }

  const unhandled = lines.filter((l) => l.includes('Unhandled Error')).length;
  if (unhandled) {
    total.failed += unhandled;
    problems.push(`${log}: ${unhandled} unhandled error(s)`);
  }

  let inFlaky = false;
  for (const line of lines) {
    const skip = /^\s*skipped \(needs ([^)]*)\): (.*)$/.exec(line);
    const forbidden = skip ? skip[1].split(', ').filter((r) => mustNotSkip.includes(r)) : [];
    if (forbidden.length) problems.push(`${log}: skipped, must not be (needs ${forbidden.join(', ')}): ${skip[2]}`);
    // The reporter's list: a heading, one indented name a line, then an empty line.
    if (line.startsWith('flaky (passed only after a retry)')) inFlaky = true;
    else if (inFlaky && line.trim()) flakyNames.push(`${line.trim()} [${log}]`);
    else inFlaky = false;
  }
}

if (flakyNames.length) console.log(`flaky (passed only after a retry):\n  ${flakyNames.join('\n  ')}`);
if (total.flaky > maxFlaky) problems.push(`${total.flaky} flaky tests, at most ${maxFlaky} allowed`);
for (const p of problems) console.log(`CI check failed: ${p}`);
console.log(`${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped, ${total.flaky} flaky`);
process.exit(problems.length || total.failed ? 1 : 0);
