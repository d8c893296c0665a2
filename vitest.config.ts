import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    reporters: ['default', './test/summary-reporter.ts'],
    setupFiles: ['./test/fast-check-seed.ts'],
    // Synchronous HTTP blocks a worker's thread; forks keep that away from vitest's own RPC.
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
