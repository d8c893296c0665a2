/** BookPort and SheetPort over SpreadsheetApp. */
import type { BookPort, MarkupSheetPort, SelectionBookPort, SheetPort } from '../core/sheet-port';
import type { CellValue } from '../core/table';
import { WORK_SHEET } from './work-store';
import { flushWrites } from './services';
import { withinCellLimit } from './cell-limit';

export function sheetPort(sheet: GoogleAppsScript.Spreadsheet.Sheet): SheetPort {
  return {
    id: sheet.getSheetId(),
    name: () => sheet.getName(),
    lastRow: () => sheet.getLastRow(),
    lastColumn: () => sheet.getLastColumn(),
    maxColumns: () => sheet.getMaxColumns(),
    ensureSize(rows, columns) {
      const maxRows = sheet.getMaxRows();
      if (maxRows < rows) withinCellLimit(`A aba "${sheet.getName()}"`, () => sheet.insertRowsAfter(maxRows, rows - maxRows));
      const maxCols = sheet.getMaxColumns();
      if (maxCols < columns) withinCellLimit(`A aba "${sheet.getName()}"`, () => sheet.insertColumnsAfter(maxCols, columns - maxCols));
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
    cells: () => sheet.getMaxRows() * sheet.getMaxColumns(),
    sheetTag(key) {
      const found = sheet.getDeveloperMetadata().find((m) => m.getKey() === key);
      return found ? found.getValue() : null;
    },
    setSheetTag(key, value) {
      const found = sheet.getDeveloperMetadata().filter((m) => m.getKey() === key);
      if (found.length > 0) found[0].setValue(value);
      else sheet.addDeveloperMetadata(key, value);
      for (const extra of found.slice(1)) extra.remove();
    },
    columnTags(key) {
      const out = new Map<string, number>();
      const found = sheet.createDeveloperMetadataFinder().withKey(key).withLocationType(SpreadsheetApp.DeveloperMetadataLocationType.COLUMN).find();
      for (const m of found) {
        const value = m.getValue();
        const column = m.getLocation().getColumn();
        if (value !== null && column && !out.has(value)) out.set(value, column.getColumn());
      }
      return out;
    },
    tagColumn(column, key, value) {
      sheet.getRange(1, column, sheet.getMaxRows(), 1).addDeveloperMetadata(key, value);
    },
    untagColumn(key, value) {
      for (const m of sheet.createDeveloperMetadataFinder().withKey(key).withValue(value).find()) m.remove();
    },
    insertColumnsAfter(column, count) {
      if (column === 0) sheet.insertColumns(1, count);
      else sheet.insertColumnsAfter(column, count);
    },
    deleteRows(row, count) {
      sheet.deleteRows(row, count);
    },
    setNote(row, column, note) {
      sheet.getRange(row, column).setNote(note);
    },
  };
}

export function bookPort(ss: GoogleAppsScript.Spreadsheet.Spreadsheet = SpreadsheetApp.getActiveSpreadsheet()): BookPort {
  return {
    timeZone: () => ss.getSpreadsheetTimeZone(),
    tagged(key) {
      const out: Array<{ sheet: SheetPort; value: string }> = [];
      for (const sheet of ss.getSheets()) {
        const found = sheet.getDeveloperMetadata().find((m) => m.getKey() === key);
        if (found) out.push({ sheet: sheetPort(sheet), value: found.getValue() ?? '' });
      }
      return out;
    },
    // The owners' work sheet is the add-on's own: never offered to the person.
    sheetNames: () =>
      ss
        .getSheets()
        .map((s) => s.getName())
        .filter((n) => n !== WORK_SHEET),
    byName(name) {
      const sheet = ss.getSheetByName(name);
      return sheet ? sheetPort(sheet) : null;
    },
    byId(id) {
      const sheet = ss.getSheets().find((s) => s.getSheetId() === id);
      return sheet ? sheetPort(sheet) : null;
    },
    create(name, columns) {
      const sheet = withinCellLimit(`A aba "${name}"`, () => ss.insertSheet(name, ss.getSheets().length));
      const extra = columns === undefined ? 0 : sheet.getMaxColumns() - Math.max(1, columns);
      if (extra > 0) sheet.deleteColumns(sheet.getMaxColumns() - extra + 1, extra);
      return sheetPort(sheet);
    },
    totalCells: () => ss.getSheets().reduce((n, s) => n + s.getMaxRows() * s.getMaxColumns(), 0),
    flush: flushWrites,
  };
}

function markupSheetPort(sheet: GoogleAppsScript.Spreadsheet.Sheet): MarkupSheetPort {
  return {
    ...sheetPort(sheet),
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
export function selectionBookPort(ss: GoogleAppsScript.Spreadsheet.Spreadsheet = SpreadsheetApp.getActiveSpreadsheet()): SelectionBookPort {
  const byId = (id: number) => ss.getSheets().find((s) => s.getSheetId() === id) ?? null;
  return {
    ...bookPort(ss),
    byName(name) {
      const sheet = ss.getSheetByName(name);
      return sheet ? markupSheetPort(sheet) : null;
    },
    byId(id) {
      const sheet = byId(id);
      return sheet ? markupSheetPort(sheet) : null;
    },
    create: (name) => markupSheetPort(ss.insertSheet(name, ss.getSheets().length)),
    selection() {
      const sheet = ss.getActiveSheet();
      const list = ss.getActiveRangeList();
      const rows: Array<[number, number]> = (list ? list.getRanges() : []).map((r) => [r.getRow(), r.getLastRow()]);
      return { sheetId: sheet.getSheetId(), sheetName: sheet.getName(), rows };
    },
    activate(sheetId, a1) {
      const sheet = byId(sheetId);
      if (!sheet) return;
      sheet.activate();
      if (a1.length === 1) sheet.getRange(a1[0]).activate();
      else if (a1.length > 1) sheet.getRangeList(a1.slice()).activate();
    },
    flush: flushWrites,
  };
}
