/**
 * How a pull lays out the report sheet: marked incomplete (first header cell,
 * orange tab) until the run ends, styled as a table only where our columns
 * stand together, grown to hold the header, tagged with the report it belongs
 * to; our columns found by their metadata (rebuilt beside their neighbours
 * when the user deleted one, cleared when the report switched listings);
 * the report's sheet found by id, made again under a free name when the user
 * deleted it; and whether a later run may merge into the sheet as it is.
 */
import { describe, expect, it } from 'vitest';
import type { ListingKey } from '../../../src/api/operations';
import { reportColumns } from '../../../src/core/pull/layout';
import { lookAtSheet } from '../../../src/core/pull/start';
import { Writer } from '../../../src/core/pull/writer';
import { LAYOUT_TAG, LISTING_TAG, SHEET_TAG } from '../../../src/core/sheets/sheet-layout';
import type { BookPort } from '../../../src/core/sheets/sheet-port';
import { PARTIAL_MARK } from '../../../src/core/sheets/sheet-names';
import { customers, invoices, zone } from '../fake-service';
import { StrictBook, type StrictSheet } from './strict-book';
import { column, pulling, startDeps, startSpec, T0, startLooked } from './world';

const ORANGE = '#f9ab00';
const label = (key: string) => reportColumns('clientes').find((c) => c.key === key)?.label;
const CLIENTES_COLUMNS = 38;

/** Whether a run of `listingKey` into the report's sheet `sheetId` may merge, from that run's one look at the sheet. */
const mergeable = (book: BookPort, listingKey: ListingKey, sheetId: number | undefined) =>
  lookAtSheet(book, { listing: listingKey, sheetId, sheetName: 'Clientes' }).intact;

/** A user's own column inserted after column `after` of a sheet of ours, with a header and a value. */
function userColumn(sheet: StrictSheet, after: number, header = 'Observação') {
  sheet.insertColumnsAfter(after, 1);
  sheet.write(1, after + 1, [[header]]);
  sheet.write(2, after + 1, [['ligar']]);
}

/** Our column of `key` deleted by the user: its cells, note and metadata gone, the columns to its right moved left. */
function deleteColumn(sheet: StrictSheet, key: string) {
  const at = sheet.columns.get(key) as number;
  for (const line of sheet.grid) line?.splice(at - 1, 1);
  for (const line of sheet.notes) line?.splice(at - 1, 1);
  sheet.columns.delete(key);
  for (const [k, c] of sheet.columns) if (c > at) sheet.columns.set(k, c - 1);
  sheet.size.columns -= 1;
}

describe('the report sheet while a run goes on and when it ends', () => {
  it('is grown for its header, styled across our columns, its tab orange, until the run ends', () => {
    const pull = pulling(customers(1, 4));
    const sheet = pull.sheet();
    expect(sheet.sizes[0]).toEqual([2, CLIENTES_COLUMNS]);
    expect(sheet.styled).toEqual([CLIENTES_COLUMNS]);
    expect(sheet.tab).toBe(ORANGE);
    expect(sheet.header()[0]).toBe(`${PARTIAL_MARK}ID do cliente`);
    const done = pull.toEnd();
    expect(done.status).toBe('done');
    expect(sheet.tab).toBeNull();
    expect(sheet.header()[0]).toBe('ID do cliente');
    expect(sheet.header().filter((h) => h.startsWith(PARTIAL_MARK))).toEqual([]);
  });

  it('a sheet where the user put a column among ours: the header is written around it, never styled over it', () => {
    const book = new StrictBook();
    pulling(customers(1, 3), {}, book).toEnd();
    const sheet = book.sheets[0] as StrictSheet;
    userColumn(sheet, 2);
    sheet.styled = [];
    sheet.sizes = [];
    const again = pulling(customers(1, 3), { sheetId: sheet.id }, book);
    expect(again.state.warnings).toEqual([]);
    // Grown to hold the header across our columns, the last of which moved one to the right.
    expect(sheet.sizes).toEqual([[2, CLIENTES_COLUMNS + 1]]);
    expect(sheet.styled).toEqual([]);
    expect(sheet.tab).toBe(ORANGE);
    expect(sheet.header()[2]).toBe('Observação');
    expect(sheet.formats.get('1:4')).toBe('@');
    expect(sheet.notes[0][2] ?? '').toBe('');
    expect(sheet.header()[0]).toBe(`${PARTIAL_MARK}ID do cliente`);
    expect(again.toEnd().status).toBe('done');
    expect(sheet.header()[2]).toBe('Observação');
    expect(sheet.header()[0]).toBe('ID do cliente');
    expect(sheet.tab).toBeNull();
    expect(sheet.grid[1][2]).toBe('ligar');
  });

  it("carries its report's id, and no report's when it has none", () => {
    const tagged = pulling([], { reportId: 'r1' });
    expect(tagged.sheet().sheetTag(SHEET_TAG)).toBe('relatorio:r1');
    expect(pulling([]).sheet().sheetTag(SHEET_TAG)).toBeNull();
  });

  it('a column of ours the user deleted before the run is made again beside its neighbours, and the run says which', () => {
    const book = new StrictBook();
    pulling(customers(1, 3), {}, book).toEnd();
    const sheet = book.sheets[0] as StrictSheet;
    deleteColumn(sheet, 'razaoSocial');
    deleteColumn(sheet, 'email');
    const again = pulling(customers(1, 3), { sheetId: sheet.id }, book);
    expect(again.state.warnings).toEqual([`Colunas do complemento que tinham sido apagadas foram refeitas: Razão social, ${label('email')}.`]);
    const at = sheet.columns.get('razaoSocial') as number;
    expect(sheet.notes[0][at - 1]).toBe('razaoSocial');
    expect(sheet.header()[at - 1]).toBe('Razão social');
  });

  it('a column this version brings is added to a sheet laid out before it beside its neighbours, told as new; deleted later, as rebuilt', () => {
    const book = new StrictBook();
    const faturas = invoices(1, 2).map((f, i) => ({ ...f, competencia: ['12/2025', '01/2026'][i] }));
    const pull = () => pulling(faturas, { listing: 'faturas', sheetName: 'Faturas', sheetId: book.sheets[0]?.id }, book);
    pull().toEnd();
    const sheet = book.sheets[0] as StrictSheet;
    expect(sheet.sheetTag(LAYOUT_TAG)).toBe('2');
    // A sheet from before "Mês da competência": without the column, and without a layout version.
    deleteColumn(sheet, '$mesCompetencia');
    sheet.tags.delete(LAYOUT_TAG);
    const again = pull();
    expect(again.state.warnings).toEqual([
      'Colunas novas desta versão do complemento foram incluídas: Mês da competência. Confira fórmulas que contam colunas (como PROCV).',
    ]);
    expect(sheet.columns.get('$mesCompetencia')).toBe((sheet.columns.get('competencia') as number) + 1);
    expect(sheet.sheetTag(LAYOUT_TAG)).toBe('2');
    expect(again.toEnd().status).toBe('done');
    expect(column(sheet, 'Mês da competência')).toEqual([zone.instant({ year: 2025, month: 12, day: 1 }), zone.instant({ year: 2026, month: 1, day: 1 })]);
    expect(sheet.formats.get(`2:${sheet.columns.get('$mesCompetencia')}`)).toBe('MM/yyyy');
    // The same column deleted by the user once the sheet has it: rebuilt, and said so.
    deleteColumn(sheet, '$mesCompetencia');
    expect(pull().state.warnings).toEqual(['Colunas do complemento que tinham sido apagadas foram refeitas: Mês da competência.']);
  });

  it('deleted between two steps: made again, said once however many steps follow, and the sheet stays marked until the end', () => {
    const pull = pulling(customers(1, 30));
    const sheet = pull.sheet();
    const first = pull.step(pull.state, T0 + 1_500);
    expect(first.status).toBe('running');
    deleteColumn(sheet, 'razaoSocial');
    deleteColumn(sheet, 'email');
    new Writer(first, pull.deps);
    // The rows written before stay where they were.
    expect(sheet.grid.slice(1, sheet.lastRow()).map((r) => r[0])).toEqual([1, 2, 3, 4, 5, 6]);
    const note = `Colunas do complemento que tinham sido apagadas foram refeitas: Razão social, ${label('email')}.`;
    expect(first.warnings).toEqual([note]);
    expect(sheet.header()[0]).toBe(`${PARTIAL_MARK}ID do cliente`);
    expect(sheet.tab).toBe(ORANGE);
    // Deleted again: the same words are not repeated.
    deleteColumn(sheet, 'razaoSocial');
    deleteColumn(sheet, 'email');
    new Writer(first, pull.deps);
    expect(first.warnings).toEqual([note]);
    // A writer over an intact sheet changes nothing of the header.
    sheet.tab = 'unchanged';
    new Writer(first, pull.deps);
    expect(sheet.tab).toBe('unchanged');
  });
});

describe('a sheet an earlier run wrote', () => {
  const ids = (sheet: StrictSheet) => sheet.grid.slice(1, sheet.lastRow()).map((r) => r[(sheet.columns.get('idCliente') as number) - 1]);

  it('run again for the same listing keeps its columns and rows where they are until the new rows come', () => {
    const book = new StrictBook();
    pulling(customers(1, 3), {}, book).toEnd();
    const sheet = book.sheets[0] as StrictSheet;
    const again = pulling(customers(1, 3), { sheetId: sheet.id, mode: 'merge' }, book);
    expect(again.state.warnings).toEqual([]);
    expect(ids(sheet)).toEqual([1, 2, 3]);
    expect(mergeable(book, 'clientes', sheet.id)).toBe(true);
    // Every column in place, but the sheet now says it holds another listing.
    sheet.setSheetTag(LISTING_TAG, 'faturas');
    expect(mergeable(book, 'clientes', sheet.id)).toBe(false);
  });

  it('from before sheets carried their listing: its columns of the same listing are kept too', () => {
    const book = new StrictBook();
    pulling(customers(1, 3), {}, book).toEnd();
    const sheet = book.sheets[0] as StrictSheet;
    sheet.tags.delete(LISTING_TAG);
    expect(mergeable(book, 'clientes', sheet.id)).toBe(false);
    pulling(customers(1, 3), { sheetId: sheet.id, mode: 'merge' }, book);
    expect(ids(sheet)).toEqual([1, 2, 3]);
    expect(sheet.sheetTag(LISTING_TAG)).toBe('clientes');
  });

  it('from before columns carried metadata: ours are found by their header notes, a column the user put among them left theirs', () => {
    const book = new StrictBook();
    pulling(customers(1, 3), {}, book).toEnd();
    const sheet = book.sheets[0];
    userColumn(sheet, 2);
    sheet.columns.clear();
    const again = pulling(customers(1, 3), { sheetId: sheet.id }, book);
    expect(again.state.warnings).toEqual([]);
    expect(sheet.header()[2]).toBe('Observação');
    expect(again.toEnd().status).toBe('done');
    expect(sheet.header()[2]).toBe('Observação');
    expect(sheet.grid[1][2]).toBe('ligar');
    expect(mergeable(book, 'clientes', sheet.id)).toBe(true);
  });

  it("of another listing: its columns are all cleared, even those of the same field, and the new listing's laid out in order", () => {
    const book = new StrictBook();
    pulling([{ idFatura: 1, idCliente: 7 }], { listing: 'faturas', sheetName: 'Aba' }, book).toEnd();
    const sheet = book.sheets[0] as StrictSheet;
    const run = pulling([], { sheetId: sheet.id, sheetName: 'Aba' }, book);
    expect(run.state.warnings).toEqual([]);
    expect([...sheet.columns.entries()].sort((a, b) => a[1] - b[1]).map(([key]) => key)).toEqual(reportColumns('clientes').map((c) => c.key));
    expect(sheet.grid[1]?.some((v) => v !== '') ?? false).toBe(false);
    expect(mergeable(book, 'faturas', sheet.id)).toBe(false);
  });
});

describe('the sheet of a report the user deleted', () => {
  it('is made again under its own name when no sheet has it', () => {
    const book = new StrictBook();
    const first = pulling([], { sheetName: 'Clientes' }, book);
    book.sheets = [];
    const again = pulling([], { sheetName: 'Clientes', sheetId: first.state.sheetId }, book);
    expect(again.state.spec.sheetName).toBe('Clientes');
    expect(again.state.warnings).toEqual(['A aba do relatório tinha sido apagada e foi criada de novo ("Clientes").']);
  });

  it('is made again under the name, cut so that the number that tells it apart fits', () => {
    const book = new StrictBook();
    const name = 'N'.repeat(100);
    const first = pulling([], { sheetName: name }, book);
    book.sheets = book.sheets.filter((s) => s.id !== first.state.sheetId);
    book.create('n'.repeat(100));
    book.create(`${'n'.repeat(95)} (2)`);
    const again = pulling([], { sheetName: name, sheetId: first.state.sheetId }, book);
    expect(again.state.spec.sheetName).toBe(`${'N'.repeat(95)} (3)`);
  });
});

describe('whether a later run may merge', () => {
  it('only into a sheet of the same listing with every column of ours where its metadata says', () => {
    const d = startDeps();
    const state = startLooked(startSpec(), d);
    expect(mergeable(d.book, 'clientes', state.sheetId)).toBe(true);
    expect(mergeable(d.book, 'faturas', state.sheetId)).toBe(false);
    expect(mergeable(d.book, 'clientes', undefined)).toBe(false);
    expect(mergeable(d.book, 'clientes', 9999)).toBe(false);
    const sheet = d.book.byId(state.sheetId) as StrictSheet;
    sheet.columns.delete([...sheet.columns.keys()][1]);
    expect(mergeable(d.book, 'clientes', state.sheetId)).toBe(false);
  });
});
