import { defineConfig } from 'vitest/config';
import base from './vitest.config';

/**
 * Fast mutation runs: the Node tests of test/api, test/core and test/gas that
 * need no sandbox. Stryker reruns a covering test file per mutant, and a file
 * that starts the sandbox (a child process) in its beforeAll costs seconds each
 * time; those files still judge every mutant in the full run.
 */
export default defineConfig({
  test: {
    ...base.test,
    include: ['test/api/**/*.test.ts', 'test/core/**/*.test.ts', 'test/gas/**/*.test.ts'],
    exclude: [
      'test/api/contract.test.ts',
      'test/api/filters-contract.test.ts',
      'test/core/bulk/customers.test.ts',
      'test/core/bulk/exactly-once.test.ts',
      'test/core/bulk/sandbox-runs.test.ts',
      'test/core/central/central-sandbox.test.ts',
    ],
    reporters: ['default'],
    // One pool for these files (not the suite's projects), each file importing src/ afresh: nothing
    // src/ memoizes under one mutant is seen under the next.
    projects: undefined,
    globalSetup: [],
    isolate: true,
  },
});
