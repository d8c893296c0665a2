/**
 * The snapshot an import keeps, at its edges: how values are encoded (numbers
 * rounded, long texts told apart by their hash), how it is split into parts
 * (each under a cell's limit, two slots that alternate), whose pull merges and
 * whose starts over, the record bound, and forgetting a sheet's snapshot.
 */
import { describe, expect, it } from 'vitest';
import type { KeyValueStore } from '../../../src/core/ports';
import { editableFields, editableListing, encode, MAX_SNAPSHOT_RECORDS, SnapshotStore, shownPart } from '../../../src/core/bulk/snapshot';
import { type Rec, trusted } from './fixtures';

/** The document's work store is a hidden sheet: a cell holds 50,000 characters, more than a property. */
class CellStore implements KeyValueStore {
  readonly map = new Map<string, string>();
  get(key: string) {
    return this.map.get(key) ?? null;
  }
  set(key: string, value: string) {
    this.map.set(key, value);
  }
  delete(key: string) {
    this.map.delete(key);
  }
  keys() {
    return [...this.map.keys()];
  }
  /** The stored parts of a sheet's snapshot. */
  parts(sheetId: number): string[] {
    return [...this.map].filter(([k]) => k.startsWith(`faturamento.edicao.${sheetId}#`)).map(([, v]) => v);
  }
}

const owner = { id: 'u1', email: 'dona@example.com' };
const other = { id: 'u2', email: 'outra@example.com' };
const contract = (id: number, valor: number, extra: Rec = {}): Rec => ({
  idAssinaturaContrato: id,
  tipoContrato: 'PERSONALIZADO',
  valorUnitario: valor,
  quantidade: 1,
  descricaoAssinaturaContrato: `Contrato ${id}`,
  ...extra,
});
const valorOf = (store: SnapshotStore, sheetId: number, id: string) => store.get(sheetId)?.records.get(id)?.values[editableFields().indexOf('valorUnitario')];

describe('encoding a pulled value', () => {
  it('rounds numbers to six decimals, and keeps nothing of a missing or non-finite one', () => {
    expect(encode(0.1 + 0.2)).toBe('0.3');
    expect(encode(undefined)).toBe('');
    expect(encode(Number.NaN)).toBe('');
    expect(encode(Number.POSITIVE_INFINITY)).toBe('');
  });

  it('keeps a text of 60 characters whole; one more and it is its start, length and hash', () => {
    expect(encode('a'.repeat(60))).toBe('a'.repeat(60));
    expect(encode('a'.repeat(61))).toMatch(/^a{40}…\\61:[0-9a-f]{8}$/);
    expect(encode('linha 1\nlinha 2\tfim')).toMatch(/^linha 1 linha 2 fim…\\19:[0-9a-f]{8}$/);
  });

  it('tells apart long texts of the same length that differ anywhere, always with an eight-digit hash', () => {
    const base = 'Serviços contábeis de novembro, conforme contrato, parcela única de honorários';
    const variants = Array.from({ length: 64 }, (_, i) => `${base.slice(0, 70)}${String(i).padStart(2, '0')}${base.slice(72)}`);
    const encoded = variants.map(encode);
    expect(new Set(encoded).size).toBe(variants.length);
    for (const e of encoded) expect(e).toMatch(/…\\78:[0-9a-f]{8}$/);
  });

  it('hashes a long text with 32-bit FNV-1a of its UTF-16 units, so snapshots kept by earlier versions still compare', () => {
    expect(encode('a'.repeat(61))).toBe(`${'a'.repeat(40)}…\\61:6a9de350`);
    expect(encode('Serviços contábeis de novembro, conforme contrato, parcela única de honorários')).toBe(
      'Serviços contábeis de novembro, conforme…\\78:0333a3f5',
    );
  });

  it('shows a long text as its start and "…", a short one as it is', () => {
    expect(shownPart(encode('x'.repeat(100)))).toBe(`${'x'.repeat(40)}…`);
    expect(shownPart('Contrato 1')).toBe('Contrato 1');
  });
});

describe('storing the snapshot', () => {
  it('splits thousands of records into few parts, each under the 30,000 characters kept per cell, and reads every one back', () => {
    const cells = new CellStore();
    const store = new SnapshotStore(trusted(cells));
    const records = Array.from({ length: 3_000 }, (_, i) =>
      contract(10_000 + i, 100 + i, { descricaoAssinaturaContrato: `Contrato número ${i} com um texto` }),
    );
    store.pulled(7, owner, 'c1', records, 5);
    const parts = cells.parts(7);
    const chars = parts.reduce((n, p) => n + p.length, 0);
    expect(Math.max(...parts.map((p) => p.length))).toBeLessThanOrEqual(30_000);
    expect(parts.length).toBeLessThanOrEqual(Math.ceil(chars / 30_000) + 1);
    const back = store.get(7)!;
    for (const r of records)
      expect(back.records.get(String(r.idAssinaturaContrato))).toEqual({ type: 'PERSONALIZADO', values: editableFields().map((f) => encode(r[f])) });
  });

  it('an import of nothing stores only its head', () => {
    const cells = new CellStore();
    new SnapshotStore(trusted(cells)).pulled(7, owner, 'c1', [], 1);
    expect(cells.parts(7)).toEqual([]);
    expect(new SnapshotStore(trusted(cells)).get(7)?.records.size).toBe(0);
  });

  it('keeps each sheet’s snapshot apart, in two slots that alternate however many imports there are', () => {
    const cells = new CellStore();
    const store = new SnapshotStore(trusted(cells));
    for (let n = 1; n <= 5; n++) store.pulled(7, owner, 'c1', [contract(1, 100 * n)], n);
    store.pulled(8, owner, 'c1', [contract(1, 42)], 9);
    expect(cells.parts(7)).toHaveLength(2);
    expect(valorOf(store, 7, '1')).toBe('500');
    expect(valorOf(store, 8, '1')).toBe('42');
  });

  it('each save writes the slot the last one did not: #0, #1, #0…', () => {
    const cells = new CellStore();
    const store = new SnapshotStore(trusted(cells));
    const slots = [1, 2, 3].map((n) => {
      store.pulled(7, owner, 'c1', [contract(1, 100 * n)], n);
      return [...cells.map.keys()].filter((k) => k.startsWith('faturamento.edicao.7#') && cells.map.get(k)?.includes(`\t${100 * n}\t`));
    });
    expect(slots).toEqual([['faturamento.edicao.7#0.0'], ['faturamento.edicao.7#1.0'], ['faturamento.edicao.7#0.0']]);
  });

  it('a save killed before its head, after several imports, still leaves the last whole snapshot', () => {
    const cells = new CellStore();
    const store = new SnapshotStore(trusted(cells));
    store.pulled(7, owner, 'c1', [contract(1, 100)], 1);
    store.pulled(7, owner, 'c1', [contract(1, 150)], 2);
    const dying = new SnapshotStore(
      trusted({
        ...cells,
        get: (k) => cells.get(k),
        keys: () => cells.keys(),
        delete: (k) => cells.delete(k),
        set: (k, v) => {
          if (!k.includes('#')) throw new Error('killed');
          cells.set(k, v);
        },
      }),
    );
    expect(() => dying.pulled(7, owner, 'c1', [contract(1, 200)], 3)).toThrow('killed');
    expect(valorOf(store, 7, '1')).toBe('150');
  });

  it('a part gone missing is no snapshot at all, rather than part of one', () => {
    const cells = new CellStore();
    const store = new SnapshotStore(trusted(cells));
    store.pulled(7, owner, 'c1', [contract(1, 100)], 1);
    for (const k of cells.keys()) if (k.includes('#')) cells.delete(k);
    expect(store.get(7)).toBeNull();
  });

  it('forgets a sheet’s head and both slots, and nothing of another sheet', () => {
    const cells = new CellStore();
    const store = new SnapshotStore(trusted(cells));
    store.pulled(7, owner, 'c1', [contract(1, 100)], 1);
    store.pulled(7, owner, 'c1', [contract(1, 110)], 2);
    store.pulled(70, owner, 'c1', [contract(1, 120)], 3);
    cells.set('faturamento.relatorio.7', 'outro registro');
    store.forget(7);
    expect(store.get(7)).toBeNull();
    expect(cells.keys().filter((k) => k.startsWith('faturamento.edicao.7#') || k === 'faturamento.edicao.7')).toEqual([]);
    expect(valorOf(store, 70, '1')).toBe('120');
    expect(cells.get('faturamento.relatorio.7')).toBe('outro registro');
  });
});

describe('what a pull adds to the snapshot', () => {
  it('the same owner and connection add to it; another owner starts over', () => {
    const store = new SnapshotStore(trusted(new CellStore()));
    store.pulled(7, owner, 'c1', [contract(1, 100)], 1);
    store.pulled(7, owner, 'c1', [contract(2, 200)], 2);
    expect([...store.get(7)!.records.keys()]).toEqual(['1', '2']);
    expect(store.get(7)!.at).toBe(2);
    store.pulled(7, other, 'c1', [contract(3, 300)], 3);
    expect([...store.get(7)!.records.keys()]).toEqual(['3']);
    expect(store.get(7)!.owner).toEqual(other);
  });

  it('a pull saying no owner adds to an earlier one saying none', () => {
    const store = new SnapshotStore(trusted(new CellStore()));
    store.pulled(7, undefined, undefined, [contract(1, 100)], 1);
    store.pulled(7, undefined, undefined, [contract(2, 200)], 2);
    expect([...store.get(7)!.records.keys()]).toEqual(['1', '2']);
  });

  it('skips records without an id, and keeps a missing type as empty', () => {
    const store = new SnapshotStore(trusted(new CellStore()));
    store.pulled(
      7,
      owner,
      'c1',
      [contract(1, 100, { idAssinaturaContrato: null }), contract(2, 100, { idAssinaturaContrato: undefined }), contract(3, 300, { tipoContrato: undefined })],
      1,
    );
    const back = store.get(7)!;
    expect([...back.records.keys()]).toEqual(['3']);
    expect(back.records.get('3')?.type).toBe('');
  });

  it(`keeps up to ${MAX_SNAPSHOT_RECORDS} records; past that it keeps none and says it overflowed`, () => {
    const cells = new CellStore();
    const store = new SnapshotStore(trusted(cells));
    const many = (n: number) => Array.from({ length: n }, (_, i) => ({ idAssinaturaContrato: i, tipoContrato: 'PLANO' }));
    store.pulled(7, owner, 'c1', many(MAX_SNAPSHOT_RECORDS), 1);
    expect(store.get(7)).toMatchObject({ overflow: undefined });
    expect(store.get(7)?.records.size).toBe(MAX_SNAPSHOT_RECORDS);
    store.pulled(8, owner, 'c1', many(MAX_SNAPSHOT_RECORDS + 1), 1);
    expect(store.get(8)).toMatchObject({ overflow: true, records: new Map() });
    expect(cells.parts(8)).toEqual([]);
  });
});

it('only imports of subscriptions keep a snapshot', () => {
  expect(editableListing('assinaturas')).toBe(true);
  expect(editableListing('faturas')).toBe(false);
});
