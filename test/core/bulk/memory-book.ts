/**
 * An in-memory spreadsheet behind the core's ports, for core tests: values are
 * kept exactly as written (the setValues traps are the emulator's business),
 * and every call is counted so tests can hold the core to block writes.
 */
import type { MarkupSheetPort, SelectionBookPort } from '../../../src/core/sheets/sheet-port';
import type { CellValue } from '../../../src/core/sheets/table';

export class MemorySheet implements MarkupSheetPort {
  grid: CellValue[][] = [];
  notes: string[][] = [];
  backgrounds: (string | null)[][] = [];
  formats = new Map<string, string>();
  dropdowns: Array<{ column: number; choices: readonly string[] }> = [];
  columnWidths = new Map<number, number>();
  writes = 0;
  calls = 0;
  /** Set when a simulated kill has happened: nothing more reaches the sheet. */
  killed = false;
  frozen = 0;
  constructor(
    readonly id: number,
    private title: string,
  ) {}
  name() {
    return this.title;
  }
  lastRow() {
    for (let r = this.grid.length; r >= 1; r--) if ((this.grid[r - 1] ?? []).some((v) => v !== '' && v !== undefined && v !== null)) return r;
    return 0;
  }
  lastColumn() {
    let last = 0;
    for (const row of this.grid) row?.forEach((v, i) => v !== '' && v !== undefined && v !== null && (last = Math.max(last, i + 1)));
    return last;
  }
  ensureSize() {}
  maxColumns() {
    return Math.max(26, this.lastColumn());
  }
  read(row: number, column: number, numRows: number, numColumns: number): CellValue[][] {
    this.calls++;
    return Array.from({ length: numRows }, (_, r) => Array.from({ length: numColumns }, (_, c) => this.grid[row - 1 + r]?.[column - 1 + c] ?? ''));
  }
  readNotes(row: number, column: number, numColumns: number): string[] {
    this.calls++;
    return Array.from({ length: numColumns }, (_, c) => this.notes[row - 1]?.[column - 1 + c] ?? '');
  }
  setFormats(row: number, column: number, numRows: number, formats: readonly string[]) {
    this.calls++;
    for (let r = 0; r < numRows; r++) formats.forEach((f, c) => this.formats.set(`${row + r}:${column + c}`, f));
  }
  write(row: number, column: number, values: CellValue[][]) {
    if (this.killed) throw new Error('killed');
    this.calls++;
    this.writes++;
    values.forEach((line, r) => {
      this.grid[row - 1 + r] ??= [];
      line.forEach((v, c) => (this.grid[row - 1 + r][column - 1 + c] = v));
    });
  }
  setNotes(row: number, column: number, notes: readonly string[]) {
    this.calls++;
    this.notes[row - 1] ??= [];
    notes.forEach((n, c) => (this.notes[row - 1][column - 1 + c] = n));
  }
  clear() {}
  freezeRows(rows: number) {
    this.frozen = rows;
  }
  setHeaderStyle() {}
  setTabColor() {}
  cells() {
    return this.grid.length * 30;
  }
  readonly tags = new Map<string, string>();
  sheetTag(key: string) {
    return this.tags.get(key) ?? null;
  }
  setSheetTag(key: string, value: string) {
    this.tags.set(key, value);
  }
  columnTags() {
    return new Map<string, number>();
  }
  tagColumn() {}
  untagColumn() {}
  insertColumnsAfter() {
    throw new Error("MemorySheet: column moves are the emulator tests' business");
  }
  deleteRows(row: number, count: number) {
    this.grid.splice(row - 1, count);
  }
  setNote(row: number, column: number, note: string) {
    this.notes[row - 1] ??= [];
    this.notes[row - 1][column - 1] = note;
  }
  readBackgrounds(row: number, column: number, numRows: number, numColumns: number): string[][] {
    this.calls++;
    return Array.from({ length: numRows }, (_, r) =>
      Array.from({ length: numColumns }, (_, c) => this.backgrounds[row - 1 + r]?.[column - 1 + c] ?? '#ffffff'),
    );
  }
  setBackgrounds(row: number, column: number, colors: Array<Array<string | null>>) {
    this.calls++;
    colors.forEach((line, r) => {
      this.backgrounds[row - 1 + r] ??= [];
      line.forEach((v, c) => (this.backgrounds[row - 1 + r][column - 1 + c] = v));
    });
  }
  setDropdown(_row: number, column: number, _numRows: number, choices: readonly string[]) {
    this.calls++;
    this.dropdowns.push({ column, choices });
  }
  setNotesDown(row: number, column: number, notes: readonly string[]) {
    this.calls++;
    notes.forEach((n, i) => this.setNote(row + i, column, n));
  }
  setColumnWidth(column: number, width: number) {
    this.calls++;
    this.columnWidths.set(column, width);
  }
  /** Rows as the user sees them, by header label. */
  records(): Array<Record<string, CellValue>> {
    const header = (this.grid[0] ?? []).map(String);
    return this.grid.slice(1, this.lastRow()).map((row) => Object.fromEntries(header.map((h, i) => [h, row?.[i] ?? ''])));
  }
  cell(row: number, label: string): CellValue {
    const c = (this.grid[0] ?? []).map(String).indexOf(label);
    if (c < 0) throw new Error(`no column ${label}`);
    return this.grid[row - 1]?.[c] ?? '';
  }
}

export class MemoryBook implements SelectionBookPort {
  sheets: MemorySheet[] = [];
  selected: { sheetId: number; rows: Array<[number, number]> } = { sheetId: 0, rows: [] };
  activated: { sheetId: number; a1: readonly string[] } | null = null;
  flushes = 0;
  private nextId = 100;
  timeZone() {
    return 'America/Sao_Paulo';
  }
  byName(name: string) {
    return this.sheets.find((s) => s.name() === name) ?? null;
  }
  byId(id: number) {
    return this.sheets.find((s) => s.id === id) ?? null;
  }
  create(name: string) {
    const s = new MemorySheet(this.nextId++, name);
    this.sheets.push(s);
    return s;
  }
  totalCells() {
    return 0;
  }
  tagged(key: string, value?: string) {
    return this.sheets
      .filter((s) => s.tags.has(key) && (value === undefined || s.tags.get(key) === value))
      .map((sheet) => ({ sheet, value: sheet.tags.get(key) ?? '' }));
  }
  sheetNames() {
    return this.sheets.map((s) => s.name());
  }
  selection() {
    const sheet = this.byId(this.selected.sheetId) ?? this.sheets[0];
    return { sheetId: sheet.id, sheetName: sheet.name(), rows: this.selected.rows };
  }
  activate(sheetId: number, a1: readonly string[]) {
    this.activated = { sheetId, a1 };
  }
  flush() {
    this.flushes++;
  }
  /** A sheet with a header row and data rows. */
  sheet(name: string, header: string[], rows: CellValue[][] = []): MemorySheet {
    const s = this.create(name);
    s.write(1, 1, [header]);
    if (rows.length) s.write(2, 1, rows);
    return s;
  }
}
