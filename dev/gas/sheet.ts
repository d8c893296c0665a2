/** Sheet: structure (rows, columns, frozen panes, visibility) and range lookup. */
import { parseA1 } from './a1';
import { applyFilter, FilterImpl, filterHost } from './filter';
import { GasObject } from './instrument';
import { SheetCharts } from './charts';
import { pivotTablesOf } from './pivot';
import { RangeImpl } from './range';
import type { SheetsEnv } from './sheets-env';
import { addMetadata, DeveloperMetadataFinderImpl, metadataOf } from './developer-metadata';
import { protect } from './protection';
import { CELL_LIMIT_MESSAGE, MAX_CELLS, type SheetModel, sortRange } from './spreadsheet-model';

type GSheet = GoogleAppsScript.Spreadsheet.Sheet;
type GRange = GoogleAppsScript.Spreadsheet.Range;
type GSpreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;

type Implemented =
  | 'activate'
  | 'appendRow'
  | 'clear'
  | 'clearContents'
  | 'deleteColumns'
  | 'deleteRow'
  | 'deleteRows'
  | 'getColumnWidth'
  | 'getDataRange'
  | 'getFrozenColumns'
  | 'getFrozenRows'
  | 'getIndex'
  | 'getLastColumn'
  | 'getLastRow'
  | 'getMaxColumns'
  | 'getMaxRows'
  | 'getName'
  | 'getParent'
  | 'getRange'
  | 'getSheetId'
  | 'getSheetName'
  | 'hideSheet'
  | 'insertColumns'
  | 'insertColumnsAfter'
  | 'insertRows'
  | 'insertRowsAfter'
  | 'isSheetHidden'
  | 'setColumnWidth'
  | 'setFrozenColumns'
  | 'setFrozenRows'
  | 'setName'
  | 'showSheet'
  | 'setTabColor'
  | 'getTabColor'
  | 'addDeveloperMetadata'
  | 'createDeveloperMetadataFinder'
  | 'getDeveloperMetadata'
  | 'moveRows'
  | 'moveColumns'
  | 'hideRows'
  | 'showRows'
  | 'isRowHiddenByUser'
  | 'isRowHiddenByFilter'
  | 'getFilter'
  | 'sort'
  | 'newChart'
  | 'insertChart'
  | 'updateChart'
  | 'removeChart'
  | 'getCharts'
  | 'getPivotTables'
  | 'getRangeList'
  | 'protect'
  | 'getProtections';

export const DEFAULT_COLUMN_WIDTH = 100;

export class SheetImpl extends GasObject implements Pick<GSheet, Implemented> {
  readonly gasName = 'Sheet';

  constructor(
    private readonly env: SheetsEnv,
    readonly model: SheetModel,
  ) {
    super();
  }

  private self(): GSheet {
    return this as unknown as GSheet;
  }

  private fail(message: string): Error {
    return this.env.exec.error(message);
  }

  private grow(cells: number): void {
    if (this.env.model.totalCells() + cells > MAX_CELLS) throw this.fail(CELL_LIMIT_MESSAGE);
  }

  getName(): string {
    return this.model.name;
  }
  getSheetName(): string {
    return this.model.name;
  }
  getSheetId(): number {
    return this.model.id;
  }
  getIndex(): number {
    return this.env.model.sheets.indexOf(this.model) + 1;
  }
  getParent(): GSpreadsheet {
    return this.env.spreadsheetObject() as unknown as GSpreadsheet;
  }
  getMaxRows(): number {
    return this.model.maxRows;
  }
  getMaxColumns(): number {
    return this.model.maxColumns;
  }
  getLastRow(): number {
    return this.model.lastRow();
  }
  getLastColumn(): number {
    return this.model.lastColumn();
  }
  getFrozenRows(): number {
    return this.model.frozenRows;
  }
  getFrozenColumns(): number {
    return this.model.frozenColumns;
  }
  isSheetHidden(): boolean {
    return this.model.hidden;
  }
  getTabColor(): string | null {
    return this.model.tabColor;
  }

  setTabColor(color: string | null): GSheet {
    if (color !== null && !/^#[0-9a-f]{6}$/i.test(color) && !/^[a-z]+$/i.test(color)) throw this.fail(`Invalid color: ${color}`);
    this.model.tabColor = color;
    return this.self();
  }

  setName(name: string): GSheet {
    const clash = this.env.model.sheets.find((s) => s !== this.model && s.name.toLowerCase() === name.toLowerCase());
    if (clash) throw this.fail(`A sheet with the name "${name}" already exists. Please enter another name.`);
    this.model.name = name;
    return this.self();
  }

  activate(): GSheet {
    this.env.model.activeSheetId = this.model.id;
    this.model.hidden = false;
    return this.self();
  }

  hideSheet(): GSheet {
    const visible = this.env.model.sheets.filter((s) => !s.hidden && s !== this.model);
    if (visible.length === 0) throw this.fail("You can't hide all the sheets in a document.");
    this.model.hidden = true;
    return this.self();
  }

  showSheet(): GSheet {
    this.model.hidden = false;
    return this.self();
  }

  setFrozenRows(rows: number): void {
    if (rows < 0 || rows > this.model.maxRows) throw this.fail('Those rows are out of bounds.');
    this.model.frozenRows = rows;
  }

  setFrozenColumns(columns: number): void {
    if (columns < 0 || columns > this.model.maxColumns) throw this.fail('Those columns are out of bounds.');
    this.model.frozenColumns = columns;
  }

  setColumnWidth(columnPosition: number, width: number): GSheet {
    if (columnPosition < 1 || columnPosition > this.model.maxColumns) throw this.fail('Those columns are out of bounds.');
    this.model.columnWidths.set(columnPosition, width);
    return this.self();
  }

  getColumnWidth(columnPosition: number): number {
    return this.model.columnWidths.get(columnPosition) ?? DEFAULT_COLUMN_WIDTH;
  }

  getRange(a: number | string, column?: number, numRows?: number, numColumns?: number): GRange {
    if (typeof a === 'string') {
      const ref = parseA1(
        a,
        () => this.model.maxRows,
        () => this.model.maxColumns,
      );
      if (!ref || (ref.sheetName !== undefined && ref.sheetName !== this.model.name)) throw this.fail('Range not found');
      return new RangeImpl(this.env, this.model, ref.row, ref.column, ref.numRows, ref.numColumns) as unknown as GRange;
    }
    if (column === undefined) throw this.fail("The parameters (number) don't match the method signature for SpreadsheetApp.Sheet.getRange.");
    return new RangeImpl(this.env, this.model, a, column, numRows ?? 1, numColumns ?? 1) as unknown as GRange;
  }

  getDataRange(): GRange {
    return new RangeImpl(this.env, this.model, 1, 1, Math.max(1, this.model.lastRow()), Math.max(1, this.model.lastColumn())) as unknown as GRange;
  }

  protect(): GoogleAppsScript.Spreadsheet.Protection {
    return protect(this.model) as unknown as GoogleAppsScript.Spreadsheet.Protection;
  }

  getProtections(type: GoogleAppsScript.Spreadsheet.ProtectionType): GoogleAppsScript.Spreadsheet.Protection[] {
    if (String(type) !== 'SHEET') return [];
    return this.model.protections.length ? [protect(this.model) as unknown as GoogleAppsScript.Spreadsheet.Protection] : [];
  }

  appendRow(rowContents: any[]): GSheet {
    const row = this.model.lastRow() + 1;
    if (row > this.model.maxRows) {
      this.grow(this.model.maxColumns);
      this.model.maxRows = row;
    }
    if (rowContents.length > this.model.maxColumns) {
      this.grow((rowContents.length - this.model.maxColumns) * this.model.maxRows);
      this.model.maxColumns = rowContents.length;
    }
    new RangeImpl(this.env, this.model, row, 1, 1, rowContents.length).setValues([Array.from(rowContents)]);
    return this.self();
  }

  insertRows(rowIndex: number, numRows = 1): GSheet {
    if (rowIndex < 1 || rowIndex > this.model.maxRows) throw this.fail('Those rows are out of bounds.');
    this.grow(numRows * this.model.maxColumns);
    this.model.shiftRows(rowIndex, numRows);
    this.model.inheritRowFormats(rowIndex + numRows, rowIndex, numRows);
    this.model.maxRows += numRows;
    return this.self();
  }

  insertRowsAfter(afterPosition: number, howMany: number): GSheet {
    if (afterPosition < 1 || afterPosition > this.model.maxRows) throw this.fail('Those rows are out of bounds.');
    this.grow(howMany * this.model.maxColumns);
    this.model.shiftRows(afterPosition + 1, howMany);
    this.model.inheritRowFormats(afterPosition, afterPosition + 1, howMany);
    this.model.maxRows += howMany;
    return this.self();
  }

  insertColumns(columnIndex: number, numColumns = 1): GSheet {
    if (columnIndex < 1 || columnIndex > this.model.maxColumns) throw this.fail('Those columns are out of bounds.');
    this.grow(numColumns * this.model.maxRows);
    this.model.shiftColumns(columnIndex, numColumns);
    this.model.maxColumns += numColumns;
    return this.self();
  }

  insertColumnsAfter(afterPosition: number, howMany: number): GSheet {
    if (afterPosition < 1 || afterPosition > this.model.maxColumns) throw this.fail('Those columns are out of bounds.');
    this.grow(howMany * this.model.maxRows);
    // After the last column nothing moves; shifting from there would move that column too.
    this.model.shiftColumns(afterPosition + 1, howMany);
    this.model.maxColumns += howMany;
    return this.self();
  }

  deleteRows(rowPosition: number, howMany: number): void {
    if (rowPosition < 1 || rowPosition + howMany - 1 > this.model.maxRows) throw this.fail('Those rows are out of bounds.');
    if (howMany >= this.model.maxRows) throw this.fail("You can't delete all the rows on the sheet.");
    this.model.shiftRows(rowPosition, -howMany);
    this.model.maxRows -= howMany;
  }

  deleteRow(rowPosition: number): GSheet {
    this.deleteRows(rowPosition, 1);
    return this.self();
  }

  deleteColumns(columnPosition: number, howMany: number): void {
    if (columnPosition < 1 || columnPosition + howMany - 1 > this.model.maxColumns) throw this.fail('Those columns are out of bounds.');
    if (howMany >= this.model.maxColumns) throw this.fail("You can't delete all the columns on the sheet.");
    this.model.shiftColumns(columnPosition, -howMany);
    this.model.maxColumns -= howMany;
  }

  clear(): GSheet {
    this.model.beforeWrite?.(null);
    this.model.rows.clear();
    return this.self();
  }

  clearContents(): GSheet {
    this.model.beforeWrite?.(null);
    for (const cols of this.model.rows.values()) for (const c of cols.values()) c.value = null;
    return this.self();
  }

  addDeveloperMetadata(key: string, a?: any, b?: any): GSheet {
    addMetadata(this.env, { type: 'SHEET', sheet: this.model }, key, a, b);
    return this.self();
  }

  createDeveloperMetadataFinder(): GoogleAppsScript.Spreadsheet.DeveloperMetadataFinder {
    return new DeveloperMetadataFinderImpl(this.env, { type: 'SHEET', sheet: this.model }) as unknown as GoogleAppsScript.Spreadsheet.DeveloperMetadataFinder;
  }

  getDeveloperMetadata(): GoogleAppsScript.Spreadsheet.DeveloperMetadata[] {
    return metadataOf(this.env, { type: 'SHEET', sheet: this.model });
  }

  private spec(range: GRange, what: 'rows' | 'columns'): { first: number; count: number } {
    if (!(range instanceof RangeImpl) || range.sheet !== this.model) throw this.fail(`Invalid argument: ${what === 'rows' ? 'rowSpec' : 'columnSpec'}`);
    return what === 'rows' ? { first: range.row, count: range.numRows } : { first: range.column, count: range.numColumns };
  }

  /** Position of each moved block element after moving [first, first+count) before `destination` (1-based, in the old numbering). */
  private static moved(first: number, count: number, destination: number): (p: number) => number {
    return (p) => {
      const end = first + count;
      if (destination > end) {
        // Moving down: the block lands just above `destination`; what was between shifts up.
        if (p >= first && p < end) return destination - count + (p - first);
        if (p >= end && p < destination) return p - count;
        return p;
      }
      if (destination < first) {
        if (p >= first && p < end) return destination + (p - first);
        if (p >= destination && p < first) return p + count;
        return p;
      }
      return p;
    };
  }

  moveRows(rowSpec: GRange, destinationIndex: number): void {
    const { first, count } = this.spec(rowSpec, 'rows');
    if (destinationIndex < 1 || destinationIndex > this.model.maxRows + 1) throw this.fail('Those rows are out of bounds.');
    this.model.moveRowsBy(SheetImpl.moved(first, count, destinationIndex));
  }

  moveColumns(columnSpec: GRange, destinationIndex: number): void {
    const { first, count } = this.spec(columnSpec, 'columns');
    if (destinationIndex < 1 || destinationIndex > this.model.maxColumns + 1) throw this.fail('Those columns are out of bounds.');
    this.model.moveColumnsBy(SheetImpl.moved(first, count, destinationIndex));
  }

  hideRows(rowIndex: number, numRows = 1): void {
    for (let r = rowIndex; r < rowIndex + numRows; r++) this.model.hiddenRows.add(r);
  }

  showRows(rowIndex: number, numRows = 1): void {
    for (let r = rowIndex; r < rowIndex + numRows; r++) this.model.hiddenRows.delete(r);
  }

  isRowHiddenByUser(rowPosition: number): boolean {
    return this.model.hiddenRows.has(rowPosition);
  }

  isRowHiddenByFilter(rowPosition: number): boolean {
    return this.model.filteredRows.has(rowPosition);
  }

  getFilter(): GoogleAppsScript.Spreadsheet.Filter | null {
    return this.model.filter ? (new FilterImpl(filterHost(this.env, this.model)) as unknown as GoogleAppsScript.Spreadsheet.Filter) : null;
  }

  private charts(): SheetCharts {
    return new SheetCharts(this.env, this.model);
  }

  newChart(): GoogleAppsScript.Spreadsheet.EmbeddedChartBuilder {
    return this.charts().newChart();
  }

  insertChart(chart: GoogleAppsScript.Spreadsheet.EmbeddedChart): void {
    this.charts().insertChart(chart);
  }

  updateChart(chart: GoogleAppsScript.Spreadsheet.EmbeddedChart): void {
    this.charts().updateChart(chart);
  }

  removeChart(chart: GoogleAppsScript.Spreadsheet.EmbeddedChart): void {
    this.charts().removeChart(chart);
  }

  getCharts(): GoogleAppsScript.Spreadsheet.EmbeddedChart[] {
    return this.charts().getCharts();
  }

  getPivotTables(): GoogleAppsScript.Spreadsheet.PivotTable[] {
    return pivotTablesOf(this.env, this.model);
  }

  getRangeList(a1Notations: string[]): GoogleAppsScript.Spreadsheet.RangeList {
    const ranges = Array.from(a1Notations, (a1) => this.getRange(String(a1)) as unknown as RangeImpl);
    return this.env.rangeList(ranges) as GoogleAppsScript.Spreadsheet.RangeList;
  }

  /** Sorts the sheet below its frozen rows by one column, as the menu's "Sort sheet" does. */
  sort(columnPosition: number, ascending = true): GSheet {
    const first = this.model.frozenRows + 1;
    const last = this.model.lastRow();
    if (last >= first) sortRange(this.model, first, last, 1, this.model.maxColumns, [{ column: columnPosition, ascending }]);
    // A filter's hidden rows follow the values that moved.
    if (this.model.filter) applyFilter(this.model, this.env.model.locale);
    return this.self();
  }
}
