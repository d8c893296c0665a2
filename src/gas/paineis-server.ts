/**
 * Server side of the Painéis sidebar: build a dashboard from a saved report,
 * refresh or delete it, and, for Faturas sem NFS-e, select those invoices on
 * the invoices report's sheet, for Lançamentos em lote to issue them (the
 * sidebar then opens it).
 */
import { isSealed } from '../core/trust/seal';
import { type DashboardKind, KINDS } from '../core/dashboards/kinds';
import type { PanelKind, PanelLine } from '../core/dashboards/panel';
import { refusedSource } from '../core/dashboards/creation';
import { companyOf } from '../core/dashboards/company';
import { type DashboardDeps, lineRows, prepareIssue, refreshDashboard } from '../core/dashboards/refresh';
import { lastMonth, todayOf } from '../core/dashboards/sources';
import { competencia, parseCompetencia } from '../api/calendar';
import { type Dashboard, dashboardTag } from '../core/dashboards/store';
import { listing } from '../api/operations';
import { UserError } from '../api/user-error';
import { COLUMN_TAG, SHEET_TAG } from '../core/sheets/sheet-layout';
import type { Report, ReportStore } from '../core/reports/reports';
import { dashboardDeps } from './dashboard-port';
import { organizationOf } from './deps';
import { withDocumentLock } from './lock';
import { type FormOutcome, formOutcome, type Outcome, outcome } from './outcome';
import { connectionStore, currentUser, spreadsheetTimeZone } from './services';
import { selectionBookPort } from './sheet-port';
import { showSidebar } from './ui';

export function showDashboards(): void {
  showSidebar('Paineis', 'Painéis');
}

export interface DashboardView {
  id: string;
  kind: DashboardKind;
  title: string;
  reportName: string;
  secondReportName: string | null;
  /** Fechamento: its charges report and competência, and its conference lines (for Ver linhas). */
  chargesReportName: string | null;
  competencia: string | null;
  checks: PanelLine[];
  /** Its kind offers invoices to issue NFS-e for (Emitir NFS-e destas faturas). */
  issues: boolean;
  sheetName: string;
  owner: string;
  mine: boolean;
  lastRefresh: null | { at: string; ok: boolean; counted: number; message: string };
}

function views(deps: DashboardDeps): DashboardView[] {
  const me = currentUser().id;
  const timeZone = spreadsheetTimeZone();
  const names = new Map(
    SpreadsheetApp.getActiveSpreadsheet()
      .getSheets()
      .map((s) => [s.getSheetId(), s.getName()]),
  );
  const reportName = (id?: string) => (id ? (deps.reports.find(id)?.name ?? '(relatório excluído)') : null);
  return deps.dashboards.list().map((d) => ({
    id: d.id,
    kind: d.kind,
    title: KINDS[d.kind].title,
    reportName: reportName(d.reportId) ?? '',
    secondReportName: reportName(d.secondReportId),
    chargesReportName: reportName(d.chargesReportId),
    competencia: d.competencia ?? null,
    checks: [...(KINDS[d.kind].lines ?? [])],
    issues: KINDS[d.kind].invoices !== undefined,
    sheetName: (d.sheetId !== undefined && names.get(d.sheetId)) || d.sheetName,
    owner: d.owner?.email ?? '',
    mine: d.owner?.id === me,
    lastRefresh: d.lastRefresh
      ? {
          at: Utilities.formatDate(new Date(d.lastRefresh.at), timeZone, 'dd/MM/yyyy HH:mm'),
          ok: d.lastRefresh.ok,
          counted: d.lastRefresh.counted,
          message: d.lastRefresh.message ?? '',
        }
      : null,
  }));
}

/** The competência a close is of unless the user picks one. */
const defaultMonth = (deps: DashboardDeps): string => lastMonth(todayOf(deps.zone, deps.now()));

/** What the sidebar offers: each kind with the saved reports of the listing it needs, and the dashboards built. */
export function getDashboards() {
  const deps = dashboardDeps();
  const reports = deps.reports.list().map((r) => ({
    id: r.id,
    name: r.name,
    listing: r.listing as string,
    listingLabel: listing(r.listing).label,
    // One company's: the connection a report the panel makes beside it should read too.
    connection: r.companies ? '' : r.connection,
  }));
  return {
    kinds: (Object.entries(KINDS) as Array<[DashboardKind, PanelKind]>).map(([kind, k]) => ({
      kind,
      title: k.title,
      listing: k.sources[0].listing as string,
      second: (k.sources[1]?.listing ?? null) as string | null,
      third: (k.sources[2]?.listing ?? null) as string | null,
      competencia: k.competencia === true,
      counts: k.counts,
    })),
    reports,
    // The running user's own: the reports a Fechamento makes for itself read the one chosen.
    connections: connectionStore()
      .list()
      .map((c) => ({ name: c.name, isDefault: c.isDefault })),
    defaultCompetencia: defaultMonth(deps),
    dashboards: views(deps),
  };
}

export interface DashboardForm {
  kind: DashboardKind;
  reportId: string;
  secondReportId?: string;
  /** Fechamento: the charges report and the competência (MM/YYYY; last month when blank). */
  chargesReportId?: string;
  competencia?: string;
}

function ownDashboard(d: Dashboard): Dashboard {
  if (d.owner?.id !== currentUser().id)
    throw new UserError(`Este painel é de ${d.owner?.email || 'outra pessoa'}: só quem o criou pode atualizá-lo ou excluí-lo.`);
  return d;
}

/** Refreshed only as its owner saved it: one changed in the hidden sheet could name any sheet to draw on. */
function sealedDashboard(d: Dashboard): Dashboard {
  if (!isSealed(d))
    throw new UserError(
      'Este painel foi alterado fora do complemento (alguém editou a aba oculta "Faturamento · dados") e não é atualizado. Exclua-o e crie-o de novo.',
    );
  return d;
}

/**
 * The chosen reports with their organizations: one whose run did not know it is asked of its creator's own connection
 * once (the connection keeps the answer, for the report's next run), so a panel compares only what it can.
 */
function withOrganizations(deps: DashboardDeps, reports: ReadonlyArray<Report | null>, me: string): Report[] {
  const ask = organizationOf(deps.zone);
  return reports
    .filter((r): r is Report => !!r)
    .map((r) => {
      if (r.organizations || r.companies || r.owner?.id !== me || !r.connectionId) return r;
      const asked = ask(r.connectionId, true);
      return asked ? { ...r, organizations: [asked] } : r;
    });
}

/** The store as the first build reads it: the chosen reports with the organizations just asked, so it names its company. */
function readingAsKnown(deps: DashboardDeps, known: readonly Report[]): DashboardDeps {
  const reports: ReportStore = Object.create(deps.reports);
  reports.find = (id: string) => known.find((r) => r.id === id) ?? deps.reports.find(id);
  return { ...deps, reports };
}

/** A close's tab says its competência and, of one company, which: thirty closes are thirty tabs told apart (a sheet's name holds no slash). */
function closingTab(def: PanelKind, comp: string, report: Report): string {
  const company = companyOf(report, false);
  return `Painel · ${def.title} ${comp.replace('/', '-')}${company ? ` · ${company}` : ''}`;
}

/** Builds a dashboard now (its owner is the running user) and shows its sheet. */
export function createDashboard(form: DashboardForm): FormOutcome<DashboardView> {
  const def = KINDS[form.kind] as PanelKind | undefined;
  if (!def) return { ok: false, field: 'kind', message: 'Escolha o painel.' };
  const [main, secondNeed, thirdNeed] = def.sources.map((s) => s.listing);
  return formOutcome(() =>
    withDocumentLock((): FormOutcome<DashboardView> => {
      const deps = dashboardDeps();
      const report = deps.reports.find(form.reportId);
      if (!report || report.listing !== main)
        return { ok: false, field: 'reportId', message: `Escolha um relatório de ${listing(main).label} (crie um em Importar dados, se não houver).` };
      const second = form.secondReportId ? deps.reports.find(form.secondReportId) : null;
      if (secondNeed && (!second || second.listing !== secondNeed))
        return { ok: false, field: 'secondReportId', message: `Escolha também um relatório de ${listing(secondNeed).label} para comparar.` };
      if (report.sheetId === undefined || !deps.book.byId(report.sheetId))
        return { ok: false, field: 'reportId', message: `O relatório "${report.name}" ainda não tem aba: atualize-o em Relatórios e crie o painel depois.` };
      const third = form.chargesReportId ? deps.reports.find(form.chargesReportId) : null;
      if (thirdNeed && (!third || third.listing !== thirdNeed))
        return { ok: false, field: 'chargesReportId', message: `Escolha também um relatório de ${listing(thirdNeed).label}.` };
      const typed = def.competencia ? parseCompetencia(form.competencia?.trim() || defaultMonth(deps)) : undefined;
      if (typed && !typed.ok) return { ok: false, field: 'competencia', message: `Competência "${form.competencia}": ${typed.message}, por exemplo 10/2026.` };
      const comp = typed?.ok ? competencia(typed.value) : undefined;
      const me = currentUser();
      const [known, ...others] = withOrganizations(deps, [report, second, third], me.id);
      const refused = refusedSource(def, [known, ...others]);
      if (refused) return { ok: false, ...refused };
      const made = deps.dashboards.create(
        {
          kind: form.kind,
          reportId: report.id,
          ...(second ? { secondReportId: second.id } : {}),
          ...(third ? { chargesReportId: third.id } : {}),
          ...(comp ? { competencia: comp } : {}),
          owner: { id: me.id, email: me.email },
          sheetName: comp ? closingTab(def, comp, known) : '',
        },
        Date.now(),
      );
      const built = refreshDashboard(readingAsKnown(deps, [known, ...others]), made);
      // A panel whose first figures cannot be computed is not kept: the form says why, and no empty tab stays.
      if (built.lastRefresh?.ok === false) {
        removeDashboard(deps, built);
        return { ok: false, message: built.lastRefresh.message ?? 'O painel não pôde ser criado.' };
      }
      const sheet = built.sheetId === undefined ? null : SpreadsheetApp.getActiveSpreadsheet().getSheetById(built.sheetId);
      sheet?.activate();
      return { ok: true, value: views(deps).find((v) => v.id === built.id)! };
    }),
  );
}

export function refreshDashboardNow(id: string): Outcome<DashboardView> {
  return outcome(() =>
    withDocumentLock(() => {
      const deps = dashboardDeps();
      const d = refreshDashboard(deps, sealedDashboard(ownDashboard(deps.dashboards.get(id))));
      return views(deps).find((v) => v.id === d.id)!;
    }),
  );
}

/** The dashboard and its sheet (found by its metadata: never a sheet of the user's). */
function removeDashboard(deps: DashboardDeps, d: Dashboard): void {
  const ss = SpreadsheetApp.getActiveSpreadsheet();
  const sheet = ss.getSheets().find((s) => s.getDeveloperMetadata().some((m) => m.getKey() === SHEET_TAG && m.getValue() === dashboardTag(d.id)));
  if (sheet && ss.getSheets().length > 1) ss.deleteSheet(sheet);
  deps.dashboards.delete(d.id);
}

/** Deletes the dashboard and its sheet (found by its metadata: never a sheet of the user's). */
export function deleteDashboard(id: string): Outcome<DashboardView[]> {
  return outcome(() =>
    withDocumentLock(() => {
      const deps = dashboardDeps();
      removeDashboard(deps, ownDashboard(deps.dashboards.get(id)));
      return views(deps);
    }),
  );
}

/** Runs of consecutive rows as A1 ranges of whole rows' first cells (the bulk run reads the selection's rows). */
function rowRanges(rows: number[]): string[] {
  const sorted = [...new Set(rows)].sort((a, b) => a - b);
  const out: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++;
    out.push(`A${sorted[i]}:A${sorted[j]}`);
    i = j + 1;
  }
  return out;
}

/**
 * Faturas sem NFS-e → Lançamentos em lote: selects those invoices' rows (by id,
 * wherever they are now) on the invoices report's sheet, for the bulk
 * sidebar (the Painéis page calls showBulk next), where "Emitir NFS-e" with
 * "Só as selecionadas" issues them.
 */
export function prepareNfseIssue(id: string): Outcome<{ invoices: number; sheetName: string }> {
  return outcome(() => {
    const deps = dashboardDeps();
    const d = deps.dashboards.get(id);
    const { sheet, ids } = prepareIssue(deps, d);
    if (ids.length === 0) throw new UserError('Nenhuma fatura sem NFS-e: nada a emitir.');
    const idColumn = sheet.columnTags(COLUMN_TAG).get('idFatura');
    const empresaColumn = sheet.columnTags(COLUMN_TAG).get('empresa');
    if (idColumn === undefined) throw new UserError('A aba de faturas não tem a coluna "ID da fatura": atualize o relatório e tente de novo.');
    const last = sheet.lastRow();
    const idCells = last > 1 ? sheet.read(2, idColumn, last - 1, 1) : [];
    const empresaCells = last > 1 && empresaColumn !== undefined ? sheet.read(2, empresaColumn, last - 1, 1) : null;
    const wanted = new Set(ids.map((i) => `${i.empresa}\u0000${i.id}`));
    const rows: number[] = [];
    idCells.forEach(([v], i) => {
      const empresa = empresaCells ? String(empresaCells[i][0] ?? '').trim() : '';
      if (wanted.has(`${empresa}\u0000${v}`)) rows.push(i + 2);
    });
    selectionBookPort().activate(sheet.id, rowRanges(rows));
    return { invoices: rows.length, sheetName: sheet.name() };
  });
}

/** Fechamento → Ver linhas: selects, on its report's sheet, exactly the rows behind a conference line. */
export function showClosingRows(id: string, key: string): Outcome<{ rows: number; sheetName: string; title: string }> {
  return outcome(() => {
    const deps = dashboardDeps();
    const { sheet, rows, title } = lineRows(deps, deps.dashboards.get(id), key);
    if (rows.length === 0) throw new UserError(`"${title}": nenhuma linha nesta competência.`);
    selectionBookPort().activate(sheet.id, rowRanges(rows));
    return { rows: rows.length, sheetName: sheet.name(), title };
  });
}
