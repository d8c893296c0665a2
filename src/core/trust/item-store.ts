/**
 * What a person saves in the document's work store by name (reports,
 * dashboards): one JSON value per item under a prefix of its kind, read
 * sealed (seal.ts), listed in the order they were created. Unlike a job
 * (job-store.ts), an item is never split: it stays one value, as it always was.
 */
import { UserError } from '../../api/user-error';
import type { SignedStore } from './seal';

/** What every saved item carries. */
export interface SavedItem {
  id: string;
  createdAt: number;
}

export class ItemStore<T extends SavedItem> {
  constructor(
    private readonly doc: SignedStore,
    /** Where an item is kept, by its id. */
    readonly prefix: string,
    private readonly newId: () => string,
    /** What a person is told when the item they act on is gone. */
    private readonly gone: string,
  ) {}

  /** Every readable item of this kind, oldest first. */
  list(): T[] {
    return this.doc
      .keys()
      .filter((k) => k.startsWith(this.prefix))
      .map((k) => this.doc.readJson<T>(k))
      .filter((item): item is T => item !== null && typeof item.id === 'string')
      .sort((a, b) => a.createdAt - b.createdAt);
  }

  find(id: string): T | null {
    return this.doc.readJson<T>(this.prefix + id);
  }

  get(id: string): T {
    const item = this.find(id);
    if (!item) throw new UserError(this.gone);
    return item;
  }

  save(item: T): T {
    return this.doc.writeJson(this.prefix + item.id, item);
  }

  /** A new item with its id, not saved yet. */
  draft(fields: Omit<T, 'id' | 'createdAt'>, now: number): T {
    return { ...fields, id: this.newId().slice(0, 8), createdAt: now } as T;
  }

  create(fields: Omit<T, 'id' | 'createdAt'>, now: number): T {
    return this.save(this.draft(fields, now));
  }

  update(id: string, change: (item: T) => T | undefined): T {
    const current = this.get(id);
    return this.save(change(current) ?? current);
  }

  delete(id: string): void {
    this.doc.delete(this.prefix + id);
  }
}
