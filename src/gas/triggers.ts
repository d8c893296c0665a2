/**
 * Editor add-ons get one time-driven trigger per user per document, at most
 * hourly: one dispatcher serves every schedule and finishes abandoned runs. It
 * exists exactly while some report is scheduled or some run is unfinished.
 */
import { bulkJobs } from '../core/bulk/job';
import { pendingJobs } from '../core/report-runs';
import { ReportStore } from '../core/reports';
import { documentStore } from './services';

export const DISPATCHER = 'runScheduledReports';

function dispatcherTriggers(): GoogleAppsScript.Script.Trigger[] {
  const ss = SpreadsheetApp.getActiveSpreadsheet();
  return ScriptApp.getUserTriggers(ss).filter((t) => t.getHandlerFunction() === DISPATCHER);
}

/** Whether the document has work for the dispatcher: a schedule, or a pull or bulk run still running. */
export function dispatcherWanted(): boolean {
  const doc = documentStore();
  return (
    new ReportStore(doc, () => '').list().some((r) => r.schedule) ||
    pendingJobs(doc).some((j) => j.state.status === 'running') ||
    bulkJobs(doc).some((j) => j.status === 'running')
  );
}

/**
 * Creates or deletes the dispatcher to match `dispatcherWanted`. Creation only
 * happens from a person's action: a trigger created inside a trigger run can end
 * up disabled.
 */
export function syncDispatcher(options: { mayCreate?: boolean } = {}): void {
  const wanted = dispatcherWanted();
  const existing = dispatcherTriggers();
  if (wanted && existing.length === 0 && options.mayCreate !== false) {
    ScriptApp.newTrigger(DISPATCHER).timeBased().everyHours(1).create();
  }
  if (!wanted) for (const t of existing) ScriptApp.deleteTrigger(t);
  // Duplicates (two sessions racing) would break the add-on's one-trigger rule.
  if (wanted) for (const t of existing.slice(1)) ScriptApp.deleteTrigger(t);
}
