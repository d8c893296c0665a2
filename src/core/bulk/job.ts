/**
 * A bulk run as a resumable job. The sheet is the durable record of every row
 * (Status beside it); the job in DocumentProperties only keeps its place and
 * counts, small enough for one property. Each step sends batches until its
 * deadline and checkpoints after each batch, so a 6-minute kill loses nothing
 * already written, and rows it caught in flight are PENDENTE: looked up, never
 * blindly resent, by the next step.
 */
import { bounded, MESSAGE_MAX } from '../bounds';
import { StepBudget, writeCostMs } from '../deadline';
import type { BillingClient } from '../../api/client';
import type { WriteKey } from '../../api/writes';
import type { Zone } from '../../api/calendar';
import type { JobStore } from '../job-store';
import type { Owner } from '../owners';
import type { MarkupSheetPort, SelectionBookPort } from '../sheet-port';
import type { CellValue } from '../table';
import { type Item, runBatch } from './batch';
import { planBatch } from './planner';
import { type BulkOperation, bulkOperation, STATUS } from './definitions';
import { loadDiscounts } from './discounts';
import { ensureLayout, type Layout } from './headers';
import { EXAMPLE_TAG, exampleKey } from './template';
import { type CustomerFound, findCustomers, formatCpfCnpj } from './customers';
import { EDIT_LABEL, EditPlan, editColumns, NO_EDITS, previewEdits } from './edits';
import type { SnapshotStore } from './snapshot';
import { type BuiltRow, buildRow, cellIssue, DONE_STATUSES, type Discounts, isBlankRow, issueText, type RowIssue, statusOf } from './rows';
import { expandRuns, highlight, refusalIssues, type RowResult, rowRangesA1, runsOf, writeColumn, writeResults } from './sheet-io';
import { UserError } from '../../api/user-error';
import type { RunStatus } from '../run-state';

export interface BulkDeps {
  book: SelectionBookPort;
  /** Where jobs live between executions (DocumentProperties). */
  jobs: JobStore<BulkJob>;
  zone: Zone;
  now: () => number;
  /** Blocking wait (Utilities.sleep). */
  sleep: (ms: number) => void;
  /** A fresh unique id for generated idIntegracao values. */
  newId: () => string;
  /** The running user's client for one of their connections, by id. */
  clientFor: (connectionId: string) => BillingClient;
  /** Told about a job just created, before anything is sent: its owner vouches for it. */
  vouch?: (job: BulkJob) => void;
  /** Epoch ms this execution must never pass: no batch starts that could not end before it at its worst. */
  limit?: number;
  /** How long after an unknown outcome a row may be sent again when the service still has nothing (default 10 min). */
  safeResendMs?: number;
  /** What imports last pulled of editable fields (edits pushed from an imported sheet). */
  snapshots?: SnapshotStore;
}

export interface BulkRequest {
  operation: WriteKey;
  sheetName: string;
  /** The connection's name, for people to read. */
  connection: string;
  /** The running user's connection, by id; the server sets it with the owner. */
  connectionId?: string;
  owner?: Owner;
  scope: 'all' | 'selected';
  /** Rows sent concurrently per wave. */
  batchSize?: number;
}

export interface BulkCounts {
  /** Created, updated or emitted by this run. */
  ok: number;
  /** Already in the service (JÁ EXISTE, JÁ EMITIDA): nothing sent. */
  existing: number;
  /** OK before this run started. */
  skipped: number;
  failed: number;
  pending: number;
}

export type BulkStatus = RunStatus;

export interface BulkJob {
  id: string;
  operation: WriteKey;
  sheetId: number;
  sheetName: string;
  connection: string;
  /** The owner's connection id; absent in runs started before owners. */
  connectionId?: string;
  /** Who started it: only their trigger or their sidebar continues it. */
  owner?: Owner;
  /** Rows of the current pass, as [first, last] runs. */
  ranges: Array<[number, number]>;
  /** Rows left PENDENTE during this pass, for the next. */
  retry: Array<[number, number]>;
  /**
   * The key of each row of `ranges` (in row order): how a later execution finds
   * each row wherever it is now. '' for a row without one (invalid), '-' for a
   * blank or example row. Absent for jobs too large to keep them (row numbers then).
   */
  keys?: string[];
  /** The keys of `retry`, in row order. */
  retryKeys?: string[];
  /** Edits pushed from an imported sheet: each row is an update of its record's type, told from the snapshot. */
  edits?: boolean;
  pass: number;
  cursor: number;
  total: number;
  counts: BulkCounts;
  batchSize: number;
  maxBatch: number;
  status: BulkStatus;
  message?: string;
  warnings: string[];
  startedAt: number;
  updatedAt: number;
  steps: number;
  /** Customers found by CPF/CNPJ in earlier steps of this run (digits → idCliente): each value is looked up once per run. */
  customers?: Record<string, number>;
}

export interface BulkProgress {
  jobId: string;
  /** The e-mail of who started it (null before owners). */
  owner: string | null;
  operation: WriteKey;
  label: string;
  sheetName: string;
  status: BulkStatus;
  done: boolean;
  total: number;
  processed: number;
  counts: BulkCounts;
  message?: string;
  warnings: string[];
}

export class BulkError extends UserError {
  override name = 'BulkError';
}

export const DEFAULT_BATCH = 10;
const MAX_BATCH = 50;
const MAX_PASSES = 3;
/** Rows scanned per batch when most are skipped (already OK, blank): bounds one read-and-write round. */
const MAX_WINDOW = 500;
/** A job's runs are kept below one property value (9 KB). */
const MAX_RUNS = 300;

const emptyCounts = (): BulkCounts => ({ ok: 0, existing: 0, skipped: 0, failed: 0, pending: 0 });

function saveJob(deps: BulkDeps, job: BulkJob): void {
  deps.jobs.put(job.id, job);
}

export function progressOf(job: BulkJob): BulkProgress {
  const c = job.counts;
  return {
    jobId: job.id,
    owner: job.owner?.email ?? null,
    operation: job.operation,
    label: job.edits ? EDIT_LABEL : bulkOperation(job.operation).label,
    sheetName: job.sheetName,
    status: job.status,
    done: job.status !== 'running',
    total: job.total,
    processed: Math.min(job.total, c.ok + c.existing + c.skipped + c.failed + c.pending),
    counts: { ...c },
    message: job.message,
    warnings: job.warnings,
  };
}

function sheetOf(deps: BulkDeps, name: string): MarkupSheetPort {
  const sheet = deps.book.byName(name);
  if (!sheet) throw new BulkError(`A aba "${name}" não existe nesta planilha.`);
  return sheet;
}

/** The rows a run covers: all data rows, or those of the selection on that sheet. */
function scopeRows(deps: BulkDeps, sheet: MarkupSheetPort, scope: BulkRequest['scope']): Array<[number, number]> {
  const last = sheet.lastRow();
  if (last < 2) throw new BulkError(`A aba "${sheet.name()}" não tem linhas abaixo do cabeçalho.`);
  if (scope === 'all') return [[2, last]];
  const sel = deps.book.selection();
  if (sel.sheetId !== sheet.id) throw new BulkError(`Selecione as linhas na aba "${sheet.name()}" (a seleção atual está na aba "${sel.sheetName}").`);
  const rows = expandRuns(sel.rows.map(([a, b]) => [Math.max(a, 2), Math.min(b, last)] as [number, number]));
  if (rows.length === 0) throw new BulkError('Nenhuma linha de dados selecionada: selecione as linhas (abaixo do cabeçalho) e tente de novo.');
  const runs = runsOf(rows);
  if (runs.length > MAX_RUNS)
    throw new BulkError(`A seleção tem ${runs.length} intervalos separados; use no máximo ${MAX_RUNS} (ou ordene as linhas para juntá-las).`);
  return runs;
}

interface Context {
  op: BulkOperation;
  sheet: MarkupSheetPort;
  /** Read once: every sheet.name() is a Spreadsheet call. */
  name: string;
  layout: Layout;
  discounts?: Discounts;
  /** The template's example row, by field (sheet metadata): never sent, even with its Status column gone. */
  example: Record<string, string> | null;
  /** Customers found by CPF/CNPJ in this execution. */
  customers?: Map<string, CustomerFound>;
  /** Edits pushed from an imported sheet; `since`: a row OK from before this is an earlier push, not this one's. */
  edits?: { plan: EditPlan; since: number; sheetId: number; store: SnapshotStore };
  /** The operation of each row built in this execution, when rows differ (edits: plano or personalizado). */
  rowOps?: Map<number, BulkOperation>;
}

/** A row as its request: the sheet's operation, or for edits the update of the record's type. */
function rowBuild(ctx: Context, deps: BulkDeps, row: readonly CellValue[], r: number): BuiltRow {
  if (!ctx.edits) return buildRow(ctx.op, ctx.layout, row, r, ctx.name, deps.zone, ctx.discounts);
  const made = ctx.edits.plan.build(row, r);
  ctx.rowOps ??= new Map();
  ctx.rowOps.set(r, made?.op ?? ctx.op);
  if (made) return made.built;
  const issue = cellIssue(
    ctx.name,
    r,
    ctx.layout.inputs.idAssinaturaContrato,
    'ID da assinatura',
    'esta assinatura não está na última importação da aba: atualize o relatório e edite de novo.',
  );
  return { body: {}, needsKey: false, issues: [issue] };
}

function exampleOf(sheet: MarkupSheetPort): Record<string, string> | null {
  try {
    const raw = sheet.sheetTag(EXAMPLE_TAG);
    return raw ? (JSON.parse(raw) as Record<string, string>) : null;
  } catch {
    return null;
  }
}

/** The template's example row: marked EXEMPLO, or holding exactly the example's values in every column still there. */
function isExample(ctx: Context, row: readonly CellValue[]): boolean {
  if (statusOf(cellAt(row, ctx.layout.results.status)) === STATUS.exemplo) return true;
  const example = ctx.example;
  if (!example) return false;
  const fields = Object.keys(example).filter((f) => ctx.layout.inputs[f] !== undefined);
  return fields.length > 0 && fields.every((f) => exampleKey(cellAt(row, ctx.layout.inputs[f])) === example[f]);
}

function context(deps: BulkDeps, op: BulkOperation, sheet: MarkupSheetPort): Context & { warnings: string[] } {
  const layout = ensureLayout(sheet, op);
  const warnings: string[] = [];
  const name = sheet.name();
  const example = exampleOf(sheet);
  if (!op.discounts) return { op, sheet, name, layout, warnings, example };
  const discounts = loadDiscounts(deps.book, deps.zone);
  if (discounts.unlinked.length)
    warnings.push(
      `Aba "Descontos": as linhas ${discounts.unlinked.join(', ')} não dizem a que assinatura pertencem (coluna "ID de integração da assinatura") e foram ignoradas.`,
    );
  return { op, sheet, name, layout, discounts, warnings, example };
}

/** The edit plan of an imported sheet: its columns by metadata, the snapshot its owner's last pull left. */
function editPlan(deps: BulkDeps, sheet: MarkupSheetPort, owner: Owner | undefined): { plan: EditPlan; store: SnapshotStore } {
  const store = deps.snapshots;
  if (!store) throw new BulkError('Envio de alterações indisponível aqui.');
  const columns = editColumns(sheet);
  const snapshot = store.get(sheet.id);
  if (!snapshot || (snapshot.records.size === 0 && !snapshot.overflow))
    throw new BulkError(
      `A aba "${sheet.name()}" ainda não tem a base de comparação: atualize o relatório dela (Relatórios › Atualizar) e então edite e envie as alterações.`,
    );
  if (snapshot.overflow) throw new BulkError('A aba tem assinaturas demais para comparar as alterações (mais de 20.000): filtre a importação.');
  if (owner && snapshot.owner && snapshot.owner.id !== owner.id)
    throw new BulkError(
      `Estas assinaturas foram importadas por ${snapshot.owner.email || 'outro editor'}: só quem importou envia as alterações, com a conexão usada na importação. Para enviar com uma conexão sua, assuma o relatório e atualize-o.`,
    );
  return { plan: new EditPlan(columns, snapshot, sheet.name(), deps.zone), store };
}

/** The operation an edits context reports rows under; each row is sent under its own (rowOps). */
const EDIT_BASE = (): BulkOperation => bulkOperation('atualizarAssinaturaPersonalizada');

function editContext(deps: BulkDeps, sheet: MarkupSheetPort, owner: Owner | undefined, since: number): Context & { warnings: string[] } {
  const { plan, store } = editPlan(deps, sheet, owner);
  const op = EDIT_BASE();
  const layout = ensureLayout(sheet, op, [], plan.inputs);
  return { op, sheet, name: sheet.name(), layout, warnings: [], example: null, edits: { plan, since, sheetId: sheet.id, store } };
}

function readSpan(sheet: MarkupSheetPort, layout: Layout, rows: readonly number[]): { first: number; values: CellValue[][] } {
  const first = rows[0];
  const last = rows[rows.length - 1];
  return { first, values: sheet.read(first, 1, last - first + 1, layout.lastColumn) };
}

const cellAt = (row: readonly CellValue[], column: number | undefined): CellValue => (column === undefined ? '' : row[column - 1]);

const timeOf = (cell: CellValue): number | undefined =>
  cell instanceof Date || Object.prototype.toString.call(cell) === '[object Date]' ? (cell as Date).getTime() : undefined;
/** A row's result cells as they were read: what a row whose wave never started goes back to. */
function cellsOf(ctx: Context, row: readonly CellValue[]): RowResult {
  const cells: Record<string, CellValue> = {};
  for (const r of ctx.op.results) cells[r.key] = cellAt(row, ctx.layout.results[r.key]);
  return cells as unknown as RowResult;
}

/** A finished row's result still belongs to it (an imported Faturas sheet may have been pulled again since). */
function stillDone(ctx: Context, row: readonly CellValue[]): boolean {
  if (!DONE_STATUSES.includes(statusOf(cellAt(row, ctx.layout.results.status)))) return false;
  // An edit is sent again whenever it differs from the snapshot; only this push's own OK counts as done.
  if (ctx.edits) return (timeOf(cellAt(row, ctx.layout.results.processadoEm)) ?? -1) >= ctx.edits.since;
  if (ctx.op.identity !== 'idFatura') return true;
  return String(cellAt(row, ctx.layout.results.chave)) === String(cellAt(row, ctx.layout.inputs.idFatura));
}

/** An NFS-e row done earlier whose note had no number yet (EMITIDA): each later run looks it up until the number exists. */
function awaitsNumber(ctx: Context, row: readonly CellValue[]): boolean {
  const numero = ctx.layout.results.numero;
  return ctx.op.identity === 'idFatura' && numero !== undefined && String(cellAt(row, numero) ?? '').trim() === '';
}

/** The field that tells a row's record: the integration id of a creation, the subscription of an update, the invoice of an NFS-e. */
export function keyField(op: BulkOperation): string | undefined {
  if (op.identity === 'idIntegracao') return 'idIntegracao';
  if (op.identity === 'idFatura') return 'idFatura';
  return op.pathId;
}

/**
 * The same key on two rows would create, update or emit twice: every row not
 * yet done whose key another row of the sheet also has is refused, naming the
 * other rows. Read from the whole sheet, whatever the scope.
 */
function sheetDuplicates(ctx: Context): Map<number, RowIssue> {
  const field = keyField(ctx.op);
  const out = new Map<number, RowIssue>();
  const column = field ? ctx.layout.inputs[field] : undefined;
  const last = ctx.sheet.lastRow();
  if (!field || column === undefined || last < 2) return out;
  const rows = ctx.sheet.read(2, 1, last - 1, ctx.layout.lastColumn);
  const rowsByKey = new Map<string, number[]>();
  rows.forEach((row, i) => {
    const v = cellAt(row, column);
    const key = v === '' || v === null || v === undefined ? '' : String(v).trim();
    if (key && !isExample(ctx, row)) rowsByKey.set(key, [...(rowsByKey.get(key) ?? []), i + 2]);
  });
  const label = ctx.op.columns.find((c) => c.field === field)?.label ?? field;
  for (const [key, rows] of rowsByKey) {
    if (rows.length < 2) continue;
    for (const r of rows) {
      const others = rows.filter((o) => o !== r);
      out.set(r, {
        sheet: ctx.name,
        row: r,
        column,
        message: `${label} "${key}" repetido: está também na${others.length > 1 ? 's linhas' : ' linha'} ${others.join(', ')}. Cada linha precisa de um valor próprio; apague ou corrija as repetidas.`,
      });
    }
  }
  return out;
}

/** Keys kept in a job at most: the job is a document property (9 KB parts, 500 KB in all). */
const MAX_KEYS_CHARS = 60_000;

const normKey = (v: CellValue | undefined | null): string => (v === '' || v === null || v === undefined ? '' : String(v).trim());

function keyAt(ctx: Context, row: readonly CellValue[]): string {
  const field = keyField(ctx.op);
  if (isExample(ctx, row) || isBlankRow(ctx.layout.inputs, row)) return '-';
  return field ? normKey(cellAt(row, ctx.layout.inputs[field])) : '';
}

/**
 * Finds each remaining row of the job by its key wherever the user (or a
 * refresh of an imported sheet) moved it since the last step. A row whose key
 * is gone is reported, never replaced by whatever sits at its old number.
 */
function relocate(job: BulkJob, ctx: Context): void {
  const field = keyField(ctx.op);
  const column = field ? ctx.layout.inputs[field] : undefined;
  if (!job.keys || column === undefined) return;
  const found = new Map<string, number>();
  const last = ctx.sheet.lastRow();
  if (last >= 2)
    ctx.sheet.read(2, column, last - 1, 1).forEach(([v], i) => {
      const k = normKey(v);
      if (k && !found.has(k)) found.set(k, i + 2);
    });
  const lost: string[] = [];
  /** `wasPending`: rows of a retry pass, counted PENDENTE already. */
  const place = (keys: string[], wasPending: boolean): { ranges: Array<[number, number]>; keys: string[] } => {
    const located: Array<[number, string]> = [];
    for (const k of keys) {
      if (k === '-') continue;
      const at = k ? found.get(k) : undefined;
      if (at !== undefined) located.push([at, k]);
      else {
        // A row without a key was refused at the start; one whose key is gone left the sheet.
        if (wasPending) job.counts.pending = Math.max(0, job.counts.pending - 1);
        job.counts.failed++;
        if (k) lost.push(k);
      }
    }
    located.sort((a, b) => a[0] - b[0]);
    return { ranges: runsOf(located.map(([r]) => r)), keys: located.map(([, k]) => k) };
  };
  const current = place(job.keys.slice(job.cursor), job.pass > 0);
  job.ranges = current.ranges;
  job.keys = current.keys;
  job.cursor = 0;
  if (job.retryKeys) {
    const retry = place(job.retryKeys, true);
    job.retry = retry.ranges;
    job.retryKeys = retry.keys;
  }
  if (lost.length) {
    const label = ctx.op.columns.find((c) => c.field === field)?.label ?? field;
    job.warnings = [
      ...job.warnings,
      `${lost.length === 1 ? 'Uma linha saiu' : `${lost.length} linhas saíram`} da aba durante o lote e não ${lost.length === 1 ? 'foi processada' : 'foram processadas'} (${label} ${lost
        .slice(0, 5)
        .map((k) => `"${k}"`)
        .join(', ')}${lost.length > 5 ? '…' : ''}).`,
    ];
  }
}

export interface ValidationSummary {
  sheetName: string;
  total: number;
  valid: number;
  invalid: number;
  /** Already done (OK, JÁ EXISTE, JÁ EMITIDA) or PENDENTE: left as they are. */
  untouched: number;
  warnings: string[];
  /** First problems, for the sidebar. */
  problems: string[];
}

/** The rows a validation read and built, handed to the first step of the same execution instead of reading and building them again. */
interface Prepared {
  first: number;
  values: CellValue[][];
  built: Map<number, BuiltRow>;
}

/** Checks every row of the scope, writes each problem beside its row and colours the cells at fault; sends nothing. */
function validateRows(
  deps: BulkDeps,
  ctx: Context & { warnings: string[] },
  ranges: Array<[number, number]>,
  lookup?: BillingClient,
): { summary: ValidationSummary; prepared: Prepared } {
  const rows = expandRuns(ranges);
  const { first, values } = readSpan(ctx.sheet, ctx.layout, rows);
  const built = new Map<number, BuiltRow>();
  const summary: ValidationSummary = { sheetName: ctx.name, total: 0, valid: 0, invalid: 0, untouched: 0, warnings: ctx.warnings, problems: [] };
  const results = new Map<number, RowResult>();
  const checked = new Set<number>();
  const issues: RowIssue[] = [];
  const now = new Date(deps.now());
  const keys = new Set<string>();
  for (const r of rows) {
    const row = values[r - first];
    const status = statusOf(cellAt(row, ctx.layout.results.status));
    keys.add(String(cellAt(row, ctx.layout.inputs.idIntegracao) ?? '').trim());
    if (isExample(ctx, row) || isBlankRow(ctx.layout.inputs, row)) continue;
    summary.total++;
    if (status === STATUS.pendente || stillDone(ctx, row)) {
      summary.untouched++;
      continue;
    }
    checked.add(r);
    built.set(r, rowBuild(ctx, deps, row, r));
  }
  const duplicates = sheetDuplicates(ctx);
  if (lookup)
    checkCustomers(
      lookup,
      ctx,
      [...checked].map((r) => ({ row: r, built: built.get(r) as BuiltRow })),
    );
  for (const r of checked) {
    const one = built.get(r) as BuiltRow;
    const duplicate = duplicates.get(r);
    if (duplicate) one.issues.push(duplicate);
    const row = values[r - first];
    const status = statusOf(cellAt(row, ctx.layout.results.status));
    if (one.issues.length) {
      summary.invalid++;
      issues.push(...one.issues);
      if (summary.problems.length < 5) summary.problems.push(one.issues[0].message);
      results.set(r, { status: STATUS.erro, mensagem: issueText(one.issues), processadoEm: now });
    } else {
      summary.valid++;
      if (status !== '' || String(cellAt(row, ctx.layout.results.mensagem)) !== '')
        results.set(r, { status: '', mensagem: 'Linha válida: pronta para enviar.', processadoEm: now });
    }
  }
  if (ctx.discounts && ranges.length === 1 && ranges[0][0] === 2) {
    const orphans = [...ctx.discounts.byKey.keys()].filter((k) => !keys.has(k));
    if (orphans.length)
      summary.warnings = [
        ...summary.warnings,
        `Aba "Descontos": nenhuma linha desta aba tem o ID de integração ${orphans
          .slice(0, 5)
          .map((k) => `"${k}"`)
          .join(', ')}${orphans.length > 5 ? '…' : ''}; esses descontos não serão enviados.`,
      ];
  }
  writeResults(ctx.sheet, ctx.layout, ctx.op, results);
  // What was just written is what the sheet now holds: the first step reads its statuses from here.
  const statusAt = ctx.layout.results.status - 1;
  for (const [r, result] of results) values[r - first][statusAt] = result.status;
  if (checked.size) {
    const span = [...checked];
    highlight(ctx.sheet, ctx.layout, span[0], span[span.length - 1], checked, issues);
  }
  return { summary, prepared: { first, values, built } };
}

/**
 * Validar: every check Executar makes before sending, customers named by
 * CPF/CNPJ included (looked up with `connectionId`'s key, one request per
 * distinct value); nothing is written to the service.
 */
export function validateSheet(deps: BulkDeps, request: Omit<BulkRequest, 'connection'>): ValidationSummary {
  const op = bulkOperation(request.operation);
  const sheet = sheetOf(deps, request.sheetName);
  const ctx = context(deps, op, sheet);
  let lookup: BillingClient | undefined;
  if (op.columns.some((c) => c.finds) && request.connectionId) {
    lookup = deps.clientFor(request.connectionId).withLimit(deps.limit);
  }
  return validateRows(deps, ctx, scopeRows(deps, sheet, request.scope), lookup).summary;
}

/** Validates every row, writes the problems, then starts sending the valid ones. */
export function startBulk(deps: BulkDeps, request: BulkRequest, deadline: number): BulkProgress {
  const op = bulkOperation(request.operation);
  const sheet = sheetOf(deps, request.sheetName);
  const busy = running(deps, sheet);
  if (busy) return busy;
  if (!request.connection) throw new BulkError('Escolha a conexão (a organização) para onde as linhas serão enviadas.');
  const ctx = context(deps, op, sheet);
  return launch(deps, request, ctx, scopeRows(deps, sheet, request.scope), deadline);
}

/** A job already running on the sheet goes on instead of a new one. */
function running(deps: BulkDeps, sheet: MarkupSheetPort): BulkProgress | null {
  const existing = deps.jobs.get(String(sheet.id));
  if (existing?.status !== 'running') return null;
  return {
    ...progressOf(existing),
    message: `Já há um lote em andamento nesta aba (${existing.counts.ok + existing.counts.existing + existing.counts.skipped + existing.counts.failed} de ${existing.total} linhas). Ele continua de onde parou; espere terminar para começar outro.`,
  };
}

/** What edits of an imported sheet would send, read only: the sidebar's preview. */
export function previewEditPush(deps: BulkDeps, sheetName: string, owner?: Owner) {
  const sheet = sheetOf(deps, sheetName);
  const { plan } = editPlan(deps, sheet, owner);
  const { changed: _rows, ...preview } = previewEdits(sheet, plan);
  return preview;
}

/**
 * Sends the rows of an imported sheet that differ from what was last pulled,
 * as updates, with the bulk run's validation, statuses beside the rows,
 * lookups of uncertain outcomes and resumption. The connection is the one the
 * pull used: the edits go back to the organization they came from.
 */
export function startEditPush(deps: BulkDeps, request: { sheetName: string; owner?: Owner; batchSize?: number }, deadline: number): BulkProgress {
  const sheet = sheetOf(deps, request.sheetName);
  const busy = running(deps, sheet);
  if (busy) return busy;
  const now = deps.now();
  const ctx = editContext(deps, sheet, request.owner, now);
  const { plan } = ctx.edits as NonNullable<Context['edits']>;
  const { changed } = previewEdits(sheet, plan);
  if (changed.length === 0) {
    const counts = emptyCounts();
    return {
      jobId: '',
      owner: request.owner?.email ?? null,
      operation: ctx.op.key,
      label: EDIT_LABEL,
      sheetName: ctx.name,
      status: 'done',
      done: true,
      total: 0,
      processed: 0,
      counts,
      message: NO_EDITS,
      warnings: [],
    };
  }
  const connectionId = plan.snapshot.connectionId;
  return launch(
    deps,
    { operation: ctx.op.key, sheetName: ctx.name, connection: '', connectionId, owner: request.owner, scope: 'all', batchSize: request.batchSize },
    ctx,
    runsOf(changed),
    deadline,
    now,
  );
}

/** Validates the rows of `ranges`, writes their problems, then starts sending the valid ones. */
function launch(
  deps: BulkDeps,
  request: BulkRequest,
  ctx: Context & { warnings: string[] },
  ranges: Array<[number, number]>,
  deadline: number,
  startedAt = deps.now(),
): BulkProgress {
  const { sheet, op } = ctx;
  const { summary, prepared } = validateRows(deps, ctx, ranges);
  // Every valid row gets its generated key now, in one write: from here on each row is known by its key.
  const keyColumn = ctx.layout.inputs.idIntegracao;
  if (ctx.op.identity === 'idIntegracao' && keyColumn !== undefined) {
    const fresh = new Map<number, CellValue>();
    for (const [r, built] of prepared.built) {
      if (!built.needsKey || built.issues.length) continue;
      built.key = deps.newId();
      built.body.idIntegracao = built.key;
      built.needsKey = false;
      built.generated = true;
      fresh.set(r, built.key);
      prepared.values[r - prepared.first][keyColumn - 1] = built.key;
    }
    if (fresh.size) writeColumn(ctx.sheet, keyColumn, fresh);
  }
  const rowKeys = expandRuns(ranges).map((r) => keyAt(ctx, prepared.values[r - prepared.first]));
  const keys = rowKeys.reduce((n, k) => n + k.length + 3, 0) <= MAX_KEYS_CHARS ? rowKeys : undefined;
  if (!keys)
    summary.warnings = [
      ...summary.warnings,
      'Lote grande demais para guardar a chave de cada linha: se ele continuar em outra execução, as linhas são achadas pela posição. Não ordene nem apague linhas desta aba até ele terminar.',
    ];
  const batch = Math.max(1, Math.min(MAX_BATCH, Math.floor(request.batchSize ?? DEFAULT_BATCH)));
  const now = startedAt;
  const job: BulkJob = {
    id: String(sheet.id),
    operation: op.key,
    sheetId: sheet.id,
    sheetName: ctx.name,
    connection: request.connection,
    connectionId: request.connectionId,
    owner: request.owner,
    ranges,
    retry: [],
    keys,
    retryKeys: keys ? [] : undefined,
    pass: 0,
    cursor: 0,
    total: summary.total,
    counts: emptyCounts(),
    batchSize: batch,
    maxBatch: batch,
    status: 'running',
    warnings: summary.warnings,
    startedAt: now,
    updatedAt: now,
    steps: 0,
    ...(ctx.edits ? { edits: true } : {}),
  };
  saveJob(deps, job);
  deps.vouch?.(job);
  return step(deps, job, deadline, { ctx, prepared });
}

/** Counts a row that needs no request: already done, or done by this job in an execution whose checkpoint was lost. */
function countDone(job: BulkJob, ctx: Context, row: readonly CellValue[]): void {
  const at = cellAt(row, ctx.layout.results.processadoEm);
  const mine = at instanceof Date || Object.prototype.toString.call(at) === '[object Date]' ? (at as Date).getTime() >= job.startedAt : false;
  const status = statusOf(cellAt(row, ctx.layout.results.status));
  if (!mine) job.counts.skipped++;
  else if (status === STATUS.ok) job.counts.ok++;
  else job.counts.existing++;
}

/** Rows of a retry pass were counted PENDENTE by the pass before: their new outcome replaces that. */
function settlePending(job: BulkJob): void {
  if (job.pass > 0) job.counts.pending = Math.max(0, job.counts.pending - 1);
}

function count(job: BulkJob, result: RowResult): void {
  if (result.status === STATUS.ok) job.counts.ok++;
  else if (result.status === STATUS.jaExiste || result.status === STATUS.jaEmitida) job.counts.existing++;
  else if (result.status === STATUS.pendente) job.counts.pending++;
  else job.counts.failed++;
}

/**
 * One pass over the job's current rows until the deadline. Returns false when
 * the step must end (deadline, failure).
 */
function runPass(deps: BulkDeps, job: BulkJob, ctx: Context, deadline: number, prepared?: Prepared): boolean {
  const rows = expandRuns(job.ranges);
  if (job.cursor >= rows.length) return true;
  const { first, values } = prepared ?? readSpan(ctx.sheet, ctx.layout, rows.slice(job.cursor));
  // Validation already refused repeated keys; a later step checks again, in case the user typed one since.
  const duplicates = prepared ? null : sheetDuplicates(ctx);
  let client: BillingClient | undefined;
  const budget = new StepBudget(deps.now, { deadline, limit: deps.limit });
  let waveMs: number | undefined;
  while (job.cursor < rows.length) {
    if (budget.pastDeadline()) return false;
    const plan = planBatch({ now: deps.now(), deadline, width: job.batchSize, rowsLeft: rows.length - job.cursor, columns: ctx.layout.lastColumn, waveMs });
    // At its worst the batch's first wave is a lookup and a send that each time out, then its results are written;
    // each later wave checks the limit itself before it starts.
    const reserve = writeCostMs(plan.rows * 2, ctx.layout.lastColumn);
    const began = budget.startWave(reserve, 2);
    if (began === null) return false;
    let items: Item[] = [];
    /** Where in `rows` each item is: a batch cut short resumes at its first unsent row. */
    const at = new Map<number, number>();
    /** Rows needing no request, counted once the batch knows where it ends. */
    const done: Array<{ index: number; row: readonly CellValue[] }> = [];
    const invalid = new Map<number, RowResult>();
    /** Cells to colour: problems found here and refusals by the service. */
    const faults: RowIssue[] = [];
    const keys = new Map<number, CellValue>();
    /** Edits this push had already sent in an execution that ended before the snapshot took them. */
    const doneEarlier: number[] = [];
    let end = job.cursor;
    for (; end < rows.length && items.length < plan.rows && end - job.cursor < MAX_WINDOW; end++) {
      const r = rows[end];
      at.set(r, end);
      const row = values[r - first];
      const status = statusOf(cellAt(row, ctx.layout.results.status));
      if (isExample(ctx, row) || isBlankRow(ctx.layout.inputs, row)) continue;
      if (status !== STATUS.pendente && stillDone(ctx, row)) {
        if (awaitsNumber(ctx, row)) {
          const built = rowBuild(ctx, deps, row, r);
          if (built.key !== undefined) {
            items.push({ row: r, built, mode: 'lookup', reason: 'recheck', attempts: 0, was: status });
            continue;
          }
        }
        done.push({ index: end, row });
        if (ctx.edits) doneEarlier.push(r);
        continue;
      }
      const built = prepared?.built.get(r) ?? rowBuild(ctx, deps, row, r);
      const duplicate = duplicates?.get(r);
      if (duplicate && status !== STATUS.pendente) built.issues.push(duplicate);
      // An update is looked up too: re-reading the record tells whether the lost answer's write happened.
      const canLookUp = (ctx.op.identity !== 'idempotent' || ctx.op.pathId !== undefined) && built.key !== undefined;
      if (status === STATUS.pendente && canLookUp) {
        const at = cellAt(row, ctx.layout.results.processadoEm);
        const since = at instanceof Date || Object.prototype.toString.call(at) === '[object Date]' ? (at as Date).getTime() : undefined;
        items.push({ row: r, built, mode: 'lookup', reason: 'pendente', attempts: 0, since });
      } else if (built.issues.length) {
        invalid.set(r, { status: STATUS.erro, mensagem: issueText(built.issues), processadoEm: new Date(deps.now()) });
        faults.push(...built.issues);
      } else if (ctx.op.identity === 'idIntegracao' && !built.needsKey && !built.generated && status === '') {
        items.push({ row: r, built, mode: 'lookup', reason: 'precheck', attempts: 0 });
      } else {
        if (built.needsKey) {
          // Written into the row before sending: every later attempt carries the same key.
          built.key = deps.newId();
          built.body.idIntegracao = built.key;
          built.needsKey = false;
          keys.set(r, built.key);
        }
        items.push({ row: r, built, mode: 'send', reason: 'new', attempts: 0 });
      }
    }
    if (items.some((i) => i.built.find)) {
      client ??= deps.clientFor(job.connectionId ?? '');
      client.withLimit(budget.requestLimit(reserve));
      resolveCustomers(client, ctx, items, invalid, faults, deps.now());
      rememberCustomers(job, ctx);
      items = items.filter((i) => !invalid.has(i.row));
    }
    if (items.length) {
      if (keys.size) writeColumn(ctx.sheet, ctx.layout.inputs.idIntegracao, keys);
      const marks = new Map<number, RowResult>(
        items.filter((i) => i.reason !== 'recheck').map((i) => [i.row, { status: STATUS.pendente, mensagem: 'Enviando…', processadoEm: new Date(deps.now()) }]),
      );
      writeResults(ctx.sheet, ctx.layout, ctx.op, marks);
      deps.book.flush();
    }
    let cut = Number.POSITIVE_INFINITY;
    const results = new Map<number, RowResult>(invalid);
    let fatal: string | undefined;
    let pending: number[] = [];
    if (items.length) {
      client ??= deps.clientFor(job.connectionId ?? '');
      client.withLimit(budget.requestLimit(reserve));
      const sending = deps.now();
      const outcome = runGroups(client, ctx, items, {
        now: deps.now,
        sleep: deps.sleep,
        deadline,
        limit: budget.requestLimit(reserve),
        width: job.batchSize,
        safeResendMs: deps.safeResendMs,
      });
      if (outcome.waves > 0) waveMs = (deps.now() - sending) / outcome.waves;
      if (outcome.unsent.length) {
        // Their waves would not have ended in time: the rows go back to what they were, and the next step starts at the first.
        cut = Math.min(...outcome.unsent.map((r) => at.get(r) as number));
        const original = new Map<number, RowResult>();
        for (const r of outcome.unsent) original.set(r, cellsOf(ctx, values[r - first]));
        writeResults(ctx.sheet, ctx.layout, ctx.op, original);
        for (const r of outcome.unsent) outcome.results.delete(r);
      }
      const stamp = new Date(deps.now());
      // A row still PENDENTE keeps the time its outcome became unknown: the safe delay counts from there.
      const since = new Map(items.filter((i) => i.since !== undefined).map((i) => [i.row, i.since as number]));
      for (const [row, result] of outcome.results) {
        const keep = result.status === STATUS.pendente ? since.get(row) : undefined;
        results.set(row, { ...result, processadoEm: keep !== undefined ? new Date(keep) : stamp });
      }
      fatal = outcome.fatal;
      pending = outcome.pending;
      job.batchSize = outcome.rateLimited ? Math.max(1, Math.floor(job.batchSize / 2)) : Math.min(job.maxBatch, job.batchSize + 1);
    }
    // Rows past a cut are looked at again by the next batch: nothing of them is written or counted now.
    for (const row of [...results.keys()]) if ((at.get(row) as number) >= cut) results.delete(row);
    for (const d of done) {
      if (d.index >= cut) continue;
      settlePending(job);
      countDone(job, ctx, d.row);
    }
    writeResults(ctx.sheet, ctx.layout, ctx.op, results);
    for (const [row, result] of results) if (result.refused) faults.push(...refusalIssues(ctx.name, ctx.layout, ctx.op, row, result.mensagem));
    if (faults.length) {
      const faulty = new Set(faults.map((f) => f.row));
      highlight(ctx.sheet, ctx.layout, Math.min(...faulty), Math.max(...faulty), faulty, faults);
    }
    job.updatedAt = deps.now();
    if (fatal) {
      // Nothing of this batch is counted: "Continuar" runs it again, and its rows say what happened.
      job.status = 'failed';
      job.message = bounded(fatal, MESSAGE_MAX);
      saveJob(deps, job);
      return false;
    }
    if (ctx.edits) settleEdits(ctx, deps, items, results, doneEarlier, values, first);
    const rechecked = items.filter((i) => i.reason === 'recheck' && (at.get(i.row) as number) < cut).map((i) => i.row);
    for (const [row, result] of results) {
      settlePending(job);
      if (!rechecked.includes(row)) count(job, result);
    }
    // A done note looked up again for its number was done before this run: skipped, whatever the lookup found.
    for (const row of rechecked) {
      if (!results.has(row)) settlePending(job);
      job.counts.skipped++;
    }
    if (pending.length) {
      if (job.retryKeys) {
        const pairs = new Map<number, string>(expandRuns(job.retry).map((r, i) => [r, (job.retryKeys as string[])[i]]));
        for (const r of pending) pairs.set(r, keyAt(ctx, values[r - first]));
        const sorted = [...pairs].sort((a, b) => a[0] - b[0]);
        job.retryKeys = sorted.map(([, k]) => k);
      }
      job.retry = runsOf([...expandRuns(job.retry), ...pending]);
    }
    job.cursor = Math.min(end, cut);
    saveJob(deps, job);
    if (cut !== Number.POSITIVE_INFINITY) return false;
    budget.waveEnded(began);
  }
  return true;
}

/** Items of one batch, each under its row's operation (edits mix plano and personalizado updates). */
function runGroups(client: BillingClient, ctx: Context, items: Item[], options: Parameters<typeof runBatch>[3]): ReturnType<typeof runBatch> {
  const groups = new Map<BulkOperation, Item[]>();
  for (const item of items) {
    const op = ctx.rowOps?.get(item.row) ?? ctx.op;
    groups.set(op, [...(groups.get(op) ?? []), item]);
  }
  if (groups.size <= 1) return runBatch(client, groups.keys().next().value ?? ctx.op, items, options);
  const out: ReturnType<typeof runBatch> = { results: new Map(), pending: [], unsent: [], waves: 0, rateLimited: false };
  let following = false;
  for (const [op, group] of groups) {
    // A refused key or a 429 ends the whole batch, as it ends one operation's.
    if (out.fatal || out.rateLimited) {
      out.unsent.push(...group.map((i) => i.row));
      continue;
    }
    const o = runBatch(client, op, group, { ...options, following });
    following = true;
    for (const [row, result] of o.results) out.results.set(row, result);
    out.pending.push(...o.pending);
    out.unsent.push(...o.unsent);
    out.waves += o.waves;
    out.rateLimited ||= o.rateLimited;
    out.fatal ??= o.fatal;
  }
  return out;
}

/**
 * The snapshot takes what the service now holds for each row this push
 * updated, before the job moves past them: a push killed in between finds those
 * rows OK and settles them then, so a re-run sends nothing.
 */
function settleEdits(
  ctx: Context,
  deps: BulkDeps,
  items: readonly Item[],
  results: ReadonlyMap<number, RowResult>,
  doneEarlier: readonly number[],
  values: CellValue[][],
  first: number,
): void {
  const edits = ctx.edits as NonNullable<Context['edits']>;
  const idOf = (r: number) => String(cellAt(values[r - first], ctx.layout.inputs.idAssinaturaContrato)).trim();
  let changed = false;
  for (const item of items) {
    if (results.get(item.row)?.status !== STATUS.ok) continue;
    edits.plan.settle(idOf(item.row), ctx.rowOps?.get(item.row) ?? ctx.op, item.built.body);
    changed = true;
  }
  for (const r of doneEarlier) {
    const built = rowBuild(ctx, deps, values[r - first], r);
    if (built.issues.length) continue;
    edits.plan.settle(idOf(r), ctx.rowOps?.get(r) ?? ctx.op, built.body);
    changed = true;
  }
  if (changed) edits.store.save(edits.sheetId, edits.plan.snapshot);
}

/**
 * Rows that name their customer by CPF/CNPJ get its idCliente (each value looked
 * up once per run: the job keeps what it found); a row whose customer is not found, not alone or
 * inactive, or is not the one its "ID do cliente" says, is an error and is not sent.
 */
function resolveCustomers(client: BillingClient, ctx: Context, items: readonly Item[], invalid: Map<number, RowResult>, faults: RowIssue[], now: number): void {
  for (const { item, issue, id } of customerIssues(client, ctx, items)) {
    if (issue === null) {
      const field = (item.built.find as NonNullable<BuiltRow['find']>).field;
      if (item.built.body[field] === undefined) item.built.body[field] = id;
    } else if (item.reason !== 'pendente') {
      // A PENDENTE row may already be in the service: it is still looked up, never turned into an error here.
      invalid.set(item.row, { status: STATUS.erro, mensagem: issueText([issue]), processadoEm: new Date(now) });
      faults.push(issue);
    }
  }
}

/** Customers the job keeps between steps, at most this many (a run past it looks the rest up again each step). */
const REMEMBERED_CUSTOMERS = 2_000;

/**
 * Keeps the customers found so far in the job, so the next step of the same run
 * does not look them up again. What was not found is not kept: that row is an
 * error already, and a failed lookup is to be tried again.
 */
function rememberCustomers(job: BulkJob, ctx: Context): void {
  const found: Record<string, number> = { ...job.customers };
  let size = Object.keys(found).length;
  for (const [value, result] of ctx.customers ?? []) {
    if (size >= REMEMBERED_CUSTOMERS) break;
    if (result.ok && found[value] === undefined) {
      found[value] = result.id;
      size++;
    }
  }
  if (size > 0) job.customers = found;
}

/** At Validar: a customer not found, not alone, inactive or not the typed ID is the row's issue, like any other. */
function checkCustomers(client: BillingClient, ctx: Context, rows: ReadonlyArray<{ row: number; built: BuiltRow }>): void {
  for (const { item, issue } of customerIssues(client, ctx, rows)) if (issue) item.built.issues.push(issue);
}

/** Looks up each distinct CPF/CNPJ of `items` once in this execution; what each row's lookup says (null: the customer is found and agrees). */
function customerIssues<T extends { row: number; built: BuiltRow }>(
  client: BillingClient,
  ctx: Context,
  items: readonly T[],
): Array<{ item: T; issue: RowIssue | null; id: number | null }> {
  ctx.customers ??= new Map();
  const wanted = items.filter((i) => i.built.find);
  findCustomers(
    client,
    wanted.map((i) => (i.built.find as NonNullable<BuiltRow['find']>).value),
    ctx.customers,
  );
  return wanted.map((item) => {
    const find = item.built.find as NonNullable<BuiltRow['find']>;
    const found = (ctx.customers as Map<string, CustomerFound>).get(find.value) as CustomerFound;
    const typed = item.built.body[find.field];
    const problem = !found.ok
      ? found.message
      : typed !== undefined && typed !== found.id
        ? `o CPF/CNPJ ${formatCpfCnpj(find.value)} é do cliente ID ${found.id}, mas a coluna "ID do cliente" diz ${String(typed)}: corrija uma das duas ou deixe só uma preenchida`
        : null;
    return { item, issue: problem === null ? null : cellIssue(ctx.name, item.row, find.column, find.label, `${problem}.`), id: found.ok ? found.id : null };
  });
}

function finishMessage(job: BulkJob): string {
  const c = job.counts;
  const parts = [`${c.ok} ${c.ok === 1 ? 'linha enviada' : 'linhas enviadas'} com sucesso`];
  if (c.existing) parts.push(`${c.existing} já ${c.existing === 1 ? 'existia' : 'existiam'}`);
  if (c.skipped) parts.push(`${c.skipped} já ${c.skipped === 1 ? 'estava OK' : 'estavam OK'}`);
  if (c.failed) parts.push(`${c.failed} com erro`);
  if (c.pending) parts.push(`${c.pending} PENDENTE${c.pending === 1 ? '' : 'S'} (execute de novo para conferi-las)`);
  return `${parts.join(', ')}.`;
}

/** One step of a job, until `deadline` (epoch ms). A failed job continues from where it stopped ("Continuar"). */
export function continueBulk(deps: BulkDeps, jobId: string, deadline: number): BulkProgress {
  const job = deps.jobs.get(jobId);
  if (!job) throw new BulkError('Este lote não existe mais: comece de novo pela barra lateral.');
  return continueBulkJob(deps, job, deadline);
}

/** One step of a job the caller has read (the dispatcher reads every job at once). */
export function continueBulkJob(deps: BulkDeps, job: BulkJob, deadline: number): BulkProgress {
  if (job.status === 'done' || job.status === 'cancelled') return progressOf(job);
  return step(deps, job, deadline);
}

/** `started`: the context and rows a start just read, so its first step reads neither again. */
function step(deps: BulkDeps, job: BulkJob, deadline: number, started?: { ctx: Context; prepared: Prepared }): BulkProgress {
  job.status = 'running';
  job.message = undefined;
  job.steps++;
  try {
    let ctx = started?.ctx;
    if (!ctx) {
      const sheet = deps.book.byId(job.sheetId);
      if (!sheet) throw new BulkError(`A aba "${job.sheetName}" foi apagada: o lote foi interrompido.`);
      ctx = job.edits ? editContext(deps, sheet, job.owner, job.startedAt) : context(deps, bulkOperation(job.operation), sheet);
      relocate(job, ctx);
    }
    ctx.customers ??= new Map(Object.entries(job.customers ?? {}).map(([value, id]): [string, CustomerFound] => [value, { ok: true, id }]));
    let prepared = started?.prepared;
    for (;;) {
      const passDone = runPass(deps, job, ctx, deadline, prepared);
      prepared = undefined;
      if (!passDone) break;
      if (job.retry.length > 0 && job.pass + 1 < MAX_PASSES) {
        job.ranges = job.retry;
        job.retry = [];
        if (job.retryKeys) {
          job.keys = job.retryKeys;
          job.retryKeys = [];
        }
        job.pass++;
        job.cursor = 0;
        saveJob(deps, job);
        continue;
      }
      job.status = 'done';
      job.message = finishMessage(job);
      break;
    }
  } catch (err) {
    job.status = 'failed';
    job.message = bounded((err as Error).message, MESSAGE_MAX);
  }
  job.updatedAt = deps.now();
  saveJob(deps, job);
  return progressOf(job);
}

export function cancelBulk(deps: BulkDeps, jobId: string): BulkProgress {
  const job = deps.jobs.get(jobId);
  if (!job) throw new BulkError('Este lote não existe mais.');
  if (job.status === 'running' || job.status === 'failed') {
    job.status = 'cancelled';
    job.message = `Lote interrompido. ${finishMessage(job)} Linhas PENDENTES são conferidas antes de qualquer reenvio quando você executar de novo.`;
    job.updatedAt = deps.now();
    saveJob(deps, job);
  }
  return progressOf(job);
}

/** Rows whose Status is ERRO or PENDENTE, as A1 ranges to select. */
export function failedRanges(deps: BulkDeps, operation: WriteKey, sheetName: string): { sheetId: number; ranges: string[]; rows: number } {
  const op = bulkOperation(operation);
  const sheet = sheetOf(deps, sheetName);
  const layout = ensureLayout(sheet, op);
  const last = sheet.lastRow();
  if (last < 2) return { sheetId: sheet.id, ranges: [], rows: 0 };
  const statuses = sheet.read(2, layout.results.status, last - 1, 1);
  const rows: number[] = [];
  statuses.forEach(([s], i) => {
    const status = statusOf(s);
    if (status === STATUS.erro || status === STATUS.pendente) rows.push(i + 2);
  });
  return { sheetId: sheet.id, ranges: rowRangesA1(rows, layout.lastColumn), rows: rows.length };
}
