/**
 * What the Central asks each company's service for a competência, in one
 * place: the month's listings, and the hourly check of whether anything
 * changed since the last refresh, as far as the interface lets it be seen.
 */
import { addMonths, brDate, type Day, type Month, parseCompetencia } from '../../api/calendar';
import type { FilterValues } from '../../api/filters';
import type { ClosingSource } from '../dashboards/kinds/fechamento/conference';

/** The listings of one company's month. */
export type MonthAsk = Record<ClosingSource, FilterValues>;

function monthOf(competencia: string): Month {
  const parsed = parseCompetencia(competencia);
  if (!parsed.ok) throw new Error(`competência inválida: ${competencia}`);
  return parsed.value;
}

/** How many months after the competência's own its charges may fall due and still be asked for. */
export const CHARGE_MONTHS_AFTER = 2;

/**
 * The due dates whose charges are asked: the interface filters charges by due or payment date, never by
 * competência, so the Central asks every charge due from the competência's first day to the last day of the second
 * month after it (a charge is issued in its month and falls due within weeks), and the close keeps those whose
 * competência is the month's. A charge of the month due before or after the window is not seen: the sheet says so.
 */
export function chargesWindow(competencia: string): { from: Day; to: Day } {
  const m = monthOf(competencia);
  const after = addMonths(m, CHARGE_MONTHS_AFTER + 1);
  const last = new Date(Date.UTC(after.year, after.month - 1, 0));
  return { from: { ...m, day: 1 }, to: { year: last.getUTCFullYear(), month: last.getUTCMonth() + 1, day: last.getUTCDate() } };
}

/** The window in words, for the sheet's head. */
export function chargesWindowText(competencia: string): string {
  const w = chargesWindow(competencia);
  return `Cobranças: as de vencimento de ${brDate(w.from)} a ${brDate(w.to)} cuja competência é ${competencia} (a interface não filtra cobranças por competência; uma cobrança da competência com vencimento fora dessas datas não é vista).`;
}

/** The three listings of one company's month. */
export function monthAsk(competencia: string): MonthAsk {
  const w = chargesWindow(competencia);
  return {
    faturas: { competencia },
    nfse: { competencia },
    // Cancelled charges too: one cancelled since the last read is then a change the hourly check sees; the close leaves them out of its figures.
    cobrancas: { vencimentoInicial: w.from, vencimentoFinal: w.to, isExibeCanceladas: true },
  };
}

/** What a company's last full read left to compare the hourly check with. */
export interface ChangeMarks {
  /** When the last full read began (epoch ms): a record updated since then is a change. */
  since: number;
  /** The newest NFS-e id of the competência then, and how many notes it had (0 and undefined: none). */
  newestNote?: number;
  notes: number;
  /** The page numbering each listing's service used, so the next walks skip the numbering probe. */
  bases?: Bases;
}

/** Page numbering a company's service used, per listing. */
export type Bases = Partial<Record<ClosingSource, 0 | 1>>;

/** The marks a full read leaves, from the notes it read. */
export function marksOf(since: number, nfse: ReadonlyArray<Record<string, unknown>>): ChangeMarks {
  let newest = Number.NEGATIVE_INFINITY;
  for (const n of nfse) if (typeof n.idNotaFiscalServico === 'number') newest = Math.max(newest, n.idNotaFiscalServico);
  return { since, newestNote: Number.isFinite(newest) ? newest : undefined, notes: nfse.length };
}

/**
 * The hourly check: invoices of the competência and charges of the window updated since the last read (one page
 * tells whether there are any), and the competência's newest note with the count of its notes (the note listing has
 * no update filter: a new note is seen, a changed status or number of an existing one is not).
 */
export function changeAsk(competencia: string, marks: ChangeMarks): MonthAsk {
  const month = monthAsk(competencia);
  const since = new Date(marks.since);
  return {
    faturas: { ...month.faturas, dataHoraAtualizacaoInicial: since },
    cobrancas: { ...month.cobrancas, dataHoraAtualizacaoInicial: since },
    nfse: { ...month.nfse, sortField: 'idNotaFiscalServico', sortOrder: 'desc' },
  };
}

/** What the check's first pages say. */
export interface ChangeAnswer {
  /** Records on the first page of each listing asked. */
  faturas: number;
  cobrancas: number;
  /** The first note's id (the newest) and the listing's total rows (undefined when the service gives none). */
  newestNote?: number;
  notesTotal?: number;
}

/** Why a company changed since its marks, in words; empty when nothing the interface shows changed. */
export function changes(marks: ChangeMarks, answer: ChangeAnswer): string[] {
  const out: string[] = [];
  if (answer.faturas > 0) out.push('faturas atualizadas');
  if (answer.cobrancas > 0) out.push('cobranças atualizadas');
  if (answer.newestNote !== marks.newestNote || (answer.notesTotal !== undefined && answer.notesTotal !== marks.notes)) out.push('NFS-e novas');
  return out;
}

/** What the interface cannot tell the hourly check, said on the sheet. */
export const UNSEEN =
  'O que a interface não mostra: a listagem de NFS-e não filtra por data de atualização, então a verificação de hora em hora vê uma nota nova, mas não a mudança de status ou de número de uma nota que já existia; e uma fatura ou cobrança excluída não aparece como alteração. Por isso cada empresa é lida inteira ao menos uma vez por dia (na primeira atualização do dia), e as cobranças vencidas contam até o dia da última leitura.';
