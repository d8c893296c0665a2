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
    ...(store.setMany && {
      setMany: (values: Record<string, string>) => {
        store.setMany?.(values);
        for (const [key, value] of Object.entries(values)) cache?.set(key, value);
      },
    }),
  };
}

export function readJson<T>(store: KeyValueStore, key: string, fallback: T): T {
  const raw = store.get(key);
  if (raw === null || raw === '') return fallback;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return fallback;
  }
}

export function writeJson(store: KeyValueStore, key: string, value: unknown): void {
  store.set(key, JSON.stringify(value));
}
