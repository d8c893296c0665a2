/** Sheet protection as the add-on uses it, and appendRow at the cell limit, as Google answers. */
import { describe, expect, it } from 'vitest';
import { MERGED_SHEET_FIELDS } from '../../dev/gas/office';
import { CELL_LIMIT_MESSAGE, MAX_CELLS, SheetModel } from '../../dev/gas/spreadsheet-model';
import { fixture } from './helpers';

const CODE = `
function protectIt() {
  var s = SpreadsheetApp.getActiveSheet();
  var before = s.getProtections(SpreadsheetApp.ProtectionType.SHEET).length;
  var p = s.protect().setDescription('não edite').setWarningOnly(true);
  var again = s.protect();
  var found = s.getProtections(SpreadsheetApp.ProtectionType.SHEET);
  s.getRange(1, 1).setValue('o script escreve');
  return [before, p.isWarningOnly(), again.isWarningOnly(), found.length, found[0].getDescription(), s.getRange(1, 1).getValue(),
    s.getProtections(SpreadsheetApp.ProtectionType.RANGE).length];
}
function fill(cells) {
  var s = SpreadsheetApp.getActiveSpreadsheet().insertSheet('Grande');
  s.insertRowsAfter(s.getMaxRows(), Math.floor(cells / 26) - 1000);
}
function mark() {
  var sheet = SpreadsheetApp.getActiveSpreadsheet().getSheetByName('Página1');
  sheet.getRange(sheet.getMaxRows(), 1).setValue('cheia');
}
function append() {
  var s = SpreadsheetApp.getActiveSpreadsheet().getSheetByName('Página1');
  s.appendRow(['a', 'b']);
  return s.getLastRow();
}
function seenLater() {
  var found = SpreadsheetApp.getActiveSheet().getProtections(SpreadsheetApp.ProtectionType.SHEET);
  return found.length ? [found[0].getDescription(), found[0].isWarningOnly()] : [];
}
function lastRow() {
  return SpreadsheetApp.getActiveSpreadsheet().getSheetByName('Página1').getLastRow();
}
`;

describe('Protection', () => {
  it('a sheet protected warning-only keeps one protection, with its description, and scripts still write', () => {
    const emu = fixture(CODE);
    expect(emu.run('protectIt')).toEqual([0, true, true, 1, 'não edite', 'o script escreve', 0]);
  });

  it('every field of a sheet is merged at the end of an execution (a field left out would be lost)', () => {
    const own = ['id', 'beforeWrite'];
    expect(
      Object.keys(new SheetModel(1, 'x'))
        .filter((k) => !own.includes(k))
        .sort(),
    ).toEqual([...MERGED_SHEET_FIELDS].sort());
  });

  it('a protection set on a sheet that already existed is still there in the next execution', () => {
    const emu = fixture(CODE);
    emu.run('protectIt');
    expect(emu.run('seenLater')).toEqual(['não edite', true]);
  });
});

describe('appendRow at the cell limit', () => {
  it("fails with Google's own message when the new row would pass 10 million cells, and writes nothing", () => {
    const emu = fixture(CODE);
    // The first sheet's 26,000 cells, and a sheet that fills the rest but for one row of 26.
    emu.run('mark');
    emu.run('fill', [MAX_CELLS - 26_000 - 10]);
    const failed = emu.execute('append');
    expect(failed.error?.message).toBe(CELL_LIMIT_MESSAGE);
    expect(emu.run('lastRow')).toBe(1000);
  });
});
