import { defineConfig } from 'vitest/config';

// Tests run without the Remix plugin: the server under test is started from the built app.
export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    // A guard against a hang, not a speed target (those live in bench/): the slowest tests take 20-28 s on an idle
    // machine (the list by tag against its oracle, the company's budget over 25 keys, a CLI's runs), and this shared
    // machine has been three times slower and more (stop 51's CI: a screen file 6x its idle time).
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // expect.poll waits up to 10 s, not vitest's default second: a screen or a server on this loaded, shared machine
    // may take a few seconds to get there; a poll that must be quicker says so itself.
    expect: { poll: { timeout: 10_000 } },
    // In CI (a shared, loaded machine) a failed test gets one more run. One that passes only then counts as passed
    // and as flaky: the summary reporter names it, and .ci/run fails when there are more than it allows.
    retry: process.env.CI ? 1 : 0,
    pool: 'forks',
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
    reporters: ['default', './tests/helpers/summary-reporter.ts'],
    globalSetup: ['./tests/helpers/temp-dirs.ts', './tests/helpers/pglite-template.ts'],
    // Every answer of the REST paths a test receives through fetch is checked against the OpenAPI document.
    setupFiles: ['./tests/helpers/openapi-setup.ts'],
  },
});
