import { describe, expect, it } from 'vitest';
import { CELL_LIMIT_MESSAGE } from '../../dev/gas/spreadsheet-model';
import { fixture } from './helpers';

const CODE = `
function insertAfterLast() {
  var s = SpreadsheetApp.getActiveSheet();
  s.getRange(1, 26).setValue('Z');
  s.getRange(1, 1).setValue('A');
  s.insertRowsAfter(s.getMaxRows(), 1);
  s.insertColumnsAfter(s.getMaxColumns(), 2);
  s.insertColumnsAfter(1, 1);
  return [s.getRange(1, 1, 1, 29).getValues()[0].filter(function (v) { return v !== ''; }), s.getRange(1, 27).getValue(), s.getMaxColumns(), s.getMaxRows()];
}
function shape(a1, values) { SpreadsheetApp.getActiveSheet().getRange(a1).setValues(values); }
function structure() {
  var ss = SpreadsheetApp.getActiveSpreadsheet();
  var s = ss.insertSheet('Relatório');
  s.setFrozenRows(1); s.setFrozenColumns(2);
  s.setColumnWidth(3, 250);
  s.getRange('A1:C1').setValues([['CNPJ', 'Nome', 'Valor']]).setFontWeight('bold').setBackground('#cfe2f3');
  s.getRange(2, 1, 2, 3).setValues([[1, 'a', 2], [3, 'b', 4]]);
  s.insertRows(2, 1);
  s.getRange('B1').setNote('nota');
  s.getRange('A5:A6').setDataValidation(SpreadsheetApp.newDataValidation().requireValueInList(['Sim', 'Não']).build());
  var other = ss.insertSheet('Tmp', 0);
  other.hideSheet();
  return {
    names: ss.getSheets().map(function (x) { return x.getName(); }),
    hidden: other.isSheetHidden(),
    frozen: [s.getFrozenRows(), s.getFrozenColumns()],
    widths: [s.getColumnWidth(3), s.getColumnWidth(4)],
    last: [s.getLastRow(), s.getLastColumn(), s.getMaxRows(), s.getMaxColumns()],
    a1: s.getRange(2, 2, 3, 2).getA1Notation(),
    offset: s.getRange('B2').offset(1, 1, 2, 2).getA1Notation(),
    weights: s.getRange('A1:A2').getFontWeights(),
    backgrounds: s.getRange('A1:A2').getBackgrounds(),
    notes: s.getRange('A1:B1').getNotes(),
    validation: s.getRange('A5').getDataValidation().getCriteriaValues()[0],
    noValidation: s.getRange('A4').getDataValidation(),
    validations: s.getRange('A5:A6').getDataValidations().length,
    byName: ss.getSheetByName('Relatório').getSheetId() === s.getSheetId(),
    missing: ss.getSheetByName('Nada'),
    coords: [s.getRange('B3:C9').getRow(), s.getRange('B3:C9').getColumn(), s.getRange('B3:C9').getNumRows(), s.getRange('B3:C9').getNumColumns()]
  };
}
function rowsAndColumns() {
  var s = SpreadsheetApp.getActiveSheet();
  s.getRange('A1:A5').setValues([[1], [2], [3], [4], [5]]);
  s.deleteRows(2, 2);
  s.insertColumns(1, 2);
  s.deleteColumns(1, 1);
  return [s.getRange('B1:B3').getValues().map(function (r) { return r[0]; }), s.getMaxRows(), s.getMaxColumns(), s.getLastRow(), s.getLastColumn()];
}
function dup() { SpreadsheetApp.getActiveSpreadsheet().insertSheet('Página1'); }
function grow(n) { SpreadsheetApp.getActiveSheet().insertRows(1, n); }
function growSheets(n) { var ss = SpreadsheetApp.getActiveSpreadsheet(); for (var i = 0; i < n; i++) ss.insertSheet(); }
function deleteOnly() { var ss = SpreadsheetApp.getActiveSpreadsheet(); ss.deleteSheet(ss.getSheets()[0]); }
function selection() {
  var list = SpreadsheetApp.getActiveRangeList();
  return { active: SpreadsheetApp.getActiveRange().getA1Notation(), sheet: SpreadsheetApp.getActiveSheet().getName(), list: list.getRanges().map(function (r) { return r.getA1Notation(); }) };
}
function clearing() {
  var r = SpreadsheetApp.getActiveSheet().getRange('A1:B1');
  r.setValues([[1, 2]]).setNumberFormat('0.00').setNote('n');
  r.clearContent();
  var afterContent = [r.getValues()[0], r.getNumberFormats()[0], r.getNotes()[0]];
  r.setValues([[1, 2]]); r.clear();
  return [afterContent, [r.getValues()[0], r.getNumberFormats()[0], r.getNotes()[0]]];
}
function template() {
  var s = SpreadsheetApp.getActiveSheet();
  s.getRange('A1:B1').setValues([['Nome', 'CPF']]).setFontWeight('bold').setBackground('#cfe2f3');
  s.getRange('A2:B4').setNumberFormat('@');
  s.getRange('B2:B4').setDataValidation(SpreadsheetApp.newDataValidation().requireValueInList(['Sim', 'Não']).build());
  s.getRange('A3').setValue('Ana').setNote('vista');
}
function typed(a1, text) { SpreadsheetApp.getActiveSheet().getRange(a1).setValue(text); }
function look(a1) {
  var r = SpreadsheetApp.getActiveSheet().getRange(a1);
  return { values: r.getValues(), formats: r.getNumberFormats(), weights: r.getFontWeights(), backgrounds: r.getBackgrounds(), notes: r.getNotes(),
    lists: r.getDataValidations().map(function (row) { return row.map(function (v) { return v ? v.getCriteriaValues()[0].join('|') : ''; }); }) };
}
function insertAbove(row, n) { SpreadsheetApp.getActiveSheet().insertRows(row, n); }
function insertBelow(row, n) { SpreadsheetApp.getActiveSheet().insertRowsAfter(row, n); }
function toast() { SpreadsheetApp.getActiveSpreadsheet().toast('Pronto', 'Importação', 3); return [SpreadsheetApp.getActive().getSpreadsheetTimeZone(), SpreadsheetApp.getActive().getSpreadsheetLocale(), SpreadsheetApp.getActive().getId().length > 10, SpreadsheetApp.getActive().getUrl().indexOf('https://docs.google.com/') === 0]; }
`;

describe('Spreadsheet service', () => {
  it('setValues checks dimensions like Apps Script', () => {
    const emu = fixture(CODE);
    expect(
      emu.execute('shape', [
        'A1:B3',
        [
          [1, 2],
          [3, 4],
        ],
      ]).error?.message,
    ).toBe('The number of rows in the data does not match the number of rows in the range. The data has 2 but the range has 3.');
    expect(emu.execute('shape', ['A1:B2', [[1, 2], [3]]]).error?.message).toBe(
      'The number of columns in the data does not match the number of columns in the range. The data has 1 but the range has 2.',
    );
    expect(
      emu.execute('shape', [
        'A1:B2',
        [
          [1, 2],
          [3, 4],
        ],
      ]).status,
    ).toBe('ok');
    expect(emu.execute('shape', ['Z1000:AA1000', [[1, 2]]]).error?.message).toBe('The coordinates of the range are outside the dimensions of the sheet.');
  });

  it('sheets, frozen panes, widths, formats, notes, validation, A1 and offsets', () => {
    const emu = fixture(CODE);
    const out = emu.run('structure') as Record<string, unknown>;
    expect(out).toEqual({
      names: ['Tmp', 'Página1', 'Relatório'],
      hidden: true,
      frozen: [1, 2],
      widths: [250, 100],
      last: [4, 3, 1001, 26],
      a1: 'B2:C4',
      offset: 'C3:D4',
      weights: [['bold'], ['normal']],
      backgrounds: [['#cfe2f3'], ['#ffffff']],
      notes: [['', 'nota']],
      validation: ['Sim', 'Não'],
      noValidation: null,
      validations: 2,
      byName: true,
      missing: null,
      coords: [3, 2, 7, 2],
    });
    expect(emu.values('Relatório', 'A1:C4')).toEqual([
      ['CNPJ', 'Nome', 'Valor'],
      ['', '', ''],
      [1, 'a', 2],
      [3, 'b', 4],
    ]);
  });

  it('deleteRows, insertColumns and deleteColumns move the data', () => {
    expect(fixture(CODE).run('rowsAndColumns')).toEqual([[1, 4, 5], 998, 27, 3, 2]);
  });

  it('inserting after the last row or column moves nothing, inserting after another shifts what follows', () => {
    expect(fixture(CODE).run('insertAfterLast')).toEqual([['A', 'Z'], 'Z', 29, 1001]);
  });

  it('inserted rows take the formats of the row they are inserted next to, not its values or notes, as in Sheets', () => {
    const emu = fixture(CODE);
    emu.run('template');
    // Above row 3 (insertRows): the row pushed down lends its formats, so text stays text.
    emu.run('insertAbove', [3, 2]);
    emu.run('typed', ['B3', '01234567890']);
    expect(emu.run('look', ['A3:B5'])).toEqual({
      values: [
        ['', '01234567890'],
        ['', ''],
        ['Ana', ''],
      ],
      formats: [
        ['@', '@'],
        ['@', '@'],
        ['@', '@'],
      ],
      weights: Array(3).fill(['normal', 'normal']),
      backgrounds: Array(3).fill(['#ffffff', '#ffffff']),
      notes: [
        ['', ''],
        ['', ''],
        ['vista', ''],
      ],
      lists: Array(3).fill(['', 'Sim|Não']),
    });
    // Below the header (insertRowsAfter): the header's own formats, as Sheets' "Inserir 1 linha abaixo".
    emu.run('insertBelow', [1, 1]);
    expect(emu.run('look', ['A2:B2'])).toMatchObject({
      values: [['', '']],
      formats: [['General', 'General']],
      weights: [['bold', 'bold']],
      backgrounds: [['#cfe2f3', '#cfe2f3']],
      lists: [['', '']],
    });
    // Below the last template row: its formats go on; below an empty row, nothing.
    emu.run('insertBelow', [7, 1]);
    emu.run('insertBelow', [20, 1]);
    expect(emu.run('look', ['A8:B8'])).toMatchObject({ formats: [['@', '@']], lists: [['', 'Sim|Não']] });
    expect(emu.run('look', ['A21:B21'])).toMatchObject({ formats: [['General', 'General']], lists: [['', '']] });
  });

  it('refuses duplicate sheet names and removing the last sheet', () => {
    const emu = fixture(CODE);
    expect(emu.execute('dup').error?.message).toBe('A sheet with the name "Página1" already exists. Please enter another name.');
    expect(emu.execute('deleteOnly').error?.message).toBe("You can't remove all the sheets in a document.");
  });

  it('enforces the 10-million-cell limit per spreadsheet', () => {
    const emu = fixture(CODE);
    // 1000 x 26 now; 384,000 more rows x 26 = 10,010,000 cells.
    expect(emu.execute('grow', [384_000]).error?.message).toBe(CELL_LIMIT_MESSAGE);
    expect(emu.execute('grow', [383_000]).status).toBe('ok');
    expect(emu.execute('growSheets', [1]).error?.message).toBe(CELL_LIMIT_MESSAGE);
  });

  it('selection comes from the test', () => {
    const emu = fixture(CODE);
    emu.run('structure');
    emu.select('Relatório', 'A1:B2', 'D4');
    expect(emu.run('selection')).toEqual({ active: 'D4', sheet: 'Relatório', list: ['A1:B2', 'D4'] });
  });

  it('clearContent keeps formats and notes, clear removes them', () => {
    const emu = fixture(CODE);
    expect(emu.run('clearing')).toEqual([
      [
        ['', ''],
        ['0.00', '0.00'],
        ['n', 'n'],
      ],
      [
        ['', ''],
        ['General', 'General'],
        ['', ''],
      ],
    ]);
  });

  it('toast is recorded; time zone and locale default to São Paulo / pt_BR', () => {
    const emu = fixture(CODE);
    expect(emu.run('toast')).toEqual(['America/Sao_Paulo', 'pt_BR', true, true]);
    expect(emu.spreadsheet.toasts).toEqual([{ message: 'Pronto', title: 'Importação', timeoutSeconds: 3 }]);
  });

  it('counts spreadsheet calls and cells written', () => {
    const emu = fixture(CODE);
    const report = emu.execute('shape', [
      'A1:C2',
      [
        [1, 2, 3],
        [4, 5, 6],
      ],
    ]);
    expect(report.counters.spreadsheetCalls).toBe(3);
    expect(report.counters.cellsWritten).toBe(6);
  });
});
