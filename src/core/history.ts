/** The `Histórico` sheet: one row per finished run, manual or scheduled. */
import { bounded, CELL_TEXT_MAX } from './bounds';
import type { RunSummary } from './reports';
import { RESULT_LABEL } from './run-state';
import { SHEET_TAG } from './sheet-layout';
import type { BookPort } from './sheet-port';

export const HISTORY_SHEET = 'Histórico';
const HEADER = ['Quando', 'Relatório', 'Origem', 'Linhas', 'Duração (s)', 'Resultado', 'Mensagem'];
const FORMATS = ['dd/MM/yyyy HH:mm:ss', '@', '@', '0', '0.0', '@', '@'];

export function appendHistory(book: BookPort, reportName: string, run: RunSummary): void {
  // By its metadata first: a renamed Histórico stays the one.
  let sheet = book.tagged(SHEET_TAG).find((t) => t.value === 'historico')?.sheet ?? book.byName(HISTORY_SHEET);
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
  }
  const row = Math.max(sheet.lastRow(), 1) + 1;
  const message = bounded([run.message, ...(run.warnings ?? [])].filter(Boolean).join(' '), CELL_TEXT_MAX);
  sheet.ensureSize(row, HEADER.length);
  sheet.setFormats(row, 1, 1, FORMATS);
  sheet.write(row, 1, [
    [
      new Date(run.finishedAt ?? run.startedAt),
      reportName,
      run.origin === 'agendado' ? 'Agendado' : 'Manual',
      run.rows,
      Math.round(run.durationMs / 100) / 10,
      RESULT_LABEL[run.result],
      message,
    ],
  ]);
}
