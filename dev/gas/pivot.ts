/**
 * Pivot tables (Range.createPivotTable, Sheet.getPivotTables) with the
 * builders the add-on uses: row and column groups, summarized values, filters
 * by FilterCriteria. Like Sheets, the table's output is real cell values at its
 * anchor, recomputed from the source whenever the table changes and whenever
 * its sheet is read (Sheets recalculates when the source changes); output that
 * would overwrite other cells shows #REF! instead, and a table whose source
 * sheet was deleted shows #REF!.
 *
 * Emulated subset: at most one row group and one column group, and one value
 * when there is a column group (what the add-on builds); more is refused with
 * an emulator error rather than computed wrongly.
 */
import type { GridRange, PivotFilterModel, PivotGroupModel, PivotModel, PivotValueModel, SummarizeName } from './embedded-model';
import { SUMMARIZE_FUNCTIONS } from './embedded-model';
import { FilterCriteriaImpl, passes } from './filter';
import { GasObject } from './instrument';
import { displayValue } from './number-format';
import type { SheetsEnv } from './sheets-env';
import { compareStored, type SheetModel, type SpreadsheetModel } from './spreadsheet-model';
import type { Stored } from './values';

type GPivot = GoogleAppsScript.Spreadsheet.PivotTable;
type GGroup = GoogleAppsScript.Spreadsheet.PivotGroup;
type GValue = GoogleAppsScript.Spreadsheet.PivotValue;
type GFilter = GoogleAppsScript.Spreadsheet.PivotFilter;
type GRange = GoogleAppsScript.Spreadsheet.Range;
type GCriteria = GoogleAppsScript.Spreadsheet.FilterCriteria;
type GSummarize = GoogleAppsScript.Spreadsheet.PivotTableSummarizeFunction;

export const SUMMARIZE_ENUM = Object.fromEntries(SUMMARIZE_FUNCTIONS.map((f) => [f, f])) as Record<SummarizeName, SummarizeName>;
const COMPUTED: ReadonlySet<SummarizeName> = new Set(['SUM', 'COUNTA', 'COUNT', 'COUNTUNIQUE', 'AVERAGE', 'MAX', 'MIN']);

const isPt = (locale: string) => locale.toLowerCase().startsWith('pt');
const grandTotal = (locale: string) => (isPt(locale) ? 'Total geral' : 'Grand Total');

interface OutCell {
  value: Stored;
  format?: string;
}

function summarize(fn: SummarizeName, values: Stored[]): Stored {
  const filled = values.filter((v) => v !== null && v !== '');
  const nums = values.filter((v): v is number => typeof v === 'number');
  switch (fn) {
    case 'SUM':
      return nums.reduce((a, b) => a + b, 0);
    case 'COUNTA':
      return filled.length;
    case 'COUNT':
      return nums.length;
    case 'COUNTUNIQUE':
      return new Set(filled.map((v) => JSON.stringify(v))).size;
    case 'AVERAGE':
      return nums.length ? nums.reduce((a, b) => a + b, 0) / nums.length : '#DIV/0!';
    case 'MAX':
      return nums.length ? Math.max(...nums) : 0;
    case 'MIN':
      return nums.length ? Math.min(...nums) : 0;
    default:
      throw new Error(`emulator: pivot summarize ${fn} is not emulated`);
  }
}

function headerOf(src: GridRange, column: number, locale: string): string {
  const cell = src.sheet.cell(src.row, column);
  return cell ? displayValue(cell.value, cell.format, locale) : '';
}

function groupName(g: PivotGroupModel, src: GridRange, locale: string): string {
  return g.displayName ?? headerOf(src, g.column, locale);
}

function valueName(v: PivotValueModel, src: GridRange, locale: string): string {
  return v.displayName ?? `${v.summarize} ${isPt(locale) ? 'de' : 'of'} ${headerOf(src, v.column, locale)}`;
}

/** Keys of a group in display order: ascending or descending, blanks last either way. */
function ordered(keys: Iterable<Stored>, g: PivotGroupModel): Stored[] {
  const list = [...keys];
  const blank = (v: Stored) => v === null || v === '';
  return list.sort((a, b) => {
    if (blank(a) !== blank(b)) return blank(a) ? 1 : -1;
    const d = compareStored(a, b);
    return g.ascending ? d : -d;
  });
}

/** The output grid of a pivot table, from its source as it is now. */
export function computePivot(p: PivotModel, locale: string): OutCell[][] {
  const src = p.source;
  const sheet = src.sheet;
  const cell = (r: number, c: number) => sheet.cell(r, c);
  const val = (r: number, c: number): Stored => cell(r, c)?.value ?? null;
  const rows: number[] = [];
  for (let r = src.row + 1; r < src.row + src.numRows; r++) {
    const kept = p.filters.every((f) => {
      const c = cell(r, f.column);
      return passes(f.criteria, c?.value ?? null, c ? displayValue(c.value, c.format, locale) : '');
    });
    if (kept) rows.push(r);
  }
  if (p.values.length === 0 && p.rows.length === 0 && p.columns.length === 0) return [];
  const rowGroup = p.rows[0];
  const colGroup = p.columns[0];
  const keyOf = (g: PivotGroupModel | undefined, r: number): Stored => (g ? (val(r, g.column) ?? '') : '');
  const keyFormat = new Map<string, string | undefined>();
  const formatOf = (g: PivotGroupModel | undefined, k: Stored) => (g ? keyFormat.get(`${g.column}|${JSON.stringify(k)}`) : undefined);
  const rowKeys = new Set<Stored>();
  const colKeys = new Set<Stored>();
  const byCell = new Map<string, number[]>();
  const push = (key: string, r: number) => {
    let list = byCell.get(key);
    if (!list) byCell.set(key, (list = []));
    list.push(r);
  };
  for (const r of rows) {
    const rk = keyOf(rowGroup, r);
    const ck = keyOf(colGroup, r);
    for (const [g, k] of [
      [rowGroup, rk],
      [colGroup, ck],
    ] as const) {
      const id = g ? `${g.column}|${JSON.stringify(k)}` : '';
      if (g && !keyFormat.has(id)) keyFormat.set(id, cell(r, g.column)?.format);
    }
    rowKeys.add(rk);
    colKeys.add(ck);
    push(`${JSON.stringify(rk)}|${JSON.stringify(ck)}`, r);
    push(`${JSON.stringify(rk)}|*`, r);
    push(`*|${JSON.stringify(ck)}`, r);
    push('*|*', r);
  }
  const valueFormat = (v: PivotValueModel) =>
    v.summarize === 'COUNT' || v.summarize === 'COUNTA' || v.summarize === 'COUNTUNIQUE' ? undefined : cell(src.row + 1, v.column)?.format;
  const agg = (v: PivotValueModel, key: string): OutCell => {
    const list = byCell.get(key);
    if (!list) return { value: null };
    return {
      value: summarize(
        v.summarize,
        list.map((r) => val(r, v.column)),
      ),
      format: valueFormat(v),
    };
  };
  const text = (s: string): OutCell => ({ value: s });
  const rk = rowGroup ? ordered(rowKeys, rowGroup) : [''];
  const total = grandTotal(locale);
  const out: OutCell[][] = [];
  if (!colGroup) {
    out.push([...(rowGroup ? [text(groupName(rowGroup, src, locale))] : []), ...p.values.map((v) => text(valueName(v, src, locale)))]);
    for (const k of rk) {
      const key = `${JSON.stringify(k)}|*`;
      out.push([...(rowGroup ? [{ value: k, format: formatOf(rowGroup, k) }] : []), ...p.values.map((v) => agg(v, rowGroup ? key : '*|*'))]);
    }
    if (rowGroup?.showTotals) out.push([text(total), ...p.values.map((v) => agg(v, '*|*'))]);
    return out;
  }
  const v = p.values[0];
  const ck = ordered(colKeys, colGroup);
  const width = 1 + ck.length + (colGroup.showTotals ? 1 : 0);
  const blankRow = (): OutCell[] => Array.from({ length: width }, () => ({ value: null }));
  const first = blankRow();
  first[0] = v ? text(valueName(v, src, locale)) : { value: null };
  first[1] = text(groupName(colGroup, src, locale));
  out.push(first);
  out.push([
    text(rowGroup ? groupName(rowGroup, src, locale) : ''),
    ...ck.map((k) => ({ value: k, format: formatOf(colGroup, k) })),
    ...(colGroup.showTotals ? [text(total)] : []),
  ]);
  const line = (label: OutCell, rowKey: string): OutCell[] => [
    label,
    ...ck.map((k) => (v ? agg(v, `${rowKey}|${JSON.stringify(k)}`) : { value: null })),
    ...(colGroup.showTotals ? [v ? agg(v, `${rowKey}|*`) : { value: null }] : []),
  ];
  for (const k of rk) out.push(line({ value: k, format: formatOf(rowGroup, k) }, JSON.stringify(k)));
  if (!rowGroup || rowGroup.showTotals) out.push(line(text(total), '*'));
  return out;
}

/** Writes a pivot's output at its anchor (clearing what it wrote before); #REF! when it would cover other cells. */
export function renderPivot(model: SpreadsheetModel, sheet: SheetModel, p: PivotModel): void {
  for (let r = 0; r < p.footprint.numRows; r++) {
    for (let c = 0; c < p.footprint.numColumns; c++) {
      if (sheet.cell(p.row + r, p.column + c)) {
        // Through ensure: an execution's copy of the sheet must know the row changed.
        const cell = sheet.ensure(p.row + r, p.column + c);
        cell.value = null;
        cell.format = undefined;
      }
    }
  }
  const refError = () => {
    sheet.ensure(p.row, p.column).value = '#REF!';
    p.footprint = { numRows: 1, numColumns: 1 };
  };
  if (!model.sheets.includes(p.source.sheet)) {
    refError();
    return;
  }
  const grid = computePivot(p, model.locale);
  const numColumns = Math.max(0, ...grid.map((r) => r.length));
  const taken = grid.some((_, r) => Array.from({ length: numColumns }, (_, c) => c).some((c) => (sheet.cell(p.row + r, p.column + c)?.value ?? null) !== null));
  if (taken) {
    refError();
    return;
  }
  // Sheets grows the grid for a pivot table's output.
  sheet.maxRows = Math.max(sheet.maxRows, p.row + grid.length - 1);
  sheet.maxColumns = Math.max(sheet.maxColumns, p.column + numColumns - 1);
  grid.forEach((row, r) =>
    row.forEach((out, c) => {
      if (out.value === null) return;
      const cell = sheet.ensure(p.row + r, p.column + c);
      cell.value = out.value;
      cell.format = out.format;
    }),
  );
  p.footprint = { numRows: grid.length, numColumns };
}

/** Recomputes every pivot table on `sheet` (before its cells are read). */
export function recalcPivots(model: SpreadsheetModel, sheet: SheetModel): void {
  for (const p of sheet.pivots) renderPivot(model, sheet, p);
}

/** What the pivot service objects share: the live table, its sheet, and how to fail. */
interface PivotHost {
  env: SheetsEnv;
  sheet: SheetModel;
  model: PivotModel;
}

function live(h: PivotHost): PivotModel {
  if (!h.sheet.pivots.includes(h.model) || !h.env.model.sheets.includes(h.sheet)) throw h.env.exec.error('This pivot table no longer exists.');
  return h.model;
}

function changed(h: PivotHost): void {
  renderPivot(h.env.model, h.sheet, h.model);
}

function sourceColumn(h: PivotHost, column: number): number {
  const src = live(h).source;
  if (!Number.isInteger(column) || column < src.column || column >= src.column + src.numColumns)
    throw h.env.exec.error(`The source data column ${column} is outside the pivot table's source data range.`);
  return column;
}

function summarizeName(h: PivotHost, fn: GSummarize): SummarizeName {
  const name = String(fn) as SummarizeName;
  if (!(SUMMARIZE_FUNCTIONS as readonly string[]).includes(name)) throw h.env.exec.error('Invalid argument: summarizeFunction');
  if (!COMPUTED.has(name)) throw new Error(`emulator: pivot summarize ${name} is not emulated`);
  return name;
}

type GroupMethods =
  | 'getIndex'
  | 'getSourceDataColumn'
  | 'isSortAscending'
  | 'remove'
  | 'resetDisplayName'
  | 'setDisplayName'
  | 'showTotals'
  | 'sortAscending'
  | 'sortDescending'
  | 'totalsAreShown';

class PivotGroupImpl extends GasObject implements Pick<GGroup, GroupMethods> {
  readonly gasName = 'PivotGroup';
  constructor(
    private readonly h: PivotHost,
    private readonly group: PivotGroupModel,
    private readonly axis: 'rows' | 'columns',
  ) {
    super();
  }
  private self(): GGroup {
    return this as unknown as GGroup;
  }
  private list(): PivotGroupModel[] {
    const list = live(this.h)[this.axis];
    if (!list.includes(this.group)) throw this.h.env.exec.error('This pivot group no longer exists.');
    return list;
  }
  private set(change: () => void): GGroup {
    this.list();
    change();
    changed(this.h);
    return this.self();
  }
  getIndex(): number {
    return this.list().indexOf(this.group);
  }
  getSourceDataColumn(): number {
    this.list();
    return this.group.column;
  }
  isSortAscending(): boolean {
    this.list();
    return this.group.ascending;
  }
  totalsAreShown(): boolean {
    this.list();
    return this.group.showTotals;
  }
  sortAscending(): GGroup {
    return this.set(() => (this.group.ascending = true));
  }
  sortDescending(): GGroup {
    return this.set(() => (this.group.ascending = false));
  }
  showTotals(showTotals: boolean): GGroup {
    return this.set(() => (this.group.showTotals = Boolean(showTotals)));
  }
  setDisplayName(name: string): GGroup {
    return this.set(() => (this.group.displayName = String(name)));
  }
  resetDisplayName(): GGroup {
    return this.set(() => (this.group.displayName = null));
  }
  remove(): void {
    const list = this.list();
    list.splice(list.indexOf(this.group), 1);
    changed(this.h);
  }
}

class PivotValueImpl extends GasObject implements Pick<GValue, 'getSummarizedBy' | 'setDisplayName' | 'summarizeBy'> {
  readonly gasName = 'PivotValue';
  constructor(
    private readonly h: PivotHost,
    private readonly value: PivotValueModel,
  ) {
    super();
  }
  private check(): void {
    if (!live(this.h).values.includes(this.value)) throw this.h.env.exec.error('This pivot value no longer exists.');
  }
  getSummarizedBy(): GSummarize {
    this.check();
    return this.value.summarize as unknown as GSummarize;
  }
  summarizeBy(summarizeFunction: GSummarize): GValue {
    this.check();
    this.value.summarize = summarizeName(this.h, summarizeFunction);
    changed(this.h);
    return this as unknown as GValue;
  }
  setDisplayName(name: string): GValue {
    this.check();
    this.value.displayName = String(name);
    changed(this.h);
    return this as unknown as GValue;
  }
}

class PivotFilterImpl extends GasObject implements Pick<GFilter, 'getFilterCriteria' | 'getSourceDataColumn' | 'remove' | 'setFilterCriteria'> {
  readonly gasName = 'PivotFilter';
  constructor(
    private readonly h: PivotHost,
    private readonly filter: PivotFilterModel,
  ) {
    super();
  }
  private check(): void {
    if (!live(this.h).filters.includes(this.filter)) throw this.h.env.exec.error('This pivot filter no longer exists.');
  }
  getSourceDataColumn(): number {
    this.check();
    return this.filter.column;
  }
  getFilterCriteria(): GCriteria {
    this.check();
    return new FilterCriteriaImpl({ ...this.filter.criteria }, this.h.env.newArray) as unknown as GCriteria;
  }
  setFilterCriteria(filterCriteria: GCriteria): GFilter {
    this.check();
    if (!(filterCriteria instanceof FilterCriteriaImpl)) throw this.h.env.exec.error('Invalid argument: filterCriteria');
    this.filter.criteria = { ...filterCriteria.spec };
    changed(this.h);
    return this as unknown as GFilter;
  }
  remove(): void {
    this.check();
    this.h.model.filters.splice(this.h.model.filters.indexOf(this.filter), 1);
    changed(this.h);
  }
}

type PivotMethods =
  | 'addColumnGroup'
  | 'addFilter'
  | 'addPivotValue'
  | 'addRowGroup'
  | 'getAnchorCell'
  | 'getColumnGroups'
  | 'getFilters'
  | 'getPivotValues'
  | 'getRowGroups'
  | 'remove';

export class PivotTableImpl extends GasObject implements Pick<GPivot, PivotMethods> {
  readonly gasName = 'PivotTable';
  private readonly h: PivotHost;
  constructor(env: SheetsEnv, sheet: SheetModel, model: PivotModel) {
    super();
    this.h = { env, sheet, model };
  }
  private group(axis: 'rows' | 'columns', column: number): GGroup {
    const p = live(this.h);
    const c = sourceColumn(this.h, column);
    if (p[axis].length >= 1) throw new Error(`emulator: more than one ${axis === 'rows' ? 'row' : 'column'} group is not emulated`);
    const g: PivotGroupModel = { column: c, ascending: true, showTotals: true, displayName: null };
    p[axis].push(g);
    changed(this.h);
    return new PivotGroupImpl(this.h, g, axis) as unknown as GGroup;
  }
  addRowGroup(sourceDataColumn: number): GGroup {
    return this.group('rows', sourceDataColumn);
  }
  addColumnGroup(sourceDataColumn: number): GGroup {
    return this.group('columns', sourceDataColumn);
  }
  addPivotValue(sourceDataColumn: number, summarizeFunction: GSummarize): GValue {
    const p = live(this.h);
    const v: PivotValueModel = { column: sourceColumn(this.h, sourceDataColumn), summarize: summarizeName(this.h, summarizeFunction), displayName: null };
    if (p.columns.length > 0 && p.values.length >= 1) throw new Error('emulator: several values with a column group are not emulated');
    p.values.push(v);
    changed(this.h);
    return new PivotValueImpl(this.h, v) as unknown as GValue;
  }
  addFilter(sourceDataColumn: number, filterCriteria: GCriteria): GFilter {
    const p = live(this.h);
    if (!(filterCriteria instanceof FilterCriteriaImpl)) throw this.h.env.exec.error('Invalid argument: filterCriteria');
    const f: PivotFilterModel = { column: sourceColumn(this.h, sourceDataColumn), criteria: { ...filterCriteria.spec } };
    p.filters.push(f);
    changed(this.h);
    return new PivotFilterImpl(this.h, f) as unknown as GFilter;
  }
  getAnchorCell(): GRange {
    const p = live(this.h);
    return this.h.env.range(this.h.sheet, p.row, p.column, 1, 1) as GRange;
  }
  getRowGroups(): GGroup[] {
    return this.h.env.newArray(live(this.h).rows.map((g) => new PivotGroupImpl(this.h, g, 'rows') as unknown as GGroup));
  }
  getColumnGroups(): GGroup[] {
    return this.h.env.newArray(live(this.h).columns.map((g) => new PivotGroupImpl(this.h, g, 'columns') as unknown as GGroup));
  }
  getPivotValues(): GValue[] {
    return this.h.env.newArray(live(this.h).values.map((v) => new PivotValueImpl(this.h, v) as unknown as GValue));
  }
  getFilters(): GFilter[] {
    return this.h.env.newArray(live(this.h).filters.map((f) => new PivotFilterImpl(this.h, f) as unknown as GFilter));
  }
  remove(): void {
    const p = live(this.h);
    p.values = [];
    p.rows = [];
    p.columns = [];
    renderPivot(this.h.env.model, this.h.sheet, p);
    this.h.sheet.pivots.splice(this.h.sheet.pivots.indexOf(p), 1);
  }
}

/** Range.createPivotTable: an empty table from `source` (header row first), anchored at the range's first cell. */
export function createPivotTable(env: SheetsEnv, anchor: GridRange, source: GridRange): GPivot {
  const clash = anchor.sheet.pivots.find((p) => p.row === anchor.row && p.column === anchor.column);
  if (clash) throw env.exec.error('A pivot table already exists at this anchor cell.');
  const model: PivotModel = {
    id: env.model.newObjectId(),
    row: anchor.row,
    column: anchor.column,
    source: { sheet: source.sheet, row: source.row, column: source.column, numRows: source.numRows, numColumns: source.numColumns },
    rows: [],
    columns: [],
    values: [],
    filters: [],
    footprint: { numRows: 0, numColumns: 0 },
  };
  anchor.sheet.pivots.push(model);
  return new PivotTableImpl(env, anchor.sheet, model) as unknown as GPivot;
}

export function pivotTablesOf(env: SheetsEnv, sheet: SheetModel): GPivot[] {
  return env.newArray(sheet.pivots.map((p) => new PivotTableImpl(env, sheet, p) as unknown as GPivot));
}
