/**
 * A dashboard's spreadsheet in memory: the sheets' charts, pivots, bold cells
 * and resets kept for the tests to read, and the sheets found by their tags.
 */
import type { ChartOrder, DashboardBookPort, DashboardSheetPort, PivotOrder } from '../../src/core/dashboards/port';
import { MemoryBook, MemorySheet } from '../bulk/memory-book';

export class DashSheet extends MemorySheet implements DashboardSheetPort {
  readonly columnsByKey = new Map<string, number>();
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
