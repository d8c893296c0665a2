// @ts-check
/**
 * `npm run mutate`: StrykerJS over src/api and src/core with the vitest runner.
 * No TypeScript checker: TypeScript 7 has no compiler API for it, and a mutant
 * that does not type-check still has to fail a test here. The emulator tests
 * build the bundle from the sandbox's src/ (dev/gas/bundle.ts) and hand it the
 * runner's active mutant, so end-to-end tests judge mutants too.
 * `npm run mutate -- --mutate src/api/filters.ts` narrows the run.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  testRunner: 'vitest',
  // related: false: end-to-end tests reach src/ through the bundle, outside vitest's module graph.
  vitest: { configFile: 'vitest.mutate.config.ts', related: false },
  mutate: ['src/api/**/*.ts', 'src/core/**/*.ts'],
  coverageAnalysis: 'perTest',
  incremental: true,
  incrementalFile: 'reports/stryker-incremental.json',
  ignoreStatic: true,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true },
  // Stryker rewrites the sandbox's tsconfig with the TypeScript API, which TypeScript 7 no longer has; vitest needs no tsconfig.
  tsconfigFile: 'no-tsconfig-for-stryker.json',
  // The machine is shared: one test process at a time.
  concurrency: 1,
  timeoutMS: 60_000,
  // The dry run is every test once: on a shared machine it can take longer than Stryker's 5 minutes.
  dryRunTimeoutMinutes: 20,
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
