/**
 * Where a pull writes each record: on the row its id is on now (the first such
 * row when the user copied one), new ids below the last row, rows without an
 * id left to the user; in a consolidated sheet the key is the connection and
 * the id together, and child sheets start with Empresa and the connection.
 */
import { describe, expect, it } from 'vitest';
import { type CompanySpec, startImport, Writer } from '../../src/core/import-job';
import { customers } from './fake-service';
import { WatchedBook, type WatchedSheet, watchedPull } from './import-ija-world';
import { PARTIAL_MARK } from '../../src/core/sheet-names';

/** Rows by header label, whatever mark the first header carries while the run is not done. */
function rowsOf(sheet: WatchedSheet): Array<Record<string, unknown>> {
  const header = sheet.header().map((h) => h.replace(PARTIAL_MARK, ''));
  return sheet.grid.slice(1, sheet.lastRow()).map((row) => Object.fromEntries(header.map((h, i) => [h, row?.[i] ?? ''])));
}
const names = (sheet: WatchedSheet) => rowsOf(sheet).map((r) => `${r['ID do cliente']}:${r['Razão social']}`);

/** A merge writer over the sheet a first pull of `first` left. */
function merging(first: Array<Record<string, unknown>>) {
  const book = new WatchedBook();
  const pull = watchedPull(first, {}, book);
  const done = pull.toEnd();
  expect(done.status).toBe('done');
  const state = startImport({ ...done.spec, mode: 'merge' }, pull.deps);
  return { book, sheet: pull.sheet(), state, writer: new Writer(state, pull.deps) };
}

describe('the row of each record', () => {
  it('a sheet of one record: the record is updated on its row, not added below', () => {
    const m = merging(customers(1, 1));
    m.writer.write(customers(1, 1, 'Novo'));
    expect(names(m.sheet)).toEqual(['1:Novo 1']);
    expect(m.state.rows).toBe(1);
    expect(m.state.merged).toBe(1);
  });

  it('a row the user copied: the record is written on the first row of its id; the copy stays as it was', () => {
    const m = merging(customers(1, 2));
    m.sheet.write(4, 1, [m.sheet.grid[1].slice()]);
    m.writer.write([...customers(1, 1, 'Novo'), ...customers(7, 1, 'Novo')]);
    expect(names(m.sheet)).toEqual(['1:Novo 1', '2:Cliente 2', '1:Cliente 1', '7:Novo 7']);
  });

  it("a row without an id is the user's: records never land on it, new ones go below it", () => {
    const m = merging(customers(1, 2));
    m.sheet.write(4, 2, [['anotação sem id']]);
    m.writer.write(customers(5, 2, 'Novo'));
    const rows = rowsOf(m.sheet);
    expect(rows.map((r) => r['ID do cliente'])).toEqual([1, 2, '', 5, 6]);
    expect(m.sheet.grid[3][1]).toBe('anotação sem id');
  });

  it('a sheet with only its header: the first record goes on row 2, without reading an empty range', () => {
    const m = merging([]);
    m.writer.write(customers(3, 1));
    expect(m.sheet.grid[1][0]).toBe(3);
    expect(m.sheet.lastRow()).toBe(2);
  });

  it('a record that came without its id is added below, never written over a row without an id', () => {
    const m = merging(customers(1, 2));
    m.sheet.write(4, 2, [['anotação sem id']]);
    m.writer.write([{ idCliente: '', razaoSocial: 'Sem id' }]);
    expect(m.sheet.grid[3][1]).toBe('anotação sem id');
    expect(m.sheet.lastRow()).toBe(5);
    expect(rowsOf(m.sheet).map((r) => r['Razão social'])).toEqual(['Cliente 1', 'Cliente 2', '', 'Sem id']);
  });

  it('reads the id column once for all the writes of a step', () => {
    const m = merging(customers(1, 4));
    const idColumn = m.sheet.columns.get('idCliente');
    m.sheet.reads = [];
    m.writer.write(customers(2, 1, 'Novo'));
    m.writer.write(customers(9, 1, 'Novo'));
    m.writer.write(customers(3, 1, 'Novo'));
    expect(m.sheet.reads.filter(([row, column]) => row === 2 && column === idColumn)).toEqual([[2, idColumn, 4, 1]]);
    expect(names(m.sheet)).toEqual(['1:Cliente 1', '2:Novo 2', '3:Novo 3', '4:Cliente 4', '9:Novo 9']);
  });
});

describe('a consolidated sheet', () => {
  const companies: CompanySpec[] = [
    { id: 'k1', name: 'Alfa', filters: {}, mode: 'replace' },
    { id: 'k2', name: 'Beta', filters: {}, mode: 'replace' },
  ];

  function consolidated() {
    const pull = watchedPull([], { companies });
    return { ...pull, writer: new Writer(pull.state, pull.deps) };
  }

  it("two companies' record of the same id are two rows, each with its company and connection first", () => {
    const c = consolidated();
    c.writer.write(customers(1, 2), companies[0]);
    c.writer.write(customers(2, 2, 'Beta'), companies[1]);
    c.writer.write(customers(2, 1, 'Alfa novo'), companies[0]);
    const sheet = c.sheet();
    expect(rowsOf(sheet).map((r) => [r.Empresa, r['ID da conexão'], r['ID do cliente'], r['Razão social']])).toEqual([
      ['Alfa', 'k1', 1, 'Cliente 1'],
      ['Alfa', 'k1', 2, 'Alfa novo 2'],
      ['Beta', 'k2', 2, 'Beta 2'],
      ['Beta', 'k2', 3, 'Beta 3'],
    ]);
    expect(c.state.rows).toBe(5);
  });

  it('a second writer over the sheet finds the rows by connection and id, reading no row below the grid', () => {
    const c = consolidated();
    c.writer.write(customers(1, 2), companies[0]);
    c.writer.write(customers(1, 2), companies[1]);
    c.sheet().gridRows = 5;
    new Writer(c.state, c.deps).write(customers(2, 1, 'Beta novo'), companies[1]);
    expect(rowsOf(c.sheet()).map((r) => `${r['ID da conexão']}:${r['ID do cliente']}:${r['Razão social']}`)).toEqual([
      'k1:1:Cliente 1',
      'k1:2:Cliente 2',
      'k2:1:Cliente 1',
      'k2:2:Beta novo 2',
    ]);
  });

  it('a record of a company that came without its id is added, never written over a row of that company without an id', () => {
    const c = consolidated();
    c.writer.write(customers(1, 1), companies[0]);
    const sheet = c.sheet();
    const at = (key: string) => (sheet.columns.get(key) as number) - 1;
    sheet.write(3, 1, [['Alfa', 'k1']]);
    sheet.write(3, at('razaoSocial') + 1, [['linha sem id']]);
    new Writer(c.state, c.deps).write([{ idCliente: '', razaoSocial: 'Sem id' }], companies[0]);
    expect(rowsOf(sheet).map((r) => r['Razão social'])).toEqual(['Cliente 1', 'linha sem id', 'Sem id']);
  });

  it('child sheets start with Empresa and the connection, then the parent id', () => {
    const c = consolidated();
    c.writer.write(
      customers(1, 1).map((r) => ({ ...r, telefones: [{ numero: '11' }] })),
      companies[1],
    );
    const child = c.book.watched(c.state.children.telefones.sheetId);
    expect(child.header().slice(0, 4)).toEqual([`${PARTIAL_MARK}Empresa`, 'ID da conexão', 'ID do cliente', 'Numero']);
    expect(child.grid[1].slice(0, 4)).toEqual(['Beta', 'k2', 1, '11']);
    expect(child.notes[0].slice(0, 3)).toEqual(['empresa', '$conexao', 'idCliente']);
  });
});
