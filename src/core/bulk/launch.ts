/**
 * Starting a run: Executar on a sheet, or a push of an imported sheet's edits.
 * Every row of the scope is validated and its problems written, each valid row
 * gets its generated key in one write, the job is saved and vouched for before
 * anything is sent, and its first step goes on with what the start just read.
 */
import type { Owner } from '../trust/owners';
import type { MarkupSheetPort } from '../sheets/sheet-port';
import { bulkOperation } from './definitions';
import { EDIT_LABEL } from './edits';
import { expandRuns, runsOf, writeColumn } from './sheet-io';
import { type Context, scopeRows, sheetContext, sheetOf } from './context';
import { editPush } from './edit-push';
import { giveKey, keyAt } from './row-plan';
import { confirmRows } from './confirmed';
import { lotMark, markLot } from './lot-marks';
import { customerLookup, type Prepared, validateRows } from './validate';
import { step } from './job';
import {
  type BulkDeps,
  BulkError,
  type BulkJob,
  type BulkProgress,
  type BulkRequest,
  type Confirmed,
  DEFAULT_BATCH,
  emptyCounts,
  MAX_BATCH,
  MAX_KEYS_CHARS,
  progressOf,
  saveJob,
} from './state';
import { plural } from '../../api/words';

/** Validates every row, writes the problems, then starts sending the valid ones. */
export function startBulk(deps: BulkDeps, request: BulkRequest, deadline: number): BulkProgress {
  const op = bulkOperation(request.operation);
  const sheet = sheetOf(deps, request.sheetName);
  const busy = running(deps, sheet);
  if (busy) return busy;
  if (!request.connection) throw new BulkError('Escolha a conexão (a organização) para onde as linhas serão enviadas.');
  const ctx = sheetContext(deps, op, sheet);
  return launch(deps, request, ctx, scopeRows(deps, sheet, request.scope), deadline);
}

/** A job already running on the sheet goes on instead of a new one. */
function running(deps: BulkDeps, sheet: MarkupSheetPort): BulkProgress | null {
  const existing = deps.jobs.get(String(sheet.id));
  if (existing?.status !== 'running') return null;
  return {
    ...progressOf(existing),
    message: `Já há um lote em andamento nesta aba (${existing.counts.ok + existing.counts.existing + existing.counts.skipped + existing.counts.failed} de ${plural(existing.total, 'linha', 'linhas')}). Ele continua de onde parou; espere terminar para começar outro.`,
  };
}

/**
 * Sends the rows of an imported sheet that differ from what was last pulled,
 * as updates, with the bulk run's validation, statuses beside the rows,
 * lookups of uncertain outcomes and resumption (edit-push.ts): exactly the
 * rows and values of the preview the owner saw (`preview`, its token).
 */
export function startEditPush(
  deps: BulkDeps,
  request: { sheetName: string; owner?: Owner; batchSize?: number; preview?: string },
  deadline: number,
): BulkProgress {
  const sheet = sheetOf(deps, request.sheetName);
  const busy = running(deps, sheet);
  if (busy) return busy;
  const now = deps.now();
  const { ctx, rows, confirmed, connectionId, nothing } = editPush(deps, sheet, request.owner, now, request.preview);
  if (nothing !== undefined) {
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
      counts: emptyCounts(),
      message: nothing,
      warnings: [],
    };
  }
  return launch(deps, { connection: '', connectionId, owner: request.owner, batchSize: request.batchSize }, ctx, runsOf(rows), deadline, now, confirmed);
}

/**
 * Every valid row without a key gets one now, in one write: from here on each row is known by its key.
 * Returns what the generated keys share and no other key of `rows` starts with (see BulkJob.keyPrefix).
 */
function generateKeys(deps: BulkDeps, ctx: Context, prepared: Prepared, rows: readonly number[]): string | undefined {
  // Only creations lack keys, and their sheets always have the column (headers.ts adds it).
  const keyColumn = ctx.layout.inputs.idIntegracao;
  const fresh = new Map<number, string>();
  for (const [r, { built }] of prepared.built) {
    if (!built.needsKey || built.issues.length) continue;
    const key = deps.newId();
    giveKey(built, key);
    built.generated = true;
    fresh.set(r, key);
    prepared.values[r - prepared.first][keyColumn - 1] = key;
  }
  writeColumn(ctx.sheet, keyColumn, fresh);
  const prefix = sharedPrefix([...fresh.values()]);
  const typed = rows.filter((r) => !fresh.has(r)).map((r) => keyAt(ctx, prepared.values[r - prepared.first]));
  return prefix && !typed.some((k) => k.startsWith(prefix)) ? prefix : undefined;
}

/** The longest start all `keys` share ('' when they share none, undefined when there are none). */
function sharedPrefix(keys: readonly string[]): string | undefined {
  if (keys.length === 0) return undefined;
  let prefix = keys[0];
  for (const k of keys) while (!k.startsWith(prefix)) prefix = prefix.slice(0, -1);
  return prefix;
}

/** Validates the rows of `ranges`, writes their problems, then starts sending the valid ones. */
function launch(
  deps: BulkDeps,
  request: Pick<BulkRequest, 'connection' | 'connectionId' | 'owner' | 'batchSize'>,
  ctx: Context,
  ranges: Array<[number, number]>,
  deadline: number,
  startedAt = deps.now(),
  previewed?: Confirmed,
): BulkProgress {
  const { summary, prepared } = validateRows(deps, ctx, ranges, customerLookup(deps, ctx, request.connectionId ?? ''));
  const rows = expandRuns(ranges);
  const keyPrefix = generateKeys(deps, ctx, prepared, rows);
  // What the owner confirmed: this send (Confirmar envio), or the preview they saw.
  const confirmed = previewed ?? confirmRows(ctx, rows, prepared);
  const rowKeys = rows.map((r) => keyAt(ctx, prepared.values[r - prepared.first]));
  const keys = rowKeys.reduce((n, k) => n + k.length + 3, 0) <= MAX_KEYS_CHARS ? rowKeys : undefined;
  const mark = keys ? undefined : lotMark(startedAt);
  if (mark) {
    markLot(ctx.sheet, mark, rows);
    summary.warnings = [
      ...summary.warnings,
      'Lote grande: a coluna "Lote em andamento (não editar)" marca cada linha até o resultado dela ser escrito. Pode ordenar as linhas; não apague essa coluna até o lote terminar.',
    ];
  }
  const batch = Math.max(1, Math.min(MAX_BATCH, Math.floor(request.batchSize ?? DEFAULT_BATCH)));
  const job: BulkJob = {
    id: String(ctx.sheet.id),
    operation: ctx.op.key,
    sheetId: ctx.sheet.id,
    sheetName: ctx.name,
    connection: request.connection,
    connectionId: request.connectionId,
    owner: request.owner,
    ranges,
    retry: [],
    keys,
    retryKeys: keys ? [] : undefined,
    mark,
    keyPrefix,
    confirmed,
    pass: 0,
    cursor: 0,
    total: summary.total,
    counts: emptyCounts(),
    batchSize: batch,
    maxBatch: batch,
    status: 'running',
    warnings: summary.warnings,
    startedAt,
    updatedAt: startedAt,
    steps: 0,
    ...ctx.kind.stored,
  };
  saveJob(deps, job);
  deps.vouch?.(job);
  return step(deps, job, deadline, { ctx, prepared });
}
