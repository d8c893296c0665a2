/**
 * What the last hourly run saw of the document (active spreadsheet, document
 * properties, document lock): whether Google gives an editor add-on's
 * time-driven trigger these is not settled, so the run records it for the
 * Diagnóstico (diagnostics.ts). And what an hourly run with nothing due took,
 * from its trigger's firing: the start-up every execution pays before its
 * first line, which no execution can time of itself, and its whole length.
 */
import { executionStarted } from './execution-limit';
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

/** What the last hourly run with nothing due took, written by the dispatcher into the user's properties. */
export const IDLE_RUN_KEY = 'faturamento.diagnostico.partida';

export interface IdleRunSeen {
  at: number;
  /** From the trigger's firing to the add-on's first line. */
  startupMs: number;
  /** From the trigger's firing to the run's end. */
  durationMs: number;
}

/** A trigger's event older than this before the first line names the time it was due, not this execution's start. */
const LONGEST_STARTUP_MS = 60_000;

/**
 * When the trigger fired: its event's time, to the second (so a little
 * early, never late), or null when there is no event or its time is not this
 * execution's start.
 */
export function firedAt(e?: GoogleAppsScript.Events.TimeDriven): number | null {
  if (!e || typeof e.year !== 'number') return null;
  const [year, month, day, hour, minute, second] = [e.year, e.month, e['day-of-month'], e.hour, e.minute, e.second];
  const at =
    !e.timezone || e.timezone === 'UTC'
      ? Date.UTC(year, month - 1, day, hour, minute, second)
      : Utilities.parseDate(`${year}-${month}-${day} ${hour}:${minute}:${second}`, e.timezone, 'yyyy-M-d H:m:s').getTime();
  const before = executionStarted() - at;
  return before >= 0 && before <= LONGEST_STARTUP_MS ? at : null;
}

/** The property to write for a run that had nothing due, beside its usage; nothing without its firing time. */
export function idleRunSeen(fired: number | null): Record<string, string> {
  if (fired === null) return {};
  const seen: IdleRunSeen = { at: Date.now(), startupMs: executionStarted() - fired, durationMs: Date.now() - fired };
  return { [IDLE_RUN_KEY]: JSON.stringify(seen) };
}
