/**
 * What the core needs from Apps Script, as small interfaces. src/gas/ implements
 * them over the real services; tests hand in the emulator's or small fakes.
 */

/** A property store (UserProperties, DocumentProperties): string values, 9 KB each. */
export interface KeyValueStore {
  get(key: string): string | null;
  set(key: string, value: string): void;
  delete(key: string): void;
  keys(): string[];
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
