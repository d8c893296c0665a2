/**
 * Running reports: start a run, step it within an execution's budget, finish
 * it into the report's last-run summary and the Histórico sheet. The same steps
 * serve the sidebar (short steps with progress), "atualizar todos" and the
 * hourly dispatcher (as much as fits, the rest next hour).
 */
import type { BillingClient } from '../api/client';
import type { ApiRecord } from '../api/envelopes';
import { editableListing, type SnapshotStore } from './bulk/snapshot';
import { intlZone, type Zone } from '../api/calendar';
import { appendHistory } from './history';
import { canMerge } from './pull/layout';
import { startImport } from './pull/start';
import { cancelImport, type CompanySpec, type ImportState, importedRows, retryImport } from './pull/state';
import { stepImport } from './pull/step';
import { JobStore } from './job-store';
import type { KeyValueStore } from './ports';
import {
  incrementalFilters,
  type Report,
  type ReportStore,
  resolveCompanies,
  resolveFilters,
  type RunOrigin,
  SERVICE_TIME_ZONE,
  type RunSummary,
} from './reports';
import type { BookPort } from './sheet-port';
import { resolveSheetFilters } from './sheet-filters';
import { tableSpec } from './table';
import { listing } from '../api/operations';
import { endedStatus, runResult, type RunStatus } from './run-state';

export interface RunDeps {
  reports: ReportStore;
  /** Where pulls keep their place between executions (DocumentProperties). */
  jobs: JobStore<PullJob>;
  book: BookPort;
  zone: Zone;
  /** The zone a connection's service reads date-times in; default America/Sao_Paulo. */
  serviceZone?: (connectionName: string) => Zone;
  now: () => number;
  /** The running user's client for one of their connections, by id. */
  clientFor: (connectionId: string) => BillingClient;
  /** The running user's connections now (ids and names): what "todas as minhas conexões" means at a run. */
  connections?: () => Array<{ id: string; name: string }>;
  /** Epoch ms this execution must never pass (see StepOptions.limit). */
  limit?: number;
  /** Whether someone asked to cancel `reportId`'s run while a step runs (read between waves). */
  cancelRequested?: (reportId: string) => boolean;
  /** Told about scheduled runs that failed (e-mail). */
  notifyFailure?: (report: Report, run: RunSummary) => void;
  /** Keeps what pulls of subscriptions wrote, the base for edits pushed back (core/bulk/snapshot.ts). */
  snapshots?: SnapshotStore;
  /** Called once when a run finishes with data (ok or partial): refreshes the dashboards built on the report (core/dashboards). */
  afterReportRun?: (report: Report) => void;
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
  status: RunStatus;
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
  const serviceZone = deps.serviceZone?.(report.connection) ?? intlZone(SERVICE_TIME_ZONE);
  const incremental = incrementalFilters(report, base, serviceZone);
  // Merging needs every column of ours where its metadata says; otherwise a full pull rebuilds them.
  const intact = canMerge(deps.book, report.listing, report.sheetId, { consolidated: Boolean(report.companies), cardData: report.cardData });
  const companies = report.companies ? companySpecs(deps, report, base, intact) : undefined;
  const merge = companies ? companies.every((c) => c.mode === 'merge') : incremental.merge && intact;
  const filters = merge && !companies ? incremental.filters : base;
  const sheetFilters = resolveSheetFilters(report.sheetFilters, tableSpec(listing(report.listing)).columns, new Date(now), deps.zone);
  const state = startImport(
    {
      listing: report.listing,
      filters,
      sheetName: report.sheetName,
      sheetId: report.sheetId,
      reportId: report.id,
      mode: merge ? 'merge' : 'replace',
      ...(sheetFilters.length ? { sheetFilters } : {}),
      ...(report.cardData ? { cardData: true } : {}),
      ...(companies ? { companies } : {}),
    },
    importDeps(deps, report),
  );
  const started: PullJob = { reportId: report.id, origin, state };
  deps.jobs.put(report.id, started);
  const saved = deps.reports.save({
    ...report,
    // The sheet is the report's by id from now on; its name only follows what the user calls it.
    sheetId: state.sheetId,
    sheetName: state.spec.sheetName,
    lastRun: { startedAt: now, origin, rows: 0, durationMs: 0, result: runResult('running'), incremental: merge },
  });
  return { report: saved, job: started, progress: progress(saved, state), started: true };
}

/**
 * A consolidated run's companies: the owner's connections the report names
 * (all of them now, for "todas"), each incremental from its own last good pull
 * when the report is and the sheet is intact, else in full.
 */
function companySpecs(deps: RunDeps, report: Report, base: ImportState['spec']['filters'], intact: boolean): CompanySpec[] {
  const own = deps.connections?.() ?? [];
  return resolveCompanies(report.companies ?? { all: false, ids: [] }, own).map((c) => {
    const since = report.companyStamps?.[c.id];
    const serviceZone = deps.serviceZone?.(c.name) ?? intlZone(SERVICE_TIME_ZONE);
    const incremental = incrementalFilters({ ...report, lastSuccessStart: since }, base, serviceZone);
    const merge = incremental.merge && intact;
    return { id: c.id, name: c.name, filters: merge ? incremental.filters : base, mode: merge ? 'merge' : 'replace' };
  });
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
    clientFor: deps.clientFor,
    get client() {
      client ??= deps.clientFor(report.connectionId ?? '');
      return client;
    },
    book: deps.book,
    zone: deps.zone,
    now: deps.now,
    // What the owner's pull wrote is what an edit of the sheet is told from.
    pulled:
      deps.snapshots && editableListing(report.listing)
        ? (sheetId: number, records: readonly ApiRecord[]) => deps.snapshots?.pulled(sheetId, report.owner, report.connectionId, records, deps.now())
        : undefined,
  };
}

/** Writes the run's summary into the report (its one write at the end) and Histórico; the job goes unless it failed. */
/** Scheduled failures in a row before the schedule backs off. */
const FAILURES_BEFORE_BACKOFF = 2;
const MAX_BACKOFF_MS = 24 * 3_600_000;

/**
 * A schedule that keeps failing the same way backs off: after the second
 * failure in a row it waits 2, 4, 8… hours (at most a day) before trying again,
 * instead of spending trigger time and an e-mail every hour forever.
 */
function backoff(report: Report, result: RunSummary['result'], origin: RunOrigin, now: number): Pick<Report, 'failedRuns' | 'pausedUntil'> & { note?: string } {
  if (result === 'ok') return { failedRuns: 0, pausedUntil: undefined };
  if (result !== 'erro' || origin !== 'agendado') return { failedRuns: report.failedRuns, pausedUntil: report.pausedUntil };
  const failedRuns = (report.failedRuns ?? 0) + 1;
  if (failedRuns < FAILURES_BEFORE_BACKOFF) return { failedRuns, pausedUntil: undefined };
  const wait = Math.min(MAX_BACKOFF_MS, 2 ** (failedRuns - 1) * 3_600_000);
  return {
    failedRuns,
    pausedUntil: now + wait,
    note: `Falhou ${failedRuns} vezes seguidas: a atualização agendada espera ${Math.round(wait / 3_600_000)} h antes de tentar de novo (ou atualize agora pela barra lateral).`,
  };
}

function finish(deps: RunDeps, report: Report, job: PullJob): Report {
  const { state } = job;
  const now = deps.now();
  const result = runResult(state.status, Boolean(state.partial));
  const { note, ...pause } = backoff(report, result, job.origin, now);
  const summary: RunSummary = {
    startedAt: state.startedAt,
    finishedAt: now,
    origin: job.origin,
    rows: importedRows(state),
    durationMs: now - state.startedAt,
    result,
    message: state.message && note ? `${state.message} ${note}` : (state.message ?? note),
    warnings: state.warnings.length ? state.warnings : undefined,
    incremental: state.spec.mode === 'merge',
  };
  const saved = deps.reports.save({
    ...report,
    ...pause,
    lastRun: summary,
    ...(result === 'ok' || result === 'parcial' ? { lastSuccessStart: state.startedAt } : {}),
    ...(state.companies ? { companyStamps: companyStamps(report, state) } : {}),
  });
  try {
    appendHistory(deps.book, report.name, summary);
  } catch {
    // A spreadsheet at the cell limit has no room for Histórico's row: the report's card still says how the run went.
  }
  // A failed job stays so that "Continuar" resumes from its last written page.
  if (result === 'erro') deps.jobs.put(report.id, job);
  else deps.jobs.delete(report.id);
  if ((result === 'erro' || result === 'parcial') && job.origin === 'agendado') deps.notifyFailure?.(saved, summary);
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

/** One step of a run until `deadline` (epoch ms), on the report and job the caller read. */
export function stepRun(deps: RunDeps, report: Report, job: PullJob, deadline: number): Run {
  const current = job.state.status === 'failed' ? { ...job, state: retryImport(job.state) } : job;
  const { reportId, origin } = current;
  const state = stepImport(
    current.state,
    importDeps(deps, report, (s) => {
      deps.jobs.put(reportId, { reportId, origin, state: s });
      // Sheets keeps writes until a flush: the block and its checkpoint reach the document together, and a kill after this loses neither.
      deps.book.flush();
    }),
    { deadline, limit: deps.limit },
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
    status: endedStatus(last?.result),
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
