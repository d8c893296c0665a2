/**
 * The time-driven trigger and its upkeep. Editor add-ons get one time-driven
 * trigger per user per document, at most hourly. Each editor's trigger runs
 * as that editor and does only that editor's work: the scheduled reports and
 * unfinished runs they own and vouched for (see core/owners.ts), in every
 * document their ledger lists, each opened by id. So it works whether or not
 * Google runs it with the document as its active spreadsheet. It exists
 * exactly while its owner has a schedule or an unfinished run in the document.
 */
import { bulkJobStore } from '../core/bulk/stored-job';
import { dispatch, ownWork, type StoredWork, storedWork, wantsDispatcher } from '../core/dispatch';
import type { Identity, OwnerStore } from '../core/owners';
import { type KeyValueStore, readOnce } from '../core/ports';
import { redact } from '../core/redact';
import { pullJobStore } from '../core/report-runs';
import { bulkDeps, reportStore, runDeps } from './deps';
import { BusyError, withDocumentLock } from './lock';
import { connectionStore, currentUser, documentStore, ownerStore, spreadsheetTimeZone } from './services';
import { gasZone } from './zone';
import { quotaStop, triggerBudgetMs } from '../core/usage';
import { recordUsage, usageStore } from './usage';
import { recordHourlyRunSeen } from './run-seen';
import { tellAlteredWork } from './altered-notice';

type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;

export const DISPATCHER = 'runScheduledReports';
/** Every handler name the add-on's time-driven triggers ever had: a trigger with one of these is the add-on's own. */
export const DISPATCHER_HANDLERS: readonly string[] = [DISPATCHER];

/** The dispatcher stops well before the 6-minute kill. */
const DISPATCH_MS = 4.5 * 60_000;
/** Less trigger time than this left today: not worth starting (one wave at its worst, and the writes). */
const MIN_RUN_MS = 2 * 60_000;

/** Reports and both kinds of jobs, from one read of the document's work store. */
function readWork(doc: KeyValueStore): StoredWork {
  return storedWork(reportStore(doc), pullJobStore(doc), bulkJobStore(doc));
}

function ours(ss: Spreadsheet): GoogleAppsScript.Script.Trigger[] {
  return ScriptApp.getUserTriggers(ss).filter((t) => DISPATCHER_HANDLERS.includes(t.getHandlerFunction()));
}

/**
 * Creates or deletes the running user's trigger for the document to match
 * the work they own there. Creation only happens from a person's action: a
 * trigger created inside a trigger run can end up disabled. Stale triggers of
 * the add-on (old handler names, duplicates) go first, so none blocks the new
 * one. Never throws: the action that called it has already succeeded, so a
 * problem here is a warning saying what to do.
 */
export function syncDispatcher(options: { mayCreate?: boolean; doc?: KeyValueStore; ss?: Spreadsheet } = {}): string | undefined {
  try {
    const ss = options.ss ?? SpreadsheetApp.getActiveSpreadsheet();
    const owners = ownerStore();
    const me = currentUser(owners);
    const work = readWork(options.doc ?? readOnce(documentStore(ss)));
    const wanted = wantsDispatcher(ownWork(work, owners.checker(me, ss.getId())));
    const existing = ours(ss);
    const keep = wanted ? existing.find((t) => t.getHandlerFunction() === DISPATCHER) : undefined;
    for (const t of existing) if (t !== keep) ScriptApp.deleteTrigger(t);
    if (wanted && !keep && options.mayCreate !== false) {
      try {
        ScriptApp.newTrigger(DISPATCHER).timeBased().everyHours(1).create();
      } catch {
        // One time-driven trigger per user per document: whatever of ours is left there is in the way.
        for (const t of ScriptApp.getUserTriggers(ss)) ScriptApp.deleteTrigger(t);
        ScriptApp.newTrigger(DISPATCHER).timeBased().everyHours(1).create();
      }
    }
    return undefined;
  } catch (err) {
    const detail = redact(String((err as Error)?.message ?? err), connectionStore().secrets()).slice(0, 200);
    return `Feito, mas a execução automática de hora em hora não pôde ser ajustada (${detail}). Os agendamentos e lotes inacabados só andam com ela: feche e abra a barra lateral e repita a ação; se o aviso voltar, remova os acionadores antigos do complemento em Extensões › Apps Script › Acionadores.`;
  }
}

/** This user's work in one document: what is theirs, continued or started until the deadline. */
function runDocument(ss: Spreadsheet, active: boolean, owners: OwnerStore, me: Identity, deadline: number): void {
  withDocumentLock(
    () => {
      const doc = readOnce(documentStore(ss));
      const zone = gasZone(spreadsheetTimeZone(ss));
      const check = owners.checker(me, ss.getId());
      const work = readWork(doc);
      owners.forgetMissing(ss.getId(), new Set(doc.keys()));
      tellAlteredWork(ss, doc, work, owners, me, check);
      dispatch({ runs: runDeps(doc, zone, ss), bulk: bulkDeps(doc, zone, ss) }, ownWork(work, check), deadline);
      // Nothing left to do here: the trigger goes away (the next schedule or run creates it again).
      syncDispatcher({ mayCreate: false, doc, ss });
    },
    60_000,
    active,
  );
}

/**
 * The hourly run, as the trigger's owner: every document in which they own
 * work, the active one first when there is one, under their user lock (and
 * the document's lock when the document is open), until the deadline.
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
    runOwnDocuments(deadline);
  } finally {
    recordHourlyRunSeen();
    recordUsage({ trigger: true });
  }
}

/** Every document in which the running user owns work, the active one first. */
function runOwnDocuments(deadline: number): void {
  const owners = ownerStore();
  const me = currentUser(owners);
  const active = SpreadsheetApp.getActiveSpreadsheet();
  const ids = owners.documents();
  if (active) ids.sort((a, b) => Number(b === active.getId()) - Number(a === active.getId()));
  // The active document's trigger may have outlived its work there: it is tidied even if nothing of ours is left.
  if (active && !ids.includes(active.getId())) ids.unshift(active.getId());
  let failure: unknown;
  for (const id of ids) {
    if (Date.now() >= deadline) break;
    const isActive = active !== null && active.getId() === id;
    let ss: Spreadsheet;
    try {
      ss = isActive ? active : SpreadsheetApp.openById(id);
    } catch {
      // No longer shared with this user, or deleted: its work is out of their reach, and the ledger keeps it in case access returns.
      continue;
    }
    try {
      runDocument(ss, isActive, owners, me, deadline);
    } catch (err) {
      // Busy: someone is working in the document, and whatever is due stays due for the next hour.
      // Anything else fails the execution, but only after the other documents had their turn.
      if (!(err instanceof BusyError)) failure ??= err;
    }
  }
  if (failure !== undefined) throw new Error(redact(String((failure as Error)?.message ?? failure), connectionStore().secrets()));
}
