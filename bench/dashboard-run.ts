/**
 * What the dashboard benchmarks share: an emulator with the sandbox's "Bench"
 * connection, listings pulled whole under the default costs, and one
 * createDashboard execution measured under the pessimistic cost model.
 */
import { LOCAL_TEST_SERVERS } from '../dev/gas/allow-list';
import { COST_MODELS, DEFAULT_BUDGET_MS } from '../dev/gas/clock';
import { GasEmulator } from '../dev/gas/runner';
import type { SandboxHandle } from '../dev/sandbox/harness';
import { printTable } from './table';

export interface Progress {
  reportId: string;
  done: boolean;
  rows: number;
  status: string;
  message?: string;
}

export function benchEmulator(sb: SandboxHandle): GasEmulator {
  const emu = new GasEmulator({
    startAt: new Date('2026-11-22T13:00:00Z'),
    realTimeoutMs: 3_600_000,
    countRealTime: false,
    urlFetchWhitelist: LOCAL_TEST_SERVERS,
  });
  emu.run('saveConnection', [{ name: 'Bench', baseUrl: sb.baseUrl, apiKey: sb.orgs[0].apiKey }]);
  return emu;
}

/** Pulls one listing whole into its own sheet and report; returns the report and its rows. */
export function pull(emu: GasEmulator, listing: string, name: string, filters: Record<string, unknown> = {}): Progress {
  const started = emu.run('startImportRun', [{ connection: 'Bench', listing, sheetName: name, filters, name }]) as {
    ok: boolean;
    value: Progress;
    message?: string;
  };
  if (!started.ok) throw new Error(`bench: ${started.message}`);
  let p = started.value;
  for (let guard = 0; !p.done; guard++) {
    if (guard > 1000) throw new Error(`bench: ${listing} never finished`);
    p = emu.run('continueReportRun', [p.reportId]) as Progress;
  }
  if (p.status !== 'done') throw new Error(`bench: ${listing} ended ${p.status}: ${p.message}`);
  return p;
}

/** One createDashboard execution under the pessimistic costs, as a table row after `label`. */
export function dashboardRow(emu: GasEmulator, label: string, form: Record<string, unknown>): Array<string | number> {
  const report = emu.execute('createDashboard', [form], { costs: COST_MODELS.pessimistic });
  const value = report.value as { ok?: boolean; message?: string } | undefined;
  if (report.status !== 'ok' || !value?.ok) throw new Error(`bench: ${form.kind} ${report.status}: ${report.error?.message ?? value?.message}`);
  const ms = report.counters.virtualMs;
  return [
    label,
    `${(ms / 1000).toFixed(1)} s`,
    report.counters.spreadsheetCalls,
    report.counters.cellsRead,
    report.counters.cellsWritten,
    `${((ms / DEFAULT_BUDGET_MS) * 100).toFixed(1)}%`,
  ];
}

export function printDashboardTable(title: string, firstColumn: string, rows: Array<Array<string | number>>): void {
  console.log(`\n${title}`);
  printTable([firstColumn, 'tempo virtual', 'chamadas Planilhas', 'células lidas', 'células gravadas', 'do limite de 6 min'], rows);
}
