/**
 * Child sheets as people edit them: found by their metadata (an older one
 * adopted once by its name), each item written on the row of its key whatever
 * the user sorted, items that did not come dropped, or kept and marked when
 * the user wrote beside them, and rows of parents no longer there let go.
 */
import { describe, expect, it } from 'vitest';
import { CHILD_TAG, childTagValue, dropOrphans, findChildSheet, placeChildRows } from '../../../src/core/sheets/child-sheet';
import type { CellValue, Column } from '../../../src/core/sheets/table';
import { StrictBook, StrictSheet } from './strict-book';

const STALE = /^Este item não veio na última atualização do registro\. A linha ficou porque tem anotações suas/;
const col = (key: string): Column => ({ key, label: key, cell: 'text' });
/** Items with their own id (idItem right after the parent's id). */
const withIds = [col('idFatura'), col('idItem'), col('descricao')];
/** Items without one: matched by position among their parent's rows. */
const positional = [col('idCliente'), col('telefone')];
const formats = (columns: Column[]) => columns.map(() => '@');

function childSheet(rows: CellValue[][], header: string[] = ['idFatura', 'idItem', 'descricao']): StrictSheet {
  const s = new StrictSheet(1, 'Faturas · Itens');
  s.ensureSize(rows.length + 1, Math.max(header.length, ...rows.map((r) => r.length)));
  s.write(1, 1, [header]);
  if (rows.length) s.write(2, 1, rows);
  return s;
}
const data = (s: StrictSheet) => s.grid.slice(1, s.lastRow()).map((r) => r.map((v) => (v === undefined ? '' : v)));

describe('finding a child sheet', () => {
  it('by its metadata whatever it is called now; an older one by its name, once; never one tagged for another parent', () => {
    const book = new StrictBook();
    const renamed = book.create('Meus itens');
    renamed.setSheetTag(CHILD_TAG, childTagValue(7, 'itens'));
    expect(findChildSheet(book, 7, 'itens', 'Faturas · Itens')).toBe(renamed);
    expect(childTagValue(7, 'itens')).toBe('7:itens');

    const legacy = book.create('Faturas · Itens');
    expect(findChildSheet(book, 8, 'itens', 'Faturas · Itens')).toBe(legacy);
    expect(legacy.sheetTag(CHILD_TAG)).toBe('8:itens');
    // Tagged now: another parent's run no longer takes it by its name.
    expect(findChildSheet(book, 9, 'itens', 'Faturas · Itens')).toBeNull();
    expect(findChildSheet(book, 8, 'itens', 'Faturas · Itens')).toBe(legacy);
    expect(findChildSheet(book, 10, 'outros', 'Nada')).toBeNull();
  });
});

describe('placing child rows', () => {
  it('writes each item on the row of its key wherever the user sorted it, new ones below, and says how many rows there are', () => {
    const s = childSheet([
      [2, 21, 'velho 21'],
      [1, 11, 'velho 11'],
      [3, 31, 'outra fatura'],
    ]);
    const rows = placeChildRows(
      s,
      withIds,
      formats(withIds),
      [
        [1, 11, 'novo 11'],
        [2, 21, 'novo 21'],
        [2, 22, 'novo 22'],
      ],
      new Set(['1', '2']),
    );
    expect(data(s)).toEqual([
      [2, 21, 'novo 21'],
      [1, 11, 'novo 11'],
      [3, 31, 'outra fatura'],
      [2, 22, 'novo 22'],
    ]);
    expect(rows).toBe(4);
  });

  it('an item that did not come is deleted, or kept and marked when the user wrote beside it', () => {
    const s = childSheet([
      [1, 11, 'a', ''],
      [1, 12, 'b', 'minha nota'],
      [1, 13, 'c', ''],
      [1, 14, 'd', ''],
      [2, 21, 'e', ''],
    ]);
    const rows = placeChildRows(s, withIds, formats(withIds), [[1, 14, 'd2']], new Set(['1']));
    expect(data(s)).toEqual([
      [1, 12, 'b', 'minha nota'],
      [1, 14, 'd2', ''],
      [2, 21, 'e', ''],
    ]);
    expect(s.notes[1]?.[0]).toMatch(STALE);
    expect(rows).toBe(3);
  });

  it("a second row with the same key is not the item's row any more: it goes", () => {
    const s = childSheet([
      [1, 11, 'a'],
      [1, 11, 'cópia'],
    ]);
    placeChildRows(s, withIds, formats(withIds), [[1, 11, 'novo']], new Set(['1']));
    expect(data(s)).toEqual([[1, 11, 'novo']]);
  });

  it("items without an id of their own are matched by their place among their parent's rows", () => {
    const s = childSheet(
      [
        [5, 'tel 1'],
        [6, 'outro'],
        [5, 'tel 2'],
        [5, 'tel 3'],
      ],
      ['idCliente', 'telefone'],
    );
    placeChildRows(
      s,
      positional,
      formats(positional),
      [
        [5, 'novo 1'],
        [5, 'novo 2'],
      ],
      new Set(['5']),
    );
    expect(data(s)).toEqual([
      [5, 'novo 1'],
      [6, 'outro'],
      [5, 'novo 2'],
    ]);
  });

  it("rows without a parent id are the user's and stay; nothing fresh writes nothing", () => {
    const s = childSheet([
      ['', '', 'total'],
      [1, 11, 'a'],
    ]);
    const writes = s.writes;
    expect(placeChildRows(s, withIds, formats(withIds), [], new Set())).toBe(2);
    expect(s.writes).toBe(writes);
    expect(data(s)).toEqual([
      ['', '', 'total'],
      [1, 11, 'a'],
    ]);
  });

  it('an empty sheet gets the rows below its header, in one block', () => {
    const s = childSheet([]);
    const writes = s.writes;
    expect(
      placeChildRows(
        s,
        withIds,
        formats(withIds),
        [
          [1, 11, 'a'],
          [1, 12, 'b'],
        ],
        new Set(['1']),
      ),
    ).toBe(2);
    expect(s.writes - writes).toBe(1);
    expect(data(s)).toEqual([
      [1, 11, 'a'],
      [1, 12, 'b'],
    ]);
  });

  it("in a consolidated sheet, two companies' record 17 never collide", () => {
    const lead = [col('empresa'), col('$conexao'), col('idFatura'), col('idItem'), col('descricao')];
    const s = childSheet(
      [
        ['A', 'k1', 17, 1, 'de A'],
        ['B', 'k2', 17, 1, 'de B'],
      ],
      ['empresa', '$conexao', 'idFatura', 'idItem', 'descricao'],
    );
    placeChildRows(s, lead, formats(lead), [['B', 'k2', 17, 1, 'B novo']], new Set(['k2|17']), 2);
    expect(data(s)).toEqual([
      ['A', 'k1', 17, 1, 'de A'],
      ['B', 'k2', 17, 1, 'B novo'],
    ]);
  });
});

describe('orphans after a full refresh', () => {
  it('rows whose parent is gone are deleted, or kept and marked when the user wrote beside them; returns the rows left', () => {
    const s = childSheet([
      [1, 11, 'a', ''],
      [9, 91, 'b', ''],
      [9, 92, 'c', 'minha'],
      [9, 93, 'd', ''],
      ['', '', 'total', ''],
    ]);
    expect(dropOrphans(s, 3, new Set(['1']))).toBe(3);
    expect(data(s)).toEqual([
      [1, 11, 'a', ''],
      [9, 92, 'c', 'minha'],
      ['', '', 'total', ''],
    ]);
    expect(s.notes[2]?.[0]).toMatch(STALE);
    expect(s.notes[1]?.[0]).toBeUndefined();
  });
});

describe('placing child rows, more cases', () => {
  it('rows side by side are written in one block whatever order their items came in', () => {
    const s = childSheet([
      [1, 11, 'a'],
      [1, 12, 'b'],
      [1, 13, 'c'],
    ]);
    const writes = s.writes;
    placeChildRows(
      s,
      withIds,
      formats(withIds),
      [
        [1, 13, 'c2'],
        [1, 12, 'b2'],
        [1, 11, 'a2'],
      ],
      new Set(['1']),
    );
    expect(s.writes - writes).toBe(1);
    expect(data(s)).toEqual([
      [1, 11, 'a2'],
      [1, 12, 'b2'],
      [1, 13, 'c2'],
    ]);
  });

  it("a row is the user's when any cell beside our columns holds something; the mark goes on its row after the deletions", () => {
    const s = childSheet([
      [1, 11, 'a', '', ''],
      [1, 12, 'b', '', 'nota'],
      [1, 13, 'c', '', ''],
      [1, 14, 'd', '', ''],
      [1, 15, 'e', '', ''],
    ]);
    placeChildRows(s, withIds, formats(withIds), [[1, 15, 'e2']], new Set(['1']));
    expect(data(s)).toEqual([
      [1, 12, 'b', '', 'nota'],
      [1, 15, 'e2', '', ''],
    ]);
    expect(s.notes[1]?.[0]).toMatch(STALE);
    expect(s.notes[2]?.[0]).toBeUndefined();
  });

  it("rows of the user's without a parent id stay, however many", () => {
    const s = childSheet([
      [1, 11, 'a'],
      ['', '', 'subtotal'],
      ['', '', 'total'],
    ]);
    placeChildRows(s, withIds, formats(withIds), [[1, 11, 'a2']], new Set(['1']));
    expect(data(s)).toEqual([
      [1, 11, 'a2'],
      ['', '', 'subtotal'],
      ['', '', 'total'],
    ]);
  });

  it('a child table of the parent id alone, or whose next field is not an id, is matched by position', () => {
    const only = [col('idCliente')];
    const s = childSheet([[5], [5]], ['idCliente']);
    expect(placeChildRows(s, only, formats(only), [[5]], new Set(['5']))).toBe(1);
    const notId = [col('idCliente'), col('rapidEntrega')];
    const t = childSheet(
      [
        [5, 'x'],
        [5, 'y'],
      ],
      ['idCliente', 'rapidEntrega'],
    );
    placeChildRows(t, notId, formats(notId), [[5, 'y2']], new Set(['5']));
    expect(data(t)).toEqual([[5, 'y2']]);
  });

  it('in a consolidated sheet, items without an id of their own are matched by place within company and record', () => {
    const lead = [col('empresa'), col('$conexao'), col('idCliente'), col('telefone')];
    const s = childSheet(
      [
        ['A', 'k1', 5, 'a1'],
        ['B', 'k2', 5, 'b1'],
        ['A', 'k1', 5, 'a2'],
      ],
      ['empresa', '$conexao', 'idCliente', 'telefone'],
    );
    placeChildRows(s, lead, formats(lead), [['A', 'k1', 5, 'novo']], new Set(['k1|5']), 2);
    expect(data(s)).toEqual([
      ['A', 'k1', 5, 'novo'],
      ['B', 'k2', 5, 'b1'],
    ]);
  });

  it('a sheet with only its header reads nothing and takes the rows below it', () => {
    const s = childSheet([]);
    expect(placeChildRows(s, withIds, formats(withIds), [[1, 11, 'a']], new Set(['1']))).toBe(1);
    expect(dropOrphans(s, 3, new Set(['1']))).toBe(1);
    const empty = childSheet([]);
    expect(dropOrphans(empty, 3, new Set())).toBe(0);
  });
});
