/**
 * The property-store helpers: a store read once in one call for an execution
 * that holds the lock (writes still go through at once), and JSON values that
 * fall back to a default when absent, blank or broken.
 */
import { describe, expect, it } from 'vitest';
import { heldWrites, type KeyValueStore, readJson, readOnce, writeAll, writeJson } from '../../src/core/ports';

/** A property store that counts its calls; `bulk` gives it Properties.getProperties. */
function counted(initial: Record<string, string>, bulk: boolean) {
  const map = new Map(Object.entries(initial));
  const calls = { get: 0, keys: 0, all: 0, set: 0, delete: 0 };
  const store: KeyValueStore = {
    get: (key) => {
      calls.get++;
      return map.get(key) ?? null;
    },
    set: (key, value) => {
      calls.set++;
      map.set(key, value);
    },
    delete: (key) => {
      calls.delete++;
      map.delete(key);
    },
    keys: () => {
      calls.keys++;
      return [...map.keys()];
    },
  };
  if (bulk)
    store.all = () => {
      calls.all++;
      return Object.fromEntries(map);
    };
  return { map, calls, store };
}

describe('readOnce', () => {
  it('writes several keys in one call when the store can, and serves them from memory after', () => {
    const { calls, store, map } = counted({ a: '1' }, true);
    const many: Array<Record<string, string>> = [];
    store.setMany = (values) => {
      many.push(values);
      for (const [k, v] of Object.entries(values)) map.set(k, v);
    };
    const view = readOnce(store);
    expect(view.get('a')).toBe('1');
    view.setMany?.({ a: '10', b: '2' });
    expect(many).toEqual([{ a: '10', b: '2' }]);
    expect([view.get('a'), view.get('b')]).toEqual(['10', '2']);
    expect(calls).toMatchObject({ all: 1, get: 0, set: 0 });
    // A store without the call gives none.
    expect(readOnce(counted({}, true).store).setMany).toBeUndefined();
  });

  it('keeps what it wrote in one call before its first read, which then reads the store', () => {
    const { calls, store, map } = counted({ a: '1' }, true);
    store.setMany = (values) => {
      for (const [k, v] of Object.entries(values)) map.set(k, v);
    };
    const view = readOnce(store);
    view.setMany?.({ b: '2' });
    expect(view.all?.()).toEqual({ a: '1', b: '2' });
    expect(calls.all).toBe(1);
  });

  it('reads a store that can give everything in one call once, and serves the rest from memory', () => {
    const { calls, store } = counted({ a: '1', b: '2' }, true);
    const view = readOnce(store);
    expect(view.get('a')).toBe('1');
    expect(view.get('b')).toBe('2');
    expect(view.get('c')).toBeNull();
    expect(view.keys()).toEqual(['a', 'b']);
    expect(view.all?.()).toEqual({ a: '1', b: '2' });
    expect(calls).toMatchObject({ all: 1, get: 0, keys: 0 });
  });

  it('reads a store without a bulk read key by key, once', () => {
    const { calls, store, map } = counted({ a: '1', b: '2' }, false);
    const original = store.get;
    // A key listed but gone by the time it is read is left out.
    store.get = (key) => (key === 'b' ? null : original(key));
    const view = readOnce(store);
    expect(view.all?.()).toEqual({ a: '1' });
    expect(view.get('b')).toBeNull();
    expect(view.keys()).toEqual(['a']);
    expect(calls.keys).toBe(1);
    expect(map.size).toBe(2);
  });

  it('writes and deletes go through at once and are seen by later reads', () => {
    const { calls, store, map } = counted({ a: '1', b: '2' }, true);
    const view = readOnce(store);
    // Before the first read: straight to the store, which the first read then sees.
    view.set('c', '3');
    view.delete('a');
    expect(map.get('c')).toBe('3');
    expect(view.keys()).toEqual(['b', 'c']);
    view.set('b', '20');
    view.delete('c');
    expect(map.get('b')).toBe('20');
    expect(map.has('c')).toBe(false);
    expect(view.get('b')).toBe('20');
    expect(view.get('c')).toBeNull();
    expect(view.all?.()).toEqual({ b: '20' });
    expect(calls).toMatchObject({ all: 1, set: 2, delete: 2 });
  });
});

describe('readJson and writeJson', () => {
  it('round-trips a value and falls back when the key is absent, blank or not JSON', () => {
    const { store } = counted({ blank: '', broken: '{"a":', nulo: 'null' }, false);
    writeJson(store, 'k', { a: [1, 'x'] });
    expect(store.get('k')).toBe('{"a":[1,"x"]}');
    expect(readJson(store, 'k', null)).toEqual({ a: [1, 'x'] });
    expect(readJson(store, 'ausente', 'padrão')).toBe('padrão');
    expect(readJson(store, 'blank', 'padrão')).toBe('padrão');
    expect(readJson(store, 'broken', 'padrão')).toBe('padrão');
    expect(readJson(store, 'nulo', 'padrão')).toBeNull();
  });
});

describe('heldWrites', () => {
  it('keeps writes back, seen by its reads, until they are taken and written together in one call, deletions after', () => {
    const { calls, store, map } = counted({ a: '1', b: '2', c: '3' }, true);
    const many: Array<Record<string, string>> = [];
    store.setMany = (values) => {
      many.push(values);
      for (const [k, v] of Object.entries(values)) map.set(k, v);
    };
    const first = heldWrites(store);
    const second = heldWrites(store);
    first.view.set('a', '10');
    first.view.delete('b');
    second.view.set('d', '4');
    second.view.delete('c');
    expect([first.view.get('a'), first.view.get('b'), first.view.get('c')]).toEqual(['10', null, '3']);
    expect(second.view.keys().sort()).toEqual(['a', 'b', 'd']);
    expect(calls).toMatchObject({ set: 0, delete: 0 });
    expect(Object.fromEntries(map)).toEqual({ a: '1', b: '2', c: '3' });
    writeAll(store, first.take(), second.take());
    expect(many).toEqual([{ a: '10', d: '4' }]);
    expect(Object.fromEntries(map)).toEqual({ a: '10', d: '4' });
    // Taken once: nothing is written twice.
    writeAll(store, first.take(), second.take());
    expect(many).toHaveLength(1);
    expect(calls).toMatchObject({ set: 0, delete: 2 });
  });

  it('writes every value of a store without the call key by key, and nothing at all when nothing was held', () => {
    const { calls, store, map } = counted({}, true);
    const held = heldWrites(store);
    held.view.set('a', '1');
    held.view.set('b', '2');
    writeAll(store, held.take());
    expect(Object.fromEntries(map)).toEqual({ a: '1', b: '2' });
    expect(calls.set).toBe(2);
    let many = 0;
    store.setMany = () => {
      many++;
    };
    writeAll(store, held.take(), heldWrites(store).take());
    expect(many).toBe(0);
    held.view.set('c', '3');
    writeAll(store, held.take());
    expect([many, calls.set]).toEqual([1, 2]);
  });
});
