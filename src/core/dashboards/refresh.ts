/**
 * The one refresh every kind of panel is served by: read the reports its kind
 * needs, compute its figures, and have its kind write them on the dashboard's
 * own sheet, found by its metadata whatever the user renamed or moved it to,
 * and never one of the user's sheets. When they cannot be computed, the last
 * good figures stay and the sheet says why.
 */
import { brDateTime, type Zone } from '../../api/calendar';
import type { FilterValues } from '../../api/filters';
import { UserError } from '../../api/user-error';
import { bounded, MESSAGE_MAX } from '../bounds';
import type { Report, ReportStore } from '../reports/reports';
import { SHEET_TAG } from '../sheets/sheet-layout';
import type { SheetPort } from '../sheets/sheet-port';
import { KINDS, type Kinds } from './kinds';
import type { Counted, InvoiceIds, PanelKind, Source } from './panel';
import type { DashboardBookPort, DashboardSheetPort } from './port';
import { deletedText, readSources } from './read';
import { companies, type SourceTable, todayOf } from './sources';
import { type Dashboard, type DashboardStore, dashboardTag, readsReport } from './store';

export interface DashboardDeps {
  dashboards: DashboardStore;
  reports: ReportStore;
  book: DashboardBookPort;
  /** What a report's last run asked the service for. */
  asked: (report: Report) => FilterValues;
  zone: Zone;
  now: () => number;
  /** The kinds it knows (the add-on's own when left out). */
  kinds?: Kinds;
}

const kindOf = (deps: DashboardDeps, d: Dashboard): PanelKind => (deps.kinds ?? KINDS)[d.kind];

/** A dashboard's reports, read once, and the figures its kind computes from them. */
function compute(deps: DashboardDeps, d: Dashboard, kind: PanelKind): { sources: Source[]; figures: Counted } {
  const sources = readSources(deps, d, kind);
  const now = deps.now();
  return { sources, figures: kind.compute({ sources, today: todayOf(deps.zone, now), now, competencia: d.competencia }) };
}

const DASHBOARD_SHEET_MAX = 90;

/** The dashboard's sheet as its metadata names it, if there is one. */
function taggedSheet(deps: DashboardDeps, d: Dashboard): DashboardSheetPort | undefined {
  return deps.book.tagged(SHEET_TAG, dashboardTag(d.id))[0]?.sheet;
}

/** The dashboard's sheet: by its metadata, else a new one named as the dashboard asks (or for its kind), a name no sheet has (the user's sheets are never taken). */
function dashboardSheet(deps: DashboardDeps, d: Dashboard): DashboardSheetPort {
  const found = taggedSheet(deps, d);
  if (found) return found;
  const names = new Set(deps.book.sheetNames().map((n) => n.toLowerCase()));
  // The work sheet is hidden from sheetNames but its name is taken all the same.
  const base = bounded(d.sheetName || `Painel · ${kindOf(deps, d).title}`, DASHBOARD_SHEET_MAX);
  let name = base;
  for (let n = 2; names.has(name.toLowerCase()) || deps.book.byName(name); n++) name = `${base} (${n})`;
  const sheet = deps.book.create(name);
  sheet.setSheetTag(SHEET_TAG, dashboardTag(d.id));
  return sheet;
}

const stamp = (deps: DashboardDeps, ms: number): string => brDateTime(deps.zone.wall(new Date(ms)));

/** The last good figures stay; the sheet and the list say why they were not refreshed. */
function notRefreshed(deps: DashboardDeps, d: Dashboard, sheet: DashboardSheetPort, why: string): Dashboard {
  const at = deps.now();
  const message = bounded(why, MESSAGE_MAX);
  sheet.ensureSize(6, 1);
  sheet.write(6, 1, [[`⚠ Não atualizado em ${stamp(deps, at)}: ${message}`]]);
  return deps.dashboards.save({ ...d, sheetId: sheet.id, sheetName: sheet.name(), lastRefresh: { at, ok: false, counted: 0, message } });
}

/** Saved without its sheet: the list says why. */
const saidInList = (deps: DashboardDeps, d: Dashboard, message: string): Dashboard =>
  deps.dashboards.save({ ...d, lastRefresh: { at: deps.now(), ok: false, counted: 0, message } });

/**
 * A report was deleted: each dashboard built on it (whoever's) says so on its
 * sheet, when it still has one (none is made for this), and in the list.
 */
export function reportDeleted(deps: DashboardDeps, reportId: string): void {
  for (const d of deps.dashboards.list()) {
    const need = kindOf(deps, d).sources.find((s) => d[s.field] === reportId);
    if (!need) continue;
    const sheet = taggedSheet(deps, d);
    const message = deletedText(need.role);
    if (sheet) notRefreshed(deps, d, sheet, message);
    else saidInList(deps, d, message);
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
    sheet.write(1, 1, [[kindOf(deps, d).title]]);
    notRefreshed(deps, { ...d, chartIds: [] }, sheet, message);
  }
}

/**
 * A source report whose last run was partial (a company failed): the figures hold the last good rows of a failed
 * company that has rows on the sheet, and the dashboard says so; one that has none is said by its kind (a column
 * without data, a Total of the others), never as figures of a last good update that never was.
 */
function partialNotes(sources: ReadonlyArray<{ report: Report; table: SourceTable }>): string[] {
  return sources.flatMap(({ report, table }) => {
    const run = report.lastRun;
    if (run?.result !== 'parcial') return [];
    const names = companies(table).names;
    const kept = run.failedCompanies?.filter((c) => names.includes(c.name));
    if (kept?.length === 0) return [];
    const said = kept
      ? `${kept.map((c) => `"${c.name}" falhou (${c.message.replace(/\.+$/, '')})`).join('; ')}. Os números ${kept.length === 1 ? 'dessa empresa' : 'dessas empresas'} são os da última atualização boa.`
      : `${run.message ?? 'uma empresa falhou.'} Os números dessas empresas são os da última atualização boa.`;
    return [bounded(`⚠ A última atualização do relatório "${report.name}" foi parcial: ${said}`, MESSAGE_MAX)];
  });
}

/**
 * Notes issued after the panel's invoices were selected for emission reach it only through its NFS-e report: until
 * that report runs again, the panel says which report to refresh, instead of showing them as still without a note.
 */
function issuePending(deps: DashboardDeps, d: Dashboard, sources: readonly Source[]): string[] {
  const notes = sources.find((s) => s.report.listing === 'nfse');
  if (d.issueAt === undefined || !notes || (notes.report.lastRun?.startedAt ?? 0) > d.issueAt) return [];
  return [
    `⚠ As faturas sem NFS-e deste painel foram selecionadas para emissão em ${stamp(deps, d.issueAt)}: as notas emitidas desde então só aparecem aqui depois que o relatório de NFS-e "${notes.report.name}" for atualizado (Relatórios › Atualizar); o painel se atualiza em seguida.`,
  ];
}

/** The figures written on the dashboard's cleared sheet, and the dashboard saved with its sheet, charts and last refresh. */
function written(
  deps: DashboardDeps,
  d: Dashboard,
  kind: PanelKind,
  { sources, figures }: ReturnType<typeof compute>,
  { sheet, at }: { sheet: DashboardSheetPort; at: number },
): Dashboard {
  sheet.removePivots();
  sheet.reset();
  const partial = [...partialNotes(sources), ...issuePending(deps, d, sources)];
  const onSheet = new Set(sheet.chartIds());
  const charts = d.chartIds?.filter((id) => onSheet.has(id)) ?? [];
  const chartIds = kind.write({ sheet, sources, stamp: stamp(deps, at), partial, charts }, figures);
  return deps.dashboards.save({
    ...d,
    sheetId: sheet.id,
    sheetName: sheet.name(),
    chartIds,
    lastRefresh: { at, ok: true, counted: figures.counted, ...(partial.length ? { message: bounded(partial.join(' '), MESSAGE_MAX) } : {}) },
  });
}

/** Builds or refreshes one dashboard of any kind now; the stored dashboard comes back with its sheet, charts and last refresh. */
export function refreshDashboard(deps: DashboardDeps, d: Dashboard): Dashboard {
  const kind = kindOf(deps, d);
  const sheet = dashboardSheet(deps, d);
  const at = deps.now();
  let read: ReturnType<typeof compute>;
  try {
    read = compute(deps, d, kind);
  } catch (err) {
    return notRefreshed(deps, d, sheet, err instanceof Error ? err.message : String(err));
  }
  return written(deps, d, kind, read, { sheet, at });
}

/** At the end of a report's run: the refresh, when the time its kind needs is left before `until`; else the list says it waits. */
export function refreshOnRun(deps: DashboardDeps, d: Dashboard, until: number): Dashboard {
  if (deps.now() > until - (kindOf(deps, d).extraMs ?? 0))
    return saidInList(
      deps,
      d,
      'Não deu tempo de atualizar este painel no fim da execução do relatório (limite de 6 minutos do Google): ele é atualizado na próxima execução, ou clique em Atualizar agora.',
    );
  return refreshDashboard(deps, d);
}

/** The invoices its kind lists for Lançamentos em lote to issue a note for, as they are in its first report's sheet now. */
export function invoicesToIssue(deps: DashboardDeps, d: Dashboard): { sheet: SheetPort; ids: InvoiceIds } {
  const { sources, ids } = issuable(deps, d);
  return { sheet: sources[0].sheet, ids };
}

function issuable(deps: DashboardDeps, d: Dashboard) {
  const kind = kindOf(deps, d);
  if (!kind.invoices) throw new UserError('Só o painel "Faturas sem NFS-e" prepara a emissão de notas.');
  const read = compute(deps, d, kind);
  return { kind, read, sources: read.sources, ids: kind.invoices(read.figures) };
}

/**
 * Emitir NFS-e destas faturas: the invoices to issue, and the dashboard rewritten from the same reading to say,
 * until its NFS-e report runs again, that the notes issued meanwhile are not in its figures yet.
 */
export function prepareIssue(deps: DashboardDeps, d: Dashboard): { sheet: SheetPort; ids: InvoiceIds } {
  const at = deps.now();
  const { kind, read, sources, ids } = issuable(deps, d);
  if (ids.length) written(deps, { ...d, issueAt: at }, kind, read, { sheet: dashboardSheet(deps, d), at });
  return { sheet: sources[0].sheet, ids };
}

/** Sheet rows (1-based) of a line's records in their report's sheet, and that sheet. */
export function lineRows(deps: DashboardDeps, d: Dashboard, key: string): { sheet: SheetPort; rows: number[]; title: string } {
  const kind = kindOf(deps, d);
  if (!kind.lineRows) throw new UserError('Só o painel "Fechamento da competência" tem linhas de conferência.');
  const { sources, figures } = compute(deps, d, kind);
  const line = kind.lineRows(figures, key);
  if (!line) throw new UserError('Esta linha de conferência não existe: atualize a lista de painéis.');
  return { sheet: sources[line.source].sheet, rows: line.rows.map((r) => r + 2), title: line.title };
}
