/**
 * The job store counts bytes as Google does (UTF-8, Apps Script has no
 * TextEncoder), splits a record only past the limit and never inside a
 * character, and reads only a header it wrote itself as a split record.
 */
import { describe, expect, it } from 'vitest';
import { JobStore, MAX_VALUE_BYTES, utf8Bytes } from '../../../src/core/trust/job-store';
import { MemoryStore, trusted } from '../bulk/fixtures';

/** A store holding values up to Google's 9 KB in UTF-8 bytes. */
class ByteStore extends MemoryStore {
  override set(key: string, value: string) {
    if (Buffer.byteLength(value, 'utf8') > MAX_VALUE_BYTES) throw new Error(`Argument too large: ${key}`);
    this.map.set(key, value);
  }
}

describe('utf8Bytes', () => {
  it('counts bytes as UTF-8 does, at every width boundary and for broken surrogates', () => {
    const samples = [
      '',
      'a',
      '\x7f',
      '\x80',
      'ç',
      '\u07ff',
      '\u0800',
      '€',
      '\uffff',
      '🧾',
      'a🧾b',
      '\ud83e',
      '\ud83ea',
      '\udddd',
      'x\ud83e',
      '\ud83e\ud83e\uddfe',
      '\ud800\udc00',
      '\udbff\udfff',
      '€\udc00',
      '\udc00\udc00',
      '\uffff\udc00',
    ];
    for (const s of samples) expect(utf8Bytes(s), JSON.stringify(s)).toBe(Buffer.byteLength(s, 'utf8'));
  });
});

describe('JobStore splitting', () => {
  const PREFIX = 'faturamento.job.';

  it('keeps a record of exactly the limit (key included) whole, and splits one byte more', () => {
    const store = new ByteStore();
    const jobs = new JobStore<string>(trusted(store), PREFIX);
    const key = `${PREFIX}r`;
    // JSON of a string adds its two quotes.
    const fits = 'x'.repeat(MAX_VALUE_BYTES - key.length - 2);
    jobs.put('r', fits);
    expect(store.keys()).toEqual([key]);
    expect(jobs.get('r')).toBe(fits);
    jobs.put('r', `${fits}y`);
    expect(store.keys().length).toBeGreaterThan(2);
    expect(new JobStore<string>(trusted(store), PREFIX).get('r')).toBe(`${fits}y`);
  });

  it('fills each part to the limit, with no empty part after a full one', () => {
    const store = new ByteStore();
    const jobs = new JobStore<string>(trusted(store), PREFIX);
    const key = `${PREFIX}r`;
    const room = MAX_VALUE_BYTES - key.length - 32;
    // JSON of a string adds its two quotes: this text fills exactly two parts.
    const text = 'x'.repeat(2 * room - 2);
    jobs.put('r', text);
    expect(JSON.parse(store.get(key) ?? '')).toEqual({ $parts: 2, slot: 'a', gen: 1 });
    expect(store.keys().sort()).toEqual([key, `${key}#a0`, `${key}#a1`]);
    expect(new JobStore<string>(trusted(store), PREFIX).get('r')).toBe(text);
  });

  it('cuts parts between characters, never inside an emoji, each part within the limit', () => {
    const store = new ByteStore();
    const jobs = new JobStore<string>(trusted(store), PREFIX);
    for (const text of ['🧾'.repeat(6000), `a${'🧾'.repeat(6000)}`, `ab${'é'.repeat(9000)}`]) {
      jobs.put('r', text);
      const parts = store.keys().filter((k) => k.includes('#'));
      expect(parts.length).toBeGreaterThan(1);
      for (const k of parts) {
        const value = store.get(k) ?? '';
        expect(Buffer.byteLength(value, 'utf8')).toBeLessThanOrEqual(MAX_VALUE_BYTES - 32);
        expect(value).not.toMatch(/[\ud800-\udbff]$/);
        expect(value).not.toMatch(/^\d+:[\udc00-\udfff]/);
      }
      expect(new JobStore<string>(trusted(store), PREFIX).get('r')).toBe(text);
    }
  });

  it('tells whether a record is stored without reading its parts', () => {
    const store = new ByteStore();
    const jobs = new JobStore<string>(trusted(store), PREFIX);
    expect(jobs.has('r')).toBe(false);
    jobs.put('r', 'x'.repeat(20_000));
    expect(jobs.has('r')).toBe(true);
    jobs.delete('r');
    expect(jobs.has('r')).toBe(false);
    expect(store.keys()).toEqual([]);
  });

  it('a record that only looks like a split header is read as the record it is', () => {
    const store = new ByteStore();
    const jobs = new JobStore<unknown>(trusted(store), PREFIX);
    const lookalikes = [
      { $parts: 0, slot: 'a', gen: 1 },
      { $parts: 1.5, slot: 'a', gen: 1 },
      { $parts: 1, slot: 'c', gen: 1 },
      { $parts: 1, slot: 'b', gen: 1.5 },
      { $parts: 1, slot: 'a' },
      [1, 2],
      'texto',
      7,
    ];
    for (const value of lookalikes) {
      store.map.set(`${PREFIX}r`, JSON.stringify(value));
      expect(new JobStore<unknown>(trusted(store), PREFIX).get('r')).toEqual(value);
    }
    // A value that is not JSON reads as no record, and saving over it works.
    store.map.set(`${PREFIX}r`, '{quebrado');
    expect(jobs.get('r')).toBeNull();
    expect(jobs.list()).toEqual([]);
    new JobStore<unknown>(trusted(store), PREFIX).put('r', { ok: true });
    expect(jobs.get('r')).toEqual({ ok: true });
  });

  it('a header whose part places are not each a pair of whole numbers, one a part, is read as the record it is', () => {
    const store = new ByteStore();
    store.map.set(`${PREFIX}r#a0`, '1:{"parte":true}');
    const header = (at: unknown, parts = 1) => ({ $parts: parts, slot: 'a', gen: 1, at });
    const lookalikes = [
      header('x'),
      header([[0, 1]], 2),
      header([[0]]),
      header([[0, 1, 2]]),
      header([[0.5, 1]]),
      header([[-1, 1]]),
      header([['0', 1]]),
      header([[0, -1]]),
      header([[0, 0.5]]),
      header([5]),
      header(
        [
          [0, 1],
          [0.5, 1],
        ],
        2,
      ),
    ];
    for (const value of lookalikes) {
      store.map.set(`${PREFIX}r`, JSON.stringify(value));
      expect(new JobStore<unknown>(trusted(store), PREFIX).get('r')).toEqual(value);
    }
    store.map.set(`${PREFIX}r`, JSON.stringify(header([[0, 1]])));
    expect(new JobStore<unknown>(trusted(store), PREFIX).get('r')).toEqual({ parte: true });
  });

  it('a real split header with a part of the other slot reads as no record', () => {
    const store = new ByteStore();
    const jobs = new JobStore<string>(trusted(store), PREFIX);
    jobs.put('r', 'x'.repeat(20_000));
    const header = JSON.parse(store.get(`${PREFIX}r`) ?? '');
    expect(header).toEqual({ $parts: 3, slot: 'a', gen: 1 });
    jobs.put('r', 'y'.repeat(20_000));
    expect(JSON.parse(store.get(`${PREFIX}r`) ?? '')).toEqual({ $parts: 3, slot: 'b', gen: 2 });
    expect(store.keys().filter((k) => k.includes('#a'))).toEqual([]);
    jobs.put('r', 'z'.repeat(20_000));
    expect(JSON.parse(store.get(`${PREFIX}r`) ?? '')).toEqual({ $parts: 3, slot: 'a', gen: 3 });
    store.map.set(`${PREFIX}r`, JSON.stringify({ $parts: 3, slot: 'b', gen: 3 }));
    expect(new JobStore<string>(trusted(store), PREFIX).get('r')).toBeNull();
    // The part text itself must be whole JSON: a corrupted part reads as no record.
    store.map.set(`${PREFIX}r`, JSON.stringify({ $parts: 3, slot: 'a', gen: 3 }));
    store.map.set(`${PREFIX}r#a0`, '3:{');
    expect(new JobStore<string>(trusted(store), PREFIX).get('r')).toBeNull();
  });
});
