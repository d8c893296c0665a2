/**
 * Painel sobre 50.000 cobranças: the report (every charge, cancelled ones too)
 * pulled first (default costs), then
 * "Contas a receber por faixa de vencimento" and "Inadimplência por cliente"
 * built from its sheet, each in one execution under the pessimistic cost model
 * (Spreadsheet calls at 50 ms, cells read at 0.05 ms). Prints the virtual time,
 * Spreadsheet calls and cells, and the share of the 6-minute limit. Figures are
 * printed, never asserted.
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

export async function benchDashboards(n = 50_000): Promise<void> {
  const sb = await startSandbox({ seed: 3, size: 'small' });
  const rows: Array<Array<string | number>> = [];
  let imported = 0;
  try {
    await sb.reset({ size: { cobrancas: n, clientes: 400, faturas: 10, transacoes: 10, assinaturas: 10 } });
    const emu = new GasEmulator({
      startAt: new Date('2026-11-22T13:00:00Z'),
      realTimeoutMs: 3_600_000,
      countRealTime: false,
      urlFetchWhitelist: LOCAL_TEST_SERVERS,
    });
    emu.run('saveConnection', [{ name: 'Bench', baseUrl: sb.baseUrl, apiKey: sb.orgs[0].apiKey }]);
    const started = emu.run('startImportRun', [
      { connection: 'Bench', listing: 'cobrancas', sheetName: 'Cobranças', filters: { isExibeCanceladas: true }, name: 'Cobranças' },
    ]) as {
      ok: boolean;
      value: Progress;
      message?: string;
    };
    if (!started.ok) throw new Error(`bench: ${started.message}`);
    let p = started.value;
    for (let guard = 0; !p.done; guard++) {
      if (guard > 1000) throw new Error('bench: import never finished');
      p = emu.run('continueReportRun', [p.reportId]) as Progress;
    }
    if (p.status !== 'done') throw new Error(`bench: import ended ${p.status}: ${p.message}`);
    imported = p.rows;
    for (const [kind, label] of [
      ['vencimentos', 'Contas a receber por faixa'],
      ['inadimplencia', 'Inadimplência por cliente'],
    ]) {
      const report = emu.execute('createDashboard', [{ kind, reportId: p.reportId }], { costs: COST_MODELS.pessimistic });
      const value = report.value as { ok?: boolean; message?: string } | undefined;
      if (report.status !== 'ok' || !value?.ok) throw new Error(`bench: ${kind} ${report.status}: ${report.error?.message ?? value?.message}`);
      const ms = report.counters.virtualMs;
      rows.push([
        label,
        `${(ms / 1000).toFixed(1)} s`,
        report.counters.spreadsheetCalls,
        report.counters.cellsRead,
        report.counters.cellsWritten,
        `${((ms / DEFAULT_BUDGET_MS) * 100).toFixed(1)}%`,
      ]);
    }
  } finally {
    await sb.stop();
  }
  console.log(`\nPainel sobre ${imported.toLocaleString('pt-BR')} cobranças (custos pessimistas, uma execução cada)`);
  printTable(['painel', 'tempo virtual', 'chamadas Planilhas', 'células lidas', 'células gravadas', 'do limite de 6 min'], rows);
}
