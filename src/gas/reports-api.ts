/**
 * Server side of the import and Relatórios sidebars. Every change to stored
 * reports and pulls happens under the document lock, like the dispatcher's
 * runs, so a run that read its report once never writes back a stale copy.
 */
import { FilterError, formatFilters } from '../api/filters';
import { type ListingKey, type ListOperation, listings } from '../api/operations';
import { tableSpec } from '../core/table';
import { checkSheetFilters, describeSheetFilter, OP_LABELS, SERVICE_GAPS, type SheetFilter } from '../core/sheet-filters';
import { beginRun, cancelRun, continueRun, pullJobStore, type RunProgress, startRun } from '../core/report-runs';
import { type Report, resolveFilters, type ReportView, type SavedFilterValue } from '../core/reports';

export type { ReportView };
import { describeSchedule, nextRun, type Schedule, scheduleProblems } from '../core/schedule';
import { childSheetName, sheetNameProblem } from '../core/import-job';
import { type KeyValueStore, readOnce } from '../core/ports';
import { reportStore, runDeps, setCancelRequest } from './deps';
import { syncDispatcher } from './dispatcher';
import { withDocumentLock } from './lock';
import type { FormOutcome } from './outcome';
import { connectionStore, documentStore, spreadsheetTimeZone, userStore } from './services';
import { showSidebar } from './ui';
import { gasZone } from './zone';

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
  }));
  return {
    sheetFilterOps: Object.entries(OP_LABELS).map(([value, label]) => ({ value, label })),
    connections: connectionStore()
      .list()
      .map((c) => ({ name: c.name, isDefault: c.isDefault })),
    listings: forms,
    sheets: ss.getSheets().map((s) => s.getName()),
    timeZone: spreadsheetTimeZone(),
    editing: editing
      ? {
          id: editing.id,
          name: editing.name,
          listing: editing.listing,
          connection: editing.connection,
          filters: editing.filters,
          sheetFilters: editing.sheetFilters ?? [],
          sheetName: editing.sheetName,
          incremental: editing.incremental,
        }
      : null,
  };
}

export interface ReportForm {
  id?: string;
  name: string;
  listing: ListingKey;
  connection: string;
  filters: Record<string, SavedFilterValue | '' | null>;
  sheetFilters?: SheetFilter[];
  sheetName: string;
  incremental?: boolean;
  /** The user asked for a new sheet: an existing one of that name must not be overwritten silently. */
  newSheet?: boolean;
}

function cleanFilters(filters: ReportForm['filters']): Record<string, SavedFilterValue> {
  const out: Record<string, SavedFilterValue> = {};
  for (const [k, v] of Object.entries(filters ?? {})) if (v !== '' && v !== null && v !== undefined) out[k] = v;
  return out;
}

/** Checks a report form against the report it edits, if any; the field names match the sidebar's inputs. */
function checkForm(form: ReportForm, editing: Report | null): FormOutcome<Omit<Report, 'id' | 'createdAt' | 'schedule' | 'notifyByEmail'>> {
  const op = (listings as Record<string, ListOperation>)[form.listing];
  if (!op) return { ok: false, field: 'listing', message: 'Escolha o que importar.' };
  const name = (form.name ?? '').trim() || `${op.label}`;
  let connection: string;
  try {
    connection = connectionStore().get(form.connection || undefined).name;
  } catch (err) {
    return { ok: false, field: 'connection', message: (err as Error).message };
  }
  const sheetName = (form.sheetName ?? '').trim();
  if (!sheetName) return { ok: false, field: 'sheetName', message: 'Informe a aba de destino.' };
  const problem = sheetNameProblem(sheetName);
  if (problem) return { ok: false, field: 'sheetName', message: problem };
  const ownSheet = editing?.sheetName === sheetName;
  if (form.newSheet && !ownSheet && SpreadsheetApp.getActiveSpreadsheet().getSheetByName(sheetName)) {
    return { ok: false, field: 'sheetName', message: `Já existe uma aba "${sheetName}". Escolha outro nome ou, em Aba, a opção de substituí-la.` };
  }
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
      connection,
      filters,
      sheetFilters: sheetFilters.value,
      sheetName,
      incremental: Boolean(form.incremental && op.updatedSince),
    },
  };
}

/** Saves the form as a report (every pull is a report) and starts its first run: one read and one write of the report. */
export function startImportRun(form: ReportForm): FormOutcome<RunProgress> {
  const started = withDocumentLock((): FormOutcome<RunProgress> => {
    const deps = runDeps();
    const editing = form.id ? deps.reports.get(form.id) : null;
    const checked = checkForm(form, editing);
    if (!checked.ok) return checked;
    const report = editing ? { ...editing, ...checked.value } : deps.reports.draft({ ...checked.value, schedule: null, notifyByEmail: false }, Date.now());
    if (editing) setCancelRequest(editing.id, false);
    const run = beginRun(deps, report, 'manual', editing ? deps.jobs.get(report.id) : null);
    // A run still going keeps its own settings; the edited ones are for the next run.
    if (!run.started) deps.reports.save(report);
    return { ok: true, value: run.progress };
  });
  // If the sidebar is closed before the end, the hourly dispatcher finishes the pull.
  if (started.ok) syncDispatcher();
  return started;
}

export function runReport(reportId: string): RunProgress {
  const started = withDocumentLock(() => startRun(runDeps(), reportId, 'manual'));
  syncDispatcher();
  return started;
}

/** A finished run may leave the dispatcher with nothing to do. */
function settled(progress: RunProgress): RunProgress {
  if (progress.done) syncDispatcher({ mayCreate: false });
  return progress;
}

export function continueReportRun(reportId: string): RunProgress {
  const p = settled(withDocumentLock(() => continueRun(runDeps(), reportId, Date.now() + STEP_MS)));
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
  const p = settled(withDocumentLock(() => cancelRun(runDeps(), reportId)));
  setCancelRequest(reportId, false);
  return p;
}

/**
 * A first import that failed leaves nothing behind unless the user keeps it:
 * its report, its job and the sheets this run created go. A report that ever
 * finished a run, or a sheet that was there before, is never touched.
 */
export function discardFailedImport(reportId: string): boolean {
  return withDocumentLock(() => {
    const doc = readOnce(documentStore());
    const reports = reportStore(doc);
    const jobs = pullJobStore(doc);
    const report = reports.find(reportId);
    const job = jobs.get(reportId);
    if (!report || !job || report.lastSuccessStart !== undefined || !job.state.createdSheet || job.state.status !== 'failed') return false;
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
function viewer(doc: KeyValueStore): (r: Report) => ReportView {
  const connections = connectionStore()
    .list()
    .map((c) => c.name);
  const timeZone = spreadsheetTimeZone();
  const zone = gasZone(timeZone);
  const jobs = pullJobStore(doc);
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
      sheetName: r.sheetName,
      childSheets: tableSpec(op).children.map((c) => childSheetName(r.sheetName, c)),
      filters: r.filters,
      sheetFilters: (r.sheetFilters ?? []).map((f) => describeSheetFilter(f, tableSpec(op).columns)),
      incremental: r.incremental,
      schedule: r.schedule,
      scheduleText: r.schedule ? describeSchedule(r.schedule) : 'sem agendamento',
      nextRunAt: next ? formatWhen(next.getTime()) : null,
      notifyByEmail: r.notifyByEmail,
      orphaned: !connections.includes(r.connection),
      connections,
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

export function listReports(): ReportView[] {
  const doc = readOnce(documentStore());
  return reportStore(doc).list().map(viewer(doc));
}

export function deleteReport(reportId: string): ReportView[] {
  return withDocumentLock(() => {
    const doc = readOnce(documentStore());
    const store = reportStore(doc);
    store.delete(reportId);
    pullJobStore(doc).delete(reportId);
    syncDispatcher({ doc });
    return store.list().map(viewer(doc));
  });
}

/** "Trocar conexão": points a report at another of this user's connections (by name, never the key). */
export function setReportConnection(reportId: string, connection: string): FormOutcome<ReportView> {
  let name: string;
  try {
    name = connectionStore().get(connection || undefined).name;
  } catch (err) {
    return { ok: false, field: 'connection', message: (err as Error).message };
  }
  return withDocumentLock(() => {
    const doc = readOnce(documentStore());
    const report = reportStore(doc).update(reportId, (r) => {
      r.connection = name;
    });
    return { ok: true, value: viewer(doc)(report) };
  });
}

export function setReportSchedule(reportId: string, schedule: Schedule | null, notifyByEmail: boolean): FormOutcome<ReportView> {
  if (schedule) {
    const problems = scheduleProblems(schedule);
    if (problems.length) return { ok: false, field: 'schedule', message: problems.join(' ') };
  }
  return withDocumentLock(() => {
    const doc = readOnce(documentStore());
    const store = reportStore(doc);
    const report = store.update(reportId, (r) => {
      r.schedule = schedule;
      r.notifyByEmail = Boolean(notifyByEmail);
      r.scheduleSince = Date.now();
    });
    syncDispatcher({ doc });
    return { ok: true, value: viewer(doc)(report) };
  });
}
