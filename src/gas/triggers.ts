/**
 * Editor add-ons get one time-driven trigger per user per document, at most
 * hourly: one dispatcher serves every schedule. It exists exactly while some
 * report is scheduled.
 */
export const DISPATCHER = 'runScheduledReports';

function dispatcherTriggers(): GoogleAppsScript.Script.Trigger[] {
  const ss = SpreadsheetApp.getActiveSpreadsheet();
  return ScriptApp.getUserTriggers(ss).filter((t) => t.getHandlerFunction() === DISPATCHER);
}

export function ensureDispatcher(wanted: boolean): void {
  const existing = dispatcherTriggers();
  if (wanted && existing.length === 0) {
    ScriptApp.newTrigger(DISPATCHER).timeBased().everyHours(1).create();
  }
  if (!wanted) for (const t of existing) ScriptApp.deleteTrigger(t);
  // Duplicates (two editors' sessions racing) would break the add-on's one-trigger rule.
  if (wanted) for (const t of existing.slice(1)) ScriptApp.deleteTrigger(t);
}
