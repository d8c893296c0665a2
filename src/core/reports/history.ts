/** The `Histórico` sheet: one row per finished run, manual or scheduled. */
import { bounded, CELL_TEXT_MAX } from '../bounds';
import type { RunSummary } from './reports';
import { RESULT_LABEL } from '../run-state';
import { SHEET_TAG } from '../sheets/sheet-layout';
import { HISTORY_SHEET } from '../sheets/sheet-names';
import type { BookPort, SheetPort } from '../sheets/sheet-port';
import type { CellValue } from '../sheets/table';

// "Quem" came last, after sheets already held the first seven: a Histórico made before it keeps its rows in place.
const HEADER = ['Quando', 'Relatório', 'Origem', 'Linhas', 'Duração (s)', 'Resultado', 'Mensagem', 'Quem'];
const FORMATS = ['dd/MM/yyyy HH:mm:ss', '@', '@', '0', '0.0', '@', '@', '@'];
const WHO = HEADER.length;

/** The Histórico sheet, made (or given its last column) when needed. */
function historySheet(book: BookPort): SheetPort {
  // By its metadata first: a renamed Histórico stays the one.
  let sheet = book.tagged(SHEET_TAG, 'historico')[0]?.sheet ?? book.byName(HISTORY_SHEET);
  if (!sheet) {
    sheet = book.create(HISTORY_SHEET);
    sheet.setSheetTag(SHEET_TAG, 'historico');
    sheet.ensureSize(2, HEADER.length);
    sheet.setFormats(
      1,
      1,
      1,
      HEADER.map(() => '@'),
    );
    sheet.write(1, 1, [HEADER]);
    sheet.freezeRows(1);
    sheet.setHeaderStyle(HEADER.length);
  } else if (sheet.lastColumn() < WHO) {
    sheet.ensureSize(1, WHO);
    sheet.setFormats(1, WHO, 1, ['@']);
    sheet.write(1, WHO, [[HEADER[WHO - 1]]]);
  }
  return sheet;
}

function appendRow(book: BookPort, row: CellValue[]): void {
  const sheet = historySheet(book);
  const at = Math.max(sheet.lastRow(), 1) + 1;
  sheet.ensureSize(at, HEADER.length);
  sheet.setFormats(at, 1, 1, FORMATS);
  sheet.write(at, 1, [row]);
}

/** One row for a finished run; `who` is the e-mail of the person whose run it was (in a shared sheet, one of several). */
export function appendHistory(book: BookPort, reportName: string, run: RunSummary, who = ''): void {
  const message = bounded([run.message, ...(run.warnings ?? [])].filter(Boolean).join(' '), CELL_TEXT_MAX);
  appendRow(book, [
    new Date(run.finishedAt ?? run.startedAt),
    reportName,
    run.origin === 'agendado' ? 'Agendado' : 'Manual',
    run.rows,
    Math.round(run.durationMs / 100) / 10,
    RESULT_LABEL[run.result],
    message,
    who,
  ]);
}

/** One row for a scheduled start that did not run, with what it was instead (`result`) and why: no lines, no time spent. */
export function appendSkipped(book: BookPort, reportName: string, at: number, result: string, message: string, who = ''): void {
  appendRow(book, [new Date(at), reportName, 'Agendado', 0, 0, result, message, who]);
}
