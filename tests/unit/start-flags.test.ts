// The V8 flags the portal runs with are the same wherever it is started: `npm start` (package.json, the one place
// for them), the systemd unit, and the benchmarks (bench/lib.ts reads them from package.json). A 32 MB young
// generation lets a download's short-lived rows die young; a heap that grows by a fifth after each full collection
// (instead of V8's default of up to 4x) keeps a 1,000,000-row download's RSS growth at about 40 MB instead of
// 130-230 MB (decision 021, docs/benchmarks.md).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { startFlags } from '#bench/lib.ts';

const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } };
const flagsOf = (line: string) => line.split(/\s+/).filter((w) => w.startsWith('--'));

describe("the portal's V8 flags", () => {
  it('npm start runs with the young generation and heap growth the downloads were measured with', () => {
    expect(flagsOf(pkg.scripts.start)).toEqual(['--max-semi-space-size=32', '--heap-growing-percent=20']);
    expect(pkg.scripts.start).toMatch(/^node .* scripts\/start\.js$/);
  });

  it('the systemd unit and the benchmarks start it with the same flags', () => {
    const unit = readFileSync('deploy/systemd/sim-portal@.service', 'utf8');
    const exec = unit.split('\n').find((l) => l.startsWith('ExecStart='));
    expect(exec).toBeDefined();
    expect(flagsOf(exec ?? '')).toEqual(flagsOf(pkg.scripts.start));
    expect(startFlags()).toEqual(flagsOf(pkg.scripts.start));
  });
});
