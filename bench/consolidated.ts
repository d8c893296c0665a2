/**
 * Consolidated report benchmark: three companies' invoices refreshed by the
 * hourly trigger, as one consolidated report (every company's pages in the
 * same waves) and as three one-company reports (each its own waves). The real
 * bundle in the emulator under the pessimistic cost model, the sandbox with
 * 300 ms of latency per round trip, in virtual time only. Figures are
 * printed, never asserted.
 */
import { LOCAL_TEST_SERVERS } from '../dev/gas/allow-list';
import { COST_MODELS } from '../dev/gas/clock';
import type { Counters } from '../dev/gas/execution';
import { GasEmulator } from '../dev/gas/runner';
import { startSandbox } from '../dev/sandbox/harness';
import { sum } from './import';
import { printTable } from './table';

const LATENCY_MS = 300;
const COMPANIES = 3;

interface Row {
  variant: string;
  rows: number;
  executions: number;
  longestMs: number;
  counters: Counters;
  results: string;
}

type Report = { id: string; lastRun: { result: string; rows: number } };

function measure(baseUrl: string, keys: string[], consolidated: boolean): Row {
  const emu = new GasEmulator({
    startAt: new Date('2026-11-22T10:00:00-03:00'),
    realTimeoutMs: 3_600_000,
    countRealTime: false,
    latency: { ms: LATENCY_MS },
    urlFetchWhitelist: LOCAL_TEST_SERVERS,
    costs: COST_MODELS.pessimistic,
  });
  keys.forEach((apiKey, i) => emu.run('saveConnection', [{ name: `Empresa ${i + 1}`, baseUrl, apiKey, isDefault: i === 0 }]));
  const forms = consolidated
    ? [{ connection: '', companies: { all: true }, sheetName: 'Consolidado', name: 'Consolidado' }]
    : keys.map((_, i) => ({ connection: `Empresa ${i + 1}`, sheetName: `Empresa ${i + 1}`, name: `Empresa ${i + 1}` }));
  for (const form of forms) {
    const r = emu.run('startImportRun', [{ listing: 'faturas', filters: {}, ...form }]) as { ok: boolean; value: { reportId: string }; message?: string };
    if (!r.ok) throw new Error(`bench: ${r.message}`);
    // The first pull runs in the hourly trigger too; each report is then scheduled every hour.
    emu.run('setReportSchedule', [r.value.reportId, { kind: 'hourly' }, false]);
  }
  // The first pulls run unattended in the hourly trigger; the refresh measured is the scheduled one after them.
  const at = (hour: number) => new Date(`2026-11-22T${String(hour).padStart(2, '0')}:05:00-03:00`);
  const settled = () => (emu.run('listReports') as Report[]).every((r) => r.lastRun.result !== 'em andamento');
  let hour = 11;
  do emu.runDueTriggers(at(hour++));
  while (!settled() && hour < 17);
  const first = emu.history.length;
  do emu.runDueTriggers(at(hour++));
  while (!settled() && hour < 23);
  const executions = emu.history.slice(first).filter((r) => r.functionName === 'runScheduledReports');
  const reports = emu.run('listReports') as Report[];
  return {
    variant: consolidated ? 'consolidado (1 relatório)' : `${COMPANIES} relatórios, um por empresa`,
    rows: reports.reduce((n, r) => n + r.lastRun.rows, 0),
    executions: executions.length,
    longestMs: Math.max(...executions.map((r) => r.counters.virtualMs)),
    counters: sum(executions),
    results: [...new Set(reports.map((r) => r.lastRun.result))].join(', '),
  };
}

export async function benchConsolidated(n = 3_000): Promise<void> {
  const sb = await startSandbox({ seed: 1, size: 'small' });
  let rows: Row[];
  try {
    await sb.reset({ size: { faturas: n, clientes: 100, cobrancas: 10, transacoes: 10, assinaturas: 10 } });
    const keys = sb.orgs.slice(0, COMPANIES).map((o) => o.apiKey);
    rows = [measure(sb.baseUrl, keys, true), measure(sb.baseUrl, keys, false)];
  } finally {
    await sb.stop();
  }
  console.log(
    `\nRelatório consolidado agendado: ${COMPANIES} empresas × ${n.toLocaleString('pt-BR')} faturas, atualização pelo acionador de hora em hora (modelo pessimista, latência de ${LATENCY_MS} ms)`,
  );
  printTable(
    ['variante', 'linhas', 'execuções', 'maior execução (s)', 'ondas HTTP', 'requisições', 'chamadas Planilhas', 'resultado'],
    rows.map((r) => [
      r.variant,
      r.rows,
      r.executions,
      (r.longestMs / 1000).toFixed(1),
      r.counters.urlFetchWaves,
      r.counters.urlFetchRequests,
      r.counters.spreadsheetCalls,
      r.results,
    ]),
  );
  const [one, three] = rows;
  console.log(
    `- consolidado: ${one.executions === 1 ? 'uma execução' : `${one.executions} execuções`}; ${(three.counters.urlFetchWaves / one.counters.urlFetchWaves).toFixed(1)}× menos ondas HTTP que ${COMPANIES} relatórios separados`,
  );
}
