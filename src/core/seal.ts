/**
 * Stored work signed whole. The document's work store is a sheet every editor
 * can unhide and edit, so every value an execution saves there is signed with
 * the running user's secret (see owners.ts) as it is written, whatever kind of
 * item it belongs to: the store signs, not the code that saves, so no item and
 * no field can be left out. The signature covers the key and the value's whole
 * text, and only the latest one is kept in the user's own properties: an older
 * value of the same item put back by hand fails as surely as an edited one.
 * Sheets keeps an execution's writes until a flush while a signature lands at
 * once, so until the flush the value being replaced stays valid beside the new
 * one: an execution killed in between leaves its item as it was, not altered.
 *
 * Reading does not trust: each item read is checked against the running
 * user's signatures and, when it matches, remembered as sealed (the object
 * itself, not its id, so a copy changed after the read is not), as is an
 * item this execution has just saved. Whatever decides what is sent, where,
 * or with whose key asks `isSealed` first.
 */
import type { KeyValueStore } from './ports';

/** The running user's signatures of what they saved in one document. */
export interface Seal {
  /** Signs `value` as what the user saves under `key`; the function returned puts the signature back as it was. */
  sign(key: string, value: string): () => void;
  /** The user no longer keeps anything under `key`. */
  forget(key: string): void;
  /** Whether `value` is exactly what the running user last saved under `key`, or the value it replaces while that save may not have landed. */
  verify(key: string, value: string): boolean;
  /** What was signed has reached the document (a flush): the values it replaced are no longer accepted. */
  commit(): void;
}

/** A store whose every write is signed by `seal`, and whose values can be checked against it. */
export function sealedStore(inner: KeyValueStore, seal: Seal): KeyValueStore {
  return {
    get: (key) => inner.get(key),
    set(key, value) {
      // Signed first: a value in the sheet is never newer than its signature. A refused write leaves both as they were.
      const undo = seal.sign(key, value);
      try {
        inner.set(key, value);
      } catch (err) {
        undo();
        throw err;
      }
    },
    delete(key) {
      inner.delete(key);
      seal.forget(key);
    },
    keys: () => inner.keys(),
    ...(inner.all ? { all: () => (inner.all as () => Record<string, string>)() } : {}),
    verify: (key, value) => seal.verify(key, value),
  };
}

/** A seal made at its first use: reading the running user's identity and signatures costs nothing to an execution that never signs or checks. */
export function lazySeal(make: () => Seal): Seal {
  let seal: Seal | undefined;
  const get = () => (seal ??= make());
  return {
    sign: (key, value) => get().sign(key, value),
    forget: (key) => get().forget(key),
    verify: (key, value) => get().verify(key, value),
    commit: () => seal?.commit(),
  };
}

const sealed = new WeakSet<object>();

/** Whether `raw`, read under `key`, is as the running user saved it (a store that signs nothing vouches for all it holds). */
export function verified(store: KeyValueStore, key: string, raw: string): boolean {
  return store.verify ? store.verify(key, raw) : true;
}

/** Remembers an item read whole and verified; returns it. */
export function markSealed<T>(item: T, ok: boolean): T {
  if (ok && typeof item === 'object' && item !== null) sealed.add(item);
  return item;
}

/** The item is an object read from the store exactly as the running user last saved it. */
export function isSealed(item: unknown): boolean {
  return typeof item === 'object' && item !== null && sealed.has(item);
}

/** One JSON item under `key`, marked sealed when verified; null when absent or unreadable. */
export function readSealed<T>(store: KeyValueStore, key: string): T | null {
  const raw = store.get(key);
  if (raw === null || raw === '') return null;
  let parsed: T;
  try {
    parsed = JSON.parse(raw) as T;
  } catch {
    return null;
  }
  return markSealed(parsed, verified(store, key, raw));
}
