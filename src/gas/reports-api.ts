/** Server side of the import and Relatórios sidebars, and the hourly dispatcher. */
import { FilterError, formatFilters } from '../api/filters';
import { type ListingKey, type ListOperation, listings } from '../api/operations';
import { tableSpec } from '../core/table';
import { cancelRun, continueRun, deleteJob, dispatch, hasJob, type RunDeps, type RunProgress, startRun } from '../core/report-runs';
import { type Report, ReportStore, resolveFilters, type ReportView, type SavedFilterValue } from '../core/reports';

export type { ReportView };
import { describeSchedule, nextRun, type Schedule, scheduleProblems } from '../core/schedule';
import { childSheetName } from '../core/import-job';
import { continueBulkJobsUntil } from './bulk-api';
import { BusyError, withDocumentLock } from './lock';
import type { FormOutcome } from './outcome';
import { clientFor, connectionStore, documentStore, spreadsheetTimeZone, userStore } from './services';
import { bookPort } from './sheet-port';
import { syncDispatcher } from './triggers';
import { showSidebar } from './ui';
import { gasZone } from './zone';

/** A sidebar step stays short so progress shows and the 6-minute limit is never near. */
const STEP_MS = 25_000;
/** The dispatcher stops well before the 6-minute kill. */
const DISPATCH_MS = 4.5 * 60_000;

export function showImport(): void {
  showSidebar('Importar', 'Importar dados');
}

export function showReports(): void {
  showSidebar('Relatorios', 'Relatórios');
}

function reportStore(): ReportStore {
  return new ReportStore(documentStore(), () => Utilities.getUuid());
}

function runDeps(): RunDeps {
  const zone = gasZone(spreadsheetTimeZone());
  return {
    reports: reportStore(),
    jobs: documentStore(),
    book: bookPort(),
    zone,
    now: () => Date.now(),
    clientFor: (name) => {
      const connection = connectionStore().get(name);
      return clientFor(connection);
    },
    notifyFailure: (report, run) => {
      const to = Session.getEffectiveUser().getEmail();
      if (!report.notifyByEmail || !to) return;
      const ss = SpreadsheetApp.getActiveSpreadsheet();
      MailApp.sendEmail(
        to,
        `Falha no relatório "${report.name}"`,
        `A atualização agendada do relatório "${report.name}" na planilha "${ss.getName()}" falhou.\n\n${run.message ?? ''}\n\n${ss.getUrl()}`,
      );
    },
  };
}

export interface ListingForm {
  key: ListingKey;
  label: string;
  filters: Array<{ name: string; kind: string; label: string; option: boolean; choices: string[] }>;
  incremental: boolean;
  childSheets: string[];
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
  }));
  return {
    connections: connectionStore()
      .list()
      .map((c) => ({ name: c.name, isDefault: c.isDefault })),
    listings: forms,
    sheets: ss.getSheets().map((s) => s.getName()),
    timeZone: spreadsheetTimeZone(),
    editing: editing
      ? { id: editing.id, name: editing.name, listing: editing.listing, connection: editing.connection, filters: editing.filters, sheetName: editing.sheetName, incremental: editing.incremental }
      : null,
  };
}

export interface ReportForm {
  id?: string;
  name: string;
  listing: ListingKey;
  connection: string;
  filters: Record<string, SavedFilterValue | '' | null>;
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

/** Checks a report form; the field names match the sidebar's inputs. */
function checkForm(form: ReportForm): FormOutcome<Omit<Report, 'id' | 'createdAt' | 'schedule' | 'notifyByEmail'>> {
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
  if (sheetName.length > 90 || /[[\]*?:/\\]/.test(sheetName)) return { ok: false, field: 'sheetName', message: 'Use um nome de aba com até 90 caracteres, sem [ ] * ? : / \\' };
  const ownSheet = form.id ? reportStore().find(form.id)?.sheetName === sheetName : false;
  if (form.newSheet && !ownSheet && SpreadsheetApp.getActiveSpreadsheet().getSheetByName(sheetName)) {
    return { ok: false, field: 'sheetName', message: `Já existe uma aba "${sheetName}". Escolha outro nome ou, em Aba, a opção de substituí-la.` };
  }
  const filters = cleanFilters(form.filters);
  const zone = gasZone(spreadsheetTimeZone());
  try {
    const draft = { filters, listing: form.listing } as Report;
    formatFilters(op.label, op.filters, resolveFilters(draft, new Date(), zone), zone);
  } catch (err) {
    if (err instanceof FilterError) return { ok: false, field: `filter:${err.filter}`, message: err.detail };
    throw err;
  }
  return { ok: true, value: { name, listing: form.listing, connection, filters, sheetName, incremental: Boolean(form.incremental && op.updatedSince) } };
}

/** Saves the form as a report (every pull is a report) and starts its first run. */
export function startImportRun(form: ReportForm): FormOutcome<RunProgress> {
  const checked = checkForm(form);
  if (!checked.ok) return checked;
  const store = reportStore();
  const report = form.id
    ? store.update(form.id, (r) => ({ ...r, ...checked.value }))
    : store.create({ ...checked.value, schedule: null, notifyByEmail: false }, Date.now());
  const started = withDocumentLock(() => ({ ok: true as const, value: startRun(runDeps(), report.id, 'manual') }));
  // If the sidebar is closed before the end, the hourly dispatcher finishes the pull.
  syncDispatcher();
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
  return settled(withDocumentLock(() => continueRun(runDeps(), reportId, Date.now() + STEP_MS)));
}

export function cancelReportRun(reportId: string): RunProgress {
  return settled(withDocumentLock(() => cancelRun(runDeps(), reportId)));
}

/** Builds report views with one read of the time zone and of the job list, however many reports. */
function viewer(): (r: Report) => ReportView {
  const timeZone = spreadsheetTimeZone();
  const zone = gasZone(timeZone);
  const jobs = documentStore();
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
      incremental: r.incremental,
      schedule: r.schedule,
      scheduleText: r.schedule ? describeSchedule(r.schedule) : 'sem agendamento',
      nextRunAt: next ? formatWhen(next.getTime()) : null,
      notifyByEmail: r.notifyByEmail,
      canContinue: hasJob(jobs, r.id),
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
  return reportStore().list().map(viewer());
}

export function deleteReport(reportId: string): ReportView[] {
  const store = reportStore();
  store.delete(reportId);
  deleteJob(documentStore(), reportId);
  syncDispatcher();
  return store.list().map(viewer());
}

export function setReportSchedule(reportId: string, schedule: Schedule | null, notifyByEmail: boolean): FormOutcome<ReportView> {
  if (schedule) {
    const problems = scheduleProblems(schedule);
    if (problems.length) return { ok: false, field: 'schedule', message: problems.join(' ') };
  }
  const store = reportStore();
  const report = store.update(reportId, (r) => {
    r.schedule = schedule;
    r.notifyByEmail = Boolean(notifyByEmail);
    r.scheduleSince = Date.now();
  });
  syncDispatcher();
  return { ok: true, value: viewer()(report) };
}

/** The one time-driven trigger of this add-on in this document. */
export function runScheduledReports(_e?: GoogleAppsScript.Events.TimeDriven): void {
  const deadline = Date.now() + DISPATCH_MS;
  try {
    withDocumentLock(() => dispatch(runDeps(), deadline), 60_000);
    continueBulkJobsUntil(deadline);
    // Nothing left to do: the trigger goes away (it is created again by the next schedule or run).
    syncDispatcher({ mayCreate: false });
  } catch (err) {
    // Someone is working in the document: whatever is due stays due for the next hour.
    if (err instanceof BusyError) return;
    throw err;
  }
}
