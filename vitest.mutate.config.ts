import { defineConfig } from 'vitest/config';
import { common } from './vitest.config';

/** Mutation runs: only the tests that exercise src/ (the sandbox's, the emulator's own and the layer check's do not). */
export default defineConfig({
  test: {
    ...common,
    include: ['test/api/**/*.test.ts', 'test/core/**/*.test.ts', 'test/bulk/**/*.test.ts', 'test/addon/**/*.test.ts'],
    reporters: ['default'],
    // Each file imports src/ afresh, so nothing src/ memoizes under one mutant is seen under the next.
    isolate: true,
  },
});
