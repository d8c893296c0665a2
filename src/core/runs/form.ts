/**
 * The Importar form: checked where the person can put it right (each refusal
 * names the field at fault), turned into the report it saves, and that
 * report's first run begun from the one look the check took at its sheet. The
 * server only says who is running and holds the lock.
 */
import { FilterError, formatFilters } from '../../api/filters';
import { type ListingKey, type ListOperation, listings } from '../../api/operations';
import { UserError } from '../../api/user-error';
import type { Connection, ConnectionStore } from '../connections/connections';
import { lookAt, type SheetLook } from '../pull/start';
import { ALL_COMPANIES_LABEL, type Report, type SavedFilterValue } from '../reports/reports';
import { resolveFilters } from './plan-pull';
import { checkSheetFilters, type SheetFilter } from '../sheets/sheet-filters';
import { sheetNameProblem } from '../sheets/sheet-names';
import { tableSpec } from '../sheets/table';
import { notYours, type Owner } from '../trust/owners';
import { type ReservedNames, targetProblem } from '../trust/targets';
import { beginFromForm } from './begin';
import type { PullJob, Run, RunDeps } from './deps';

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

/** Who sends the form, and what it is checked against besides the document's reports and sheets. */
export interface FormContext {
  owner: Owner;
  /** Whether the running user may edit `report` (their own, as they saved it). */
  mayEdit: (report: Report) => boolean;
  /** The running user's connections. */
  connections: Pick<ConnectionStore, 'list' | 'get'>;
  /** The hidden store's sheet, refused by name with words of its own. */
  workSheet: string;
  /** Every sheet of the add-on known by name only, the hidden store's included. */
  reserved: ReservedNames;
  /** The report's unfinished pull, when the running user may continue it. */
  ownJob: (reportId: string) => PullJob | null;
}

type Checked = Omit<Report, 'id' | 'createdAt' | 'schedule' | 'notifyByEmail' | 'owner'>;

/**
 * Saves the form as a report (every pull is a report) and starts its first
 * run: one read and one write of the report. Throws a UserError naming the
 * field at fault, before anything is written.
 */
export function runForm(deps: RunDeps, form: ReportForm, ctx: FormContext): Run & { started: boolean } {
  const editing = form.id ? deps.reports.get(form.id) : null;
  if (editing && !ctx.mayEdit(editing)) throw new UserError(notYours(`O relatório "${editing.name}"`, editing.owner), 'connection');
  const { checked, look } = checkForm(deps, form, editing, ctx);
  const report = editing
    ? { ...editing, ...checked, owner: ctx.owner }
    : deps.reports.draft({ ...checked, owner: ctx.owner, schedule: null, notifyByEmail: false }, deps.now());
  const run = beginFromForm(deps, report, editing ? ctx.ownJob(report.id) : null, look);
  // A run still going keeps its own settings; the edited ones are for the next run.
  if (!run.started) deps.reports.save(report);
  return run;
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
  connections: FormContext['connections'],
): { companies: Report['companies']; first: { id: string; name: string }; label: string } | null {
  if (!form) return null;
  if (!form.all && (form.ids ?? []).length === 0) throw new UserError('Marque as empresas do relatório consolidado (duas ou mais).', 'connection');
  const own = connections.list();
  if (own.length === 0) throw new UserError('Nenhuma conexão configurada: abra Faturamento › Conexões e adicione uma.', 'connection');
  if (form.all) {
    const first = own.find((c) => c.isDefault) ?? own[0];
    return { companies: { all: true, ids: [] }, first, label: ALL_COMPANIES_LABEL };
  }
  const ids = [...new Set((form.ids ?? []).map(String))];
  const picked = ids.map((id) => own.find((c) => c.id === id));
  if (picked.some((c) => !c)) throw new UserError('Só é possível escolher conexões suas (Faturamento › Conexões). Marque de novo as empresas.', 'connection');
  const mine = picked as Array<{ id: string; name: string }>;
  // One company is a one-company report, without the Empresa column.
  if (mine.length === 1) return { companies: undefined, first: mine[0], label: mine[0].name };
  return { companies: { all: false, ids }, first: mine[0], label: mine.map((c) => c.name).join(', ') };
}

/** The running user's connection the form names (their default when it names none); the field at fault is the connection's. */
function ownConnection(connections: FormContext['connections'], named: string): Connection {
  try {
    return connections.get(named || undefined);
  } catch (err) {
    if (err instanceof UserError) throw new UserError(err.message, 'connection');
    throw err;
  }
}

/**
 * The form against the report it edits, if any, and the sheet it names, looked
 * at once: the field names match the sidebar's inputs.
 */
function checkForm(deps: RunDeps, form: ReportForm, editing: Report | null, ctx: FormContext): { checked: Checked; look: SheetLook } {
  const op = (listings as Record<string, ListOperation>)[form.listing];
  if (!op) throw new UserError('Escolha o que importar.', 'listing');
  const name = (form.name ?? '').trim() || `${op.label}`;
  const chosen = checkCompanies(form.companies, ctx.connections);
  // Resolved in the running user's own connections: the report keeps its id, never a name to look up later.
  const connection = chosen ? chosen.first : ownConnection(ctx.connections, form.connection);
  const sheetName = (form.sheetName ?? '').trim();
  if (!sheetName) throw new UserError('Informe a aba de destino.', 'sheetName');
  if (sheetName === ctx.workSheet) throw new UserError(`A aba "${ctx.workSheet}" guarda os relatórios do complemento: escolha outro nome.`, 'sheetName');
  const problem = sheetNameProblem(sheetName);
  if (problem) throw new UserError(problem, 'sheetName');
  const target = deps.book.byName(sheetName);
  const ownSheet = target !== null && editing !== null && (editing.sheetId !== undefined ? target.id === editing.sheetId : editing.sheetName === sheetName);
  if (form.newSheet && !ownSheet && target)
    throw new UserError(`Já existe uma aba "${sheetName}". Escolha outro nome ou, em Aba, a opção de substituí-la.`, 'sheetName');
  // Even the sheet the edited report names: a stored report is no proof that a sheet is its own.
  const refused = target ? targetProblem(target, deps.reports.list(), editing?.id, ctx.reserved) : null;
  if (refused) throw new UserError(refused, 'sheetName');
  if (target && !ownSheet && target.lastRow() > 0 && form.confirmReplace !== sheetName) {
    throw new UserError(
      `A aba "${sheetName}" já tem dados: as colunas do relatório vão ocupar o lugar das que estão lá. Clique de novo para confirmar que quer substituir "${sheetName}".`,
      'confirmReplace',
    );
  }
  const filters = cleanFilters(form.filters);
  try {
    // Formatted here only to refuse a bad filter beside its field; runs format their own resolved values.
    formatFilters(op.label, op.filters, resolveFilters({ filters }, new Date(deps.now()), deps.zone), deps.zone);
  } catch (err) {
    if (err instanceof FilterError) throw new UserError(err.detail, `filter:${err.filter}`);
    throw err;
  }
  const { columns } = tableSpec(op);
  const sheetFilters = checkSheetFilters(form.sheetFilters, columns);
  if (!sheetFilters.ok) throw new UserError(sheetFilters.message, `sheetFilter:${sheetFilters.index}`);
  const checked: Checked = {
    name,
    listing: form.listing,
    connection: chosen ? chosen.label : connection.name,
    connectionId: connection.id,
    companies: chosen?.companies,
    filters,
    sheetFilters: sheetFilters.value,
    sheetName,
    // Pointing a report at another sheet: from now on that sheet's id is the report's.
    sheetId: ownSheet ? editing?.sheetId : target?.id,
    incremental: Boolean(form.incremental && op.updatedSince),
    cardData: Boolean(form.cardData && columns.some((c) => c.onRequest === 'cartao')),
  };
  return { checked, look: lookAt(target, checked, { consolidated: Boolean(checked.companies), cardData: checked.cardData }) };
}
