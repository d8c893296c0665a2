/** Server side of the Lançamentos em lote sidebar. */
import type { WriteKey } from '../api/writes';
import { ConnectionError } from '../core/connections';
import { bulkOperations } from '../core/bulk/definitions';
import { guessOperation, LayoutError } from '../core/bulk/headers';
import {
  BulkError,
  type BulkProgress,
  cancelBulk,
  continueBulk,
  DEFAULT_BATCH,
  failedRanges,
  progressOf,
  startBulk,
  type ValidationSummary,
  validateSheet,
} from '../core/bulk/job';
import { createTemplate, type TemplateResult } from '../core/bulk/template';
import { bulkDeps } from './deps';
import { syncDispatcher } from './dispatcher';
import { BusyError, withDocumentLock } from './lock';
import type { Outcome } from './outcome';
import { connectionStore } from './services';
import { showSidebar } from './ui';
import { recordUsage } from './usage';

/** A sidebar step stays short so progress shows; the sidebar calls again at once. */
const STEP_MS = 25_000;
/** Longest step a caller may ask for: well inside the 6-minute limit, with room for the last batch. */
const MAX_STEP_MS = 4.5 * 60_000;

export function showBulk(): void {
  showSidebar('Lote', 'Lançamentos em lote');
}

/** Problems a user can fix become a message; anything else is a bug and is thrown. */
function outcome<T>(work: () => T): Outcome<T> {
  try {
    return { ok: true, value: work() };
  } catch (err) {
    if (err instanceof BulkError || err instanceof LayoutError || err instanceof BusyError || err instanceof ConnectionError)
      return { ok: false, message: err.message };
    throw err;
  }
}

export interface BulkForm {
  operation: WriteKey;
  sheetName: string;
  connection: string;
  scope: 'all' | 'selected';
  batchSize?: number;
  /** Step length in seconds (sidebar: short steps; a caller may ask for up to 270). */
  stepSeconds?: number;
}

function stepDeadline(seconds?: number): number {
  const ms = seconds ? Math.min(MAX_STEP_MS, Math.max(5_000, seconds * 1000)) : STEP_MS;
  return Date.now() + ms;
}

export function getBulkForm() {
  const deps = bulkDeps();
  const selection = deps.book.selection();
  const active = deps.book.byId(selection.sheetId);
  const guessed = active ? guessOperation(active) : null;
  return {
    operations: Object.values(bulkOperations).map((op) => ({ key: op.key, label: op.label, sheetName: op.sheetName })),
    connections: connectionStore()
      .list()
      .map((c) => ({ name: c.name, isDefault: c.isDefault })),
    sheets: deps.book.sheetNames(),
    activeSheet: selection.sheetName,
    guessed,
    // Issuing notes from a pulled Faturas sheet: one click must not issue one for every invoice in it.
    suggestSelected: guessed === 'emitirNfse' && selection.sheetName !== bulkOperations.emitirNfse.sheetName,
    batchSize: DEFAULT_BATCH,
    jobs: deps.jobs
      .list()
      .filter((j) => j.status === 'running' || j.status === 'failed')
      .map(progressOf),
  };
}

export function createBulkTemplate(operation: WriteKey): Outcome<TemplateResult> {
  return outcome(() => {
    const deps = bulkDeps();
    const op = bulkOperations[operation];
    if (!op) throw new BulkError('Escolha a operação do modelo.');
    return createTemplate(deps.book, op, deps.zone);
  });
}

export function validateBulk(form: BulkForm): Outcome<ValidationSummary> {
  return outcome(() => withDocumentLock(() => validateSheet(bulkDeps(), form)));
}

export function startBulkRun(form: BulkForm): Outcome<BulkProgress> {
  const started = outcome(() => withDocumentLock(() => startBulk(bulkDeps(), form, stepDeadline(form.stepSeconds))));
  // If the sidebar is closed before the end, the hourly dispatcher finishes the run.
  syncDispatcher();
  recordUsage();
  return started;
}

/** A finished run may leave the dispatcher with nothing to do. */
function settled(result: Outcome<BulkProgress>): Outcome<BulkProgress> {
  recordUsage();
  if (result.ok && result.value.done) syncDispatcher({ mayCreate: false });
  return result;
}

export function continueBulkRun(jobId: string, stepSeconds?: number): Outcome<BulkProgress> {
  return settled(outcome(() => withDocumentLock(() => continueBulk(bulkDeps(), jobId, stepDeadline(stepSeconds)))));
}

export function cancelBulkRun(jobId: string): Outcome<BulkProgress> {
  return settled(outcome(() => withDocumentLock(() => cancelBulk(bulkDeps(), jobId))));
}

/** Selects the rows whose Status is ERRO or PENDENTE. */
export function showBulkFailures(operation: WriteKey, sheetName: string): Outcome<{ rows: number }> {
  return outcome(() => {
    const deps = bulkDeps();
    const found = failedRanges(deps, operation, sheetName);
    if (found.rows > 0) deps.book.activate(found.sheetId, found.ranges);
    return { rows: found.rows };
  });
}
