import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import LongestFirst from './test/sequencer';

const cores = availableParallelism();

export default defineConfig({
  test: {
    reporters: ['default', './test/summary-reporter.ts'],
    setupFiles: ['./test/fast-check-seed.ts'],
    globalSetup: ['./test/global-setup.ts'],
    // Synchronous HTTP blocks a worker's thread; forks keep that away from vitest's own RPC.
    pool: 'forks',
    // A worker process runs file after file: starting one per file cost more than most files' tests.
    // Each file still imports its own copy of itself; what a file starts (emulators, pages) it ends,
    // and what it borrows (a sandbox, the browser) it gets back as if new.
    isolate: false,
    // The longest files first, also in a clean clone that has no durations cached (test/sequencer.ts).
    sequence: { sequencer: LongestFirst },
    testTimeout: 60_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          include: ['test/**/*.test.ts'],
          exclude: ['test/browser/**'],
          // Vitest's default is one worker fewer than the cores (one, on a 2-core machine). These
          // workers spend much of their time waiting on a sandbox: more of them than cores.
          maxWorkers: Math.max(2, Math.round(cores * 1.5)),
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          include: ['test/browser/**/*.test.ts'],
          // After the others, which leave them the processor: the playground counts real time, and a
          // page that waits for a sidebar gives it a second or two. The pages wait more than they
          // compute, so a worker more than the cores (on two cores 86-90 s against 101 s, all passing).
          maxWorkers: Math.max(3, Math.round(cores * 1.5)),
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
