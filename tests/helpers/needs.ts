// Tests that run only where something is present (a PostgreSQL database, PGlite, nginx, a Chromium) say so
// through needs() instead of a bare skipIf: a skipped test then carries its missing requirements in its
// metadata, the summary reporter prints them ("skipped (needs nginx): ..."), and .ci/run refuses the skips that
// must not happen (nginx or Chromium missing although CI installs them, a PostgreSQL-only test skipped on
// PostgreSQL).
//
//   needs(describe, 'PostgreSQL')('database outage', () => { ... });
//   needs(it, 'PostgreSQL', 'nginx')('...', async () => { ... });
//
// The result is called directly; chained modifiers (.each, .concurrent) are not wrapped.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { describe, it } from 'vitest';
import { getCurrentSuite } from 'vitest/suite';
import { findNginx } from './nginx.ts';
import { usingPostgres } from './scratch-db.ts';

/** What a test can need; the words are the ones .ci/run looks for in "skipped (needs ...)". */
export type Requirement = 'PostgreSQL' | 'PGlite' | 'nginx' | 'chromium';

declare module '@vitest/runner' {
  interface TaskMeta {
    /** The requirements that were missing when the suite or test was declared (empty when it runs). */
    needs?: Requirement[];
  }
}

function canResolve(specifier: string): boolean {
  try {
    createRequire(import.meta.url).resolve(specifier);
    return true;
  } catch {
    return false;
  }
}

/** Whether a requirement is met in this run (the same lookups as the helpers that use them). */
const present: Record<Requirement, () => boolean> = {
  PostgreSQL: () => usingPostgres,
  PGlite: () => !usingPostgres,
  nginx: () => findNginx() !== null,
  // tests/helpers/browser.ts: CHROMIUM_PATH, Debian's chromium, else the npm-packaged one.
  chromium: () => !!process.env.CHROMIUM_PATH || existsSync('/usr/bin/chromium') || canResolve('@sparticuz/chromium'),
};

/** describe or it that skips unless every requirement is met, recording which ones were not. */
export function needs(api: typeof describe, ...requirements: Requirement[]): ReturnType<typeof describe.skipIf>;
export function needs(api: typeof it, ...requirements: Requirement[]): ReturnType<typeof it.skipIf>;
export function needs(api: typeof describe | typeof it, ...requirements: Requirement[]): unknown {
  const missing = requirements.filter((r) => !present[r]());
  const declare = api.skipIf(missing.length > 0) as (...args: unknown[]) => unknown;
  return (...args: unknown[]) => {
    const result = declare(...args);
    // The suite or test just declared is the last task of the suite being collected.
    const last = getCurrentSuite().tasks.at(-1);
    if (last?.type === 'collector' && last.suite) last.suite.meta.needs = missing;
    else if (last?.type === 'test') last.meta.needs = missing;
    return result;
  };
}
