/** One writer per document at a time: a sidebar step, a bulk batch or the dispatcher. */
export class BusyError extends Error {
  override name = 'BusyError';
}

/** Which lock the current holder got: the document's, or the user's when there is no document (for the Diagnóstico). */
let held: 'document' | 'user' | null = null;

export function heldLock(): 'document' | 'user' | null {
  return held;
}

export function withDocumentLock<T>(work: () => T, waitMs = 30_000): T {
  const documentLock = LockService.getDocumentLock();
  const lock = documentLock ?? LockService.getUserLock();
  if (!lock.tryLock(waitMs)) {
    throw new BusyError(
      'Outra execução do complemento está gravando nesta planilha agora (uma importação, um lançamento em lote ou uma atualização agendada). Tente de novo em alguns instantes.',
    );
  }
  held = documentLock ? 'document' : 'user';
  try {
    return work();
  } finally {
    held = null;
    lock.releaseLock();
  }
}
