/** The active sheet's embedded charts (their data read from their ranges) and pivot tables, for the page to draw. */
import { toA1 } from '../gas/a1';
import { displayValue } from '../gas/number-format';
import { recalcPivots } from '../gas/pivot';
import type { SheetModel, SpreadsheetModel } from '../gas/spreadsheet-model';
import type { ChartView, EmbeddedView } from './view';

/** Rows a chart's data may have on the page: a chart over a huge range still draws quickly. */
const MAX_POINTS = 200;

const LEGENDS: ReadonlyArray<ChartView['legend']> = ['bottom', 'top', 'right', 'none'];
const legendOf = (position: unknown): ChartView['legend'] => LEGENDS.find((l) => l === position) ?? 'bottom';

function chartOf(model: SpreadsheetModel, chart: SheetModel['charts'][number]): ChartView {
  const headers = Math.max(1, chart.numHeaders);
  // Ranges side by side are the chart's columns, as Sheets merges them (first column: the categories).
  const columns: Array<{ shown: string[]; raw: unknown[] }> = [];
  for (const r of chart.ranges) {
    if (!model.sheets.includes(r.sheet)) continue;
    if (r.sheet.pivots.length) recalcPivots(model, r.sheet);
    for (let c = r.column; c < r.column + r.numColumns; c++) {
      const shown: string[] = [];
      const raw: unknown[] = [];
      for (let row = r.row; row < r.row + Math.min(r.numRows, MAX_POINTS + headers); row++) {
        const cell = r.sheet.cell(row, c);
        shown.push(cell ? displayValue(cell.value, cell.format, model.locale) : '');
        raw.push(cell?.value ?? null);
      }
      columns.push({ shown, raw });
    }
  }
  const [first, ...rest] = columns;
  const title = typeof chart.options.title === 'string' ? chart.options.title : '';
  return {
    id: chart.id,
    type: chart.type ?? 'COLUMN',
    title,
    row: chart.position.anchorRow,
    column: chart.position.anchorColumn,
    offsetX: chart.position.offsetX,
    offsetY: chart.position.offsetY,
    stacked: chart.options.isStacked === true,
    legend: legendOf(chart.options['legend.position']),
    categories: first ? first.shown.slice(headers) : [],
    series: rest.map((s) => ({ name: s.shown.slice(0, headers).join(' '), values: s.raw.slice(headers).map((v) => (typeof v === 'number' ? v : 0)) })),
    table: columns.length ? columns[0].shown.map((_, i) => columns.map((c) => c.shown[i])) : [],
  };
}

export function embeddedOf(model: SpreadsheetModel, sheet: SheetModel): EmbeddedView {
  if (sheet.pivots.length) recalcPivots(model, sheet);
  return {
    charts: sheet.charts.map((c) => chartOf(model, c)),
    pivots: sheet.pivots.map((p) => ({
      a1: toA1(p.row, p.column, Math.max(1, p.footprint.numRows), Math.max(1, p.footprint.numColumns)),
      row: p.row,
      column: p.column,
      numRows: Math.max(1, p.footprint.numRows),
      numColumns: Math.max(1, p.footprint.numColumns),
    })),
  };
}
