import { defineConfig } from 'vitest/config';

// Tests run without the Remix plugin: the server under test is started from the built app.
export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // In CI (a shared, loaded machine) a failed test gets one more run; the summary names any that needed it.
    retry: process.env.CI ? 1 : 0,
    pool: 'forks',
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
    reporters: ['default', './tests/helpers/summary-reporter.ts'],
    globalSetup: ['./tests/helpers/temp-dirs.ts'],
  },
});
