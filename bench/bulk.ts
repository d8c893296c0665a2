/**
 * Bulk benchmark: custom subscriptions created from sheet rows through the
 * real bundle in the emulator, against the sandbox with 300 ms of latency per
 * request, beside a sequential baseline (the same code, one row per request)
 * in the same run. Each call the sidebar makes is one execution; here every
 * execution asks for the longest step (4.5 min), as the hourly dispatcher runs.
 * Figures are printed, never asserted.
 */
import { GasEmulator } from '../dev/gas/runner';
import type { Counters } from '../dev/gas/execution';
import { type SandboxHandle, startSandbox } from '../dev/sandbox/harness';
import { printTable } from './table';
import { LOCAL_TEST_SERVERS } from '../dev/gas/allow-list';

const LATENCY_MS = 300;
const LONG_STEP_S = 270;

interface Row {
  variant: string;
  rows: number;
  batch: number;
  executions: number;
  firstExecutionRows: number;
  wallMs: number;
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

function run(sb: SandboxHandle, variant: string, n: number, batch: number, cat: { clientes: number[]; produto: number }): Row {
  const emu = new GasEmulator({ startAt: new Date('2026-11-22T10:00:00-03:00'), urlFetchWhitelist: LOCAL_TEST_SERVERS });
  emu.run('saveConnection', [{ name: 'Bench', baseUrl: sb.baseUrl, apiKey: sb.orgs[0].apiKey, isDefault: true }]);
  const template = emu.run('createBulkTemplate', ['criarAssinaturaPersonalizada']) as { ok: true; value: { sheetName: string } };
  const sheet = template.value.sheetName;
  emu.withServices((s) => {
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
  });
  const first = emu.history.length;
  const started = performance.now();
  let out = emu.run('startBulkRun', [
    { operation: 'criarAssinaturaPersonalizada', sheetName: sheet, connection: 'Bench', scope: 'all', batchSize: batch, stepSeconds: LONG_STEP_S },
  ]) as Outcome;
  if (!out.ok) throw new Error(`bench: ${out.message}`);
  const firstExecutionRows = out.value.processed;
  while (!out.value.done) {
    out = emu.run('continueBulkRun', [out.value.jobId, LONG_STEP_S]) as Outcome;
    if (!out.ok) throw new Error(`bench: ${out.message}`);
    if (emu.history.length - first > 20) throw new Error('bench: did not finish in 20 executions');
  }
  const wallMs = performance.now() - started;
  const executions = emu.history.slice(first);
  return {
    variant,
    rows: n,
    batch,
    executions: executions.length,
    firstExecutionRows,
    wallMs,
    virtualMs: executions.reduce((t, r) => t + r.counters.virtualMs, 0),
    counters: sum(executions.map((r) => r.counters)),
    done: out.value.counts.ok,
  };
}

export async function benchBulk(options: { quick?: boolean; rows?: number; baselineRows?: number } = {}): Promise<void> {
  const n = options.rows ?? (options.quick ? 200 : 1_000);
  // The baseline spends 300 ms per row for real: it is measured on fewer rows and its per-execution figures extrapolated.
  const baselineRows = Math.min(n, options.baselineRows ?? (options.quick ? 50 : 200));
  const sb = await startSandbox({ seed: 1, size: 'small', config: { faults: [{ kind: 'latency', ms: LATENCY_MS }] } });
  const rows: Row[] = [];
  try {
    const cat = await catalog(sb);
    rows.push(run(sb, 'complemento (lotes de 10)', n, 10, cat));
    await sb.reset();
    rows.push(run(sb, 'sequencial (1 por vez)', baselineRows, 1, cat));
  } finally {
    await sb.stop();
  }
  // An execution stops its step at 4.5 min (well before the 6-minute kill): what one execution completes at the measured pace.
  const perExecution = (r: Row) => Math.floor((r.rows / r.virtualMs) * LONG_STEP_S * 1000);
  console.log(`\nLançamentos em lote: assinaturas personalizadas (latência de ${LATENCY_MS} ms por requisição)`);
  printTable(
    [
      'variante',
      'linhas',
      'criadas',
      'execuções',
      'linhas na 1ª execução',
      'linhas por execução (ritmo)',
      'ondas HTTP',
      'requisições',
      'chamadas Planilhas',
      'tempo virtual (s)',
      'tempo real (s)',
    ],
    rows.map((r) => [
      r.variant,
      r.rows,
      r.done,
      r.executions,
      r.firstExecutionRows,
      perExecution(r),
      r.counters.urlFetchWaves,
      r.counters.urlFetchRequests,
      r.counters.spreadsheetCalls,
      (r.virtualMs / 1000).toFixed(1),
      (r.wallMs / 1000).toFixed(1),
    ]),
  );
  const [a, b] = rows;
  console.log(
    `- ${n} linhas: ${a.executions === 1 ? 'todas em uma execução (meta atingida)' : `${a.executions} execuções (meta: uma)`}; ` +
      `no mesmo ritmo o sequencial precisaria de ${Math.ceil(n / Math.max(1, perExecution(b)))} execuções (medido em ${b.rows} linhas); ` +
      `${(b.counters.urlFetchWaves / b.rows / (a.counters.urlFetchWaves / a.rows)).toFixed(1)}× menos ondas HTTP por linha.`,
  );
}

if (process.argv[1]?.endsWith('bulk.ts')) {
  benchBulk({ quick: process.argv.includes('--quick') }).catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
