/**
 * `npm run mutate [-- --unit] [-- <stryker options>]`: runs StrykerJS, then
 * prints the per-file score table (dev/mutation/scores.ts). `--unit` is the
 * fast mode: the Node unit tests only (stryker.unit.config.mjs). Any other
 * argument goes to Stryker, e.g. `--mutate src/api/filters.ts`.
 *
 * Stryker records the checkout's absolute path as `projectRoot` in its
 * incremental file, which the fast mode keeps in git: it is set back to `.`
 * after every run, so the committed file names no place outside the
 * repository (Stryker reads files and tests from it by relative name only).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
const unit = args.includes('--unit');
const config = unit ? 'stryker.unit.config.mjs' : 'stryker.config.mjs';
const report = unit ? 'reports/mutation-unit/mutation.json' : 'reports/mutation/mutation.json';

/** Rewrites the incremental file's `projectRoot` as `.`, in the layout Stryker writes (two-space JSON, no final newline). */
function relativeRoot(path: string): void {
  if (!existsSync(path)) return;
  const incremental = JSON.parse(readFileSync(path, 'utf8')) as { projectRoot?: string };
  if (incremental.projectRoot === '.') return;
  incremental.projectRoot = '.';
  writeFileSync(path, JSON.stringify(incremental, null, 2), 'utf8');
}

const run = (cmd: string, cmdArgs: string[]) => spawnSync(cmd, cmdArgs, { cwd: root, stdio: 'inherit' }).status ?? 1;

const { incrementalFile } = ((await import(pathToFileURL(join(root, config)).href)) as { default: { incrementalFile: string } }).default;
const stryker = run(join(root, 'node_modules/.bin/stryker'), ['run', config, ...args.filter((a) => a !== '--unit')]);
relativeRoot(join(root, incrementalFile));
if (stryker !== 0) process.exit(stryker);
process.exit(run(process.execPath, ['--import', 'tsx', join(root, 'dev/mutation/scores.ts'), report]));
