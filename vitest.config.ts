import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['**/src/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**'],
    // Workers are forked from the built JavaScript: build it before any test runs.
    globalSetup: ['./server/src/testing/buildWorkers.ts'],
    testTimeout: 60000,
    hookTimeout: 60000,
    pool: 'forks',
    // Two test files at a time on a 2-core machine (the default would be one): most of a
    // scenario test is waiting on its choreography (stalls, leases, latches), not computing.
    maxWorkers: 2,
    // Tests marked concurrent (the CLI's, the near-misses) run three at a time within their file.
    maxConcurrency: 3,
  },
});
