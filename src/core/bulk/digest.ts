/**
 * Short fingerprints of values: enough to tell that a text, or the values a
 * row sends, changed, without keeping them.
 */
import { isDate } from '../../api/calendar';

/** 32-bit FNV-1a, as hex. */
export function hash(text: string, seed = 0x811c9dc5): string {
  let h = seed;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}

/** JSON with every object's keys in order, dates as their time: the same values always give the same text. */
function canonical(value: unknown): string {
  if (isDate(value)) return `"@${value.getTime()}"`;
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** 64 bits of fingerprint of some values: two 32-bit hashes of their canonical text. */
export function digest(value: unknown): string {
  const text = canonical(value);
  return hash(text) + hash(text, 0x050c5d1f);
}
