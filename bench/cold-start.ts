/**
 * Cold start: every Apps Script execution parses the whole bundle and runs its
 * top level before the called function. Measured as Node's vm does it, a fresh
 * script and context each time, for today's bundle and for the bundle of the
 * commit this work started from (557cfac), built in a temporary folder, in the
 * same run so the ratio holds whatever the machine's load.
 */
import { execSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const BASELINE_COMMIT = '557cfac';

/** The baseline's dist/Code.js, built once per machine from `git archive`. */
function baselineBundle(): string {
  const dir = join(tmpdir(), `faturamento-bundle-${BASELINE_COMMIT}`);
  const code = join(dir, 'dist/Code.js');
  if (existsSync(code)) return code;
  mkdirSync(dir, { recursive: true });
  execSync(`git archive ${BASELINE_COMMIT} | tar -x -C ${JSON.stringify(dir)}`, { cwd: root, stdio: 'inherit', shell: '/bin/bash' });
  if (!existsSync(join(dir, 'node_modules'))) symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  execSync('npx tsx build.ts', { cwd: dir, stdio: 'ignore' });
  return code;
}

/** Median ms to compile and run `code` in a fresh context; runs alternate between bundles to share the machine's noise. */
function medians(codes: string[], runs: number): number[] {
  const times = codes.map(() => [] as number[]);
  for (let i = 0; i < runs; i++) {
    codes.forEach((code, k) => {
      const started = performance.now();
      // A different source each time: no compilation cache between executions, as in Apps Script.
      new vm.Script(`${code}\n//${i}`, { filename: 'Code.gs' }).runInContext(vm.createContext({}));
      times[k].push(performance.now() - started);
    });
  }
  return times.map((t) => t.sort((a, b) => a - b)[Math.floor(t.length / 2)]);
}

export function benchColdStart(quick = false): void {
  const current = readFileSync(join(root, 'dist/Code.js'), 'utf8');
  const baseline = readFileSync(baselineBundle(), 'utf8');
  const [now, before] = medians([current, baseline], quick ? 10 : 40);
  console.log('\nPartida a frio (compilar e avaliar o pacote num contexto novo, mediana)');
  console.log(`- pacote de ${BASELINE_COMMIT}: ${(baseline.length / 1024).toFixed(0)} KB, ${before.toFixed(1)} ms`);
  console.log(`- pacote atual: ${(current.length / 1024).toFixed(0)} KB, ${now.toFixed(1)} ms`);
  console.log(`- razão: ${((now / before) * 100).toFixed(0)}% do de ${BASELINE_COMMIT} (meta: ≤ 45%)`);
}
