/**
 * Child sheets (e.g. "Faturas · Itens") as people edit them: found by sheet
 * metadata naming their parent sheet and field (never by name), and each row
 * written where its key is now, so cells the user typed to the right of our
 * columns stay beside their item whatever the user sorted.
 *
 * A child row's key is its parent's id plus the item's own id when the item
 * has one (its first field, named id…: idItemFatura, idTelefone, idTag,
 * idEventoCartao, idTransacaoPlanoConta, idDescontoAssinaturaContrato), else
 * plus its position among its parent's items (the rows of one parent are then
 * matched in the order they stand in the sheet).
 */
import { SHEET_TAG } from './sheet-layout';
import type { BookPort, SheetPort } from './sheet-port';
import type { CellValue, Column } from './table';

/** Sheet metadata of a child sheet: `<parent sheet id>:<array field>`. */
export const CHILD_TAG = 'faturamento.filha';

export function childTagValue(parentSheetId: number, field: string): string {
  return `${parentSheetId}:${field}`;
}

/**
 * The child sheet of `parentSheetId` for `field`, whatever the user renamed it to; null when there is none. Found
 * among every child sheet's tag (`tagged`, when the caller searched them already): one search of the spreadsheet serves
 * every child list of every report, where a search by value would serve one.
 */
export function findChildSheet(
  book: BookPort,
  parentSheetId: number,
  field: string,
  legacyName: string,
  tagged: ReadonlyArray<{ sheet: SheetPort; value: string }> = book.tagged(CHILD_TAG),
): SheetPort | null {
  const value = childTagValue(parentSheetId, field);
  const found = tagged.find((t) => t.value === value);
  if (found) return found.sheet;
  // A sheet an earlier version made (no metadata yet) is adopted once by its name; never a sheet that is something else of ours.
  const legacy = book.byName(legacyName);
  if (legacy && legacy.sheetTag(CHILD_TAG) === null && legacy.sheetTag(SHEET_TAG) === null) {
    legacy.setSheetTag(CHILD_TAG, value);
    return legacy;
  }
  return null;
}

/**
 * The parent's key of a child row: its id, or connection id + id in a
 * consolidated sheet, where `lead` columns (Empresa, the connection's id) come
 * before the parent's id and two companies' record 17 never collide; '' for a
 * row without one.
 */
export function parentKey(row: readonly CellValue[], lead = 0): string {
  const id = row[lead] ?? '';
  if (id === '') return '';
  return lead ? `${String(row[lead - 1])}|${String(id)}` : String(id);
}

/** Index of the item's own id among the child's columns (right after the parent's id); null when items have none. */
export function itemIdIndex(columns: readonly Column[], lead = 0): number | null {
  return columns.length > lead + 1 && /^id[A-Z]/.test(columns[lead + 1].key) ? lead + 1 : null;
}

/** Keys of rows in order: parent key + item id, or parent key + position among that parent's rows. */
export function childKeys(rows: readonly CellValue[][], idIndex: number | null, lead = 0): string[] {
  const positions = new Map<string, number>();
  return rows.map((row) => {
    const parent = parentKey(row, lead);
    // Stryker disable next-line ConditionalExpression: without an item id, row[null] is undefined and reads as '' all the same.
    const own = idIndex === null ? '' : String(row[idIndex] ?? '');
    if (own !== '') return `${parent}#${own}`;
    const n = (positions.get(parent) ?? 0) + 1;
    positions.set(parent, n);
    return `${parent}@${n}`;
  });
}

function runsOf(rows: number[]): Array<[number, number]> {
  const sorted = rows.slice().sort((a, b) => a - b);
  const out: Array<[number, number]> = [];
  for (const r of sorted) {
    const last = out[out.length - 1];
    if (last && r === last[1] + 1) last[1] = r;
    else out.push([r, r]);
  }
  return out;
}

const STALE_NOTE = 'Este item não veio na última atualização do registro. A linha ficou porque tem anotações suas; apague-a quando não precisar mais.';

/**
 * Rows to drop: deleted when they hold nothing of the user's (to the right of
 * our `width` columns), else kept and marked. Returns how many were deleted.
 */
function dropRows(sheet: SheetPort, rows: number[], width: number): number {
  if (rows.length === 0) return 0;
  const last = sheet.lastColumn();
  const userCells = new Set<number>();
  if (last > width) {
    const first = Math.min(...rows);
    const extra = sheet.read(first, width + 1, Math.max(...rows) - first + 1, last - width);
    for (const r of rows) if (extra[r - first].some((v) => v !== '')) userCells.add(r);
  }
  const gone = rows.filter((r) => !userCells.has(r));
  for (const [first, lastRow] of runsOf(gone).reverse()) sheet.deleteRows(first, lastRow - first + 1);
  for (const r of userCells) sheet.setNote(r - gone.filter((g) => g < r).length, 1, STALE_NOTE);
  return gone.length;
}

function readKeys(sheet: SheetPort, idIndex: number | null, lead: number): { keys: string[]; parents: string[] } {
  const last = sheet.lastRow();
  if (last < 2) return { keys: [], parents: [] };
  const rows = sheet.read(2, 1, last - 1, idIndex === null ? lead + 1 : idIndex + 1);
  return { keys: childKeys(rows, idIndex, lead), parents: rows.map((r) => parentKey(r, lead)) };
}

/**
 * Writes `fresh` (rows of the records whose ids are in `parents`, in download
 * order) each on the row of its key, new ones below the last row; rows of
 * those parents whose key did not come are dropped. Returns the data rows the
 * sheet holds.
 */
export function placeChildRows(
  sheet: SheetPort,
  columns: readonly Column[],
  formats: readonly string[],
  fresh: CellValue[][],
  parents: ReadonlySet<string>,
  lead = 0,
): number {
  const idIndex = itemIdIndex(columns, lead);
  const freshKeys = childKeys(fresh, idIndex, lead);
  const wanted = new Set(freshKeys);
  let { keys, parents: rowParents } = readKeys(sheet, idIndex, lead);
  const seen = new Set<string>();
  const stale: number[] = [];
  keys.forEach((key, i) => {
    if (rowParents[i] === '') return;
    // A second row with the same key is not the item's row any more.
    if (seen.has(key) || (parents.has(rowParents[i]) && !wanted.has(key))) stale.push(i + 2);
    seen.add(key);
  });
  if (dropRows(sheet, stale, columns.length) > 0) ({ keys, parents: rowParents } = readKeys(sheet, idIndex, lead));
  const index = new Map<string, number>();
  keys.forEach((key, i) => {
    if (rowParents[i] !== '' && !index.has(key) && wanted.has(key)) index.set(key, i + 2);
  });
  let next = Math.max(sheet.lastRow(), 1) + 1;
  const targets = new Map<number, CellValue[]>();
  fresh.forEach((row, i) => {
    let at = index.get(freshKeys[i]);
    if (at === undefined) {
      at = next++;
      index.set(freshKeys[i], at);
    }
    targets.set(at, row);
  });
  if (targets.size > 0) sheet.ensureSize(next - 1, columns.length);
  for (const [first, last] of runsOf([...targets.keys()])) {
    const values = Array.from({ length: last - first + 1 }, (_, i) => targets.get(first + i) as CellValue[]);
    sheet.setFormats(first, 1, values.length, formats);
    sheet.write(first, 1, values);
  }
  return Math.max(next - 2, 0);
}

/** After a full refresh: child rows whose parent is no longer in the parent sheet go (or stay marked, with the user's cells). */
export function dropOrphans(sheet: SheetPort, width: number, parentIds: ReadonlySet<string>, lead = 0): number {
  const { parents } = readKeys(sheet, null, lead);
  const orphans = parents.flatMap((p, i) => (p !== '' && !parentIds.has(p) ? [i + 2] : []));
  dropRows(sheet, orphans, width);
  return Math.max(sheet.lastRow() - 1, 0);
}
