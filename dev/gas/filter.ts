/**
 * A sheet's filter (Range.createFilter, Sheet.getFilter) and filter criteria
 * (SpreadsheetApp.newFilterCriteria), as far as people use them on report
 * sheets: hide values, text equal/contains, number comparisons, empty cells.
 *
 * Like Sheets, a filter hides rows when its criteria are set, not when values
 * change later (a row edited or written by a script stays visible until the
 * criteria are set again); its range moves with inserted and deleted rows and
 * columns, and rows written below it are outside it (the range does not grow).
 */
import type { CriteriaSpec, CriteriaType, FilterModel } from './filter-model';
import { GasObject } from './instrument';
import { computedValue } from './formula';
import { displayValue } from './number-format';
import type { SheetsEnv } from './sheets-env';
import { type SheetModel, sortRange } from './spreadsheet-model';
import { isFormula } from './values';

type GFilter = GoogleAppsScript.Spreadsheet.Filter;
type GCriteria = GoogleAppsScript.Spreadsheet.FilterCriteria;
type GBuilder = GoogleAppsScript.Spreadsheet.FilterCriteriaBuilder;
type GRange = GoogleAppsScript.Spreadsheet.Range;

export function passes(spec: CriteriaSpec, value: unknown, shown: string): boolean {
  if (spec.hidden.includes(shown)) return false;
  if (spec.visible && !spec.visible.includes(shown)) return false;
  const empty = value === null || value === undefined || value === '';
  const [v] = spec.values;
  switch (spec.type) {
    case null:
      return true;
    case 'CELL_EMPTY':
      return empty;
    case 'CELL_NOT_EMPTY':
      return !empty;
    case 'TEXT_EQUAL_TO':
      return shown.toLowerCase() === String(v).toLowerCase();
    case 'TEXT_CONTAINS':
      return shown.toLowerCase().includes(String(v).toLowerCase());
    case 'NUMBER_GREATER_THAN':
      return typeof value === 'number' && value > Number(v);
    case 'NUMBER_LESS_THAN':
      return typeof value === 'number' && value < Number(v);
    case 'NUMBER_EQUAL_TO':
      return typeof value === 'number' && value === Number(v);
  }
}

/** Recomputes which rows the filter hides (the header row never is). */
export function applyFilter(sheet: SheetModel, locale: string): void {
  const f = sheet.filter;
  sheet.filteredRows = new Set();
  if (!f) return;
  for (let r = f.row + 1; r < f.row + f.numRows; r++) {
    for (const [c, spec] of f.criteria) {
      const cell = sheet.cell(r, c);
      const value = cell && isFormula(cell.value) ? computedValue(sheet, r, c) : (cell?.value ?? null);
      const shown = cell ? displayValue(value, cell.format, locale) : '';
      if (!passes(spec, value, shown)) {
        sheet.filteredRows.add(r);
        break;
      }
    }
  }
}

export function filterHost(env: SheetsEnv, sheet: SheetModel): FilterHost {
  return {
    sheet,
    locale: env.model.locale,
    range: (row, column, numRows, numColumns) => env.range(sheet, row, column, numRows, numColumns) as GRange,
    error: (message) => env.exec.error(message),
    newArray: env.newArray,
  };
}

export interface FilterHost {
  sheet: SheetModel;
  locale: string;
  range(row: number, column: number, numRows: number, numColumns: number): GRange;
  error(message: string): Error;
  newArray: <T>(items: T[]) => T[];
}

export class FilterCriteriaImpl
  extends GasObject
  implements Pick<GCriteria, 'copy' | 'getCriteriaType' | 'getCriteriaValues' | 'getHiddenValues' | 'getVisibleValues'>
{
  readonly gasName = 'FilterCriteria';
  constructor(
    readonly spec: CriteriaSpec,
    private readonly newArray: <T>(items: T[]) => T[],
  ) {
    super();
  }
  copy(): GBuilder {
    return new FilterCriteriaBuilderImpl(this.newArray, { ...this.spec, values: [...this.spec.values], hidden: [...this.spec.hidden] }) as unknown as GBuilder;
  }
  getCriteriaType(): GoogleAppsScript.Spreadsheet.BooleanCriteria {
    return this.spec.type as unknown as GoogleAppsScript.Spreadsheet.BooleanCriteria;
  }
  getCriteriaValues(): any[] {
    return this.newArray([...this.spec.values]);
  }
  getHiddenValues(): string[] {
    return this.newArray([...this.spec.hidden]);
  }
  getVisibleValues(): string[] {
    return this.newArray([...(this.spec.visible ?? [])]);
  }
}

type BuilderMethods =
  | 'build'
  | 'copy'
  | 'setHiddenValues'
  | 'setVisibleValues'
  | 'whenTextEqualTo'
  | 'whenTextContains'
  | 'whenNumberGreaterThan'
  | 'whenNumberLessThan'
  | 'whenNumberEqualTo'
  | 'whenCellEmpty'
  | 'whenCellNotEmpty';

export class FilterCriteriaBuilderImpl extends GasObject implements Pick<GBuilder, BuilderMethods> {
  readonly gasName = 'FilterCriteriaBuilder';
  constructor(
    private readonly newArray: <T>(items: T[]) => T[],
    private spec: CriteriaSpec = { type: null, values: [], hidden: [], visible: null },
  ) {
    super();
  }
  private self(): GBuilder {
    return this as unknown as GBuilder;
  }
  private when(type: CriteriaType, values: Array<string | number>): GBuilder {
    this.spec = { ...this.spec, type, values };
    return this.self();
  }
  build(): GCriteria {
    return new FilterCriteriaImpl({ ...this.spec }, this.newArray) as unknown as GCriteria;
  }
  copy(): GBuilder {
    return new FilterCriteriaBuilderImpl(this.newArray, { ...this.spec }) as unknown as GBuilder;
  }
  setHiddenValues(values: string[]): GBuilder {
    this.spec = { ...this.spec, hidden: Array.from(values, String) };
    return this.self();
  }
  setVisibleValues(values: string[]): GBuilder {
    this.spec = { ...this.spec, visible: Array.from(values, String) };
    return this.self();
  }
  whenTextEqualTo(text: string): GBuilder {
    return this.when('TEXT_EQUAL_TO', [String(text)]);
  }
  whenTextContains(text: string): GBuilder {
    return this.when('TEXT_CONTAINS', [String(text)]);
  }
  whenNumberGreaterThan(n: number): GBuilder {
    return this.when('NUMBER_GREATER_THAN', [Number(n)]);
  }
  whenNumberLessThan(n: number): GBuilder {
    return this.when('NUMBER_LESS_THAN', [Number(n)]);
  }
  whenNumberEqualTo(n: number): GBuilder {
    return this.when('NUMBER_EQUAL_TO', [Number(n)]);
  }
  whenCellEmpty(): GBuilder {
    return this.when('CELL_EMPTY', []);
  }
  whenCellNotEmpty(): GBuilder {
    return this.when('CELL_NOT_EMPTY', []);
  }
}

type FilterMethods = 'getColumnFilterCriteria' | 'getRange' | 'remove' | 'removeColumnFilterCriteria' | 'setColumnFilterCriteria' | 'sort';

/** A handle on the sheet's filter; every call fails once the filter was removed. */
export class FilterImpl extends GasObject implements Pick<GFilter, FilterMethods> {
  readonly gasName = 'Filter';
  constructor(private readonly host: FilterHost) {
    super();
  }
  private self(): GFilter {
    return this as unknown as GFilter;
  }
  /** The live filter: the sheet's current one (its range moves with rows and columns). */
  private live(): FilterModel {
    const f = this.host.sheet.filter;
    if (!f) throw this.host.error('This filter no longer exists.');
    return f;
  }
  private column(f: FilterModel, columnPosition: number): number {
    if (!Number.isInteger(columnPosition) || columnPosition < f.column || columnPosition >= f.column + f.numColumns) {
      throw this.host.error('The column position must be within the filter range.');
    }
    return columnPosition;
  }
  getRange(): GRange {
    const f = this.live();
    return this.host.range(f.row, f.column, f.numRows, f.numColumns);
  }
  getColumnFilterCriteria(columnPosition: number): GCriteria | null {
    const f = this.live();
    const spec = f.criteria.get(this.column(f, columnPosition));
    return spec ? (new FilterCriteriaImpl(spec, this.host.newArray) as unknown as GCriteria) : null;
  }
  setColumnFilterCriteria(columnPosition: number, filterCriteria: GCriteria | null): GFilter {
    const f = this.live();
    const c = this.column(f, columnPosition);
    if (filterCriteria === null) f.criteria.delete(c);
    else if (filterCriteria instanceof FilterCriteriaImpl) f.criteria.set(c, { ...filterCriteria.spec });
    else throw this.host.error('Invalid argument: criteria');
    applyFilter(this.host.sheet, this.host.locale);
    return this.self();
  }
  removeColumnFilterCriteria(columnPosition: number): GFilter {
    return this.setColumnFilterCriteria(columnPosition, null);
  }
  remove(): void {
    this.live();
    this.host.sheet.filter = null;
    this.host.sheet.filteredRows = new Set();
  }
  sort(columnPosition: number, ascending: boolean): GFilter {
    const f = this.live();
    const c = this.column(f, columnPosition);
    if (f.numRows > 1) sortRange(this.host.sheet, f.row + 1, f.row + f.numRows - 1, f.column, f.column + f.numColumns - 1, [{ column: c, ascending }]);
    applyFilter(this.host.sheet, this.host.locale);
    return this.self();
  }
}
