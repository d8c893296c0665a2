/**
 * Which sheets a report may write. The add-on's own sheets (Histórico, bulk
 * templates, dashboards) and another report's sheet are never targets: two reports on one
 * sheet would overwrite each other, and an import into Histórico wipes the run
 * log. Sheets are recognised by their metadata, which survives renaming.
 */
import { HISTORY_SHEET } from './history';
import type { Report } from './reports';
import { SHEET_TAG } from './sheet-layout';
import type { BookPort, SheetPort } from './sheet-port';

/** Why `sheet` cannot receive the report `reportId` (undefined for a new one); null when it can. */
export function targetProblem(sheet: SheetPort, reports: readonly Report[], reportId: string | undefined): string | null {
  const name = sheet.name();
  const tag = sheet.sheetTag(SHEET_TAG) ?? '';
  if (tag === 'historico' || name === HISTORY_SHEET)
    return `A aba "${name}" é o histórico de execuções do complemento e não recebe importações. Escolha outra aba.`;
  if (tag.startsWith('painel:')) return `A aba "${name}" é um painel do complemento (Painéis) e não recebe importações. Escolha outra aba.`;
  if (tag.startsWith('modelo:')) return `A aba "${name}" é um modelo de lançamentos em lote e não recebe importações. Escolha outra aba.`;
  const owner = reports.find(
    (r) => r.id !== reportId && (r.sheetId === sheet.id || (r.sheetId === undefined && r.sheetName === name) || tag === `relatorio:${r.id}`),
  );
  if (owner) return `A aba "${name}" já é do relatório "${owner.name}": cada relatório tem a sua aba. Escolha outra ou crie uma nova.`;
  return null;
}

/** The sheets a report may be pointed at, by name. */
export function targetNames(book: BookPort, reports: readonly Report[], reportId: string | undefined): string[] {
  return book.sheetNames().filter((name) => {
    const sheet = book.byName(name);
    return sheet !== null && targetProblem(sheet, reports, reportId) === null;
  });
}
