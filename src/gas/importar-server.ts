/**
 * Server side of the Importar sidebar: the form of a new or edited report,
 * saving it and starting its run (stepped from then on by runs-server.ts),
 * and discarding a first import that failed. Every change to stored reports
 * and pulls happens under the document lock.
 */
import { FilterError, formatFilters } from '../api/filters';
import { type ListingKey, type ListOperation, listings } from '../api/operations';
import { tableSpec } from '../core/sheets/table';
import { checkSheetFilters, OP_LABELS, SERVICE_GAPS, type SheetFilter } from '../core/sheets/sheet-filters';
import { beginRun } from '../core/runs/begin';
import { pullJobStore } from '../core/runs/deps';
import type { RunProgress } from '../core/runs/progress';
import { ALL_COMPANIES_LABEL, type Report, resolveFilters, type SavedFilterValue } from '../core/reports/reports';
import { sheetNameProblem } from '../core/sheets/sheet-names';
import { notYours } from '../core/trust/owners';
import { ownSheetIds, targetNames, targetProblem } from '../core/trust/targets';
import { reportStore, runDeps } from './deps';
import { syncDispatcher } from './dispatcher';
import { withDocumentLock } from './lock';
import { type FormOutcome, formOutcome, outcome } from './outcome';
import { ownJob, who, withWarning } from './runs-server';
import { connectionStore, documentView, spreadsheetTimeZone, userStore } from './services';
import { bookPort, sheetsChanged } from './sheet-port';
import { WORK_SHEET } from './work-store';
import { showSidebar } from './ui';
import { gasZone } from './zone';
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
  // Resolved in the running user's own connections: the report keeps its id, never a name to look up later.
  const found = chosen.value ? { ok: true as const, value: chosen.value.first } : outcome(() => connectionStore().get(form.connection || undefined));
  if (!found.ok) return { ...found, field: 'connection' };
  const connection = found.value;
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
  // Even the sheet the edited report names: a stored report is no proof that a sheet is its own.
  const refused = target ? targetProblem(target, reportStore().list(), editing?.id, RESERVED_SHEETS) : null;
  if (refused) return { ok: false, field: 'sheetName', message: refused };
  if (target && !ownSheet) {
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
  const { columns } = tableSpec(op);
  const sheetFilters = checkSheetFilters(form.sheetFilters, columns);
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
      cardData: Boolean(form.cardData && columns.some((c) => c.onRequest === 'cartao')),
    },
  };
}

/** Saves the form as a report (every pull is a report) and starts its first run: one read and one write of the report. */
export function startImportRun(form: ReportForm): FormOutcome<RunProgress & { returnTo?: number }> {
  // The tab the person is on: a first import that fails and is discarded brings them back to it.
  const returnTo = SpreadsheetApp.getActiveSpreadsheet().getActiveSheet()?.getSheetId();
  const started = formOutcome(() => {
    const w = who();
    return withDocumentLock((): FormOutcome<RunProgress> => {
      const deps = runDeps();
      const editing = form.id ? deps.reports.get(form.id) : null;
      if (editing && !w.check.report(editing)) return { ok: false, field: 'connection', message: notYours(`O relatório "${editing.name}"`, editing.owner) };
      const checked = checkForm(form, editing);
      if (!checked.ok) return checked;
      const owner = { id: w.me.id, email: w.me.email };
      const report = editing
        ? { ...editing, ...checked.value, owner }
        : deps.reports.draft({ ...checked.value, owner, schedule: null, notifyByEmail: false }, Date.now());
      const run = beginRun(deps, report, 'manual', editing ? ownJob(w, deps, report.id) : null, { form: true });
      // A run still going keeps its own settings; the edited ones are for the next run.
      if (!run.started) deps.reports.save(report);
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
