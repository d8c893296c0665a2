/**
 * The vm context is another realm: a Date or Array built on the host fails
 * `instanceof` (and zod's z.date()) inside the bundle. Everything the emulator
 * hands to script code goes through here so it is built with the context's own
 * constructors, and everything coming back is turned into plain host values.
 */
import vm from 'node:vm';
import { types } from 'node:util';

export interface RealmCtors {
  Date: DateConstructor;
  Array: ArrayConstructor;
  Object: ObjectConstructor;
  Error: ErrorConstructor;
}

export const isDate = (v: unknown): v is Date => types.isDate(v);

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== 'object') return false;
  const proto = Object.getPrototypeOf(v);
  // A plain object from any realm has a prototype whose own prototype is null.
  return proto === null || Object.getPrototypeOf(proto) === null;
}

export class Realm {
  readonly ctors: RealmCtors;

  constructor(readonly context: vm.Context) {
    this.ctors = vm.runInContext('({ Date: Date, Array: Array, Object: Object, Error: Error })', context) as RealmCtors;
  }

  date(ms: number): Date {
    return new this.ctors.Date(ms);
  }

  array<T>(items: readonly T[]): T[] {
    const out = new this.ctors.Array<T>();
    for (const item of items) out.push(item);
    return out;
  }

  object(): Record<string, unknown> {
    return new this.ctors.Object() as Record<string, unknown>;
  }

  error(message: string, name?: string): Error {
    const err = new this.ctors.Error(message);
    if (name) err.name = name;
    return err;
  }

  /** Deep copy of host data (JSON-like plus Dates) into this realm. */
  toContext(value: unknown): unknown {
    if (value === null || typeof value !== 'object') return value;
    if (isDate(value)) return this.date(value.getTime());
    if (Array.isArray(value)) return this.array(value.map((v) => this.toContext(v)));
    if (isPlainObject(value)) {
      const out = this.object();
      for (const [k, v] of Object.entries(value)) out[k] = this.toContext(v);
      return out;
    }
    return value;
  }
}

/** Deep copy of context data into host-realm plain values (Dates become host Dates). */
export function toHost(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (isDate(value)) return new Date(value.getTime());
  if (Array.isArray(value)) return Array.from(value, (v) => toHost(v));
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = toHost(v);
    return out;
  }
  return value;
}
