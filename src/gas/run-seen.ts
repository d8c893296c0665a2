/**
 * What the last hourly run saw of the document (active spreadsheet, document
 * properties, document lock): whether Google gives an editor add-on's
 * time-driven trigger these is not settled, so the run records it for the
 * Diagnóstico (diagnostics.ts).
 */
import { hadDocumentLock } from './lock';
import { userStore } from './services';

/** What the last hourly run saw, written by the dispatcher into the user's properties. */
export const LAST_RUN_KEY = 'faturamento.diagnostico.execucao';

export interface HourlyRunSeen {
  at: number;
  activeSpreadsheet: boolean;
  documentProperties: boolean;
  documentLock: boolean;
}

/** Called by the hourly run once it is done: what Google gave it (whether it had an active spreadsheet, as it asked once). Never throws. */
export function recordHourlyRunSeen(activeSpreadsheet: boolean): void {
  try {
    const seen: HourlyRunSeen = { at: Date.now(), activeSpreadsheet, documentProperties: false, documentLock: false };
    try {
      seen.documentProperties = PropertiesService.getDocumentProperties() !== null;
    } catch {
      // Seen as false.
    }
    seen.documentLock = hadDocumentLock();
    userStore().set(LAST_RUN_KEY, JSON.stringify(seen));
  } catch {
    // A diagnostic must never stop the run it observes.
  }
}
