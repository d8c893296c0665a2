/** Bulk jobs keep each row's key; stored front-coded, they read back exactly as saved. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BulkJob } from '../../../src/core/bulk/state';
import { BulkJobStore, frontCode, frontDecode } from '../../../src/core/bulk/stored-job';
import type { KeyValueStore } from '../../../src/core/ports';
import { trusted } from './fixtures';

function memory(): KeyValueStore & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    get: (k) => data.get(k) ?? null,
    set: (k, v) => void data.set(k, v),
    delete: (k) => void data.delete(k),
    keys: () => [...data.keys()],
    all: () => Object.fromEntries(data),
  };
}

describe('front coding of row keys', () => {
  it('decodes to exactly what was coded, whatever the keys (colons, empty, repeated)', () => {
    fc.assert(
      fc.property(fc.array(fc.string()), (keys) => {
        expect(frontDecode(frontCode(keys))).toEqual(keys);
      }),
    );
  });

  it("a bulk run's 1,000 generated keys fit one property value", () => {
    const keys = Array.from({ length: 1_000 }, (_, i) => `lote-6f1c2a9e-3b7d-4c55-9a0e-2d8f61b4c7aa-${i + 1}`);
    const job = { id: '7', keys, retryKeys: [], ranges: [[3, 1002]], counts: {} } as unknown as BulkJob;
    const store = memory();
    new BulkJobStore(trusted(store)).put('7', job);
    expect(store.data.size).toBe(1);
    expect(JSON.stringify([...store.data.values()]).length).toBeLessThan(9_000);
    expect(new BulkJobStore(trusted(store)).get('7')).toEqual(job);
    expect(new BulkJobStore(trusted(store)).list()).toEqual([job]);
  });

  it('a job stored before front coding reads as it was', () => {
    const store = memory();
    const job = { id: '8', keys: ['A-1', 'A-2'], retryKeys: ['B'], counts: {} };
    store.set('faturamento.lote.8', JSON.stringify(job));
    expect(new BulkJobStore(trusted(store)).get('8')).toEqual(job);
  });

  it('stores keys front-coded: the length shared with the key before, left out when unchanged', () => {
    expect(frontCode(['lote-a-1', 'lote-a-2', 'lote-a-3', 'x', 'x', 'xy', ''])).toEqual(['0:lote-a-1', '7:2', ':3', '0:x', '1:', ':y', '0:']);
    expect(frontDecode(['0:lote-a-1', '7:2', ':3', '0:x', '1:', ':y', '0:'])).toEqual(['lote-a-1', 'lote-a-2', 'lote-a-3', 'x', 'x', 'xy', '']);
  });

  it('a job with keys but no retry keys is stored front-coded and reads back as it was', () => {
    const keys = Array.from({ length: 1_000 }, (_, i) => `lote-6f1c2a9e-3b7d-4c55-9a0e-2d8f61b4c7aa-${i + 1}`);
    const job = { id: '9', keys, ranges: [[2, 1001]], counts: {} } as unknown as BulkJob;
    const store = memory();
    new BulkJobStore(trusted(store)).put('9', job);
    expect(store.data.size).toBe(1);
    expect(new BulkJobStore(trusted(store)).get('9')).toEqual(job);
  });

  it('a job too large to keep its keys is stored as older versions stored it', () => {
    const job = { id: '10', ranges: [[2, 90_000]], counts: {} } as unknown as BulkJob;
    const store = memory();
    new BulkJobStore(trusted(store)).put('10', job);
    expect(JSON.parse([...store.data.values()][0])).toEqual(job);
    expect(new BulkJobStore(trusted(store)).get('10')).toEqual(job);
  });

  it('keys with colons of a job stored before front coding are not taken for coded ones', () => {
    const store = memory();
    const job = { id: '11', keys: ['NF:2026:1', 'NF:2026:2'], retryKeys: ['12:x'], counts: {} };
    store.set('faturamento.lote.11', JSON.stringify(job));
    expect(new BulkJobStore(trusted(store)).get('11')).toEqual(job);
  });
});
