/**
 * A report sheet written through the pull's Writer directly, one batch of
 * records at a time, on sheets as strict as Google's about their grid: for
 * tests of what each write and the final sweep leave in the sheets, and of
 * which ranges they touch to do it.
 */
import type { ListingKey } from '../../src/api/operations';
import { type CompanySpec, type ImportDeps, type ImportSpec, type ImportState, startImport, Writer } from '../../src/core/import-job';
import { PARTIAL_MARK } from '../../src/core/sheet-names';
import type { CellValue } from '../../src/core/table';
import { MemoryBook } from '../bulk/memory-book';
import { FakeService, zone } from './fake-service';
import { TaggedSheet } from './run-world';

/** 22/11/2026 12:00 in São Paulo. */
export const T0 = Date.UTC(2026, 10, 22, 15);
export const HOUR = 3_600_000;

type Range = [row: number, column: number, rows: number, columns: number];

/**
 * Ranges must lie in the grid, which only ensureSize grows (deleting rows
 * shrinks it); every read and write is logged by range, and the column
 * widths set are kept.
 */
export class GridSheet extends TaggedSheet {
  grown = { rows: 0, columns: 0 };
  reads: Range[] = [];
  written: Range[] = [];
  widths: number[][] = [];
  private inGrid([row, column, rows, columns]: Range) {
    if (rows < 1 || columns < 1) throw new Error(`intervalo vazio (${rows} × ${columns})`);
    if (row + rows - 1 > this.grown.rows || column + columns - 1 > this.grown.columns) throw new Error('intervalo fora da grade');
  }
  override ensureSize(rows = 0, columns = 0) {
    this.grown = { rows: Math.max(this.grown.rows, rows), columns: Math.max(this.grown.columns, columns) };
  }
  override read(row: number, column: number, rows: number, columns: number) {
    this.inGrid([row, column, rows, columns]);
    this.reads.push([row, column, rows, columns]);
    return super.read(row, column, rows, columns);
  }
  override write(row: number, column: number, values: CellValue[][]) {
    const range: Range = [row, column, values.length, values[0]?.length ?? 0];
    this.inGrid(range);
    this.written.push(range);
    super.write(row, column, values);
  }
  override deleteRows(row: number, count: number) {
    if (!(Number.isInteger(row) && Number.isInteger(count) && row >= 1 && count >= 1 && row + count - 1 <= this.grown.rows)) {
      throw new Error(`linhas fora da grade (${row}, ${count})`);
    }
    super.deleteRows(row, count);
    this.grown.rows -= count;
  }
  setColumnWidths(widths: readonly number[]) {
    this.widths.push([...widths]);
  }
  /** What the user types: the grid grows to hold it, as it does in Sheets. */
  type(row: number, column: number, value: CellValue) {
    this.ensureSize(row, column);
    this.write(row, column, [[value]]);
  }
  /** The 1-based column whose header (without the incomplete mark) is `label`. */
  at(label: string): number {
    return this.grid[0].findIndex((h) => String(h).replace(PARTIAL_MARK, '') === label) + 1;
  }
  /** The values of one column below the header. */
  column(label: string): CellValue[] {
    const c = this.at(label);
    return this.grid.slice(1, this.lastRow()).map((r) => r?.[c - 1] ?? '');
  }
  /** Logs emptied, for what the next write does alone. */
  forget() {
    this.reads = [];
    this.written = [];
  }
}

export class GridBook extends MemoryBook {
  private ids = 500;
  override create(name: string) {
    const s = new GridSheet(this.ids++, name);
    this.sheets.push(s);
    return s;
  }
}

export interface Started {
  book: GridBook;
  deps: ImportDeps;
  state: ImportState;
  sheet: GridSheet;
  writer: Writer;
  /** Another writer for the same run, as the next step of the job makes. */
  nextStep: () => Writer;
}

/** A run started on `book` (a new one by default), with its Writer; `clock` is the run's start ("Recebido em"). */
export function started(listing: ListingKey, spec: Partial<ImportSpec> = {}, book = new GridBook(), clock = T0, deps: Partial<ImportDeps> = {}): Started {
  const service = new FakeService({});
  const full: ImportDeps = { client: service.client('k', () => clock), book, zone, now: () => clock, ...deps };
  const state = startImport({ listing, filters: {}, sheetName: 'Relatório', mode: 'replace', ...spec }, full);
  const sheet = book.byId(state.sheetId) as GridSheet;
  return { book, deps: full, state, sheet, writer: new Writer(state, full), nextStep: () => new Writer(state, full) };
}

/** A whole run written in one batch and settled: the sheet as a finished pull leaves it. */
export function settled(
  listing: ListingKey,
  records: Array<Record<string, unknown>>,
  spec: Partial<ImportSpec> = {},
  book = new GridBook(),
  clock = T0,
): Started {
  const run = started(listing, spec, book, clock);
  run.writer.write(records);
  run.writer.finish();
  return run;
}

export const company = (id: string, mode: CompanySpec['mode'] = 'replace'): CompanySpec => ({ id, name: `Empresa ${id}`, filters: {}, mode });
