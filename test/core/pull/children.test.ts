/**
 * A pull's child sheets, one per nested list of its listing: made when the
 * first items come (just wide enough, tagged for their parent, marked while
 * the run goes on, under a name no sheet has), found again by their metadata
 * in a refresh, laid out once and again only when an open list's columns grow
 * (an earlier run's columns kept in their order, found from the header notes,
 * a column the user added to the right left theirs), cells formatted by kind,
 * each item on the row of its key, and the items a record no longer has
 * dropped.
 */
import { describe, expect, it } from 'vitest';
import { CHILD_TAG } from '../../../src/core/sheets/child-sheet';
import type { CompanySpec, ImportState } from '../../../src/core/pull/state';
import { Writer } from '../../../src/core/pull/writer';
import { PARTIAL_MARK } from '../../../src/core/sheets/sheet-names';
import type { MemorySheet } from '../bulk/memory-book';
import { customers } from '../fake-service';
import { StrictBook, type StrictSheet } from './strict-book';
import { column, company, world as document, HOUR, pulling, pullToEnd, settled, started, T0, withPhones as phoned } from './world';

const ORANGE = '#f9ab00';

const chargesFrom = (from: number, n: number, event: (i: number) => Record<string, unknown> = () => ({})) =>
  Array.from({ length: n }, (_, i) => ({
    idCobranca: from + i,
    eventosCartao: [{ idEventoCartao: 100 * (from + i), tid: `t${from + i}`, ...event(from + i) }],
  }));

describe('a child sheet of known columns', () => {
  it('keeps to the columns the listing declares: a field it does not is not written', () => {
    const pull = pulling(
      chargesFrom(1, 3, () => ({ campoNovo: 'x' })),
      { listing: 'cobrancas', sheetName: 'Cobranças' },
    );
    const done = pull.toEnd();
    const child = pull.book.watched(done.children.eventosCartao.sheetId);
    expect(child.lastColumn()).toBe(11);
    expect(done.children.eventosCartao.columns).toBeUndefined();
    expect(child.grid[1].slice(0, 2)).toEqual([1, 100]);
  });

  it('its cells formatted by kind: ids as integers, texts as text', () => {
    const pull = pulling(chargesFrom(1, 2), { listing: 'cobrancas', sheetName: 'Cobranças' });
    const done = pull.toEnd();
    const child = pull.book.watched(done.children.eventosCartao.sheetId);
    const notes = child.notes[0].map((n) => String(n).split('\n')[0]);
    expect(child.formats.get(`2:${notes.indexOf('idEventoCartao') + 1}`)).toBe('0');
    expect(child.formats.get(`2:${notes.indexOf('tid') + 1}`)).toBe('@');
  });

  it('a text over the cell limit in an item is said once, though the rows are counted before they are written', () => {
    const pull = pulling(
      chargesFrom(1, 1, () => ({ mensagem: 'm'.repeat(60_000) })),
      { listing: 'cobrancas', sheetName: 'Cobranças' },
    );
    const done = pull.toEnd();
    expect(done.warnings.filter((w) => w.startsWith('O campo "eventosCartao"'))).toHaveLength(1);
  });

  it('laid out once, however many writes bring it rows', () => {
    const pull = pulling([], { listing: 'cobrancas', sheetName: 'Cobranças' });
    const writer = new Writer(pull.state, pull.deps);
    writer.write(chargesFrom(1, 2));
    writer.write(chargesFrom(3, 2));
    const child = pull.book.watched(pull.state.children.eventosCartao.sheetId);
    expect(child.styled).toEqual([11]);
    expect(child.lastRow()).toBe(5);
  });
});

describe('an open child sheet', () => {
  it('laid out again, still marked, when its columns grow; not when they stay', () => {
    const pull = pulling([], {});
    const writer = new Writer(pull.state, pull.deps);
    writer.write(customers(1, 2).map((c) => ({ ...c, telefones: [{ numero: '1' }] })));
    const child = pull.book.watched(pull.state.children.telefones.sheetId);
    const laidOut = child.styled.length;
    expect(child.header()[0]).toBe(`${PARTIAL_MARK}ID do cliente`);
    child.tab = null;
    writer.write(customers(3, 2).map((c) => ({ ...c, telefones: [{ numero: '2' }] })));
    expect(child.styled.length).toBe(laidOut);
    expect(child.tab).toBeNull();
    writer.write(customers(5, 1).map((c) => ({ ...c, telefones: [{ numero: '3', tipo: 'fixo' }] })));
    expect(child.styled.length).toBe(laidOut + 1);
    expect(child.tab).toBe('#f9ab00');
    expect(child.header().slice(0, 3)).toEqual([`${PARTIAL_MARK}ID do cliente`, 'Número', 'Tipo']);
    expect(pull.state.warnings).toEqual([]);
  });
});
const charges = (n: number, events: number) =>
  Array.from({ length: n }, (_, i) => ({
    idCobranca: i + 1,
    eventosCartao: Array.from({ length: events }, (_, e) => ({ idEventoCartao: 100 * (i + 1) + e, tid: `t${e}` })),
  }));

describe('child sheets', () => {
  it('one of known columns is made cut to them and four more for notes, tagged for its parent, marked while the run goes on', () => {
    const pull = pulling(charges(30, 2), { listing: 'cobrancas', sheetName: 'Cobranças' });
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
    const pull = pulling(
      customers(1, 2).map((c) => ({ ...c, telefones: [{ numero: '1', tipo: 'fixo' }] })),
      {},
    );
    const done = pull.toEnd();
    expect(pull.book.made[1]).toEqual([`Clientes · ${pull.book.watched(done.children.telefones.sheetId).name().split(' · ')[1]}`, undefined]);
    expect(done.children.telefones.columns?.map((c) => c.key)).toEqual(['idCliente', 'numero', 'tipo']);
  });

  it("is made under a free name when the user has a sheet of that name, and the user's sheet is left alone", () => {
    const book = new StrictBook();
    const mine = book.create('Cobranças · Eventos de cartão');
    mine.setSheetTag(CHILD_TAG, 'outra:coisa');
    const pull = pulling(charges(2, 1), { listing: 'cobrancas', sheetName: 'Cobranças' }, book);
    const done = pull.toEnd();
    const child = book.watched(done.children.eventosCartao.sheetId);
    expect(child).not.toBe(mine);
    expect(child.name()).toMatch(/^Cobranças · .+ \(2\)$/);
    expect(mine.grid).toEqual([]);
  });

  it('a refresh writes into the child sheet the earlier run made, found by its metadata, not a new one', () => {
    const book = new StrictBook();
    const first = pulling(charges(2, 1), { listing: 'cobrancas', sheetName: 'Cobranças' }, book).toEnd();
    const child = book.watched(first.children.eventosCartao.sheetId);
    const made = book.made.length;
    const second = pulling(charges(3, 2), { listing: 'cobrancas', sheetName: 'Cobranças', sheetId: first.sheetId }, book).toEnd();
    expect(book.made.length).toBe(made);
    expect(second.children.eventosCartao.sheetId).toBe(child.id);
    expect(second.children.eventosCartao.rows).toBe(6);
    expect(child.sheetTag(CHILD_TAG)).toBe(`${first.sheetId}:eventosCartao`);
  });

  it('an open child with more keys than columns allowed keeps the first ones and says so once', () => {
    const item = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`campo${i}`, `v${i}`]));
    const pull = pulling(customers(1, 9).map((c) => ({ ...c, tags: [item] })));
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

describe('child sheets of a write', () => {
  const phones = (id: number, ...numbers: string[]) => ({ idCliente: id, razaoSocial: `Cliente ${id}`, telefones: numbers.map((numero) => ({ numero })) });
  const phoneSheetOf = (run: ReturnType<typeof started>) => run.book.byId(run.state.children.telefones.sheetId) as StrictSheet;
  const rows = (sheet: StrictSheet) => sheet.grid.slice(1, sheet.lastRow()).map((r) => r.slice(0, 2));

  it('none is made while no record brings items; the first items make it', () => {
    const run = started('clientes');
    run.writer.write(customers(1, 2));
    expect(run.book.sheets).toHaveLength(1);
    expect(run.state.children).toEqual({});
    run.nextStep().write([phones(3, '11')]);
    expect(run.book.sheets).toHaveLength(2);
    expect(rows(phoneSheetOf(run))).toEqual([[3, '11']]);
  });

  it("a record received again drops the items that did not come with it; other records' items stay", () => {
    const run = started('clientes');
    run.writer.write([phones(1, '11', '12'), phones(2, '21')]);
    run.nextStep().write([phones(1, '13')]);
    expect(rows(phoneSheetOf(run))).toEqual([
      [1, '13'],
      [2, '21'],
    ]);
    run.nextStep().write([phones(2)]);
    expect(rows(phoneSheetOf(run))).toEqual([[1, '13']]);
    expect(run.state.children.telefones.rows).toBe(1);
  });

  it('an incremental refresh drops the items a record no longer has, in the child sheet an earlier run made', () => {
    const first = settled('clientes', [phones(1, '11'), phones(2, '21')]);
    const run = started('clientes', { mode: 'merge', sheetId: first.state.sheetId }, first.book, T0 + HOUR);
    expect(run.state.children).toEqual({});
    run.writer.write([phones(1)]);
    expect(rows(run.book.byId(first.state.children.telefones.sheetId) as StrictSheet)).toEqual([[2, '21']]);
  });

  it('widths are fitted to the first items of a new report, once', () => {
    const run = started('clientes');
    run.writer.write([phones(1, '11')]);
    expect(phoneSheetOf(run).widths).toHaveLength(1);
    run.nextStep().write([phones(2, '21')]);
    expect(phoneSheetOf(run).widths).toHaveLength(1);
    // Its items gone, the child sheet is empty again: nothing to fit.
    run.nextStep().write([phones(1), phones(2)]);
    run.nextStep().write([phones(3)]);
    expect(phoneSheetOf(run).widths).toHaveLength(1);
  });

  it('a report that ran before gets no widths fitted on a child sheet it makes later', () => {
    const first = settled('clientes', customers(1, 2));
    const run = started('clientes', { sheetId: first.state.sheetId }, first.book, T0 + HOUR);
    run.writer.write([phones(1, '11')]);
    expect(phoneSheetOf(run).widths).toEqual([]);
  });

  it("a consolidated sheet's items lead with the company and its connection", () => {
    const run = started('clientes', { companies: [company('k1')] });
    run.writer.write([phones(1, '11')], company('k1'));
    const sheet = phoneSheetOf(run);
    expect(sheet.grid[1].slice(0, 4)).toEqual(['Empresa k1', 'k1', 1, '11']);
  });
});

const phoneList = (...numbers: Array<Record<string, unknown>>) =>
  customers(1, 2).map((c, i) => ({ ...c, telefones: numbers.map((n) => ({ ...n, numero: `${n.numero}${i}` })) }));

/** The same customers with their phones' keys in another order than `phones` gives them. */
const reorderedList = () => customers(1, 2).map((c, i) => ({ ...c, telefones: [{ tipo: 'fixo', numero: `22${i}` }] }));

function phoneSheet(book: StrictBook, state: ImportState): MemorySheet {
  return book.byId(state.children.telefones.sheetId) as MemorySheet;
}

describe('a refresh of a pull with an open child list', () => {
  it('keeps the child columns an earlier run laid out, in their order, with their labels', () => {
    const book = new StrictBook();
    const first = pullToEnd(book, phoneList({ numero: '11', tipo: 'celular' }));
    const sheet = phoneSheet(book, first);
    const header = sheet.grid[0].slice(0, sheet.lastColumn()).map(String);
    expect(header).toHaveLength(3);

    // The second run's records bring the keys in another order: the earlier layout wins.
    const second = pullToEnd(book, reorderedList());
    expect(phoneSheet(book, second)).toBe(sheet);
    expect(sheet.grid[0].slice(0, 3).map(String)).toEqual(header);
    expect(second.children.telefones.columns?.map((c) => c.label)).toEqual(header);
    expect(sheet.records().map((r) => [r[header[1]], r[header[2]]])).toEqual([
      ['220', 'fixo'],
      ['221', 'fixo'],
    ]);
  });

  it('leaves a column the user added to the right of the child sheet out of the columns it writes', () => {
    const book = new StrictBook();
    const first = pullToEnd(book, phoneList({ numero: '11' }));
    const sheet = phoneSheet(book, first);
    const width = sheet.lastColumn();
    sheet.write(1, width + 1, [['Observação']]);
    sheet.write(2, width + 1, [['ligar de manhã']]);

    const second = pullToEnd(book, phoneList({ numero: '33' }));
    expect(second.children.telefones.columns?.map((c) => c.key)).toHaveLength(width);
    expect(sheet.grid[0][width]).toBe('Observação');
  });

  it('keeps a single key an earlier run wrote first, and adds a new key after it', () => {
    const book = new StrictBook();
    const first = pullToEnd(book, phoneList({ numero: '11' }));
    const sheet = phoneSheet(book, first);
    const [id, numero] = sheet.grid[0].slice(0, 2).map(String);

    const second = pullToEnd(book, reorderedList());
    expect(second.children.telefones.columns?.map((c) => c.key)).toEqual(['idCliente', 'numero', 'tipo']);
    expect(sheet.grid[0].slice(0, 2).map(String)).toEqual([id, numero]);
  });
});

describe('the kinds of an open child refreshed', () => {
  it('come back from the values of the new run, not as text', () => {
    const book = new StrictBook();
    pullToEnd(book, phoneList({ numero: '11', ramal: 12 }));
    const second = pullToEnd(book, phoneList({ numero: '22', ramal: 34 }), 'replace', T0 + 3_600_000);
    expect(second.children.telefones.columns?.map((c) => [c.key, c.cell])).toEqual([
      ['idCliente', 'integer'],
      ['numero', 'text'],
      ['ramal', 'number'],
    ]);
  });
});

const withPhones = (from: number, n: number) => phoned(from, n, (id) => [{ numero: `11${id}`, tipo: 'celular' }]);
/** The same customers with the phone's keys in the other order. */
const reordered = (from: number, n: number) => phoned(from, n, (id) => [{ tipo: 'fixo', numero: `22${id}` }]);

const STALE_NOTE = /^Este item não veio na última atualização do registro\./;

/** Runs of the Clientes report into one document: one company, or consolidated (every key a company). */
function world(data: Record<string, Array<Record<string, unknown>>>, consolidated: boolean) {
  const w = document(data);
  const companies: CompanySpec[] = Object.keys(data).map((id) => ({ id, name: `Empresa ${id}`, filters: {}, mode: 'replace' }));
  const run = (): ImportState => {
    const state = w.run(consolidated ? { companies } : {});
    expect(state.status).toBe('done');
    return state;
  };
  return { service: w.service, run, phones: () => w.child('telefones'), report: w.sheet };
}

const header = (sheet: MemorySheet) => sheet.grid[0].slice(0, sheet.lastColumn()).map(String);

describe.each([
  ['one company', false, 0],
  ['a consolidated sheet', true, 2],
] as const)('an open child sheet in %s', (_, consolidated, lead) => {
  it('a run that brings no record: orphans go, one with the user’s cell beside it stays marked, every header column unmarked', () => {
    const w = world({ a: withPhones(1, 3) }, consolidated);
    w.run();
    const sheet = w.phones();
    const laidOut = header(sheet);
    expect(laidOut).toHaveLength(lead + 3);
    const width = laidOut.length;
    // The user's column to the right, a remark on the second customer's phone; the label of "tipo" cleared.
    sheet.write(1, width + 1, [['Observação']]);
    sheet.write(3, width + 1, [['ligar de manhã']]);
    sheet.write(1, width, [['']]);
    // The previous run was left incomplete (its sheets still marked).
    sheet.write(1, 1, [[`${PARTIAL_MARK}${laidOut[0]}`]]);

    w.service.companies.a = [];
    w.run();
    expect(w.report().lastRow()).toBe(1);
    expect(sheet.lastRow()).toBe(2);
    expect(sheet.grid[1][width]).toBe('ligar de manhã');
    expect(sheet.notes[1]?.[0]).toMatch(STALE_NOTE);
    expect(header(sheet)).toEqual([...laidOut.slice(0, -1), 'Tipo', 'Observação']);
  });

  it('a later run keeps the columns laid out, in their order, whatever order the keys come in', () => {
    const w = world({ a: withPhones(1, 2) }, consolidated);
    w.run();
    const sheet = w.phones();
    const laidOut = header(sheet);
    w.service.companies.a = reordered(1, 2);
    const state = w.run();
    expect(header(sheet)).toEqual(laidOut);
    expect(state.children.telefones.columns?.map((c) => c.key)).toEqual(['idCliente', 'numero', 'tipo']);
    expect(sheet.grid.slice(1, 3).map((r) => r.slice(lead + 1, lead + 3))).toEqual([
      ['221', 'fixo'],
      ['222', 'fixo'],
    ]);
  });
});

describe('an open child sheet, more cases', () => {
  it('a full refresh that leaves a single customer keeps its items', () => {
    const w = world({ a: withPhones(1, 3) }, false);
    w.run();
    w.service.companies.a = withPhones(2, 1);
    const state = w.run();
    expect(column(w.report(), 'ID do cliente')).toEqual([2]);
    expect(column(w.phones(), 'ID do cliente')).toEqual([2]);
    expect(state.children.telefones.rows).toBe(1);
  });

  it('a child sheet the user cleared whole is laid out again by the next run', () => {
    const w = world({ a: withPhones(1, 2) }, false);
    w.run();
    const sheet = w.phones();
    sheet.grid = [];
    sheet.notes = [];
    w.service.companies.a = [];
    expect(w.run().status).toBe('done');
    w.service.companies.a = withPhones(1, 1);
    w.run();
    expect(header(sheet)).toHaveLength(3);
    expect(column(sheet, 'ID do cliente')).toEqual([1]);
  });

  it("a child sheet whose first column is no longer the parent's id (the user deleted it) is laid out again from the items", () => {
    const w = world({ a: withPhones(1, 2) }, false);
    w.run();
    const sheet = w.phones();
    for (const line of [...sheet.grid, ...sheet.notes]) line?.splice(0, 1);
    w.run();
    expect(header(sheet).slice(0, 3)).toEqual(['ID do cliente', 'Número', 'Tipo']);
  });

  it('a column an earlier run laid out that this run brings no value for is still written as text', () => {
    const w = world({ a: withPhones(1, 2) }, false);
    w.run();
    const sheet = w.phones();
    w.service.companies.a = phoned(1, 2, (id) => [{ numero: `33${id}` }]);
    w.run();
    expect(header(sheet)).toHaveLength(3);
    expect(sheet.formats.get('2:3')).toBe('@');
    expect(sheet.formats.get('3:3')).toBe('@');
  });
});

describe('the child sheets a step looks for', () => {
  it('are looked for once each in a step, however often its write, sweep and marks ask for them, in one search of their tags', () => {
    const pull = pulling(customers(1, 7), {});
    const looked: string[] = [];
    const { book } = pull;
    const byName = book.byName.bind(book);
    book.byName = (name) => {
      looked.push(name);
      return byName(name);
    };
    const tagged = book.tagged.bind(book);
    book.tagged = (key, value) => {
      looked.push(`${key}=${value}`);
      return tagged(key, value);
    };
    expect(pull.toEnd().status).toBe('done');
    expect(looked.length).toBeGreaterThan(0);
    expect(new Set(looked).size).toBe(looked.length);
    // One search of every child sheet's tag serves each child list of the step.
    expect(looked.filter((l) => l.startsWith(CHILD_TAG))).toEqual([`${CHILD_TAG}=undefined`]);
  });
});
