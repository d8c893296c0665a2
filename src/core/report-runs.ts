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
import { bounded, MESSAGE_MAX } from './bounds';
import { appendHistory } from './history';
import { canMerge } from './pull/layout';
import { startImport } from './pull/start';
import { cancelImport, type CompanySpec, type ImportState, importedRows, retryImport } from './pull/state';
import { stepImport } from './pull/step';
import { JobStore } from './job-store';
import type { SignedStore } from './seal';
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
import { runTargetProblem, startTargetProblem } from './targets';
import { listing } from '../api/operations';
import { endedStatus, runResult, type RunStatus } from './run-state';
import { describeOrganization, distinctOrganizations, type Organization } from './organizations';
import { backoff } from './run-backoff';
import { keepLastGood } from './last-good';

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
  /**
   * The organization a connection of the running user reaches: as its last test found it, or, when `identify`
   * and none is known, asked of the service once (one wave of customers); undefined when it cannot be told.
   */
  organizationOf?: (connectionId: string, identify: boolean) => Organization | undefined;
  /** Epoch ms this execution must never pass (see StepOptions.limit). */
  limit?: number;
  /** Whether someone asked to cancel the run `runId` of `reportId` while a step runs (read between waves): never another run's. */
  cancelRequested?: (reportId: string, runId: string) => boolean;
  /** Told about scheduled runs that failed (e-mail). */
  notifyFailure?: (report: Report, run: RunSummary) => void;
  /** Keeps what pulls of subscriptions wrote, the base for edits pushed back (core/bulk/snapshot.ts). */
  snapshots?: SnapshotStore;
  /** Called once when a run finishes with data (ok or partial): refreshes the dashboards built on the report (core/dashboards). */
  afterReportRun?: (report: Report) => void;
  /** Whether the report is still stored as this run read it (owner, not deleted): a run in a document opened by id holds no lock on it. */
  stillStored?: (report: Report) => boolean;
}

export interface PullJob {
  reportId: string;
  origin: RunOrigin;
  state: ImportState;
}

export interface RunProgress {
  reportId: string;
  /** Which run of the report this is: a cancel names it, so it never ends the next one. */
  runId: string;
  reportName: string;
  sheetName: string;
  status: RunStatus;
  done: boolean;
  rows: number;
  pages: number;
  incremental: boolean;
  message?: string;
  warnings: string[];
  /** A failed run that "Continuar" can resume (network, 5xx, 429, a killed step), or a cancelled one; otherwise the message says what to fix. */
  canContinue: boolean;
  /** A cancel asked for a run that had already ended: the run's own outcome stands, and the sidebar says the cancel came too late. */
  cancelLate?: boolean;
  /** Rows the listing holds, once the service said. */
  totalRows?: number;
  /** Seconds left at the pace so far, once the total is known. */
  etaSeconds?: number;
  /** The report never finished a run and this run made its sheet: a failure can leave nothing behind. */
  firstRun: boolean;
}

/** Pulls under the key prefix they always had, so jobs stored before still continue. */
export function pullJobStore(store: SignedStore): JobStore<PullJob> {
  return new JobStore<PullJob>(store, 'faturamento.job.');
}

/** A run is told apart from the report's other runs by when it started. */
export function runIdOf(state: Pick<ImportState, 'startedAt'>): string {
  return String(state.startedAt);
}

function eta(state: ImportState, now: number): number | undefined {
  if (state.status !== 'running' || !state.totalRows || state.rows === 0) return undefined;
  const left = Math.max(0, state.totalRows - state.rows);
  return Math.ceil((((now - state.startedAt) / state.rows) * left) / 1000);
}

function progress(report: Report, state: ImportState, now = state.updatedAt): RunProgress {
  return {
    reportId: report.id,
    runId: runIdOf(state),
    reportName: report.name,
    sheetName: state.spec.sheetName,
    status: state.status,
    done: state.status !== 'running',
    rows: importedRows(state),
    pages: state.pages,
    incremental: state.spec.mode === 'merge',
    message: state.message,
    warnings: state.warnings,
    canContinue: (state.status === 'failed' && Boolean(state.retryable)) || state.status === 'cancelled',
    totalRows: state.spec.mode === 'replace' ? state.totalRows : undefined,
    etaSeconds: eta(state, now),
    firstRun: Boolean(state.createdSheet) && report.lastSuccessStart === undefined,
  };
}

/** Where a run begins: `form` only for the owner's own Importar form, after it checked the target sheet (core/targets.ts). */
interface BeginFrom {
  form?: boolean;
  /** An incremental report pulled whole this once ("Atualização completa"), staying incremental after. */
  full?: boolean;
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
export function beginRun(deps: RunDeps, report: Report, origin: RunOrigin, job: PullJob | null, from: BeginFrom = {}): Run & { started: boolean } {
  if (job && job.state.status === 'running') return { report, job, progress: progress(report, job.state), started: false };
  // Only the owner's form, which checked the sheet, may point a report at a sheet that does not name it yet.
  const refused = from.form ? null : startTargetProblem(deps.book, report);
  if (refused) return { ...refuse(deps, report, origin, refused), started: false };
  const now = deps.now();
  const base = resolveFilters(report, new Date(now), deps.zone);
  const serviceZone = deps.serviceZone?.(report.connection) ?? intlZone(SERVICE_TIME_ZONE);
  const asked = from.full ? { ...report, incremental: false } : report;
  const incremental = incrementalFilters(asked, base, serviceZone);
  // Merging needs every column of ours where its metadata says; otherwise a full pull rebuilds them.
  const intact = canMerge(deps.book, report.listing, report.sheetId, { consolidated: Boolean(report.companies), cardData: report.cardData });
  const chosen = report.companies ? companySpecs(deps, asked, base, intact) : undefined;
  const companies = chosen?.specs;
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
  if (chosen) state.warnings.push(...chosen.notes);
  const organizations = chosen ? chosen.organizations : known([deps.organizationOf?.(report.connectionId ?? '', false)]);
  const started: PullJob = { reportId: report.id, origin, state };
  deps.jobs.put(report.id, started);
  const saved = deps.reports.save({
    ...report,
    organizations,
    // The sheet is the report's by id from now on; its name only follows what the user calls it.
    sheetId: state.sheetId,
    sheetName: state.spec.sheetName,
    lastRun: { startedAt: now, origin, rows: 0, durationMs: 0, result: runResult('running'), incremental: merge },
  });
  return { report: saved, job: started, progress: progress(saved, state), started: true };
}

/** The organizations, when every one is known; undefined when any is not (nothing can be compared then). */
function known(list: ReadonlyArray<Organization | undefined>): Organization[] | undefined {
  return list.length > 0 && list.every((o) => o !== undefined) ? (list as Organization[]) : undefined;
}

/**
 * A consolidated run's companies: the owner's connections the report names
 * (all of them now, for "todas"), each organization once (two connections
 * that reach one are read once, by the first, and the run says so), each
 * incremental from its own last good pull when the report is and the sheet is
 * intact, else in full.
 */
function companySpecs(
  deps: RunDeps,
  report: Report,
  base: ImportState['spec']['filters'],
  intact: boolean,
): { specs: CompanySpec[]; notes: string[]; organizations?: Organization[] } {
  const own = deps.connections?.() ?? [];
  const resolved = resolveCompanies(report.companies ?? { all: false, ids: [] }, own);
  const identify = resolved.length > 1;
  const { kept, skipped } = distinctOrganizations(resolved.map((c) => ({ ...c, organization: deps.organizationOf?.(c.id, identify) })));
  const notes = skipped.map(
    ({ left, used }) =>
      `As conexões "${used.name}" e "${left.name}" chegam à mesma organização (${describeOrganization(used.organization as Organization)}): ela foi contada uma vez só, pela conexão "${used.name}".`,
  );
  const specs = kept.map((c): CompanySpec => {
    const since = report.companyStamps?.[c.id];
    const serviceZone = deps.serviceZone?.(c.name) ?? intlZone(SERVICE_TIME_ZONE);
    const incremental = incrementalFilters({ ...report, lastSuccessStart: since }, base, serviceZone);
    const merge = incremental.merge && intact;
    return { id: c.id, name: c.name, filters: merge ? incremental.filters : base, mode: merge ? 'merge' : 'replace' };
  });
  return { specs, notes, organizations: known(kept.map((c) => c.organization)) };
}

export function startRun(deps: RunDeps, reportId: string, origin: RunOrigin): RunProgress {
  return beginRun(deps, deps.reports.get(reportId), origin, deps.jobs.get(reportId)).progress;
}

function importDeps(deps: RunDeps, report: Report, run?: { runId: string; checkpoint: (state: ImportState) => void }) {
  // The client is built lazily: starting a run must not need the network or the key.
  let client: BillingClient | undefined;
  const asked = deps.cancelRequested;
  return {
    checkpoint: run?.checkpoint,
    cancelRequested: asked && run ? () => asked(report.id, run.runId) : undefined,
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

/**
 * A run refused before it wrote anything (its sheet is not the report's): the
 * owner is told on the card, in Histórico and, when scheduled, by e-mail.
 */
function refuse(deps: RunDeps, report: Report, origin: RunOrigin, message: string): Run {
  const now = deps.now();
  const summary: RunSummary = { startedAt: now, finishedAt: now, origin, rows: 0, durationMs: 0, result: 'erro', message, incremental: false };
  const saved = deps.reports.save({ ...report, lastRun: summary });
  told(deps, saved, summary);
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
  return { report: saved, job: { reportId: report.id, origin, state }, progress: progress(saved, state) };
}

/** Histórico's row of a finished run, and the owner's e-mail when a scheduled one failed. */
function told(deps: RunDeps, report: Report, summary: RunSummary): void {
  try {
    appendHistory(deps.book, report.name, summary, report.owner?.email);
  } catch {
    // A spreadsheet at the cell limit has no room for Histórico's row: the report's card still says how the run went.
  }
  if ((summary.result === 'erro' || summary.result === 'parcial') && summary.origin === 'agendado') deps.notifyFailure?.(report, summary);
}

/** Writes the run's summary into the report (its one write at the end) and Histórico; the job goes unless it failed. */
function finish(deps: RunDeps, report: Report, job: PullJob): Report {
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
  };
  const saved = deps.reports.save({
    ...report,
    ...pause,
    lastRun: summary,
    ...(result === 'ok' || result === 'parcial' ? { lastSuccessStart: state.startedAt } : {}),
    ...(result === 'ok' && state.pager?.base !== undefined ? { lastWalk: { base: state.pager.base, pages: state.pager.fetchedPages } } : {}),
    ...(state.companies ? { companyStamps: companyStamps(report, state) } : {}),
  });
  // A failed or cancelled job stays so that "Continuar" resumes from its last written page.
  if (result === 'erro' || result === 'cancelado') deps.jobs.put(report.id, job);
  else deps.jobs.delete(report.id);
  told(deps, saved, summary);
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
  // A failure that continuing cannot get past stays as it ended (told once).
  if (job.state.status === 'failed' && !job.state.retryable) return { report, job, progress: progress(report, job.state) };
  const current = job.state.status === 'failed' || job.state.status === 'cancelled' ? { ...job, state: retryImport(job.state) } : job;
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
    runId: String(last?.startedAt ?? ''),
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
