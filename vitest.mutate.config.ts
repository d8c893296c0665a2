import { defineConfig } from 'vitest/config';
import base from './vitest.config';

/** Mutation runs: only the tests that exercise src/ (the sandbox's, the emulator's own and the layer check's do not). */
export default defineConfig({
  test: {
    ...base.test,
    include: ['test/api/**/*.test.ts', 'test/core/**/*.test.ts', 'test/addon/**/*.test.ts'],
    reporters: ['default'],
    // One pool for these files (not the suite's projects), each file importing src/ afresh: nothing
    // src/ memoizes under one mutant is seen under the next.
    projects: undefined,
    globalSetup: [],
    isolate: true,
  },
});
