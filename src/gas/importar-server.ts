/**
 * Server side of the Importar sidebar (src/ui/client/importar.ts): the form of
 * a new or edited report, handed to core/runs/form.ts to be checked, saved and
 * started (stepped from then on by runs-server.ts), and discarding a first
 * import that failed. Every change to stored reports and pulls happens under
 * the document lock.
 */
import { type ListingKey, type ListOperation, listings } from '../api/operations';
import { tableSpec } from '../core/sheets/table';
import { OP_LABELS, SERVICE_GAPS } from '../core/sheets/sheet-filters';
import { type ReportForm, runForm } from '../core/runs/form';
import { pullJobStore } from '../core/runs/deps';
import type { RunProgress } from '../core/runs/progress';
import { ownSheetIds, targetNames } from '../core/trust/targets';
import { reportStore, runDeps } from './deps';
import { syncDispatcher } from './dispatcher';
import { withDocumentLock } from './lock';
import { type FormOutcome, formOutcome } from './outcome';
import { ownJob, who, withWarning } from './runs-server';
import { connectionStore, documentView, spreadsheetTimeZone, userStore } from './services';
import { bookPort, sheetsChanged } from './sheet-port';
import { WORK_SHEET } from './work-store';
import { showSidebar } from './ui';
import { recordUsage } from './usage';

export function showImport(): void {
  showSidebar('Importar', 'Importar dados');
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

/** Sheets of the add-on known by name only (the hidden store, the Diagnóstico, which runDiagnostics finds by this name). */
const RESERVED_SHEETS = [WORK_SHEET, 'Diagnóstico'];

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
    sheets: targetNames(bookPort(ss), reportStore().list(), editing?.id, RESERVED_SHEETS),
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

/** Saves the form as a report (every pull is a report) and starts its first run (core/runs/form.ts). */
export function startImportRun(form: ReportForm): FormOutcome<RunProgress & { returnTo?: number }> {
  // The tab the person is on: a first import that fails and is discarded brings them back to it.
  const returnTo = SpreadsheetApp.getActiveSpreadsheet().getActiveSheet()?.getSheetId();
  const started = formOutcome(() => {
    const w = who();
    return withDocumentLock((): FormOutcome<RunProgress> => {
      const deps = runDeps();
      const run = runForm(deps, form, {
        owner: { id: w.me.id, email: w.me.email },
        mayEdit: (report) => w.check.report(report),
        connections: connectionStore(),
        workSheet: WORK_SHEET,
        reserved: RESERVED_SHEETS,
        ownJob: (reportId) => ownJob(w, deps, reportId),
      });
      return { ok: true, value: run.progress };
    });
  });
  // If the sidebar is closed before the end, the hourly dispatcher finishes the pull.
  recordUsage();
  if (started.ok) return { ok: true, value: { ...withWarning(started.value, syncDispatcher()), returnTo } };
  return started;
}

/**
 * A first import that failed leaves nothing behind unless the user keeps it:
 * its report, its job and the sheets this run created go. A report that ever
 * finished a run, or a sheet that was there before, is never touched; only
 * its owner discards it.
 */
export function discardFailedImport(reportId: string, returnTo?: number): boolean {
  const w = who();
  return withDocumentLock(() => {
    const doc = documentView();
    const reports = reportStore(doc);
    const jobs = pullJobStore(doc);
    const report = reports.find(reportId);
    const job = jobs.get(reportId);
    if (!report || !job || !w.check.report(report) || report.lastSuccessStart !== undefined || !job.state.createdSheet || job.state.status !== 'failed')
      return false;
    const ss = SpreadsheetApp.getActiveSpreadsheet();
    const ids = new Set(ownSheetIds(bookPort(ss), report, job.state));
    const doomed = ss.getSheets().filter((s) => ids.has(s.getSheetId()));
    // A spreadsheet must keep one sheet.
    if (doomed.length < ss.getSheets().length) for (const sheet of doomed) ss.deleteSheet(sheet);
    sheetsChanged(ss);
    ss.getSheets()
      .find((s) => s.getSheetId() === Number(returnTo))
      ?.activate();
    jobs.delete(reportId);
    reports.delete(reportId);
    syncDispatcher({ doc, mayCreate: false });
    return true;
  });
}
