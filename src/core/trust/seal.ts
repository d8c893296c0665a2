/**
 * Stored work signed whole: every signature the add-on makes or checks. The
 * document's work store is a sheet every editor can unhide and edit, so every
 * value an execution saves there is signed with the running user's secret as
 * it is written, whatever kind of item it belongs to: the store signs, not the
 * code that saves, so no item and no field can be left out. The signature
 * covers the document, the key and the value's whole text, and only the
 * latest one is kept in the user's own properties: an older value of the same
 * item put back by hand fails as surely as an edited one. Sheets keeps an
 * execution's writes until a flush while a signature lands at once, and a kill
 * may land any first part of the writes since the flush: until the flush, the
 * value being replaced, every value saved since and a value being deleted all
 * stay valid, so an execution killed in between leaves its items as some
 * value of its own, never altered.
 *
 * Reading does not trust: each item read is checked against the running
 * user's signatures and, when it matches, remembered as sealed (the object
 * itself, not its id, so a copy changed after the read is not), as is an
 * item this execution has just saved. The work store is a `SignedStore`, which
 * only this room makes and which always checks: whatever decides what is
 * sent, where, or with whose key reads through one, and asks `isSealed`.
 *
 * Before items were signed whole, an owner's ledger signed only the terms of
 * their reports and bulk runs: what it vouched for is still accepted as it
 * was then (`reportVouched`, `bulkVouched`), until the owner saves it again.
 */
import type { KeyValueStore } from '../ports';

/** Signs text with the owner's secret (HMAC-SHA256 in Apps Script). */
export type Signer = (text: string, secret: string) => string;

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

/**
 * Where the user keeps their signatures of one document's values, by key: the signature of the value the document
 * holds, then, while saves of this execution may not have reached the document, the signature of each value saved
 * since the last flush, space-separated.
 */
export interface SignatureBook {
  get(key: string): string | undefined;
  /** Keeps `text` as the key's signatures; undefined: none. */
  put(key: string, text: string | undefined): void;
}

/**
 * The seal of the user whose secret is `secret` in the document `documentId`, its signatures kept in `book`. Until a
 * flush, a kill may land any prefix of the execution's sheet writes, so any value saved since the last flush may be
 * the one the document holds, and a value deleted may still be there: each stays valid until the flush.
 */
export function documentSeal(sign: Signer, secret: string, documentId: string, book: SignatureBook): Seal {
  const signature = (key: string, value: string) => sign(JSON.stringify(['selo', documentId, key, value]), secret);
  const entry = (key: string) => {
    const [landed, ...pending] = (book.get(key) ?? '').split(' ');
    return { landed, pending };
  };
  /** Keys signed by this execution whose value may still wait for a flush. */
  const unsettled = new Set<string>();
  /** Keys deleted by this execution: their blank may still wait for a flush. */
  const forgotten = new Set<string>();
  return {
    sign: (key, value) => {
      const before = book.get(key);
      const { landed, pending } = entry(key);
      const after = signature(key, value);
      const text = [landed, ...pending.filter((p) => p !== after), after].join(' ');
      // Saved again after a delete: the key is kept.
      const revived = forgotten.delete(key);
      const unrevive = () => {
        if (revived) forgotten.add(key);
      };
      // The same value saved again keeps its signature: no write.
      if (before === text || (after === landed && pending.length === 0)) return unrevive;
      const waited = unsettled.has(key);
      book.put(key, text);
      unsettled.add(key);
      return () => {
        book.put(key, before);
        unrevive();
        if (!waited) unsettled.delete(key);
      };
    },
    // The blank waits for the flush like any write: until then the value it replaces still counts.
    forget: (key) => {
      unsettled.delete(key);
      forgotten.add(key);
    },
    verify: (key, value) => {
      const { landed, pending } = entry(key);
      const sig = signature(key, value);
      if (sig !== landed && !pending.includes(sig)) return false;
      // Saves another execution left unsettled (killed before its flush): what the document holds now settles them.
      if (pending.length > 0 && !unsettled.has(key)) book.put(key, sig);
      return true;
    },
    commit: () => {
      for (const key of unsettled) {
        // The last value saved is the one the flush put in the document.
        const { pending } = entry(key);
        book.put(key, pending[pending.length - 1]);
      }
      for (const key of forgotten) if (book.get(key) !== undefined) book.put(key, undefined);
      unsettled.clear();
      forgotten.clear();
    },
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

function mark<T>(item: T, ok: boolean): T {
  if (ok && typeof item === 'object' && item !== null) sealed.add(item);
  return item;
}

/** The item is an object read from the work store exactly as the running user last saved it, or just saved by them. */
export function isSealed(item: unknown): boolean {
  // A WeakSet holds objects only: anything else is not in it.
  return sealed.has(item as object);
}

/** `to`, made from `from` alone (decoded, unpacked): sealed exactly when `from` is. */
export function sealedAs<T>(from: unknown, to: T): T {
  return mark(to, isSealed(from));
}

/** The values one item is made of (a record and its parts), read through a signed store. */
export interface Reading {
  /** The value under `key`, checked: one absent or not as the running user saved it leaves the item unsealed. */
  get(key: string): string | null;
  /** The item made of what was read: sealed when every value read is as the running user last saved it. */
  mark<T>(item: T): T;
}

/**
 * The document's work store, every write signed and every item read checked against the running user's seal. Only
 * `SignedStore.over` makes one; a wrapper around it (spread or not) is not one, so a reader that requires it cannot
 * be handed a store that skips the checks. A view of the stored values (read once, checked before each save) goes
 * underneath, in `over`'s `inner`.
 */
export class SignedStore implements KeyValueStore {
  readonly #inner: KeyValueStore;
  readonly #seal: Seal;

  private constructor(inner: KeyValueStore, seal: Seal) {
    this.#inner = inner;
    this.#seal = seal;
  }

  /** `inner`'s values, signed with `seal` as they are written and checked against it as they are read. */
  static over(inner: KeyValueStore, seal: Seal): SignedStore {
    return new SignedStore(inner, seal);
  }

  get(key: string): string | null {
    return this.#inner.get(key);
  }

  set(key: string, value: string): void {
    // Signed first: a value in the sheet is never newer than its signature. A refused write leaves both as they were.
    const undo = this.#seal.sign(key, value);
    try {
      this.#inner.set(key, value);
    } catch (err) {
      undo();
      throw err;
    }
  }

  delete(key: string): void {
    this.#inner.delete(key);
    this.#seal.forget(key);
  }

  keys(): string[] {
    return this.#inner.keys();
  }

  /** One JSON item under `key`, sealed when it is as the running user last saved it; null when absent or unreadable. */
  readJson<T>(key: string): T | null {
    const raw = this.#inner.get(key);
    // Nothing to check: absent (a blank value does not parse either).
    if (raw === null) return null;
    let parsed: T;
    try {
      parsed = JSON.parse(raw) as T;
    } catch {
      return null;
    }
    return mark(parsed, this.#seal.verify(key, raw));
  }

  /** Saves `item` whole as JSON under `key`; returns it, sealed. */
  writeJson<T>(key: string, item: T): T {
    this.set(key, JSON.stringify(item));
    return mark(item, true);
  }

  /** An item this execution has just written whole through this store (every value of it signed): sealed. */
  saved<T>(item: T): T {
    return mark(item, true);
  }

  /** Reads the values of one item; once one fails, the rest are not checked (each check is a signature computed). */
  reading(): Reading {
    let ok = true;
    return {
      get: (key) => {
        const value = this.#inner.get(key);
        ok &&= value !== null && this.#seal.verify(key, value);
        return value;
      },
      mark: (item) => mark(item, ok),
    };
  }
}

/** What a report's signature covered before items were signed whole: read only to accept what was vouched for then. */
export interface ReportTerms {
  id: string;
  owner?: { id: string };
  connectionId?: string;
  listing: string;
  filters: unknown;
  incremental?: unknown;
  schedule?: unknown;
  notifyByEmail?: unknown;
  cardData?: unknown;
  companies?: unknown;
}

/** What a bulk run's signature covered before items were signed whole. */
export interface BulkTerms {
  id: string;
  owner?: { id: string };
  connectionId?: string;
  operation: string;
  sheetId: number;
  startedAt: number;
}

/**
 * Whether `vouched`, the signature an owner's old ledger keeps for a report, is theirs (`secret`) of the report's terms
 * as they were signed then. Card data and a consolidated report's companies join the terms only when present, as they
 * did then.
 */
export function reportVouched(sign: Signer, secret: string, vouched: string | undefined, r: ReportTerms): boolean {
  const terms = ['r', r.id, r.owner?.id, r.connectionId, r.listing, r.filters, r.incremental, r.schedule, r.notifyByEmail];
  return vouchedFor(sign, secret, vouched, [...terms, ...(r.cardData ? ['cartao'] : []), ...(r.companies ? [r.companies] : [])]);
}

/** Whether `vouched`, from an owner's old ledger, is their signature of what they agreed to when they started the bulk run. */
export function bulkVouched(sign: Signer, secret: string, vouched: string | undefined, j: BulkTerms): boolean {
  return vouchedFor(sign, secret, vouched, ['b', j.id, j.owner?.id, j.connectionId, j.operation, j.sheetId, j.startedAt]);
}

function vouchedFor(sign: Signer, secret: string, vouched: string | undefined, terms: unknown[]): boolean {
  return vouched !== undefined && vouched === sign(JSON.stringify(terms), secret);
}
