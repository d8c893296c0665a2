/**
 * Running reports: start a run, step it within an execution's budget, finish
 * it into the report's last-run summary and the Histórico sheet. The same steps
 * serve the sidebar (short steps with progress), "atualizar todos" and the
 * hourly dispatcher (as much as fits, the rest next hour).
 */
import type { BillingClient } from '../api/client';
import type { Zone } from '../api/calendar';
import { appendHistory } from './history';
import { cancelImport, type ImportState, importedRows, retryImport, startImport, stepImport } from './import-job';
import { JobStore } from './job-store';
import type { KeyValueStore } from './ports';
import { incrementalFilters, type Report, type ReportStore, resolveFilters, type RunOrigin, type RunSummary } from './reports';
import type { BookPort } from './sheet-port';
import { resolveSheetFilters } from './sheet-filters';
import { tableSpec } from './table';
import { listing } from '../api/operations';

export interface RunDeps {
  reports: ReportStore;
  /** Where pulls keep their place between executions (DocumentProperties). */
  jobs: JobStore<PullJob>;
  book: BookPort;
  zone: Zone;
  now: () => number;
  clientFor: (connectionName: string) => BillingClient;
  /** Whether someone asked to cancel `reportId`'s run while a step runs (read between waves). */
  cancelRequested?: (reportId: string) => boolean;
  /** Told about scheduled runs that failed (e-mail). */
  notifyFailure?: (report: Report, run: RunSummary) => void;
}

export interface PullJob {
  reportId: string;
  origin: RunOrigin;
  state: ImportState;
}

export interface RunProgress {
  reportId: string;
  reportName: string;
  sheetName: string;
  status: ImportState['status'];
  done: boolean;
  rows: number;
  pages: number;
  incremental: boolean;
  message?: string;
  warnings: string[];
  /** A failed run that "Continuar" can resume (network, 5xx, 429, a killed step); otherwise the message says what to fix. */
  canContinue: boolean;
  /** Rows the listing holds, once the service said. */
  totalRows?: number;
  /** Seconds left at the pace so far, once the total is known. */
  etaSeconds?: number;
  /** The report never finished a run and this run made its sheet: a failure can leave nothing behind. */
  firstRun: boolean;
}

/** Pulls under the key prefix they always had, so jobs stored before still continue. */
export function pullJobStore(store: KeyValueStore): JobStore<PullJob> {
  return new JobStore<PullJob>(store, 'faturamento.job.');
}

function eta(state: ImportState, now: number): number | undefined {
  if (state.status !== 'running' || !state.totalRows || state.rows === 0) return undefined;
  const left = Math.max(0, state.totalRows - state.rows);
  return Math.ceil((((now - state.startedAt) / state.rows) * left) / 1000);
}

function progress(report: Report, state: ImportState, now = state.updatedAt): RunProgress {
  return {
    reportId: report.id,
    reportName: report.name,
    sheetName: state.spec.sheetName,
    status: state.status,
    done: state.status !== 'running',
    rows: importedRows(state),
    pages: state.pages,
    incremental: state.spec.mode === 'merge',
    message: state.message,
    warnings: state.warnings,
    canContinue: state.status === 'failed' && Boolean(state.retryable),
    totalRows: state.spec.mode === 'replace' ? state.totalRows : undefined,
    etaSeconds: eta(state, now),
    firstRun: Boolean(state.createdSheet) && report.lastSuccessStart === undefined,
  };
}

/** A run's report and job as one execution holds them: read once, written back at the start and at the end. */
export interface Run {
  report: Report;
  job: PullJob;
  progress: RunProgress;
}

/**
 * Starts a run of `report` unless `job` is one still running, which goes on
 * instead. The report is saved once, with the run's start (and whatever the
 * caller changed in it, such as the next scheduled start).
 */
export function beginRun(deps: RunDeps, report: Report, origin: RunOrigin, job: PullJob | null): Run & { started: boolean } {
  if (job && job.state.status === 'running') return { report, job, progress: progress(report, job.state), started: false };
  const now = deps.now();
  const base = resolveFilters(report, new Date(now), deps.zone);
  const { filters, merge } = incrementalFilters(report, base, deps.zone);
  const sheetFilters = resolveSheetFilters(report.sheetFilters, tableSpec(listing(report.listing)).columns, new Date(now), deps.zone);
  const state = startImport(
    { listing: report.listing, filters, sheetName: report.sheetName, mode: merge ? 'merge' : 'replace', ...(sheetFilters.length ? { sheetFilters } : {}) },
    importDeps(deps, report),
  );
  const started: PullJob = { reportId: report.id, origin, state };
  deps.jobs.put(report.id, started);
  const saved = deps.reports.save({ ...report, lastRun: { startedAt: now, origin, rows: 0, durationMs: 0, result: 'em andamento', incremental: merge } });
  return { report: saved, job: started, progress: progress(saved, state), started: true };
}

export function startRun(deps: RunDeps, reportId: string, origin: RunOrigin): RunProgress {
  return beginRun(deps, deps.reports.get(reportId), origin, deps.jobs.get(reportId)).progress;
}

function importDeps(deps: RunDeps, report: Report, checkpoint?: (state: ImportState) => void) {
  // The client is built lazily: starting a run must not need the network or the key.
  let client: BillingClient | undefined;
  const asked = deps.cancelRequested;
  return {
    checkpoint,
    cancelRequested: asked ? () => asked(report.id) : undefined,
    get client() {
      client ??= deps.clientFor(report.connection);
      return client;
    },
    book: deps.book,
    zone: deps.zone,
    now: deps.now,
  };
}

/** Writes the run's summary into the report (its one write at the end) and Histórico; the job goes unless it failed. */
function finish(deps: RunDeps, report: Report, job: PullJob): Report {
  const { state } = job;
  const now = deps.now();
  const result = state.status === 'done' ? 'ok' : state.status === 'cancelled' ? 'cancelado' : 'erro';
  const summary: RunSummary = {
    startedAt: state.startedAt,
    finishedAt: now,
    origin: job.origin,
    rows: importedRows(state),
    durationMs: now - state.startedAt,
    result,
    message: state.message,
    warnings: state.warnings.length ? state.warnings : undefined,
    incremental: state.spec.mode === 'merge',
  };
  const saved = deps.reports.save({ ...report, lastRun: summary, ...(result === 'ok' ? { lastSuccessStart: state.startedAt } : {}) });
  appendHistory(deps.book, report.name, summary);
  // A failed job stays so that "Continuar" resumes from its last written page.
  if (result === 'erro') deps.jobs.put(report.id, job);
  else deps.jobs.delete(report.id);
  if (result === 'erro' && job.origin === 'agendado') deps.notifyFailure?.(saved, summary);
  return saved;
}

/** One step of a run until `deadline` (epoch ms), on the report and job the caller read. */
export function stepRun(deps: RunDeps, report: Report, job: PullJob, deadline: number): Run {
  const current = job.state.status === 'failed' ? { ...job, state: retryImport(job.state) } : job;
  const { reportId, origin } = current;
  const state = stepImport(
    current.state,
    importDeps(deps, report, (s) => deps.jobs.put(reportId, { reportId, origin, state: s })),
    { deadline },
  );
  const next: PullJob = { ...current, state };
  if (state.status === 'running') {
    deps.jobs.put(reportId, next);
    return { report, job: next, progress: progress(report, state) };
  }
  const saved = finish(deps, report, next);
  return { report: saved, job: next, progress: progress(saved, state) };
}

/** What the last run left, for a report with no job. */
function settledProgress(report: Report): RunProgress {
  const last = report.lastRun;
  return {
    reportId: report.id,
    reportName: report.name,
    sheetName: report.sheetName,
    status: last?.result === 'erro' ? 'failed' : last?.result === 'cancelado' ? 'cancelled' : 'done',
    done: true,
    rows: last?.rows ?? 0,
    pages: 0,
    incremental: Boolean(last?.incremental),
    message: last?.message,
    warnings: last?.warnings ?? [],
    canContinue: false,
    firstRun: false,
  };
}

/** One step of a run, until `deadline` (epoch ms). */
export function continueRun(deps: RunDeps, reportId: string, deadline: number): RunProgress {
  const report = deps.reports.get(reportId);
  const job = deps.jobs.get(reportId);
  return job ? stepRun(deps, report, job, deadline).progress : settledProgress(report);
}

export function cancelRun(deps: RunDeps, reportId: string): RunProgress {
  const report = deps.reports.get(reportId);
  const job = deps.jobs.get(reportId);
  if (!job) return settledProgress(report);
  const next = { ...job, state: cancelImport(job.state) };
  const saved = finish(deps, report, next);
  return progress(saved, next.state);
}
