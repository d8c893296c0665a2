/**
 * The persistent state of a spreadsheet: what survives between executions.
 * Service objects handed to scripts are rebuilt per execution on top of it.
 */
import type { Stored } from './values';

export interface ValidationSpec {
  kind: 'VALUE_IN_LIST';
  values: string[];
  showDropdown: boolean;
  allowInvalid: boolean;
  helpText?: string;
}

export interface Cell {
  value: Stored;
  format?: string;
  note?: string;
  background?: string;
  fontWeight?: string;
  validation?: ValidationSpec;
}

export const MAX_CELLS = 10_000_000;
export const CELL_LIMIT_MESSAGE = `This action would increase the number of cells in the workbook above the limit of ${MAX_CELLS} cells.`;

export class SheetModel {
  hidden = false;
  /** CSS colour of the tab, or null (Sheets' default). */
  tabColor: string | null = null;
  frozenRows = 0;
  frozenColumns = 0;
  readonly columnWidths = new Map<number, number>();
  /** Sparse: row -> column -> cell, both 1-based. */
  rows = new Map<number, Map<number, Cell>>();

  constructor(
    readonly id: number,
    public name: string,
    public maxRows = 1000,
    public maxColumns = 26,
  ) {}

  get cellCount(): number {
    return this.maxRows * this.maxColumns;
  }

  cell(row: number, column: number): Cell | undefined {
    return this.rows.get(row)?.get(column);
  }

  ensure(row: number, column: number): Cell {
    let r = this.rows.get(row);
    if (!r) this.rows.set(row, (r = new Map()));
    let c = r.get(column);
    if (!c) r.set(column, (c = { value: null }));
    return c;
  }

  /** Last row/column with content (a value or formula), as getLastRow/getLastColumn define it. */
  lastRow(): number {
    let last = 0;
    // One look per row below the last found: appendRow asks this every time, and scanning every cell made a naive script look slower than Sheets.
    for (const [r, cols] of this.rows) {
      if (r <= last) continue;
      for (const c of cols.values()) {
        if (c.value !== null) {
          last = r;
          break;
        }
      }
    }
    return last;
  }

  lastColumn(): number {
    let last = 0;
    for (const cols of this.rows.values()) for (const [col, c] of cols) if (c.value !== null && col > last) last = col;
    return last;
  }

  /** Rows at or after `at` move down by `count` (count < 0 deletes rows at..at-count-1). */
  shiftRows(at: number, count: number): void {
    const next = new Map<number, Map<number, Cell>>();
    for (const [r, cols] of this.rows) {
      if (r < at) next.set(r, cols);
      else if (count < 0 && r < at - count) continue;
      else next.set(r + count, cols);
    }
    this.rows = next;
  }

  shiftColumns(at: number, count: number): void {
    for (const [r, cols] of this.rows) {
      const next = new Map<number, Cell>();
      for (const [c, cell] of cols) {
        if (c < at) next.set(c, cell);
        else if (count < 0 && c < at - count) continue;
        else next.set(c + count, cell);
      }
      this.rows.set(r, next);
    }
  }
}

export interface Toast {
  message: string;
  title: string;
  timeoutSeconds: number;
}

export interface SelectionState {
  sheetId: number;
  /** A1 ranges on the active sheet; the last one is the active range. */
  ranges: string[];
  currentCell?: string;
}

export class SpreadsheetModel {
  sheets: SheetModel[] = [];
  readonly toasts: Toast[] = [];
  activeSheetId: number;
  selection: SelectionState | null = null;
  private nextSheetId = 0;

  constructor(
    readonly id: string,
    public name: string,
    public timeZone: string,
    public locale: string,
  ) {
    this.activeSheetId = this.addSheet('Página1').id;
  }

  get url(): string {
    return `https://docs.google.com/spreadsheets/d/${this.id}/edit`;
  }

  totalCells(): number {
    return this.sheets.reduce((n, s) => n + s.cellCount, 0);
  }

  addSheet(name: string, index = this.sheets.length, rows = 1000, columns = 26): SheetModel {
    if (this.totalCells() + rows * columns > MAX_CELLS) throw new Error(CELL_LIMIT_MESSAGE);
    const sheet = new SheetModel(this.nextSheetId, name, rows, columns);
    this.nextSheetId += this.nextSheetId === 0 ? 1_000_001 : 7_919;
    this.sheets.splice(index, 0, sheet);
    return sheet;
  }

  byName(name: string): SheetModel | undefined {
    return this.sheets.find((s) => s.name === name);
  }

  byId(id: number): SheetModel | undefined {
    return this.sheets.find((s) => s.id === id);
  }

  activeSheet(): SheetModel {
    return this.byId(this.activeSheetId) ?? this.sheets[0];
  }
}
