/**
 * Fechamento da competência of a 50,000-invoice company: its invoices, NFS-e
 * and charges (50,000 each of invoices and charges, and the notes the sandbox
 * issues for them) pulled first (default costs), then the close of the
 * competência the sandbox's data is shaped for, built from the three sheets in
 * one execution under the pessimistic cost model. Prints the virtual time,
 * Spreadsheet calls and cells, and the share of the 6-minute limit. Figures
 * are printed, never asserted.
 */
import { CLOSING_COMPETENCIA } from '../dev/sandbox/closing';
import { startSandbox } from '../dev/sandbox/harness';
import { benchEmulator, dashboardRow, printDashboardTable, pull } from './dashboard-run';

export async function benchClosing(n = 50_000): Promise<void> {
  const sb = await startSandbox({ seed: 3, size: 'small' });
  const rows: Array<Array<string | number>> = [];
  try {
    await sb.reset({ size: { faturas: n, cobrancas: n, clientes: 2_000, transacoes: 10, assinaturas: 10 } });
    const emu = benchEmulator(sb);
    const invoices = pull(emu, 'faturas', 'Faturas');
    const notes = pull(emu, 'nfse', 'Notas');
    const charges = pull(emu, 'cobrancas', 'Cobranças', { isExibeCanceladas: true });
    const label = `${invoices.rows.toLocaleString('pt-BR')} faturas, ${notes.rows.toLocaleString('pt-BR')} NFS-e, ${charges.rows.toLocaleString('pt-BR')} cobranças`;
    rows.push(
      dashboardRow(emu, label, {
        kind: 'fechamento',
        reportId: invoices.reportId,
        secondReportId: notes.reportId,
        chargesReportId: charges.reportId,
        competencia: CLOSING_COMPETENCIA,
      }),
    );
  } finally {
    await sb.stop();
  }
  printDashboardTable(`Fechamento da competência ${CLOSING_COMPETENCIA} (custos pessimistas, uma execução)`, 'relatórios', rows);
}
