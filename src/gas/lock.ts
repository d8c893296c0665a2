/**
 * One writer at a time: a sidebar step, a bulk batch or the dispatcher. The
 * document lock keeps editors' sidebars and a trigger run in the document's
 * context apart; the user lock keeps one person's runs apart, including their
 * trigger when it runs without the document (there is no document lock then).
 * Two owners' trigger runs without the document do not exclude each other:
 * each only writes what it owns (its own reports' sheets, its own keys in the
 * work store, new keys appended atomically). What a holder wrote is flushed
 * before its locks go.
 */
import { UserError } from '../api/user-error';
import { flushWrites, holdUserProperties, releaseUserProperties } from './services';

/** Thrown when another execution still holds the document or user lock after the wait. */
export class BusyError extends UserError {
  override name = 'BusyError';
}

/** The user lock was held: another execution of the same person (a sidebar step, another hourly run) is working. */
export class OwnerBusyError extends BusyError {
  override name = 'OwnerBusyError';
}

const BUSY =
  'Outra execução do complemento está gravando nesta planilha agora (uma importação, um lançamento em lote ou uma atualização agendada). Tente de novo em alguns instantes.';

/** Whether this execution has held the document's lock: what the hourly run reports to the Diagnóstico. */
let heldDocumentLock = false;
/** Whether this execution holds the user lock now: work inside work that took it does not take it again (nor release it early). */
let holdingUserLock = false;

export function hadDocumentLock(): boolean {
  return heldDocumentLock;
}

/** `work` alone among the user's executions, under their user lock (taken here unless this execution holds it already). */
export function withUserLock<T>(work: () => T, waitMs = 30_000): T {
  if (holdingUserLock) return work();
  const userLock = LockService.getUserLock();
  if (!userLock.tryLock(waitMs)) throw new OwnerBusyError(BUSY);
  holdingUserLock = true;
  // The user's other executions change their properties under this lock (what they write without it, the day's
  // usage and connections edited by hand, is read live or once an execution anyway): one read of them all serves.
  holdUserProperties();
  try {
    return work();
  } finally {
    // Sheets keeps writes until a flush: the next holder of the lock must read what this one wrote.
    flushWrites();
    releaseUserProperties();
    holdingUserLock = false;
    userLock.releaseLock();
  }
}

/**
 * `inDocument`: false when the document was opened by id, whose lock this
 * execution cannot take. `userWaitMs`: how long to wait for the user lock
 * (by default what is left of `waitMs`).
 */
export function withDocumentLock<T>(work: () => T, waitMs = 30_000, inDocument = true, userWaitMs?: number): T {
  const started = Date.now();
  const documentLock = inDocument ? LockService.getDocumentLock() : null;
  if (documentLock && !documentLock.tryLock(waitMs)) throw new BusyError(BUSY);
  if (documentLock) heldDocumentLock = true;
  try {
    return withUserLock(work, userWaitMs ?? Math.max(0, waitMs - (Date.now() - started)));
  } finally {
    documentLock?.releaseLock();
  }
}
