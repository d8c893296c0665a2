/**
 * The resumable-job store: records over Apps Script's 9 KB per value are split
 * and read back whole, shrinking leaves no parts behind, a save cut short by a
 * kill leaves the previous record, a missing part reads as no record, and a
 * kind's jobs are listed from one listing of the keys.
 */
import { describe, expect, it } from 'vitest';
import { GasEmulator } from '../../../dev/gas/runner';
import { JobStore, MAX_VALUE_BYTES } from '../../../src/core/trust/job-store';
import { type KeyValueStore, readOnce } from '../../../src/core/ports';
import { propertyStore } from '../../../src/gas/services';
import { altered, trusted } from '../bulk/fixtures';

/** DocumentProperties in memory, with the 9 KB limit counted in UTF-8 bytes as Google counts it. */
class LimitedStore implements KeyValueStore {
  readonly map = new Map<string, string>();
  listings = 0;
  reads = 0;
  /** Sets left before a simulated kill; undefined for no kill. */
  setsUntilKill: number | undefined;
  get(key: string) {
    this.reads++;
    return this.map.get(key) ?? null;
  }
  set(key: string, value: string) {
    if (this.setsUntilKill !== undefined && this.setsUntilKill-- <= 0) throw new Error('Exceeded maximum execution time');
    if (Buffer.byteLength(value, 'utf8') > MAX_VALUE_BYTES) throw new Error('Argument too large: value');
    this.map.set(key, value);
  }
  delete(key: string) {
    this.map.delete(key);
  }
  keys() {
    this.listings++;
    return [...this.map.keys()];
  }
}

interface Job {
  id: string;
  warnings: string[];
}

/** About `kb` KB of JSON, with accents and an emoji so bytes and characters differ. */
const job = (id: string, kb: number): Job => ({
  id,
  warnings: Array.from({ length: Math.ceil(kb * 10) }, (_, i) => `Aviso nº ${i}: cobrança não encontrada 🧾 ${'x'.repeat(70)}`),
});

const PREFIX = 'faturamento.job.';

/** The same record with every warning changed. */
const changed = (j: Job): Job => ({ ...j, warnings: j.warnings.map((w) => `${w}!`) });

describe('JobStore', () => {
  it('keeps a record that fits as plain JSON under its key, as jobs stored before splitting existed', () => {
    const store = new LimitedStore();
    // Written the old way, one JSON value per key.
    store.map.set(`${PREFIX}antigo`, JSON.stringify({ id: 'antigo', warnings: [] }));
    const jobs = new JobStore<Job>(trusted(store), PREFIX);
    expect(jobs.get('antigo')).toEqual({ id: 'antigo', warnings: [] });
    jobs.put('r1', job('r1', 1));
    expect(JSON.parse(store.map.get(`${PREFIX}r1`)!)).toEqual(job('r1', 1));
    expect([...store.map.keys()].sort()).toEqual([`${PREFIX}antigo`, `${PREFIX}r1`]);
  });

  it('splits a record over 9 KB into parts under the limit and reads it back whole', () => {
    const store = new LimitedStore();
    const jobs = new JobStore<Job>(trusted(store), PREFIX);
    const big = job('r1', 40);
    jobs.put('r1', big);
    const parts = [...store.map.keys()].filter((k) => k.startsWith(`${PREFIX}r1#`));
    expect(parts.length).toBeGreaterThanOrEqual(5);
    for (const k of parts) expect(Buffer.byteLength(store.map.get(k)!, 'utf8')).toBeLessThanOrEqual(MAX_VALUE_BYTES);
    expect(new JobStore<Job>(trusted(store), PREFIX).get('r1')).toEqual(big);
  });

  it('shrinking deletes the parts; growing again leaves only the new parts', () => {
    const store = new LimitedStore();
    const jobs = new JobStore<Job>(trusted(store), PREFIX);
    jobs.put('r1', job('r1', 30));
    jobs.put('r1', job('r1', 20));
    const afterSecond = [...store.map.keys()].filter((k) => k.includes('#'));
    // The second save went to the other slot, and the first slot's parts are gone.
    expect(new Set(afterSecond.map((k) => k.split('#')[1][0])).size).toBe(1);
    expect(new JobStore<Job>(trusted(store), PREFIX).get('r1')).toEqual(job('r1', 20));
    // A store that has not read the record yet still finds and deletes the old parts.
    new JobStore<Job>(trusted(store), PREFIX).put('r1', job('r1', 1));
    expect([...store.map.keys()]).toEqual([`${PREFIX}r1`]);
    expect(jobs.get('r1')).toEqual(job('r1', 1));
    jobs.put('r1', job('r1', 25));
    jobs.delete('r1');
    expect([...store.map.keys()]).toEqual([]);
    expect(jobs.get('r1')).toBeNull();
  });

  it('a save killed half-way leaves the previous record readable', () => {
    const store = new LimitedStore();
    new JobStore<Job>(trusted(store), PREFIX).put('r1', job('r1', 20));
    for (const kill of [0, 1, 2, 4]) {
      const jobs = new JobStore<Job>(trusted(store), PREFIX);
      const before = jobs.get('r1');
      store.setsUntilKill = kill;
      // Every warning changed: no part of the record before is kept, every part is written.
      expect(() => jobs.put('r1', changed(job('r1', 30 + kill)))).toThrow(/maximum execution time/);
      store.setsUntilKill = undefined;
      expect(new JobStore<Job>(trusted(store), PREFIX).get('r1')).toEqual(before);
    }
  });

  it('a save rewrites only the parts that changed, and killed at any of its writes leaves the previous record readable', () => {
    const store = new LimitedStore();
    const first = job('r1', 40);
    new JobStore<Job>(trusted(store), PREFIX).put('r1', first);
    const partsBefore = new Map([...store.map].filter(([k]) => k.includes('#')));
    // The last warnings changed: the parts before them are the same text.
    const next = { ...first, warnings: [...first.warnings.slice(0, -3), 'Aviso novo'] };
    for (let kill = 0; ; kill++) {
      const jobs = new JobStore<Job>(trusted(store), PREFIX);
      expect(jobs.get('r1')).toEqual(first);
      store.setsUntilKill = kill;
      let killed = false;
      try {
        jobs.put('r1', next);
      } catch {
        killed = true;
      }
      store.setsUntilKill = undefined;
      if (!killed) {
        // One part and the header written: the parts that did not change stay as they were.
        expect(kill).toBe(2);
        break;
      }
      expect(new JobStore<Job>(trusted(store), PREFIX).get('r1')).toEqual(first);
    }
    expect(new JobStore<Job>(trusted(store), PREFIX).get('r1')).toEqual(next);
    const partsAfter = [...store.map].filter(([k]) => k.includes('#'));
    expect(partsAfter).toHaveLength(partsBefore.size);
    expect(partsAfter.filter(([k, v]) => partsBefore.get(k) === v)).toHaveLength(partsBefore.size - 1);
    // Saved again by a store that read it, the record keeps its parts and reads back whole after every save.
    const jobs = new JobStore<Job>(trusted(store), PREFIX);
    for (const n of [5, 6, 120, 7]) {
      const saved = { ...first, warnings: [...first.warnings.slice(0, -n), `Aviso ${n}`] };
      jobs.put('r1', saved);
      expect(new JobStore<Job>(trusted(store), PREFIX).get('r1')).toEqual(saved);
    }
    expect([...store.map.keys()].filter((k) => k.includes('#')).length).toBeLessThanOrEqual(partsBefore.size);
  });

  it('a store that has not read the record as saved, or read it altered, keeps no part of it', () => {
    const store = new LimitedStore();
    const first = job('r1', 30);
    new JobStore<Job>(trusted(store), PREFIX).put('r1', first);
    const next = { ...first, warnings: [...first.warnings.slice(0, -1), 'Aviso novo'] };
    new JobStore<Job>(trusted(store), PREFIX).put('r1', next);
    // Written whole to the other letter.
    expect(new Set([...store.map.keys()].filter((k) => k.includes('#')).map((k) => k.split('#')[1][0]))).toEqual(new Set(['b']));
    const header = JSON.parse(store.map.get(`${PREFIX}r1`)!);
    expect(header.at).toBeUndefined();
    expect(new JobStore<Job>(trusted(store), PREFIX).get('r1')).toEqual(next);
    // Read, but not as the running user saved it: written whole to the other letter again.
    const unsealed = new JobStore<Job>(altered(store), PREFIX);
    expect(unsealed.get('r1')).toEqual(next);
    const last = { ...next, warnings: [...next.warnings.slice(0, -1), 'Aviso último'] };
    unsealed.put('r1', last);
    expect(new Set([...store.map.keys()].filter((k) => k.includes('#')).map((k) => k.split('#')[1][0]))).toEqual(new Set(['a']));
    expect(JSON.parse(store.map.get(`${PREFIX}r1`)!).at).toBeUndefined();
    expect(new JobStore<Job>(trusted(store), PREFIX).get('r1')).toEqual(last);
  });

  it('a save refused half-way (the 500 KB store is full) leaves the previous record and none of the new parts', () => {
    const store = new LimitedStore();
    new JobStore<Job>(trusted(store), PREFIX).put('r1', job('r1', 20));
    const keysBefore = [...store.map.keys()].sort();
    const jobs = new JobStore<Job>(trusted(store), PREFIX);
    const before = jobs.get('r1');
    store.setsUntilKill = 2;
    expect(() => jobs.put('r1', job('r1', 40))).toThrow();
    store.setsUntilKill = undefined;
    expect([...store.map.keys()].sort()).toEqual(keysBefore);
    expect(new JobStore<Job>(trusted(store), PREFIX).get('r1')).toEqual(before);
  });

  it('a missing or foreign part reads as no record, never as a glued one', () => {
    const store = new LimitedStore();
    const jobs = new JobStore<Job>(trusted(store), PREFIX);
    jobs.put('r1', job('r1', 20));
    jobs.put('r2', job('r2', 20));
    const part = [...store.map.keys()].find((k) => k.startsWith(`${PREFIX}r1#`) && k.endsWith('1'))!;
    const saved = store.map.get(part)!;
    store.map.delete(part);
    expect(new JobStore<Job>(trusted(store), PREFIX).get('r1')).toBeNull();
    // A part of the same name from another save (another generation) is refused too.
    store.map.set(part, `999:${saved.slice(saved.indexOf(':') + 1)}`);
    expect(new JobStore<Job>(trusted(store), PREFIX).get('r1')).toBeNull();
    expect(new JobStore<Job>(trusted(store), PREFIX).list().map((j) => j.id)).toEqual(['r2']);
    // Saving over a torn record replaces it cleanly.
    jobs.put('r1', job('r1', 2));
    expect(jobs.get('r1')).toEqual(job('r1', 2));
    expect([...store.map.keys()].filter((k) => k.startsWith(`${PREFIX}r1#`))).toEqual([]);
  });

  it('lists every job of its kind from one listing of the keys, split or not, and nothing of another kind', () => {
    const store = new LimitedStore();
    const pulls = new JobStore<Job>(trusted(store), PREFIX);
    const bulk = new JobStore<Job>(trusted(store), 'faturamento.lote.');
    pulls.put('a', job('a', 1));
    pulls.put('b', job('b', 25));
    bulk.put('7', job('7', 12));
    store.map.set('faturamento.relatorio.x', '{}');
    store.listings = 0;
    const listed = new JobStore<Job>(trusted(store), PREFIX).list();
    expect(store.listings).toBe(1);
    expect(listed.map((j) => j.id).sort()).toEqual(['a', 'b']);
    expect(listed.find((j) => j.id === 'b')).toEqual(job('b', 25));
    expect(bulk.list()).toEqual([job('7', 12)]);
  });

  it('through readOnce, everything is read in one go and writes still reach the store', () => {
    const store = new LimitedStore();
    new JobStore<Job>(trusted(store), PREFIX).put('a', job('a', 20));
    new JobStore<Job>(trusted(store), PREFIX).put('b', job('b', 1));
    store.listings = 0;
    store.reads = 0;
    const stored = store.map.size;
    const view = readOnce(store);
    const jobs = new JobStore<Job>(trusted(view), PREFIX);
    expect(jobs.list()).toHaveLength(2);
    jobs.put('b', job('b', 15));
    jobs.delete('a');
    expect(jobs.list().map((j) => j.id)).toEqual(['b']);
    // This fake has no all(): one listing, then each value once (Apps Script's getProperties is one call).
    expect(store.listings).toBe(1);
    expect(store.reads).toBe(stored);
    expect(new JobStore<Job>(trusted(store), PREFIX).get('b')).toEqual(job('b', 15));
    expect([...store.map.keys()].filter((k) => k.startsWith(`${PREFIX}a`))).toEqual([]);
  });

  it('holds up against the emulator’s DocumentProperties and their 9 KB and 500 KB limits', () => {
    const emu = new GasEmulator({ code: '', countRealTime: false });
    emu.withServices((s) => {
      const doc = propertyStore(s.PropertiesService.getDocumentProperties());
      const jobs = new JobStore<Job>(trusted(doc), PREFIX);
      // Each save of 60 KB leaves only its own parts: 20 saves would pass 500 KB otherwise.
      for (let i = 0; i < 20; i++) jobs.put('r1', job('r1', 60 + (i % 2)));
      expect(new JobStore<Job>(trusted(doc), PREFIX).get('r1')).toEqual(job('r1', 61));
      jobs.put('r1', job('r1', 1));
      expect(doc.keys()).toEqual([`${PREFIX}r1`]);
      const listed = new JobStore<Job>(trusted(readOnce(doc)), PREFIX).list();
      expect(listed).toEqual([job('r1', 1)]);
    });
  });
});
