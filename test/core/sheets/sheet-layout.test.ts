/**
 * Where our columns are in a sheet people edit: found by their metadata,
 * adopted from header notes on sheets older than metadata, cleared when the
 * report switched listings, and rebuilt beside their neighbours when the user
 * deleted one, never by shifting the user's columns.
 */
import { describe, expect, it } from 'vitest';
import { COLUMN_TAG, columnRuns, findColumns, headerNote, resolveLayout } from '../../../src/core/sheets/sheet-layout';
import type { Column } from '../../../src/core/sheets/table';
import { StrictSheet } from '../pull/strict-book';

const col = (key: string, label = key.toUpperCase()): Column => ({ key, label, cell: 'text' });
const columns = [col('id'), col('nome'), col('valor')];
const known = new Set(['id', 'nome', 'valor', 'outro', 'idOutro']);

/** A sheet with a header row: each cell's label, and its tag when given as `label:key`. */
function sheet(cells: string[], notes: string[] = []): StrictSheet {
  const s = new StrictSheet(1, 'Aba');
  s.grid = [cells.map((c) => c.split(':')[0]), cells.map((c) => `${c.split(':')[0]}-1`)];
  s.notes = [notes];
  cells.forEach((c, i) => {
    const key = c.split(':')[1];
    if (key) s.tagColumn(i + 1, COLUMN_TAG, key);
  });
  return s;
}

describe('our columns in a sheet', () => {
  it('a new sheet gets them in order from the first column, tagged, grown to fit', () => {
    const s = new StrictSheet(1, 'Nova');
    const layout = resolveLayout(s, columns, known, 'id', null);
    expect(layout).toEqual({ positions: [1, 2, 3], rebuilt: [], added: [], intact: false });
    expect(findColumns(s, columns)).toEqual([1, 2, 3]);
    expect(s.sizes).toEqual([[2, 3]]);
  });

  it('found by their metadata wherever the user moved them, nothing changed', () => {
    const s = sheet(['Minha', 'Valor:valor', 'ID:id', 'Outra', 'Nome:nome']);
    expect(resolveLayout(s, columns, known, 'id', true)).toEqual({ positions: [3, 5, 2], rebuilt: [], added: [], intact: true });
    expect(s.inserted).toEqual([]);
    expect(s.header()).toEqual(['Minha', 'Valor', 'ID', 'Outra', 'Nome']);
  });

  it('a column of ours the user deleted is rebuilt right after its left neighbour, the columns to its right moving over', () => {
    const s = sheet(['ID:id', 'Minha', 'Valor:valor']);
    const layout = resolveLayout(s, columns, known, 'id', true);
    expect(layout).toEqual({ positions: [1, 2, 4], rebuilt: ['NOME'], added: [], intact: false });
    expect(s.inserted).toEqual([[1, 1]]);
    expect(s.header()).toEqual(['ID', '', 'Minha', 'Valor']);
    expect(findColumns(s, columns)).toEqual([1, 2, 4]);
  });

  it('a first column deleted is rebuilt just before the first of ours', () => {
    const s = sheet(['Minha', 'Outra', 'Nome:nome', 'Valor:valor']);
    const layout = resolveLayout(s, columns, known, 'id', true);
    expect(layout).toEqual({ positions: [3, 4, 5], rebuilt: ['ID'], added: [], intact: false });
    expect(s.inserted).toEqual([[2, 1]]);
    expect(s.header()).toEqual(['Minha', 'Outra', '', 'Nome', 'Valor']);
  });

  it('two columns deleted side by side are rebuilt in their order', () => {
    const s = sheet(['Valor:valor', 'Minha']);
    const layout = resolveLayout(s, columns, known, 'id', true);
    expect(layout.positions).toEqual([1, 2, 3]);
    expect(layout.rebuilt).toEqual(['ID', 'NOME']);
    expect(s.header()).toEqual(['', '', 'Valor', 'Minha']);
  });

  it('a sheet from before metadata: columns whose header note names a field are adopted where they are', () => {
    const s = sheet(['Nome', 'Minha', 'ID', 'Valor'], [headerNote({ key: 'nome', note: 'o nome' }), 'minha nota', 'id', 'valor']);
    const layout = resolveLayout(s, columns, known, 'id', null);
    expect(layout).toEqual({ positions: [3, 1, 4], rebuilt: [], added: [], intact: false });
    expect(findColumns(s, columns)).toEqual([3, 1, 4]);
  });

  it('a tagged column keeps its tag even when its note names another field', () => {
    const s = sheet(['ID:id', 'Nome:nome', 'Valor:valor'], ['valor', 'id', 'nome']);
    expect(resolveLayout(s, columns, known, 'id', true)).toEqual({ positions: [1, 2, 3], rebuilt: [], added: [], intact: true });
  });

  it('a column of ours no longer wanted is cleared and let go; the others stay', () => {
    const s = sheet(['ID:id', 'Outro:outro', 'Nome:nome', 'Valor:valor'], ['', 'outro']);
    const layout = resolveLayout(s, columns, known, 'id', true);
    expect(layout).toEqual({ positions: [1, 3, 4], rebuilt: [], added: [], intact: true });
    expect(s.grid.map((r) => r[1])).toEqual(['', '']);
    expect(s.notes[0][1]).toBe('');
    expect(findColumns(s, [col('outro')])).toEqual([null]);
  });

  it('a report that switched listings: the old columns are cleared and the new ones take their places, then the next free ones', () => {
    const s = sheet(['Minha', 'A:outro', 'B:idOutro']);
    const layout = resolveLayout(s, columns, known, 'id', false);
    expect(layout).toEqual({ positions: [2, 3, 4], rebuilt: [], added: [], intact: false });
    expect(s.header()).toEqual(['Minha', '', '']);
    expect(findColumns(s, columns)).toEqual([2, 3, 4]);
    expect(findColumns(s, [col('outro'), col('idOutro')])).toEqual([null, null]);
  });

  it("a sheet that does not say its listing switched when it lacks this table's id column", () => {
    const other = sheet(['A:outro', 'Nome:nome']);
    expect(resolveLayout(other, columns, known, 'id', null).positions).toEqual([1, 2, 3]);
    expect(other.header()).toEqual(['', '']);
    const same = sheet(['ID:id', 'Nome:nome', 'Valor:valor']);
    expect(resolveLayout(same, columns, known, 'id', null)).toMatchObject({ positions: [1, 2, 3], intact: true });
    expect(same.header()).toEqual(['ID', 'Nome', 'Valor']);
  });
});

describe('runs of columns', () => {
  it('groups columns that sit side by side, in sheet order, each with the indexes of its table columns', () => {
    expect(columnRuns([3, 4, 1, 7, 5])).toEqual([
      { column: 1, indexes: [2] },
      { column: 3, indexes: [0, 1, 4] },
      { column: 7, indexes: [3] },
    ]);
    expect(columnRuns([])).toEqual([]);
  });
});
