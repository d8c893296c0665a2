/**
 * A book for tests of how a pull lays out and sizes its sheets: each sheet
 * (columns moving with their metadata, as layout-sheet.ts) remembers its tab
 * colour, header styling and the sizes it was grown to; the
 * book remembers how wide each new sheet was made, and the spreadsheet's cells
 * in use and a sheet's grid are set by the test (the 10-million-cell check
 * reads them).
 */
import { type ImportDeps, type ImportSpec, type ImportState, startImport, stepImport } from '../../src/core/import-job';
import { FakeService, zone } from './fake-service';
import { LayoutSheet } from './layout-sheet';
import { TaggedBook } from './run-world';

export class WatchedSheet extends LayoutSheet {
  tab: string | null | undefined = undefined;
  styled: number[] = [];
  /** The sheet's grid (cells and columns) when the test sets it; else MemorySheet's estimate. */
  gridCells?: number;
  gridColumns?: number;
  /** Rows of the grid when the test sets it: Sheets refuses a range below them, as it refuses an empty one. */
  gridRows?: number;
  /** Ranges read, as [row, column, rows, columns]. */
  reads: Array<[number, number, number, number]> = [];
  override read(row: number, column: number, numRows: number, numColumns: number) {
    if (numRows < 1 || numColumns < 1) throw new Error('The number of rows in the range must be at least 1.');
    if (this.gridRows !== undefined && row + numRows - 1 > this.gridRows) throw new Error('Range not found');
    this.reads.push([row, column, numRows, numColumns]);
    return super.read(row, column, numRows, numColumns);
  }
  override setTabColor(color?: string | null) {
    this.tab = color ?? null;
  }
  override setHeaderStyle(columns?: number) {
    this.styled.push(Number(columns));
  }
  override cells() {
    return this.gridCells ?? super.cells();
  }
  override maxColumns() {
    return this.gridColumns ?? super.maxColumns();
  }
}

export class WatchedBook extends TaggedBook {
  /** Cells in use in the whole spreadsheet. */
  total = 0;
  /** Each sheet made: its name and the columns its grid was cut to (undefined: Sheets' 26). */
  made: Array<[string, number | undefined]> = [];
  private nextSheet = 500;
  override create(name: string, columns?: number) {
    const s = new WatchedSheet(this.nextSheet++, name);
    this.sheets.push(s);
    this.made.push([name, columns]);
    return s;
  }
  override totalCells() {
    return this.total;
  }
  watched(id: number): WatchedSheet {
    return this.byId(id) as WatchedSheet;
  }
}

export const T0 = Date.UTC(2026, 10, 22, 15);

/** A pull of `listing` serving `records` into a watched book, stepped to whatever deadline the test gives. */
export function watchedPull(records: Array<Record<string, unknown>>, spec: Partial<ImportSpec> = {}, book = new WatchedBook()) {
  const service = new FakeService({ k: records });
  let clock = T0;
  service.onTrip = () => {
    clock += 1_000;
  };
  const now = () => clock;
  const deps: ImportDeps = { client: service.client('k', now), book, zone, now };
  const state = startImport({ listing: 'clientes', filters: {}, sheetName: 'Clientes', mode: 'replace', ...spec }, deps);
  const step = (s: ImportState, deadline = clock + 600_000) => stepImport(s, deps, { deadline });
  const toEnd = () => {
    let s = state;
    for (let i = 0; i < 30 && s.status === 'running'; i++) s = step(s);
    return s;
  };
  return { service, book, deps, state, step, toEnd, sheet: () => book.watched(state.sheetId) };
}
