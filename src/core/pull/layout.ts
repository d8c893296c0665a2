/**
 * How a pull lays out its sheets: the report sheet's columns (Empresa and the
 * connection first when consolidated, "Recebido em" last), the header with its
 * field notes, the incomplete mark (first header cell and tab colour) while a
 * run goes on, and the report's sheet found by id.
 */
import { type ListingKey, type ListOperation, listing, listings } from '../../api/operations';
import { COLUMN_TAG, columnRuns, headerNote, LISTING_TAG } from '../sheets/sheet-layout';
import { PARTIAL_MARK, SHEET_NAME_MAX } from '../sheets/sheet-names';
import type { BookPort, SheetPort } from '../sheets/sheet-port';
import { type Column, tableSpec } from '../sheets/table';
import type { ImportSpec } from './state';

const PARTIAL_COLOR = '#f9ab00';

/** When each row was last received: how a full refresh tells the records that left the listing. */
const RECEIVED_COLUMN: Column = { key: '$recebidoEm', label: 'Recebido em', cell: 'datetime' };

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

/** Lays out the header of `columns` at `positions`, marked incomplete: text cells, each with its field in a note. */
export function prepareSheet(sheet: SheetPort, columns: readonly Column[], positions: readonly number[] = consecutive(columns.length)): void {
  sheet.ensureSize(2, Math.max(...positions));
  eachRun(positions, (column, indexes) => {
    sheet.setFormats(
      1,
      column,
      1,
      indexes.map(() => '@'),
    );
    // The field names stay machine-readable in the header notes, with what their codes mean below.
    sheet.setNotes(
      1,
      column,
      indexes.map((i) => headerNote(columns[i])),
    );
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

/** `base`, or the first `base (n)` no sheet has (sheet names are unique whatever their case). */
export function freeName(book: BookPort, base: string): string {
  const taken = new Set(book.sheetNames().map((n) => n.toLowerCase()));
  if (!taken.has(base.toLowerCase())) return base;
  for (let i = 2; ; i++) {
    const name = `${base.slice(0, SHEET_NAME_MAX - 5)} (${i})`;
    if (!taken.has(name.toLowerCase())) return name;
  }
}

/** One look at a report's sheet before its run: what the plan decides from and the start lays out, so neither looks again. */
export interface SheetLook {
  /** The report's sheet: by its id, by its name only for a report that never ran; null when it has none (the run makes it). */
  sheet: SheetPort | null;
  /** The listing the sheet's metadata says it holds. */
  listing: string | null;
  /** Where the columns of ours are, by field, as their metadata says. */
  columns: ReadonlyMap<string, number>;
  /**
   * Whether an incremental refresh can merge into it: found by the report's
   * id, of this listing, every column of ours where its metadata says (card
   * columns the report no longer wants are cleared by `startImport` in either
   * mode). A report that never ran has no sheet id: a sheet found by its name
   * was never merged into.
   */
  intact: boolean;
}

/** Looks at the sheet a run of `target` would write, with the columns `choice` gives it. */
export function lookAtSheet(book: BookPort, target: Pick<ImportSpec, 'listing' | 'sheetId' | 'sheetName'>, choice: ColumnChoice = {}): SheetLook {
  const sheet = target.sheetId !== undefined ? book.byId(target.sheetId) : book.byName(target.sheetName.trim());
  const held = sheet?.sheetTag(LISTING_TAG) ?? null;
  const columns = sheet?.columnTags(COLUMN_TAG) ?? new Map<string, number>();
  const intact =
    sheet !== null && sheet.id === target.sheetId && held === target.listing && reportColumns(target.listing, choice).every((c) => columns.has(c.key));
  return { sheet, listing: held, columns, intact };
}

/** The sheet the look found; else made, under a free name when the user deleted the report's sheet (recreated). */
export function reportSheet(book: BookPort, spec: ImportSpec, look: SheetLook): { sheet: SheetPort; recreated: boolean } {
  if (look.sheet) return { sheet: look.sheet, recreated: false };
  if (spec.sheetId !== undefined) return { sheet: book.create(freeName(book, spec.sheetName)), recreated: true };
  return { sheet: book.create(spec.sheetName), recreated: false };
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
