/**
 * Where the add-on's columns are in a sheet people edit. Each column we write
 * carries developer metadata naming its field, which moves with the column when
 * the user inserts, deletes or moves columns; untagged columns are the user's
 * and are never written. A column of ours the user deleted is rebuilt beside
 * its neighbours, never filled by shifting the others.
 */
import type { SheetPort } from './sheet-port';
import type { Column } from './table';

/** Column metadata: the value is the field key (the same as the header note's first line). */
export const COLUMN_TAG = 'faturamento.coluna';
/** Sheet metadata: what the sheet is to the add-on (`relatorio:<id>`, `historico`, `modelo:<operação>`, `painel:<id>`). */
export const SHEET_TAG = 'faturamento.aba';
/** Sheet metadata: the listing a report sheet holds. */
export const LISTING_TAG = 'faturamento.listagem';
/**
 * Starts the header note of every column a bulk run writes beside the rows (Status do lote, ID da NFS-e…): the
 * add-on's own results, never the user's cells. A column titled "Status" that holds a record's own status (an
 * imported sheet) is never taken for ours.
 */
export const RESULT_NOTE = 'Resultado do lançamento em lote, preenchido pelo complemento.';

/**
 * The field key of a report sheet's "Recebido em": when each row was last received. A row a full refresh kept for
 * the user's notes after its record left has it blank, and no panel counts it.
 */
export const RECEIVED_KEY = '$recebidoEm';

/** The 1-based columns of a header row whose note says they hold bulk results. */
export function resultColumns(notes: readonly string[]): number[] {
  return notes.flatMap((note, i) =>
    String(note ?? '')
      .trimStart()
      .startsWith(RESULT_NOTE)
      ? [i + 1]
      : [],
  );
}

/** Sheet metadata: the layout version (`Column.since`) of the columns last laid out; none on a sheet from before versions. */
export const LAYOUT_TAG = 'faturamento.versao';

/**
 * A header note: the field key alone on the first line (what adopting an old
 * sheet and finding an open child's columns read), then what the codes mean.
 */
export function headerNote(column: Pick<Column, 'key' | 'note'>): string {
  return column.note ? `${column.key}\n${column.note}` : column.key;
}

/**
 * The field key of a header note written by `headerNote`: its first line when
 * that line is one key-like word, else "" (a note the user wrote, which never
 * names a column of ours). What follows the first line is never read.
 */
export function noteKey(note: string): string {
  const first = String(note ?? '')
    .split('\n', 1)[0]
    .trim();
  return /^[$\w][\w.$]*$/.test(first) ? first : '';
}

export interface Layout {
  /** 1-based column of each table column, in table order. */
  positions: number[];
  /** Labels of our columns that were missing and were rebuilt. */
  rebuilt: string[];
  /** Labels of our columns newer than the sheet's layout, added beside their neighbours. */
  added: string[];
  /** Whether every column was where its metadata said before this run (no rebuild, no adoption). */
  intact: boolean;
}

/** Consecutive runs of columns: [first column, indexes into the table's columns]. */
export function columnRuns(positions: readonly number[]): Array<{ column: number; indexes: number[] }> {
  const order = positions.map((p, i) => ({ p, i })).sort((a, b) => a.p - b.p);
  const runs: Array<{ column: number; indexes: number[] }> = [];
  for (const { p, i } of order) {
    const last = runs[runs.length - 1];
    if (last && last.column + last.indexes.length === p) last.indexes.push(i);
    else runs.push({ column: p, indexes: [i] });
  }
  return runs;
}

/** Reads where our columns are without changing anything; null for a column that is missing. */
export function findColumns(sheet: SheetPort, columns: readonly Column[]): Array<number | null> {
  const tags = sheet.columnTags(COLUMN_TAG);
  return columns.map((c) => tags.get(c.key) ?? null);
}

/**
 * Finds our columns, adopting untagged ones whose header note names a field
 * (sheets written before columns carried metadata), clearing our columns of
 * fields when the report switched listings (`sameListing` false, or null for a
 * sheet that does not say and lacks this table's id column) and rebuilding
 * missing ones beside their neighbours. `known` are every field key any of our
 * tables writes; `idKey` is this table's id field; `tagged`: our columns as the
 * run already read them, else read here.
 */
export function resolveLayout(...args: Parameters<typeof resolveHeader>): Layout {
  return resolveHeader(...args).layout;
}

/** The layout (see resolveLayout), and the header's notes as read when it moved no column: what laying the header out again need not rewrite. */
export function resolveHeader(
  sheet: SheetPort,
  columns: readonly Column[],
  known: ReadonlySet<string>,
  idKey: string,
  sameListing: boolean | null,
  tagged?: ReadonlyMap<string, number>,
): { layout: Layout; notes?: readonly string[] } {
  const tags = tagged ? new Map(tagged) : sheet.columnTags(COLUMN_TAG);
  const laidOut = Number(sheet.sheetTag(LAYOUT_TAG) ?? 1);
  const version = String(Math.max(1, ...columns.map((c) => c.since ?? 1)));
  if (sheet.sheetTag(LAYOUT_TAG) !== version) sheet.setSheetTag(LAYOUT_TAG, version);
  let intact = tags.size > 0;
  const wanted = new Set(columns.map((c) => c.key));
  const freed: number[] = [];
  const lastColumn = sheet.lastColumn();
  const notes = lastColumn > 0 ? sheet.readNotes(1, 1, lastColumn) : [];
  if (lastColumn > 0) {
    const taggedAt = new Set(tags.values());
    notes.forEach((note, i) => {
      const column = i + 1;
      const key = noteKey(note);
      if (taggedAt.has(column) || !known.has(key)) return;
      intact = false;
      sheet.tagColumn(column, COLUMN_TAG, key);
      tags.set(key, column);
    });
  }
  // A sheet from before sheets carried their listing: another listing's columns lack this table's id.
  const switched = tags.size > 0 && !(sameListing ?? tags.has(idKey));
  for (const [key, column] of [...tags]) {
    if (wanted.has(key) && !switched) continue;
    clearColumn(sheet, column);
    sheet.untagColumn(COLUMN_TAG, key);
    tags.delete(key);
    freed.push(column);
  }
  const positions: Array<number | null> = columns.map((c) => tags.get(c.key) ?? null);
  const rebuilt: string[] = [];
  const added: string[] = [];
  if (positions.every((p) => p === null)) {
    // A new sheet, one the user chose to replace, or our old columns cleared: the first free places.
    freed.sort((a, b) => a - b);
    let next = Math.max(lastColumn, ...freed, 0);
    const at = columns.map((_, i) => freed[i] ?? (freed.length ? ++next : i + 1));
    sheet.ensureSize(2, Math.max(...at));
    columns.forEach((c, i) => sheet.tagColumn(at[i], COLUMN_TAG, c.key));
    return { layout: { positions: at, rebuilt, added, intact: false } };
  }
  columns.forEach((c, i) => {
    if (positions[i] !== null) return;
    // Beside the nearest column of ours to its left (or before the first one), so the user's columns keep their cells.
    let after = 0;
    for (let j = i - 1; j >= 0; j--) {
      if (positions[j] !== null) {
        after = positions[j] as number;
        break;
      }
    }
    if (after === 0) after = Math.min(...(positions.filter((p) => p !== null) as number[])) - 1;
    sheet.insertColumnsAfter(after, 1);
    for (let j = 0; j < positions.length; j++) if (positions[j] !== null && (positions[j] as number) > after) positions[j] = (positions[j] as number) + 1;
    positions[i] = after + 1;
    sheet.tagColumn(after + 1, COLUMN_TAG, c.key);
    ((c.since ?? 1) > laidOut ? added : rebuilt).push(c.label);
  });
  const whole = intact && rebuilt.length + added.length === 0;
  return { layout: { positions: positions as number[], rebuilt, added, intact: whole }, notes: whole ? notes : undefined };
}

function clearColumn(sheet: SheetPort, column: number): void {
  sheet.clear(1, column, Math.max(sheet.lastRow(), 1), 1);
  sheet.setNotes(1, column, ['']);
}
