/** Server side of the Lançamentos em lote sidebar (src/ui/client/lote.ts); its runs, edit pushes included, step here. */
import type { WriteKey } from '../api/writes';
import { bulkOperations } from '../core/bulk/definitions';
import { guessOperation } from '../core/bulk/headers';
import { cancelBulk, continueBulk, failedRanges } from '../core/bulk/job';
import { startBulk } from '../core/bulk/launch';
import { BulkError, type BulkJob, type BulkProgress, DEFAULT_BATCH, progressOf } from '../core/bulk/state';
import { type ValidationSummary, validateSheet } from '../core/bulk/validate';
import { createTemplate, type TemplateResult } from '../core/bulk/template';
import { IDLE_MS } from '../core/hourly/dispatch';
import { notYours } from '../core/trust/owners';
import { ALTERED_WHY, FIX } from '../core/hourly/altered';
import { bulkDeps } from './deps';
import { syncDispatcher } from './dispatcher';
import { withDocumentLock } from './lock';
import { type Outcome, outcome } from './outcome';
import { connectionStore, currentUser, documentStore, ownerStore, spreadsheetTimeZone } from './services';
import { gasZone } from './zone';
import { showSidebar } from './ui';
import { recordUsage } from './usage';

/** A sidebar step stays short so progress shows; the sidebar calls again at once. */
const STEP_MS = 25_000;
/** Longest step a caller may ask for: well inside the 6-minute limit, with room for the last batch. */
const MAX_STEP_MS = 4.5 * 60_000;

export function showBulk(): void {
  showSidebar('Lote', 'Lançamentos em lote');
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

export function stepDeadline(seconds?: number): number {
  const ms = seconds ? Math.min(MAX_STEP_MS, Math.max(5_000, seconds * 1000)) : STEP_MS;
  return Date.now() + ms;
}

export function getBulkForm() {
  const { deps, owners, me, ss } = ownDeps();
  const check = owners.checker(me, ss.getId());
  const selection = deps.book.selection();
  const active = deps.book.byId(selection.sheetId);
  const guessed = active ? guessOperation(active) : null;
  return {
    operations: Object.values(bulkOperations).map((op) => ({ key: op.key, label: op.label, sheetName: op.sheetName })),
    connections: connectionStore()
      .list()
      .map((c) => ({ id: c.id, name: c.name, isDefault: c.isDefault })),
    sheets: deps.book.sheetNames(),
    activeSheet: selection.sheetName,
    guessed,
    // Issuing notes from a pulled Faturas sheet: one click must not issue one for every invoice in it.
    suggestSelected: guessed === 'emitirNfse' && selection.sheetName !== bulkOperations.emitirNfse.sheetName,
    batchSize: DEFAULT_BATCH,
    jobs: deps.jobs
      .list()
      .filter((j) => j.status === 'running' || j.status === 'failed')
      .map((j) => ({ ...progressOf(j), mine: check.bulk(j), altered: check.altered(j) })),
    last: lastEnded(deps.jobs.list(), spreadsheetTimeZone(ss)),
  };
}

/** The run that ended last (done or stopped), and when: a sidebar closed mid-run and opened again says how it ended. */
function lastEnded(jobs: readonly BulkJob[], timeZone: string): (BulkProgress & { endedAt: string }) | null {
  const ended = jobs.filter((j) => j.status === 'done' || j.status === 'cancelled').sort((a, b) => b.updatedAt - a.updatedAt)[0];
  return ended ? { ...progressOf(ended), endedAt: Utilities.formatDate(new Date(ended.updatedAt), timeZone, 'dd/MM/yyyy HH:mm') } : null;
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
  return outcome(() =>
    withDocumentLock(() => {
      // CPF/CNPJ are looked up with the running user's own connection, as Executar will.
      const connection = form.connection ? connectionStore().get(form.connection) : null;
      return validateSheet(bulkDeps(), { ...form, connectionId: connection?.id });
    }),
  );
}

/** The running user's deps: the owner and connection of what they start are set here, from who is running, never from the form. */
export function ownDeps() {
  const owners = ownerStore();
  const me = currentUser(owners);
  const ss = SpreadsheetApp.getActiveSpreadsheet();
  const doc = documentStore(ss);
  const deps = bulkDeps(doc, gasZone(spreadsheetTimeZone(ss)), ss);
  /** A run may be stepped only by its owner, and only as they saved it; `cancelling`: its owner may stop one someone altered. */
  const own = (jobId: string, cancelling = false) => {
    const job = deps.jobs.get(jobId);
    const check = owners.checker(me, ss.getId());
    if (!job || check.bulk(job)) return;
    if (check.altered(job) && !cancelling) throw new BulkError(`Este lote ${ALTERED_WHY}. ${FIX.bulk}`);
    if (!check.altered(job)) throw new BulkError(notYours('Este lote', job.owner).replace('"Assumir"', '"Assumir o lote"'));
  };
  return { deps, me, owners, ss, doc, own };
}

type Own = ReturnType<typeof ownDeps>;

/**
 * `work` under the locks. When it succeeds and `sync` gives options, the owner's trigger and agenda follow the work
 * store as the work just saved it, still under the locks: the store is not read again, and one flush ends it all.
 */
function lockedStep(work: (own: Own) => BulkProgress, sync: (progress: BulkProgress) => { mayCreate: boolean } | null): Outcome<BulkProgress> {
  let warning: string | undefined;
  const result = outcome(() =>
    withDocumentLock(() => {
      const own = ownDeps();
      const progress = work(own);
      const options = sync(progress);
      if (options) warning = syncDispatcher({ ...options, doc: own.doc, ss: own.ss });
      return progress;
    }),
  );
  recordUsage();
  return warned(result, warning);
}

/** A trigger upkeep problem goes with the progress as a warning; the action itself succeeded. */
export function warned(result: Outcome<BulkProgress>, warning: string | undefined): Outcome<BulkProgress> {
  return warning && result.ok ? { ok: true, value: { ...result.value, warnings: [...result.value.warnings, warning] } } : result;
}

export function startBulkRun(form: BulkForm): Outcome<BulkProgress> {
  const started = lockedStep(
    ({ deps, me }) => {
      // Resolved in the running user's own connections; the job keeps the id.
      const connection = form.connection ? connectionStore().get(form.connection) : null;
      return startBulk(
        deps,
        { ...form, connection: connection?.name ?? '', connectionId: connection?.id, owner: { id: me.id, email: me.email } },
        stepDeadline(form.stepSeconds),
      );
    },
    // If the sidebar is closed before the end, the hourly dispatcher finishes the run.
    () => ({ mayCreate: true }),
  );
  // A refused start saved nothing; the trigger is still kept in step with the owner's work.
  if (!started.ok) syncDispatcher();
  return started;
}

/** A finished run may leave the dispatcher with nothing to do. */
const whenDone = (progress: BulkProgress) => (progress.done ? { mayCreate: false } : null);

export function continueBulkRun(jobId: string, stepSeconds?: number): Outcome<BulkProgress> {
  return lockedStep(({ deps, own }) => {
    own(jobId);
    return continueBulk(deps, jobId, stepDeadline(stepSeconds));
  }, whenDone);
}

export function cancelBulkRun(jobId: string): Outcome<BulkProgress> {
  return lockedStep(({ deps, own }) => {
    own(jobId, true);
    return cancelBulk(deps, jobId);
  }, whenDone);
}

/**
 * Takes over a bulk run someone else started: it goes on with one of the
 * running user's connections, so its remaining rows go to that organization.
 * Nothing changes hands any other way.
 */
export function takeOverBulkRun(jobId: string, connectionId: string): Outcome<BulkProgress> {
  const result = outcome(() =>
    withDocumentLock(() => {
      const { deps, me, owners, ss } = ownDeps();
      const job = deps.jobs.get(jobId);
      if (!job) throw new BulkError('Este lote não existe mais.');
      // Stepped in the last minutes: its owner's sidebar or trigger may still be sending with their key.
      if (job.status === 'running' && Date.now() - job.updatedAt < IDLE_MS && !owners.checker(me, ss.getId()).bulk(job)) {
        throw new BulkError('Este lote está sendo executado agora por quem o iniciou. Espere alguns minutos e tente de novo.');
      }
      const connection = connectionStore().byId(String(connectionId ?? ''));
      const next = { ...job, owner: { id: me.id, email: me.email }, connectionId: connection.id, connection: connection.name };
      deps.jobs.put(jobId, next);
      return progressOf(next);
    }),
  );
  return warned(result, result.ok ? syncDispatcher() : undefined);
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
