/**
 * Resumable jobs (pulls, bulk runs) as JSON in the document's work store (a
 * hidden sheet: see gas/work-store.ts), one record per key under a prefix of
 * their kind. A value stays within 9 KB, a property's limit from when jobs
 * were kept in DocumentProperties, and well within a cell's 50,000
 * characters; a record that outgrows one is split: its key then holds a small
 * header and the text goes to parts `key#a0`, `key#a1`… A new split record is
 * written to the other letter (`key#b0`…) before the header points at it, and
 * only then are the old parts deleted, so an execution killed in the middle of
 * a save still reads the record it saved before. Parts carry their header's
 * generation: a part missing or left by another save reads as no record, never
 * as one glued together from two saves.
 *
 * A save rewrites only the parts whose text changed: when some part is the
 * same as the one stored at its place, the header lists where each part is
 * (its number under the slot's letter and its generation), the parts kept
 * stay where they are and the others are written under numbers the header
 * before does not use, so the record saved before stays whole until the
 * header points at the new one. A save that keeps no part is written to the
 * other letter, as every split record was before.
 *
 * A record that fits stays plain JSON under its key, which is how every job
 * was stored before records could be split.
 *
 * A record read is sealed (seal.ts) only when its key and every part are as
 * the running user saved them.
 */
import { isSealed, type SignedStore } from './seal';

/** Apps Script's limit per property value, in UTF-8 bytes. */
export const MAX_VALUE_BYTES = 9 * 1024;
/** Room for a part's key suffix and generation tag, counted against the limit in case Google counts the key too. */
const PART_OVERHEAD = 32;

/** A part's number under its record's letter, and the generation it was written with. */
type Place = [number, number];

interface Split {
  $parts: number;
  slot: 'a' | 'b';
  gen: number;
  /** Where each part is; absent: part i is number i of this generation. */
  at?: Place[];
}

const isPlace = (p: unknown): boolean => Array.isArray(p) && p.length === 2 && p.every((n) => Number.isInteger(n) && n >= 0);

function asSplit(value: unknown): Split | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const v = value as Partial<Split>;
  if (!Number.isInteger(v.$parts) || (v.$parts as number) < 1 || (v.slot !== 'a' && v.slot !== 'b') || !Number.isInteger(v.gen)) return null;
  if (v.at !== undefined && !(Array.isArray(v.at) && v.at.length === v.$parts && v.at.every(isPlace))) return null;
  return v as Split;
}

const placesOf = (split: Split): Place[] => split.at ?? Array.from({ length: split.$parts }, (_, i): Place => [i, split.gen]);

function charBytes(text: string, i: number): { bytes: number; width: number } {
  const c = text.charCodeAt(i);
  if (c < 0x80) return { bytes: 1, width: 1 };
  if (c < 0x800) return { bytes: 2, width: 1 };
  const pair = c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
  return pair ? { bytes: 4, width: 2 } : { bytes: 3, width: 1 };
}

/** Apps Script has no TextEncoder or Buffer. */
export function utf8Bytes(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; ) {
    const c = charBytes(text, i);
    n += c.bytes;
    i += c.width;
  }
  return n;
}

/** Cuts `text` into pieces of at most `maxBytes`, never inside a surrogate pair. */
function chunks(text: string, maxBytes: number): string[] {
  const out: string[] = [];
  let start = 0;
  let bytes = 0;
  for (let i = 0; i < text.length; ) {
    const c = charBytes(text, i);
    if (bytes + c.bytes > maxBytes) {
      out.push(text.slice(start, i));
      start = i;
      bytes = 0;
    }
    bytes += c.bytes;
    i += c.width;
  }
  out.push(text.slice(start));
  return out;
}

const partKey = (key: string, slot: Split['slot'], i: number) => `${key}#${slot}${i}`;

/** What a key holds as far as a store has seen: its split header (null: plain or nothing) and, when known to be as saved, each part's text. */
interface Seen {
  split: Split | null;
  texts?: string[];
}

export class JobStore<T> {
  /**
   * What each key holds as far as this store has seen: a save after a read
   * needs no second read to know which parts it replaces, nor which it keeps.
   */
  private readonly seen = new Map<string, Seen>();

  constructor(
    protected readonly store: SignedStore,
    readonly prefix: string,
  ) {}

  private key(id: string): string {
    return this.prefix + id;
  }

  get(id: string): T | null {
    return this.decode(this.key(id));
  }

  /** Whether a record is stored, without reading its parts. */
  has(id: string): boolean {
    return this.store.get(this.key(id)) !== null;
  }

  /** Every readable record of this kind, from one listing of the keys. */
  list(): T[] {
    const out: T[] = [];
    for (const key of this.store.keys()) {
      if (!key.startsWith(this.prefix) || key.includes('#', this.prefix.length)) continue;
      const value = this.decode(key);
      if (value !== null) out.push(value);
    }
    return out;
  }

  put(id: string, value: T): void {
    const key = this.key(id);
    const before = this.header(key);
    const json = JSON.stringify(value);
    let after: Split | null = null;
    if (utf8Bytes(key) + utf8Bytes(json) <= MAX_VALUE_BYTES) {
      this.store.set(key, json);
      this.seen.set(key, { split: null });
    } else {
      after = this.putSplit(key, before, chunks(json, MAX_VALUE_BYTES - utf8Bytes(key) - PART_OVERHEAD));
    }
    if (before) this.dropParts(key, before, after);
    this.store.saved(value);
  }

  delete(id: string): void {
    const key = this.key(id);
    const before = this.header(key);
    this.store.delete(key);
    this.seen.set(key, { split: null });
    if (before) this.dropParts(key, before, null);
  }

  /** Writes the parts that changed, then the header that points at them; returns the header. */
  private putSplit(key: string, before: Split | null, parts: string[]): Split {
    const known = this.seen.get(key)?.texts;
    const old = before ? placesOf(before) : [];
    const kept = parts.map((part, i) => known?.[i] === part);
    const gen = (before?.gen ?? 0) + 1;
    const split: Split =
      before && kept.includes(true)
        ? { $parts: parts.length, slot: before.slot, gen, at: freshPlaces(old, kept, gen) }
        : { $parts: parts.length, slot: before?.slot === 'a' ? 'b' : 'a', gen };
    const places = placesOf(split);
    const written = places.filter((_, i) => !kept[i]).map(([n]) => partKey(key, split.slot, n));
    try {
      parts.forEach((part, i) => {
        if (!kept[i]) this.store.set(partKey(key, split.slot, places[i][0]), `${gen}:${part}`);
      });
      this.store.set(key, JSON.stringify(split));
    } catch (err) {
      // The store refused a write (full, or the service failed): the record saved before stays whole, and the new parts go.
      for (const k of written) this.store.delete(k);
      throw err;
    }
    this.seen.set(key, { split, texts: parts });
    return split;
  }

  /** Deletes the parts of `before` that `after` does not keep. */
  private dropParts(key: string, before: Split, after: Split | null): void {
    const keep = new Set(after ? placesOf(after).map(([n]) => partKey(key, after.slot, n)) : []);
    // Stryker disable next-line EqualityOperator: deleting an absent part changes nothing
    for (const [n] of placesOf(before)) if (!keep.has(partKey(key, before.slot, n))) this.store.delete(partKey(key, before.slot, n));
  }

  private header(key: string): Split | null {
    const seen = this.seen.get(key);
    if (seen) return seen.split;
    const raw = this.store.get(key);
    let split: Split | null = null;
    try {
      split = raw === null ? null : asSplit(JSON.parse(raw));
    } catch {
      split = null;
    }
    this.seen.set(key, { split });
    return split;
  }

  private decode(key: string): T | null {
    const reading = this.store.reading();
    const raw = reading.get(key);
    let parsed: unknown = null;
    try {
      parsed = raw === null ? null : JSON.parse(raw);
    } catch {
      parsed = null;
    }
    const split = asSplit(parsed);
    this.seen.set(key, { split });
    if (!split) return reading.mark((parsed ?? null) as T | null);
    const texts: string[] = [];
    for (const [n, gen] of placesOf(split)) {
      const part = reading.get(partKey(key, split.slot, n));
      const tag = `${gen}:`;
      if (part === null || !part.startsWith(tag)) return null;
      texts.push(part.slice(tag.length));
    }
    let item: T;
    try {
      item = reading.mark(JSON.parse(texts.join('')) as T);
    } catch {
      return null;
    }
    // Only parts read as the running user saved them may be kept by the next save.
    if (isSealed(item)) this.seen.set(key, { split, texts });
    return item;
  }
}

/** The places of a save that keeps some parts: a kept part stays where it is; each other takes a number the save before does not use. */
function freshPlaces(old: readonly Place[], kept: readonly boolean[], gen: number): Place[] {
  const used = new Set(old.map(([n]) => n));
  let free = 0;
  return kept.map((keep, i) => {
    if (keep) return old[i];
    while (used.has(free)) free++;
    used.add(free);
    return [free, gen];
  });
}
