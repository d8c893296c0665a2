/** Developer metadata and the edits users make (insert, delete, move, sort, rename), with Google's semantics. */
import { describe, expect, it } from 'vitest';
import { fixture } from './helpers';

const CODE = `
function sheet() { return SpreadsheetApp.getActiveSpreadsheet().getSheetByName('Dados') || SpreadsheetApp.getActiveSpreadsheet().insertSheet('Dados'); }
function column(c) { var s = sheet(); return s.getRange(1, c, s.getMaxRows(), 1); }
function row(r) { var s = sheet(); return s.getRange(r, 1, 1, s.getMaxColumns()); }
function tagColumns() {
  var s = sheet();
  s.getRange(1, 1, 1, 3).setValues([['id', 'nome', 'valor']]);
  column(1).addDeveloperMetadata('col', 'id');
  column(2).addDeveloperMetadata('col', 'nome');
  column(3).addDeveloperMetadata('col', 'valor', SpreadsheetApp.DeveloperMetadataVisibility.PROJECT);
  row(2).addDeveloperMetadata('rec', '42');
  s.addDeveloperMetadata('report', 'r1');
  SpreadsheetApp.getActiveSpreadsheet().addDeveloperMetadata('addon', 'v1');
}
function where(key) {
  return SpreadsheetApp.getActiveSpreadsheet().createDeveloperMetadataFinder().withKey(key).find().map(function (m) {
    var loc = m.getLocation();
    var t = String(loc.getLocationType());
    return { value: m.getValue(), type: t, column: loc.getColumn() ? loc.getColumn().getColumn() : null, row: loc.getRow() ? loc.getRow().getRow() : null,
      sheet: loc.getSheet() ? loc.getSheet().getName() : null, id: m.getId() };
  });
}
function edit(kind) {
  var s = sheet();
  if (kind === 'insertColumn') s.insertColumns(1, 2);
  if (kind === 'deleteColumn') s.deleteColumns(2, 1);
  if (kind === 'moveColumn') s.moveColumns(s.getRange('A:A'), 4);
  if (kind === 'insertRow') s.insertRowsAfter(1, 3);
  if (kind === 'deleteRow') s.deleteRows(2, 1);
  if (kind === 'moveRow') s.moveRows(s.getRange('2:2'), 5);
  if (kind === 'rename') s.setName('Renomeada');
}
function arbitrary() { sheet().getRange('A1:B2').addDeveloperMetadata('x', 'y'); }
function findByValue(v) { return sheet().createDeveloperMetadataFinder().withKey('col').withValue(v).find().length; }
function onRange(a1) { var s = SpreadsheetApp.getActiveSpreadsheet().getSheets()[1]; return s.getRange(a1).createDeveloperMetadataFinder().onIntersectingLocations().find().map(function (m) { return m.getValue(); }); }
function removeOne() { var m = SpreadsheetApp.getActiveSpreadsheet().createDeveloperMetadataFinder().withValue('nome').find()[0]; m.remove(); m.setValue('x'); }
function sortSheet() {
  var s = sheet();
  s.getRange(2, 1, 4, 2).setValues([[3, 'c'], [1, 'a'], ['', 'vazio'], [2, 'b']]);
  s.getRange(2, 5, 4, 1).setValues([['n3'], ['n1'], ['n-'], ['n2']]);
  s.setFrozenRows(1);
  s.getRange(2, 1, 4, 2).sort({ column: 1, ascending: true });
  var rangeSorted = s.getRange(2, 1, 4, 5).getValues();
  s.sort(1, false);
  return [rangeSorted, s.getRange(2, 1, 4, 5).getValues()];
}
function hide() { var s = sheet(); s.hideRows(3, 2); s.insertRowsAfter(1, 1); return [s.isRowHiddenByUser(3), s.isRowHiddenByUser(4), s.isRowHiddenByUser(5), s.isRowHiddenByFilter(4)]; }
function moveTab() { var ss = SpreadsheetApp.getActiveSpreadsheet(); ss.setActiveSheet(sheet()); ss.moveActiveSheet(1); return ss.getSheets().map(function (x) { return x.getName() + ':' + x.getSheetId(); }); }
`;

type Found = { value: string; type: string; column: number | null; row: number | null; sheet: string | null; id: number };

function setUp() {
  const emu = fixture(CODE);
  emu.run('tagColumns');
  return emu;
}

const cols = (emu: ReturnType<typeof setUp>) => Object.fromEntries((emu.run('where', ['col']) as Found[]).map((m) => [m.value, m.column]));

describe('developer metadata', () => {
  it('is found by key and value at spreadsheet, sheet, row and column locations', () => {
    const emu = setUp();
    expect(cols(emu)).toEqual({ id: 1, nome: 2, valor: 3 });
    expect(emu.run('where', ['rec'])).toEqual([expect.objectContaining({ value: '42', type: 'ROW', row: 2, column: null })]);
    expect(emu.run('where', ['report'])).toEqual([expect.objectContaining({ type: 'SHEET', sheet: 'Dados' })]);
    expect(emu.run('where', ['addon'])).toEqual([expect.objectContaining({ type: 'SPREADSHEET' })]);
    expect(emu.run('findByValue', ['nome'])).toBe(1);
    expect(emu.run('findByValue', ['outro'])).toBe(0);
    const ids = [...(emu.run('where', ['col']) as Found[]).map((m) => m.id)];
    expect(new Set(ids).size).toBe(3);
  });

  it('moves with its column when columns are inserted or moved, and dies with it', () => {
    const emu = setUp();
    emu.run('edit', ['insertColumn']);
    expect(cols(emu)).toEqual({ id: 3, nome: 4, valor: 5 });
    emu.run('edit', ['deleteColumn']);
    // Column 2 was empty (inserted): nothing of ours died.
    expect(cols(emu)).toEqual({ id: 2, nome: 3, valor: 4 });
    emu.run('edit', ['deleteColumn']);
    expect(cols(emu)).toEqual({ nome: 2, valor: 3 });
    expect(emu.values('Dados')[0].slice(0, 3)).toEqual(['', 'nome', 'valor']);
  });

  it('moves a column block before the destination counted in the old numbering', () => {
    const emu = setUp();
    emu.run('edit', ['moveColumn']);
    expect(cols(emu)).toEqual({ nome: 1, valor: 2, id: 3 });
    expect(emu.values('Dados')[0].slice(0, 3)).toEqual(['nome', 'valor', 'id']);
  });

  it('moves with its row when rows are inserted or moved, and dies with it', () => {
    const emu = setUp();
    emu.run('edit', ['insertRow']);
    expect((emu.run('where', ['rec']) as Found[])[0].row).toBe(5);
    emu.run('edit', ['moveRow']);
    expect((emu.run('where', ['rec']) as Found[])[0].row).toBe(5);
    emu.run('edit', ['deleteRow']);
    expect((emu.run('where', ['rec']) as Found[])[0].row).toBe(4);
    // Row 2 moves before old row 5 (to 4): the rows between, ours at 4 included, move up one.
    emu.run('edit', ['moveRow']);
    expect((emu.run('where', ['rec']) as Found[])[0].row).toBe(3);
    emu.withServices((s) => s.SpreadsheetApp.getActiveSpreadsheet().getSheetByName('Dados')!.deleteRows(3, 1));
    expect(emu.run('where', ['rec'])).toEqual([]);
  });

  it('survives renaming the sheet and dies with a deleted sheet', () => {
    const emu = setUp();
    emu.run('edit', ['rename']);
    expect((emu.run('where', ['report']) as Found[])[0].sheet).toBe('Renomeada');
    expect(cols(emu)).toEqual({ id: 1, nome: 2, valor: 3 });
    emu.withServices((s) => {
      const ss = s.SpreadsheetApp.getActiveSpreadsheet();
      ss.deleteSheet(ss.getSheetByName('Renomeada')!);
    });
    expect(emu.run('where', ['col'])).toEqual([]);
    expect(emu.run('where', ['addon'])).toHaveLength(1);
  });

  it('refuses arbitrary ranges, and a removed entry is gone', () => {
    const emu = setUp();
    expect(() => emu.run('arbitrary')).toThrow(/arbitrary ranges is not currently supported/);
    expect(emu.run('onRange', ['B1:C3'])).toEqual(['42', 'nome', 'valor']);
    expect(() => emu.run('removeOne')).not.toThrow();
    expect(cols(emu)).toEqual({ id: 1, valor: 3 });
  });
});

describe('user edits', () => {
  it('sorting a range moves only its cells; sorting the sheet keeps frozen rows and puts blanks last', () => {
    const emu = setUp();
    const [byRange, bySheet] = emu.run('sortSheet') as unknown[][][];
    expect(byRange.map((r) => [r[0], r[1], r[4]])).toEqual([
      [1, 'a', 'n3'],
      [2, 'b', 'n1'],
      [3, 'c', 'n-'],
      ['', 'vazio', 'n2'],
    ]);
    // The whole sheet descending: the rows' other cells travel with them.
    expect(bySheet.map((r) => [r[0], r[1], r[4]])).toEqual([
      [3, 'c', 'n-'],
      [2, 'b', 'n1'],
      [1, 'a', 'n3'],
      ['', 'vazio', 'n2'],
    ]);
    expect(emu.values('Dados')[0][0]).toBe('id');
    // Sorting moves values, not rows: row metadata stays on its row.
    expect((emu.run('where', ['rec']) as Found[])[0].row).toBe(2);
  });

  it('hidden rows move with insertions; moving a tab keeps its id', () => {
    const emu = setUp();
    expect(emu.run('hide')).toEqual([false, true, true, false]);
    const tabs = emu.run('moveTab') as string[];
    expect(tabs[0].startsWith('Dados:')).toBe(true);
  });
});
