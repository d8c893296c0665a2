/**
 * PropertiesService with Apps Script's limits: values are strings, 9 KB per
 * value, 500 KB per store. Document properties are shared by every editor of
 * the file; user properties are per user; script properties are global.
 */
import type { Execution } from './execution';
import { GasObject } from './instrument';

type GProperties = GoogleAppsScript.Properties.Properties;

export const MAX_VALUE_BYTES = 9 * 1024;
export const MAX_STORE_BYTES = 500 * 1024;

export class PropertyStores {
  readonly script = new Map<string, string>();
  readonly user = new Map<string, Map<string, string>>();
  readonly document = new Map<string, Map<string, string>>();

  userStore(user: string): Map<string, string> {
    let m = this.user.get(user);
    if (!m) this.user.set(user, (m = new Map()));
    return m;
  }

  documentStore(documentId: string): Map<string, string> {
    let m = this.document.get(documentId);
    if (!m) this.document.set(documentId, (m = new Map()));
    return m;
  }
}

const bytes = (s: string): number => Buffer.byteLength(s, 'utf8');

function storeBytes(store: Map<string, string>): number {
  let n = 0;
  for (const [k, v] of store) n += bytes(k) + bytes(v);
  return n;
}

export interface PropertyQuota {
  /** Called once per read or write; throws when the daily quota is spent. */
  read(): void;
  write(): void;
}

export class PropertiesImpl extends GasObject implements Omit<GProperties, never> {
  readonly gasName = 'Properties';

  constructor(
    private readonly store: Map<string, string>,
    private readonly exec: Execution,
    private readonly quota: PropertyQuota,
  ) {
    super();
  }

  private self(): GProperties {
    return this;
  }

  private read(): void {
    this.exec.counters.propertyReads += 1;
    this.quota.read();
  }

  private write(): void {
    this.exec.counters.propertyWrites += 1;
    this.quota.write();
  }

  /** Applies `changes` only if the result fits, as Apps Script rejects the whole call. */
  private commit(changes: Map<string, string>, replaceAll: boolean): void {
    for (const [k, v] of changes) {
      if (bytes(v) > MAX_VALUE_BYTES) throw this.exec.error('Argument too large: value');
      if (k === '') throw this.exec.error('Invalid argument: key');
    }
    const next = new Map(replaceAll ? [] : this.store);
    for (const [k, v] of changes) next.set(k, v);
    if (storeBytes(next) > MAX_STORE_BYTES) {
      throw this.exec.error('You have exceeded the property storage quota. Please remove some properties and try again.');
    }
    this.store.clear();
    for (const [k, v] of next) this.store.set(k, v);
  }

  getProperty(key: string): string | null {
    this.read();
    return this.store.get(String(key)) ?? null;
  }

  getProperties(): { [key: string]: string } {
    this.read();
    const out = this.exec.realm.object() as Record<string, string>;
    for (const [k, v] of this.store) out[k] = v;
    return out;
  }

  getKeys(): string[] {
    this.read();
    return this.exec.realm.array([...this.store.keys()]);
  }

  setProperty(key: string, value: string): GProperties {
    this.write();
    this.commit(new Map([[String(key), String(value)]]), false);
    return this.self();
  }

  setProperties(properties: { [key: string]: string }, deleteAllOthers?: boolean): GProperties {
    this.write();
    const changes = new Map<string, string>();
    for (const [k, v] of Object.entries(properties)) changes.set(k, String(v));
    this.commit(changes, deleteAllOthers === true);
    return this.self();
  }

  deleteProperty(key: string): GProperties {
    this.write();
    this.store.delete(String(key));
    return this.self();
  }

  deleteAllProperties(): GProperties {
    this.write();
    this.store.clear();
    return this.self();
  }
}

export class PropertiesServiceImpl extends GasObject implements GoogleAppsScript.Properties.PropertiesService {
  readonly gasName = 'PropertiesService';
  constructor(
    private readonly stores: PropertyStores,
    private readonly exec: Execution,
    private readonly documentId: string | null,
    private readonly quota: PropertyQuota,
  ) {
    super();
  }
  getScriptProperties(): GProperties {
    return new PropertiesImpl(this.stores.script, this.exec, this.quota);
  }
  getUserProperties(): GProperties {
    return new PropertiesImpl(this.stores.userStore(this.exec.user), this.exec, this.quota);
  }
  getDocumentProperties(): GProperties {
    // Typed non-null, but Apps Script returns null outside a document.
    if (this.documentId === null) return null as unknown as GProperties;
    return new PropertiesImpl(this.stores.documentStore(this.documentId), this.exec, this.quota);
  }
}
