/**
 * The hourly dispatcher's decisions: which stored work it continues or starts,
 * in which order, with how much of the execution, and whether the document
 * still needs the trigger at all. Everything reads one snapshot of the stored
 * work, taken once per execution by the caller.
 */
import { continueBulkJob } from '../bulk/job';
import type { BulkDeps, BulkJob } from '../bulk/state';
import type { JobStore } from '../trust/job-store';
import type { OwnershipCheck } from '../trust/owners';
import { beginRun } from '../runs/begin';
import type { PullJob, RunDeps } from '../runs/deps';
import { stepRun } from '../runs/step';
import type { Report, ReportStore } from '../reports/reports';
import { isDue, nextRun } from '../reports/schedule';
import { checkRefresh } from './unchanged-run';
import { appendSkipped } from '../reports/history';
import { pausedReport } from './paused';

/** Everything the document keeps for the dispatcher, read in one go. */
export interface StoredWork {
  reports: Report[];
  pulls: PullJob[];
  bulk: BulkJob[];
  /** The Central's hourly refresh, when the document has one: whose it is, when it is next due, and the stored schedule. */
  central?: { owner: string; next: number; schedule: object };
}

export function storedWork(reports: ReportStore, pulls: JobStore<PullJob>, bulk: JobStore<BulkJob>): StoredWork {
  return { reports: reports.list(), pulls: pulls.list(), bulk: bulk.list() };
}

/**
 * The part of the stored work the running user owns and vouched for (see
 * owners.ts): a trigger runs nothing else. A pull belongs to its report, and
 * goes on only while it still pulls the listing into the sheet its report says.
 */
export function ownWork(work: StoredWork, check: Pick<OwnershipCheck, 'me' | 'report' | 'bulk' | 'sealed'>): StoredWork {
  const reports = work.reports.filter((r) => check.report(r));
  const byId = new Map(reports.map((r) => [r.id, r]));
  const pulls = work.pulls.filter((j) => {
    const r = byId.get(j.reportId);
    return r !== undefined && check.sealed(j) && j.state.spec.listing === r.listing && j.state.spec.sheetName === r.sheetName;
  });
  // As any stored work: only the running user's own schedule, read exactly as they saved it.
  const central = work.central?.owner === check.me && check.sealed(work.central.schedule) ? { central: work.central } : {};
  return { reports, pulls, bulk: work.bulk.filter((j) => check.bulk(j)), ...central };
}

/** The trigger exists exactly while some report is scheduled or some pull or bulk run is unfinished. */
export function wantsDispatcher(work: StoredWork): boolean {
  return (
    work.reports.some((r) => r.schedule) ||
    work.pulls.some((j) => j.state.status === 'running') ||
    work.bulk.some((j) => j.status === 'running') ||
    work.central !== undefined
  );
}

/**
 * How many of the owner's documents carry their hourly trigger. Any run of the
 * owner serves every document the agenda says is due, so triggers past these
 * add only executions that find nothing to do (each paying its start-up); a
 * few are kept so that one lost (the document deleted or unshared, the add-on
 * turned off there, a firing Google skips) leaves the others serving, and so
 * that a due document waits a quarter of an hour on average, not an hour
 * (docs/limits.md).
 */
export const DISPATCHERS_PER_OWNER = 4;

/**
 * Whether the document keeps its trigger, gets one, or has none: it carries
 * one while it has work of its own or the owner has work elsewhere, and while
 * it is among the first DISPATCHERS_PER_OWNER of the owner's triggers (by id,
 * so every run agrees); a new one only for work of its own, while the owner
 * has fewer. `here` is the document's trigger id, `all` the owner's.
 */
export function triggerPlan(p: { ownWork: boolean; workElsewhere: boolean; here: string | null; all: readonly string[] }): 'keep' | 'create' | 'none' {
  if (p.here === null) return p.ownWork && p.all.length < DISPATCHERS_PER_OWNER ? 'create' : 'none';
  const rank = [...p.all].sort().indexOf(p.here);
  return (p.ownWork || p.workElsewhere) && rank < DISPATCHERS_PER_OWNER ? 'keep' : 'none';
}

/** A sidebar steps its own job every few seconds: the dispatcher leaves recently touched jobs to it. */
export const IDLE_MS = 5 * 60_000;

/**
 * Pulls to continue, oldest first. Failed ones wait for a person ("Continuar")
 * or for their next scheduled start: retrying them hourly would repeat the same
 * e-mail. Scheduled pulls have no sidebar, so they never wait to be idle.
 */
export function pullsToContinue(pulls: readonly PullJob[], now: number, idleMs = IDLE_MS): PullJob[] {
  return pulls
    .filter((j) => j.state.status === 'running' && (j.state.notBefore ?? 0) <= now && (j.origin === 'agendado' || now - j.state.updatedAt >= idleMs))
    .sort((a, b) => a.state.updatedAt - b.state.updatedAt);
}

export function bulkToContinue(jobs: readonly BulkJob[], now: number, idleMs = IDLE_MS): BulkJob[] {
  return jobs.filter((j) => j.status === 'running' && now - j.updatedAt >= idleMs).sort((a, b) => a.updatedAt - b.updatedAt);
}

/** Scheduled reports due at `at`, in creation order; one with a run still going is left to it and stays due. */
export function dueReports(work: StoredWork, at: Date, zone: RunDeps['zone']): Report[] {
  const running = new Set(work.pulls.filter((j) => j.state.status === 'running').map((j) => j.reportId));
  return work.reports.filter(
    (r) => r.schedule && !running.has(r.id) && (r.pausedUntil ?? 0) <= at.getTime() && isDue(r.schedule, new Date(r.scheduleSince ?? r.createdAt), at, zone),
  );
}

/**
 * When the hourly run next has something to do in this work: the earliest of
 * each schedule's next start, each unfinished pull's and bulk run's turn (the
 * same rules as dueReports, pullsToContinue and bulkToContinue); null when it
 * never has (no schedule, nothing unfinished).
 */
export function nextDueAt(work: StoredWork, zone: RunDeps['zone'], idleMs = IDLE_MS): number | null {
  const times: number[] = [];
  const running = new Set<string>();
  for (const j of work.pulls) {
    if (j.state.status !== 'running') continue;
    running.add(j.reportId);
    times.push(Math.max(j.state.notBefore ?? 0, j.origin === 'agendado' ? 0 : j.state.updatedAt + idleMs));
  }
  for (const j of work.bulk) if (j.status === 'running') times.push(j.updatedAt + idleMs);
  for (const r of work.reports) {
    if (!r.schedule || running.has(r.id)) continue;
    times.push(reportNextAt(r, zone));
  }
  if (work.central) times.push(work.central.next);
  return times.length ? Math.min(...times) : null;
}

/** When a scheduled report next starts: its schedule's next time, or after its back-off. */
export function reportNextAt(r: Report, zone: RunDeps['zone']): number {
  if (!r.schedule) throw new Error('reportNextAt: the report has no schedule');
  return Math.max(r.pausedUntil ?? 0, nextRun(r.schedule, new Date(r.scheduleSince ?? r.createdAt), zone).getTime());
}

export interface DispatchDeps {
  runs: RunDeps;
  bulk: BulkDeps;
  /** The Central's refresh, when it is due in this document: its own kind of work, with its share of the time. */
  central?: Phase;
}

export interface DispatchResult {
  /** Unfinished pulls that this execution finished. */
  continued: string[];
  /** Due reports started and finished by this execution. */
  started: string[];
  /** Bulk jobs finished by this execution. */
  bulk: string[];
  /** Due or unfinished work left for the next execution (report or bulk job ids). */
  left: string[];
  /** Due reports not started, their companies' schedules paused in the Central; absent when none was. */
  paused?: string[];
}

export interface Phase {
  pending(): boolean;
  /** Works until `until`; false when nothing moved (every item stalled). */
  step(until: number): boolean;
}

type Pull = { report: Report; job: PullJob; scheduledHere: boolean };

/** Unfinished pulls, each stepped in turn; one that did not move waits for the next run. */
function pullPhase(deps: DispatchDeps, pulls: Pull[], result: DispatchResult): Phase {
  return {
    pending: () => pulls.length > 0,
    step(until) {
      let moved = false;
      for (const pull of [...pulls]) {
        if (deps.runs.now() >= until) break;
        const before = pull.job.state;
        const run = stepRun(deps.runs, pull.report, pull.job, until);
        Object.assign(pull, { report: run.report, job: run.job });
        const advanced = run.progress.done || run.job.state.pages !== before.pages || run.job.state.rows !== before.rows;
        moved ||= advanced;
        if (run.progress.done) (pull.scheduledHere ? result.started : result.continued).push(pull.report.id);
        if (run.progress.done || !advanced) pulls.splice(pulls.indexOf(pull), 1);
        if (!run.progress.done && !advanced) result.left.push(pull.report.id);
      }
      return moved;
    },
  };
}

/** Unfinished bulk runs, each stepped in turn. */
function bulkPhase(deps: DispatchDeps, bulk: BulkJob[], result: DispatchResult): Phase {
  return {
    pending: () => bulk.length > 0,
    step(until) {
      let moved = false;
      for (const job of [...bulk]) {
        if (deps.runs.now() >= until) break;
        const place = () => `${job.pass}:${job.cursor}:${JSON.stringify(job.counts)}`;
        const before = place();
        // The job is updated in place, so the next round goes on from where this step left it.
        const p = continueBulkJob(deps.bulk, job, until);
        const advanced = p.done || place() !== before;
        moved ||= advanced;
        if (p.done) result.bulk.push(job.id);
        if (p.done || !advanced) bulk.splice(bulk.indexOf(job), 1);
        if (!p.done && !advanced) result.left.push(job.id);
      }
      return moved;
    },
  };
}

/** What Histórico says of a scheduled start of a paused company: not a run, not a failure, no e-mail. */
export const PAUSED_NOTE = 'Agendamento pausado na Central';
const PAUSED_RESULT = 'PAUSADO';

/**
 * The start is skipped as a run would take its turn: the schedule counts from
 * now. Histórico says why at the first skip of a pause, not at every one (an
 * hourly report paused for a month would fill it).
 */
function skipPaused(deps: RunDeps, report: Report): void {
  const first = report.pauseNoted === undefined;
  deps.reports.save(first ? { ...report, pauseNoted: deps.now() } : report);
  if (!first) return;
  try {
    appendSkipped(deps.book, report.name, deps.now(), PAUSED_RESULT, PAUSED_NOTE, report.owner?.email);
  } catch {
    // A spreadsheet at the cell limit has no room for Histórico's row: the schedule still moved on.
  }
}

/**
 * The reports a person asked to run now from the Central (its "Atualizar relatórios agora" for a company with reports
 * in other spreadsheets): the company's own reports here, not already running nor due anyway.
 */
export function askedReports(work: StoredWork, connections: ReadonlySet<string>, due: readonly Report[]): Report[] {
  if (connections.size === 0) return [];
  const running = new Set(work.pulls.filter((j) => j.state.status === 'running').map((j) => j.reportId));
  const dueIds = new Set(due.map((r) => r.id));
  return work.reports.filter((r) => !r.companies && r.connectionId !== undefined && connections.has(r.connectionId) && !running.has(r.id) && !dueIds.has(r.id));
}

/**
 * Reports due now, started in turn (unless paused), then those a person asked for (never counted as their schedule's
 * turn); one not finished within its share joins the unfinished pulls.
 */
function duePhase(
  deps: DispatchDeps,
  due: Report[],
  at: Date,
  pulls: Pull[],
  result: DispatchResult,
  paused: ReadonlySet<string>,
  asked: Report[] = [],
): Phase & { left(): string[] } {
  const connections = paused.size ? (deps.runs.connections?.() ?? []) : [];
  const queue = [...due.map((r) => ({ r, asked: false })), ...asked.map((r) => ({ r, asked: true }))];
  return {
    left: () => queue.map((q) => q.r.id),
    pending: () => queue.length > 0,
    step(until) {
      let moved = false;
      while (queue.length > 0 && deps.runs.now() < until) {
        const next = queue.shift()!;
        const { pauseNoted, ...report } = next.asked ? next.r : { ...next.r, scheduleSince: at.getTime() };
        moved = true;
        if (next.asked) {
          const began = beginRun(deps.runs, report, 'manual', null);
          const run = stepRun(deps.runs, began.report, began.job, until);
          if (run.progress.done) result.started.push(report.id);
          else pulls.push({ report: run.report, job: run.job, scheduledHere: true });
          continue;
        }
        if (pausedReport(report, paused, connections)) {
          skipPaused(deps.runs, { ...report, pauseNoted });
          (result.paused ??= []).push(report.id);
          continue;
        }
        // A sheet that already holds what the listing returns is left alone (unchanged-run.ts).
        const checked = checkRefresh(deps.runs, report);
        if (checked.unchanged) {
          result.started.push(report.id);
          continue;
        }
        // A due report has no running pull (dueReports): whatever job it left, done or failed, the new run replaces.
        const began = beginRun(deps.runs, report, 'agendado', null);
        const run = stepRun(deps.runs, began.report, began.job, until, checked.inHand);
        if (run.progress.done) result.started.push(report.id);
        else pulls.push({ report: run.report, job: run.job, scheduledHere: true });
      }
      return moved;
    },
  };
}

/**
 * The hourly run: continues unfinished pulls, continues unfinished bulk runs
 * and starts what is due, until `deadline`.
 *
 * Each kind of work gets its share of the time: in turn, a kind may use the
 * time left divided by the kinds still waiting (a third, then half of what
 * remains, then the rest), and whatever a kind leaves unused goes round again
 * to those with work left. Without the shares a long pull would fill run
 * after run, and bulk runs and schedules would wait for it to end.
 */
export function dispatch(
  deps: DispatchDeps,
  work: StoredWork,
  deadline: number,
  options: { idleMs?: number; paused?: ReadonlySet<string>; asked?: ReadonlySet<string> } = {},
): DispatchResult {
  const result: DispatchResult = { continued: [], started: [], bulk: [], left: [] };
  const now = () => deps.runs.now();
  const begun = now();
  // Room for the last writes, the Histórico row and the trigger upkeep after the last wave.
  const end = deadline - (deadline - begun) * 0.1;
  const reports = new Map(work.reports.map((r) => [r.id, r]));
  const pulls: Pull[] = [];
  for (const job of pullsToContinue(work.pulls, begun, options.idleMs)) {
    const report = reports.get(job.reportId);
    // The report was deleted: its job has nothing to write into.
    if (!report) deps.runs.jobs.delete(job.reportId);
    else pulls.push({ report, job, scheduledHere: false });
  }
  const bulk = bulkToContinue(work.bulk, begun, options.idleMs);
  const at = new Date(begun);
  const due = dueReports(work, at, deps.runs.zone);
  const dueNow = duePhase(deps, due, at, pulls, result, options.paused ?? new Set(), askedReports(work, options.asked ?? new Set(), due));
  const phases = [pullPhase(deps, pulls, result), bulkPhase(deps, bulk, result), dueNow, ...(deps.central ? [deps.central] : [])];
  while (now() < end) {
    let moved = false;
    for (let i = 0; i < phases.length && now() < end; i++) {
      if (!phases[i].pending()) continue;
      const waiting = phases.slice(i).filter((p) => p.pending()).length;
      moved = phases[i].step(now() + (end - now()) / waiting) || moved;
    }
    if (!moved) break;
  }
  for (const pull of pulls) result.left.push(pull.report.id);
  for (const job of bulk) result.left.push(job.id);
  result.left.push(...dueNow.left());
  return result;
}
