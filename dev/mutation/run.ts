/**
 * `npm run mutate [-- --unit] [-- <stryker options>]`: runs StrykerJS, then
 * prints the per-file score table (dev/mutation/scores.ts). `--unit` is the
 * fast mode: the Node unit tests only (stryker.unit.config.mjs). Any other
 * argument goes to Stryker, e.g. `--mutate src/api/filters.ts`.
 */
import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
const unit = args.includes('--unit');
const config = unit ? 'stryker.unit.config.mjs' : 'stryker.config.mjs';
const report = unit ? 'reports/mutation-unit/mutation.json' : 'reports/mutation/mutation.json';

const run = (cmd: string, cmdArgs: string[]) => spawnSync(cmd, cmdArgs, { cwd: root, stdio: 'inherit' }).status ?? 1;

const stryker = run(join(root, 'node_modules/.bin/stryker'), ['run', config, ...args.filter((a) => a !== '--unit')]);
if (stryker !== 0) process.exit(stryker);
process.exit(run(process.execPath, ['--import', 'tsx', join(root, 'dev/mutation/scores.ts'), report]));
