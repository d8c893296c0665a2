/**
 * What a run tells the sidebars as it goes and once it ended: where it
 * stands, rows and pages, the time left once the service told the total,
 * and whether "Continuar" can resume it.
 */
import { type ImportState, importedRows } from '../pull/state';
import type { Report } from '../reports/reports';
import { endedStatus, type RunStatus } from '../run-state';

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

/** A run is told apart from the report's other runs by when it started. */
export function runIdOf(state: Pick<ImportState, 'startedAt'>): string {
  return String(state.startedAt);
}

function eta(state: ImportState, now: number): number | undefined {
  if (state.status !== 'running' || !state.totalRows || state.rows === 0) return undefined;
  const left = Math.max(0, state.totalRows - state.rows);
  return Math.ceil((((now - state.startedAt) / state.rows) * left) / 1000);
}

/** Where the run of `state` stands. */
export function progress(report: Report, state: ImportState, now = state.updatedAt): RunProgress {
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

/** What the last run left, for a report with no job. */
export function settledProgress(report: Report): RunProgress {
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
