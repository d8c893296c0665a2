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

  describe('confirmations', () => {
    const key = (i: number) => `lote-6f1c2a9e-3b7d-4c55-9a0e-2d8f61b4c7aa-${i + 1}`;
    const digestOf = (i: number) => (0x1000000000000000n + BigInt(i) * 7919n).toString(16);
    const confirmedJob = (id: string, n: number) =>
      ({
        id,
        keys: Array.from({ length: n }, (_, i) => key(i)),
        ranges: [[2, n + 1]],
        counts: {},
        confirmed: Object.fromEntries(Array.from({ length: n }, (_, i) => [key(i), digestOf(i)])),
      }) as unknown as BulkJob;

    it("are stored each as its digest and front-coded key, a third of the map's size, and read back as they were", () => {
      const job = confirmedJob('12', 1_000);
      const plain = JSON.stringify(job).length;
      const store = memory();
      new BulkJobStore(trusted(store)).put('12', job);
      const stored = [...store.data.values()].join('');
      expect(stored.length).toBeLessThan(plain / 2);
      expect(stored).toContain(`"${digestOf(999)}0:${key(999)}","${digestOf(998)}42:999"`);
      const read = new BulkJobStore(trusted(store)).get('12');
      expect(read).toEqual(job);
      expect(Object.keys(read?.confirmed ?? {})).toEqual(Object.keys(job.confirmed ?? {}));
      expect(new BulkJobStore(trusted(store)).list()).toEqual([job]);
    });

    it('saved after a batch settled its rows, rewrite only the end of the job: one or two parts and the header', () => {
      const job = { ...confirmedJob('17', 4_000), cursor: 0, counts: { ok: 0 } } as BulkJob;
      const store = memory();
      let sets = 0;
      const counting = {
        ...store,
        set: (k: string, v: string) => {
          sets++;
          store.set(k, v);
        },
      };
      const jobs = new BulkJobStore(trusted(counting));
      jobs.put('17', job);
      const parts = store.data.size - 1;
      expect(parts).toBeGreaterThan(5);
      for (let batch = 0; batch < 20; batch++) {
        for (let i = batch * 10; i < batch * 10 + 10; i++) delete job.confirmed?.[key(i)];
        job.cursor = batch * 10 + 10;
        job.counts.ok += 10;
        sets = 0;
        jobs.put('17', job);
        expect(sets).toBeLessThanOrEqual(3);
        expect(new BulkJobStore(trusted(store)).get('17')).toEqual(job);
      }
      expect(store.data.size - 1).toBeLessThanOrEqual(parts);
    });

    it('leave the plain map empty, so a version that cannot read them confirms no row', () => {
      const store = memory();
      new BulkJobStore(trusted(store)).put('13', confirmedJob('13', 3));
      const raw = JSON.parse(store.data.get('faturamento.lote.13') ?? 'null');
      expect(raw.confirmed).toEqual({});
      expect(raw.confirmedCoded).toHaveLength(3);
    });

    it('of a job stored before they were coded read as they were', () => {
      const store = memory();
      const job = { id: '14', keys: ['A-1'], counts: {}, confirmed: { 'A-1': 'aaaabbbbccccdddd', 'B:2': '0123456789abcdef' } };
      store.set('faturamento.lote.14', JSON.stringify(job));
      expect(new BulkJobStore(trusted(store)).get('14')).toEqual(job);
    });

    it('with a value not a digest, or none at all, are stored as a plain map', () => {
      for (const confirmed of [{ 'A-1': 'not a digest' }, { 'A-1': '0123456789ABCDEF' }, {}]) {
        const store = memory();
        const job = { id: '15', counts: {}, confirmed } as unknown as BulkJob;
        new BulkJobStore(trusted(store)).put('15', job);
        expect(JSON.parse(store.data.get('faturamento.lote.15') ?? 'null')).toEqual(job);
        expect(new BulkJobStore(trusted(store)).get('15')).toEqual(job);
      }
    });

    it('read back exactly, whatever the keys', () => {
      fc.assert(
        fc.property(fc.dictionary(fc.string(), fc.stringMatching(/^[0-9a-f]{16}$/)), (confirmed) => {
          const store = memory();
          new BulkJobStore(trusted(store)).put('16', { id: '16', counts: {}, confirmed } as unknown as BulkJob);
          expect(new BulkJobStore(trusted(store)).get('16')?.confirmed).toEqual(confirmed);
        }),
      );
    });
  });
});
