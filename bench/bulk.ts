/**
 * Bulk benchmark: custom subscriptions created from sheet rows through the
 * real bundle in the emulator, against the sandbox, with 300 ms of latency per
 * round trip in virtual time, beside a sequential baseline (the same code, one
 * row per request) in the same run. Each call the sidebar makes is one
 * execution; here every execution asks for the longest step (4.5 min), as the
 * hourly dispatcher runs. Figures are printed beside their targets (at the
 * pessimistic model: 1,000 rows within 1.2× their bound, 4,000 within 1.3×),
 * never asserted; virtual time only, so two runs print the same.
 */
import { COST_MODELS, DEFAULT_BUDGET_MS, FETCH_ALL_CONCURRENCY } from '../dev/gas/clock';
import { GasEmulator } from '../dev/gas/runner';
import type { Counters } from '../dev/gas/execution';
import { type SandboxHandle, startSandbox } from '../dev/sandbox/harness';
import { beside, dec, note, printTable } from './table';
import { LOCAL_TEST_SERVERS } from '../dev/gas/allow-list';

const LATENCY_MS = 300;
const LONG_STEP_S = 270;
/** The bound's ratio each size must stay within, at the pessimistic model. */
const TARGETS: Record<number, number> = { 1000: 1.2, 4000: 1.3 };

type Model = keyof typeof COST_MODELS;
const MODEL_NAMES: Record<Model, string> = { optimistic: 'otimista', pessimistic: 'pessimista' };
/** The columns of the bench's rows the user types; the rest of the sheet is what the run writes back. */
const INPUT_COLUMNS = 10;

interface Row {
  model: Model;
  variant: string;
  /** Columns the run writes back per row (status, ID, message...). */
  resultColumns: number;
  /** Batches the run sent (each marked, sent and written back together). */
  batches: number;
  rows: number;
  batch: number | undefined;
  executions: number;
  firstExecutionRows: number;
  virtualMs: number;
  counters: Counters;
  done: number;
}

type Outcome =
  | { ok: true; value: { jobId: string; done: boolean; processed: number; counts: Record<string, number>; status: string; message?: string } }
  | { ok: false; message: string };

function sum(list: Counters[]): Counters {
  const out = { ...list[0] };
  for (const c of list.slice(1)) for (const k of Object.keys(out) as (keyof Counters)[]) out[k] += c[k];
  return out;
}

async function catalog(sb: SandboxHandle): Promise<{ clientes: number[]; produto: number }> {
  const clientes = (await sb.dump<{ idCliente: number; isAtivo: boolean }>(sb.orgs[0].name, 'clientes')).filter((c) => c.isAtivo).map((c) => c.idCliente);
  const [produto] = await sb.dump<{ idProduto: number }>(sb.orgs[0].name, 'produtos');
  return { clientes, produto: produto.idProduto };
}

function run(sb: SandboxHandle, variant: string, n: number, batch: number | undefined, cat: { clientes: number[]; produto: number }, model: Model): Row {
  const emu = new GasEmulator({
    startAt: new Date('2026-11-22T10:00:00-03:00'),
    urlFetchWhitelist: LOCAL_TEST_SERVERS,
    costs: COST_MODELS[model],
    countRealTime: false,
    latency: { ms: LATENCY_MS },
    realTimeoutMs: 3_600_000,
  });
  emu.run('saveConnection', [{ name: 'Bench', baseUrl: sb.baseUrl, apiKey: sb.orgs[0].apiKey, isDefault: true }]);
  const template = emu.run('createBulkTemplate', ['criarAssinaturaPersonalizada']) as { ok: true; value: { sheetName: string } };
  const sheet = template.value.sheetName;
  const resultColumns = emu.withServices((s) => {
    const rows = Array.from({ length: n }, (_, i) => [
      '',
      cat.clientes[i % cat.clientes.length],
      '05/11/2026',
      '11/2026',
      'MENSAL',
      cat.produto,
      `Honorários ${i + 1}`,
      100 + (i % 500),
      'AGRUPADA',
      10,
    ]);
    // Row 2 keeps the template's example; the data starts below it, past the template's formatted rows if need be.
    const sh = s.SpreadsheetApp.getActiveSpreadsheet().getSheetByName(sheet)!;
    if (sh.getMaxRows() < n + 2) sh.insertRowsAfter(sh.getMaxRows(), n + 2 - sh.getMaxRows());
    sh.getRange(3, 1, n, rows[0].length).setValues(rows as never);
    return sh.getLastColumn() - INPUT_COLUMNS;
  });
  // Each batch flushes its PENDENTE marks once before sending: a flush followed by a wave of requests is a batch
  // (an execution also flushes as it ends, with nothing sent after it).
  let batches = 0;
  let flushed = false;
  const onServiceCall = (call: { object: string; method: string }) => {
    if (call.method === 'flush') flushed = true;
    else if (flushed && call.object === 'UrlFetchApp') {
      batches++;
      flushed = false;
    }
  };
  const first = emu.history.length;
  const started = performance.now();
  let out = emu.run(
    'startBulkRun',
    [{ operation: 'criarAssinaturaPersonalizada', sheetName: sheet, connection: 'Bench', scope: 'all', batchSize: batch, stepSeconds: LONG_STEP_S }],
    { onServiceCall },
  ) as Outcome;
  if (!out.ok) throw new Error(`bench: ${out.message}`);
  const firstExecutionRows = out.value.processed;
  while (!out.value.done) {
    out = emu.run('continueBulkRun', [out.value.jobId, LONG_STEP_S], { onServiceCall }) as Outcome;
    if (!out.ok) throw new Error(`bench: ${out.message}`);
    if (emu.history.length - first > 20) throw new Error('bench: did not finish in 20 executions');
  }
  note(`bench: lote ${variant}, ${n} linhas, modelo ${MODEL_NAMES[model]}: ${((performance.now() - started) / 1000).toFixed(1)} s de tempo real`);
  const executions = emu.history.slice(first);
  return {
    model,
    variant,
    resultColumns,
    batches,
    rows: n,
    batch,
    executions: executions.length,
    firstExecutionRows,
    virtualMs: executions.reduce((t, r) => t + r.counters.virtualMs, 0),
    counters: sum(executions.map((r) => r.counters)),
    done: out.value.counts.ok,
  };
}

/** Rows each execution could complete at the measured pace, inside one step of LONG_STEP_S. */
const perExecution = (r: Row) => Math.floor((r.rows / r.virtualMs) * LONG_STEP_S * 1000);

/**
 * The least time any client could take: every row is one request, at most
 * FETCH_ALL_CONCURRENCY of them per round trip, each row's results written
 * once at the model's cost per cell (formatted), and the start-up of each
 * execution that much work needs at the least (one per 6 minutes).
 */
function bound(r: Row): number {
  const costs = COST_MODELS[r.model];
  const waves = Math.ceil(r.rows / FETCH_ALL_CONCURRENCY);
  const work = waves * (LATENCY_MS + costs.urlFetchCallMs) + r.rows * r.resultColumns * (costs.cellWriteMs + costs.formatCellMs);
  return work + Math.max(1, Math.ceil(work / DEFAULT_BUDGET_MS)) * costs.startupMs;
}

export async function benchBulk(options: { quick?: boolean; sizes?: number[]; baselineRows?: number } = {}): Promise<void> {
  const sizes = options.sizes ?? (options.quick ? [200] : [1_000, 4_000]);
  // The baseline is measured on fewer rows and its per-execution figures extrapolated.
  const baselineRows = Math.min(sizes[0], options.baselineRows ?? (options.quick ? 50 : 200));
  const sb = await startSandbox({ seed: 1, size: 'small' });
  const rows: Row[] = [];
  try {
    const cat = await catalog(sb);
    for (const model of ['pessimistic', 'optimistic'] as const) {
      for (const n of sizes) {
        rows.push(run(sb, 'complemento (lote do planejador)', n, undefined, cat, model));
        await sb.reset();
      }
    }
    rows.push(run(sb, 'sequencial (1 por vez)', baselineRows, 1, cat, 'pessimistic'));
  } finally {
    await sb.stop();
  }
  console.log(`\nLançamentos em lote: assinaturas personalizadas (latência de ${LATENCY_MS} ms por ida e volta)`);
  printTable(
    [
      'modelo',
      'variante',
      'linhas',
      'criadas',
      'execuções',
      'linhas na 1ª execução',
      'linhas por execução (ritmo)',
      'lotes',
      'ondas HTTP',
      'requisições',
      'chamadas Planilhas',
      'tempo virtual (s)',
      'limite (s)',
      'razão ao limite',
      'meta',
    ],
    rows.map((r) => {
      const target = r.model === 'pessimistic' && r.batch === undefined ? TARGETS[r.rows] : undefined;
      return [
        MODEL_NAMES[r.model],
        r.variant,
        r.rows,
        r.done,
        r.executions,
        r.firstExecutionRows,
        perExecution(r),
        r.batches,
        r.counters.urlFetchWaves,
        r.counters.urlFetchRequests,
        r.counters.spreadsheetCalls,
        dec(r.virtualMs / 1000),
        dec(bound(r) / 1000),
        `${dec(r.virtualMs / bound(r), 2)}×`,
        target === undefined ? '—' : `≤ ${dec(target)}×`,
      ];
    }),
  );
  const baseline = rows[rows.length - 1];
  for (const a of rows.slice(0, -1)) {
    const ratio = a.virtualMs / bound(a);
    const target = a.model === 'pessimistic' ? TARGETS[a.rows] : undefined;
    console.log(
      `- ${MODEL_NAMES[a.model]}, ${a.rows} linhas: ${a.executions === 1 ? 'todas em uma execução' : `${a.executions} execuções`}; ` +
        `${dec(ratio, 2)}× o limite${target === undefined ? '' : ` (${beside(`≤ ${dec(target)}×`, ratio <= target)})`}, ${a.batches} lotes de ${Math.round(a.rows / a.batches)} linhas em média.`,
    );
  }
  const [first] = rows;
  console.log(
    `- sequencial, no mesmo ritmo, precisaria de ${Math.ceil(first.rows / Math.max(1, perExecution(baseline)))} execuções para ${first.rows} linhas (medido em ${baseline.rows}); ` +
      `${dec(baseline.counters.urlFetchWaves / baseline.rows / (first.counters.urlFetchWaves / first.rows))}× mais ondas HTTP por linha que o complemento.`,
  );
}

if (process.argv[1]?.endsWith('bulk.ts')) {
  benchBulk({ quick: process.argv.includes('--quick') }).catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
