/**
 * A spreadsheet as strict as Google's about its grid, for the pull's tests:
 * a new sheet's grid is 1,000 rows of 26 columns (or the columns it was made
 * with); only ensureSize and inserted columns grow it, deleted rows shrink it;
 * reading or writing an empty range, or one past the grid, throws. Columns
 * carry their metadata, and move with it when columns are inserted; notes and
 * formats move with their rows. Every read, write and resize is logged, and
 * the tab colour, header styling and column widths are kept.
 *
 * Knobs a test may set: the spreadsheet's cells in use (`book.total`), and
 * what a sheet tells the cell check about its grid (`reportedCells`,
 * `reportedColumns`) instead of the grid's own figures; sheets made without
 * column widths (`book.widths`), as a port may be. The book counts how often
 * its cells in use were asked for.
 */
import { PARTIAL_MARK } from '../../../src/core/sheets/sheet-names';
import type { CellValue } from '../../../src/core/sheets/table';
import { MemoryBook, MemorySheet } from '../bulk/memory-book';

type Range = [row: number, column: number, rows: number, columns: number];

export class StrictSheet extends MemorySheet {
  /** The grid: what exists to be read and written. */
  size: { rows: number; columns: number };
  /** Our columns by field key (the column metadata the core writes). */
  readonly columns = new Map<string, number>();
  /** What the sheet reports to the cell check instead of its grid's cells and columns, when a test sets it. */
  reportedCells?: number;
  reportedColumns?: number;
  reads: Range[] = [];
  written: Range[] = [];
  /** Each ensureSize asked, as [rows, columns]. */
  sizes: Array<[number, number]> = [];
  /** Each insertColumnsAfter, as [after, count]. */
  inserted: Array<[number, number]> = [];
  widths: number[][] = [];
  tab: string | null | undefined = undefined;
  styled: number[] = [];

  constructor(id: number, name: string, columns = 26) {
    super(id, name);
    this.size = { rows: 1_000, columns };
  }

  private inGrid([row, column, rows, columns]: Range): void {
    if (!(rows >= 1 && columns >= 1)) throw new Error(`intervalo vazio (${rows} × ${columns})`);
    if (row < 1 || column < 1 || row + rows - 1 > this.size.rows || column + columns - 1 > this.size.columns) {
      throw new Error(`intervalo fora da grade (${row}, ${column}, ${rows} × ${columns} numa grade de ${this.size.rows} × ${this.size.columns})`);
    }
  }

  override ensureSize(rows = 0, columns = 0) {
    this.sizes.push([rows, columns]);
    this.size = { rows: Math.max(this.size.rows, rows), columns: Math.max(this.size.columns, columns) };
  }
  /** The largest grid the core asked for. */
  get grown(): { rows: number; columns: number } {
    return { rows: Math.max(0, ...this.sizes.map(([r]) => r)), columns: Math.max(0, ...this.sizes.map(([, c]) => c)) };
  }
  override maxColumns() {
    return this.reportedColumns ?? this.size.columns;
  }
  override cells() {
    return this.reportedCells ?? this.size.rows * this.size.columns;
  }
  override read(row: number, column: number, rows: number, columns: number) {
    this.inGrid([row, column, rows, columns]);
    this.reads.push([row, column, rows, columns]);
    return super.read(row, column, rows, columns);
  }
  override readNotes(row: number, column: number, columns: number) {
    this.inGrid([row, column, 1, columns]);
    return super.readNotes(row, column, columns);
  }
  override write(row: number, column: number, values: CellValue[][]) {
    const range: Range = [row, column, values.length, values[0]?.length ?? 0];
    this.inGrid(range);
    this.written.push(range);
    super.write(row, column, values);
  }
  override setFormats(row: number, column: number, rows: number, formats: readonly string[]) {
    this.inGrid([row, column, rows, formats.length]);
    super.setFormats(row, column, rows, formats);
  }
  override setNotes(row: number, column: number, notes: readonly string[]) {
    this.inGrid([row, column, 1, notes.length]);
    super.setNotes(row, column, notes);
  }
  override setNote(row: number, column: number, note: string) {
    this.inGrid([row, column, 1, 1]);
    super.setNote(row, column, note);
  }
  override clear(row = 1, column = 1, rows = 0, columns = 0) {
    this.inGrid([row, column, rows, columns]);
    for (let r = row; r < row + rows; r++) for (let c = column; c < column + columns; c++) if (this.grid[r - 1]) this.grid[r - 1][c - 1] = '';
  }
  override deleteRows(row: number, count: number) {
    this.inGrid([row, 1, count, 1]);
    if (count >= this.size.rows) throw new Error('não é possível apagar todas as linhas da aba');
    this.grid.splice(row - 1, count);
    this.notes.splice(row - 1, count);
    this.formats = new Map(
      [...this.formats].flatMap(([at, format]) => {
        const [r, c] = at.split(':').map(Number);
        if (r < row) return [[at, format]];
        return r < row + count ? [] : [[`${r - count}:${c}`, format]];
      }),
    );
    this.size = { ...this.size, rows: this.size.rows - count };
  }
  override insertColumnsAfter(column = 0, count = 0) {
    this.inserted.push([column, count]);
    const shift = <T>(line: T[] | undefined, blank: T) => line?.splice(column, 0, ...Array.from({ length: count }, () => blank));
    for (const line of this.grid) shift(line, '' as CellValue);
    for (const line of this.notes) shift(line, '');
    for (const [key, at] of this.columns) if (at > column) this.columns.set(key, at + count);
    this.size = { ...this.size, columns: this.size.columns + count };
  }
  override columnTags() {
    return new Map(this.columns);
  }
  override tagColumn(column?: number, _key?: string, value?: string) {
    this.columns.set(String(value), Number(column));
  }
  override untagColumn(_key?: string, value?: string) {
    this.columns.delete(String(value));
  }
  setColumnWidths(widths: readonly number[]) {
    this.widths.push([...widths]);
  }
  override setTabColor(color?: string | null) {
    this.tab = color ?? null;
  }
  override setHeaderStyle(columns?: number) {
    this.styled.push(Number(columns));
  }

  /** What the user types: the grid grows to hold it, as it does in Sheets. */
  type(row: number, column: number, value: CellValue) {
    this.ensureSize(row, column);
    this.write(row, column, [[value]]);
  }
  /** The header as text. */
  header(): string[] {
    return this.grid[0]?.map((v) => String(v ?? '')) ?? [];
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

export class StrictBook extends MemoryBook {
  declare sheets: StrictSheet[];
  /** Cells in use in the whole spreadsheet. */
  total = 0;
  /** How often the cells in use were asked for. */
  counted = 0;
  /** Whether the sheets made take column widths. */
  widths = true;
  /** Each sheet made: its name and the columns its grid was cut to (undefined: Sheets' 26). */
  made: Array<[string, number | undefined]> = [];
  private ids = 500;
  override create(name: string, columns?: number) {
    const s = new StrictSheet(this.ids++, name, columns);
    if (!this.widths) Object.assign(s, { setColumnWidths: undefined });
    this.sheets.push(s);
    this.made.push([name, columns]);
    return s;
  }
  override totalCells() {
    this.counted += 1;
    return this.total;
  }
  override byId(id: number): StrictSheet | null {
    return (super.byId(id) as StrictSheet | null) ?? null;
  }
  override byName(name: string): StrictSheet | null {
    return (super.byName(name) as StrictSheet | null) ?? null;
  }
  /** The sheet of `id`, which the test knows is there. */
  watched(id: number): StrictSheet {
    return this.byId(id) as StrictSheet;
  }
}
