/**
 * Embedded charts (Sheet.newChart, insertChart, updateChart, removeChart,
 * getCharts) and the Charts service's ChartType enum, as far as the add-on
 * uses them: a chart is its type, data ranges, options and position, which is
 * what tests assert and the playground draws. Like Sheets, a built chart has no
 * id until it is inserted, a chart changes only when updateChart is given the
 * rebuilt chart, and a chart with no type is refused. getCharts() answers in
 * an order Google does not promise (newest first).
 */
import { type ChartModel, type ChartSpec, CHART_TYPES, type ChartTypeName } from './embedded-model';
import { GasObject } from './instrument';
import { RangeImpl } from './range';
import type { SheetsEnv } from './sheets-env';
import type { SheetModel } from './spreadsheet-model';

type GChart = GoogleAppsScript.Spreadsheet.EmbeddedChart;
type GBuilder = GoogleAppsScript.Spreadsheet.EmbeddedChartBuilder;
type GRange = GoogleAppsScript.Spreadsheet.Range;
type GContainer = GoogleAppsScript.Spreadsheet.ContainerInfo;
type GOptions = GoogleAppsScript.Charts.ChartOptions;
type GChartType = GoogleAppsScript.Charts.ChartType;

/** Charts.ChartType: the enum's values are their names, as the emulator's other enums. */
export const CHART_TYPE_ENUM = Object.fromEntries(CHART_TYPES.map((t) => [t, t])) as Record<ChartTypeName, ChartTypeName>;

/** The Charts service: only its enums (the add-on builds charts through Sheet.newChart). */
export class ChartsImpl extends GasObject implements Pick<GoogleAppsScript.Charts.Charts, 'ChartType'> {
  readonly gasName = 'Charts';
  readonly ChartType = CHART_TYPE_ENUM as unknown as typeof GoogleAppsScript.Charts.ChartType;
}

const emptySpec = (): ChartSpec => ({
  type: null,
  ranges: [],
  options: {},
  position: { anchorRow: 1, anchorColumn: 1, offsetX: 0, offsetY: 0 },
  numHeaders: -1,
  transpose: false,
});

const copySpec = (s: ChartSpec): ChartSpec => ({ ...s, ranges: s.ranges.slice(), options: { ...s.options }, position: { ...s.position } });

function rangesOf(env: SheetsEnv, spec: ChartSpec): GRange[] {
  const live = spec.ranges.filter((r) => env.model.sheets.includes(r.sheet));
  return env.newArray(live.map((r) => env.range(r.sheet, r.row, r.column, r.numRows, r.numColumns) as GRange));
}

class ContainerInfoImpl extends GasObject implements GContainer {
  readonly gasName = 'ContainerInfo';
  constructor(private readonly position: ChartSpec['position']) {
    super();
  }
  getAnchorColumn(): number {
    return this.position.anchorColumn;
  }
  getAnchorRow(): number {
    return this.position.anchorRow;
  }
  getOffsetX(): number {
    return this.position.offsetX;
  }
  getOffsetY(): number {
    return this.position.offsetY;
  }
}

class ChartOptionsImpl extends GasObject implements GOptions {
  readonly gasName = 'ChartOptions';
  constructor(private readonly options: Record<string, unknown>) {
    super();
  }
  get(option: string): any {
    return this.options[option] ?? null;
  }
}

type BuilderMethods =
  | 'addRange'
  | 'build'
  | 'clearRanges'
  | 'getChartType'
  | 'getContainer'
  | 'getRanges'
  | 'removeRange'
  | 'setChartType'
  | 'setNumHeaders'
  | 'setOption'
  | 'setPosition'
  | 'setTransposeRowsAndColumns';

export class EmbeddedChartBuilderImpl extends GasObject implements Pick<GBuilder, BuilderMethods> {
  readonly gasName = 'EmbeddedChartBuilder';
  constructor(
    private readonly env: SheetsEnv,
    private readonly spec: ChartSpec = emptySpec(),
    /** The chart this builder modifies (modify()), or null for a new one. */
    private readonly id: number | null = null,
  ) {
    super();
  }
  private self(): GBuilder {
    return this as unknown as GBuilder;
  }
  addRange(range: GRange): GBuilder {
    if (!(range instanceof RangeImpl))
      throw this.env.exec.error("The parameters (Object) don't match the method signature for SpreadsheetApp.EmbeddedChartBuilder.addRange.");
    this.spec.ranges.push({ sheet: range.sheet, row: range.row, column: range.column, numRows: range.numRows, numColumns: range.numColumns });
    return this.self();
  }
  removeRange(range: GRange): GBuilder {
    if (!(range instanceof RangeImpl)) throw this.env.exec.error('Invalid argument: range');
    const same = (r: ChartSpec['ranges'][number]) =>
      r.sheet === range.sheet && r.row === range.row && r.column === range.column && r.numRows === range.numRows && r.numColumns === range.numColumns;
    this.spec.ranges = this.spec.ranges.filter((r) => !same(r));
    return this.self();
  }
  clearRanges(): GBuilder {
    this.spec.ranges = [];
    return this.self();
  }
  getRanges(): GRange[] {
    return rangesOf(this.env, this.spec);
  }
  setChartType(type: GChartType): GBuilder {
    const name = String(type);
    if (!(CHART_TYPES as readonly string[]).includes(name)) throw this.env.exec.error(`Invalid argument: type`);
    this.spec.type = name as ChartTypeName;
    return this.self();
  }
  getChartType(): GChartType {
    return this.spec.type as unknown as GChartType;
  }
  setOption(option: string, value: any): GBuilder {
    if (typeof option !== 'string' || option === '') throw this.env.exec.error('Invalid argument: option');
    // Stored as given: a later setOption of the same key replaces it, as in Sheets.
    this.spec.options[option] = Array.isArray(value) ? Array.from(value) : value;
    return this.self();
  }
  setPosition(anchorRowPos: number, anchorColPos: number, offsetX: number, offsetY: number): GBuilder {
    if (![anchorRowPos, anchorColPos, offsetX, offsetY].every(Number.isInteger) || anchorRowPos < 1 || anchorColPos < 1)
      throw this.env.exec.error('Invalid argument: position');
    this.spec.position = { anchorRow: anchorRowPos, anchorColumn: anchorColPos, offsetX, offsetY };
    return this.self();
  }
  getContainer(): GContainer {
    return new ContainerInfoImpl({ ...this.spec.position }) as unknown as GContainer;
  }
  setNumHeaders(headers: number): GBuilder {
    this.spec.numHeaders = headers;
    return this.self();
  }
  setTransposeRowsAndColumns(transpose: boolean): GBuilder {
    this.spec.transpose = Boolean(transpose);
    return this.self();
  }
  build(): GChart {
    return new EmbeddedChartImpl(this.env, copySpec(this.spec), this.id) as unknown as GChart;
  }
}

type ChartMethods = 'getChartId' | 'getContainerInfo' | 'getNumHeaders' | 'getOptions' | 'getRanges' | 'getTransposeRowsAndColumns' | 'modify';

export class EmbeddedChartImpl extends GasObject implements Pick<GChart, ChartMethods> {
  readonly gasName = 'EmbeddedChart';
  constructor(
    private readonly env: SheetsEnv,
    readonly spec: ChartSpec,
    readonly id: number | null,
  ) {
    super();
  }
  getChartId(): number | null {
    return this.id;
  }
  getContainerInfo(): GContainer {
    return new ContainerInfoImpl({ ...this.spec.position }) as unknown as GContainer;
  }
  getNumHeaders(): number {
    return this.spec.numHeaders;
  }
  getOptions(): GOptions {
    return new ChartOptionsImpl({ ...this.spec.options }) as unknown as GOptions;
  }
  getRanges(): GRange[] {
    return rangesOf(this.env, this.spec);
  }
  getTransposeRowsAndColumns(): boolean {
    return this.spec.transpose;
  }
  modify(): GBuilder {
    return new EmbeddedChartBuilderImpl(this.env, copySpec(this.spec), this.id) as unknown as GBuilder;
  }
}

/** The Sheet methods about charts, on the sheet's model. */
export class SheetCharts {
  constructor(
    private readonly env: SheetsEnv,
    private readonly sheet: SheetModel,
  ) {}

  private chartOf(chart: GChart, method: string): EmbeddedChartImpl {
    if (!(chart instanceof EmbeddedChartImpl))
      throw this.env.exec.error(`The parameters (Object) don't match the method signature for SpreadsheetApp.Sheet.${method}.`);
    return chart;
  }

  newChart(): GBuilder {
    return new EmbeddedChartBuilderImpl(this.env) as unknown as GBuilder;
  }

  insertChart(chart: GChart): void {
    const c = this.chartOf(chart, 'insertChart');
    if (c.spec.type === null) throw this.env.exec.error('Chart type must be set.');
    if (c.spec.ranges.length === 0) throw this.env.exec.error('The chart has no data. Add a range with addRange.');
    this.sheet.charts.push({ ...copySpec(c.spec), id: this.env.model.newObjectId() });
  }

  updateChart(chart: GChart): void {
    const c = this.chartOf(chart, 'updateChart');
    const at = this.sheet.charts.findIndex((m) => m.id === c.id);
    if (c.id === null || at < 0) throw this.env.exec.error('The chart to update does not exist in this sheet.');
    if (c.spec.type === null) throw this.env.exec.error('Chart type must be set.');
    this.sheet.charts[at] = { ...copySpec(c.spec), id: c.id };
  }

  removeChart(chart: GChart): void {
    const c = this.chartOf(chart, 'removeChart');
    const at = this.sheet.charts.findIndex((m) => m.id === c.id);
    if (at < 0) throw this.env.exec.error('The chart to remove does not exist in this sheet.');
    this.sheet.charts.splice(at, 1);
  }

  /** Google documents no order for getCharts(): the emulator answers newest first, so code that takes the last as the newest fails here. */
  getCharts(): GChart[] {
    const newestFirst = this.sheet.charts.slice().reverse();
    return this.env.newArray(newestFirst.map((m: ChartModel) => new EmbeddedChartImpl(this.env, copySpec(m), m.id) as unknown as GChart));
  }
}
