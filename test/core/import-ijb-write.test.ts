/**
 * One write of a pull's records into the report sheet, as the user and the
 * job see it: "Filtros na planilha" applied, the rows counted per mode, texts
 * cut to the cell limit told (the first few named, the rest counted across
 * writes), each record on the row of its id with when it was received, the
 * grid grown to the rows written, the rows between two updated ones left as
 * they were, number formats per column, and widths fitted once on a new sheet.
 */
import { describe, expect, it } from 'vitest';
import type { ApiRecord } from '../../src/api/envelopes';
import { customers, invoices } from './fake-service';
import { company, GridBook, HOUR, settled, started, T0 } from './import-ijb-world';

const named = (name: string) => (c: Record<string, unknown>) => ({ ...c, razaoSocial: name });
const long = (n: number, from = 1) => customers(from, n).map(named('x'.repeat(60_000)));
const cutWarnings = (warnings: string[]) => warnings.filter((w) => w.startsWith('O campo "'));
const moreWarnings = (warnings: string[]) => warnings.filter((w) => w.startsWith('Além desses, '));
const more = (n: number) => `Além desses, ${n} campos também passaram de 50.000 caracteres e foram cortados.`;

describe('"Filtros na planilha" on a write', () => {
  const onlyAtivos = [{ field: 'razaoSocial', op: 'igual' as const, values: ['Ativo'] }];

  it('writes, counts and reports as pulled only the records that pass', () => {
    const pulled: Array<[number, readonly ApiRecord[]]> = [];
    const run = started('clientes', { sheetFilters: onlyAtivos }, new GridBook(), T0, { pulled: (id, records) => pulled.push([id, records]) });
    const records = [...customers(1, 2).map(named('Ativo')), ...customers(3, 2).map(named('Inativo')), ...customers(5, 1).map(named('Ativo'))];
    run.writer.write(records);
    expect(run.sheet.column('ID do cliente')).toEqual([1, 2, 5]);
    expect(run.state.rows).toBe(3);
    expect(pulled).toEqual([[run.state.sheetId, records.filter((r) => r.razaoSocial === 'Ativo')]]);
  });

  it('a batch with no record passing writes nothing at all: no row, no widths, nothing told', () => {
    const pulled: unknown[] = [];
    const run = started('clientes', { sheetFilters: onlyAtivos }, new GridBook(), T0, { pulled: (...args) => pulled.push(args) });
    run.sheet.forget();
    run.writer.write(customers(1, 3).map(named('Inativo')));
    expect(run.sheet.written).toEqual([]);
    expect(run.sheet.widths).toEqual([]);
    expect(pulled).toEqual([]);
    expect(run.state.rows).toBe(0);
  });

  it('without conditions every record is written', () => {
    const run = started('clientes', { sheetFilters: [] });
    run.writer.write(customers(1, 3));
    expect(run.sheet.column('ID do cliente')).toEqual([1, 2, 3]);
  });
});

describe('what a write counts', () => {
  it('a full pull adds each batch to the rows', () => {
    const run = started('clientes');
    run.writer.write(customers(1, 3));
    run.nextStep().write(customers(4, 2));
    expect(run.state).toMatchObject({ rows: 5, merged: 0 });
  });

  it('an incremental refresh counts the records merged, and the rows as the rows the sheet holds', () => {
    const first = settled('clientes', customers(1, 4));
    const run = started('clientes', { mode: 'merge', sheetId: first.state.sheetId }, first.book, T0 + HOUR);
    run.writer.write(customers(3, 3));
    expect(run.state).toMatchObject({ merged: 3, rows: 5 });
    run.nextStep().write(customers(1, 1));
    expect(run.state).toMatchObject({ merged: 4, rows: 5 });
  });

  it('a company of a consolidated pull adds its rows, in either mode, and tells no snapshot', () => {
    const pulled: unknown[] = [];
    const run = started('clientes', { mode: 'merge', companies: [company('k1', 'merge')] }, new GridBook(), T0, { pulled: (...a) => pulled.push(a) });
    run.writer.write(customers(1, 3), company('k1', 'merge'));
    run.nextStep().write(customers(1, 2), company('k1', 'merge'));
    expect(run.state).toMatchObject({ rows: 5, merged: 0 });
    expect(run.sheet.column('ID do cliente')).toEqual([1, 2, 3]);
    expect(pulled).toEqual([]);
  });

  it('a one-company pull tells each batch it wrote, with its sheet', () => {
    const pulled: Array<[number, readonly ApiRecord[]]> = [];
    const run = started('clientes', {}, new GridBook(), T0, { pulled: (id, records) => pulled.push([id, records]) });
    const batch = customers(1, 2);
    run.writer.write(batch);
    expect(pulled).toEqual([[run.state.sheetId, batch]]);
  });
});

describe('texts cut to the cell limit', () => {
  it('five cuts are all named, and nothing is counted', () => {
    const run = started('clientes');
    run.writer.write(long(5));
    expect(cutWarnings(run.state.warnings)).toHaveLength(5);
    expect(cutWarnings(run.state.warnings)[0]).toMatch(/^O campo "razaoSocial" do registro ID do cliente 1 tinha 60\.000 caracteres/);
    expect(moreWarnings(run.state.warnings)).toEqual([]);
  });

  it('no cut, no warning', () => {
    const run = started('clientes');
    run.writer.write(customers(1, 3));
    expect(run.state.warnings).toEqual([]);
  });

  it('past five, the others are counted in one line that adds up across writes, however many digits it has', () => {
    const run = started('clientes');
    run.writer.write(long(3));
    expect(cutWarnings(run.state.warnings)).toHaveLength(3);
    expect(moreWarnings(run.state.warnings)).toEqual([]);
    run.nextStep().write(long(15, 4));
    expect(cutWarnings(run.state.warnings)).toHaveLength(5);
    expect(moreWarnings(run.state.warnings)).toEqual([more(13)]);
    run.nextStep().write(long(2, 19));
    expect(cutWarnings(run.state.warnings)).toHaveLength(5);
    expect(moreWarnings(run.state.warnings)).toEqual([more(15)]);
    // The count stays where it was among the warnings.
    expect(run.state.warnings.at(-1)).toBe(more(15));
  });

  it('a count started in one write goes on in the next', () => {
    const run = started('clientes');
    run.writer.write(long(6));
    expect(moreWarnings(run.state.warnings)).toEqual([more(1)]);
    run.nextStep().write(long(1, 7));
    expect(moreWarnings(run.state.warnings)).toEqual([more(2)]);
  });

  it('warnings of another kind do not take the place of a named cut', () => {
    const book = new GridBook();
    const gone = started('clientes', {}, book);
    book.sheets = [];
    // The report's sheet was deleted since its last run: started again with a warning saying so.
    const run = started('clientes', { sheetId: gone.state.sheetId }, book);
    expect(run.state.warnings).toHaveLength(1);
    run.writer.write(long(5));
    expect(cutWarnings(run.state.warnings)).toHaveLength(5);
    expect(moreWarnings(run.state.warnings)).toEqual([]);
  });
});

describe('each record on the row of its id', () => {
  it('"Recebido em" is when the run started, on rows written by later steps too', () => {
    const run = started('clientes');
    run.writer.write(customers(1, 2));
    run.deps.now = () => T0 + 5 * 60_000;
    run.nextStep().write(customers(3, 1));
    expect(run.sheet.column('Recebido em')).toEqual([new Date(T0), new Date(T0), new Date(T0)]);
  });

  it('a record that comes twice in one batch takes one row, with what came last', () => {
    const run = started('clientes');
    run.writer.write([...customers(1, 2), { idCliente: 1, razaoSocial: 'De novo' }]);
    expect(run.sheet.column('ID do cliente')).toEqual([1, 2]);
    expect(run.sheet.column('Razão social')).toEqual(['De novo', 'Cliente 2']);
    expect(run.state.rows).toBe(3);
  });

  it("new ids go below the last row the sheet uses, the user's included", () => {
    const first = settled('clientes', customers(1, 2));
    first.sheet.type(6, 50, 'anotação solta');
    const run = started('clientes', { mode: 'merge', sheetId: first.state.sheetId }, first.book, T0 + HOUR);
    run.writer.write(customers(2, 2));
    expect(first.sheet.grid.map((r) => r?.[first.sheet.at('ID do cliente') - 1])).toEqual([expect.anything(), 1, 2, undefined, undefined, undefined, 3]);
  });

  it('the grid grows to exactly the rows written and our columns', () => {
    const run = started('clientes');
    run.writer.write(customers(1, 4));
    expect(run.sheet.grown).toEqual({ rows: 5, columns: 38 });
  });

  it('each column gets its number format on the rows written', () => {
    const run = started('faturas');
    run.writer.write([{ idFatura: 7, nomeCliente: 'ACME', valorTotal: 10.5, dataEmissao: '2026-11-02' }]);
    const format = (label: string) => run.sheet.formats.get(`2:${run.sheet.at(label)}`);
    expect([format('ID da fatura'), format('Cliente'), format('Valor total'), format('Emissão'), format('Recebido em')]).toEqual([
      '0',
      '@',
      '#,##0.00',
      'dd/MM/yyyy',
      'dd/MM/yyyy HH:mm',
    ]);
  });
});

describe('the rows between two records updated', () => {
  /** Faturas (15 columns) writes rows up to two apart as one block; Clientes (38) only adjacent rows. */
  function refresh(listing: 'faturas' | 'clientes', ids: number[]) {
    const records = listing === 'faturas' ? invoices(1, 9) : customers(1, 9);
    const first = settled(listing, records);
    first.sheet.forget();
    const run = started(listing, { mode: 'merge', sheetId: first.state.sheetId }, first.book, T0 + HOUR);
    const key = listing === 'faturas' ? 'idFatura' : 'idCliente';
    first.sheet.forget();
    run.writer.write(ids.map((id) => ({ [key]: id, idIntegracao: `novo ${id}` })));
    return { sheet: first.sheet, state: run.state, dataWrites: first.sheet.written.filter(([row]) => row > 1) };
  }

  it("are written back as they were when the block holds them, with only this block's rows changed", () => {
    // Invoices 1 and 3 (rows 2 and 4) in one block, 9 (row 10) in another.
    const { sheet, state, dataWrites } = refresh('faturas', [1, 3, 9]);
    expect(state.status).toBe('running');
    expect(sheet.column('ID de integração')).toEqual(['novo 1', '', 'novo 3', '', '', '', '', '', 'novo 9']);
    expect(sheet.column('Recebido em')[1]).toEqual(new Date(T0));
    expect(dataWrites).toEqual([
      [2, 1, 3, 15],
      [10, 1, 1, 15],
    ]);
    expect(sheet.reads).toContainEqual([2, 1, 3, 15]);
  });

  it('rows further apart are separate blocks, and nothing between them is read', () => {
    const { dataWrites, sheet } = refresh('faturas', [1, 4]);
    expect(dataWrites).toEqual([
      [2, 1, 1, 15],
      [5, 1, 1, 15],
    ]);
    expect(sheet.reads.filter(([row, , rows]) => row <= 3 && row + rows - 1 >= 3 && rows < 9)).toEqual([]);
  });

  it('a wide sheet writes adjacent rows as one block, and rows one apart as two', () => {
    expect(refresh('clientes', [1, 2]).dataWrites).toEqual([[2, 1, 2, 38]]);
    expect(refresh('clientes', [1, 3]).dataWrites).toEqual([
      [2, 1, 1, 38],
      [4, 1, 1, 38],
    ]);
  });

  it('a whole block of rows updated is written without reading it first', () => {
    const { sheet, dataWrites } = refresh('faturas', [2, 3, 4]);
    expect(dataWrites).toEqual([[3, 1, 3, 15]]);
    expect(sheet.reads.filter(([row, column, rows, columns]) => row === 3 && column === 1 && rows === 3 && columns === 15)).toEqual([]);
  });
});

describe('column widths', () => {
  it('a sheet the run made gets widths fitted to its first rows, once, without "Recebido em"', () => {
    const run = started('clientes');
    run.writer.write(customers(1, 2).map(named('Uma razão social bem comprida para a coluna')));
    expect(run.sheet.widths).toHaveLength(1);
    expect(run.sheet.widths[0]).toHaveLength(37);
    const short = started('clientes');
    short.writer.write(customers(1, 2));
    const at = short.sheet.at('Razão social') - 1;
    expect(run.sheet.widths[0][at]).toBeGreaterThan(short.sheet.widths[0][at]);
    run.nextStep().write(customers(3, 2));
    expect(run.sheet.widths).toHaveLength(1);
  });

  it('a sheet the user already had keeps its widths, in a full pull or a merge', () => {
    const first = settled('clientes', customers(1, 2));
    first.sheet.widths = [];
    const again = started('clientes', { sheetId: first.state.sheetId }, first.book, T0 + HOUR);
    again.writer.write(customers(1, 3));
    const merge = started('clientes', { mode: 'merge', sheetId: first.state.sheetId }, first.book, T0 + 2 * HOUR);
    merge.writer.write(customers(4, 1));
    expect(first.sheet.widths).toEqual([]);
  });

  it('a new sheet whose first write was a merge gets its widths once', () => {
    const run = started('clientes', { mode: 'merge' });
    run.writer.write(customers(1, 2));
    run.nextStep().write(customers(3, 1));
    expect(run.sheet.widths).toHaveLength(1);
  });
});
