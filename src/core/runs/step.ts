/**
 * Stepping a report's run within an execution's budget, and what the sidebars
 * ask of a run by its report: one more step ("Continuar", and the steps the
 * Importar sidebar asks for after the start), or its cancel.
 */
import { cancelImport, type InHand, retryImport } from '../pull/state';
import { stepImport } from '../pull/step';
import { runTargetProblem } from '../trust/targets';
import type { Report } from '../reports/reports';
import { importDeps, type PullJob, type Run, type RunDeps } from './deps';
import { finish } from './finish';
import { progress, type RunProgress, runIdOf, settledProgress } from './progress';

/** One step of a run until `deadline` (epoch ms), on the report and job the caller read; `inHand`: its listing, fetched already. */
export function stepRun(deps: RunDeps, report: Report, job: PullJob, deadline: number, inHand?: InHand): Run {
  // A failure that continuing cannot get past stays as it ended (told once).
  if (job.state.status === 'failed' && !job.state.retryable) return { report, job, progress: progress(report, job.state) };
  // A failed or cancelled run goes on from its last written page.
  const current = { ...job, state: retryImport(job.state) };
  const { reportId, origin } = current;
  // Whatever the stored pull says, it writes only the sheet that names this report (a deleted one is said by the step).
  const sheet = deps.book.byId(current.state.sheetId);
  const refused = sheet && current.state.status === 'running' ? runTargetProblem(sheet, report) : null;
  if (refused) {
    const failed: PullJob = { ...current, state: { ...current.state, status: 'failed', retryable: false, message: refused, updatedAt: deps.now() } };
    const saved = finish(deps, report, failed);
    return { report: saved, job: failed, progress: progress(saved, failed.state) };
  }
  const state = stepImport(
    current.state,
    importDeps(deps, report, {
      runId: runIdOf(current.state),
      checkpoint: (s, durable = true) => {
        deps.jobs.put(reportId, { reportId, origin, state: s });
        // Sheets keeps writes until a flush: the block and its checkpoint reach the document together, and a kill after this loses neither.
        if (durable) deps.book.flush();
      },
    }),
    { deadline, limit: deps.limit, inHand },
  );
  const next: PullJob = { ...current, state };
  if (state.status === 'running') {
    deps.jobs.put(reportId, next);
    return { report, job: next, progress: progress(report, state) };
  }
  const saved = finish(deps, report, next);
  return { report: saved, job: next, progress: progress(saved, state) };
}

/** One step of a run, until `deadline` (epoch ms). */
export function continueRun(deps: RunDeps, reportId: string, deadline: number): RunProgress {
  const report = deps.reports.get(reportId);
  const job = deps.jobs.get(reportId);
  return job ? stepRun(deps, report, job, deadline).progress : settledProgress(report);
}

/**
 * Cancels the run `runId` of the report (the one the person watched), and no
 * other: when it has already ended, or another run has begun since, nothing
 * changes and the progress says the cancel came too late.
 */
export function cancelRun(deps: RunDeps, reportId: string, runId: string): RunProgress {
  const report = deps.reports.get(reportId);
  const job = deps.jobs.get(reportId);
  if (job?.state.status !== 'running' || runIdOf(job.state) !== runId) {
    const ended = job && runIdOf(job.state) === runId ? progress(report, job.state) : settledProgress(report);
    return { ...ended, cancelLate: ended.status !== 'cancelled' };
  }
  const next = { ...job, state: cancelImport(job.state) };
  const saved = finish(deps, report, next);
  return progress(saved, next.state);
}
