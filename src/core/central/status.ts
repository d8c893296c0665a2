/**
 * A company's month in an accountant's words: "Sem pendências", "Pendências:
 * 3 notas a emitir, 2 cobranças vencidas, 1 divergência", "Falha na conexão:
 * …", "Sem movimento". A month with no invoice, note or charge is never read
 * as a clean one.
 */
import { plural } from '../../api/words';
import type { MonthFigures } from './month';

export type CentralState = 'sem-pendencias' | 'pendencias' | 'falha' | 'sem-movimento' | 'nao-atualizada';

export interface CentralStatus {
  state: CentralState;
  text: string;
}

/**
 * The status of one company: its failure first (figures of an earlier read are not today's), then no data, then its
 * pendências. The invoices without a note are one of the divergences the Fechamento lists; the status names them as
 * notes to issue and counts as divergences only the others, so no row is said twice.
 */
/** What a month without a valid invoice holds, in words. */
function withoutInvoices(held: Record<'faturas' | 'nfse' | 'cobrancas', number>): string {
  const parts = [
    held.faturas ? plural(held.faturas, 'fatura cancelada ou fora dos totais', 'faturas canceladas ou fora dos totais') : '',
    held.nfse ? plural(held.nfse, 'NFS-e', 'NFS-e') : '',
    held.cobrancas ? plural(held.cobrancas, 'cobrança', 'cobranças') : '',
  ].filter(Boolean);
  return `há ${parts.join(', ')}`;
}

export function statusOf(month: { figures?: MonthFigures; failure?: { message: string; incomplete?: boolean } }): CentralStatus {
  if (month.failure?.incomplete) return { state: 'falha', text: `Leitura incompleta, sem números: ${month.failure.message}` };
  if (month.failure) return { state: 'falha', text: `Falha na conexão: ${month.failure.message}` };
  const f = month.figures;
  if (!f) return { state: 'nao-atualizada', text: 'Ainda não atualizada' };
  if (f.empty) return { state: 'sem-movimento', text: 'Sem movimento: nenhuma fatura, NFS-e ou cobrança da competência' };
  // Notes, charges or cancelled invoices without one invoice that counts: not a month in order, and not one without movement.
  if (f.invoices.count === 0 && f.held)
    return { state: 'pendencias', text: `Pendências: nenhuma fatura válida da competência, mas ${withoutInvoices(f.held)}` };
  const other = f.divergences - f.notesMissing.count;
  const parts = [
    f.notesMissing.count ? plural(f.notesMissing.count, 'nota a emitir', 'notas a emitir') : '',
    f.chargesOverdue.count ? plural(f.chargesOverdue.count, 'cobrança vencida', 'cobranças vencidas') : '',
    other > 0 ? plural(other, 'divergência', 'divergências') : '',
  ].filter(Boolean);
  return parts.length ? { state: 'pendencias', text: `Pendências: ${parts.join(', ')}` } : { state: 'sem-pendencias', text: 'Sem pendências' };
}
