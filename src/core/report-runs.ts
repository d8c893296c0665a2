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
import type { KeyValueStore } from './ports';
import { readJson, writeJson } from './ports';
import { incrementalFilters, type Report, type ReportStore, resolveFilters, type RunOrigin, type RunSummary } from './reports';
import { isDue } from './schedule';
import type { BookPort } from './sheet-port';

export interface RunDeps {
  reports: ReportStore;
  /** Where job states live between executions (DocumentProperties). */
  jobs: KeyValueStore;
  book: BookPort;
  zone: Zone;
  now: () => number;
  clientFor: (connectionName: string) => BillingClient;
  /** Told about scheduled runs that failed (e-mail). */
  notifyFailure?: (report: Report, run: RunSummary) => void;
}

interface Job {
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
}

const JOB_PREFIX = 'faturamento.job.';

function loadJob(deps: RunDeps, reportId: string): Job | null {
  return readJson<Job | null>(deps.jobs, JOB_PREFIX + reportId, null);
}

function saveJob(deps: RunDeps, job: Job): void {
  writeJson(deps.jobs, JOB_PREFIX + job.reportId, job);
}

export function pendingJobs(jobs: KeyValueStore): Job[] {
  return jobs
    .keys()
    .filter((k) => k.startsWith(JOB_PREFIX))
    .map((k) => readJson<Job | null>(jobs, k, null))
    .filter((j): j is Job => j !== null);
}

/** Whether a report has an unfinished or failed run to continue. */
export function hasJob(jobs: KeyValueStore, reportId: string): boolean {
  return jobs.get(JOB_PREFIX + reportId) !== null;
}

export function deleteJob(jobs: KeyValueStore, reportId: string): void {
  jobs.delete(JOB_PREFIX + reportId);
}

function progress(report: Report, state: ImportState): RunProgress {
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
  };
}

export function startRun(deps: RunDeps, reportId: string, origin: RunOrigin): RunProgress {
  const report = deps.reports.get(reportId);
  const existing = loadJob(deps, reportId);
  if (existing && existing.state.status === 'running') return progress(report, existing.state);
  const now = deps.now();
  const base = resolveFilters(report, new Date(now), deps.zone);
  const { filters, merge } = incrementalFilters(report, base, deps.zone);
  const state = startImport({ listing: report.listing, filters, sheetName: report.sheetName, mode: merge ? 'merge' : 'replace' }, importDeps(deps, report));
  saveJob(deps, { reportId, origin, state });
  deps.reports.update(reportId, (r) => {
    r.lastRun = { startedAt: now, origin, rows: 0, durationMs: 0, result: 'em andamento', incremental: merge };
  });
  return progress(report, state);
}

function importDeps(deps: RunDeps, report: Report, checkpoint?: (state: ImportState) => void) {
  // The client is built lazily: starting a run must not need the network or the key.
  let client: BillingClient | undefined;
  return {
    checkpoint,
    get client() {
      client ??= deps.clientFor(report.connection);
      return client;
    },
    book: deps.book,
    zone: deps.zone,
    now: deps.now,
  };
}

function finish(deps: RunDeps, report: Report, job: Job): void {
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
  deps.reports.update(report.id, (r) => {
    r.lastRun = summary;
    if (result === 'ok') r.lastSuccessStart = state.startedAt;
  });
  appendHistory(deps.book, report.name, summary);
  // A failed job stays so that "Continuar" resumes from its last written page.
  if (result !== 'erro') deleteJob(deps.jobs, report.id);
  if (result === 'erro' && job.origin === 'agendado') deps.notifyFailure?.(report, summary);
}

/** One step of a run, until `deadline` (epoch ms). */
export function continueRun(deps: RunDeps, reportId: string, deadline: number): RunProgress {
  const report = deps.reports.get(reportId);
  let job = loadJob(deps, reportId);
  if (!job) {
    const last = report.lastRun;
    return {
      reportId,
      reportName: report.name,
      sheetName: report.sheetName,
      status: last?.result === 'erro' ? 'failed' : last?.result === 'cancelado' ? 'cancelled' : 'done',
      done: true,
      rows: last?.rows ?? 0,
      pages: 0,
      incremental: Boolean(last?.incremental),
      message: last?.message,
      warnings: last?.warnings ?? [],
    };
  }
  if (job.state.status === 'failed') job = { ...job, state: retryImport(job.state) };
  const origin = job.origin;
  const state = stepImport(job.state, importDeps(deps, report, (s) => saveJob(deps, { reportId, origin, state: s })), { deadline });
  const next = { ...job, state };
  saveJob(deps, next);
  if (state.status !== 'running') finish(deps, report, next);
  return progress(report, state);
}

export function cancelRun(deps: RunDeps, reportId: string): RunProgress {
  const report = deps.reports.get(reportId);
  const job = loadJob(deps, reportId);
  if (!job) return continueRun(deps, reportId, 0);
  const next = { ...job, state: cancelImport(job.state) };
  saveJob(deps, next);
  finish(deps, report, next);
  return progress(report, next.state);
}

export interface DispatchResult {
  continued: string[];
  started: string[];
  /** Due or unfinished, left for the next execution. */
  left: string[];
}

/**
 * The hourly dispatcher: first finishes unfinished jobs (oldest first), then
 * starts due reports, while the budget lasts. Jobs touched by a sidebar in the
 * last minutes are left to it.
 */
export function dispatch(deps: RunDeps, deadline: number, options: { idleMs?: number } = {}): DispatchResult {
  const result: DispatchResult = { continued: [], started: [], left: [] };
  const idleMs = options.idleMs ?? 5 * 60_000;
  const now = () => deps.now();
  const margin = (deadline - now()) * 0.1;
  const jobs = pendingJobs(deps.jobs)
    // Failed jobs wait for a person ("Continuar") or for their next scheduled start: retrying them hourly would repeat the same e-mail.
    .filter((j) => j.state.status === 'running')
    .filter((j) => now() - j.state.updatedAt >= idleMs || j.origin === 'agendado')
    .sort((a, b) => a.state.updatedAt - b.state.updatedAt);
  for (const job of jobs) {
    if (!deps.reports.find(job.reportId)) {
      deleteJob(deps.jobs, job.reportId);
      continue;
    }
    if (now() > deadline - margin) {
      result.left.push(job.reportId);
      continue;
    }
    const p = continueRun(deps, job.reportId, deadline - margin);
    (p.done ? result.continued : result.left).push(job.reportId);
  }
  const at = new Date(now());
  for (const report of deps.reports.list()) {
    if (!report.schedule || result.continued.includes(report.id) || result.left.includes(report.id)) continue;
    const since = new Date(report.scheduleSince ?? report.createdAt);
    if (!isDue(report.schedule, since, at, deps.zone)) continue;
    if (now() > deadline - margin) {
      result.left.push(report.id);
      continue;
    }
    deps.reports.update(report.id, (r) => {
      r.scheduleSince = at.getTime();
    });
    startRun(deps, report.id, 'agendado');
    const p = continueRun(deps, report.id, deadline - margin);
    (p.done ? result.started : result.left).push(report.id);
  }
  return result;
}
