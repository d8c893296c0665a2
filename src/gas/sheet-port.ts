/** BookPort and SheetPort over SpreadsheetApp. */
import type { BookPort, MarkupSheetPort, SelectionBookPort, SheetPort } from '../core/sheets/sheet-port';
import type { CellValue } from '../core/sheets/table';
import { WORK_SHEET } from './work-store';
import { flushWrites } from './services';
import { insertSheetAtEnd, withinCellLimit } from './cell-limit';

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;
type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;

/**
 * What this execution has read of one sheet's developer metadata. Each read
 * costs a Sheets call per sheet and several per column: a run reads it once and
 * keeps it in step with its own changes (the global scope is new in every
 * execution, so the next one reads again, wherever the user moved the columns).
 */
export interface SheetMemo {
  tags?: Map<string, string | null>;
  /** The book's memo: a tag this run sets makes its searches of tags stale. */
  book?: BookMemo;
  columns: Map<string, Map<string, number>>;
  /** The grid's size, kept in step with the run's own inserts and deletes. */
  size?: { rows: number; columns: number };
}

/** The spreadsheet's sheets with their ids, and each sheet's memo, for this execution. */
interface BookMemo {
  sheets?: Array<{ sheet: Sheet; id: number }>;
  memos: Map<number, SheetMemo>;
  /** Sheets looked up by id, the ones not there as null. */
  byId: Map<number, Sheet | null>;
  /** Searches of sheet tags this execution made (by key and value), until it sets a tag or adds a sheet. */
  found: Map<string, Array<{ sheet: Sheet; id: number; value: string }>>;
}

const books = new WeakMap<Spreadsheet, BookMemo>();

function bookMemo(ss: Spreadsheet): BookMemo {
  let memo = books.get(ss);
  if (!memo) books.set(ss, (memo = { memos: new Map(), byId: new Map(), found: new Map() }));
  return memo;
}

function sheetMemo(book: BookMemo, id: number): SheetMemo {
  let memo = book.memos.get(id);
  if (!memo) book.memos.set(id, (memo = { columns: new Map(), book }));
  return memo;
}

/** The spreadsheet's sheets and their ids, listed once per execution. */
function listed(ss: Spreadsheet): Array<{ sheet: Sheet; id: number }> {
  const memo = bookMemo(ss);
  memo.sheets ??= ss.getSheets().map((sheet) => ({ sheet, id: sheet.getSheetId() }));
  return memo.sheets;
}

/** A sheet was deleted outside the ports: the next look-up lists the sheets again. */
export function sheetsChanged(ss: Spreadsheet): void {
  const memo = bookMemo(ss);
  memo.sheets = undefined;
  memo.byId.clear();
  memo.found.clear();
}

/** The sheet's grid size, read once per execution. */
function gridSize(sheet: Sheet, memo: SheetMemo): { rows: number; columns: number } {
  memo.size ??= { rows: sheet.getMaxRows(), columns: sheet.getMaxColumns() };
  return memo.size;
}

/** A short digest of a header row (no service call). */
function digest(row: readonly unknown[]): string {
  let h = 0x811c9dc5;
  const text = JSON.stringify(row);
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return `${(h >>> 0).toString(36)}.${text.length}`;
}

/** The sheet tag that keeps where a column tag's columns were, beside the header row they were seen under. */
const placesKey = (key: string) => `${key}.lugares`;

/** "digest|value=column;…" back to its parts; null when it is not one. */
function parsePlaces(raw: string | null | undefined): { digest: string; columns: Map<string, number> } | null {
  const [seen, list] = (raw ?? '').split('|');
  if (!seen || list === undefined) return null;
  const columns = new Map<string, number>();
  for (const pair of list ? list.split(';') : []) {
    const at = pair.lastIndexOf('=');
    columns.set(decodeURIComponent(pair.slice(0, at)), Number(pair.slice(at + 1)));
  }
  return { digest: seen, columns };
}

/** The sheet's tags and its columns' tags, read through this execution's memo, and the places kept of them. */
function metadataOf(sheet: Sheet, memo: SheetMemo) {
  const sheetTags = (): Map<string, string | null> => {
    if (!memo.tags) {
      memo.tags = new Map();
      for (const m of sheet.getDeveloperMetadata()) {
        const key = m.getKey();
        if (!memo.tags.has(key)) memo.tags.set(key, m.getValue());
      }
    }
    return memo.tags;
  };
  const headerRow = (): unknown[] => {
    const last = sheet.getLastColumn();
    return last > 0 ? sheet.getRange(1, 1, 1, last).getValues()[0] : [];
  };
  const setTag = (tag: string, value: string) => {
    const found = sheet.getDeveloperMetadata().filter((m) => m.getKey() === tag);
    if (found.length > 0) found[0].setValue(value);
    else sheet.addDeveloperMetadata(tag, value);
    for (const extra of found.slice(1)) extra.remove();
    memo.tags?.set(tag, value);
    memo.book?.found.clear();
  };
  /**
   * Reading column metadata costs several calls a column. The columns a read
   * found are kept in a sheet tag beside a digest of the header row they were
   * under; the next execution takes them from there while the header row is
   * the same (a column moved, inserted or deleted changes it), else reads
   * the metadata again. Headers repeated in the row never take that shortcut.
   */
  const placesUnderSameHeader = (key: string): Map<string, number> | null => {
    const kept = parsePlaces(sheetTags().get(placesKey(key)));
    if (!kept) return null;
    return kept.digest === digest(headerRow()) ? kept.columns : null;
  };
  const taggedColumns = (key: string): Map<string, number> => {
    const out = new Map<string, number>();
    const found = sheet.createDeveloperMetadataFinder().withKey(key).withLocationType(SpreadsheetApp.DeveloperMetadataLocationType.COLUMN).find();
    for (const m of found) {
      const value = m.getValue();
      const column = m.getLocation().getColumn();
      if (value !== null && column && !out.has(value)) out.set(value, column.getColumn());
    }
    const header = headerRow();
    const texts = [...out.values()].map((c) => String(header[c - 1] ?? ''));
    const unique = out.size > 0 && texts.every((t) => t !== '' && header.filter((h) => String(h) === t).length === 1);
    const places = `${digest(header)}|${[...out].map(([v, c]) => `${encodeURIComponent(v)}=${c}`).join(';')}`;
    if (unique && sheetTags().get(placesKey(key)) !== places) setTag(placesKey(key), places);
    return out;
  };
  return {
    sheetTags,
    setTag,
    columns(key: string): Map<string, number> {
      let out = memo.columns.get(key);
      if (!out) {
        out = placesUnderSameHeader(key) ?? taggedColumns(key);
        memo.columns.set(key, out);
      }
      return out;
    },
    /** The run changed the columns' tags: the kept places no longer hold. */
    forgetPlaces(key: string) {
      if (sheetTags().get(placesKey(key))) setTag(placesKey(key), '');
    },
  };
}

export function sheetPort(sheet: Sheet, memo: SheetMemo = { columns: new Map() }, id = sheet.getSheetId()): SheetPort {
  const size = () => gridSize(sheet, memo);
  const { sheetTags, setTag, columns, forgetPlaces } = metadataOf(sheet, memo);
  return {
    id,
    name: () => sheet.getName(),
    lastRow: () => sheet.getLastRow(),
    lastColumn: () => sheet.getLastColumn(),
    maxColumns: () => size().columns,
    ensureSize(rows, columns) {
      const grid = size();
      const { rows: maxRows, columns: maxCols } = grid;
      if (maxRows < rows) withinCellLimit(`A aba "${sheet.getName()}"`, () => sheet.insertRowsAfter(maxRows, rows - maxRows));
      grid.rows = Math.max(maxRows, rows);
      if (maxCols < columns) withinCellLimit(`A aba "${sheet.getName()}"`, () => sheet.insertColumnsAfter(maxCols, columns - maxCols));
      grid.columns = Math.max(maxCols, columns);
    },
    read: (row, column, numRows, numColumns) => sheet.getRange(row, column, numRows, numColumns).getValues() as CellValue[][],
    readNotes: (row, column, numColumns) => sheet.getRange(row, column, 1, numColumns).getNotes()[0],
    setFormats(row, column, numRows, formats) {
      const grid = Array.from({ length: numRows }, () => formats.slice());
      sheet.getRange(row, column, numRows, formats.length).setNumberFormats(grid);
    },
    write(row, column, values) {
      if (values.length === 0) return;
      sheet.getRange(row, column, values.length, values[0].length).setValues(values);
    },
    setNotes(row, column, notes) {
      sheet.getRange(row, column, 1, notes.length).setNotes([notes.slice()]);
    },
    clear(row, column, numRows, numColumns) {
      if (numRows > 0 && numColumns > 0) sheet.getRange(row, column, numRows, numColumns).clearContent();
    },
    freezeRows: (rows) => {
      if (sheet.getFrozenRows() !== rows) sheet.setFrozenRows(rows);
    },
    setHeaderStyle(numColumns) {
      sheet.getRange(1, 1, 1, numColumns).setFontWeight('bold').setBackground('#f1f3f4');
    },
    setColumnWidths: (widths) => widths.forEach((w, i) => sheet.setColumnWidth(i + 1, w)),
    setTabColor: (color) => {
      sheet.setTabColor(color as string);
    },
    cells: () => size().rows * size().columns,
    sheetTag: (key) => sheetTags().get(key) ?? null,
    setSheetTag: setTag,
    // The caller may change its copy.
    columnTags: (key) => new Map(columns(key)),
    tagColumn(column, key, value) {
      sheet.getRange(1, column, size().rows, 1).addDeveloperMetadata(key, value);
      const known = memo.columns.get(key);
      if (known && !known.has(value)) known.set(value, column);
      forgetPlaces(key);
    },
    untagColumn(key, value) {
      for (const m of sheet.createDeveloperMetadataFinder().withKey(key).withValue(value).find()) m.remove();
      memo.columns.get(key)?.delete(value);
      forgetPlaces(key);
    },
    insertColumnsAfter(column, count) {
      if (column === 0) sheet.insertColumns(1, count);
      else sheet.insertColumnsAfter(column, count);
      if (memo.size) memo.size.columns += count;
      // The metadata moves with the columns to the right of the new ones.
      for (const known of memo.columns.values()) for (const [value, at] of known) if (at > column) known.set(value, at + count);
    },
    deleteRows(row, count) {
      sheet.deleteRows(row, count);
      if (memo.size) memo.size.rows -= count;
    },
    setNote(row, column, note) {
      sheet.getRange(row, column).setNote(note);
    },
  };
}

/**
 * The look-ups every book shares, each sheet's port made by `wrap` over this
 * execution's memo of that sheet: the sheets are listed and each sheet's
 * metadata read once, whichever book of the same spreadsheet asks.
 */
export function sheetsOf<P extends SheetPort>(ss: Spreadsheet, wrap: (sheet: Sheet, memo: SheetMemo, id: number) => P) {
  const port = (sheet: Sheet, id = sheet.getSheetId()) => wrap(sheet, sheetMemo(bookMemo(ss), id), id);
  return {
    /**
     * One search of the whole spreadsheet's sheet metadata, not a read of
     * every sheet's: a document of many reports pays for the sheets that carry
     * the tag, not for all of them. Found sheets come in tab order.
     */
    tagged(key: string, value?: string): Array<{ sheet: P; value: string }> {
      const memo = bookMemo(ss);
      const asked = `${key}\u0000${value ?? ''}`;
      let out = memo.found.get(asked);
      if (!out) {
        const finder = ss.createDeveloperMetadataFinder().withKey(key).withLocationType(SpreadsheetApp.DeveloperMetadataLocationType.SHEET);
        const list: Array<{ sheet: Sheet; id: number; value: string }> = [];
        for (const m of (value === undefined ? finder : finder.withValue(value)).find()) {
          const sheet = m.getLocation().getSheet();
          const id = sheet?.getSheetId();
          if (sheet && id !== undefined && !list.some((o) => o.id === id)) list.push({ sheet, id, value: m.getValue() ?? '' });
        }
        out = list.length > 1 ? list.map((o) => ({ ...o, index: o.sheet.getIndex() })).sort((a, b) => a.index - b.index) : list;
        memo.found.set(asked, out);
      }
      return out.map(({ sheet, id, value: v }) => ({ sheet: port(sheet, id), value: v }));
    },
    byName(name: string): P | null {
      const sheet = ss.getSheetByName(name);
      return sheet ? port(sheet) : null;
    },
    byId(id: number): P | null {
      // The sheets already listed by this execution answer without a call; else one look-up by id, not a listing.
      const memo = bookMemo(ss);
      let sheet = memo.byId.get(id);
      if (sheet === undefined) {
        sheet = memo.sheets ? (memo.sheets.find((s) => s.id === id)?.sheet ?? null) : ss.getSheetById(id);
        memo.byId.set(id, sheet);
      }
      return sheet ? port(sheet, id) : null;
    },
    /** A sheet just inserted, added to the execution's list. */
    added(sheet: Sheet): P {
      const id = sheet.getSheetId();
      const memo = bookMemo(ss);
      memo.sheets?.push({ sheet, id });
      memo.byId.set(id, sheet);
      memo.found.clear();
      return port(sheet, id);
    },
  };
}

export function bookPort(ss: Spreadsheet = SpreadsheetApp.getActiveSpreadsheet()): BookPort {
  const sheets = sheetsOf(ss, sheetPort);
  return {
    timeZone: () => ss.getSpreadsheetTimeZone(),
    tagged: sheets.tagged,
    // The owners' work sheet is the add-on's own: never offered to the person.
    sheetNames: () =>
      ss
        .getSheets()
        .map((s) => s.getName())
        .filter((n) => n !== WORK_SHEET),
    byName: sheets.byName,
    byId: sheets.byId,
    create(name, columns) {
      const sheet = insertSheetAtEnd(ss, name);
      const extra = columns === undefined ? 0 : sheet.getMaxColumns() - Math.max(1, columns);
      if (extra > 0) sheet.deleteColumns(sheet.getMaxColumns() - extra + 1, extra);
      return sheets.added(sheet);
    },
    totalCells: () =>
      listed(ss).reduce((n, { sheet, id }) => {
        const grid = gridSize(sheet, sheetMemo(bookMemo(ss), id));
        return n + grid.rows * grid.columns;
      }, 0),
    flush: flushWrites,
  };
}

function markupSheetPort(sheet: Sheet, memo?: SheetMemo, id?: number): MarkupSheetPort {
  return {
    ...sheetPort(sheet, memo, id),
    readBackgrounds: (row, column, numRows, numColumns) => sheet.getRange(row, column, numRows, numColumns).getBackgrounds(),
    setBackgrounds(row, column, colors) {
      if (colors.length === 0) return;
      sheet.getRange(row, column, colors.length, colors[0].length).setBackgrounds(colors as string[][]);
    },
    setDropdown(row, column, numRows, choices, help) {
      const rule = SpreadsheetApp.newDataValidation().requireValueInList(choices.slice(), true).setAllowInvalid(true).setHelpText(help).build();
      sheet.getRange(row, column, numRows, 1).setDataValidation(rule);
    },
    setNotesDown(row, column, notes) {
      sheet.getRange(row, column, notes.length, 1).setNotes(notes.map((n) => [n]));
    },
    setColumnWidth: (column, width) => {
      sheet.setColumnWidth(column, width);
    },
  };
}

/** The bulk sidebar's view of the active spreadsheet. */
export function selectionBookPort(ss: Spreadsheet = SpreadsheetApp.getActiveSpreadsheet()): SelectionBookPort {
  const sheets = sheetsOf(ss, markupSheetPort);
  return {
    ...bookPort(ss),
    byName: sheets.byName,
    byId: sheets.byId,
    create: (name) => sheets.added(insertSheetAtEnd(ss, name)),
    selection() {
      const sheet = ss.getActiveSheet();
      const list = ss.getActiveRangeList();
      const rows: Array<[number, number]> = (list ? list.getRanges() : []).map((r) => [r.getRow(), r.getLastRow()]);
      return { sheetId: sheet.getSheetId(), sheetName: sheet.getName(), rows };
    },
    activate(sheetId, a1) {
      const sheet = ss.getSheetById(sheetId);
      if (!sheet) return;
      sheet.activate();
      if (a1.length === 1) sheet.getRange(a1[0]).activate();
      else if (a1.length > 1) sheet.getRangeList(a1.slice()).activate();
    },
    flush: flushWrites,
  };
}
