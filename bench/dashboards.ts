/**
 * Painel sobre 50.000 cobranças: the report (every charge, cancelled ones too)
 * pulled first (default costs), then
 * "Contas a receber por faixa de vencimento" and "Inadimplência por cliente"
 * built from its sheet, each in one execution under the pessimistic cost model
 * (Spreadsheet calls at 50 ms, cells read at 0.05 ms). Prints the virtual time,
 * Spreadsheet calls and cells, and the share of the 6-minute limit. Figures are
 * printed, never asserted.
 */
import { startSandbox } from '../dev/sandbox/harness';
import { benchEmulator, dashboardRow, printDashboardTable, pull } from './dashboard-run';

export async function benchDashboards(n = 50_000): Promise<void> {
  const sb = await startSandbox({ seed: 3, size: 'small' });
  const rows: Array<Array<string | number>> = [];
  let imported = 0;
  try {
    await sb.reset({ size: { cobrancas: n, clientes: 400, faturas: 10, transacoes: 10, assinaturas: 10 } });
    const emu = benchEmulator(sb);
    const p = pull(emu, 'cobrancas', 'Cobranças', { isExibeCanceladas: true });
    imported = p.rows;
    for (const [kind, label] of [
      ['vencimentos', 'Contas a receber por faixa'],
      ['inadimplencia', 'Inadimplência por cliente'],
    ]) {
      rows.push(dashboardRow(emu, label, { kind, reportId: p.reportId }));
    }
  } finally {
    await sb.stop();
  }
  printDashboardTable(`Painel sobre ${imported.toLocaleString('pt-BR')} cobranças (custos pessimistas, uma execução cada)`, 'painel', rows);
}
