/**
 * A refresh of a pull whose records carry an open child list (Clientes ·
 * Telefones): the child sheet an earlier run laid out keeps its columns in
 * their order, found again from the header notes, and a column the user added
 * to the right stays theirs.
 */
import { describe, expect, it } from 'vitest';
import { type ImportDeps, type ImportState, startImport, stepImport } from '../../src/core/import-job';
import { MemoryBook, type MemorySheet } from '../bulk/memory-book';
import { customers, FakeService, zone } from './fake-service';

const T0 = Date.UTC(2026, 10, 22, 15);

function pull(book: MemoryBook, records: Array<Record<string, unknown>>): ImportState {
  const service = new FakeService({ k: records });
  let clock = T0;
  service.onTrip = () => {
    clock += 1_000;
  };
  const now = () => clock;
  const deps: ImportDeps = { client: service.client('k', now), book, zone, now };
  let state = startImport({ listing: 'clientes', filters: {}, sheetName: 'Clientes', mode: 'replace' }, deps);
  for (let i = 0; i < 20 && state.status === 'running'; i++) state = stepImport(state, deps, { deadline: clock + 600_000 });
  expect(state.status).toBe('done');
  return state;
}

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
    const first = pull(book, phones({ numero: '11', tipo: 'celular' }));
    const sheet = phoneSheet(book, first);
    const header = sheet.grid[0].slice(0, sheet.lastColumn()).map(String);
    expect(header).toHaveLength(3);

    // The second run's records bring the keys in another order: the earlier layout wins.
    const second = pull(book, reordered());
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
    const first = pull(book, phones({ numero: '11' }));
    const sheet = phoneSheet(book, first);
    const width = sheet.lastColumn();
    sheet.write(1, width + 1, [['Observação']]);
    sheet.write(2, width + 1, [['ligar de manhã']]);

    const second = pull(book, phones({ numero: '33' }));
    expect(second.children.telefones.columns?.map((c) => c.key)).toHaveLength(width);
    expect(sheet.grid[0][width]).toBe('Observação');
  });

  it('keeps a single key an earlier run wrote first, and adds a new key after it', () => {
    const book = new MemoryBook();
    const first = pull(book, phones({ numero: '11' }));
    const sheet = phoneSheet(book, first);
    const [id, numero] = sheet.grid[0].slice(0, 2).map(String);

    const second = pull(book, reordered());
    expect(second.children.telefones.columns?.map((c) => c.key)).toEqual(['idCliente', 'numero', 'tipo']);
    expect(sheet.grid[0].slice(0, 2).map(String)).toEqual([id, numero]);
  });
});
