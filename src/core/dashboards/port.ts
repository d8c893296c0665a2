/** What a dashboard needs from the spreadsheet beyond table writing: native charts and pivot tables on its own sheet. */
import type { BookPort, SheetPort } from '../sheets/sheet-port';

export type ChartKind = 'COLUMN' | 'BAR' | 'LINE' | 'PIE' | 'TABLE';

export interface Block {
  row: number;
  column: number;
  numRows: number;
  numColumns: number;
}

export interface ChartOrder {
  type: ChartKind;
  /** The cells drawn (header row first), on the dashboard sheet. */
  range: Block;
  /** Where the chart floats: its top-left cell. */
  at: { row: number; column: number };
  options: Record<string, string | number | boolean>;
}

export interface PivotOrder {
  /** The report sheet and its header-first block the pivot summarizes. */
  sourceSheetId: number;
  source: Block;
  /** Absolute columns of the source sheet. */
  rowColumn: number;
  columnColumn?: number;
  valueColumn: number;
  valueName: string;
  visible?: { column: number; values: string[] };
  anchor: { row: number; column: number };
}

/** A cell's text with links over parts of it (a list of spreadsheets, each its own link). */
export interface LinkedText {
  text: string;
  links: Array<{ start: number; end: number; url: string }>;
}

export interface DashboardSheetPort extends SheetPort {
  /** Clears every value and format the sheet has. */
  reset(): void;
  /** Writes texts with their links (as text: never read as numbers or dates), from (row, column) down. */
  writeLinks(row: number, column: number, cells: readonly LinkedText[]): void;
  setBold(row: number, column: number, numColumns: number): void;
  /** Ids of the charts on this sheet. */
  chartIds(): number[];
  /** Updates the chart `id` (kept where the user moved it) or inserts a new one; returns its id. */
  putChart(id: number | null, order: ChartOrder): number;
  removeChart(id: number): void;
  /** Removes every pivot table anchored on this sheet (they are all the dashboard's). */
  removePivots(): void;
  addPivot(order: PivotOrder): void;
}

export interface DashboardBookPort extends BookPort {
  tagged(key: string, value?: string): Array<{ sheet: DashboardSheetPort; value: string }>;
  byId(id: number): DashboardSheetPort | null;
  create(name: string): DashboardSheetPort;
}
