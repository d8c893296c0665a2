/**
 * One pass over a job's rows, batch after batch until the step's deadline.
 * Each batch is classified (what each of its rows is), marked (generated keys
 * written, every row about to be sent marked PENDENTE and flushed before any
 * request leaves), sent (lookups and sends, each row under its own operation)
 * and applied (results written, rows whose wave never started put back as
 * they were, counts, the retry list, the checkpoint).
 */
import type { BillingClient } from '../../api/client';
import { bounded, MESSAGE_MAX } from '../bounds';
import { StepBudget, writeCostMs } from '../deadline';
import type { CellValue } from '../sheets/table';
import { type BatchOptions, type BatchOutcome, type Item, runBatch } from './batch';
import { type BulkOperation, STATUS } from './definitions';
import { planBatch } from './planner';
import { issueText, type RowIssue, statusOf } from './rows';
import { expandRuns, highlight, refusalIssues, type RowResult, runsOf, writeColumn, writeResults } from './sheet-io';
import { type Context, cellAt, type ReadRow, type RowRequest, type SentRow, writtenSince } from './context';
import { cellsOf, classifyRow, giveKey, keyAt, type RowPlan, readSheet, type Span, sheetDuplicates } from './row-plan';
import { rememberCustomers, resolveCustomers } from './row-customers';
import { asConfirmed, changedIssue } from './confirmed';
import { settleMarks } from './lot-marks';
import type { Prepared } from './validate';
import { type BulkDeps, type BulkJob, MAX_WINDOW, saveJob } from './state';

/** A request of a batch, under its row's operation. */
type Planned = Item & { op: BulkOperation };

interface Pass {
  deps: BulkDeps;
  job: BulkJob;
  ctx: Context;
  /** The pass's rows, in order; the job's cursor is an index into them. */
  rows: number[];
  span: Span;
  /** Rows a validation built in this execution. */
  built?: ReadonlyMap<number, RowRequest>;
  duplicates?: ReadonlyMap<number, RowIssue>;
  budget: StepBudget;
  client?: BillingClient;
  /** What one wave took so far in this step, once measured. */
  waveMs?: number;
}

interface Batch {
  items: Planned[];
  /** Where in the pass's rows each row is: a batch cut short resumes at its first unsent row. */
  at: Map<number, number>;
  /** Rows needing no request, counted once the batch knows where it ends. */
  done: Array<ReadRow & { index: number }>;
  invalid: Map<number, RowResult>;
  /** Cells to colour: problems found here and refusals by the service. */
  faults: RowIssue[];
  /** Keys generated for rows about to be sent. */
  keys: Map<number, CellValue>;
  /** Index of the first row after the batch. */
  end: number;
}

/**
 * One pass over the job's current rows until the deadline. Returns false when the step must end (deadline, failure).
 * `read`: the sheet as this execution just read it (readSheet), and the rows a start's validation built.
 */
export function runPass(deps: BulkDeps, job: BulkJob, ctx: Context, deadline: number, read?: Span | Prepared): boolean {
  const rows = expandRuns(job.ranges);
  if (job.cursor >= rows.length) return true;
  const span: Span & Partial<Prepared> = read ?? readSheet(ctx.sheet, ctx.layout, rows[rows.length - 1]);
  const pass: Pass = {
    deps,
    job,
    ctx,
    rows,
    span,
    built: span.built,
    // Validation already refused repeated keys; a later step checks again, in case the user typed one since.
    duplicates: span.built ? undefined : sheetDuplicates(ctx, span),
    budget: new StepBudget(deps.now, { deadline, limit: deps.limit }),
  };
  while (job.cursor < rows.length) {
    if (pass.budget.pastDeadline()) return false;
    const size = planBatch({
      now: deps.now(),
      deadline,
      width: job.batchSize,
      rowsLeft: rows.length - job.cursor,
      columns: ctx.layout.lastColumn,
      waveMs: pass.waveMs,
    });
    // At its worst the batch's first wave is a lookup and a send that each time out, then its results are written;
    // each later wave checks the limit itself before it starts.
    const reserve = writeCostMs(size.rows * 2, ctx.layout.lastColumn);
    const began = pass.budget.startWave(reserve, 2);
    if (began === null) return false;
    const batch = classify(pass, size.rows, reserve);
    mark(pass, batch);
    if (!apply(pass, batch, send(pass, batch, reserve))) return false;
    // The checkpoint of a batch after which the pass or the step ends is the caller's next save: nothing comes between.
    if (job.cursor < rows.length && !pass.budget.pastDeadline()) saveJob(deps, job);
    pass.budget.waveEnded(began);
  }
  return true;
}

const clientOf = (pass: Pass): BillingClient => (pass.client ??= pass.deps.clientFor(pass.job.connectionId ?? ''));

/** The rows from the cursor until `size` of them need a request (or the window is full), and what each is. */
function classify(pass: Pass, size: number, reserve: number): Batch {
  const { job, ctx, rows, span } = pass;
  const batch: Batch = { items: [], at: new Map(), done: [], invalid: new Map(), faults: [], keys: new Map(), end: job.cursor };
  for (; batch.end < rows.length && batch.items.length < size && batch.end - job.cursor < MAX_WINDOW; batch.end++) {
    const r = rows[batch.end];
    batch.at.set(r, batch.end);
    const row = span.values[r - span.first];
    take(pass, batch, { r, row }, classifyRow(ctx, row, r, { made: pass.built?.get(r), duplicate: pass.duplicates?.get(r), keyPrefix: job.keyPrefix }));
  }
  if (batch.items.some((i) => i.built.find)) {
    const client = clientOf(pass).withLimit(pass.budget.requestLimit(reserve));
    resolveCustomers(client, ctx, batch.items, batch.invalid, batch.faults, pass.deps.now());
    rememberCustomers(job, ctx);
    batch.items = batch.items.filter((i) => !batch.invalid.has(i.row));
  }
  return batch;
}

/** A row into the batch by what it is: counted once the batch ends, refused now, or a request (a blank key gets one). */
function take({ deps, job, ctx }: Pass, batch: Batch, { r, row }: ReadRow, plan: RowPlan): void {
  if (plan.is === 'blank') return;
  // A row about to be sent that differs from what its owner confirmed is not sent; one sent before is still settled, never sent again.
  const changed = plan.is !== 'done' && plan.is !== 'invalid' && !asConfirmed(job.confirmed, ctx, row, plan);
  if (plan.is === 'done') batch.done.push({ index: batch.end, r, row });
  else if (plan.is === 'invalid' || (changed && (plan.is === 'send' || plan.reason === 'precheck'))) {
    const issues = changed ? [changedIssue(ctx, r)] : plan.built.issues;
    batch.invalid.set(r, { status: STATUS.erro, mensagem: issueText(issues), processadoEm: new Date(deps.now()) });
    batch.faults.push(...issues);
  } else if (plan.is === 'lookup') {
    const item: Planned = { row: r, built: plan.built, op: plan.op, mode: 'lookup', reason: plan.reason, attempts: 0, since: plan.since, was: plan.was };
    if (changed && plan.reason !== 'recheck') item.changed = changedIssue(ctx, r).message;
    batch.items.push({ ...item, merge: plan.merge });
  } else if (plan.merge) {
    batch.items.push({ row: r, built: plan.built, op: plan.op, mode: 'lookup', reason: 'base', attempts: 0, merge: plan.merge });
  } else {
    if (plan.built.needsKey) {
      giveKey(plan.built, deps.newId());
      batch.keys.set(r, plan.built.key as string);
    }
    batch.items.push({ row: r, built: plan.built, op: plan.op, mode: 'send', reason: 'new', attempts: 0 });
  }
}

/** Generated keys written and every row about to be sent marked PENDENTE, flushed before any request leaves. */
function mark({ deps, ctx }: Pass, batch: Batch): void {
  if (batch.items.length === 0) return;
  writeColumn(ctx.sheet, ctx.layout.inputs.idIntegracao, batch.keys);
  const marks = new Map<number, RowResult>(
    batch.items
      .filter((i) => i.reason !== 'recheck')
      .map((i) => [i.row, { status: STATUS.pendente, mensagem: 'Enviando…', processadoEm: new Date(deps.now()) }]),
  );
  writeResults(ctx.sheet, ctx.layout, ctx.op, marks);
  deps.book.flush();
}

/** The batch's lookups and sends; the next batch is as wide as the service allows (halved after a 429). */
function send(pass: Pass, batch: Batch, reserve: number): BatchOutcome | null {
  if (batch.items.length === 0) return null;
  const { deps, job, budget } = pass;
  const limit = budget.requestLimit(reserve);
  const client = clientOf(pass).withLimit(limit);
  const sending = deps.now();
  const outcome = runGroups(client, batch.items, {
    now: deps.now,
    sleep: deps.sleep,
    deadline: budget.deadline,
    limit,
    width: job.batchSize,
    safeResendMs: deps.safeResendMs,
  });
  if (outcome.waves > 0) pass.waveMs = (deps.now() - sending) / outcome.waves;
  job.batchSize = outcome.rateLimited ? Math.max(1, Math.floor(job.batchSize / 2)) : Math.min(job.maxBatch, job.batchSize + 1);
  return outcome;
}

/** Items of one batch, each under its row's operation (edits mix plano and personalizado updates). */
function runGroups(client: BillingClient, items: readonly Planned[], options: BatchOptions): BatchOutcome {
  const groups = new Map<BulkOperation, Planned[]>();
  for (const item of items) groups.set(item.op, [...(groups.get(item.op) ?? []), item]);
  const out: BatchOutcome = { results: new Map(), pending: [], unsent: [], waves: 0, rateLimited: false };
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
 * Writes what the batch learnt and counts it, leaving the checkpoint to the pass or its caller. Returns false when the
 * step must end (a failure, saved here, or waves that never started).
 */
function apply(pass: Pass, batch: Batch, outcome: BatchOutcome | null): boolean {
  const { deps, job, ctx } = pass;
  const cut = outcome ? putBack(pass, batch, outcome) : Number.POSITIVE_INFINITY;
  const results = new Map<number, RowResult>(batch.invalid);
  if (outcome) stamped(pass, batch, outcome, results);
  // Rows past a cut are looked at again by the next batch: nothing of them is written or counted now.
  const before = (row: number) => (batch.at.get(row) as number) < cut;
  for (const row of [...results.keys()]) if (!before(row)) results.delete(row);
  for (const d of batch.done) if (d.index < cut) countDone(job, ctx, d.row);
  writeResults(ctx.sheet, ctx.layout, ctx.op, results);
  colour(ctx, results, batch.faults);
  job.updatedAt = deps.now();
  if (outcome?.fatal) {
    // Nothing of this batch is counted: "Continuar" runs it again, and its rows say what happened.
    job.status = 'failed';
    job.message = bounded(outcome.fatal, MESSAGE_MAX);
    saveJob(deps, job);
    return false;
  }
  const sent = batch.items.filter((i) => results.get(i.row)?.status === STATUS.ok);
  ctx.kind.settle(
    ctx,
    sent.map((i): SentRow => ({ r: i.row, row: rowAt(pass, i.row), op: i.op, body: i.built.body })),
    batch.done,
  );
  countResults(job, batch, results, before);
  if (outcome) retryLater(pass, outcome.pending);
  forgetSettled(pass, batch, results, cut);
  settleMarks(ctx.sheet, job, pass.rows.slice(job.cursor, Math.min(batch.end, cut)), new Set(outcome?.pending));
  job.cursor = Math.min(batch.end, cut);
  return cut === Number.POSITIVE_INFINITY;
}

/**
 * A row settled for good (done, or written with an outcome other than PENDENTE) is never sent by this run
 * again: its confirmation goes, so the job saved after each batch shrinks as the run goes on. A row left
 * PENDENTE keeps it for the lookup that settles it.
 */
function forgetSettled(pass: Pass, batch: Batch, results: ReadonlyMap<number, RowResult>, cut: number): void {
  const confirmed = pass.job.confirmed;
  if (!confirmed) return;
  const settled = [...results].filter(([, result]) => result.status !== STATUS.pendente).map(([r]) => r);
  for (const d of batch.done) if (d.index < cut) settled.push(d.r);
  for (const r of settled) delete confirmed[keyAt(pass.ctx, rowAt(pass, r))];
}

const rowAt = ({ span }: Pass, r: number): readonly CellValue[] => span.values[r - span.first];

/** Rows whose waves would not have ended in time go back to what they were; the batch is cut at the first of them. */
function putBack(pass: Pass, batch: Batch, outcome: BatchOutcome): number {
  const { ctx } = pass;
  const original = new Map<number, RowResult>();
  for (const r of outcome.unsent) original.set(r, cellsOf(ctx, rowAt(pass, r)));
  writeResults(ctx.sheet, ctx.layout, ctx.op, original);
  for (const r of outcome.unsent) outcome.results.delete(r);
  return Math.min(...outcome.unsent.map((r) => batch.at.get(r) as number));
}

/** The service's answers, stamped now; a row still PENDENTE keeps the time its outcome became unknown (the safe delay counts from there). */
function stamped({ deps }: Pass, batch: Batch, outcome: BatchOutcome, results: Map<number, RowResult>): void {
  const now = new Date(deps.now());
  const since = new Map(batch.items.map((i) => [i.row, i.since]));
  for (const [row, result] of outcome.results) {
    const keep = result.status === STATUS.pendente ? since.get(row) : undefined;
    results.set(row, { ...result, processadoEm: keep !== undefined ? new Date(keep) : now });
  }
}

function colour(ctx: Context, results: ReadonlyMap<number, RowResult>, faults: RowIssue[]): void {
  for (const [row, result] of results) if (result.refused) faults.push(...refusalIssues(ctx.name, ctx.layout, ctx.op, row, result.mensagem));
  const faulty = new Set(faults.map((f) => f.row));
  highlight(ctx.sheet, ctx.layout, Math.min(...faulty), Math.max(...faulty), faulty, faults);
}

/** Rows of a retry pass were counted PENDENTE by the pass before: their new outcome replaces that. */
function settlePending(job: BulkJob): void {
  if (job.pass > 0) job.counts.pending = Math.max(0, job.counts.pending - 1);
}

/** A row that needed no request: already done, or done by this job in an execution whose checkpoint was lost. */
function countDone(job: BulkJob, ctx: Context, row: readonly CellValue[]): void {
  settlePending(job);
  const mine = writtenSince(cellAt(row, ctx.layout.results.processadoEm), job.startedAt);
  if (!mine) job.counts.skipped++;
  else if (statusOf(cellAt(row, ctx.layout.results.status)) === STATUS.ok) job.counts.ok++;
  else job.counts.existing++;
}

function countResults(job: BulkJob, batch: Batch, results: ReadonlyMap<number, RowResult>, before: (row: number) => boolean): void {
  const rechecked = batch.items.filter((i) => i.reason === 'recheck' && before(i.row)).map((i) => i.row);
  for (const [row, result] of results) {
    settlePending(job);
    if (rechecked.includes(row)) continue;
    if (result.status === STATUS.ok) job.counts.ok++;
    else if (result.status === STATUS.jaExiste || result.status === STATUS.jaEmitida) job.counts.existing++;
    else if (result.status === STATUS.pendente) job.counts.pending++;
    else job.counts.failed++;
  }
  // A done note looked up again for its number was done before this run: skipped, whatever the lookup found.
  for (const row of rechecked) {
    if (!results.has(row)) settlePending(job);
    job.counts.skipped++;
  }
}

/** Rows left PENDENTE go to the next pass, their keys kept in row order. */
function retryLater(pass: Pass, pending: readonly number[]): void {
  const { job, ctx } = pass;
  if (job.retryKeys) {
    const keys = job.retryKeys;
    const pairs = new Map<number, string>(expandRuns(job.retry).map((r, i) => [r, keys[i]]));
    for (const r of pending) pairs.set(r, keyAt(ctx, rowAt(pass, r)));
    job.retryKeys = [...pairs].sort((a, b) => a[0] - b[0]).map(([, k]) => k);
  }
  job.retry = runsOf([...expandRuns(job.retry), ...pending]);
}
