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
 * A record that fits stays plain JSON under its key, which is how every job
 * was stored before records could be split.
 *
 * A record read is sealed (seal.ts) only when its key and every part are as
 * the running user saved them.
 */
import type { SignedStore } from './seal';

/** Apps Script's limit per property value, in UTF-8 bytes. */
export const MAX_VALUE_BYTES = 9 * 1024;
/** Room for a part's key suffix and generation tag, counted against the limit in case Google counts the key too. */
const PART_OVERHEAD = 32;

interface Split {
  $parts: number;
  slot: 'a' | 'b';
  gen: number;
}

function asSplit(value: unknown): Split | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const v = value as Partial<Split>;
  if (!Number.isInteger(v.$parts) || (v.$parts as number) < 1 || (v.slot !== 'a' && v.slot !== 'b') || !Number.isInteger(v.gen)) return null;
  return v as Split;
}

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

export class JobStore<T> {
  /**
   * What each key holds as far as this store has seen (a split header, or
   * null for plain or nothing): a save after a read needs no second read to
   * know which parts it replaces.
   */
  private readonly seen = new Map<string, Split | null>();

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
    if (utf8Bytes(key) + utf8Bytes(json) <= MAX_VALUE_BYTES) {
      this.store.set(key, json);
      this.seen.set(key, null);
    } else {
      const slot = before?.slot === 'a' ? 'b' : 'a';
      const gen = (before?.gen ?? 0) + 1;
      const tag = `${gen}:`;
      const parts = chunks(json, MAX_VALUE_BYTES - utf8Bytes(key) - PART_OVERHEAD);
      const split: Split = { $parts: parts.length, slot, gen };
      try {
        parts.forEach((part, i) => this.store.set(partKey(key, slot, i), tag + part));
        this.store.set(key, JSON.stringify(split));
      } catch (err) {
        // The store refused a write (full, or the service failed): the record saved before stays whole, and the new parts go.
        this.dropParts(key, split);
        throw err;
      }
      this.seen.set(key, split);
    }
    if (before) this.dropParts(key, before);
    this.store.saved(value);
  }

  delete(id: string): void {
    const key = this.key(id);
    const before = this.header(key);
    this.store.delete(key);
    this.seen.set(key, null);
    if (before) this.dropParts(key, before);
  }

  private dropParts(key: string, split: Split): void {
    // Stryker disable next-line EqualityOperator: deleting an absent part changes nothing
    for (let i = 0; i < split.$parts; i++) this.store.delete(partKey(key, split.slot, i));
  }

  private header(key: string): Split | null {
    if (this.seen.has(key)) return this.seen.get(key) ?? null;
    const raw = this.store.get(key);
    let split: Split | null = null;
    try {
      split = raw === null ? null : asSplit(JSON.parse(raw));
    } catch {
      split = null;
    }
    this.seen.set(key, split);
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
    this.seen.set(key, split);
    if (!split) return reading.mark((parsed ?? null) as T | null);
    const tag = `${split.gen}:`;
    let text = '';
    for (let i = 0; i < split.$parts; i++) {
      const part = reading.get(partKey(key, split.slot, i));
      if (part === null || !part.startsWith(tag)) return null;
      text += part.slice(tag.length);
    }
    try {
      return reading.mark(JSON.parse(text) as T);
    } catch {
      return null;
    }
  }
}
