// Vitest global setup: the run's temporary files go into a directory of their own (TMPDIR, which
// os.tmpdir() and Chromium read), so whatever a test leaves behind is named and removed, and nothing piles up in /tmp.
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
    // Named, not failed: a browser that crashed may leave its profile behind, which is no test's fault.
    if (left.length) console.warn(`\nwarning: tests left temporary files behind (removed): ${left.join(', ')}`);
  };
}
