// @ts-check
/**
 * `npm run mutate -- --unit`: the fast mode. Same mutants, judged by the Node unit
 * tests only (no emulator, no bundle), with its own incremental file, so a
 * score measured here is a lower bound of the full run's.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
import base from './stryker.config.mjs';

export default {
  ...base,
  vitest: { configFile: 'vitest.mutate-unit.config.ts', related: true },
  // Committed: a rerun (by anyone) retests only the mutants whose code or covering tests changed.
  incrementalFile: 'mutation/incremental-unit.json',
  // Unit tests finish in milliseconds: a mutant that loops is given up on after seconds, not a minute.
  timeoutMS: 5_000,
  htmlReporter: { fileName: 'reports/mutation-unit/index.html' },
  jsonReporter: { fileName: 'reports/mutation-unit/mutation.json' },
};
