/** Range: reads and writes go cell by cell into the sparse sheet model, with Apps Script's checks and parsing. */
import { toA1 } from './a1';
import { DataValidationImpl } from './data-validation';
import { applyFilter, FilterImpl, filterHost } from './filter';
import { GasObject, unwrap } from './instrument';
import { RichTextValueImpl } from './rich-text';
import { displayValue, isDateFormat } from './number-format';
import type { SheetsEnv } from './sheets-env';
import { addMetadata, DeveloperMetadataFinderImpl, metadataOf, rangePlace } from './developer-metadata';
import { type Cell, type SheetModel, type SortSpec, sortRange } from './spreadsheet-model';
import { computedValue } from './formula';
import { fromScriptValue, isFormula, serialToMs } from './values';
import { wallClock } from './tz';
import { createPivotTable, recalcPivots } from './pivot';

type GRange = GoogleAppsScript.Spreadsheet.Range;
type GSheet = GoogleAppsScript.Spreadsheet.Sheet;
type GValidation = GoogleAppsScript.Spreadsheet.DataValidation;
type FontWeight = GoogleAppsScript.Spreadsheet.FontWeight;

type Implemented =
  | 'activate'
  | 'clear'
  | 'clearContent'
  | 'clearDataValidations'
  | 'clearFormat'
  | 'createFilter'
  | 'createPivotTable'
  | 'getFilter'
  | 'getA1Notation'
  | 'getBackground'
  | 'getBackgrounds'
  | 'getCell'
  | 'getColumn'
  | 'getDataValidation'
  | 'getDataValidations'
  | 'getDisplayValue'
  | 'getDisplayValues'
  | 'getFontWeight'
  | 'getFontWeights'
  | 'getFormula'
  | 'getFormulas'
  | 'getLastColumn'
  | 'getLastRow'
  | 'getNote'
  | 'getNotes'
  | 'getRichTextValue'
  | 'getRichTextValues'
  | 'getNumColumns'
  | 'getNumRows'
  | 'getNumberFormat'
  | 'getNumberFormats'
  | 'getRow'
  | 'getSheet'
  | 'getValue'
  | 'getValues'
  | 'isBlank'
  | 'offset'
  | 'setBackground'
  | 'setBackgrounds'
  | 'setDataValidation'
  | 'setDataValidations'
  | 'setFontWeight'
  | 'setFormula'
  | 'setFormulas'
  | 'setNote'
  | 'setNotes'
  | 'setRichTextValue'
  | 'setRichTextValues'
  | 'setNumberFormat'
  | 'setNumberFormats'
  | 'setValue'
  | 'setValues'
  | 'addDeveloperMetadata'
  | 'createDeveloperMetadataFinder'
  | 'getDeveloperMetadata'
  | 'sort';

const DEFAULT_BACKGROUND = '#ffffff';

export class RangeImpl extends GasObject implements Pick<GRange, Implemented> {
  readonly gasName = 'Range';

  constructor(
    private readonly env: SheetsEnv,
    readonly sheet: SheetModel,
    readonly row: number,
    readonly column: number,
    readonly numRows: number,
    readonly numColumns: number,
  ) {
    super();
    if (row < 1) throw env.exec.error('The starting row of the range is too small.');
    if (column < 1) throw env.exec.error('The starting column of the range is too small.');
    if (numRows < 1) throw env.exec.error('The number of rows in the range must be at least 1.');
    if (numColumns < 1) throw env.exec.error('The number of columns in the range must be at least 1.');
    if (row + numRows - 1 > sheet.maxRows || column + numColumns - 1 > sheet.maxColumns) {
      throw env.exec.error('The coordinates of the range are outside the dimensions of the sheet.');
    }
  }

  // Only a subset of Range is emulated; scripts see the full type, as in Apps Script.
  private self(): GRange {
    return this as unknown as GRange;
  }

  private grid<T>(fn: (cell: Cell | undefined, r: number, c: number) => T): T[][] {
    const rows: T[][] = [];
    for (let r = 0; r < this.numRows; r++) {
      const row: T[] = [];
      for (let c = 0; c < this.numColumns; c++) row.push(fn(this.sheet.cell(this.row + r, this.column + c), this.row + r, this.column + c));
      rows.push(this.env.newArray(row));
    }
    return this.env.newArray(rows);
  }

  private checkShape(data: unknown, what = 'data'): unknown[][] {
    if (!Array.isArray(data) || data.some((r) => !Array.isArray(r))) {
      throw this.env.exec.error(
        `The parameters (${Array.isArray(data) ? 'number[]' : typeof data}) don't match the method signature for SpreadsheetApp.Range.set${what === 'data' ? 'Values' : what}.`,
      );
    }
    if (data.length !== this.numRows) {
      throw this.env.exec.error(
        `The number of rows in the ${what === 'data' ? 'data' : what} does not match the number of rows in the range. The ${what === 'data' ? 'data' : what} has ${data.length} but the range has ${this.numRows}.`,
      );
    }
    for (const r of data as unknown[][]) {
      if (r.length !== this.numColumns) {
        throw this.env.exec.error(
          `The number of columns in the ${what === 'data' ? 'data' : what} does not match the number of columns in the range. The ${what === 'data' ? 'data' : what} has ${r.length} but the range has ${this.numColumns}.`,
        );
      }
    }
    return data as unknown[][];
  }

  private get size(): number {
    return this.numRows * this.numColumns;
  }

  /** Cells read cost per cell on top of the call (see clock.ts). */
  private read(): void {
    // A pivot table's output follows its source, as Sheets recalculates it.
    if (this.sheet.pivots.length) recalcPivots(this.env.model, this.sheet);
    this.env.exec.counters.cellsRead += this.size;
    this.env.exec.charge(this.size * this.env.exec.costs.cellReadMs);
  }

  private written(): void {
    this.env.exec.counters.cellsWritten += this.size;
    this.env.exec.charge(this.size * this.env.exec.costs.cellWriteMs);
  }

  private formatted(): void {
    this.env.exec.charge(this.size * this.env.exec.costs.formatCellMs);
  }

  private each(fn: (cell: Cell, r: number, c: number) => void): void {
    for (let r = 0; r < this.numRows; r++) for (let c = 0; c < this.numColumns; c++) fn(this.sheet.ensure(this.row + r, this.column + c), r, c);
  }

  /** What the cell shows: a formula's result, recomputed on every read. */
  private shown(cell: Cell | undefined, row: number, column: number): Cell['value'] {
    if (!cell) return null;
    return isFormula(cell.value) ? computedValue(this.sheet, row, column) : cell.value;
  }

  private scriptValue(cell: Cell | undefined, row: number, column: number): unknown {
    const v = this.shown(cell, row, column);
    if (!cell || v === null) return '';
    if (typeof v === 'number' && isDateFormat(cell.format)) return this.env.exec.realm.date(serialToMs(v, this.env.model.timeZone));
    return v;
  }

  private write(cell: Cell, value: unknown): void {
    const parsed = (() => {
      try {
        return fromScriptValue(value, {
          format: cell.format,
          locale: this.env.model.locale,
          timeZone: this.env.model.timeZone,
          currentYear: () => wallClock(this.env.exec.clock.now(), this.env.model.timeZone).year,
        });
      } catch (err) {
        throw this.env.exec.error((err as Error).message);
      }
    })();
    cell.value = parsed.value;
    cell.links = undefined;
    if (parsed.format !== undefined) cell.format = parsed.format;
  }

  getRichTextValue(): GoogleAppsScript.Spreadsheet.RichTextValue | null {
    return this.getRichTextValues()[0][0];
  }

  /** Each cell's text and links; null for a cell that holds a number, a date or a boolean, as in Sheets. */
  getRichTextValues(): Array<Array<GoogleAppsScript.Spreadsheet.RichTextValue | null>> {
    this.read();
    return this.grid((cell, r, c) => {
      const v = this.shown(cell, r, c);
      if (v !== null && typeof v !== 'string') return null;
      return new RichTextValueImpl(v ?? '', cell?.links ?? [], this.env.newArray) as unknown as GoogleAppsScript.Spreadsheet.RichTextValue;
    });
  }

  setRichTextValue(value: GoogleAppsScript.Spreadsheet.RichTextValue): GRange {
    return this.setRichTextValues(Array.from({ length: this.numRows }, () => Array.from({ length: this.numColumns }, () => value)));
  }

  /** Text as text (never parsed as a number or a date), with its links. */
  setRichTextValues(values: Array<Array<GoogleAppsScript.Spreadsheet.RichTextValue>>): GRange {
    const data = this.checkShape(values, 'RichTextValues');
    this.each((cell, r, c) => {
      const rich = unwrap(data[r][c]) as unknown;
      if (!(rich instanceof RichTextValueImpl))
        throw this.env.exec.error("The parameters (Object) don't match the method signature for SpreadsheetApp.Range.setRichTextValues.");
      cell.value = rich.text === '' ? null : rich.text;
      cell.links = rich.links.length ? rich.links.map((l) => ({ ...l })) : undefined;
    });
    this.written();
    return this.self();
  }

  getRow(): number {
    return this.row;
  }
  getColumn(): number {
    return this.column;
  }
  getNumRows(): number {
    return this.numRows;
  }
  getNumColumns(): number {
    return this.numColumns;
  }
  getLastRow(): number {
    return this.row + this.numRows - 1;
  }
  getLastColumn(): number {
    return this.column + this.numColumns - 1;
  }
  getA1Notation(): string {
    return toA1(this.row, this.column, this.numRows, this.numColumns);
  }
  getSheet(): GSheet {
    return this.env.sheetObject(this.sheet) as unknown as GSheet;
  }

  getCell(row: number, column: number): GRange {
    if (row < 1 || column < 1 || row > this.numRows || column > this.numColumns) throw this.env.exec.error('Cell reference out of range');
    return new RangeImpl(this.env, this.sheet, this.row + row - 1, this.column + column - 1, 1, 1).self();
  }

  offset(rowOffset: number, columnOffset: number, numRows?: number, numColumns?: number): GRange {
    return new RangeImpl(this.env, this.sheet, this.row + rowOffset, this.column + columnOffset, numRows ?? this.numRows, numColumns ?? this.numColumns).self();
  }

  activate(): GRange {
    this.env.model.activeSheetId = this.sheet.id;
    this.env.model.selection = { sheetId: this.sheet.id, ranges: [this.getA1Notation()] };
    return this.self();
  }

  getValues(): any[][] {
    this.read();
    return this.grid((cell, r, c) => this.scriptValue(cell, r, c));
  }

  getValue(): any {
    if (this.sheet.pivots.length) recalcPivots(this.env.model, this.sheet);
    this.env.exec.counters.cellsRead += 1;
    return this.scriptValue(this.sheet.cell(this.row, this.column), this.row, this.column);
  }

  getDisplayValues(): string[][] {
    this.read();
    return this.grid((cell, r, c) => (cell ? displayValue(this.shown(cell, r, c), cell.format, this.env.model.locale) : ''));
  }

  getDisplayValue(): string {
    if (this.sheet.pivots.length) recalcPivots(this.env.model, this.sheet);
    const cell = this.sheet.cell(this.row, this.column);
    return cell ? displayValue(this.shown(cell, this.row, this.column), cell.format, this.env.model.locale) : '';
  }

  setValues(values: any[][]): GRange {
    const data = this.checkShape(values);
    this.each((cell, r, c) => this.write(cell, data[r][c]));
    this.written();
    return this.self();
  }

  /** Like Apps Script, setValue writes the same value into every cell of the range. */
  setValue(value: any): GRange {
    this.each((cell) => this.write(cell, value));
    this.written();
    return this.self();
  }

  getFormulas(): string[][] {
    return this.grid((cell) => (cell && isFormula(cell.value) ? cell.value.formula : ''));
  }

  getFormula(): string {
    const cell = this.sheet.cell(this.row, this.column);
    return cell && isFormula(cell.value) ? cell.value.formula : '';
  }

  /** A formula is a formula whatever the cell's number format (unlike a string written with setValue into a "@" cell). */
  private writeFormula(cell: Cell, formula: string): void {
    if (formula === '') cell.value = null;
    else cell.value = { formula: formula.startsWith('=') ? formula : `=${formula}` };
  }

  setFormula(formula: string): GRange {
    this.each((cell) => this.writeFormula(cell, String(formula)));
    this.written();
    return this.self();
  }

  setFormulas(formulas: string[][]): GRange {
    const data = this.checkShape(formulas, 'Formulas');
    this.each((cell, r, c) => this.writeFormula(cell, String(data[r][c] ?? '')));
    this.written();
    return this.self();
  }

  getNumberFormat(): string {
    return this.sheet.cell(this.row, this.column)?.format ?? 'General';
  }

  getNumberFormats(): string[][] {
    return this.grid((cell) => cell?.format ?? 'General');
  }

  setNumberFormat(numberFormat: string): GRange {
    this.formatted();
    this.each((cell) => (cell.format = numberFormat === 'General' ? undefined : numberFormat));
    return this.self();
  }

  setNumberFormats(numberFormats: string[][]): GRange {
    const data = this.checkShape(numberFormats, 'NumberFormats');
    this.formatted();
    this.each((cell, r, c) => (cell.format = data[r][c] === 'General' ? undefined : String(data[r][c])));
    return this.self();
  }

  clear(options?: { commentsOnly?: boolean; contentsOnly?: boolean; formatOnly?: boolean; skipFilteredRows?: boolean; validationsOnly?: boolean }): GRange {
    const all = !options || (!options.contentsOnly && !options.formatOnly && !options.validationsOnly && !options.commentsOnly);
    this.env.exec.charge(this.size * this.env.exec.costs.cellWriteMs);
    this.each((cell) => {
      if (all || options?.contentsOnly) {
        cell.value = null;
        cell.links = undefined;
      }
      if (all || options?.formatOnly) {
        cell.format = undefined;
        cell.background = undefined;
        cell.fontWeight = undefined;
      }
      if (all || options?.validationsOnly) cell.validation = undefined;
      if (all || options?.commentsOnly) cell.note = undefined;
    });
    return this.self();
  }

  clearContent(): GRange {
    this.env.exec.charge(this.size * this.env.exec.costs.cellWriteMs);
    this.each((cell) => {
      cell.value = null;
      cell.links = undefined;
    });
    return this.self();
  }

  clearFormat(): GRange {
    return this.clear({ formatOnly: true });
  }

  clearDataValidations(): GRange {
    return this.clear({ validationsOnly: true });
  }

  isBlank(): boolean {
    return this.grid((cell) => cell?.value ?? null).every((r) => r.every((v) => v === null));
  }

  getNote(): string {
    return this.sheet.cell(this.row, this.column)?.note ?? '';
  }

  getNotes(): string[][] {
    this.env.exec.charge(this.size * this.env.exec.costs.cellReadMs);
    return this.grid((cell) => cell?.note ?? '');
  }

  setNote(note: string | null): GRange {
    this.each((cell) => (cell.note = note ? String(note) : undefined));
    return this.self();
  }

  setNotes(notes: Array<Array<string | null>>): GRange {
    const data = this.checkShape(notes, 'Notes');
    this.env.exec.charge(this.size * this.env.exec.costs.cellWriteMs);
    this.each((cell, r, c) => (cell.note = data[r][c] ? String(data[r][c]) : undefined));
    return this.self();
  }

  getBackground(): string {
    return this.sheet.cell(this.row, this.column)?.background ?? DEFAULT_BACKGROUND;
  }

  getBackgrounds(): string[][] {
    return this.grid((cell) => cell?.background ?? DEFAULT_BACKGROUND);
  }

  setBackground(color: string | null): GRange {
    this.each((cell) => (cell.background = color ?? undefined));
    return this.self();
  }

  setBackgrounds(color: Array<Array<string | null>>): GRange {
    this.formatted();
    const data = this.checkShape(color, 'Backgrounds');
    this.each((cell, r, c) => (cell.background = (data[r][c] as string | null) ?? undefined));
    return this.self();
  }

  getFontWeight(): FontWeight {
    return (this.sheet.cell(this.row, this.column)?.fontWeight ?? 'normal') as FontWeight;
  }

  getFontWeights(): FontWeight[][] {
    return this.grid((cell) => (cell?.fontWeight ?? 'normal') as FontWeight);
  }

  setFontWeight(fontWeight: FontWeight | null): GRange {
    this.each((cell) => (cell.fontWeight = fontWeight && fontWeight !== 'normal' ? String(fontWeight) : undefined));
    return this.self();
  }

  setDataValidation(rule: GValidation | null): GRange {
    const spec = rule === null ? undefined : this.ruleSpec(rule);
    this.each((cell) => (cell.validation = spec));
    return this.self();
  }

  setDataValidations(rules: Array<Array<GValidation | null>>): GRange {
    const data = this.checkShape(rules, 'DataValidations');
    this.each((cell, r, c) => (cell.validation = data[r][c] ? this.ruleSpec(data[r][c] as GValidation) : undefined));
    return this.self();
  }

  getDataValidation(): GValidation | null {
    const spec = this.sheet.cell(this.row, this.column)?.validation;
    return spec ? new DataValidationImpl(spec, this.env.newArray) : null;
  }

  getDataValidations(): Array<Array<GValidation | null>> {
    return this.grid((cell) => (cell?.validation ? new DataValidationImpl(cell.validation, this.env.newArray) : null));
  }

  private ruleSpec(rule: GValidation): DataValidationImpl['spec'] {
    if (!(rule instanceof DataValidationImpl))
      throw this.env.exec.error("The parameters (Object) don't match the method signature for SpreadsheetApp.Range.setDataValidation.");
    return rule.spec;
  }

  /** Only on a whole row or a whole column, as in Sheets. */
  addDeveloperMetadata(key: string, a?: any, b?: any): GRange {
    addMetadata(this.env, rangePlace(this.env, this), key, a, b);
    return this.self();
  }

  createDeveloperMetadataFinder(): GoogleAppsScript.Spreadsheet.DeveloperMetadataFinder {
    return new DeveloperMetadataFinderImpl(this.env, { type: 'RANGE', range: this }) as unknown as GoogleAppsScript.Spreadsheet.DeveloperMetadataFinder;
  }

  getDeveloperMetadata(): GoogleAppsScript.Spreadsheet.DeveloperMetadata[] {
    return metadataOf(this.env, { type: 'RANGE', range: this });
  }

  /** An empty pivot table over `sourceData`, anchored at this range's first cell. */
  createPivotTable(sourceData: GRange): GoogleAppsScript.Spreadsheet.PivotTable {
    if (!(sourceData instanceof RangeImpl))
      throw this.env.exec.error("The parameters (Object) don't match the method signature for SpreadsheetApp.Range.createPivotTable.");
    return createPivotTable(this.env, this, sourceData);
  }

  /** A column number (absolute), {column, ascending}, or an array of them; only this range's cells move. */
  /** The sheet's one filter, on this range; its first row is the header (never hidden). */
  createFilter(): GoogleAppsScript.Spreadsheet.Filter {
    if (this.sheet.filter) throw this.env.exec.error("You can't create a filter in a sheet that already has a filter.");
    this.sheet.filter = { row: this.row, column: this.column, numRows: this.numRows, numColumns: this.numColumns, criteria: new Map() };
    return new FilterImpl(filterHost(this.env, this.sheet)) as unknown as GoogleAppsScript.Spreadsheet.Filter;
  }

  getFilter(): GoogleAppsScript.Spreadsheet.Filter | null {
    return this.sheet.filter ? (new FilterImpl(filterHost(this.env, this.sheet)) as unknown as GoogleAppsScript.Spreadsheet.Filter) : null;
  }

  sort(sortSpecObj: any): GRange {
    const items: unknown[] = Array.isArray(sortSpecObj) ? sortSpecObj : [sortSpecObj];
    const specs: SortSpec[] = items.map((item) => {
      const spec = typeof item === 'number' ? { column: item, ascending: true } : (item as { column?: unknown; ascending?: unknown });
      const column = Number(spec?.column);
      if (!Number.isInteger(column) || column < this.column || column > this.getLastColumn())
        throw this.env.exec.error('Sort column must be within the range.');
      return { column, ascending: spec.ascending !== false };
    });
    sortRange(this.sheet, this.row, this.getLastRow(), this.column, this.getLastColumn(), specs);
    if (this.sheet.filter) applyFilter(this.sheet, this.env.model.locale);
    return this.self();
  }
}
