import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    reporters: ['default', './test/summary-reporter.ts'],
    setupFiles: ['./test/fast-check-seed.ts'],
    globalSetup: ['./test/global-setup.ts'],
    // Synchronous HTTP blocks a worker's thread; forks keep that away from vitest's own RPC.
    pool: 'forks',
    // A worker process runs file after file: starting one per file cost more than most files' tests.
    // Each file still imports its own copy of itself; what a file starts (emulators, pages) it ends,
    // and what it borrows (a sandbox, the browser) it gets back as if new.
    isolate: false,
    // Vitest's default is one worker fewer than the cores: one on a 2-core machine. Workers spend much
    // of their time waiting on a sandbox, Chromium or a slow-service fault, so there are more than cores.
    maxWorkers: Math.max(2, Math.round(availableParallelism() * 1.5)),
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
