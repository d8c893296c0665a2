/** The dashboards' sheet port over SpreadsheetApp: table writing plus native charts and pivot tables. */
import type { Zone } from '../api/calendar';
import type { ChartOrder, DashboardBookPort, DashboardSheetPort, PivotOrder } from '../core/dashboards/port';
import { afterReportRun, REFRESH_RESERVE_MS } from '../core/dashboards/after-run';
import type { DashboardDeps } from '../core/dashboards/refresh';
import { DashboardStore } from '../core/dashboards/store';
import type { SignedStore } from '../core/trust/seal';
import { ReportStore } from '../core/reports/reports';
import { lastAsked } from '../core/runs/plan-pull';
import { documentStore, spreadsheetTimeZone } from './services';
import { bookPort, type SheetMemo, sheetPort, sheetsOf } from './sheet-port';
import { insertSheetAtEnd } from './cell-limit';
import { gasZone } from './zone';

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;
type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;

function chartBuilder(sheet: Sheet, existing: GoogleAppsScript.Spreadsheet.EmbeddedChart | undefined, order: ChartOrder) {
  const range = sheet.getRange(order.range.row, order.range.column, order.range.numRows, order.range.numColumns);
  // An existing chart keeps the place the user dragged it to.
  let b = existing ? existing.modify().clearRanges() : sheet.newChart().setPosition(order.at.row, order.at.column, 0, 0);
  b = b.setChartType(Charts.ChartType[order.type]).addRange(range).setNumHeaders(1);
  for (const [option, value] of Object.entries(order.options)) b = b.setOption(option, value);
  return b.build();
}

/** The id of the chart just inserted: getCharts() has no documented order, so it is the one chart that was not there before. */
function insertedId(sheet: Sheet, before: Set<number | null>): number {
  return (
    sheet
      .getCharts()
      .find((c) => !before.has(c.getChartId()))
      ?.getChartId() ?? -1
  );
}

function dashboardSheetPort(ss: Spreadsheet, sheet: Sheet, memo?: SheetMemo, id?: number): DashboardSheetPort {
  return {
    ...sheetPort(sheet, memo, id),
    reset: () => {
      sheet.clear();
    },
    setBold(row, column, numColumns) {
      sheet.getRange(row, column, 1, numColumns).setFontWeight('bold');
    },
    writeLinks(row, column, cells) {
      if (cells.length === 0) return;
      const rich = cells.map((c) => {
        const b = SpreadsheetApp.newRichTextValue().setText(c.text);
        for (const l of c.links) b.setLinkUrl(l.start, l.end, l.url);
        return [b.build()];
      });
      sheet.getRange(row, column, cells.length, 1).setRichTextValues(rich);
    },
    chartIds: () => sheet.getCharts().map((c) => c.getChartId() ?? -1),
    putChart(id, order) {
      const existing = id === null ? undefined : sheet.getCharts().find((c) => c.getChartId() === id);
      const chart = chartBuilder(sheet, existing, order);
      if (existing && id !== null) {
        sheet.updateChart(chart);
        return id;
      }
      const before = new Set(sheet.getCharts().map((c) => c.getChartId()));
      sheet.insertChart(chart);
      return insertedId(sheet, before);
    },
    removeChart(id) {
      const chart = sheet.getCharts().find((c) => c.getChartId() === id);
      if (chart) sheet.removeChart(chart);
    },
    removePivots() {
      for (const p of sheet.getPivotTables()) p.remove();
    },
    addPivot(order: PivotOrder) {
      const from = ss.getSheets().find((s) => s.getSheetId() === order.sourceSheetId);
      if (!from) return;
      const source = from.getRange(order.source.row, order.source.column, order.source.numRows, order.source.numColumns);
      const pivot = sheet.getRange(order.anchor.row, order.anchor.column).createPivotTable(source);
      pivot.addRowGroup(order.rowColumn);
      if (order.columnColumn !== undefined) pivot.addColumnGroup(order.columnColumn);
      pivot.addPivotValue(order.valueColumn, SpreadsheetApp.PivotTableSummarizeFunction.SUM).setDisplayName(order.valueName);
      if (order.visible) pivot.addFilter(order.visible.column, SpreadsheetApp.newFilterCriteria().setVisibleValues(order.visible.values).build());
    },
  };
}

export function dashboardBookPort(ss: Spreadsheet = SpreadsheetApp.getActiveSpreadsheet()): DashboardBookPort {
  const book = bookPort(ss);
  const sheets = sheetsOf(ss, (sheet, memo, id) => dashboardSheetPort(ss, sheet, memo, id));
  return {
    ...book,
    tagged: sheets.tagged,
    byId: sheets.byId,
    create(name) {
      // insertSheet activates the new sheet: the person keeps looking at theirs until they open the dashboard.
      const before = ss.getActiveSheet();
      const sheet = insertSheetAtEnd(ss, name);
      if (before) ss.setActiveSheet(before);
      return sheets.added(sheet);
    },
  };
}

export function dashboardDeps(
  doc: SignedStore = documentStore(),
  zone: Zone = gasZone(spreadsheetTimeZone()),
  ss: Spreadsheet = SpreadsheetApp.getActiveSpreadsheet(),
): DashboardDeps {
  const newId = () => Utilities.getUuid();
  return {
    dashboards: new DashboardStore(doc, newId),
    reports: new ReportStore(doc, newId),
    book: dashboardBookPort(ss),
    asked: (r) => lastAsked(r, Date.now(), zone),
    zone,
    now: () => Date.now(),
  };
}

/** The report-run hook (RunDeps.afterReportRun): the run's owner's dashboards on that report, each started only with time left for it. */
export function refreshAfterRun(doc: SignedStore, zone: Zone, ss: Spreadsheet, limit: number): (report: { id: string; owner?: { id: string } }) => void {
  return (report) => {
    if (report.owner) afterReportRun(dashboardDeps(doc, zone, ss), report.id, report.owner.id, limit - REFRESH_RESERVE_MS);
  };
}
