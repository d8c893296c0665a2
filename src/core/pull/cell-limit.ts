/**
 * Google Sheets holds at most 10 million cells per spreadsheet, counting every
 * sheet's whole grid. A pull refuses a write (or, when the service announces
 * its total, the whole pull) before anything of it is written, rather than
 * meeting the limit half-way.
 */
import { bounded } from '../bounds';
import { CELL_LIMIT, CELL_LIMIT_TEXT, GOOGLE_CELL_LIMIT, type SheetPort } from '../sheets/sheet-port';
import { ImportError } from './state';
import { plural } from '../../api/words';

/** A sheet that grows to `rows` rows of data (below its header) with `columns` of ours; `sheet` null: one still to be made. */
export interface Growth {
  sheet: SheetPort | null;
  rows: number;
  columns: number;
}

/** What Sheets gives a new sheet (insertSheet): 1,000 rows of 26 columns. */
const NEW_SHEET_ROWS = 1_000;
export const NEW_SHEET_COLUMNS = 26;

export { CELL_LIMIT_TEXT };

/**
 * Refuses when the sheets of a write (the report's and its child sheets)
 * would take the spreadsheet, now at `total` cells, past its limit. Growing a
 * sheet adds whole rows of its grid, so each projection uses the grid's width.
 */
export function checkCells(total: () => number, growths: readonly Growth[]): void {
  let projected = 0;
  for (const g of growths) {
    if (!g.sheet) {
      // Made with a new sheet's whole grid, then cut to its columns (BookPort.create), then grown.
      projected += Math.max(Math.max(g.rows + 1, NEW_SHEET_ROWS) * g.columns, NEW_SHEET_ROWS * NEW_SHEET_COLUMNS);
      continue;
    }
    const now = g.sheet.cells();
    projected += Math.max(now, (g.rows + 1) * Math.max(g.columns, g.sheet.maxColumns())) - now;
  }
  // No sheet grows: the spreadsheet holds what it held, which Sheets already allowed (and the total costs a read of every sheet).
  if (projected === 0) return;
  projected += total();
  if (projected > CELL_LIMIT) {
    const children = growths.length > 1 ? ' (com as abas de itens)' : '';
    throw new ImportError(`Esta importação${children} levaria a planilha a ${plural(projected, 'célula', 'células')}. ${CELL_LIMIT_TEXT}`);
  }
}

/** What a failure says, whatever was thrown. */
export function messageOf(err: unknown): string {
  return (err as Error)?.message ?? String(err);
}

/** A run's failure in words: Google's refusal at the cell limit becomes the add-on's own message, whoever's run it was. */
export function failureMessage(err: unknown): string {
  const raw = messageOf(err);
  return GOOGLE_CELL_LIMIT.test(raw) ? CELL_LIMIT_TEXT : bounded(raw, 2000);
}
