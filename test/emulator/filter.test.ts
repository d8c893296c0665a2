/** The emulator's filter: criteria hide rows when set, the range and criteria move with rows and columns, one filter per sheet. */
import { describe, expect, it } from 'vitest';
import { fixture } from './helpers';

const CODE = `
function sheet() { return SpreadsheetApp.getActiveSpreadsheet().getSheets()[0]; }
function fill() {
  var s = sheet();
  s.getRange(1, 1, 6, 3).setValues([
    ['Nome', 'Valor', 'Status'],
    ['a', 10, 'PAGA'],
    ['b', 250, 'CANCELADA'],
    ['c', 40, 'ABERTA'],
    ['d', 900, 'PAGA'],
    ['e', '', 'ABERTA'],
  ]);
}
function hidden() { var s = sheet(); var out = []; for (var r = 1; r <= 8; r++) if (s.isRowHiddenByFilter(r)) out.push(r); return out; }
function byValues() {
  var f = sheet().getRange(1, 1, 6, 3).createFilter();
  f.setColumnFilterCriteria(3, SpreadsheetApp.newFilterCriteria().setHiddenValues(['CANCELADA']).build());
  return hidden();
}
function byNumber() {
  var f = sheet().getFilter();
  f.setColumnFilterCriteria(2, SpreadsheetApp.newFilterCriteria().whenNumberGreaterThan(30).build());
  return hidden();
}
function byText() {
  var f = sheet().getFilter();
  f.removeColumnFilterCriteria(2);
  f.setColumnFilterCriteria(3, SpreadsheetApp.newFilterCriteria().whenTextEqualTo('paga').build());
  return [hidden(), f.getColumnFilterCriteria(3).getCriteriaType() + '', f.getColumnFilterCriteria(3).getCriteriaValues(), f.getColumnFilterCriteria(2)];
}
function second() { return sheet().getRange(1, 1, 2, 2).createFilter(); }
function edit() {
  var s = sheet();
  s.insertRowsAfter(1, 1);
  s.insertColumns(1, 1);
  s.getRange(2, 2, 1, 3).setValues([['z', 5, 'CANCELADA']]);
  var f = s.getFilter();
  return [f.getRange().getA1Notation(), hidden(), f.getColumnFilterCriteria(4).getCriteriaValues(), s.getRange(8, 2, 1, 3).setValues([['f', 1, 'X']]) && f.getRange().getA1Notation()];
}
function removeIt() { var s = sheet(); s.getFilter().remove(); return [s.getFilter() === null, hidden()]; }
`;

describe('the Filter API', () => {
  it('hides rows by hidden values, numbers and text; one filter per sheet; moves with rows and columns; removed leaves nothing hidden', () => {
    const emu = fixture(CODE);
    emu.run('fill');
    expect(emu.run('byValues')).toEqual([3]);
    // Criteria on two columns: a row must pass both.
    expect(emu.run('byNumber')).toEqual([2, 3, 6]);
    expect(emu.run('byText')).toEqual([[3, 4, 6], 'TEXT_EQUAL_TO', ['paga'], null]);
    expect(() => emu.run('second')).toThrow(/already has a filter/);
    const [range, hidden, criteria, after] = emu.run('edit') as unknown[];
    // A row inserted inside grows the range; a column inserted before moves it and its criteria.
    expect(range).toBe('B1:D7');
    // A value written after the criteria were set does not hide its row until they are set again.
    expect(hidden).toEqual([4, 5, 7]);
    expect(criteria).toEqual(['paga']);
    // Rows written below the range are outside it.
    expect(after).toBe('B1:D7');
    expect(emu.run('removeIt')).toEqual([true, []]);
  });
});
