/**
 * A bulk run's line in Histórico when it ends (done or stopped), as every
 * report's run has one: who sent how many rows of what, from which tab, and
 * when. A run that stops on an error and is continued later gets its line
 * when it ends.
 */
import { appendHistory } from '../reports/history';
import { HISTORY_SHEET } from '../sheets/sheet-names';
import type { RunResult } from '../run-state';
import { type BulkDeps, type BulkJob, progressOf } from './state';

export function recordEnd(deps: BulkDeps, job: BulkJob): void {
  const p = progressOf(job);
  const c = job.counts;
  const result: RunResult = job.status === 'cancelled' ? 'cancelado' : c.failed + c.pending ? 'parcial' : 'ok';
  const now = deps.now();
  try {
    // Making Histórico (its first line) shows it, as Sheets shows a sheet it inserts: the person stays on their tab.
    const shown = deps.book.byName(HISTORY_SHEET) ? null : deps.book.selection().sheetId;
    appendHistory(
      deps.book,
      `${p.label} · aba "${job.sheetName}"`,
      { startedAt: job.startedAt, finishedAt: now, origin: 'manual', rows: p.processed, durationMs: now - job.startedAt, result, message: job.message },
      job.owner?.email,
    );
    if (shown !== null) deps.book.activate(shown, []);
  } catch {
    // A spreadsheet at the cell limit has no room for Histórico's row: each row's Status still says how it went.
  }
}
