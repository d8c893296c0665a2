/**
 * Beginning a report's run: unless one still runs (which goes on instead),
 * the sheet looked at once, the pull planned from that look (runs/plan-pull.ts),
 * the sheet laid out, the job stored and the report saved once with the run's
 * start. The same start serves the Importar form (on the look its check took),
 * Relatórios, "atualizar todos" and the hourly dispatcher.
 */
import { lookAtSheet, type SheetLook } from '../pull/start';
import { startImport } from '../pull/start';
import type { Report, RunOrigin } from '../reports/reports';
import { runResult } from '../run-state';
import { startTargetProblem } from '../trust/targets';
import { importDeps, type PullJob, type Run, type RunDeps } from './deps';
import { refuse } from './finish';
import { planPull } from './plan-pull';
import { progress } from './progress';

interface BeginFrom {
  /** An incremental report pulled whole this once ("Atualização completa"), staying incremental after. */
  full?: boolean;
}

type Begun = Omit<Run, 'progress'> & { started: boolean };

/**
 * Starts a run of `report` unless `job` is one still running, which goes on
 * instead. The report is saved once, with the run's start (and whatever the
 * caller changed in it, such as the next scheduled start).
 */
export function beginRun(deps: RunDeps, report: Report, origin: RunOrigin, job: PullJob | null, from: BeginFrom = {}): Run & { started: boolean } {
  const begun: Begun = job?.state.status === 'running' ? { report, job, started: false } : checkedStart(deps, report, origin, from.full);
  return withProgress(begun);
}

/**
 * The run the owner's Importar form starts, on the sheet the form looked at:
 * only that form, which checked the sheet (core/trust/targets.ts), may point a
 * report at a sheet that does not name it yet.
 */
export function beginFromForm(deps: RunDeps, report: Report, job: PullJob | null, look: SheetLook): Run & { started: boolean } {
  const begun: Begun = job?.state.status === 'running' ? { report, job, started: false } : start(deps, report, 'manual', look);
  return withProgress(begun);
}

function withProgress(begun: Begun): Run & { started: boolean } {
  return { ...begun, progress: progress(begun.report, begun.job.state) };
}

/** A run that writes only a sheet that names its report (or one it makes); any other ends at once, refused. */
function checkedStart(deps: RunDeps, report: Report, origin: RunOrigin, full?: boolean): Begun {
  const refused = startTargetProblem(deps.book, report);
  if (refused) return { ...refuse(deps, report, origin, refused), started: false };
  return start(deps, report, origin, lookAtSheet(deps.book, report, { consolidated: Boolean(report.companies), cardData: report.cardData }), full);
}

function start(deps: RunDeps, report: Report, origin: RunOrigin, look: SheetLook, full?: boolean): Begun {
  const now = deps.now();
  const plan = planPull(report, {
    at: now,
    zone: deps.zone,
    serviceZone: deps.serviceZone,
    sheet: look,
    connections: deps.connections,
    organizationOf: deps.organizationOf,
    full,
  });
  const state = startImport(plan.spec, importDeps(deps, report), look);
  state.warnings.push(...plan.notes);
  const job: PullJob = { reportId: report.id, origin, state };
  deps.jobs.put(report.id, job);
  const saved = deps.reports.save({
    ...report,
    organizations: plan.organizations,
    // The sheet is the report's by id from now on; its name only follows what the user calls it.
    sheetId: state.sheetId,
    sheetName: state.spec.sheetName,
    lastRun: { startedAt: now, origin, rows: 0, durationMs: 0, result: runResult('running'), incremental: plan.spec.mode === 'merge' },
  });
  return { report: saved, job, started: true };
}
