/**
 * Child sheets through a pull's steps: laid out once and again only when an
 * open child's columns change, cells formatted by their kind, fields the
 * listing does not declare left out of a known child, a cut text said once,
 * and the cell check counting what each child sheet holds and will hold.
 */
import { describe, expect, it } from 'vitest';
import { CELL_LIMIT_TEXT, startImport, Writer } from '../../src/core/import-job';
import { CELL_LIMIT } from '../../src/core/sheet-port';
import { PARTIAL_MARK } from '../../src/core/sheet-names';
import { customers } from './fake-service';
import { T0, WatchedBook, watchedPull } from './import-ija-world';

const over = (cells: number) =>
  `Esta importação (com as abas de itens) levaria a planilha a ${(CELL_LIMIT + cells).toLocaleString('pt-BR')} células. ${CELL_LIMIT_TEXT}`;

const charges = (from: number, n: number, event: (i: number) => Record<string, unknown> = () => ({})) =>
  Array.from({ length: n }, (_, i) => ({
    idCobranca: from + i,
    eventosCartao: [{ idEventoCartao: 100 * (from + i), tid: `t${from + i}`, ...event(from + i) }],
  }));

const phones = (from: number, n: number) => customers(from, n).map((c) => ({ ...c, telefones: [{ numero: `9${c.idCliente}`, ramal: 10 }] }));

describe('a child sheet of known columns', () => {
  it('keeps to the columns the listing declares: a field it does not is not written', () => {
    const pull = watchedPull(
      charges(1, 3, () => ({ campoNovo: 'x' })),
      { listing: 'cobrancas', sheetName: 'Cobranças' },
    );
    const done = pull.toEnd();
    const child = pull.book.watched(done.children.eventosCartao.sheetId);
    expect(child.lastColumn()).toBe(11);
    expect(done.children.eventosCartao.columns).toBeUndefined();
    expect(child.grid[1].slice(0, 2)).toEqual([1, 100]);
  });

  it('its cells formatted by kind: ids as integers, texts as text', () => {
    const pull = watchedPull(charges(1, 2), { listing: 'cobrancas', sheetName: 'Cobranças' });
    const done = pull.toEnd();
    const child = pull.book.watched(done.children.eventosCartao.sheetId);
    const notes = child.notes[0].map((n) => String(n).split('\n')[0]);
    expect(child.formats.get(`2:${notes.indexOf('idEventoCartao') + 1}`)).toBe('0');
    expect(child.formats.get(`2:${notes.indexOf('tid') + 1}`)).toBe('@');
  });

  it('a text over the cell limit in an item is said once, though the rows are counted before they are written', () => {
    const pull = watchedPull(
      charges(1, 1, () => ({ mensagem: 'm'.repeat(60_000) })),
      { listing: 'cobrancas', sheetName: 'Cobranças' },
    );
    const done = pull.toEnd();
    expect(done.warnings.filter((w) => w.startsWith('O campo "eventosCartao"'))).toHaveLength(1);
  });

  it('laid out once, however many writes bring it rows', () => {
    const pull = watchedPull([], { listing: 'cobrancas', sheetName: 'Cobranças' });
    const writer = new Writer(pull.state, pull.deps);
    writer.write(charges(1, 2));
    writer.write(charges(3, 2));
    const child = pull.book.watched(pull.state.children.eventosCartao.sheetId);
    expect(child.styled).toEqual([11]);
    expect(child.lastRow()).toBe(5);
  });

  it('a replace run counts the rows its child sheet will hold, not those it holds now', () => {
    const book = new WatchedBook();
    const pull = watchedPull(charges(1, 30), { listing: 'cobrancas', sheetName: 'Cobranças' }, book);
    const first = pull.toEnd();
    const state = startImport({ ...first.spec, mode: 'replace' }, pull.deps);
    const child = book.watched(first.children.eventosCartao.sheetId);
    const sheet = book.watched(first.sheetId);
    for (const s of [child, sheet]) {
      s.gridCells = 0;
      s.gridColumns = 1;
    }
    book.total = CELL_LIMIT;
    const writer = new Writer(state, pull.deps);
    // 100 charges of one event each: 101 rows of 32 columns, and 101 rows of the child's 11.
    expect(() => writer.expect(100, charges(1, 3))).toThrow(over(101 * 32 + 101 * 11));
  });
});

describe('an open child sheet', () => {
  it('laid out again, still marked, when its columns grow; not when they stay', () => {
    const pull = watchedPull([], {});
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
    expect(child.header().slice(0, 3)).toEqual([`${PARTIAL_MARK}ID do cliente`, 'Numero', 'Tipo']);
    expect(pull.state.warnings).toEqual([]);
  });

  it('the cell check counts the columns found so far in the sheet that holds them', () => {
    const pull = watchedPull(phones(1, 30));
    const first = pull.step(pull.state, T0 + 1_500);
    expect(first.status).toBe('running');
    const child = pull.book.watched(first.children.telefones.sheetId);
    const sheet = pull.sheet();
    for (const s of [child, sheet]) {
      s.gridCells = 0;
      s.gridColumns = 1;
    }
    pull.book.total = CELL_LIMIT;
    const rows = child.lastRow() - 1;
    // Three new customers below the report's rows, a phone each below the child's: the child has three columns now.
    expect(() => new Writer(first, pull.deps).write(phones(100, 3))).toThrow(over((rows + 4) * 38 + (rows + 4) * 3));
  });
});
