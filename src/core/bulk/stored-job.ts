/**
 * Bulk jobs as stored in the document's work store: each row's key is kept (so
 * a later execution finds the row wherever it moved), and generated keys share
 * a long prefix (`lote-<uuid>-1`, `-2`…). Saved whole after every batch, 1,000
 * plain keys fill six 9 KB parts, each a write and a delete per save; front
 * coding (the length shared with the key before, unless the same as the entry
 * before's, then the rest) keeps them in one. The confirmations (a key and a
 * 16-digit digest per row, ~65 characters as a plain map) are kept the same
 * way, each digest followed by its front-coded key: about a third of the size,
 * so fewer parts are rewritten after each batch.
 */
import { JobStore } from '../trust/job-store';
import { type SignedStore, sealedAs } from '../trust/seal';
import type { BulkJob } from './state';

type Stored = BulkJob & { keyCoding?: 'front'; confirmedCoded?: string[] };

/** What rowDigest gives: a fixed width, so a coded confirmation needs no separator. */
const DIGEST = /^[0-9a-f]{16}$/;

/** Each key as `n:rest` (n characters shared with the key before), or `:rest` when n is the same as the entry before's. */
export function frontCode(keys: readonly string[]): string[] {
  let previous = '';
  let shared: number | undefined;
  return keys.map((key) => {
    let n = 0;
    while (n < key.length && n < previous.length && key[n] === previous[n]) n++;
    const entry = `${n === shared ? '' : n}:${key.slice(n)}`;
    previous = key;
    shared = n;
    return entry;
  });
}

export function frontDecode(coded: readonly string[]): string[] {
  let previous: string | undefined;
  let shared = 0;
  return coded.map((entry) => {
    const colon = entry.indexOf(':');
    if (colon > 0) shared = Number(entry.slice(0, colon));
    const rest = entry.slice(colon + 1);
    previous = previous === undefined ? rest : previous.slice(0, shared) + rest;
    return previous;
  });
}

function packKeys(job: BulkJob): Stored {
  if (!job.keys && !job.retryKeys) return job;
  return {
    ...job,
    keys: job.keys && frontCode(job.keys),
    retryKeys: job.retryKeys && frontCode(job.retryKeys),
    keyCoding: 'front',
  };
}

/**
 * Confirmations as `digest + front-coded key`, the last row first, placed right after the row keys: rows settle in order
 * and give up their confirmation, so the list shrinks at its end and what is stored before it keeps its text (parts
 * of a split record that did not change are not rewritten). The map itself is left empty, not absent: a version that
 * does not know the coding finds no row confirmed and sends none, where an absent map would send every row.
 */
function pack(job: BulkJob): Stored {
  const { keys, ...stored } = packKeys(job);
  const entries = job.confirmed ? Object.entries(job.confirmed).reverse() : [];
  if (entries.length === 0 || !entries.every(([, d]) => DIGEST.test(d))) return packKeys(job);
  const coded = frontCode(entries.map(([key]) => key));
  return { keys, confirmedCoded: entries.map(([, d], i) => d + coded[i]), ...stored, confirmed: {} };
}

function unpackConfirmed(coded: readonly string[]): BulkJob['confirmed'] {
  const keys = frontDecode(coded.map((entry) => entry.slice(16)));
  return Object.fromEntries(coded.map((entry, i): [string, string] => [keys[i], entry.slice(0, 16)]).reverse());
}

function unpack(stored: Stored): BulkJob {
  if (stored.keyCoding !== 'front' && !stored.confirmedCoded) return stored;
  const { keyCoding, confirmedCoded, ...job } = stored;
  const front = keyCoding === 'front';
  // Decoded from what was read: sealed exactly when what was read is.
  return sealedAs(stored, {
    ...job,
    ...(front && { keys: job.keys && frontDecode(job.keys), retryKeys: job.retryKeys && frontDecode(job.retryKeys) }),
    ...(confirmedCoded && { confirmed: unpackConfirmed(confirmedCoded) }),
  });
}

export class BulkJobStore extends JobStore<BulkJob> {
  constructor(store: SignedStore) {
    // The key prefix bulk runs always had, so jobs stored before still continue.
    super(store, 'faturamento.lote.');
  }

  override get(id: string): BulkJob | null {
    const stored = super.get(id);
    return stored && unpack(stored);
  }

  override list(): BulkJob[] {
    return super.list().map(unpack);
  }

  override put(id: string, job: BulkJob): void {
    super.put(id, pack(job));
    this.store.saved(job);
  }
}

/** The document's bulk jobs: what the hourly run looks through without loading the bulk code itself (dev/build/lazy-chunks.ts). */
export function bulkJobStore(store: SignedStore): JobStore<BulkJob> {
  return new BulkJobStore(store);
}
