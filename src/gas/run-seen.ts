/**
 * What the last hourly run saw of the document (active spreadsheet, document
 * properties, document lock): whether Google gives an editor add-on's
 * time-driven trigger these is not settled, so the run records it for the
 * Diagnóstico (diagnostics.ts).
 */
import { hadDocumentLock } from './lock';

/** What the last hourly run saw, written by the dispatcher into the user's properties. */
export const LAST_RUN_KEY = 'faturamento.diagnostico.execucao';

export interface HourlyRunSeen {
  at: number;
  activeSpreadsheet: boolean;
  documentProperties: boolean;
  documentLock: boolean;
}

/**
 * What the hourly run saw (whether it had an active spreadsheet, as it asked
 * once): the property to write, which the run's usage takes along in its own
 * write. Never throws.
 */
export function hourlyRunSeen(activeSpreadsheet: boolean): Record<string, string> {
  const seen: HourlyRunSeen = { at: Date.now(), activeSpreadsheet, documentProperties: false, documentLock: false };
  try {
    seen.documentProperties = PropertiesService.getDocumentProperties() !== null;
  } catch {
    // Seen as false.
  }
  seen.documentLock = hadDocumentLock();
  return { [LAST_RUN_KEY]: JSON.stringify(seen) };
}
