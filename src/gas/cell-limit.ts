/**
 * Google's 10-million-cell limit per spreadsheet, met by a write that would
 * grow a sheet or add one. Google refuses such a write whole, in English; the
 * add-on refuses in Portuguese, before writing where it can count the cells,
 * and turns Google's refusal into the same words where it cannot.
 */
import { UserError } from '../api/user-error';
import { CELL_LIMIT, CELL_LIMIT_TEXT } from '../core/sheet-port';

type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;

export class CellLimitError extends UserError {
  override name = 'CellLimitError';
}

const GOOGLE_LIMIT = /10000000 cells|10,000,000|10 million/i;

function refusal(what: string): CellLimitError {
  return new CellLimitError(
    `${what} não foi gravado: a planilha chegou ao limite de células do Google, e o que já estava salvo continua igual. ${CELL_LIMIT_TEXT}`,
  );
}

/** Every sheet's whole grid, as Google counts it. */
export function totalCells(ss: Spreadsheet): number {
  return ss.getSheets().reduce((n, s) => n + s.getMaxRows() * s.getMaxColumns(), 0);
}

/** Refuses, before writing, a write that adds `cells` to the spreadsheet past the limit. */
export function checkRoom(ss: Spreadsheet, cells: number, what: string): void {
  if (totalCells(ss) + cells > CELL_LIMIT) throw refusal(what);
}

/** Runs a write; Google's refusal at the cell limit comes out in Portuguese. */
export function withinCellLimit<T>(what: string, write: () => T): T {
  try {
    return write();
  } catch (err) {
    if (GOOGLE_LIMIT.test(String((err as Error)?.message ?? err))) throw refusal(what);
    throw err;
  }
}
