/**
 * A refresh of a pull whose records carry an open child list (Clientes ·
 * Telefones): the child sheet an earlier run laid out keeps its columns in
 * their order, found again from the header notes, and a column the user added
 * to the right stays theirs.
 */
import { describe, expect, it } from 'vitest';
import type { ImportState } from '../../src/core/import-job';
import { MemoryBook, type MemorySheet } from '../bulk/memory-book';
import { customers } from './fake-service';
import { pullToEnd, T0 } from './pull';

const phones = (...numbers: Array<Record<string, unknown>>) =>
  customers(1, 2).map((c, i) => ({ ...c, telefones: numbers.map((n) => ({ ...n, numero: `${n.numero}${i}` })) }));

/** The same customers with their phones' keys in another order than `phones` gives them. */
const reordered = () => customers(1, 2).map((c, i) => ({ ...c, telefones: [{ tipo: 'fixo', numero: `22${i}` }] }));

function phoneSheet(book: MemoryBook, state: ImportState): MemorySheet {
  return book.byId(state.children.telefones.sheetId) as MemorySheet;
}

describe('a refresh of a pull with an open child list', () => {
  it('keeps the child columns an earlier run laid out, in their order, with their labels', () => {
    const book = new MemoryBook();
    const first = pullToEnd(book, phones({ numero: '11', tipo: 'celular' }));
    const sheet = phoneSheet(book, first);
    const header = sheet.grid[0].slice(0, sheet.lastColumn()).map(String);
    expect(header).toHaveLength(3);

    // The second run's records bring the keys in another order: the earlier layout wins.
    const second = pullToEnd(book, reordered());
    expect(phoneSheet(book, second)).toBe(sheet);
    expect(sheet.grid[0].slice(0, 3).map(String)).toEqual(header);
    expect(second.children.telefones.columns?.map((c) => c.label)).toEqual(header);
    expect(sheet.records().map((r) => [r[header[1]], r[header[2]]])).toEqual([
      ['220', 'fixo'],
      ['221', 'fixo'],
    ]);
  });

  it('leaves a column the user added to the right of the child sheet out of the columns it writes', () => {
    const book = new MemoryBook();
    const first = pullToEnd(book, phones({ numero: '11' }));
    const sheet = phoneSheet(book, first);
    const width = sheet.lastColumn();
    sheet.write(1, width + 1, [['Observação']]);
    sheet.write(2, width + 1, [['ligar de manhã']]);

    const second = pullToEnd(book, phones({ numero: '33' }));
    expect(second.children.telefones.columns?.map((c) => c.key)).toHaveLength(width);
    expect(sheet.grid[0][width]).toBe('Observação');
  });

  it('keeps a single key an earlier run wrote first, and adds a new key after it', () => {
    const book = new MemoryBook();
    const first = pullToEnd(book, phones({ numero: '11' }));
    const sheet = phoneSheet(book, first);
    const [id, numero] = sheet.grid[0].slice(0, 2).map(String);

    const second = pullToEnd(book, reordered());
    expect(second.children.telefones.columns?.map((c) => c.key)).toEqual(['idCliente', 'numero', 'tipo']);
    expect(sheet.grid[0].slice(0, 2).map(String)).toEqual([id, numero]);
  });
});

describe('the kinds of an open child refreshed', () => {
  it('come back from the values of the new run, not as text', () => {
    const book = new MemoryBook();
    pullToEnd(book, phones({ numero: '11', ramal: 12 }));
    const second = pullToEnd(book, phones({ numero: '22', ramal: 34 }), 'replace', T0 + 3_600_000);
    expect(second.children.telefones.columns?.map((c) => [c.key, c.cell])).toEqual([
      ['idCliente', 'integer'],
      ['numero', 'text'],
      ['ramal', 'number'],
    ]);
  });
});

describe('a full refresh after records left the service', () => {
  it("deletes the rows of records that did not come, keeps one with the user's cells with a note saying why, and says so", () => {
    const book = new MemoryBook();
    const first = pullToEnd(book, customers(1, 5));
    const sheet = book.byId(first.sheetId) as MemorySheet;
    const idAt = sheet.grid[0].findIndex((h) => String(h).endsWith('ID do cliente'));
    const width = sheet.lastColumn();
    sheet.write(1, width + 1, [['Observação']]);
    // Customer 4's row (row 5): below a row that goes, so it moves up one.
    sheet.write(5, width + 1, [['cobrar em dezembro']]);

    const second = pullToEnd(
      book,
      customers(1, 5).filter((c) => c.idCliente === 1 || c.idCliente === 3),
      'replace',
      T0 + 3_600_000,
    );
    const ids = sheet.grid.slice(1, sheet.lastRow()).map((r) => r[idAt]);
    expect(ids).toEqual([1, 3, 4]);
    expect(sheet.grid[3][width]).toBe('cobrar em dezembro');
    expect(sheet.notes[3]?.[idAt]).toMatch(/^Este registro não veio na atualização completa de .*apague-a quando não precisar mais\.$/);
    expect(
      sheet.notes
        .slice(1)
        .map((row) => row?.[idAt] ?? '')
        .filter(Boolean),
    ).toHaveLength(1);
    expect(second.warnings).toContain(
      `1 linha(s) de registros que não vieram nesta atualização ficaram na aba porque têm anotações suas (veja a nota na coluna ${sheet.grid[0][idAt]}).`,
    );
  });
});
