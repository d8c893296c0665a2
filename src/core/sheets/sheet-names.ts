/**
 * Names of the sheets the add-on writes (a report's, its child sheets, the
 * Histórico), and the mark on a partial one: needed by the sidebars' forms and
 * by the bulk and dashboard code, without the import machinery (a lazy chunk
 * of the bundle, dev/build/lazy-chunks.ts).
 */
import type { BookPort } from './sheet-port';
import type { ChildTable } from './table';

/** The run log's sheet, found by its metadata first: a renamed Histórico stays the one. */
export const HISTORY_SHEET = 'Histórico';

/** Put before the first header of a sheet whose last run did not finish. */
export const PARTIAL_MARK = '⚠ INCOMPLETO · ';

/** Google's limit on a sheet's name. */
export const SHEET_NAME_MAX = 100;

/** Why Google would refuse `name` for a sheet, in words for the form; null when it is fine. */
export function sheetNameProblem(name: string): string | null {
  if (name.length > SHEET_NAME_MAX || /[[\]*?:/\\]/.test(name)) return `Use um nome de aba com até ${SHEET_NAME_MAX} caracteres, sem [ ] * ? : / \\`;
  return null;
}

/** A child sheet beside `sheetName`, cut to the limit (a long parent name may lose the label's end). */
export function childSheetName(sheetName: string, child: ChildTable): string {
  return `${sheetName} · ${child.label}`.slice(0, SHEET_NAME_MAX);
}

/** `base`, or the first `base (n)` no sheet has (sheet names are unique whatever their case). */
export function freeName(book: Pick<BookPort, 'sheetNames'>, base: string): string {
  const taken = new Set(book.sheetNames().map((n) => n.toLowerCase()));
  if (!taken.has(base.toLowerCase())) return base;
  for (let i = 2; ; i++) {
    const name = `${base.slice(0, SHEET_NAME_MAX - 5)} (${i})`;
    if (!taken.has(name.toLowerCase())) return name;
  }
}
