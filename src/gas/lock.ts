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
import { flushWrites } from './services';

/** Thrown when another execution still holds the document or user lock after the wait. */
export class BusyError extends UserError {
  override name = 'BusyError';
}

const BUSY =
  'Outra execução do complemento está gravando nesta planilha agora (uma importação, um lançamento em lote ou uma atualização agendada). Tente de novo em alguns instantes.';

/** Whether this execution has held the document's lock: what the hourly run reports to the Diagnóstico. */
let heldDocumentLock = false;

export function hadDocumentLock(): boolean {
  return heldDocumentLock;
}

/** `inDocument`: false when the document was opened by id, whose lock this execution cannot take. */
export function withDocumentLock<T>(work: () => T, waitMs = 30_000, inDocument = true): T {
  const started = Date.now();
  const documentLock = inDocument ? LockService.getDocumentLock() : null;
  if (documentLock && !documentLock.tryLock(waitMs)) throw new BusyError(BUSY);
  if (documentLock) heldDocumentLock = true;
  try {
    const userLock = LockService.getUserLock();
    if (!userLock.tryLock(Math.max(0, waitMs - (Date.now() - started)))) throw new BusyError(BUSY);
    try {
      return work();
    } finally {
      // Sheets keeps writes until a flush: the next holder of the lock must read what this one wrote.
      flushWrites();
      userLock.releaseLock();
    }
  } finally {
    documentLock?.releaseLock();
  }
}
