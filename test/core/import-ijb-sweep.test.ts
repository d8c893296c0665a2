/**
 * What a full refresh leaves of the rows whose record did not come: deleted
 * as whole rows when nothing of the user's is beside them, kept with a note
 * (and one warning) when there is, a user's own row left alone; a record
 * on two rows keeps the first; in a consolidated sheet the companies not
 * refreshed in full keep theirs. And the child sheets a write brings rows to.
 */
import { describe, expect, it } from 'vitest';
import { customers } from './fake-service';
import { company, type GridSheet, HOUR, settled, started, T0 } from './import-ijb-world';

const NOTE = 'Este registro não veio na atualização completa de 22/11/2026 13:00. A linha ficou porque tem anotações suas; apague-a quando não precisar mais.';
/^Este registro não veio na atualização completa de 22\/11\/2026 13:00:00?\. A linha ficou porque tem anotações suas; apague-a quando não precisar mais\.$/;
const kept = (n: number) =>
  `${n} linha(s) de registros que não vieram nesta atualização ficaram na aba porque têm anotações suas (veja a nota na coluna ID do cliente).`;
/** Column 45: the user's own, to the right of the 38 of Clientes. */
const OWN = 45;

/** A second, full run of the report over the sheet `first` left, bringing `records`. */
function refresh(first: ReturnType<typeof settled>, records: Array<Record<string, unknown>>) {
  const run = started('clientes', { sheetId: first.state.sheetId }, first.book, T0 + HOUR);
  run.writer.write(records);
  run.writer.finish();
  return run;
}
const notes = (sheet: GridSheet) =>
  sheet.notes.flatMap((row, r) => (row ?? []).flatMap((n, c) => (r > 0 && n ? [[r + 1, c + 1, n] as [number, number, string]] : [])));

describe('rows whose record did not come in a full refresh', () => {
  it('are deleted as whole rows when nothing of the user is beside them', () => {
    const first = settled('clientes', customers(1, 6));
    const { state } = refresh(
      first,
      customers(1, 6).filter((c) => c.idCliente !== 2 && c.idCliente !== 5),
    );
    expect(first.sheet.column('ID do cliente')).toEqual([1, 3, 4, 6]);
    expect(first.sheet.column('Razão social')).toEqual(['Cliente 1', 'Cliente 3', 'Cliente 4', 'Cliente 6']);
    expect(notes(first.sheet)).toEqual([]);
    expect(state.warnings).toEqual([]);
    expect(state.status).toBe('running');
  });

  it('a refresh that brings nothing leaves only the header, and one that brings one record, that row', () => {
    const first = settled('clientes', customers(1, 1));
    refresh(first, []);
    expect(first.sheet.lastRow()).toBe(1);
    refresh(first, []);
    expect(first.sheet.lastRow()).toBe(1);
    refresh(first, customers(7, 1));
    expect(first.sheet.column('ID do cliente')).toEqual([7]);
  });

  it('stay, with a note on their id and one warning, when the user wrote beside them; rows below deleted ones are noted where they moved', () => {
    const first = settled('clientes', customers(1, 8));
    // Customers 4 and 7 (rows 5 and 8) have the user's cells; 2, 3, 6 and 8 go without.
    first.sheet.type(5, OWN, 'cobrar');
    first.sheet.type(8, OWN, 'ligar');
    const { state } = refresh(
      first,
      customers(1, 8).filter((c) => [1, 5].includes(c.idCliente as number)),
    );
    expect(first.sheet.column('ID do cliente')).toEqual([1, 4, 5, 7]);
    expect(first.sheet.grid.slice(1, 5).map((r) => r[OWN - 1] ?? '')).toEqual(['', 'cobrar', '', 'ligar']);
    const id = first.sheet.at('ID do cliente');
    expect(notes(first.sheet).map(([row, column]) => [row, column])).toEqual([
      [3, id],
      [5, id],
    ]);
    expect(notes(first.sheet).map(([, , note]) => note)).toEqual([NOTE, NOTE]);
    expect(state.warnings).toEqual([kept(2)]);
  });

  it('a cell of the user in our own columns is not theirs to keep: the row goes', () => {
    const first = settled('clientes', customers(1, 3));
    first.sheet.type(3, first.sheet.at('E-mail'), 'eu@exemplo.com');
    refresh(first, customers(1, 1));
    expect(first.sheet.column('ID do cliente')).toEqual([1]);
  });

  it("a row of the user's own, with nothing in our columns, is left alone", () => {
    const first = settled('clientes', customers(1, 3));
    // Right beside our last column (38).
    first.sheet.type(5, 39, 'Total');
    const { state } = refresh(first, customers(1, 3));
    expect(first.sheet.column('ID do cliente')).toEqual([1, 2, 3, '']);
    expect(first.sheet.grid[4][38]).toBe('Total');
    expect(notes(first.sheet)).toEqual([]);
    expect(state.warnings).toEqual([]);
  });

  it('a record on two rows keeps the first; a row of our columns without an id is not a record', () => {
    const first = settled('clientes', customers(1, 3));
    const sheet = first.sheet;
    // The user copied customer 2's row below, and typed a name in an empty row of ours.
    sheet.ensureSize(6, 38);
    sheet.write(5, 1, sheet.read(3, 1, 1, 38));
    sheet.type(6, sheet.at('Razão social'), 'Sem id');
    refresh(
      first,
      customers(1, 3).map((c) => ({ ...c, razaoSocial: `Novo ${c.idCliente}` })),
    );
    expect(sheet.column('ID do cliente')).toEqual([1, 2, 3]);
    expect(sheet.column('Razão social')).toEqual(['Novo 1', 'Novo 2', 'Novo 3']);
  });

  it('a row the user copied during the run is a record on two rows: the copy goes', () => {
    const first = settled('clientes', customers(1, 3));
    const run = started('clientes', { sheetId: first.state.sheetId }, first.book, T0 + HOUR);
    run.writer.write(customers(1, 3));
    first.sheet.ensureSize(5, 38);
    first.sheet.write(5, 1, first.sheet.read(2, 1, 1, 38));
    run.writer.finish();
    expect(first.sheet.column('ID do cliente')).toEqual([1, 2, 3]);
  });

  it('a row this run wrote whose id the user then cleared is not a record any more', () => {
    const first = settled('clientes', customers(1, 3));
    const run = started('clientes', { sheetId: first.state.sheetId }, first.book, T0 + HOUR);
    run.writer.write(customers(1, 3));
    first.sheet.grid[2][first.sheet.at('ID do cliente') - 1] = '';
    run.writer.finish();
    expect(first.sheet.column('ID do cliente')).toEqual([1, 3]);
  });

  it('"Recebido em" tells the current rows to the second, either side of the run\'s start; text there is not a date', () => {
    const first = settled('clientes', customers(1, 4));
    const run = started('clientes', { sheetId: first.state.sheetId }, first.book, T0 + HOUR);
    run.writer.write(customers(1, 4));
    const at = first.sheet.at('Recebido em') - 1;
    // Sheets keeps date-times to the second: what was written may come back a little off.
    first.sheet.grid[1][at] = new Date(T0 + HOUR + 999);
    first.sheet.grid[2][at] = new Date(T0 + HOUR - 999);
    first.sheet.grid[3][at] = new Date(T0 + HOUR + 1000);
    first.sheet.grid[4][at] = 'ontem';
    run.writer.finish();
    expect(first.sheet.column('ID do cliente')).toEqual([1, 2]);
  });

  it('are read in blocks near them, never the whole sheet across', () => {
    const first = settled('clientes', customers(1, 60));
    first.sheet.type(2, OWN, 'nota');
    first.sheet.forget();
    refresh(
      first,
      customers(1, 60).filter((c) => c.idCliente !== 2 && c.idCliente !== 30 && c.idCliente !== 50),
    );
    const across = first.sheet.reads.filter(([, column, , columns]) => column === 1 && columns > 1);
    // Rows 3 and 31 (customers 2 and 30) are 28 apart: two reads; row 51 is 20 below 31: read with it.
    expect(across.map(([row, , rows]) => [row, rows])).toEqual([
      [3, 1],
      [31, 21],
    ]);
    expect(across.every(([, , , columns]) => columns === OWN)).toBe(true);
  });
});

describe('a consolidated sheet refreshed in full', () => {
  const companies = [company('k1'), company('k2', 'merge')];

  function consolidated() {
    const first = started('clientes', { companies: [company('k1'), company('k2')] });
    first.writer.write(customers(1, 3), company('k1'));
    first.writer.write(customers(1, 3), company('k2'));
    first.writer.finish();
    const run = started('clientes', { companies, sheetId: first.state.sheetId }, first.book, T0 + HOUR);
    const rows = () => {
      const [connection, id] = [first.sheet.at('ID da conexão'), first.sheet.at('ID do cliente')];
      return first.sheet.grid.slice(1, first.sheet.lastRow()).map((r) => `${r[connection - 1]}|${r[id - 1]}`);
    };
    return { first, run, rows };
  }

  it('keys rows by connection and id: the same id of two companies is two rows', () => {
    expect(consolidated().rows()).toEqual(['k1|1', 'k1|2', 'k1|3', 'k2|1', 'k2|2', 'k2|3']);
  });

  it('a company refreshed in full loses the rows that did not come; one refreshed incrementally keeps all of its', () => {
    const { run, rows } = consolidated();
    run.writer.write(customers(2, 1), company('k1'));
    run.writer.finish();
    expect(rows()).toEqual(['k1|2', 'k2|1', 'k2|2', 'k2|3']);
  });

  it('a company that failed keeps its rows as they were', () => {
    const { run, rows } = consolidated();
    run.state.spec.companies = [company('k1'), company('k2')];
    run.writer.write(customers(3, 1), company('k1'));
    (run.state.companies ?? [])[1].status = 'failed';
    run.writer.finish();
    expect(rows()).toEqual(['k1|3', 'k2|1', 'k2|2', 'k2|3']);
  });
});

describe('child sheets of a write', () => {
  const phones = (id: number, ...numbers: string[]) => ({ idCliente: id, razaoSocial: `Cliente ${id}`, telefones: numbers.map((numero) => ({ numero })) });
  const phoneSheet = (run: ReturnType<typeof started>) => run.book.byId(run.state.children.telefones.sheetId) as GridSheet;
  const rows = (sheet: GridSheet) => sheet.grid.slice(1, sheet.lastRow()).map((r) => r.slice(0, 2));

  it('none is made while no record brings items; the first items make it', () => {
    const run = started('clientes');
    run.writer.write(customers(1, 2));
    expect(run.book.sheets).toHaveLength(1);
    expect(run.state.children).toEqual({});
    run.nextStep().write([phones(3, '11')]);
    expect(run.book.sheets).toHaveLength(2);
    expect(rows(phoneSheet(run))).toEqual([[3, '11']]);
  });

  it("a record received again drops the items that did not come with it; other records' items stay", () => {
    const run = started('clientes');
    run.writer.write([phones(1, '11', '12'), phones(2, '21')]);
    run.nextStep().write([phones(1, '13')]);
    expect(rows(phoneSheet(run))).toEqual([
      [1, '13'],
      [2, '21'],
    ]);
    run.nextStep().write([phones(2)]);
    expect(rows(phoneSheet(run))).toEqual([[1, '13']]);
    expect(run.state.children.telefones.rows).toBe(1);
  });

  it('an incremental refresh drops the items a record no longer has, in the child sheet an earlier run made', () => {
    const first = settled('clientes', [phones(1, '11'), phones(2, '21')]);
    const run = started('clientes', { mode: 'merge', sheetId: first.state.sheetId }, first.book, T0 + HOUR);
    expect(run.state.children).toEqual({});
    run.writer.write([phones(1)]);
    expect(rows(run.book.byId(first.state.children.telefones.sheetId) as GridSheet)).toEqual([[2, '21']]);
  });

  it('widths are fitted to the first items of a new report, once', () => {
    const run = started('clientes');
    run.writer.write([phones(1, '11')]);
    expect(phoneSheet(run).widths).toHaveLength(1);
    run.nextStep().write([phones(2, '21')]);
    expect(phoneSheet(run).widths).toHaveLength(1);
    // Its items gone, the child sheet is empty again: nothing to fit.
    run.nextStep().write([phones(1), phones(2)]);
    run.nextStep().write([phones(3)]);
    expect(phoneSheet(run).widths).toHaveLength(1);
  });

  it('a report that ran before gets no widths fitted on a child sheet it makes later', () => {
    const first = settled('clientes', customers(1, 2));
    const run = started('clientes', { sheetId: first.state.sheetId }, first.book, T0 + HOUR);
    run.writer.write([phones(1, '11')]);
    expect(phoneSheet(run).widths).toEqual([]);
  });

  it("a consolidated sheet's items lead with the company and its connection", () => {
    const run = started('clientes', { companies: [company('k1')] });
    run.writer.write([phones(1, '11')], company('k1'));
    const sheet = phoneSheet(run);
    expect(sheet.grid[1].slice(0, 4)).toEqual(['Empresa k1', 'k1', 1, '11']);
  });
});
