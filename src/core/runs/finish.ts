/**
 * How a run ends: its summary written into the report (the run's one write at
 * the end), each company's stamp moved on, the Histórico row, the owner's
 * e-mail when a scheduled run failed, the dashboards refreshed after a run
 * with data. A run refused before it began ends the same way.
 */
import { bounded, MESSAGE_MAX } from '../bounds';
import { appendHistory } from '../reports/history';
import { keepLastGood } from './last-good';
import { importedRows, type ImportState } from '../pull/state';
import type { FailedCompany, Report, RunOrigin, RunSummary } from '../reports/reports';
import { backoff } from '../reports/run-backoff';
import { runResult } from '../run-state';
import type { PullJob, Run, RunDeps } from './deps';

/** Histórico's row of a finished run, and the owner's e-mail when a scheduled one failed (unless told already). */
function told(deps: RunDeps, report: Report, summary: RunSummary, quiet: boolean): void {
  try {
    appendHistory(deps.book, report.name, summary, report.owner?.email);
  } catch {
    // A spreadsheet at the cell limit has no room for Histórico's row: the report's card still says how the run went.
  }
  if ((summary.result === 'erro' || summary.result === 'parcial') && summary.origin === 'agendado' && !quiet) deps.notifyFailure?.(report, summary);
}

/**
 * The companies a consolidated run failed for reasons trying again cannot fix, as a key; undefined when the run was
 * not partial or one failure may pass. The same key at the next run was e-mailed then: the same rule as one
 * company's, whose schedule pauses after one e-mail.
 */
function lastingFailure(summary: RunSummary): string | undefined {
  const failed = summary.failedCompanies ?? [];
  if (summary.result !== 'parcial' || failed.length === 0 || failed.some((c) => c.retryable)) return undefined;
  return failed
    .map((c) => c.name)
    .sort()
    .join('\u0000');
}

/** A consolidated run's failed companies, each with why. */
function failedCompanies(state: ImportState): FailedCompany[] | undefined {
  const failed = (state.companies ?? []).flatMap((c, i) =>
    c.status === 'failed' ? [{ name: state.spec.companies?.[i]?.name ?? c.id, message: c.message ?? 'falhou', retryable: Boolean(c.retryable) }] : [],
  );
  return failed.length ? failed : undefined;
}

/** Writes the run's summary into the report (its one write at the end) and Histórico; the job goes unless it failed. */
export function finish(deps: RunDeps, report: Report, job: PullJob): Report {
  const { state } = job;
  const now = deps.now();
  const result = runResult(state.status, Boolean(state.partial));
  const { note, ...pause } = backoff(report, result, job.origin, now, Boolean(state.retryable));
  const kept = keepLastGood(deps.book, report, state, deps.zone);
  const said = kept ? `${state.message ?? ''} ${kept}`.trim() : state.message;
  const summary: RunSummary = {
    startedAt: state.startedAt,
    finishedAt: now,
    origin: job.origin,
    rows: importedRows(state),
    durationMs: now - state.startedAt,
    result,
    // The note on the schedule is kept whole: the failure's own text gives way to it.
    message: said && note ? `${bounded(said, MESSAGE_MAX - note.length - 1)} ${note}` : (said ?? note),
    warnings: state.warnings.length ? state.warnings : undefined,
    incremental: state.spec.mode === 'merge',
    failedCompanies: failedCompanies(state),
  };
  const lasting = lastingFailure(summary);
  const quiet = lasting !== undefined && lasting === report.toldFailure;
  const saved = deps.reports.save({
    ...report,
    ...pause,
    toldFailure: summary.origin === 'agendado' || result === 'ok' ? lasting : report.toldFailure,
    lastRun: summary,
    ...(result === 'ok' || result === 'parcial' ? { lastSuccessStart: state.startedAt } : {}),
    ...(result === 'ok' && state.pager?.base !== undefined ? { lastWalk: { base: state.pager.base, pages: state.pager.fetchedPages } } : {}),
    ...(state.companies ? { companyStamps: companyStamps(report, state) } : {}),
  });
  // A failed or cancelled job stays so that "Continuar" resumes from its last written page.
  if (result === 'erro' || result === 'cancelado') deps.jobs.put(report.id, job);
  else deps.jobs.delete(report.id);
  told(deps, saved, summary, quiet);
  if (result !== 'erro' && result !== 'cancelado') deps.afterReportRun?.(saved);
  return saved;
}

/**
 * Each company that finished a run that ended (OK or partial) moves its own stamp on; a failed one keeps its last
 * good one, as do all after a cancelled run (its rows were not settled); a company no longer pulled is forgotten.
 */
function companyStamps(report: Report, state: ImportState): Record<string, number> {
  const out: Record<string, number> = {};
  (state.spec.companies ?? []).forEach((c, i) => {
    const stamp = state.status === 'done' && state.companies?.[i]?.status === 'done' ? state.startedAt : report.companyStamps?.[c.id];
    if (stamp !== undefined) out[c.id] = stamp;
  });
  return out;
}

/**
 * A run refused before it wrote anything (its sheet is not the report's): the
 * owner is told on the card, in Histórico and, when scheduled, by e-mail.
 */
export function refuse(deps: RunDeps, report: Report, origin: RunOrigin, message: string): Omit<Run, 'progress'> {
  const now = deps.now();
  const summary: RunSummary = { startedAt: now, finishedAt: now, origin, rows: 0, durationMs: 0, result: 'erro', message, incremental: false };
  const saved = deps.reports.save({ ...report, lastRun: summary });
  told(deps, saved, summary, false);
  if (deps.jobs.has(report.id)) deps.jobs.delete(report.id);
  const spec = { listing: report.listing, filters: {}, sheetName: report.sheetName, mode: 'replace' as const };
  const state: ImportState = {
    spec,
    sheetId: report.sheetId ?? -1,
    pager: null,
    rows: 0,
    merged: 0,
    children: {},
    pages: 0,
    warnings: [],
    steps: 0,
    startedAt: now,
    updatedAt: now,
    status: 'failed',
    message,
    retryable: false,
  };
  return { report: saved, job: { reportId: report.id, origin, state } };
}
