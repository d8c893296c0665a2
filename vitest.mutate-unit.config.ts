import { defineConfig } from 'vitest/config';
import base from './vitest.config';

/** Fast mutation runs: only the Node unit tests (test/api, test/core, test/bulk), which import src/ directly. */
export default defineConfig({
  test: {
    ...base.test,
    include: ['test/api/**/*.test.ts', 'test/core/**/*.test.ts', 'test/bulk/**/*.test.ts'],
    reporters: ['default'],
  },
});
