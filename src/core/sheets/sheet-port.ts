/**
 * What table writing needs from a spreadsheet, in whole blocks: one read, one
 * format call and one write per block, never cell by cell.
 */
import type { CellValue } from './table';

export interface SheetPort {
  readonly id: number;
  name(): string;
  lastRow(): number;
  lastColumn(): number;
  maxColumns(): number;
  /** Grows the grid so that rows × columns exist (Sheets refuses ranges outside it). */
  ensureSize(rows: number, columns: number): void;
  read(row: number, column: number, numRows: number, numColumns: number): CellValue[][];
  readNotes(row: number, column: number, numColumns: number): string[];
  /** Number formats per column, for numRows rows: written before values so text stays text. */
  setFormats(row: number, column: number, numRows: number, formats: readonly string[]): void;
  write(row: number, column: number, values: CellValue[][]): void;
  setNotes(row: number, column: number, notes: readonly string[]): void;
  clear(row: number, column: number, numRows: number, numColumns: number): void;
  freezeRows(rows: number): void;
  setHeaderStyle(numColumns: number): void;
  setTabColor(color: string | null): void;
  /** Pixel widths of the first columns; optional so stand-ins without widths need not fake it. */
  setColumnWidths?(widths: readonly number[]): void;
  cells(): number;
  /** Developer metadata on the sheet itself (it stays with the tab whatever its name or place). */
  sheetTag(key: string): string | null;
  setSheetTag(key: string, value: string): void;
  /** Columns carrying developer metadata `key`: value → 1-based column, wherever the user moved them. */
  columnTags(key: string): Map<string, number>;
  tagColumn(column: number, key: string, value: string): void;
  untagColumn(key: string, value: string): void;
  /** Inserts empty columns after `column` (0: before the first); columns to the right move with their metadata. */
  insertColumnsAfter(column: number, count: number): void;
  /** Deletes whole rows: what sits beside them in the user's columns goes with them, nothing below loses its row. */
  deleteRows(row: number, count: number): void;
  setNote(row: number, column: number, note: string): void;
}

export interface BookPort {
  timeZone(): string;
  /** Sheets carrying sheet metadata `key` (with `value`, when given), with its value, in tab order. */
  tagged(key: string, value?: string): Array<{ sheet: SheetPort; value: string }>;
  sheetNames(): string[];
  byName(name: string): SheetPort | null;
  byId(id: number): SheetPort | null;
  /** A new sheet at the end; `columns`: its grid cut to that many columns (a new sheet has 26, each row of them counted). */
  create(name: string, columns?: number): SheetPort;
  /** Cells in use across the whole spreadsheet (the 10-million limit counts them all). */
  totalCells(): number;
  /** Applies pending writes now: a run killed later must not lose them. */
  flush(): void;
}

export const CELL_LIMIT = 10_000_000;
/** Google's own words when a write meets the limit (in English, as Apps Script throws them). */
export const GOOGLE_CELL_LIMIT = /10000000 cells|10,000,000|10 million/i;
/** What to do at the limit, said by every write that meets it. */
export const CELL_LIMIT_TEXT =
  'O Google Planilhas aceita no máximo 10 milhões de células por planilha. Use filtros (por exemplo, uma competência ou um período), apague abas que não usa ou importe em outra planilha.';

/** What bulk writes add to a sheet: highlighted cells and dropdowns. */
export interface MarkupSheetPort extends SheetPort {
  readBackgrounds(row: number, column: number, numRows: number, numColumns: number): string[][];
  /** null clears a cell's colour. */
  setBackgrounds(row: number, column: number, colors: Array<Array<string | null>>): void;
  /** A dropdown of `choices` on numRows cells of one column; other values are warned about, not refused. */
  setDropdown(row: number, column: number, numRows: number, choices: readonly string[], help: string): void;
  /** Notes on consecutive cells of one column, from (row, column) down. */
  setNotesDown(row: number, column: number, notes: readonly string[]): void;
  /** One column's width in pixels. */
  setColumnWidth(column: number, width: number): void;
}

/** The spreadsheet as the bulk sidebar sees it: its selection, and what a user is shown. */
export interface SelectionBookPort extends BookPort {
  byId(id: number): MarkupSheetPort | null;
  byName(name: string): MarkupSheetPort | null;
  create(name: string, columns?: number): MarkupSheetPort;
  /** The active sheet and the rows covered by the active range list, as inclusive [first, last] pairs. */
  selection(): { sheetId: number; sheetName: string; rows: Array<[number, number]> };
  /** Selects A1 ranges of one sheet (and shows that sheet). */
  activate(sheetId: number, a1: readonly string[]): void;
}
