/**
 * The page the figure panels share: a head, a table (and a second one below
 * where the kind has one), a native chart drawn from the table beside it, and
 * a pivot table over the report's own sheet where one fits.
 */
import { COLUMN_TAG } from '../../sheets/sheet-layout';
import { describeFilters, sourceText, type TablePlan, TABLE_ROW, updatedText, writeHead, writeTable } from '../page';
import type { Page, PanelKind } from '../panel';
import type { ChartKind, DashboardSheetPort } from '../port';

export interface ChartPlan {
  type: ChartKind;
  title: string;
  /** The chart draws the table's header and its first `rows` rows, first `columns` columns. */
  rows: number;
  columns: number;
  options: Record<string, string | number | boolean>;
}

/** A pivot table over the report sheet itself, by field keys (the shell turns them into columns). */
export interface PivotPlan {
  title: string;
  rowKey: string;
  columnKey?: string;
  valueKey: string;
  valueName: string;
  /** Only rows whose `key` column shows one of `values`. */
  visible?: { key: string; values: string[] };
}

export interface Figures {
  table: TablePlan;
  chart: ChartPlan;
  /** A second table below the first (Fluxo de caixa: by plano de contas). */
  detail?: TablePlan;
  pivot?: PivotPlan;
  /** Records the figures counted. */
  counted: number;
  /** What the reader should know (a missing column, a list cut short). */
  notes: string[];
  /** Faturas sem NFS-e: each invoice by company (empty for one company) and id. */
  invoices?: Array<{ empresa: string; id: number }>;
}

/** A figure panel: its page is this room's. */
export function figuresKind(kind: Omit<PanelKind<Figures>, 'write'>): PanelKind<Figures> {
  return { ...kind, write: (page, figures) => writeFigures(page, figures, kind) };
}

function writeFigures(page: Page, figures: Figures, kind: Pick<PanelKind, 'title' | 'counts'>): number[] {
  const { sheet, sources } = page;
  writeHead(sheet, [
    kind.title,
    `Fonte: ${sources.map(sourceText).join(' comparado com o ')}`,
    `Filtros do relatório: ${describeFilters(sources[0].report)}. O painel conta: ${kind.counts}.`,
    updatedText(page.stamp, figures.counted, 'do relatório'),
    [...page.partial, ...figures.notes].join(' '),
  ]);
  // Labels read whole in the first column; the figures' columns fit their numbers.
  sheet.setColumnWidths?.([200, ...figures.table.header.slice(1).map(() => 130)]);
  let next = writeTable(sheet, TABLE_ROW, figures.table);
  if (figures.detail) next = writeTable(sheet, next + 2, figures.detail);
  const plan = figures.chart;
  const chartId = sheet.putChart(page.charts[0] ?? null, {
    type: plan.type,
    range: { row: TABLE_ROW + 1, column: 1, numRows: plan.rows + 1, numColumns: plan.columns },
    at: { row: TABLE_ROW, column: figures.table.header.length + 2 },
    options: { title: plan.title, ...plan.options },
  });
  // One chart is the dashboard's: the others it had go.
  for (const extra of page.charts.slice(1)) sheet.removeChart(extra);
  if (figures.pivot) writePivot(page, sheet, figures.pivot, next + 2);
  return [chartId];
}

/** The pivot's title at `title` and the pivot below it, when the report's sheet has the columns it sums by. */
function writePivot({ sources }: Page, sheet: DashboardSheetPort, p: PivotPlan, title: number): void {
  const source = sources[0].sheet;
  const tags = source.columnTags(COLUMN_TAG);
  const column = (key: string) => tags.get(key);
  const rowColumn = column(p.rowKey);
  const valueColumn = column(p.valueKey);
  if (rowColumn === undefined || valueColumn === undefined) return;
  sheet.ensureSize(title, 1);
  sheet.write(title, 1, [[p.title]]);
  sheet.setBold(title, 1, 1);
  const visibleColumn = p.visible ? column(p.visible.key) : undefined;
  sheet.addPivot({
    sourceSheetId: source.id,
    source: { row: 1, column: 1, numRows: Math.max(1, source.lastRow()), numColumns: Math.max(1, source.lastColumn()) },
    rowColumn,
    columnColumn: p.columnKey ? column(p.columnKey) : undefined,
    valueColumn,
    valueName: p.valueName,
    visible: p.visible && visibleColumn !== undefined ? { column: visibleColumn, values: p.visible.values } : undefined,
    anchor: { row: title + 1, column: 1 },
  });
}
