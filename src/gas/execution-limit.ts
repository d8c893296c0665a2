/**
 * When this execution must be over. The bundle's top level runs at the start
 * of every execution, so this module's load time is the execution's start.
 */
const STARTED = Date.now();

/** Apps Script kills an execution at 6 minutes without notice. */
const EXECUTION_MS = 6 * 60_000;
/** Kept free for what runs after the last step: the sidebar's answer, the Histórico row, the trigger upkeep. */
const MARGIN_MS = 30_000;

/** Epoch ms this execution started at. */
export function executionStarted(): number {
  return STARTED;
}

/** Epoch ms no step of this execution may pass. */
export function executionLimit(): number {
  return STARTED + EXECUTION_MS - MARGIN_MS;
}
