/**
 * A bulk run as a resumable job: each step finds the job's rows again wherever
 * they moved, runs passes over them until the deadline (pass.ts), and starts
 * another pass for the rows left PENDENTE, at most three in all. A failed job
 * continues from where it stopped ("Continuar"); a cancelled or done one only
 * reports.
 */
import { bounded, MESSAGE_MAX } from '../bounds';
import type { WriteKey } from '../../api/writes';
import { bulkOperation, STATUS, TO_FIX } from './definitions';
import { ensureLayout } from './headers';
import { statusOf } from './rows';
import { expandRuns, rowRangesA1, runsOf } from './sheet-io';
import { type Context, cellAt, firstFive, sheetContext, sheetOf } from './context';
import { editContext } from './edit-push';
import { keyField, labelOf, normKey, readSheet, type Span } from './row-plan';
import { knownCustomers } from './row-customers';
import { runPass } from './pass';
import { placeByMarks } from './lot-marks';
import { recordEnd } from './history-line';
import type { Prepared } from './validate';
import { type BulkDeps, BulkError, type BulkJob, type BulkProgress, MAX_PASSES, progressOf, saveJob } from './state';
import { plural } from '../../api/words';

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
export function step(deps: BulkDeps, job: BulkJob, deadline: number, started?: { ctx: Context; prepared: Prepared }): BulkProgress {
  job.status = 'running';
  job.message = undefined;
  job.steps++;
  try {
    const { ctx, read } = started ? { ctx: started.ctx, read: started.prepared } : resume(deps, job);
    ctx.customers ??= knownCustomers(job);
    let first: Span | Prepared | undefined = read;
    while (runPass(deps, job, ctx, deadline, first)) {
      first = undefined;
      if (!nextPass(deps, job)) {
        job.status = 'done';
        job.message = finishMessage(job);
        break;
      }
    }
  } catch (err) {
    job.status = 'failed';
    job.message = bounded((err as Error).message, MESSAGE_MAX);
  }
  job.updatedAt = deps.now();
  saveJob(deps, job);
  if (job.status === 'done') recordEnd(deps, job);
  return progressOf(job);
}

/**
 * The context of a job in a later execution, and its sheet read once, its rows found again in it. The rows done
 * in earlier steps are not read again: the read starts at the first row still to go, and takes the whole sheet
 * only when a row is no longer at or below where it was (rows deleted or sorted above it). A row above the read
 * that repeats a key of the job is no risk: the job's row under that key is the one found and sent, once.
 */
function resume(deps: BulkDeps, job: BulkJob): { ctx: Context; read: Span } {
  const sheet = deps.book.byId(job.sheetId);
  if (!sheet) throw new BulkError(`A aba "${job.sheetName}" foi apagada: o lote foi interrompido.`);
  const ctx = job.edits ? editContext(deps, sheet, job.owner, job.startedAt) : sheetContext(deps, bulkOperation(job.operation), sheet);
  placeByMarks(sheet, job);
  // A job without keys or marks (started before them) finds its rows by number: those past the sheet's end now are read blank.
  const through = job.ranges[job.ranges.length - 1]?.[1];
  const from = Math.min(expandRuns(job.ranges)[job.cursor] ?? Number.POSITIVE_INFINITY, job.retry[0]?.[0] ?? Number.POSITIVE_INFINITY);
  // A job without keys refuses a key typed twice anywhere in the sheet before sending: it reads every row.
  let read = readSheet(sheet, ctx.layout, through, job.keys ? from : 2);
  if (job.keys && read.first > 2 && !holdsRows([...job.keys.slice(job.cursor), ...(job.retryKeys ?? [])], ctx, read))
    read = readSheet(sheet, ctx.layout, through);
  relocate(job, ctx, read);
  return { ctx, read };
}

/** Whether the row of each of `keys` (those a job still has to settle) is in `read`. */
function holdsRows(keys: readonly string[], ctx: Context, read: Span): boolean {
  const column = ctx.layout.inputs[keyField(ctx.op)];
  const present = new Set(read.values.map((row) => normKey(cellAt(row, column))));
  return keys.every((k) => k === '-' || k === '' || present.has(k));
}

/** The rows left PENDENTE become the next pass, while passes are left; false when the job is done. */
function nextPass(deps: BulkDeps, job: BulkJob): boolean {
  if (job.retry.length === 0 || job.pass + 1 >= MAX_PASSES) return false;
  job.ranges = job.retry;
  job.retry = [];
  if (job.retryKeys) {
    job.keys = job.retryKeys;
    job.retryKeys = [];
  }
  job.pass++;
  job.cursor = 0;
  saveJob(deps, job);
  return true;
}

/**
 * Finds each remaining row of the job by its key wherever the user (or a
 * refresh of an imported sheet) moved it since the last step. A row whose key
 * is gone is reported, never replaced by whatever sits at its old number.
 */
function relocate(job: BulkJob, ctx: Context, read: Span): void {
  if (!job.keys) return;
  const field = keyField(ctx.op);
  const column = ctx.layout.inputs[field];
  const found = new Map<string, number>();
  read.values.forEach((row, i) => {
    const k = normKey(cellAt(row, column));
    if (k && !found.has(k)) found.set(k, i + read.first);
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
  if (lost.length) job.warnings = [...job.warnings, lostRows(ctx, field, lost)];
}

function lostRows(ctx: Context, field: string, lost: readonly string[]): string {
  const label = labelOf(ctx.op, field);
  const one = lost.length === 1;
  return `${one ? 'Uma linha saiu' : `${plural(lost.length, 'linha saiu', 'linhas saíram')}`} da aba durante o lote e não ${one ? 'foi processada' : 'foram processadas'} (${label} ${firstFive(lost)}).`;
}

function finishMessage(job: BulkJob): string {
  const c = job.counts;
  const parts = [`${plural(c.ok, 'linha enviada', 'linhas enviadas')} com sucesso`];
  if (c.existing) parts.push(plural(c.existing, 'já existia', 'já existiam'));
  if (c.skipped) parts.push(plural(c.skipped, 'já estava OK', 'já estavam OK'));
  if (c.failed) parts.push(`${c.failed.toLocaleString('pt-BR')} com erro`);
  if (c.pending) parts.push(`${plural(c.pending, 'PENDENTE', 'PENDENTES')} (execute de novo para conferi-las)`);
  return `${parts.join(', ')}.`;
}

export function cancelBulk(deps: BulkDeps, jobId: string): BulkProgress {
  const job = deps.jobs.get(jobId);
  if (!job) throw new BulkError('Este lote não existe mais.');
  if (job.status === 'running' || job.status === 'failed') {
    job.status = 'cancelled';
    job.message = `Lote interrompido. ${finishMessage(job)} Linhas PENDENTES são conferidas antes de qualquer reenvio quando você executar de novo.`;
    job.updatedAt = deps.now();
    saveJob(deps, job);
    recordEnd(deps, job);
  }
  return progressOf(job);
}

/** Rows whose Status is ERRO or PENDENTE, or whose problem Validar wrote, as A1 ranges to select ("ir para as linhas com erro"). */
export function failedRanges(deps: BulkDeps, operation: WriteKey, sheetName: string): { sheetId: number; ranges: string[]; rows: number } {
  const op = bulkOperation(operation);
  const sheet = sheetOf(deps, sheetName);
  const layout = ensureLayout(sheet, op);
  const last = sheet.lastRow();
  if (last < 2) return { sheetId: sheet.id, ranges: [], rows: 0 };
  const statuses = sheet.read(2, layout.results.status, last - 1, 1);
  const messages = sheet.read(2, layout.results.mensagem, last - 1, 1);
  const rows: number[] = [];
  statuses.forEach(([s], i) => {
    const status = statusOf(s);
    if (status === STATUS.erro || status === STATUS.pendente || String(messages[i][0]).startsWith(TO_FIX)) rows.push(i + 2);
  });
  return { sheetId: sheet.id, ranges: rowRangesA1(rows, layout.lastColumn), rows: rows.length };
}
