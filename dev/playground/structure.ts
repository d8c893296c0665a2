/**
 * The grid's structural edits (rows, columns, sort, tabs), each one call of the
 * emulator's own Spreadsheet API on the active sheet and selection, so the
 * developer metadata on rows, columns and sheets moves exactly as the emulator
 * (and Sheets) moves it: the add-on keeps finding its columns and records.
 */
import type { GasEmulator } from '../gas/runner';

export const STRUCTURE_ACTIONS = [
  'inserirLinhaAcima',
  'excluirLinha',
  'inserirColunaEsquerda',
  'excluirColuna',
  'classificarAZ',
  'classificarZA',
  'renomearAba',
  'excluirAba',
] as const;
export type StructureAction = (typeof STRUCTURE_ACTIONS)[number];

export interface StructureEdit {
  action: StructureAction;
  /** The new name, for renomearAba. */
  name?: string;
}

export function parseStructureEdit(body: { action?: unknown; name?: unknown }): StructureEdit {
  const action = String(body.action ?? '') as StructureAction;
  if (!STRUCTURE_ACTIONS.includes(action)) throw new Error(`Ação desconhecida: ${action}`);
  return body.name === undefined ? { action } : { action, name: String(body.name) };
}

/** Applies one edit to the active sheet at the selection; returns what was done, in words for the page. */
export function applyStructureEdit(emulator: GasEmulator, edit: StructureEdit): string {
  const selection = emulator.spreadsheet.selection;
  const target = selection ? emulator.spreadsheet.byId(selection.sheetId) : null;
  if (!selection || !target) throw new Error('Clique numa célula da aba primeiro.');
  let deleted = false;
  const message = emulator.withServices((s) => {
    const ss = s.SpreadsheetApp.getActiveSpreadsheet();
    const sheet = ss.getSheetByName(target.name);
    if (!sheet) throw new Error(`Aba "${target.name}" não existe`);
    const range = sheet.getRange(selection.ranges[selection.ranges.length - 1]);
    const [row, rows, column, columns] = [range.getRow(), range.getNumRows(), range.getColumn(), range.getNumColumns()];
    switch (edit.action) {
      case 'inserirLinhaAcima':
        sheet.insertRows(row, rows);
        return `${rows} linha(s) inserida(s) acima da ${row}.`;
      case 'excluirLinha':
        sheet.deleteRows(row, rows);
        return `Linha(s) ${row}–${row + rows - 1} excluída(s).`;
      case 'inserirColunaEsquerda':
        sheet.insertColumns(column, columns);
        return `${columns} coluna(s) inserida(s) à esquerda.`;
      case 'excluirColuna':
        sheet.deleteColumns(column, columns);
        return `${columns} coluna(s) excluída(s).`;
      case 'classificarAZ':
      case 'classificarZA':
        // As the menu's "Classificar página": below the frozen rows, by the selected column.
        sheet.sort(column, edit.action === 'classificarAZ');
        return `Aba classificada pela coluna ${column} (${edit.action === 'classificarAZ' ? 'A→Z' : 'Z→A'}).`;
      case 'renomearAba': {
        const name = String(edit.name ?? '').trim();
        if (!name) throw new Error('Informe o novo nome da aba.');
        sheet.setName(name);
        return `Aba renomeada para "${name}".`;
      }
      case 'excluirAba':
        ss.deleteSheet(sheet);
        deleted = true;
        return `Aba "${target.name}" excluída.`;
    }
  });
  if (deleted) {
    const first = emulator.sheetNames()[0];
    if (first !== undefined) emulator.select(first, 'A1');
  }
  return message;
}
