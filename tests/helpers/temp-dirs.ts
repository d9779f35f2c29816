// Vitest global setup: the run's temporary files go into a directory of their own (TMPDIR, which
// os.tmpdir() and Chromium read), so a test that leaves one behind is named, and nothing piles up in /tmp.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export default function setup() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sim-portal-tests-'));
  process.env.TMPDIR = dir;
  return () => {
    // tsx (the CLI tests run `npm run cli`) keeps its compile cache there: a tool's, not a test's.
    const left = readdirSync(dir).filter((name) => !/^tsx-\d+$/.test(name));
    rmSync(dir, { recursive: true, force: true });
    if (left.length) throw new Error(`tests left temporary files behind: ${left.join(', ')}`);
  };
}
