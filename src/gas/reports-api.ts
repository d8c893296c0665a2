/**
 * Server side of the import and Relatórios sidebars. Every change to stored
 * reports and pulls happens under the document lock, like the dispatcher's
 * runs, so a run that read its report once never writes back a stale copy.
 */
import { FilterError, formatFilters } from '../api/filters';
import { type ListingKey, type ListOperation, listings } from '../api/operations';
import { tableSpec } from '../core/table';
import { checkSheetFilters, describeSheetFilter, OP_LABELS, SERVICE_GAPS, type SheetFilter } from '../core/sheet-filters';
import { beginRun, cancelRun, continueRun, pullJobStore, type RunProgress } from '../core/report-runs';
import { type Report, resolveFilters, type ReportView, type SavedFilterValue } from '../core/reports';

export type { ReportView };
import { describeSchedule, nextRun, type Schedule, scheduleProblems } from '../core/schedule';
import { childSheetName, sheetNameProblem } from '../core/sheet-names';
import { IDLE_MS } from '../core/dispatch';
import { type Identity, notYours, type OwnershipCheck, type OwnerStore } from '../core/owners';
import { type KeyValueStore, readOnce } from '../core/ports';
import { targetNames, targetProblem } from '../core/targets';
import { reportStore, runDeps, setCancelRequest } from './deps';
import { dashboardDeps } from './dashboard-port';
import { reportDeleted } from '../core/dashboards/refresh';
import { SnapshotStore } from '../core/bulk/snapshot';
import { syncDispatcher } from './dispatcher';
import { withDocumentLock } from './lock';
import type { FormOutcome } from './outcome';
import { connectionStore, currentUser, documentStore, ownerStore, spreadsheetTimeZone, userStore } from './services';
import { bookPort } from './sheet-port';
import { WORK_SHEET } from './work-store';
import { showSidebar } from './ui';
import { gasZone } from './zone';
import { recordUsage, usageStore } from './usage';
import { DAILY_QUOTA } from '../core/usage';
import { bounded } from '../core/bounds';

/**
 * A sidebar step stays short: progress moves every few seconds, and a cancel
 * asked between steps (or read between waves) takes effect within seconds.
 */
const STEP_MS = 4_000;

export function showImport(): void {
  showSidebar('Importar', 'Importar dados');
}

export function showReports(): void {
  showSidebar('Relatorios', 'Relatórios');
}

export interface ListingForm {
  key: ListingKey;
  label: string;
  filters: Array<{ name: string; kind: string; label: string; option: boolean; choices: string[] }>;
  incremental: boolean;
  childSheets: string[];
  /** Every column of the listing's sheet: "Filtros na planilha" may use any of them. */
  columns: Array<{ key: string; label: string; kind: string }>;
  /** What the service's own filters cannot do for this listing, said in the form. */
  serviceGap: string | null;
  /** The listing has card columns, written only with "Incluir dados de cartão". */
  cardData: boolean;
}

const EDITING = 'faturamento.editarRelatorio';

/** Opens the import sidebar on a saved report (the sidebar asks getImportForm which one). */
export function editReport(reportId: string): void {
  userStore().set(EDITING, reportId);
  showImport();
}

export function getImportForm() {
  const ss = SpreadsheetApp.getActiveSpreadsheet();
  const editingId = userStore().get(EDITING);
  if (editingId) userStore().delete(EDITING);
  const editing = editingId ? reportStore().find(editingId) : null;
  const forms: ListingForm[] = (Object.values(listings) as ListOperation[]).map((op) => ({
    key: op.key,
    label: op.label,
    filters: op.filters.map((f) => ({ name: f.name, kind: f.kind, label: f.label, option: Boolean(f.option), choices: [...(f.choices ?? [])] })),
    incremental: Boolean(op.updatedSince),
    childSheets: tableSpec(op).children.map((c) => c.label),
    columns: tableSpec(op).columns.map((c) => ({ key: c.key, label: c.label, kind: c.cell })),
    serviceGap: SERVICE_GAPS[op.key] ?? null,
    cardData: tableSpec(op).columns.some((c) => c.onRequest === 'cartao'),
  }));
  return {
    sheetFilterOps: Object.entries(OP_LABELS).map(([value, label]) => ({ value, label })),
    connections: connectionStore()
      .list()
      .map((c) => ({ id: c.id, name: c.name, isDefault: c.isDefault })),
    listings: forms,
    // Only sheets a report may write: never Histórico, a bulk template or another report's sheet.
    sheets: targetNames(bookPort(ss), reportStore().list(), editing?.id),
    timeZone: spreadsheetTimeZone(),
    editing: editing
      ? {
          id: editing.id,
          name: editing.name,
          listing: editing.listing,
          connection: editing.connection,
          companies: editing.companies ?? null,
          filters: editing.filters,
          sheetFilters: editing.sheetFilters ?? [],
          sheetName:
            (editing.sheetId !== undefined &&
              ss
                .getSheets()
                .find((s) => s.getSheetId() === editing.sheetId)
                ?.getName()) ||
            editing.sheetName,
          incremental: editing.incremental,
          cardData: Boolean(editing.cardData),
        }
      : null,
  };
}

export interface ReportForm {
  id?: string;
  name: string;
  listing: ListingKey;
  connection: string;
  /** A consolidated report: several of the user's connections (ids), or all of them. One id is a one-company report. */
  companies?: { all?: boolean; ids?: string[] } | null;
  filters: Record<string, SavedFilterValue | '' | null>;
  sheetFilters?: SheetFilter[];
  sheetName: string;
  incremental?: boolean;
  /** "Incluir dados de cartão": off unless the user ticks it. */
  cardData?: boolean;
  /** The user asked for a new sheet: an existing one of that name must not be overwritten silently. */
  newSheet?: boolean;
  /** The name of the user's sheet the user confirmed replacing. */
  confirmReplace?: string;
}

function cleanFilters(filters: ReportForm['filters']): Record<string, SavedFilterValue> {
  const out: Record<string, SavedFilterValue> = {};
  for (const [k, v] of Object.entries(filters ?? {})) if (v !== '' && v !== null && v !== undefined) out[k] = v;
  return out;
}

export const ALL_COMPANIES_LABEL = 'Todas as minhas conexões';

/**
 * The companies of a consolidated report, each one of the running user's own
 * connections: an id of anyone else's (a colleague's, in a shared document) is
 * refused here, whatever the sidebar sent. Null: a one-company report.
 */
function checkCompanies(
  form: ReportForm['companies'],
): FormOutcome<{ companies: Report['companies']; first: { id: string; name: string }; label: string } | null> {
  if (!form) return { ok: true, value: null };
  if (!form.all && (form.ids ?? []).length === 0)
    return { ok: false, field: 'connection', message: 'Marque as empresas do relatório consolidado (duas ou mais).' };
  const own = connectionStore().list();
  if (own.length === 0) return { ok: false, field: 'connection', message: 'Nenhuma conexão configurada: abra Faturamento › Conexões e adicione uma.' };
  if (form.all) {
    const first = own.find((c) => c.isDefault) ?? own[0];
    return { ok: true, value: { companies: { all: true, ids: [] }, first, label: ALL_COMPANIES_LABEL } };
  }
  const ids = [...new Set((form.ids ?? []).map(String))];
  const picked = ids.map((id) => own.find((c) => c.id === id));
  if (picked.some((c) => !c))
    return { ok: false, field: 'connection', message: 'Só é possível escolher conexões suas (Faturamento › Conexões). Marque de novo as empresas.' };
  const mine = picked as Array<{ id: string; name: string }>;
  // One company is a one-company report, without the Empresa column.
  if (mine.length === 1) return { ok: true, value: { companies: undefined, first: mine[0], label: mine[0].name } };
  return { ok: true, value: { companies: { all: false, ids }, first: mine[0], label: mine.map((c) => c.name).join(', ') } };
}

/** Checks a report form against the report it edits, if any; the field names match the sidebar's inputs. */
function checkForm(form: ReportForm, editing: Report | null): FormOutcome<Omit<Report, 'id' | 'createdAt' | 'schedule' | 'notifyByEmail' | 'owner'>> {
  const op = (listings as Record<string, ListOperation>)[form.listing];
  if (!op) return { ok: false, field: 'listing', message: 'Escolha o que importar.' };
  const name = (form.name ?? '').trim() || `${op.label}`;
  const chosen = checkCompanies(form.companies);
  if (!chosen.ok) return chosen;
  let connection: { id: string; name: string };
  try {
    // Resolved in the running user's own connections: the report keeps its id, never a name to look up later.
    connection = chosen.value ? chosen.value.first : connectionStore().get(form.connection || undefined);
  } catch (err) {
    return { ok: false, field: 'connection', message: (err as Error).message };
  }
  const sheetName = (form.sheetName ?? '').trim();
  if (!sheetName) return { ok: false, field: 'sheetName', message: 'Informe a aba de destino.' };
  if (sheetName === WORK_SHEET)
    return { ok: false, field: 'sheetName', message: `A aba "${WORK_SHEET}" guarda os relatórios do complemento: escolha outro nome.` };
  const problem = sheetNameProblem(sheetName);
  if (problem) return { ok: false, field: 'sheetName', message: problem };
  const book = bookPort();
  const target = book.byName(sheetName);
  const ownSheet = target !== null && editing !== null && (editing.sheetId !== undefined ? target.id === editing.sheetId : editing.sheetName === sheetName);
  if (form.newSheet && !ownSheet && target) {
    return { ok: false, field: 'sheetName', message: `Já existe uma aba "${sheetName}". Escolha outro nome ou, em Aba, a opção de substituí-la.` };
  }
  if (target && !ownSheet) {
    const refused = targetProblem(target, reportStore().list(), editing?.id);
    if (refused) return { ok: false, field: 'sheetName', message: refused };
    if (target.lastRow() > 0 && form.confirmReplace !== sheetName) {
      return {
        ok: false,
        field: 'confirmReplace',
        message: `A aba "${sheetName}" já tem dados: as colunas do relatório vão ocupar o lugar das que estão lá. Clique de novo para confirmar que quer substituir "${sheetName}".`,
      };
    }
  }
  // Pointing a report at another sheet: from now on that sheet's id is the report's.
  const sheetId = ownSheet ? editing?.sheetId : target?.id;
  const filters = cleanFilters(form.filters);
  const zone = gasZone(spreadsheetTimeZone());
  try {
    // Formatted here only to refuse a bad filter beside its field; runs format their own resolved values.
    const draft = { filters, listing: form.listing } as Report;
    formatFilters(op.label, op.filters, resolveFilters(draft, new Date(), zone), zone);
  } catch (err) {
    if (err instanceof FilterError) return { ok: false, field: `filter:${err.filter}`, message: err.detail };
    throw err;
  }
  const sheetFilters = checkSheetFilters(form.sheetFilters, tableSpec(op).columns);
  if (!sheetFilters.ok) return { ok: false, field: `sheetFilter:${sheetFilters.index}`, message: sheetFilters.message };
  return {
    ok: true,
    value: {
      name,
      listing: form.listing,
      connection: chosen.value ? chosen.value.label : connection.name,
      connectionId: connection.id,
      companies: chosen.value?.companies,
      filters,
      sheetFilters: sheetFilters.value,
      sheetName,
      sheetId,
      incremental: Boolean(form.incremental && op.updatedSince),
      cardData: Boolean(form.cardData && tableSpec(op).columns.some((c) => c.onRequest === 'cartao')),
    },
  };
}

/** Saves the form as a report (every pull is a report) and starts its first run: one read and one write of the report. */
/** The running user, what they vouched for in this document, and how to vouch for more. */
interface Who {
  me: Identity;
  owners: OwnerStore;
  documentId: string;
  check: OwnershipCheck;
}

function who(): Who {
  const owners = ownerStore();
  const me = currentUser(owners);
  const documentId = SpreadsheetApp.getActiveSpreadsheet().getId();
  return { me, owners, documentId, check: owners.checker(me, documentId) };
}

/** Only the owner acts on a report with a key, and only on one they vouched for as it is. */
function ownReport(w: Who, report: Report): Report {
  if (!w.check.report(report)) throw new Error(notYours(`O relatório "${report.name}"`, report.owner));
  return report;
}

/** A warning from the trigger upkeep goes with the progress; the action itself succeeded. */
function withWarning(progress: RunProgress, warning: string | undefined): RunProgress {
  return warning ? { ...progress, warnings: [...progress.warnings, warning] } : progress;
}

/** Saves the form as a report (every pull is a report) and starts its first run: one read and one write of the report. */
export function startImportRun(form: ReportForm): FormOutcome<RunProgress> {
  const w = who();
  const started = withDocumentLock((): FormOutcome<RunProgress> => {
    const deps = runDeps();
    const editing = form.id ? deps.reports.get(form.id) : null;
    if (editing && !w.check.report(editing)) return { ok: false, field: 'connection', message: notYours(`O relatório "${editing.name}"`, editing.owner) };
    const checked = checkForm(form, editing);
    if (!checked.ok) return checked;
    const owner = { id: w.me.id, email: w.me.email };
    const report = editing
      ? { ...editing, ...checked.value, owner }
      : deps.reports.draft({ ...checked.value, owner, schedule: null, notifyByEmail: false }, Date.now());
    w.owners.vouchReport(w.me, w.documentId, report);
    if (editing) setCancelRequest(editing.id, false);
    const run = beginRun(deps, report, 'manual', editing ? deps.jobs.get(report.id) : null);
    // A run still going keeps its own settings; the edited ones are for the next run.
    if (!run.started) deps.reports.save(report);
    return { ok: true, value: run.progress };
  });
  // If the sidebar is closed before the end, the hourly dispatcher finishes the pull.
  recordUsage();
  if (started.ok) return { ok: true, value: withWarning(started.value, syncDispatcher()) };
  return started;
}

export function runReport(reportId: string): RunProgress {
  const w = who();
  const started = withDocumentLock(() => {
    const deps = runDeps();
    return beginRun(deps, ownReport(w, deps.reports.get(reportId)), 'manual', deps.jobs.get(reportId)).progress;
  });
  return withWarning(started, syncDispatcher());
}

/** A finished run may leave the dispatcher with nothing to do. */
function settled(progress: RunProgress): RunProgress {
  recordUsage();
  return progress.done ? withWarning(progress, syncDispatcher({ mayCreate: false })) : progress;
}

export function continueReportRun(reportId: string): RunProgress {
  const w = who();
  const p = settled(
    withDocumentLock(() => {
      const deps = runDeps();
      ownReport(w, deps.reports.get(reportId));
      return continueRun(deps, reportId, Date.now() + STEP_MS);
    }),
  );
  // The user watched this pull: end on its sheet, not on Histórico or a child sheet that was written last.
  if (p.status === 'done') SpreadsheetApp.getActiveSpreadsheet().getSheetByName(p.sheetName)?.activate();
  if (p.done) setCancelRequest(reportId, false);
  return p;
}

/** Asked while a step may hold the lock: no lock here, the running step reads it between waves. */
export function requestCancelReportRun(reportId: string): void {
  setCancelRequest(reportId, true);
}

export function cancelReportRun(reportId: string): RunProgress {
  const w = who();
  const p = settled(
    withDocumentLock(() => {
      const deps = runDeps();
      ownReport(w, deps.reports.get(reportId));
      return cancelRun(deps, reportId);
    }),
  );
  setCancelRequest(reportId, false);
  return p;
}

/**
 * A first import that failed leaves nothing behind unless the user keeps it:
 * its report, its job and the sheets this run created go. A report that ever
 * finished a run, or a sheet that was there before, is never touched; only
 * its owner discards it.
 */
export function discardFailedImport(reportId: string): boolean {
  const w = who();
  return withDocumentLock(() => {
    const doc = readOnce(documentStore());
    const reports = reportStore(doc);
    const jobs = pullJobStore(doc);
    const report = reports.find(reportId);
    const job = jobs.get(reportId);
    if (!report || !job || !w.check.report(report) || report.lastSuccessStart !== undefined || !job.state.createdSheet || job.state.status !== 'failed')
      return false;
    const ss = SpreadsheetApp.getActiveSpreadsheet();
    const ids = new Set([job.state.sheetId, ...Object.values(job.state.children).map((c) => c.sheetId)]);
    const doomed = ss.getSheets().filter((s) => ids.has(s.getSheetId()));
    // A spreadsheet must keep one sheet.
    if (doomed.length < ss.getSheets().length) for (const sheet of doomed) ss.deleteSheet(sheet);
    jobs.delete(reportId);
    reports.delete(reportId);
    syncDispatcher({ doc, mayCreate: false });
    return true;
  });
}

/** Builds report views with one read of the time zone; `doc` read through `readOnce` makes the jobs' one read too. */
/** The companies a consolidated report pulls, by name: the viewer's own connections when it is theirs, else as last run. */
function companyNames(r: Report, own: ReadonlyArray<{ id: string; name: string }>): string[] {
  if (r.companies?.all) return [ALL_COMPANIES_LABEL];
  const names = new Map(own.map((c) => [c.id, c.name]));
  const found = (r.companies?.ids ?? []).map((id) => names.get(id));
  // A colleague's report names their connections: shown as saved.
  return found.every((n) => n !== undefined) ? (found as string[]) : [bounded(r.connection, 500)];
}

function viewer(doc: KeyValueStore, check: OwnershipCheck): (r: Report) => ReportView {
  const connections = connectionStore()
    .list()
    .map((c) => ({ id: c.id, name: c.name }));
  const timeZone = spreadsheetTimeZone();
  const zone = gasZone(timeZone);
  const jobs = pullJobStore(doc);
  // The tab's name now: the report knows its sheet by id, and users rename tabs.
  const names = new Map(
    SpreadsheetApp.getActiveSpreadsheet()
      .getSheets()
      .map((s) => [s.getSheetId(), s.getName()]),
  );
  const formatWhen = (ms: number) => Utilities.formatDate(new Date(ms), timeZone, 'dd/MM/yyyy HH:mm');
  return (r) => {
    const op = listings[r.listing] as ListOperation;
    const next = r.schedule ? nextRun(r.schedule, new Date(r.scheduleSince ?? r.createdAt), zone) : null;
    return {
      id: r.id,
      name: r.name,
      listing: r.listing,
      listingLabel: op.label,
      connection: r.connection,
      companies: r.companies ? companyNames(r, connections) : null,
      owner: r.owner?.email ?? null,
      mine: check.report(r),
      disowned: r.owner?.id === check.me && !check.report(r),
      sheetName: (r.sheetId !== undefined && names.get(r.sheetId)) || r.sheetName,
      childSheets: tableSpec(op).children.map((c) => childSheetName(r.sheetName, c)),
      filters: r.filters,
      sheetFilters: (r.sheetFilters ?? []).map((f) => describeSheetFilter(f, tableSpec(op).columns)),
      incremental: r.incremental,
      schedule: r.schedule,
      scheduleText: r.schedule ? describeSchedule(r.schedule) : 'sem agendamento',
      nextRunAt: next ? formatWhen(next.getTime()) : null,
      notifyByEmail: r.notifyByEmail,
      orphaned: !r.companies && !connections.some((c) => c.name === r.connection),
      connections: connections.map((c) => c.name),
      // A failure that continuing cannot get past (a refused key, a bad filter) is not offered "Continuar".
      canContinue: ((job) => Boolean(job && (job.state.status === 'running' || job.state.retryable)))(jobs.has(r.id) ? jobs.get(r.id) : null),
      lastRun: r.lastRun
        ? {
            at: formatWhen(r.lastRun.finishedAt ?? r.lastRun.startedAt),
            origin: r.lastRun.origin,
            rows: r.lastRun.rows,
            seconds: Math.round(r.lastRun.durationMs / 100) / 10,
            result: r.lastRun.result,
            message: [r.lastRun.message, ...(r.lastRun.warnings ?? [])].filter(Boolean).join(' '),
          }
        : null,
    };
  };
}

export interface UsageView {
  fetches: number;
  fetchLimit: number;
  triggerMinutes: number;
  triggerLimit: number;
  /** Why scheduled updates stopped today, when they did. */
  stopped?: string;
}

/** Today's share of Google's daily quotas spent by this add-on for this user (shown in Relatórios). */
export function getUsage(): UsageView {
  const u = usageStore().get();
  return {
    fetches: u.fetches,
    fetchLimit: DAILY_QUOTA.fetches,
    triggerMinutes: Math.round(u.triggerMs / 60_000),
    triggerLimit: DAILY_QUOTA.triggerMs / 60_000,
    stopped: u.stopped,
  };
}

export function listReports(): ReportView[] {
  const doc = readOnce(documentStore());
  return reportStore(doc).list().map(viewer(doc, who().check));
}

/** Any editor may delete a report of the document (its sheet is theirs to delete too); its owner's trigger then forgets it. */
export function deleteReport(reportId: string): ReportView[] {
  const w = who();
  return withDocumentLock(() => {
    const doc = readOnce(documentStore());
    const store = reportStore(doc);
    const sheetId = store.find(reportId)?.sheetId;
    store.delete(reportId);
    pullJobStore(doc).delete(reportId);
    // What its pulls kept for pushing edits goes with it, unless another report still writes that sheet.
    if (sheetId !== undefined && !store.list().some((r) => r.sheetId === sheetId)) new SnapshotStore(doc).forget(sheetId);
    reportDeleted(dashboardDeps(doc), reportId);
    w.owners.forget(w.documentId, { reports: [reportId] });
    syncDispatcher({ doc });
    return store.list().map(viewer(doc, w.owners.checker(w.me, w.documentId)));
  });
}

/** "Trocar conexão": points a report at another of this user's connections (by name, never the key). */
/** "Trocar conexão" on a report whose connection is gone: one of the running user's own, who then owns it (see takeOverReport). */
export function setReportConnection(reportId: string, connection: string): FormOutcome<ReportView> {
  let id: string;
  try {
    id = connectionStore().get(connection || undefined).id;
  } catch (err) {
    return { ok: false, field: 'connection', message: (err as Error).message };
  }
  return takeOverReport(reportId, id);
}

export function setReportSchedule(reportId: string, schedule: Schedule | null, notifyByEmail: boolean): FormOutcome<ReportView> {
  if (schedule) {
    const problems = scheduleProblems(schedule);
    if (problems.length) return { ok: false, field: 'schedule', message: problems.join(' ') };
  }
  const w = who();
  return withDocumentLock(() => {
    const doc = readOnce(documentStore());
    const store = reportStore(doc);
    const current = store.get(reportId);
    if (!w.check.report(current)) return { ok: false, field: 'schedule', message: notYours(`O relatório "${current.name}"`, current.owner) };
    const report = store.save({ ...current, schedule, notifyByEmail: Boolean(notifyByEmail), scheduleSince: Date.now() });
    w.owners.vouchReport(w.me, w.documentId, report);
    const warning = syncDispatcher({ doc });
    const check = w.owners.checker(w.me, w.documentId);
    return { ok: true, value: { ...viewer(doc, check)(report), ...(warning ? { warning } : {}) } };
  });
}

/**
 * Takes a report over: the running user becomes its owner and it runs with
 * one of their own connections from now on. Nothing changes hands any other
 * way. Not while a run of it is going: that run carries the old owner's key.
 */
export function takeOverReport(reportId: string, connectionId: string): FormOutcome<ReportView> {
  const w = who();
  const outcome = withDocumentLock((): FormOutcome<ReportView> => {
    const doc = readOnce(documentStore());
    const store = reportStore(doc);
    const current = store.get(reportId);
    const jobs = pullJobStore(doc);
    const job = jobs.get(reportId);
    // A run stepped in the last minutes may still be going, with the old owner's key: it must not write after the change.
    if (job && job.state.status === 'running' && Date.now() - job.state.updatedAt < IDLE_MS && !w.check.report(current)) {
      return { ok: false, field: 'connection', message: 'Este relatório está sendo atualizado agora. Espere alguns minutos e tente de novo.' };
    }
    let connection: { id: string; name: string };
    try {
      connection = connectionStore().byId(String(connectionId ?? ''));
    } catch (err) {
      return { ok: false, field: 'connection', message: (err as Error).message };
    }
    // An unfinished pull holds rows of the old owner's organization: the next run starts over with the new connection.
    if (job && !w.check.report(current)) jobs.delete(reportId);
    // Chosen companies were the old owner's connections: the report goes on with the new owner's one ("todas" stays "todas", now theirs).
    const companies = current.companies?.all ? current.companies : undefined;
    const report = store.save({
      ...current,
      owner: { id: w.me.id, email: w.me.email },
      connectionId: connection.id,
      connection: companies ? ALL_COMPANIES_LABEL : connection.name,
      companies,
      companyStamps: undefined,
    });
    w.owners.vouchReport(w.me, w.documentId, report);
    return { ok: true, value: viewer(doc, w.owners.checker(w.me, w.documentId))(report) };
  });
  if (!outcome.ok) return outcome;
  const warning = syncDispatcher();
  return { ok: true, value: warning ? { ...outcome.value, warning } : outcome.value };
}
