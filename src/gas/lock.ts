/** One writer per document at a time: a sidebar step, a bulk batch or the dispatcher. */
export class BusyError extends Error {
  override name = 'BusyError';
}

export function withDocumentLock<T>(work: () => T, waitMs = 30_000): T {
  const lock = LockService.getDocumentLock() ?? LockService.getUserLock();
  if (!lock.tryLock(waitMs)) {
    throw new BusyError(
      'Outra execução do complemento está gravando nesta planilha agora (uma importação, um lançamento em lote ou uma atualização agendada). Tente de novo em alguns instantes.',
    );
  }
  try {
    return work();
  } finally {
    lock.releaseLock();
  }
}
