/**
 * What the core needs from Apps Script, as small interfaces. src/gas/ implements
 * them over the real services; tests hand in the emulator's or small fakes.
 */

/**
 * Text by key: a user's UserProperties (9 KB a value), or the document's work
 * store, a hidden sheet (see gas/work-store.ts), which is read and written
 * only through its signatures (a `SignedStore`, seal.ts).
 */
export interface KeyValueStore {
  get(key: string): string | null;
  set(key: string, value: string): void;
  delete(key: string): void;
  keys(): string[];
  /** Every key and value in one call (getProperties, or the sheet read whole); without it a store is read key by key. */
  all?(): Record<string, string>;
  /** Several keys written in one call (setProperties); without it they are written one by one. */
  setMany?(values: Record<string, string>): void;
}

/**
 * A store read whole in one call at its first read, then served from memory;
 * writes go through at once. Only for an execution that holds the lock that
 * every other writer takes (the document's, the user's) for as long as it uses
 * the view: nobody else writes meanwhile.
 */
export function readOnce(store: KeyValueStore): KeyValueStore {
  let cache: Map<string, string> | null = null;
  const setMany = store.setMany?.bind(store);
  const load = (): Map<string, string> => {
    if (cache) return cache;
    if (store.all) return (cache = new Map(Object.entries(store.all())));
    cache = new Map();
    for (const key of store.keys()) {
      const value = store.get(key);
      if (value !== null) cache.set(key, value);
    }
    return cache;
  };
  return {
    get: (key) => load().get(key) ?? null,
    set: (key, value) => {
      store.set(key, value);
      cache?.set(key, value);
    },
    delete: (key) => {
      store.delete(key);
      cache?.delete(key);
    },
    keys: () => [...load().keys()],
    all: () => Object.fromEntries(load()),
    ...(setMany && {
      setMany: (values: Record<string, string>) => {
        setMany(values);
        for (const [key, value] of Object.entries(values)) cache?.set(key, value);
      },
    }),
  };
}

/** Values to write and keys to delete. */
export interface Writes {
  sets: Record<string, string>;
  deletes: string[];
}

/**
 * A store whose writes wait to be taken (`take`), for values written at the
 * same moment to go out in one call (`writeAll`). Its reads see them. Only under
 * the lock their changes are made under, until they are written.
 */
export function heldWrites(store: KeyValueStore): { view: KeyValueStore; take(): Writes } {
  const sets = new Map<string, string>();
  const deletes = new Set<string>();
  return {
    view: {
      get: (key) => (deletes.has(key) ? null : (sets.get(key) ?? store.get(key))),
      set(key, value) {
        deletes.delete(key);
        sets.set(key, value);
      },
      delete(key) {
        sets.delete(key);
        deletes.add(key);
      },
      keys: () => [...new Set([...store.keys(), ...sets.keys()])].filter((key) => !deletes.has(key)),
    },
    take() {
      const taken = { sets: Object.fromEntries(sets), deletes: [...deletes] };
      sets.clear();
      deletes.clear();
      return taken;
    },
  };
}

/** The values in one call where the store has one (setProperties), then the deletions. */
export function writeAll(store: KeyValueStore, ...writes: Writes[]): void {
  const values: Record<string, string> = Object.assign({}, ...writes.map((w) => w.sets));
  if (!store.setMany) for (const [key, value] of Object.entries(values)) store.set(key, value);
  else if (Object.keys(values).length > 0) store.setMany(values);
  for (const w of writes) for (const key of w.deletes) store.delete(key);
}

export function readJson<T>(store: KeyValueStore, key: string, fallback: T): T {
  return parseJson(store.get(key), fallback);
}

/** A stored text's value: `fallback` when absent, blank or broken. */
export function parseJson<T>(raw: string | null, fallback: T): T {
  // Blank or broken text does not parse either.
  if (raw === null) return fallback;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return fallback;
  }
}

export function writeJson(store: KeyValueStore, key: string, value: unknown): void {
  store.set(key, JSON.stringify(value));
}
