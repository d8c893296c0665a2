/**
 * One write of a pull's records into the report sheet, as the user and the
 * job see it: "Filtros na planilha" applied, the rows counted per mode, texts
 * cut to the cell limit told (the first few named, the rest counted across
 * writes and steps), each record on the row of its id with when it was
 * received (the first such row when the user copied one, new ids below the
 * last row, rows without an id left to the user), the grid grown to the rows
 * written, the rows between two updated ones left as they were, number formats
 * per column, widths fitted once on a new sheet, and a report sheet deleted
 * between two steps.
 */
import { describe, expect, it } from 'vitest';
import type { ApiRecord } from '../../../src/api/envelopes';
import { Writer } from '../../../src/core/pull/writer';
import { PARTIAL_MARK } from '../../../src/core/sheets/sheet-names';
import { customers, invoices, PAGE_ROWS } from '../fake-service';
import { StrictBook, type StrictSheet } from './strict-book';
import { column, company, HOUR, pulling, pullRun, pullToEnd, settled, started, T0, world, startLooked } from './world';

const named = (name: string) => (c: Record<string, unknown>) => ({ ...c, razaoSocial: name });
const long = (n: number, from = 1) => customers(from, n).map(named('x'.repeat(60_000)));
const cutWarnings = (warnings: string[]) => warnings.filter((w) => w.startsWith('O campo "'));
const moreWarnings = (warnings: string[]) => warnings.filter((w) => w.startsWith('Além desses, '));
const more = (n: number) =>
  n === 1
    ? 'Além desses, 1 campo também passou de 50.000 caracteres e foi cortado.'
    : `Além desses, ${n.toLocaleString('pt-BR')} campos também passaram de 50.000 caracteres e foram cortados.`;

describe('"Filtros na planilha" on a write', () => {
  const onlyAtivos = [{ field: 'razaoSocial', op: 'igual' as const, values: ['Ativo'] }];

  it('writes, counts and reports as pulled only the records that pass', () => {
    const pulled: Array<[number, readonly ApiRecord[]]> = [];
    const run = started('clientes', { sheetFilters: onlyAtivos }, new StrictBook(), T0, { pulled: (id, records) => pulled.push([id, records]) });
    const records = [...customers(1, 2).map(named('Ativo')), ...customers(3, 2).map(named('Inativo')), ...customers(5, 1).map(named('Ativo'))];
    run.writer.write(records);
    expect(run.sheet.column('ID do cliente')).toEqual([1, 2, 5]);
    expect(run.state.rows).toBe(3);
    expect(pulled).toEqual([[run.state.sheetId, records.filter((r) => r.razaoSocial === 'Ativo')]]);
  });

  it('a batch with no record passing writes nothing at all: no row, no widths, nothing told', () => {
    const pulled: unknown[] = [];
    const run = started('clientes', { sheetFilters: onlyAtivos }, new StrictBook(), T0, { pulled: (...args) => pulled.push(args) });
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
    const run = started('clientes', { mode: 'merge', companies: [company('k1', 'merge')] }, new StrictBook(), T0, { pulled: (...a) => pulled.push(a) });
    run.writer.write(customers(1, 3), company('k1', 'merge'));
    run.nextStep().write(customers(1, 2), company('k1', 'merge'));
    expect(run.state).toMatchObject({ rows: 5, merged: 0 });
    expect(run.sheet.column('ID do cliente')).toEqual([1, 2, 3]);
    expect(pulled).toEqual([]);
  });

  it('a one-company pull tells each batch it wrote, with its sheet', () => {
    const pulled: Array<[number, readonly ApiRecord[]]> = [];
    const run = started('clientes', {}, new StrictBook(), T0, { pulled: (id, records) => pulled.push([id, records]) });
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
    const book = new StrictBook();
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
  /**
   * Rows are one block when the rows between them span at most 30 cells. Faturas is between 16 and 30 columns wide:
   * one row between two updated ones fits, two do not. Clientes (38) writes only adjacent rows as one block.
   */
  function refresh(listing: 'faturas' | 'clientes', ids: number[]) {
    const records = listing === 'faturas' ? invoices(1, 9) : customers(1, 9);
    const first = settled(listing, records);
    first.sheet.forget();
    const run = started(listing, { mode: 'merge', sheetId: first.state.sheetId }, first.book, T0 + HOUR);
    const key = listing === 'faturas' ? 'idFatura' : 'idCliente';
    first.sheet.forget();
    run.writer.write(ids.map((id) => ({ [key]: id, idIntegracao: `novo ${id}` })));
    const width = first.sheet.header().length;
    expect({ oneRowFits: width <= 30, twoRowsFit: 2 * width <= 30 }).toEqual({ oneRowFits: listing === 'faturas', twoRowsFit: false });
    return { sheet: first.sheet, state: run.state, width, dataWrites: first.sheet.written.filter(([row]) => row > 1) };
  }

  it("are written back as they were when the block holds them, with only this block's rows changed", () => {
    // Invoices 1 and 3 (rows 2 and 4) in one block, 9 (row 10) in another.
    const { sheet, state, width, dataWrites } = refresh('faturas', [1, 3, 9]);
    expect(state.status).toBe('running');
    expect(sheet.column('ID de integração')).toEqual(['novo 1', '', 'novo 3', '', '', '', '', '', 'novo 9']);
    expect(sheet.column('Recebido em')[1]).toEqual(new Date(T0));
    expect(dataWrites).toEqual([
      [2, 1, 3, width],
      [10, 1, 1, width],
    ]);
    expect(sheet.reads).toContainEqual([2, 1, 3, width]);
  });

  it('rows further apart are separate blocks, and nothing between them is read', () => {
    const { dataWrites, sheet, width } = refresh('faturas', [1, 4]);
    expect(dataWrites).toEqual([
      [2, 1, 1, width],
      [5, 1, 1, width],
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
    const { sheet, width, dataWrites } = refresh('faturas', [2, 3, 4]);
    expect(dataWrites).toEqual([[3, 1, 3, width]]);
    expect(sheet.reads.filter(([row, column, rows, columns]) => row === 3 && column === 1 && rows === 3 && columns === width)).toEqual([]);
  });
});

describe('card data', () => {
  it('when the report asks for it, is written in its columns', () => {
    const run = started('clientes', { cardData: true });
    run.writer.write([{ idCliente: 1, razaoSocial: 'Cliente 1', cartaoCredito: { numeroCartao: '4111********1111', nomeImpressoCartao: 'FULANO' } }]);
    expect(run.sheet.column('Cartão (número)')).toEqual(['4111********1111']);
    expect(run.sheet.column('Cartão (nome impresso)')).toEqual(['FULANO']);
  });
});

describe('column widths', () => {
  it('a spreadsheet whose sheets take no widths is written all the same', () => {
    const book = new StrictBook();
    book.widths = false;
    const run = started('clientes', {}, book);
    run.writer.write([{ idCliente: 1, razaoSocial: 'Cliente 1', telefones: [{ numero: '11' }] }]);
    expect(run.sheet.column('ID do cliente')).toEqual([1]);
    expect(book.sheets).toHaveLength(2);
  });

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

/** Rows by header label, whatever mark the first header carries while the run is not done. */
function rowsOf(sheet: StrictSheet): Array<Record<string, unknown>> {
  const header = sheet.header().map((h) => h.replace(PARTIAL_MARK, ''));
  return sheet.grid.slice(1, sheet.lastRow()).map((row) => Object.fromEntries(header.map((h, i) => [h, row?.[i] ?? ''])));
}
const names = (sheet: StrictSheet) => rowsOf(sheet).map((r) => `${r['ID do cliente']}:${r['Razão social']}`);

/** A merge writer over the sheet a first pull of `first` left. */
function merging(first: Array<Record<string, unknown>>) {
  const book = new StrictBook();
  const pull = pulling(first, {}, book);
  const done = pull.toEnd();
  expect(done.status).toBe('done');
  const state = startLooked({ ...done.spec, mode: 'merge' }, pull.deps);
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

describe('texts over the cell limit', () => {
  it('names the first five cuts and counts the others, adding up across the steps of the run', () => {
    const book = new StrictBook();
    const done = pullToEnd(book, long(5 * PAGE_ROWS));
    expect(done.steps).toBeGreaterThan(1);
    const named = done.warnings.filter((w) => w.startsWith('O campo "'));
    expect(named).toHaveLength(5);
    expect(done.warnings.filter((w) => w.startsWith('Além desses, '))).toEqual([
      `Além desses, ${(5 * PAGE_ROWS - 5).toLocaleString('pt-BR')} campos também passaram de 50.000 caracteres e foram cortados.`,
    ]);
  });
});

describe('the report sheet deleted during a pull', () => {
  it('fails the run telling the user to run the report again', () => {
    const book = new StrictBook();
    const { state, step } = pullRun(book, customers(1, 30));
    const first = step(state);
    expect(first.status).toBe('running');
    book.sheets = book.sheets.filter((s) => s.id !== first.sheetId);
    const next = step(first);
    expect(next.status).toBe('failed');
    expect(next.message).toContain('A aba "Clientes" foi apagada durante a importação. Rode o relatório de novo.');
  });
});

describe('a merge into the sheet an earlier pull wrote', () => {
  it('updates the rows it finds by id, adds the new ids below, and counts what it merged', () => {
    const book = new StrictBook();
    const first = pullToEnd(book, customers(1, 4));
    const sheet = book.byId(first.sheetId) as StrictSheet;
    const merged = pullToEnd(book, customers(3, 4, 'Novo'), 'merge', T0 + 3_600_000);
    expect(merged).toMatchObject({ status: 'done', merged: 4, rows: 6 });
    const name = sheet.grid[0].findIndex((h) => String(h).endsWith('Razão social') || String(h).endsWith('Razao social'));
    expect(sheet.grid.slice(1, sheet.lastRow()).map((r) => r[name])).toEqual(['Cliente 1', 'Cliente 2', 'Novo 3', 'Novo 4', 'Novo 5', 'Novo 6']);
  });
});

describe('a refresh into a sheet the user sorted', () => {
  it('writes each record on the row of its id, however far down the rows are and in whatever order', () => {
    const s = world({ k: customers(1, 12) });
    const state = s.start();
    const ids = () => column(s.sheet(), 'ID do cliente');
    expect(s.step(state).status).toBe('done');
    const sheet = s.sheet();
    sheet.grid = [sheet.grid[0], ...sheet.grid.slice(1, 13).reverse()];
    s.service.companies.k = customers(1, 12, 'Novo');
    const merged = s.run({ mode: 'merge' });
    expect(merged).toMatchObject({ status: 'done', merged: 12 });
    expect(ids()).toEqual(Array.from({ length: 12 }, (_, i) => 12 - i));
    expect(column(sheet, 'Razão social')).toEqual(Array.from({ length: 12 }, (_, i) => `Novo ${12 - i}`));
  });
});
