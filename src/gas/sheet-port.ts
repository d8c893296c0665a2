/** BookPort and SheetPort over SpreadsheetApp. */
import type { BookPort, MarkupSheetPort, SelectionBookPort, SheetPort } from '../core/sheet-port';
import type { CellValue } from '../core/table';

function sheetPort(sheet: GoogleAppsScript.Spreadsheet.Sheet): SheetPort {
  return {
    id: sheet.getSheetId(),
    name: () => sheet.getName(),
    lastRow: () => sheet.getLastRow(),
    lastColumn: () => sheet.getLastColumn(),
    maxColumns: () => sheet.getMaxColumns(),
    ensureSize(rows, columns) {
      const maxRows = sheet.getMaxRows();
      if (maxRows < rows) sheet.insertRowsAfter(maxRows, rows - maxRows);
      const maxCols = sheet.getMaxColumns();
      if (maxCols < columns) sheet.insertColumnsAfter(maxCols, columns - maxCols);
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
  };
}

export function bookPort(ss: GoogleAppsScript.Spreadsheet.Spreadsheet = SpreadsheetApp.getActiveSpreadsheet()): BookPort {
  return {
    timeZone: () => ss.getSpreadsheetTimeZone(),
    byName(name) {
      const sheet = ss.getSheetByName(name);
      return sheet ? sheetPort(sheet) : null;
    },
    byId(id) {
      const sheet = ss.getSheets().find((s) => s.getSheetId() === id);
      return sheet ? sheetPort(sheet) : null;
    },
    create(name) {
      const sheet = ss.insertSheet(name, ss.getSheets().length);
      return sheetPort(sheet);
    },
    totalCells: () => ss.getSheets().reduce((n, s) => n + s.getMaxRows() * s.getMaxColumns(), 0),
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
    sheetNames: () => ss.getSheets().map((s) => s.getName()),
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
    flush: () => SpreadsheetApp.flush(),
  };
}
