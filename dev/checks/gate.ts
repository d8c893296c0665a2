/**
 * `npm test`: the build, the type-checks and the lint, then the tests, with what
 * is independent run at once. The type-checks and the lint do not wait for the
 * build, nor the tests for them; the tests wait for the build (the playground
 * serves dist/). Each check's output is held and printed whole when the tests
 * have finished (vitest redraws its own lines while it runs), then one line per
 * step; the exit status is 1 if any step failed.
 *
 * Usage: tsx dev/checks/gate.ts [vitest arguments]
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const scripts = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
// As npm runs a script: the project's own binaries first.
const env = { ...process.env, PATH: [join(root, 'node_modules/.bin'), process.env.PATH].join(delimiter) };

interface Outcome {
  name: string;
  ok: boolean;
  seconds: number;
  output: string;
}

/** Runs a shell command; `live` lets it write to the terminal, otherwise its output is kept for later. */
function run(name: string, command: string, live = false): Promise<Outcome> {
  const started = Date.now();
  return new Promise((done) => {
    const child = spawn(command, { cwd: root, env, shell: true, stdio: live ? 'inherit' : ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    child.stdout?.on('data', (c: Buffer) => chunks.push(c));
    child.stderr?.on('data', (c: Buffer) => chunks.push(c));
    const finish = (ok: boolean, extra = '') =>
      done({ name, ok, seconds: (Date.now() - started) / 1000, output: Buffer.concat(chunks).toString('utf8') + extra });
    child.on('error', (err) => finish(false, `\n${err.message}\n`));
    child.on('close', (code, signal) => finish(code === 0, signal ? `\nended by ${signal}\n` : ''));
  });
}

const quoted = (arg: string) => `'${arg.replaceAll("'", `'\\''`)}'`;
const vitest = ['vitest run', ...process.argv.slice(2).map(quoted)].join(' ');

const checks = [run('typecheck', scripts.typecheck), run('lint', scripts.lint)];
const build = await run('build', scripts.build);
process.stdout.write(build.output);
const tests = build.ok ? await run('vitest', vitest, true) : { name: 'vitest', ok: false, seconds: 0, output: '' };
const outcomes = [build, ...(await Promise.all(checks)), tests];

for (const o of outcomes.filter((o) => o.name !== 'build' && o.output.trim() !== '')) {
  process.stdout.write(`\n── ${o.name}\n${o.output}`);
}
process.stdout.write('\n');
for (const o of outcomes) {
  const status = o.ok ? 'ok' : o === tests && !build.ok ? 'not run (the build failed)' : 'FAILED';
  process.stdout.write(`${o.name}: ${status} (${o.seconds.toFixed(1)} s)\n`);
}
process.exitCode = outcomes.every((o) => o.ok) ? 0 : 1;
