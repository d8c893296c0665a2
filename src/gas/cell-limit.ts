/**
 * Google's 10-million-cell limit per spreadsheet, met by a write that would
 * grow a sheet or add one. Google refuses such a write whole, in English (an
 * appended row, an inserted sheet: nothing half-written); the add-on says it
 * in Portuguese. A pull counts first (core/pull/cell-limit.ts): its writes are many.
 */
import { UserError } from '../api/user-error';
import { CELL_LIMIT_TEXT, GOOGLE_CELL_LIMIT } from '../core/sheets/sheet-port';

type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;

/** Thrown when Google refuses a write (a row appended, a sheet added) because the spreadsheet is at its cell limit. */
export class CellLimitError extends UserError {
  override name = 'CellLimitError';
}

function refusal(what: string): CellLimitError {
  return new CellLimitError(
    `${what} não foi gravado: a planilha chegou ao limite de células do Google, e o que já estava salvo continua igual. ${CELL_LIMIT_TEXT}`,
  );
}

/** Runs a write; Google's refusal at the cell limit comes out in Portuguese. */
export function withinCellLimit<T>(what: string, write: () => T): T {
  try {
    return write();
  } catch (err) {
    if (GOOGLE_CELL_LIMIT.test(String((err as Error)?.message ?? err))) throw refusal(what);
    throw err;
  }
}

/** A new sheet after the others, refused in Portuguese at the cell limit. */
export function insertSheetAtEnd(ss: Spreadsheet, name: string): GoogleAppsScript.Spreadsheet.Sheet {
  return withinCellLimit(`A aba "${name}"`, () => ss.insertSheet(name, ss.getSheets().length));
}
