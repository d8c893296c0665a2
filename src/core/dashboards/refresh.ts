/**
 * Building and refreshing a dashboard: read its report's sheet (columns by
 * their metadata, never by position or header text), compute the figures,
 * and write them with native charts (and a pivot table where one fits) on the
 * dashboard's own sheet, found by its metadata whatever the user renamed or
 * moved it to, and never one of the user's sheets.
 */
import { brDateTime, type Month, parseDay, type Zone } from '../../api/calendar';
import { listing } from '../../api/operations';
import { UserError } from '../../api/user-error';
import { bounded, MESSAGE_MAX } from '../bounds';
import { findChildSheet } from '../child-sheet';
import { childSheetName } from '../sheet-names';
import { type Report, type ReportStore, resolveFilters, type SavedFilterValue } from '../reports';
import { describeSheetFilter } from '../sheet-filters';
import { COLUMN_TAG, noteKey, SHEET_TAG } from '../sheet-layout';
import type { SheetPort } from '../sheet-port';
import { type CellValue, tableSpec } from '../table';
import {
  billingByMonth,
  cashFlow,
  EMPRESA,
  type Figures,
  invoicesWithoutNfse,
  type MonthSpan,
  NEEDS,
  overdueByClient,
  receivablesByAge,
  type SourceTable,
  type TablePlan,
  type Today,
} from './figures';
import { KINDS } from './kinds';
import { describeOrganization, type Organization, sameOrganizations } from '../organizations';
import type { DashboardBookPort, DashboardSheetPort } from './port';
import { type Dashboard, type DashboardStore, dashboardTag, readsReport } from './store';
import { plural } from '../../api/words';

export interface DashboardDeps {
  dashboards: DashboardStore;
  reports: ReportStore;
  book: DashboardBookPort;
  zone: Zone;
  now: () => number;
}

/** Where each field's column is: its metadata, or for a child sheet (laid out by the import in header order) the header notes. */
function columnsByKey(sheet: SheetPort): Map<string, number> {
  const tags = sheet.columnTags(COLUMN_TAG);
  if (tags.size > 0 || sheet.lastColumn() === 0) return tags;
  const notes = sheet.readNotes(1, 1, sheet.lastColumn());
  notes.forEach((note, i) => {
    const key = noteKey(note);
    if (key && !tags.has(key)) tags.set(key, i + 1);
  });
  return tags;
}

/** A sheet's columns by field key, read one column per call (only those asked for). */
export function readSource(sheet: SheetPort, keys: readonly string[]): SourceTable {
  const tags = columnsByKey(sheet);
  const rows = Math.max(0, sheet.lastRow() - 1);
  const columns = new Map<string, CellValue[]>();
  for (const key of new Set([...keys, EMPRESA])) {
    const at = tags.get(key);
    if (at === undefined) continue;
    columns.set(key, rows ? sheet.read(2, at, rows, 1).map((r) => r[0]) : []);
  }
  return { rows, column: (key) => columns.get(key) };
}

function describeValue(v: SavedFilterValue): string {
  if (Array.isArray(v)) return v.join(', ');
  if (typeof v === 'boolean') return v ? 'Sim' : 'Não';
  if (typeof v === 'object' && v !== null) {
    if (v.rel === 'hoje') return v.dias === 0 ? 'hoje' : `hoje ${v.dias > 0 ? '+' : '−'} ${plural(Math.abs(v.dias), 'dia', 'dias')}`;
    return v.meses === 0 ? 'mês atual' : `mês atual ${v.meses > 0 ? '+' : '−'} ${Math.abs(v.meses)}`;
  }
  return String(v);
}

/** The report's filters in words: the service's, then "Filtros na planilha". Options (Incluir itens…) choose what comes, not which records: not filters. */
export function describeFilters(report: Report): string {
  const op = listing(report.listing);
  const service = Object.entries(report.filters)
    .map(([name, value]) => ({ def: op.filters.find((f) => f.name === name), name, value }))
    .filter(({ def }) => !def?.option)
    .map(({ def, name, value }) => `${def?.label ?? name}: ${describeValue(value)}`);
  const sheet = (report.sheetFilters ?? []).map((f) => describeSheetFilter(f, tableSpec(op).columns));
  const all = [...service, ...sheet];
  return all.length ? all.join('; ') : 'nenhum';
}

export function labelsOf(report: Report): Record<string, string> {
  return Object.fromEntries(tableSpec(listing(report.listing)).columns.map((c) => [c.key, `"${c.label}"`]));
}

export function sourceSheet(deps: DashboardDeps, report: Report, role: string): SheetPort {
  const sheet = report.sheetId === undefined ? null : deps.book.byId(report.sheetId);
  if (!sheet) throw new UserError(`A aba do relatório ${role} "${report.name}" não existe: atualize o relatório em Relatórios e o painel é refeito.`);
  return sheet;
}

const deletedText = (role: string) => `O relatório ${role} deste painel foi excluído: exclua o painel ou crie outro.`;

export function reportOf(deps: DashboardDeps, id: string | undefined, role: string): Report {
  const report = id ? deps.reports.find(id) : null;
  if (!report) throw new UserError(deletedText(role));
  return report;
}

/**
 * Why two reports cannot be compared: they read different organizations (an invoice of one never has its note
 * in the other, so every invoice would look unissued). Undefined when they read the same, or either is unknown.
 * `organizationsOf` tells a report's organizations (its last run's, by default).
 */
export function crossOrganization(
  invoices: Report,
  notes: Report,
  organizationsOf: (r: Report) => Organization[] | undefined = (r) => r.organizations,
): string | undefined {
  const a = organizationsOf(invoices);
  const b = organizationsOf(notes);
  if (!a || !b || sameOrganizations(a, b)) return undefined;
  const names = (list: Organization[]) => list.map(describeOrganization).join(', ');
  return `Os dois relatórios são de organizações diferentes: as faturas de "${invoices.name}" vêm de ${names(a)} e as NFS-e de "${notes.name}" vêm de ${names(b)}. Compará-los diria que nenhuma fatura tem nota: escolha um relatório de NFS-e da mesma empresa das faturas.`;
}

/** Date filters that bound a report, in the order they say when money moved: payment first, then due date. */
const SPAN_FILTERS = [
  ['dataPagamentoInicial', 'dataPagamentoFinal'],
  ['dataVencimentoInicial', 'dataVencimentoFinal'],
] as const;

/** The months a report covers, from its date filters as its last run resolved them (a 90-day report: those 3 or 4 months); none without them. */
export function reportSpan(report: Report, now: number, zone: Zone): MonthSpan | undefined {
  const at = new Date(report.lastRun?.startedAt ?? now);
  const filters = resolveFilters(report, at, zone);
  const month = (name: string): Month | undefined => {
    const day = typeof filters[name] === 'string' ? parseDay(filters[name] as string) : null;
    return day?.ok ? { year: day.value.year, month: day.value.month } : undefined;
  };
  for (const [first, last] of SPAN_FILTERS) {
    // Without an end, the report reaches the day it ran.
    const span = { from: month(first), to: month(last) ?? zone.wall(at) };
    if (filters[first] !== undefined || filters[last] !== undefined) return span;
  }
  return undefined;
}

/** Everything a dashboard's figures come from, read once. */
function compute(deps: DashboardDeps, d: Dashboard): { figures: Figures; sources: Array<{ report: Report; sheet: SheetPort }> } {
  const def = KINDS[d.kind];
  const needs = NEEDS[d.kind];
  const report = reportOf(deps, d.reportId, 'de origem');
  const sheet = sourceSheet(deps, report, 'de origem');
  const main = readSource(sheet, needs.main);
  const w = deps.zone.wall(new Date(deps.now()));
  const today: Today = { day: { year: w.year, month: w.month, day: w.day }, zone: deps.zone };
  const labels = labelsOf(report);
  const sources = [{ report, sheet }];
  switch (d.kind) {
    case 'vencimentos':
      return { figures: receivablesByAge(main, today, labels), sources };
    case 'faturamento':
      return { figures: billingByMonth(main, today, labels), sources };
    case 'inadimplencia':
      return { figures: overdueByClient(main, today, labels), sources };
    case 'sem-nfse': {
      const second = reportOf(deps, d.secondReportId, 'de NFS-e');
      const across = crossOrganization(report, second);
      if (across) throw new UserError(across);
      const nfseSheet = sourceSheet(deps, second, 'de NFS-e');
      sources.push({ report: second, sheet: nfseSheet });
      return { figures: invoicesWithoutNfse(main, readSource(nfseSheet, needs.second!), labels), sources };
    }
    case 'fluxo-caixa': {
      const child = needs.child!;
      const childDef = tableSpec(listing(def.listing)).children.find((c) => c.field === child.field)!;
      const childSheet = findChildSheet(deps.book, sheet.id, child.field, childSheetName(report.sheetName, childDef));
      const plans = childSheet ? readSource(childSheet, child.keys) : null;
      return { figures: cashFlow(main, plans, today, labels, reportSpan(report, deps.now(), deps.zone)), sources };
    }
    case 'fechamento':
      throw new Error('The Fechamento is built by buildDashboard.');
  }
}

const DASHBOARD_SHEET_MAX = 90;

/** The dashboard's sheet as its metadata names it, if there is one. */
function taggedSheet(deps: DashboardDeps, d: Dashboard): DashboardSheetPort | undefined {
  return deps.book.tagged(SHEET_TAG, dashboardTag(d.id))[0]?.sheet;
}

/** The dashboard's sheet: by its metadata, else a new one whose name no sheet has (the user's sheets are never taken). */
export function dashboardSheet(deps: DashboardDeps, d: Dashboard): DashboardSheetPort {
  const tag = dashboardTag(d.id);
  const found = taggedSheet(deps, d);
  if (found) return found;
  const names = new Set(deps.book.sheetNames().map((n) => n.toLowerCase()));
  // The work sheet is hidden from sheetNames but its name is taken all the same.
  const base = bounded(`Painel · ${KINDS[d.kind].title}`, DASHBOARD_SHEET_MAX);
  let name = base;
  for (let n = 2; names.has(name.toLowerCase()) || deps.book.byName(name); n++) name = `${base} (${n})`;
  const sheet = deps.book.create(name);
  sheet.setSheetTag(SHEET_TAG, tag);
  return sheet;
}

/** First row of the main table's header. */
export const TABLE_ROW = 8;

export function writeTable(sheet: DashboardSheetPort, row: number, t: TablePlan): number {
  sheet.write(row, 1, [[t.title]]);
  sheet.setBold(row, 1, 1);
  const width = t.header.length;
  sheet.ensureSize(row + 1 + t.rows.length, width);
  sheet.setFormats(
    row + 1,
    1,
    1,
    t.header.map(() => '@'),
  );
  sheet.write(row + 1, 1, [t.header]);
  sheet.setBold(row + 1, 1, width);
  if (t.rows.length) {
    sheet.setFormats(row + 2, 1, t.rows.length, t.formats);
    sheet.write(row + 2, 1, t.rows);
  }
  return row + 2 + t.rows.length;
}

export function stamp(deps: DashboardDeps, ms: number): string {
  return brDateTime(deps.zone.wall(new Date(ms)));
}

/** The last good figures stay; the sheet and the list say why they were not refreshed. */
export function notRefreshed(deps: DashboardDeps, d: Dashboard, sheet: DashboardSheetPort, why: string): Dashboard {
  const at = deps.now();
  const message = bounded(why, MESSAGE_MAX);
  sheet.ensureSize(6, 1);
  sheet.write(6, 1, [[`⚠ Não atualizado em ${stamp(deps, at)}: ${message}`]]);
  return deps.dashboards.save({ ...d, sheetId: sheet.id, sheetName: sheet.name(), lastRefresh: { at, ok: false, counted: 0, message } });
}

/**
 * A report was deleted: each dashboard built on it (whoever's) says so on its
 * sheet, when it still has one (none is made for this), and in the list.
 */
export function reportDeleted(deps: DashboardDeps, reportId: string): void {
  for (const d of deps.dashboards.list()) {
    const role = d.reportId === reportId ? 'de origem' : d.secondReportId === reportId ? 'de NFS-e' : d.chargesReportId === reportId ? 'de cobranças' : null;
    if (!role) continue;
    const sheet = taggedSheet(deps, d);
    const message = deletedText(role);
    if (sheet) notRefreshed(deps, d, sheet, message);
    else deps.dashboards.save({ ...d, lastRefresh: { at: deps.now(), ok: false, counted: 0, message } });
  }
}

/**
 * A report now reads another company (taken over with another organization's connection): each dashboard on it,
 * whoever's, drops the old company's figures and charts and says why, until it is refreshed over the new data.
 */
export function reportChangedCompany(deps: DashboardDeps, reportId: string, message: string): void {
  for (const d of deps.dashboards.list()) {
    if (!readsReport(d, reportId)) continue;
    const sheet = taggedSheet(deps, d);
    if (!sheet) continue;
    sheet.removePivots();
    for (const id of sheet.chartIds()) sheet.removeChart(id);
    sheet.reset();
    sheet.ensureSize(6, 1);
    sheet.write(1, 1, [[KINDS[d.kind].title]]);
    notRefreshed(deps, { ...d, chartIds: [] }, sheet, message);
  }
}

/**
 * A source report whose last run was partial (a company failed): the figures
 * hold that company's last good rows, and the dashboard says so.
 */
export function partialNotes(sources: ReadonlyArray<{ report: Report }>): string[] {
  return sources.flatMap(({ report }) =>
    report.lastRun?.result === 'parcial'
      ? [
          bounded(
            `⚠ A última atualização do relatório "${report.name}" foi parcial: ${report.lastRun.message ?? 'uma empresa falhou.'} Os números dessas empresas são os da última atualização boa.`,
            MESSAGE_MAX,
          ),
        ]
      : [],
  );
}

/** Builds or refreshes one dashboard now; the stored dashboard comes back with its sheet, charts and last refresh. */
export function refreshDashboard(deps: DashboardDeps, d: Dashboard): Dashboard {
  const def = KINDS[d.kind];
  const sheet = dashboardSheet(deps, d);
  const at = deps.now();
  let figures: Figures;
  let sources: Array<{ report: Report; sheet: SheetPort }>;
  try {
    ({ figures, sources } = compute(deps, d));
  } catch (err) {
    return notRefreshed(deps, d, sheet, err instanceof Error ? err.message : String(err));
  }
  sheet.removePivots();
  sheet.reset();
  const partial = partialNotes(sources);
  const from = sources.map(({ report, sheet: s }) => `relatório "${report.name}" (aba "${s.name()}")`).join(' comparado com o ');
  const header = [
    [def.title],
    [`Fonte: ${from}`],
    [`Filtros do relatório: ${describeFilters(sources[0].report)}. O painel conta: ${def.counts}.`],
    [
      `Atualizado em ${stamp(deps, at)} · ${plural(figures.counted, 'registro considerado', 'registros considerados')} · atualiza sozinho a cada atualização do relatório.`,
    ],
    [[...partial, ...figures.notes].join(' ')],
  ];
  sheet.ensureSize(TABLE_ROW + 2, 1);
  sheet.setFormats(1, 1, header.length, ['@']);
  sheet.write(1, 1, header);
  sheet.setBold(1, 1, 1);
  // Labels read whole in the first column; the figures' columns fit their numbers.
  sheet.setColumnWidths?.([200, ...figures.table.header.slice(1).map(() => 130)]);
  let next = writeTable(sheet, TABLE_ROW, figures.table);
  if (figures.detail) next = writeTable(sheet, next + 2, figures.detail);
  const plan = figures.chart;
  const chartOrder = {
    type: plan.type,
    range: { row: TABLE_ROW + 1, column: 1, numRows: plan.rows + 1, numColumns: plan.columns },
    at: { row: TABLE_ROW, column: figures.table.header.length + 2 },
    options: { title: plan.title, ...plan.options },
  };
  // The dashboard's charts still on the sheet (it has none before its first refresh): one is updated, the others go.
  const onSheet = new Set(sheet.chartIds());
  const kept = d.chartIds?.filter((id) => onSheet.has(id)) ?? [];
  const chartId = sheet.putChart(kept[0] ?? null, chartOrder);
  for (const extra of kept.slice(1)) sheet.removeChart(extra);
  if (figures.pivot) {
    const p = figures.pivot;
    const source = sources[0].sheet;
    const tags = source.columnTags(COLUMN_TAG);
    const column = (key: string) => tags.get(key);
    const rowColumn = column(p.rowKey);
    const valueColumn = column(p.valueKey);
    if (rowColumn !== undefined && valueColumn !== undefined) {
      const title = next + 2;
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
  }
  return deps.dashboards.save({
    ...d,
    sheetId: sheet.id,
    sheetName: sheet.name(),
    chartIds: [chartId],
    lastRefresh: { at, ok: true, counted: figures.counted, ...(partial.length ? { message: bounded(partial.join(' '), MESSAGE_MAX) } : {}) },
  });
}

/** Faturas sem NFS-e: the invoices to issue, as they are in the reports' sheets now. */
export function invoicesToIssue(deps: DashboardDeps, d: Dashboard): { sheet: SheetPort; ids: Array<{ empresa: string; id: number }> } {
  if (d.kind !== 'sem-nfse') throw new UserError('Só o painel "Faturas sem NFS-e" prepara a emissão de notas.');
  const { figures, sources } = compute(deps, d);
  return { sheet: sources[0].sheet, ids: figures.invoices! };
}
