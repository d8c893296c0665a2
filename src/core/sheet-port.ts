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
  cells(): number;
}

export interface BookPort {
  timeZone(): string;
  byName(name: string): SheetPort | null;
  byId(id: number): SheetPort | null;
  create(name: string): SheetPort;
  /** Cells in use across the whole spreadsheet (the 10-million limit counts them all). */
  totalCells(): number;
}

export const CELL_LIMIT = 10_000_000;
