/**
 * The persistent state of a spreadsheet: what survives between executions.
 * Service objects handed to scripts are rebuilt per execution on top of it.
 */
import type { ProtectionModel } from './protection';
import type { ChartModel, PivotModel } from './embedded-model';
import { type FilterModel, moveFilter } from './filter-model';
import { computedValue, followMove, shiftRelative } from './formula';
import { isFormula, type Stored } from './values';

export interface ValidationSpec {
  kind: 'VALUE_IN_LIST';
  values: string[];
  showDropdown: boolean;
  allowInvalid: boolean;
  helpText?: string;
}

import type { LinkRun } from './rich-text';

export interface Cell {
  value: Stored;
  format?: string;
  note?: string;
  /** Links over parts of the cell's text (rich text); setValue drops them. */
  links?: LinkRun[];
  background?: string;
  fontWeight?: string;
  validation?: ValidationSpec;
}

/** Developer metadata as Sheets keeps it: the location is where the object is stored (spreadsheet, sheet, row or column). */
export interface MetaModel {
  id: number;
  key: string;
  value: string | null;
  visibility: 'DOCUMENT' | 'PROJECT';
}

/** Moves the entries of a position-keyed map; `to` returns null for a position that dies. */
function remap<T>(map: Map<number, T>, to: (position: number) => number | null): Map<number, T> {
  const next = new Map<number, T>();
  for (const [k, v] of map) {
    const at = to(k);
    if (at !== null) next.set(at, v);
  }
  return next;
}

/** Position after inserting (count > 0) or deleting (count < 0) at `at`; null when deleted. */
function shifted(position: number, at: number, count: number): number | null {
  if (position < at) return position;
  if (count < 0 && position < at - count) return null;
  return position + count;
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
  /** Developer metadata on the sheet itself, and on whole rows and columns (they move with them and die with them). */
  sheetMeta: MetaModel[] = [];
  rowMeta = new Map<number, MetaModel[]>();
  columnMeta = new Map<number, MetaModel[]>();
  /** Rows hidden by the user (hideRows) and by a filter's criteria. */
  hiddenRows = new Set<number>();
  filteredRows = new Set<number>();
  /** The sheet's filter (at most one), see filter.ts. */
  filter: FilterModel | null = null;
  /** Embedded charts and pivot tables anchored on this sheet (see charts.ts, pivot.ts). */
  charts: ChartModel[] = [];
  pivots: PivotModel[] = [];
  /** Sheet protection (see protection.ts): at most one. */
  protections: ProtectionModel[] = [];
  /** Told before cells change: their row, or null when rows or columns move (office.ts copies what an execution writes). */
  beforeWrite: ((row: number | null) => void) | null = null;

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
    this.beforeWrite?.(row);
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
    this.moveRowsBy((r) => shifted(r, at, count));
  }

  /**
   * New rows take the formats of the row they were inserted next to (number format, background, weight,
   * dropdown), never its values or notes: a template's text column stays text in an inserted row.
   */
  inheritRowFormats(from: number, first: number, count: number): void {
    const source = this.rows.get(from);
    if (!source) return;
    for (const [column, cell] of source) {
      if (cell.format === undefined && cell.background === undefined && cell.fontWeight === undefined && cell.validation === undefined) continue;
      for (let row = first; row < first + count; row++) {
        const target = this.ensure(row, column);
        target.format = cell.format;
        target.background = cell.background;
        target.fontWeight = cell.fontWeight;
        target.validation = cell.validation;
      }
    }
  }

  shiftColumns(at: number, count: number): void {
    this.moveColumnsBy((c) => shifted(c, at, count));
  }

  /** Moves whole rows (cells, metadata, hidden state); `to` gives each row's new position or null when it is deleted. */
  moveRowsBy(to: (row: number) => number | null): void {
    this.beforeWrite?.(null);
    this.rows = remap(this.rows, to);
    this.moveReferences(to, (c) => c);
    this.rowMeta = remap(this.rowMeta, to);
    const move = (set: Set<number>) => new Set([...set].map(to).filter((r): r is number => r !== null));
    this.hiddenRows = move(this.hiddenRows);
    this.filteredRows = move(this.filteredRows);
    if (this.filter) this.filter = moveFilter(this.filter, to, 'rows');
  }

  moveColumnsBy(to: (column: number) => number | null): void {
    this.beforeWrite?.(null);
    for (const [r, cols] of this.rows) this.rows.set(r, remap(cols, to));
    this.moveReferences((r) => r, to);
    this.columnMeta = remap(this.columnMeta, to);
    const widths = remap(this.columnWidths, to);
    this.columnWidths.clear();
    for (const [c, w] of widths) this.columnWidths.set(c, w);
    if (this.filter) this.filter = moveFilter(this.filter, to, 'columns');
  }

  /** Formulas follow the cells they read when rows or columns move (a deleted one becomes #REF!). */
  private moveReferences(rows: (row: number) => number | null, columns: (column: number) => number | null): void {
    for (const cols of this.rows.values())
      for (const cell of cols.values()) if (isFormula(cell.value)) cell.value = { formula: followMove(cell.value.formula, rows, columns) };
  }

  /** Every metadata entry of this sheet with where it sits. */
  *metadata(): Generator<{ meta: MetaModel; type: 'SHEET' | 'ROW' | 'COLUMN'; index: number }> {
    for (const meta of this.sheetMeta) yield { meta, type: 'SHEET', index: 0 };
    for (const [index, list] of this.rowMeta) for (const meta of list) yield { meta, type: 'ROW', index };
    for (const [index, list] of this.columnMeta) for (const meta of list) yield { meta, type: 'COLUMN', index };
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
  /** Developer metadata on the spreadsheet itself. */
  meta: MetaModel[] = [];
  /** Ids handed out so far; an execution's copy of the document shares them, so two executions never hand out the same id. */
  readonly ids = { sheet: 0, meta: 1, object: 1_204_517_331 };

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
    const sheet = new SheetModel(this.ids.sheet, name, rows, columns);
    this.ids.sheet += this.ids.sheet === 0 ? 1_000_001 : 7_919;
    this.sheets.splice(index, 0, sheet);
    return sheet;
  }

  newMeta(key: string, value: string | null, visibility: MetaModel['visibility']): MetaModel {
    const id = this.ids.meta;
    this.ids.meta += 1 + (id % 7);
    return { id, key, value, visibility };
  }

  /** Ids of charts and pivot tables: large, unique across the spreadsheet, never reused. */
  newObjectId(): number {
    this.ids.object += 104_729;
    return this.ids.object;
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

export interface SortSpec {
  /** Absolute column. */
  column: number;
  ascending: boolean;
}

export function sortRank(v: Stored): number {
  if (v === null || v === '') return 4;
  if (typeof v === 'number') return 0;
  if (typeof v === 'string') return 1;
  if (typeof v === 'boolean') return 2;
  return 3;
}

export function compareStored(a: Stored, b: Stored): number {
  const ra = sortRank(a);
  const rb = sortRank(b);
  if (ra !== rb) return ra - rb;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'string' && typeof b === 'string') return a.localeCompare(b, 'pt-BR', { sensitivity: 'base' });
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  return 0;
}

/**
 * Sorts rows first..last by `specs`, moving only the cells of columns
 * firstColumn..lastColumn, as Range.sort does: cells outside the range and the
 * rows' metadata stay where they are. Blanks sort last either way; ties keep order.
 */
export function sortRange(sheet: SheetModel, first: number, last: number, firstColumn: number, lastColumn: number, specs: readonly SortSpec[]): void {
  sheet.beforeWrite?.(null);
  const rows = Array.from({ length: last - first + 1 }, (_, i) => first + i);
  // A formula sorts by its result, read before anything moves.
  const value = (r: number, c: number): Stored => {
    const v = sheet.cell(r, c)?.value ?? null;
    return isFormula(v) ? computedValue(sheet, r, c) : v;
  };
  const order = rows.slice().sort((x, y) => {
    for (const { column, ascending } of specs) {
      const a = value(x, column);
      const b = value(y, column);
      const blankA = sortRank(a) === 4;
      const blankB = sortRank(b) === 4;
      if (blankA || blankB) {
        if (blankA !== blankB) return blankA ? 1 : -1;
        continue;
      }
      const d = compareStored(a, b);
      if (d !== 0) return ascending ? d : -d;
    }
    return x - y;
  });
  const taken = order.map((r) => {
    const cells = new Map<number, Cell>();
    const row = sheet.rows.get(r);
    for (let c = firstColumn; c <= lastColumn; c++) {
      const cell = row?.get(c);
      if (cell) {
        cells.set(c, cell);
        row!.delete(c);
      }
    }
    return cells;
  });
  taken.forEach((cells, i) => {
    // A sorted formula moves like a cut-and-paste of its row: relative references keep reading the same relative cells.
    const moved = first + i - order[i];
    for (const [c, cell] of cells) {
      if (moved !== 0 && isFormula(cell.value)) cell.value = { formula: shiftRelative(cell.value.formula, moved) };
      let row = sheet.rows.get(first + i);
      if (!row) sheet.rows.set(first + i, (row = new Map()));
      row.set(c, cell);
    }
  });
}
