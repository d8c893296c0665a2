/**
 * A lot too large for its job to keep each row's key keeps each row's place in
 * the lot in the sheet itself: a column of ours says, beside every row still to
 * go, which lot and which pass it waits for. The rows travel with their marks
 * wherever the user sorts or moves them, so a later execution finds the rows
 * still to go by their marks, never by their numbers, and a row whose result
 * is written loses its mark in the same batch: it is never counted again.
 */
import type { MarkupSheetPort } from '../sheets/sheet-port';
import type { CellValue } from '../sheets/table';
import { plural } from '../../api/words';
import { expandRuns, runsOf, writeColumn } from './sheet-io';
import type { BulkJob } from './state';

/** The column's developer metadata: found wherever the user moves it. */
const MARK_TAG = 'faturamento.lote';
const MARK_VALUE = 'fila';
const MARK_TITLE = 'Lote em andamento (não editar)';

/** The mark of a row waiting for pass `pass` of the lot `mark`. */
const waiting = (mark: string, pass: number): string => `${mark}:${pass}`;

/** A tag no earlier lot of the sheet had (its start), never read as a number or a time. */
export const lotMark = (startedAt: number): string => `L${startedAt.toString(36)}`;

/** The column of the marks, added at the end of the sheet when `create` and it is not there. */
export function markColumn(sheet: MarkupSheetPort, create = false): number | undefined {
  const found = sheet.columnTags(MARK_TAG).get(MARK_VALUE);
  if (found !== undefined || !create) return found;
  const column = sheet.lastColumn() + 1;
  const rows = Math.max(sheet.lastRow(), 2);
  sheet.ensureSize(rows, column);
  sheet.setFormats(1, column, rows, ['@']);
  sheet.write(1, column, [[MARK_TITLE]]);
  sheet.tagColumn(column, MARK_TAG, MARK_VALUE);
  return column;
}

/** Every row of a lot just started marked as waiting for its first pass, in one write. */
export function markLot(sheet: MarkupSheetPort, mark: string, rows: readonly number[]): void {
  const column = markColumn(sheet, true) as number;
  writeColumn(sheet, column, new Map(rows.map((r) => [r, waiting(mark, 0)])));
}

/** After a batch: each of its rows settled loses its mark; one left PENDENTE waits for the next pass. */
export function settleMarks(sheet: MarkupSheetPort, job: BulkJob, rows: readonly number[], pending: ReadonlySet<number>): void {
  const column = job.mark === undefined ? undefined : markColumn(sheet);
  if (column === undefined || rows.length === 0) return;
  const next = waiting(job.mark as string, job.pass + 1);
  writeColumn(sheet, column, new Map<number, CellValue>(rows.map((r) => [r, pending.has(r) ? next : ''])));
}

/**
 * The rows of the lot still to go, wherever they are now: this pass's from the top, and the next pass's.
 * A row that left the sheet (or lost its mark) is told, and no longer counted PENDENTE: nothing was written for it.
 */
export function placeByMarks(sheet: MarkupSheetPort, job: BulkJob): void {
  const column = job.mark === undefined ? undefined : markColumn(sheet);
  if (column === undefined) return;
  const last = sheet.lastRow();
  const marks = last < 2 ? [] : sheet.read(2, column, last - 1, 1);
  const rows = (pass: number) => marks.flatMap(([m], i) => (String(m) === waiting(job.mark as string, pass) ? [i + 2] : []));
  const current = rows(job.pass);
  const retry = rows(job.pass + 1);
  const goneNow = expandRuns(job.ranges).length - job.cursor - current.length;
  const goneRetry = expandRuns(job.retry).length - retry.length;
  const gone = goneNow + goneRetry;
  if (gone > 0) {
    // Rows of a later pass, and those of the next, were counted PENDENTE when their result was.
    job.counts.pending = Math.max(0, job.counts.pending - goneRetry - (job.pass > 0 ? goneNow : 0));
    const told = plural(
      gone,
      'linha do lote saiu da aba (ou perdeu a marca do lote) e não foi processada',
      'linhas do lote saíram da aba (ou perderam a marca do lote) e não foram processadas',
    );
    job.warnings = [...job.warnings, `${told}.`];
  }
  job.ranges = runsOf(current);
  job.retry = runsOf(retry);
  job.cursor = 0;
}
