/**
 * One company's month as the Central do escritório shows it, from the
 * service's own records and computed by the Fechamento's own close: the
 * records become the cells a pulled sheet would hold (the pull's table and
 * cell conversion), those cells the close's sources, and every figure is read
 * out of the close by its line or conference check, so the Central and a
 * Fechamento of the same records never disagree.
 */
import type { Zone } from '../../api/calendar';
import type { ApiRecord } from '../../api/envelopes';
import { type ListingKey, listing } from '../../api/operations';
import { CLOSING_NEEDS, type ClosingFigures, type ClosingLineKey, closing, closingCheck, closingLine } from '../dashboards/kinds/fechamento/closing';
import type { CheckKey, ClosingSource, Tally } from '../dashboards/kinds/fechamento/conference';
import { col, type SourceTable, text, type Today } from '../dashboards/sources';
import { CellConverter, recordRow, tableSpec } from '../sheets/table';

export type { Tally };

/** The records of one company the Central asked for (ask.ts): the competência's invoices and notes, the charges of a due-date window. */
export interface MonthRecords {
  faturas: readonly ApiRecord[];
  nfse: readonly ApiRecord[];
  cobrancas: readonly ApiRecord[];
}

export interface MonthFigures {
  competencia: string;
  /** Faturas da competência sem as canceladas (valor total). */
  invoices: Tally;
  /** NFS-e da competência AUTORIZADA e EMITIDA, pelo valor dos serviços. */
  notesIssued: Tally;
  /** Faturas sem NFS-e (the Fechamento's check 'sem-nfse'): notes still to issue. */
  notesMissing: Tally;
  issRetidoCents: number;
  /** ISS a recolher. */
  issDueCents: number;
  /** Cobranças da competência em aberto, a vencer ('a-vencer'). */
  chargesOpen: Tally;
  /** Cobranças da competência vencidas ('vencidas'). */
  chargesOverdue: Tally;
  /** Rows of the conference lines that are divergences (`DIVERGENCES`). */
  divergences: number;
  /** No invoice, note or charge of the competência in any of the three listings: never a clean month. */
  empty: boolean;
  /**
   * The records of the competência each listing returned, whatever their status (cancelled invoices, notes and
   * charges of statuses the totals leave out): a month whose only records are those is not a clean one. Absent in
   * figures kept by an earlier version.
   */
  held?: Record<ClosingSource, number>;
  notes: string[];
}

/**
 * The conference lines that say something is out of place: an invoice without its note or its charge, a note whose
 * value differs from its invoice or that has no number yet, a charge with no invoice. The other three lines of the
 * Conferência (charges paid, not yet due, overdue) describe where the money stands, not a mismatch between the
 * listings: overdue charges have a column of their own.
 */
export const DIVERGENCES: readonly CheckKey[] = ['sem-nfse', 'valor-diferente', 'sem-numero', 'sem-cobranca', 'sem-fatura'];

const SOURCES: readonly ClosingSource[] = ['faturas', 'nfse', 'cobrancas'];

/** The columns of `key`'s listing the close reads, as a pulled sheet holds them. */
function sourceTable(key: ListingKey & ClosingSource, records: readonly ApiRecord[], conv: CellConverter): SourceTable {
  const needed = new Set<string>(CLOSING_NEEDS[key]);
  // Stryker disable next-line MethodExpression: converting only the columns the close reads is a cost, not a behaviour
  const columns = tableSpec(listing(key)).columns.filter((c) => needed.has(c.key));
  const rows = records.map((r) => recordRow(columns, r, conv));
  const values = new Map(columns.map((c, i) => [c.key, rows.map((row) => row[i])]));
  return { rows: rows.length, column: (k) => values.get(k) };
}

/** Every column the close reads is built above, so no column is ever missing and no label of one is ever shown. */
const NO_LABELS = { faturas: {}, nfse: {}, cobrancas: {} };

const lineOf = (f: ClosingFigures, key: ClosingLineKey): Tally => ({ ...closingLine(f, key)![0] });
const checkOf = (f: ClosingFigures, key: CheckKey): Tally => ({ ...closingCheck(f, key)!.tallies[0] });

/** One company's figures of `competencia` (MM/YYYY) as of `today`; dates of the records read in `zone` (the spreadsheet's, `today`'s by default). */
export function monthFigures(records: MonthRecords, competencia: string, today: Today, zone: Zone = today.zone): MonthFigures {
  const conv = new CellConverter(zone);
  const src = {
    faturas: sourceTable('faturas', records.faturas, conv),
    nfse: sourceTable('nfse', records.nfse, conv),
    cobrancas: sourceTable('cobrancas', records.cobrancas, conv),
  };
  const f = closing(src, competencia, today, NO_LABELS);
  const held = Object.fromEntries(SOURCES.map((s) => [s, col(src[s], 'competencia').filter((v) => text(v) === competencia).length])) as Record<
    ClosingSource,
    number
  >;
  const empty = SOURCES.every((s) => held[s] === 0);
  return {
    competencia,
    invoices: lineOf(f, 'faturas'),
    notesIssued: lineOf(f, 'notas-emitidas'),
    notesMissing: checkOf(f, 'sem-nfse'),
    issRetidoCents: lineOf(f, 'iss-retido').cents,
    issDueCents: lineOf(f, 'iss-a-recolher').cents,
    chargesOpen: checkOf(f, 'a-vencer'),
    chargesOverdue: checkOf(f, 'vencidas'),
    divergences: DIVERGENCES.reduce((n, k) => n + closingCheck(f, k)!.rows.length, 0),
    empty,
    held,
    notes: f.notes,
  };
}
