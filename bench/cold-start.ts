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

const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) * q)];

/**
 * CPU ms to compile and run each of `codes` in a fresh context, `runs` times.
 * Runs alternate between the bundles (the current one first on even runs, the
 * baseline first on odd ones), so a burst of load on the shared machine lands
 * on both; the first runs warm Node up and are dropped.
 */
function timings(codes: string[], runs: number, warmup = 5): number[][] {
  const times = codes.map(() => [] as number[]);
  for (let i = 0; i < runs + warmup; i++) {
    const order = i % 2 === 0 ? codes.map((_, k) => k) : codes.map((_, k) => codes.length - 1 - k);
    for (const k of order) {
      // CPU time, not wall time: on a shared machine a run put aside by the scheduler would count its wait.
      const started = process.cpuUsage();
      // A different source each time: no compilation cache between executions, as in Apps Script.
      new vm.Script(`${codes[k]}\n//${i}`, { filename: 'Code.gs' }).runInContext(vm.createContext({}));
      const used = process.cpuUsage(started);
      if (i >= warmup) times[k].push((used.user + used.system) / 1000);
    }
  }
  return times;
}

export function benchColdStart(quick = false): void {
  const current = readFileSync(join(root, 'dist/Code.js'), 'utf8');
  const baseline = readFileSync(baselineBundle(), 'utf8');
  const [now, before] = timings([current, baseline], quick ? 20 : 200);
  // The ratio of each pair measured side by side: the machine's load cancels out of it.
  const ratios = now.map((t, i) => t / before[i]);
  const pct = (r: number) => `${(r * 100).toFixed(0)}%`;
  console.log(`\nPartida a frio (compilar e avaliar o pacote num contexto novo; tempo de CPU, medianas de ${now.length} pares alternados)`);
  console.log(`- pacote de ${BASELINE_COMMIT}: ${(Buffer.byteLength(baseline) / 1024).toFixed(0)} KB, ${quantile(before, 0.5).toFixed(1)} ms`);
  console.log(`- pacote atual: ${(Buffer.byteLength(current) / 1024).toFixed(0)} KB, ${quantile(now, 0.5).toFixed(1)} ms`);
  console.log(
    `- razão: ${pct(quantile(ratios, 0.5))} do de ${BASELINE_COMMIT} (quartis ${pct(quantile(ratios, 0.25))}–${pct(quantile(ratios, 0.75))}; meta: ≤ 45%)`,
  );
}
