/**
 * How a pull lays out the sheets it writes: the report sheet and each child
 * sheet marked incomplete (first header cell, orange tab) until the run ends,
 * styled as a table only where our columns stand together, grown to hold the
 * header, tagged with the report they belong to; child sheets made just wide
 * enough, under a name no sheet has; the failure texts a run shows.
 */
import { describe, expect, it } from 'vitest';
import { CELL_LIMIT_TEXT, canMerge, failureMessage, reportColumns, Writer } from '../../src/core/import-job';
import { CHILD_TAG } from '../../src/core/child-sheet';
import { LISTING_TAG, SHEET_TAG } from '../../src/core/sheet-layout';
import { PARTIAL_MARK } from '../../src/core/sheet-names';
import { customers } from './fake-service';
import { T0, WatchedBook, type WatchedSheet, watchedPull } from './import-ija-world';

const ORANGE = '#f9ab00';
const label = (key: string) => reportColumns('clientes').find((c) => c.key === key)?.label;
const CLIENTES_COLUMNS = 38;

/** A user's own column inserted after column `after` of a sheet of ours, with a header and a value. */
function userColumn(sheet: WatchedSheet, after: number, header = 'Observação') {
  sheet.insertColumnsAfter(after, 1);
  sheet.write(1, after + 1, [[header]]);
  sheet.write(2, after + 1, [['ligar']]);
}

/** Our column of `key` deleted by the user: its cells, note and metadata gone, the columns to its right moved left. */
function deleteColumn(sheet: WatchedSheet, key: string) {
  const at = sheet.columns.get(key) as number;
  for (const line of sheet.grid) line?.splice(at - 1, 1);
  for (const line of sheet.notes) line?.splice(at - 1, 1);
  sheet.columns.delete(key);
  for (const [k, c] of sheet.columns) if (c > at) sheet.columns.set(k, c - 1);
}

describe('the report sheet while a run goes on and when it ends', () => {
  it('is grown for its header, styled across our columns, its tab orange, until the run ends', () => {
    const pull = watchedPull(customers(1, 4));
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
    const book = new WatchedBook();
    watchedPull(customers(1, 3), {}, book).toEnd();
    const sheet = book.sheets[0] as WatchedSheet;
    userColumn(sheet, 2);
    sheet.styled = [];
    sheet.sizes = [];
    const again = watchedPull(customers(1, 3), { sheetId: sheet.id }, book);
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
    const tagged = watchedPull([], { reportId: 'r1' });
    expect(tagged.sheet().sheetTag(SHEET_TAG)).toBe('relatorio:r1');
    expect(watchedPull([]).sheet().sheetTag(SHEET_TAG)).toBeNull();
  });

  it('a column of ours the user deleted before the run is made again beside its neighbours, and the run says which', () => {
    const book = new WatchedBook();
    watchedPull(customers(1, 3), {}, book).toEnd();
    const sheet = book.sheets[0] as WatchedSheet;
    deleteColumn(sheet, 'razaoSocial');
    deleteColumn(sheet, 'email');
    const again = watchedPull(customers(1, 3), { sheetId: sheet.id }, book);
    expect(again.state.warnings).toEqual([`Colunas do complemento que tinham sido apagadas foram refeitas: Razão social, ${label('email')}.`]);
    const at = sheet.columns.get('razaoSocial') as number;
    expect(sheet.notes[0][at - 1]).toBe('razaoSocial');
    expect(sheet.header()[at - 1]).toBe('Razão social');
  });

  it('deleted between two steps: made again, said once however many steps follow, and the sheet stays marked until the end', () => {
    const pull = watchedPull(customers(1, 30));
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
  const ids = (sheet: WatchedSheet) => sheet.grid.slice(1, sheet.lastRow()).map((r) => r[(sheet.columns.get('idCliente') as number) - 1]);

  it('run again for the same listing keeps its columns and rows where they are until the new rows come', () => {
    const book = new WatchedBook();
    watchedPull(customers(1, 3), {}, book).toEnd();
    const sheet = book.sheets[0] as WatchedSheet;
    const again = watchedPull(customers(1, 3), { sheetId: sheet.id, mode: 'merge' }, book);
    expect(again.state.warnings).toEqual([]);
    expect(ids(sheet)).toEqual([1, 2, 3]);
    expect(canMerge(book, 'clientes', sheet.id)).toBe(true);
    // Every column in place, but the sheet now says it holds another listing.
    sheet.setSheetTag(LISTING_TAG, 'faturas');
    expect(canMerge(book, 'clientes', sheet.id)).toBe(false);
  });

  it('from before sheets carried their listing: its columns of the same listing are kept too', () => {
    const book = new WatchedBook();
    watchedPull(customers(1, 3), {}, book).toEnd();
    const sheet = book.sheets[0] as WatchedSheet;
    sheet.tags.delete(LISTING_TAG);
    expect(canMerge(book, 'clientes', sheet.id)).toBe(false);
    watchedPull(customers(1, 3), { sheetId: sheet.id, mode: 'merge' }, book);
    expect(ids(sheet)).toEqual([1, 2, 3]);
    expect(sheet.sheetTag(LISTING_TAG)).toBe('clientes');
  });

  it("of another listing: its columns are all cleared, even those of the same field, and the new listing's laid out in order", () => {
    const book = new WatchedBook();
    watchedPull([{ idFatura: 1, idCliente: 7 }], { listing: 'faturas', sheetName: 'Aba' }, book).toEnd();
    const sheet = book.sheets[0] as WatchedSheet;
    const run = watchedPull([], { sheetId: sheet.id, sheetName: 'Aba' }, book);
    expect(run.state.warnings).toEqual([]);
    expect([...sheet.columns.entries()].sort((a, b) => a[1] - b[1]).map(([key]) => key)).toEqual(reportColumns('clientes').map((c) => c.key));
    expect(sheet.grid[1]?.some((v) => v !== '') ?? false).toBe(false);
    expect(canMerge(book, 'faturas', sheet.id)).toBe(false);
  });
});

describe('the sheet of a report the user deleted', () => {
  it('is made again under its own name when no sheet has it', () => {
    const book = new WatchedBook();
    const first = watchedPull([], { sheetName: 'Clientes' }, book);
    book.sheets = [];
    const again = watchedPull([], { sheetName: 'Clientes', sheetId: first.state.sheetId }, book);
    expect(again.state.spec.sheetName).toBe('Clientes');
    expect(again.state.warnings).toEqual(['A aba do relatório tinha sido apagada e foi criada de novo ("Clientes").']);
  });

  it('is made again under the name, cut so that the number that tells it apart fits', () => {
    const book = new WatchedBook();
    const name = 'N'.repeat(100);
    const first = watchedPull([], { sheetName: name }, book);
    book.sheets = book.sheets.filter((s) => s.id !== first.state.sheetId);
    book.create('n'.repeat(100));
    book.create(`${'n'.repeat(95)} (2)`);
    const again = watchedPull([], { sheetName: name, sheetId: first.state.sheetId }, book);
    expect(again.state.spec.sheetName).toBe(`${'N'.repeat(95)} (3)`);
  });
});

const charges = (n: number, events: number) =>
  Array.from({ length: n }, (_, i) => ({
    idCobranca: i + 1,
    eventosCartao: Array.from({ length: events }, (_, e) => ({ idEventoCartao: 100 * (i + 1) + e, tid: `t${e}` })),
  }));

describe('child sheets', () => {
  it('one of known columns is made cut to them and four more for notes, tagged for its parent, marked while the run goes on', () => {
    const pull = watchedPull(charges(30, 2), { listing: 'cobrancas', sheetName: 'Cobranças' });
    const first = pull.step(pull.state, T0 + 1_500);
    const entry = first.children.eventosCartao;
    const child = pull.book.watched(entry.sheetId);
    expect(pull.book.made).toEqual([
      ['Cobranças', undefined],
      [child.name(), 11 + 4],
    ]);
    expect(child.sheetTag(CHILD_TAG)).toBe(`${pull.state.sheetId}:eventosCartao`);
    expect(child.tab).toBe(ORANGE);
    expect(child.styled).toEqual([11]);
    expect(child.header()[0].startsWith(PARTIAL_MARK)).toBe(true);
    const done = pull.toEnd();
    expect(done.status).toBe('done');
    expect(child.tab).toBeNull();
    expect(child.header()[0].startsWith(PARTIAL_MARK)).toBe(false);
    expect(done.children.eventosCartao.rows).toBe(60);
  });

  it('an open one is made with the whole grid, its columns found as records come', () => {
    const pull = watchedPull(
      customers(1, 2).map((c) => ({ ...c, telefones: [{ numero: '1', tipo: 'fixo' }] })),
      {},
    );
    const done = pull.toEnd();
    expect(pull.book.made[1]).toEqual([`Clientes · ${pull.book.watched(done.children.telefones.sheetId).name().split(' · ')[1]}`, undefined]);
    expect(done.children.telefones.columns?.map((c) => c.key)).toEqual(['idCliente', 'numero', 'tipo']);
  });

  it("is made under a free name when the user has a sheet of that name, and the user's sheet is left alone", () => {
    const book = new WatchedBook();
    const mine = book.create('Cobranças · Eventos de cartão');
    mine.setSheetTag(CHILD_TAG, 'outra:coisa');
    const pull = watchedPull(charges(2, 1), { listing: 'cobrancas', sheetName: 'Cobranças' }, book);
    const done = pull.toEnd();
    const child = book.watched(done.children.eventosCartao.sheetId);
    expect(child).not.toBe(mine);
    expect(child.name()).toMatch(/^Cobranças · .+ \(2\)$/);
    expect(mine.grid).toEqual([]);
  });

  it('a refresh writes into the child sheet the earlier run made, found by its metadata, not a new one', () => {
    const book = new WatchedBook();
    const first = watchedPull(charges(2, 1), { listing: 'cobrancas', sheetName: 'Cobranças' }, book).toEnd();
    const child = book.watched(first.children.eventosCartao.sheetId);
    const made = book.made.length;
    const second = watchedPull(charges(3, 2), { listing: 'cobrancas', sheetName: 'Cobranças', sheetId: first.sheetId }, book).toEnd();
    expect(book.made.length).toBe(made);
    expect(second.children.eventosCartao.sheetId).toBe(child.id);
    expect(second.children.eventosCartao.rows).toBe(6);
    expect(child.sheetTag(CHILD_TAG)).toBe(`${first.sheetId}:eventosCartao`);
  });

  it('an open child with more keys than columns allowed keeps the first ones and says so once', () => {
    const item = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`campo${i}`, `v${i}`]));
    const pull = watchedPull(customers(1, 9).map((c) => ({ ...c, tags: [item] })));
    // A block a page: the child's columns are found again at each write.
    pull.deps.flushRows = 3;
    const done = pull.toEnd();
    const cut = done.warnings.filter((w) => / só as primeiras \d+ colunas foram importadas\.$/.test(w));
    expect(cut).toHaveLength(1);
    const columns = done.children.tags.columns ?? [];
    expect(cut[0]).toBe(
      `${pull.deps.book.byId(done.children.tags.sheetId)?.name().split(' · ')[1]}: só as primeiras ${columns.length} colunas foram importadas.`,
    );
  });
});

describe('a failure in words', () => {
  it("Google's refusal at the cell limit becomes the add-on's own advice, however Google words it", () => {
    for (const raw of [
      'This action would increase the number of cells in the workbook above the limit of 10000000 cells.',
      'above the limit of 10,000,000 cells',
      'The spreadsheet is over the 10 MILLION cell limit',
    ])
      expect(failureMessage(new Error(raw)), raw).toBe(CELL_LIMIT_TEXT);
  });

  it('any other failure as it was said, bounded; a thrown text or nothing at all still has words', () => {
    expect(failureMessage(new Error('Chave recusada'))).toBe('Chave recusada');
    expect(failureMessage('sem conexão')).toBe('sem conexão');
    expect(failureMessage(null)).toBe('null');
    expect(failureMessage(undefined)).toBe('undefined');
    const long = failureMessage(new Error('x'.repeat(5_000)));
    expect(long).toHaveLength(2_000);
    expect(long.endsWith('…')).toBe(true);
    expect(failureMessage(new Error('100000 cells'))).toBe('100000 cells');
  });
});
