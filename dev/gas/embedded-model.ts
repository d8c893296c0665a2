/** Embedded charts and pivot tables as the spreadsheet model keeps them (charts.ts and pivot.ts have the service objects). */
import type { CriteriaSpec } from './filter-model';
import type { SheetModel } from './spreadsheet-model';

/** A block of cells of one sheet, by the sheet itself (a renamed or moved sheet is still the same one). */
export interface GridRange {
  sheet: SheetModel;
  row: number;
  column: number;
  numRows: number;
  numColumns: number;
}

export const CHART_TYPES = [
  'TIMELINE',
  'AREA',
  'BAR',
  'BUBBLE',
  'CANDLESTICK',
  'COLUMN',
  'COMBO',
  'GAUGE',
  'GEO',
  'HISTOGRAM',
  'RADAR',
  'LINE',
  'ORG',
  'PIE',
  'SCATTER',
  'SPARKLINE',
  'STEPPED_AREA',
  'TABLE',
  'TREEMAP',
  'WATERFALL',
] as const;
export type ChartTypeName = (typeof CHART_TYPES)[number];

/** What a chart is drawn from: its type, data ranges, options (flat keys such as "title" or "series.0.color") and where it floats. */
export interface ChartSpec {
  type: ChartTypeName | null;
  ranges: GridRange[];
  options: Record<string, unknown>;
  position: { anchorRow: number; anchorColumn: number; offsetX: number; offsetY: number };
  numHeaders: number;
  transpose: boolean;
}

export interface ChartModel extends ChartSpec {
  id: number;
}

export const SUMMARIZE_FUNCTIONS = [
  'CUSTOM',
  'SUM',
  'COUNTA',
  'COUNT',
  'COUNTUNIQUE',
  'AVERAGE',
  'MAX',
  'MIN',
  'MEDIAN',
  'PRODUCT',
  'STDEV',
  'STDEVP',
  'VAR',
  'VARP',
] as const;
export type SummarizeName = (typeof SUMMARIZE_FUNCTIONS)[number];

export interface PivotGroupModel {
  /** Absolute column of the source sheet. */
  column: number;
  ascending: boolean;
  showTotals: boolean;
  displayName: string | null;
}

export interface PivotValueModel {
  column: number;
  summarize: SummarizeName;
  displayName: string | null;
}

export interface PivotFilterModel {
  column: number;
  criteria: CriteriaSpec;
}

export interface PivotModel {
  id: number;
  /** The anchor cell, on the sheet holding this model in its `pivots`. */
  row: number;
  column: number;
  source: GridRange;
  rows: PivotGroupModel[];
  columns: PivotGroupModel[];
  values: PivotValueModel[];
  filters: PivotFilterModel[];
  /** Rows × columns the last computed output covered, cleared before the next one is written. */
  footprint: { numRows: number; numColumns: number };
}
