import { busy, byId, clearFieldErrors, clearNotice, errorText, fieldError, h, notice } from './dom';
import { CANCELLING, cancelRun, driveRun, progressText, type RunControl, type RunProgress, whatToFix } from './runs';
import { type Args, type FormOutcome, type Reply, server } from './rpc';
import { filterField, formValue, readFilters, setFormField } from './filter-fields';
import { SheetFilters } from './sheet-filters';

type ImportForm = Reply<'getImportForm'>;
type EditingReport = NonNullable<ImportForm['editing']>;
type ReportForm = Args<'startImportRun'>[0];

const form = byId<HTMLFormElement>('form');
const filtersBox = byId('filters');
const optionsBox = byId('options');
const status = byId('status');
const result = byId('result');
const runBtn = byId<HTMLButtonElement>('run');
const cancelBtn = byId<HTMLButtonElement>('cancel');
const discardBtn = byId<HTMLButtonElement>('discard');
const progressBar = byId<HTMLProgressElement>('progress');
const progressText_ = byId('progress-text');
const listingSelect = byId<HTMLSelectElement>('f-listing');
const targetSelect = byId<HTMLSelectElement>('f-target');
const NEW = '__nova__';
/** The connection choices that make a consolidated report. */
const ALL = '__todas__';
const SEVERAL = '__varias__';
const companiesBox = byId('companies');
/** Sort fields that are not columns of the listing's sheet. */
const SORT_LABELS: Record<string, string> = { dataHoraAtualizacao: 'Data e hora de atualização' };
let data: ImportForm;
let sheetFilters: SheetFilters;
let editingId: string | undefined;
/** Opened from Relatórios › Editar: every run saves into that report. */
let editMode = false;
let control: RunControl | null = null;
/** Set after a run that continuing can get past (network, 5xx, 429, a killed step): the button then resumes it. */
let resumable: string | null = null;
/** A failed first import the user may throw away (its sheet and report). */
let discardable: string | null = null;
/** The report whose run is in flight: a step that died can be continued. */
let runningId: string | null = null;
/** The tab the person was on when the import began: where a discarded first import leaves them. */
let returnTo: number | undefined;

const byName = (name: string) => form.querySelector<HTMLInputElement | HTMLSelectElement>(`[name="${name}"]`);
const current = () => data.listings.find((l) => l.key === listingSelect.value)!;
/** The service wants its own field names; the person reads the column's title. */
const sortLabel = (key: string) => current().columns.find((col) => col.key === key)?.label ?? SORT_LABELS[key] ?? key;
const value = (name: string) => formValue(form, name);
const setField = (name: string, v: unknown) => setFormField(form, name, v);
const collectFilters = () => readFilters(form, current().filters) as ReportForm['filters'];

function renderFilters(): void {
  const l = current();
  filtersBox.replaceChildren(...l.filters.filter((f) => !f.option).map((f) => filterField(f, sortLabel)));
  optionsBox.replaceChildren(
    ...l.filters.filter((f) => f.option).map((f) => h('label', { class: 'checkbox' }, h('input', { type: 'checkbox', name: f.name }), f.label)),
  );
  byId('incremental-box').hidden = !l.incremental;
  byId('card-box').hidden = !l.cardData;
  const gap = byId('service-gap');
  gap.hidden = !l.serviceGap;
  gap.textContent = l.serviceGap ?? '';
  sheetFilters.setColumns(l.columns);
  byId('children-hint').textContent = l.childSheets.length
    ? `Listas dentro dos registros (${l.childSheets.join(', ')}) vão para abas ligadas, com o ID do registro na primeira coluna.`
    : '';
  const name = byName('name') as HTMLInputElement;
  if (!editingId) name.value = l.label;
  const sheet = byName('sheetName') as HTMLInputElement;
  if (!editingId) sheet.value = uniqueSheetName(l.label);
}

function uniqueSheetName(base: string): string {
  let name = base;
  for (let i = 2; data.sheets.includes(name); i++) name = `${base} ${i}`;
  return name;
}

function fill(report: EditingReport): void {
  editingId = report.id;
  editMode = true;
  byId('title').textContent = `Editar "${report.name}"`;
  runBtn.textContent = 'Salvar e importar';
  listingSelect.value = report.listing;
  renderFilters();
  (byName('connection') as HTMLSelectElement).value = report.companies ? (report.companies.all ? ALL : SEVERAL) : report.connection;
  for (const box of companiesBox.querySelectorAll<HTMLInputElement>('input[type="checkbox"]')) box.checked = Boolean(report.companies?.ids.includes(box.value));
  showCompanies();
  (byName('name') as HTMLInputElement).value = report.name;
  targetSelect.value = data.sheets.includes(report.sheetName) ? report.sheetName : NEW;
  (byName('sheetName') as HTMLInputElement).value = report.sheetName;
  byId('new-sheet').hidden = targetSelect.value !== NEW;
  (byName('incremental') as HTMLInputElement).checked = report.incremental;
  (byName('cardData') as HTMLInputElement).checked = report.cardData;
  for (const f of report.sheetFilters) sheetFilters.add(f);
  for (const f of current().filters) {
    const v = report.filters[f.name];
    if (v === undefined) continue;
    if (f.kind === 'date' || f.kind === 'datetime' || f.kind === 'competencia') {
      const rel = typeof v === 'object' && v !== null ? (v as { rel: string; dias?: number; meses?: number }) : null;
      const modeEl = byName(`${f.name}__modo`) as HTMLSelectElement;
      modeEl.value = !rel ? 'fixa' : rel.rel === 'hoje' ? 'rel' : rel.meses === 0 ? 'atual' : 'anterior';
      modeEl.dispatchEvent(new Event('change'));
      if (!rel) setField(f.name, v);
      if (rel?.rel === 'hoje') setField(`${f.name}__dias`, rel.dias);
    } else setField(f.name, v);
  }
}

/** Several connections, or all of them: a consolidated report (one sheet, Empresa first). */
function chosenCompanies(): ReportForm['companies'] {
  const choice = value('connection');
  if (choice === ALL) return { all: true };
  if (choice !== SEVERAL) return null;
  return { ids: [...companiesBox.querySelectorAll<HTMLInputElement>('input[type="checkbox"]:checked')].map((b) => b.value) };
}

function showCompanies(): void {
  const choice = value('connection');
  companiesBox.hidden = choice !== SEVERAL;
  byId('companies-hint').hidden = choice !== SEVERAL && choice !== ALL;
}

function setRunning(running: boolean): void {
  runBtn.disabled = running;
  runBtn.setAttribute('aria-busy', String(running));
  if (!running) runBtn.removeAttribute('aria-busy');
  cancelBtn.hidden = !running;
  cancelBtn.disabled = false;
  if (running) discardBtn.hidden = true;
  byId('progress-box').hidden = !running;
}

/** The sheet the user was asked about and clicked again for. */
let confirmedReplace: string | undefined;

function idleLabel(): string {
  return editMode ? 'Salvar e importar' : 'Importar';
}

/** Any edit after a failure means a new run with the form as it is now: never a resume of the old one. */
function resetAfterFailure(): void {
  if (control) return;
  resumable = null;
  discardable = null;
  discardBtn.hidden = true;
  runBtn.textContent = idleLabel();
}

function showProgress(p: RunProgress, waited?: number): void {
  const text = progressText(p, waited);
  if (p.status === 'running') {
    progressText_.textContent = text;
    if (p.totalRows) {
      progressBar.max = p.totalRows;
      progressBar.value = Math.min(p.rows, p.totalRows);
    } else progressBar.removeAttribute('value');
  }
  const ok = p.status === 'done' && !p.message && !p.cancelLate;
  notice(result, p.status === 'running' ? 'info' : ok ? 'ok' : p.status === 'failed' ? 'error' : 'warn', text);
}

form.addEventListener('submit', (ev) => {
  ev.preventDefault();
  if (control) return;
  clearFieldErrors(form);
  clearNotice(result);
  const target = targetSelect.value;
  const payload: ReportForm = {
    id: editingId,
    name: value('name'),
    // The options are the server's own listing keys.
    listing: listingSelect.value as ReportForm['listing'],
    connection: value('connection'),
    companies: chosenCompanies(),
    filters: collectFilters(),
    sheetFilters: sheetFilters.collect(),
    sheetName: target === NEW ? value('sheetName') : target,
    newSheet: target === NEW,
    incremental: value('incremental') === 'true',
    cardData: current().cardData && value('cardData') === 'true',
    // A second click after the server named the user's sheet confirms replacing that one sheet.
    confirmReplace: confirmedReplace,
  };
  control = { cancelled: false };
  progressText_.textContent = 'Começando…';
  progressBar.removeAttribute('value');
  setRunning(true);
  const resuming = resumable;
  resumable = null;
  discardable = null;
  runBtn.textContent = idleLabel();
  void (async () => {
    try {
      const started: FormOutcome<RunProgress & { returnTo?: number }> = resuming
        ? { ok: true, value: await server.continueReportRun(resuming) }
        : await server.startImportRun(payload);
      if (!started.ok) {
        confirmedReplace = started.field === 'confirmReplace' ? payload.sheetName : undefined;
        if (started.field === 'confirmReplace') {
          notice(result, 'warn', started.message);
          return;
        }
        if (started.field) fieldError(form, started.field.replace(/^filter:/, '').replace(/^sheetFilter:\d+$/, 'sheetFilter'), started.message);
        notice(result, 'error', started.message);
        return;
      }
      editingId = started.value.reportId;
      runningId = started.value.reportId;
      if (!data.sheets.includes(started.value.sheetName)) data.sheets.push(started.value.sheetName);
      const final = await driveRun(started.value, showProgress, control!);
      if (final.warnings.length) notice(status, 'warn', final.warnings.join(' '));
      if (started.value.returnTo !== undefined) returnTo = started.value.returnTo;
      if (final.status === 'failed') await afterFailure(final);
      if (final.status === 'cancelled') {
        resumable = final.reportId;
        runBtn.textContent = 'Continuar';
      }
    } catch (err) {
      // A step that died (killed, quota) left the job where it was: continuing works.
      notice(result, 'error', `${errorText(err)} ${runningId ? 'Use "Continuar" para retomar de onde parou.' : ''}`.trim());
      if (runningId) {
        resumable = runningId;
        runBtn.textContent = 'Continuar';
      }
    } finally {
      control = null;
      runningId = null;
      setRunning(false);
    }
  })();
});

async function afterFailure(final: RunProgress): Promise<void> {
  if (final.canContinue) {
    resumable = final.reportId;
    runBtn.textContent = 'Continuar';
    if (final.firstRun) {
      discardable = final.reportId;
      discardBtn.hidden = false;
    }
    return;
  }
  // Nothing to continue: a first import that cannot work leaves nothing behind.
  if (final.firstRun && (await server.discardFailedImport(final.reportId, returnTo))) {
    editingId = editMode ? editingId : undefined;
    data.sheets = data.sheets.filter((s) => s !== final.sheetName);
    notice(
      result,
      'error',
      `Falhou: ${final.message ?? 'erro desconhecido'}. Nada ficou na planilha (a aba e o relatório foram descartados). ${whatToFix(final.message ?? '')}`,
    );
  }
}

discardBtn.addEventListener('click', () =>
  busy(discardBtn, async () => {
    if (!discardable) return;
    const id = discardable;
    try {
      if (await server.discardFailedImport(id, returnTo)) {
        notice(result, 'ok', 'A aba e o relatório da importação que falhou foram descartados.');
        if (!editMode) editingId = undefined;
      }
    } catch (err) {
      notice(result, 'error', errorText(err));
    }
    resetAfterFailure();
  }),
);

cancelBtn.addEventListener('click', () => {
  if (!control) return;
  cancelRun(control);
  cancelBtn.disabled = true;
  progressText_.textContent = CANCELLING;
  notice(result, 'warn', CANCELLING);
});

// A new pull after a finished one is a new report, unless the sidebar edits a saved one.
form.addEventListener('change', () => {
  if (!editMode && !control) editingId = undefined;
  resetAfterFailure();
});
form.addEventListener('input', resetAfterFailure);
listingSelect.addEventListener('change', () => {
  if (!editMode) editingId = undefined;
  renderFilters();
});
targetSelect.addEventListener('change', () => {
  byId('new-sheet').hidden = targetSelect.value !== NEW;
});

void busy(runBtn, async () => {
  try {
    data = await server.getImportForm();
  } catch (err) {
    notice(status, 'error', errorText(err));
    return;
  }
  sheetFilters = new SheetFilters(byId('sheet-filters'), data.sheetFilterOps, resetAfterFailure);
  byId('add-sheet-filter').addEventListener('click', () => sheetFilters.add());
  const connSelect = byName('connection') as HTMLSelectElement;
  connSelect.replaceChildren(
    ...data.connections.map((c) => h('option', { value: c.name, selected: c.isDefault }, c.name)),
    ...(data.connections.length > 1
      ? [h('option', { value: SEVERAL }, 'Várias conexões (consolidado)…'), h('option', { value: ALL }, 'Todas as minhas conexões (consolidado)')]
      : []),
  );
  byId('company-list').replaceChildren(
    ...data.connections.map((c) => h('label', { class: 'checkbox' }, h('input', { type: 'checkbox', value: c.id, name: 'company' }), ` ${c.name}`)),
  );
  connSelect.addEventListener('change', showCompanies);
  if (data.connections.length === 0) notice(status, 'warn', 'Nenhuma conexão configurada: abra Faturamento › Conexões e adicione uma.');
  listingSelect.replaceChildren(...data.listings.map((l) => h('option', { value: l.key }, l.label)));
  targetSelect.replaceChildren(h('option', { value: NEW }, 'Nova aba…'), ...data.sheets.map((s) => h('option', { value: s }, `Substituir "${s}"`)));
  renderFilters();
  if (data.editing) fill(data.editing);
});
