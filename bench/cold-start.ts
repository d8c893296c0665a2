/**
 * Cold start: every Apps Script execution parses the whole bundle and runs its
 * top level before the called function. Today's bundle is set against the
 * bundle of an earlier commit (557cfac), built in a temporary folder.
 *
 * The figure beside the target is CPU time: a fresh script and context each
 * time, as Node's vm does it, today's bundle and 557cfac's in alternate pairs,
 * the median of the pairs' ratios. It is the one figure of `npm run bench`
 * on stdout that is not the same on every run: it moves a little with the
 * machine's load, which the pairing mostly cancels. The model beside it is
 * the same on every run and says why the CPU moves: the characters V8 must
 * parse at an execution's start (the script; the lazy chunks' files of the
 * project, dev/build/lazy-chunks.ts, are read and parsed only by an execution
 * that loads one); it does not count what the top level runs. The cost of an
 * execution that loads one of the chunks goes to stderr: its file's text,
 * compiled and run as the loader does it (the read itself is a service call,
 * which the emulator's cost model charges, not CPU of the script).
 */
import { execSync } from 'node:child_process';
import { bundleParts } from '../build';
import { existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { beside, note } from './table';

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
 * Compiles and runs a chunk as the bundle's loader does (`new Function`), in
 * the context the bundle was just run in. Its imports from the eager code are
 * stand-ins: what is timed is the parse and the chunk's own top level.
 */
const CHUNK_RUN = `(source) => {
  const any = new Proxy(function () {}, { get: (_, key) => (key === Symbol.toPrimitive ? () => 0 : any), apply: () => any, construct: () => any });
  return new Function('__pick', '__load', source)(() => any, () => any);
}`;

/** One fresh execution: the script's text, then optionally one chunk's file as its first call would load it. */
interface Execution {
  code: string;
  chunk?: string;
}

/** Numbers every execution of the process: its sources never repeat, so V8's compilation cache never serves one. */
let executionCount = 0;

function runOnce(e: Execution, id: string): void {
  const context = vm.createContext({});
  // A different source every time: V8 caches compilations by source, Apps Script starts from nothing.
  new vm.Script(`${e.code}\n//${id}`, { filename: 'Code.gs' }).runInContext(context);
  if (e.chunk !== undefined) (vm.runInContext(CHUNK_RUN, context) as (s: string) => unknown)(`${e.chunk}\n//${id}`);
}

/**
 * CPU ms of each of `executions`, `runs` times. Runs alternate their order
 * (forwards on even runs, backwards on odd ones), so a burst of load on the
 * shared machine lands on all; the first runs warm Node up and are dropped.
 */
function timings(executions: Execution[], runs: number, warmup = 5): number[][] {
  const times = executions.map(() => [] as number[]);
  for (let i = 0; i < runs + warmup; i++) {
    const order = i % 2 === 0 ? executions.map((_, k) => k) : executions.map((_, k) => executions.length - 1 - k);
    for (const k of order) {
      // CPU time, not wall time: on a shared machine a run put aside by the scheduler would count its wait.
      const started = process.cpuUsage();
      runOnce(executions[k], String(++executionCount));
      const used = process.cpuUsage(started);
      if (i >= warmup) times[k].push((used.user + used.system) / 1000);
    }
  }
  return times;
}

/** What each chunk is loaded for, in the words of the printed table. */
const CHUNK_USE: Record<string, string> = {
  import: 'atualizar um relatório',
  bulk: 'um passo de lançamento em lote',
  dashboards: 'atualizar um painel',
  diagnostics: 'o diagnóstico',
  central: 'a Central do escritório',
};

/** Today's start-up, at most this share of the earlier bundle's. */
const TARGET = 0.35;

/** What V8 parses at an execution's start, plus the chunk it loads if it loads one. */
function parseWeight(code: string, loaded?: string): number {
  return Buffer.byteLength(code) + (loaded === undefined ? 0 : Buffer.byteLength(loaded));
}

export async function benchColdStart(quick = false): Promise<void> {
  const { code, chunks } = await bundleParts();
  const baseline = readFileSync(baselineBundle(), 'utf8');
  const runs = quick ? 20 : 200;
  const pct = (r: number) => `${(r * 100).toFixed(0)}%`;
  const kb = (s: string) => `${(Buffer.byteLength(s) / 1024).toFixed(0)} KB`;
  /** Median CPU ms of `execution` and of the baseline, run side by side, and the quartiles of their ratio. */
  const against = (execution: Execution) => {
    const [now, before] = timings([execution, { code: baseline }], runs);
    // The ratio of each pair measured side by side: the machine's load cancels out of it.
    const ratios = now.map((t, i) => t / before[i]);
    return { now: quantile(now, 0.5), before: quantile(before, 0.5), ratio: [0.25, 0.5, 0.75].map((q) => quantile(ratios, q)) };
  };
  const names = Object.keys(chunks);
  const deferred = names.reduce((sum, n) => sum + Buffer.byteLength(chunks[n]), 0);
  const before = Buffer.byteLength(baseline);
  const modelled = parseWeight(code) / before;
  const plain = against({ code });
  console.log(`\nPartida a frio (compilar e avaliar o pacote a cada execução, contra o pacote de ${BASELINE_COMMIT})`);
  console.log(`- pacote de ${BASELINE_COMMIT}: ${kb(baseline)}`);
  console.log(
    `- pacote atual: ${kb(code)}, e ${(deferred / 1024).toFixed(0)} KB em ${names.length} partes em arquivos do projeto, lidas só por quem as carrega`,
  );
  console.log(
    `- tempo de CPU: ${pct(plain.ratio[1])} do de ${BASELINE_COMMIT} (${beside(`≤ ${pct(TARGET)}`, plain.ratio[1] <= TARGET)}; ` +
      `mediana das razões de ${runs} pares alternados, quartis ${pct(plain.ratio[0])}–${pct(plain.ratio[2])}; varia um pouco com a carga da máquina)`,
  );
  console.log(`- modelo (caracteres analisados no início de cada execução; o mesmo a cada execução): ${pct(modelled)}`);
  note(`partida a frio medida nesta máquina (CPU, medianas): ${BASELINE_COMMIT} ${plain.before.toFixed(1)} ms, atual ${plain.now.toFixed(1)} ms`);
  note('uma execução que também carrega uma das partes (lida do seu arquivo e compilada na primeira chamada de uma função dela), no modelo e em CPU:');
  for (const n of names) {
    const m = against({ code, chunk: chunks[n] });
    note(
      `  - "${n}" (${CHUNK_USE[n] ?? n}, ${kb(chunks[n])}): modelo ${pct(parseWeight(code, chunks[n]) / before)}, ` +
        `CPU ${m.now.toFixed(1)} ms, ${pct(m.ratio[1])} (quartis ${pct(m.ratio[0])}–${pct(m.ratio[2])})`,
    );
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  benchColdStart(process.argv.includes('--quick')).catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
