/**
 * A report's run as both sidebars drive it (Importar after its form, Relatórios
 * from a card's Atualizar or Continuar): one short step at a time, and cancel.
 * Every change to stored reports and pulls happens under the document lock,
 * like the dispatcher's runs, so a run that read its report once never writes
 * back a stale copy.
 */
import type { PullJob, RunDeps } from '../core/runs/deps';
import type { RunProgress } from '../core/runs/progress';
import { cancelRun, continueRun } from '../core/runs/step';
import type { Report } from '../core/reports/reports';
import { type Identity, notYours, type OwnershipCheck, type OwnerStore } from '../core/trust/owners';
import { UserError } from '../api/user-error';
import { runDeps, setCancelRequest } from './deps';
import { syncDispatcher } from './dispatcher';
import { withDocumentLock } from './lock';
import { currentUser, ownerStore } from './services';
import { recordUsage } from './usage';

/**
 * A sidebar step stays short: progress moves every few seconds, and a cancel
 * asked between steps (or read between waves) takes effect within seconds.
 */
const STEP_MS = 4_000;

/** The running user, what they vouched for in this document, and how to vouch for more. */
export interface Who {
  me: Identity;
  owners: OwnerStore;
  documentId: string;
  check: OwnershipCheck;
}

export function who(): Who {
  const owners = ownerStore();
  const me = currentUser(owners);
  const documentId = SpreadsheetApp.getActiveSpreadsheet().getId();
  return { me, owners, documentId, check: owners.checker(me, documentId) };
}

/** Only the owner acts on a report with a key, and only on one they vouched for as it is. */
export function ownReport(w: Who, report: Report): Report {
  if (!w.check.report(report)) throw new UserError(notYours(`O relatório "${report.name}"`, report.owner));
  return report;
}

/**
 * The report's unfinished pull, only as the running user saved it: a checkpoint someone changed in the hidden sheet is
 * not continued (a new run starts over from the report instead).
 */
export function ownJob(w: Who, deps: RunDeps, reportId: string): PullJob | null {
  const job = deps.jobs.get(reportId);
  return job && w.check.sealed(job) ? job : null;
}

/** A warning from the trigger upkeep goes with the progress; the action itself succeeded. */
export function withWarning(progress: RunProgress, warning: string | undefined): RunProgress {
  return warning ? { ...progress, warnings: [...progress.warnings, warning] } : progress;
}

/**
 * One action on a run of the running user's own report, under the document
 * lock; a run it finished may leave the dispatcher with nothing to do.
 */
function onOwnRun(reportId: string, act: (deps: RunDeps) => RunProgress): RunProgress {
  const w = who();
  const progress = withDocumentLock(() => {
    const deps = runDeps();
    ownReport(w, deps.reports.get(reportId));
    if (deps.jobs.has(reportId) && !ownJob(w, deps, reportId))
      throw new UserError(
        'O ponto de parada desta atualização foi alterado fora do complemento (alguém editou a aba oculta "Faturamento · dados") e não será usado. Clique em "Atualizar" para recomeçar a atualização do início.',
      );
    return act(deps);
  });
  recordUsage();
  return progress.done ? withWarning(progress, syncDispatcher({ mayCreate: false })) : progress;
}

/** The user watched this pull: it ends on its sheet, not on Histórico or a child sheet that was written last. */
function showSheet(p: RunProgress): RunProgress {
  if (p.status === 'done' || p.status === 'cancelled') SpreadsheetApp.getActiveSpreadsheet().getSheetByName(p.sheetName)?.activate();
  return p;
}

export function continueReportRun(reportId: string): RunProgress {
  return showSheet(
    onOwnRun(reportId, (deps) => {
      // "Continuar" after a cancel: the request that ended this run is spent.
      const job = deps.jobs.has(reportId) ? deps.jobs.get(reportId) : null;
      if (job?.state.status === 'cancelled') setCancelRequest(SpreadsheetApp.getActiveSpreadsheet().getId(), reportId, null);
      return continueRun(deps, reportId, Date.now() + STEP_MS);
    }),
  );
}

/** Asked while a step may hold the lock: no lock here, the running step reads it between waves. It names the run the person watched. */
export function requestCancelReportRun(reportId: string, runId: string): void {
  setCancelRequest(SpreadsheetApp.getActiveSpreadsheet().getId(), String(reportId), String(runId));
}

/** Cancels the run `runId` for good, or says it had already ended; a later run of the report is never touched. */
export function cancelReportRun(reportId: string, runId: string): RunProgress {
  return showSheet(onOwnRun(reportId, (deps) => cancelRun(deps, reportId, String(runId))));
}
