/**
 * The one time-driven trigger and its upkeep. Editor add-ons get one
 * time-driven trigger per user per document, at most hourly: one dispatcher
 * serves every schedule and finishes abandoned pulls and bulk runs. It exists
 * exactly while some report is scheduled or some run is unfinished.
 */
import { bulkJobStore } from '../core/bulk/job';
import { dispatch, type StoredWork, storedWork, wantsDispatcher } from '../core/dispatch';
import { type KeyValueStore, readOnce } from '../core/ports';
import { pullJobStore } from '../core/report-runs';
import { bulkDeps, reportStore, runDeps } from './deps';
import { BusyError, withDocumentLock } from './lock';
import { documentStore, spreadsheetTimeZone } from './services';
import { gasZone } from './zone';
import { quotaStop, triggerBudgetMs } from '../core/usage';
import { recordUsage, usageStore } from './usage';
import { recordHourlyRunSeen } from './run-seen';

export const DISPATCHER = 'runScheduledReports';

/** The dispatcher stops well before the 6-minute kill. */
const DISPATCH_MS = 4.5 * 60_000;
/** Less trigger time than this left today: not worth starting (one wave at its worst, and the writes). */
const MIN_RUN_MS = 2 * 60_000;

/** Reports and both kinds of jobs, from one read of the document's properties. */
function readWork(doc: KeyValueStore): StoredWork {
  return storedWork(reportStore(doc), pullJobStore(doc), bulkJobStore(doc));
}

function dispatcherTriggers(): GoogleAppsScript.Script.Trigger[] {
  const ss = SpreadsheetApp.getActiveSpreadsheet();
  return ScriptApp.getUserTriggers(ss).filter((t) => t.getHandlerFunction() === DISPATCHER);
}

/**
 * Creates or deletes the dispatcher to match the stored work. Creation only
 * happens from a person's action: a trigger created inside a trigger run can
 * end up disabled. `doc` lets a caller that has just read the document's
 * properties through `readOnce` spare a second read.
 */
export function syncDispatcher(options: { mayCreate?: boolean; doc?: KeyValueStore } = {}): void {
  const wanted = wantsDispatcher(readWork(options.doc ?? readOnce(documentStore())));
  const existing = dispatcherTriggers();
  if (wanted && existing.length === 0 && options.mayCreate !== false) {
    ScriptApp.newTrigger(DISPATCHER).timeBased().everyHours(1).create();
  }
  if (!wanted) for (const t of existing) ScriptApp.deleteTrigger(t);
  // Duplicates (two sessions racing) would break the add-on's one-trigger rule.
  if (wanted) for (const t of existing.slice(1)) ScriptApp.deleteTrigger(t);
}

/**
 * The hourly run: under one hold of the document lock and one read of the
 * document's properties, it continues unfinished pulls and bulk runs, starts
 * what is due (see `dispatch` for how the time is shared), and removes itself
 * when nothing is left.
 */
export function runScheduledReports(_e?: GoogleAppsScript.Events.TimeDriven): void {
  const usage = usageStore().get();
  const stop = quotaStop(usage, MIN_RUN_MS);
  if (stop) {
    // Before a daily quota is gone, scheduled work waits for tomorrow and says so in Relatórios.
    recordUsage({ trigger: true, stopped: stop });
    return;
  }
  const deadline = Date.now() + Math.min(DISPATCH_MS, triggerBudgetMs(usage));
  try {
    withDocumentLock(() => {
      recordHourlyRunSeen();
      const doc = readOnce(documentStore());
      const zone = gasZone(spreadsheetTimeZone());
      const runs = runDeps(doc, zone);
      const bulk = bulkDeps(doc, zone);
      dispatch({ runs, bulk }, readWork(doc), deadline);
      // Nothing left to do: the trigger goes away (it is created again by the next schedule or run).
      syncDispatcher({ mayCreate: false, doc });
    }, 60_000);
  } catch (err) {
    // Someone is working in the document: whatever is due stays due for the next hour.
    if (err instanceof BusyError) return;
    throw err;
  } finally {
    recordUsage({ trigger: true });
  }
}
