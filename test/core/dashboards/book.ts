/**
 * A dashboard's spreadsheet in memory: the sheets' charts, pivots, bold cells,
 * column widths and resets kept for the tests to read, and the sheets found by
 * their tags. Each sheet has a grid as Sheets has one (1,000 rows and 26
 * columns until it is grown) and refuses, as Sheets does, a range outside it
 * or one of no rows or columns.
 */
import { lastAsked } from '../../../src/core/runs/plan-pull';
import { intlZone } from '../../../src/api/calendar';
import type { DashboardKind } from '../../../src/core/dashboards/kinds';
import type { PanelKind } from '../../../src/core/dashboards/panel';
import type { ChartOrder, DashboardBookPort, DashboardSheetPort, LinkedText, PivotOrder } from '../../../src/core/dashboards/port';
import type { DashboardDeps } from '../../../src/core/dashboards/refresh';
import { type Dashboard, DashboardStore } from '../../../src/core/dashboards/store';
import { type Report, ReportStore } from '../../../src/core/reports/reports';
import type { CellValue } from '../../../src/core/sheets/table';
import { MemoryStore, trusted } from '../bulk/fixtures';
import { MemoryBook, MemorySheet } from '../bulk/memory-book';

export const zone = intlZone('America/Sao_Paulo');
/** 22/11/2026 14:30 in São Paulo. */
export const NOW = zone.instant({ year: 2026, month: 11, day: 22, hour: 14, minute: 30 }).getTime();
export const owner = { id: 'u1', email: 'dona@example.com' };

export class DashSheet extends MemorySheet implements DashboardSheetPort {
  readonly columnsByKey = new Map<string, number>();
  gridRows = 1_000;
  gridColumns = 26;
  widths: readonly number[] = [];
  private range(row: number, column: number, numRows: number, numColumns: number) {
    if (numRows < 1 || numColumns < 1) throw new Error('The number of rows or columns in the range must be at least 1.');
    if (row + numRows - 1 > this.gridRows || column + numColumns - 1 > this.gridColumns)
      throw new Error('The coordinates of the range are outside the dimensions of the sheet.');
  }
  override ensureSize(rows = 0, columns = 0) {
    this.gridRows = Math.max(this.gridRows, rows);
    this.gridColumns = Math.max(this.gridColumns, columns);
  }
  override read(row: number, column: number, numRows: number, numColumns: number) {
    this.range(row, column, numRows, numColumns);
    return super.read(row, column, numRows, numColumns);
  }
  override readNotes(row: number, column: number, numColumns: number) {
    this.range(row, column, 1, numColumns);
    return super.readNotes(row, column, numColumns);
  }
  override setFormats(row: number, column: number, numRows: number, formats: readonly string[]) {
    this.range(row, column, numRows, formats.length);
    super.setFormats(row, column, numRows, formats);
  }
  override write(row: number, column: number, values: CellValue[][]) {
    this.range(row, column, values.length, Math.max(0, ...values.map((v) => v.length)));
    super.write(row, column, values);
  }
  setColumnWidths(widths: readonly number[]) {
    this.widths = widths;
  }
  charts = new Map<number, ChartOrder>();
  pivots: PivotOrder[] = [];
  bold: string[] = [];
  resets = 0;
  private nextChart = 1;
  override columnTags() {
    return new Map(this.columnsByKey);
  }
  reset() {
    this.resets++;
    this.grid = [];
  }
  setBold(row: number, column: number, numColumns: number) {
    this.bold.push(`${row}:${column}+${numColumns}`);
  }
  /** Each linked cell's links, by "row:column"; its text goes in the grid as any value. */
  links = new Map<string, LinkedText['links']>();
  writeLinks(row: number, column: number, cells: readonly LinkedText[]) {
    this.write(
      row,
      column,
      cells.map((c) => [c.text]),
    );
    cells.forEach((c, i) => {
      if (c.links.length) this.links.set(`${row + i}:${column}`, c.links);
      else this.links.delete(`${row + i}:${column}`);
    });
  }
  chartIds() {
    return [...this.charts.keys()];
  }
  putChart(id: number | null, order: ChartOrder) {
    const at = id ?? this.nextChart++;
    this.charts.set(at, order);
    return at;
  }
  removeChart(id: number) {
    this.charts.delete(id);
  }
  removePivots() {
    this.pivots = [];
  }
  addPivot(order: PivotOrder) {
    this.pivots.push(order);
  }
  text(row: number): string {
    return String(this.grid[row - 1]?.[0] ?? '');
  }
}

export class DashBook extends MemoryBook implements DashboardBookPort {
  override sheets: DashSheet[] = [];
  private next = 500;
  override create(name: string) {
    const s = new DashSheet(this.next++, name);
    this.sheets.push(s);
    return s;
  }
  override byId(id: number) {
    return this.sheets.find((s) => s.id === id) ?? null;
  }
  override tagged(key: string, value?: string) {
    return this.sheets
      .filter((s) => s.tags.has(key) && (value === undefined || s.tags.get(key) === value))
      .map((sheet) => ({ sheet, value: sheet.tags.get(key) ?? '' }));
  }
}

/** The reports a kind reads, each on its own sheet holding the columns it asks for (and `rows` under them), and its dashboard. */
export function panelWorld(key: string, kind: PanelKind, rows: Record<string, CellValue[][]> = {}, kinds?: DashboardDeps['kinds']) {
  const doc = new MemoryStore();
  let n = 0;
  const book = new DashBook();
  const deps: DashboardDeps = {
    dashboards: new DashboardStore(trusted(doc), () => `painel${++n}xx`),
    reports: new ReportStore(trusted(doc), () => `rel${++n}xxxx`),
    book,
    asked: (r: Report) => lastAsked(r, NOW, zone),
    zone,
    now: () => NOW,
    ...(kinds ? { kinds } : {}),
  };
  const reports = kind.sources.map((need, i) => {
    const sheet = book.sheet(`Aba ${i + 1}`, [...need.columns], rows[need.field] ?? []) as DashSheet;
    need.columns.forEach((k, c) => sheet.columnsByKey.set(k, c + 1));
    return deps.reports.save({
      id: `r${i + 1}`,
      name: `Relatório ${i + 1}`,
      listing: need.listing,
      connection: 'Escritório',
      owner,
      filters: {},
      sheetName: sheet.name(),
      sheetId: sheet.id,
      incremental: false,
      schedule: null,
      notifyByEmail: false,
      createdAt: 0,
    } as Report);
  });
  const ids = Object.fromEntries(kind.sources.map((need, i) => [need.field, reports[i].id]));
  const d = deps.dashboards.create(
    { kind: key as DashboardKind, ...ids, ...(kind.competencia ? { competencia: '10/2026' } : {}), owner, sheetName: '' } as Omit<
      Dashboard,
      'id' | 'createdAt'
    >,
    0,
  );
  return { deps, book, reports, d };
}
