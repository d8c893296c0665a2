/**
 * Fechamento da competência of a 50,000-invoice company: its invoices, NFS-e
 * and charges (50,000 each of invoices and charges, and the notes the sandbox
 * issues for them) pulled first (default costs), then the close of 10/2026
 * built from the three sheets in one execution under the pessimistic cost
 * model. Prints the virtual time, Spreadsheet calls and cells, and the share
 * of the 6-minute limit. Figures are printed, never asserted.
 */
import { LOCAL_TEST_SERVERS } from '../dev/gas/allow-list';
import { COST_MODELS, DEFAULT_BUDGET_MS } from '../dev/gas/clock';
import { GasEmulator } from '../dev/gas/runner';
import { startSandbox } from '../dev/sandbox/harness';
import { printTable } from './table';

interface Progress {
  reportId: string;
  done: boolean;
  rows: number;
  status: string;
  message?: string;
}

/** Pulls one listing whole into its own sheet and report; returns the report and its rows. */
function pull(emu: GasEmulator, listing: string, name: string, filters: Record<string, unknown> = {}): Progress {
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

export async function benchClosing(n = 50_000): Promise<void> {
  const sb = await startSandbox({ seed: 3, size: 'small' });
  const rows: Array<Array<string | number>> = [];
  try {
    await sb.reset({ size: { faturas: n, cobrancas: n, clientes: 2_000, transacoes: 10, assinaturas: 10 } });
    const emu = new GasEmulator({
      startAt: new Date('2026-11-22T13:00:00Z'),
      realTimeoutMs: 3_600_000,
      countRealTime: false,
      urlFetchWhitelist: LOCAL_TEST_SERVERS,
    });
    emu.run('saveConnection', [{ name: 'Bench', baseUrl: sb.baseUrl, apiKey: sb.orgs[0].apiKey }]);
    const invoices = pull(emu, 'faturas', 'Faturas');
    const notes = pull(emu, 'nfse', 'Notas');
    const charges = pull(emu, 'cobrancas', 'Cobranças', { isExibeCanceladas: true });
    const report = emu.execute(
      'createDashboard',
      [{ kind: 'fechamento', reportId: invoices.reportId, secondReportId: notes.reportId, chargesReportId: charges.reportId, competencia: '10/2026' }],
      { costs: COST_MODELS.pessimistic },
    );
    const value = report.value as { ok?: boolean; message?: string } | undefined;
    if (report.status !== 'ok' || !value?.ok) throw new Error(`bench: fechamento ${report.status}: ${report.error?.message ?? value?.message}`);
    const ms = report.counters.virtualMs;
    rows.push([
      `${invoices.rows.toLocaleString('pt-BR')} faturas, ${notes.rows.toLocaleString('pt-BR')} NFS-e, ${charges.rows.toLocaleString('pt-BR')} cobranças`,
      `${(ms / 1000).toFixed(1)} s`,
      report.counters.spreadsheetCalls,
      report.counters.cellsRead,
      report.counters.cellsWritten,
      `${((ms / DEFAULT_BUDGET_MS) * 100).toFixed(1)}%`,
    ]);
  } finally {
    await sb.stop();
  }
  console.log('\nFechamento da competência 10/2026 (custos pessimistas, uma execução)');
  printTable(['relatórios', 'tempo virtual', 'chamadas Planilhas', 'células lidas', 'células gravadas', 'do limite de 6 min'], rows);
}
