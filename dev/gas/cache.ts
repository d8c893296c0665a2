/** CacheService: entries expire on the virtual clock; keys up to 250 chars, values up to 100 KB, at most 6 h. */
import type { Execution } from './execution';
import { GasObject } from './instrument';

type GCache = GoogleAppsScript.Cache.Cache;

export const MAX_KEY_CHARS = 250;
export const MAX_VALUE_BYTES = 100 * 1024;
export const MAX_EXPIRATION_S = 21_600;
const DEFAULT_EXPIRATION_S = 600;

interface Entry {
  value: string;
  expiresAt: number;
}

export class CacheStores {
  readonly script = new Map<string, Entry>();
  readonly user = new Map<string, Map<string, Entry>>();
  readonly document = new Map<string, Map<string, Entry>>();
  of(kind: 'user' | 'document', id: string): Map<string, Entry> {
    const outer = this[kind];
    let m = outer.get(id);
    if (!m) outer.set(id, (m = new Map()));
    return m;
  }
}

export class CacheImpl extends GasObject implements GCache {
  readonly gasName = 'Cache';
  constructor(
    private readonly entries: Map<string, Entry>,
    private readonly exec: Execution,
  ) {
    super();
  }

  private key(key: string): string {
    const k = String(key);
    if (k.length > MAX_KEY_CHARS) throw this.exec.error('Argument too large: key');
    return k;
  }

  get(key: string): string | null {
    const k = this.key(key);
    const e = this.entries.get(k);
    if (!e) return null;
    if (e.expiresAt <= this.exec.clock.now()) {
      this.entries.delete(k);
      return null;
    }
    return e.value;
  }

  getAll(keys: string[]): { [key: string]: string } {
    const out = this.exec.realm.object() as Record<string, string>;
    for (const k of keys) {
      const v = this.get(k);
      if (v !== null) out[k] = v;
    }
    return out;
  }

  put(key: string, value: string, expirationInSeconds?: number): void {
    const k = this.key(key);
    const v = String(value);
    if (Buffer.byteLength(v, 'utf8') > MAX_VALUE_BYTES) throw this.exec.error('Argument too large: value');
    // Longer expirations are accepted but the value is still gone after 6 hours.
    const seconds = Math.min(Math.max(1, expirationInSeconds ?? DEFAULT_EXPIRATION_S), MAX_EXPIRATION_S);
    this.entries.set(k, { value: v, expiresAt: this.exec.clock.now() + seconds * 1000 });
  }

  putAll(values: { [key: string]: string }, expirationInSeconds?: number): void {
    for (const [k, v] of Object.entries(values)) this.put(k, v, expirationInSeconds);
  }

  remove(key: string): void {
    this.entries.delete(this.key(key));
  }

  removeAll(keys: string[]): void {
    for (const k of keys) this.remove(k);
  }
}

export class CacheServiceImpl extends GasObject implements GoogleAppsScript.Cache.CacheService {
  readonly gasName = 'CacheService';
  constructor(
    private readonly stores: CacheStores,
    private readonly exec: Execution,
    private readonly documentId: string | null,
  ) {
    super();
  }
  getScriptCache(): GCache {
    return new CacheImpl(this.stores.script, this.exec);
  }
  getUserCache(): GCache {
    return new CacheImpl(this.stores.of('user', this.exec.user), this.exec);
  }
  getDocumentCache(): GCache | null {
    return this.documentId === null ? null : new CacheImpl(this.stores.of('document', this.documentId), this.exec);
  }
}
