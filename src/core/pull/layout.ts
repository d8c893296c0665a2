/**
 * How a pull lays out its sheets: the report sheet's columns (Empresa and the
 * connection first when consolidated, "Recebido em" last), the header with its
 * field notes, and the incomplete mark (first header cell and tab colour)
 * while a run goes on.
 */
import { type ListingKey, type ListOperation, listing, listings } from '../../api/operations';
import { columnRuns, headerNote, RECEIVED_KEY } from '../sheets/sheet-layout';
import { PARTIAL_MARK } from '../sheets/sheet-names';
import type { SheetPort } from '../sheets/sheet-port';
import { type Column, tableSpec } from '../sheets/table';

const PARTIAL_COLOR = '#f9ab00';

/** When each row was last received: how a full refresh tells the records that left the listing. */
const RECEIVED_COLUMN: Column = {
  key: RECEIVED_KEY,
  label: 'Recebido em',
  cell: 'datetime',
  note: 'Quando o complemento trouxe esta linha do serviço (a atualização do relatório que a escreveu por último). Não é a data de pagamento nem de recebimento do dinheiro.',
};

/** A consolidated sheet's first column: the company (the connection's name at run time). Dashboards look for its tag `empresa`. */
const COMPANY_COLUMN: Column = { key: 'empresa', label: 'Empresa', cell: 'text' };
/** Beside it, the connection's id: what a consolidated sheet's rows are keyed by, with the record's id (never the name). */
const CONNECTION_COLUMN: Column = { key: '$conexao', label: 'ID da conexão', cell: 'text' };
export const LEAD_COLUMNS: readonly Column[] = [COMPANY_COLUMN, CONNECTION_COLUMN];

/** What shapes a report sheet's columns besides its listing. */
export interface ColumnChoice {
  /** A consolidated sheet starts with Empresa and the connection's id. */
  consolidated?: boolean;
  /** "Incluir dados de cartão": card columns only when asked for. */
  cardData?: boolean;
}

/** The report sheet's columns: Empresa and the connection when consolidated, the listing's (card data only when asked for), then when the row was received. */
export function reportColumns(listingKey: ListingKey, choice: ColumnChoice = {}): Column[] {
  const own = tableSpec(listing(listingKey)).columns.filter((c) => choice.cardData || !c.onRequest);
  return [...(choice.consolidated ? LEAD_COLUMNS : []), ...own, RECEIVED_COLUMN];
}

/** Every field name any listing writes in its header notes. */
export function knownKeys(): Set<string> {
  const keys = new Set<string>();
  for (const op of Object.values(listings) as ListOperation[]) {
    const spec = tableSpec(op);
    for (const c of spec.columns) keys.add(c.key);
    for (const child of spec.children) for (const c of child.columns) keys.add(c.key);
  }
  keys.add(RECEIVED_COLUMN.key);
  for (const c of LEAD_COLUMNS) keys.add(c.key);
  return keys;
}

const consecutive = (n: number): number[] => Array.from({ length: n }, (_, i) => i + 1);

/** Writes per run of adjacent columns of ours: the user's columns between them are never touched. */
export function eachRun(positions: readonly number[], fn: (column: number, indexes: number[]) => void): void {
  for (const run of columnRuns(positions)) fn(run.column, run.indexes);
}

function writeHeader(sheet: SheetPort, columns: readonly Column[], partial: boolean, positions: readonly number[]): void {
  const header = columns.map((c, i) => (i === 0 && partial ? `${PARTIAL_MARK}${c.label}` : c.label));
  eachRun(positions, (column, indexes) => sheet.write(1, column, [indexes.map((i) => header[i])]));
}

/**
 * Lays out the header of `columns` at `positions`, marked incomplete: text cells, each with its field in a note.
 * `notes`: the header's notes as just read, when the columns have not moved since; a run of them already as
 * they would be written is not written again.
 */
export function prepareSheet(
  sheet: SheetPort,
  columns: readonly Column[],
  positions: readonly number[] = consecutive(columns.length),
  notes?: readonly string[],
): void {
  sheet.ensureSize(2, Math.max(...positions));
  eachRun(positions, (column, indexes) => {
    sheet.setFormats(
      1,
      column,
      1,
      indexes.map(() => '@'),
    );
    // The field names stay machine-readable in the header notes, with what their codes mean below.
    const wanted = indexes.map((i) => headerNote(columns[i]));
    if (!notes || wanted.some((note, k) => notes[column - 1 + k] !== note)) sheet.setNotes(1, column, wanted);
  });
  writeHeader(sheet, columns, true, positions);
  sheet.freezeRows(1);
  if (positions.every((p, i) => p === i + 1)) sheet.setHeaderStyle(columns.length);
  sheet.setTabColor(PARTIAL_COLOR);
}

/** The incomplete mark lifted: the header's first cell and the tab say the sheet is whole. */
export function markDone(sheet: SheetPort, columns: readonly Column[], positions: readonly number[] = consecutive(columns.length)): void {
  writeHeader(sheet, columns, false, positions);
  sheet.setTabColor(null);
}

/** `rows`, sorted, in groups whose neighbours are at most `gap` rows apart: each group is read or written as one block. */
export function blocks(rows: number[], gap: number): number[][] {
  const out: number[][] = [];
  for (const r of rows.sort((a, b) => a - b)) {
    const group = out[out.length - 1];
    if (group && r - group[group.length - 1] <= gap) group.push(r);
    else out.push([r]);
  }
  return out;
}
