/**
 * The owner's time-driven triggers of the add-on: one per document at most,
 * and only the owner's first few of them (core/hourly/dispatch.ts triggerPlan),
 * kept to match the work by each action and by the hourly run.
 */
import type { Agenda } from '../core/hourly/agenda';
import { triggerPlan } from '../core/hourly/dispatch';

type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;

export const DISPATCHER = 'runScheduledReports';
/** Every handler name the add-on's time-driven triggers ever had: a trigger with one of these is the add-on's own. */
export const DISPATCHER_HANDLERS: readonly string[] = [DISPATCHER];

/** The running user's triggers of the add-on in the document. */
export function ours(ss: Spreadsheet): GoogleAppsScript.Script.Trigger[] {
  return ScriptApp.getUserTriggers(ss).filter((t) => DISPATCHER_HANDLERS.includes(t.getHandlerFunction()));
}

/** Whether this execution has retired the owner's triggers past the few they keep (see keepTriggers). */
let retiredPastFew = false;

/**
 * The running user's triggers in the document, made to match the work: see syncDispatcher. `oncePerRun`: the
 * hourly run's visit, which creates none. While the owner's agenda holds two documents or more, every document
 * keeps its trigger exactly while it is among the owner's first few (triggerPlan), whatever its own work: so a
 * run retires the owner's triggers past those once, and lists none of a document's at each visit. A duplicate in
 * one document waits for the next action of the owner there, or for the visit that finds its work gone.
 */
export function keepTriggers(ss: Spreadsheet, p: { wanted: boolean; agenda: Agenda; id: string; mayCreate: boolean; oncePerRun: boolean }): void {
  if (p.oncePerRun && !p.mayCreate && Object.keys(p.agenda).length >= 2) {
    if (!retiredPastFew) retirePastFew();
    return;
  }
  const workElsewhere = Object.keys(p.agenda).some((d) => d !== p.id);
  const existing = ours(ss);
  const here = existing.find((t) => t.getHandlerFunction() === DISPATCHER);
  // The owner's other triggers matter only while they have work in other documents: one call, asked only then.
  const others = workElsewhere && (here || p.wanted) ? ScriptApp.getProjectTriggers().filter((t) => t.getHandlerFunction() === DISPATCHER) : [];
  const all = [...new Set([...others.map((t) => t.getUniqueId()), ...(here ? [here.getUniqueId()] : [])])];
  const plan = triggerPlan({ ownWork: p.wanted, workElsewhere, here: here?.getUniqueId() ?? null, all });
  for (const t of existing) if (t !== here || plan !== 'keep') ScriptApp.deleteTrigger(t);
  if (plan === 'create' && p.mayCreate) {
    try {
      ScriptApp.newTrigger(DISPATCHER).timeBased().everyHours(1).create();
    } catch {
      // One time-driven trigger per user per document: whatever of ours is left there is in the way.
      for (const t of ScriptApp.getUserTriggers(ss)) ScriptApp.deleteTrigger(t);
      ScriptApp.newTrigger(DISPATCHER).timeBased().everyHours(1).create();
    }
  }
}

/** The owner's triggers past the first few (by id, as triggerPlan ranks them) go: what each document's upkeep would do. */
function retirePastFew(): void {
  retiredPastFew = true;
  const mine = ScriptApp.getProjectTriggers().filter((t) => t.getHandlerFunction() === DISPATCHER);
  const ids = mine.map((t) => t.getUniqueId());
  mine.forEach((t, i) => {
    if (triggerPlan({ ownWork: true, workElsewhere: true, here: ids[i], all: ids }) !== 'keep') ScriptApp.deleteTrigger(t);
  });
}

/** Deletes the owner's trigger `uid`. */
export function retire(uid: string): void {
  for (const t of ScriptApp.getProjectTriggers()) if (t.getUniqueId() === uid) ScriptApp.deleteTrigger(t);
}
