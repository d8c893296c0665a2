/**
 * What the add-on last pulled of the fields a user may edit in place, per
 * record id of an imported sheet: the base an edit is told from. Kept in the
 * document's work store (a hidden sheet, 50,000 characters a cell), one line
 * per record, split into parts; a long text is kept as its start and a hash,
 * enough to tell that it changed. It says whose pull it was and with which
 * connection: only that owner pushes edits from it, to that organization.
 *
 * Saves write the parts of a new generation to the other slot before the head
 * points at them, so an execution killed mid-save still reads the last whole one.
 */
import { EDITABLE_LISTING } from '../../api/operations';
import { type WriteOperation, writeOperations } from '../../api/writes';
import type { Owner } from '../trust/owners';
import { isSealed, type SignedStore } from '../trust/seal';
import { hash } from './digest';

export const SNAPSHOT_PREFIX = 'faturamento.edicao.';
/** Characters per part: well under a cell's 50,000. */
const PART_CHARS = 30_000;
/** Records kept at most: beyond this an import keeps no snapshot (and the push says why). */
export const MAX_SNAPSHOT_RECORDS = 20_000;
/** Texts up to this length are kept whole; longer ones as their start and a hash. */
const TEXT_KEPT = 60;

/** An update that pushes edits of an imported sheet. */
export type EditOperation = WriteOperation & { edits: NonNullable<WriteOperation['edits']> };

let edits: EditOperation[] | undefined;
/**
 * The operations that push edits, and the record fields they let a user change (valorUnitario, quantidade…).
 * Found on first use: reading them builds the writes table, which a cold start does not need.
 */
export const editOperations = (): EditOperation[] => (edits ??= writeOperations().filter((w): w is EditOperation => w.edits !== undefined));

let editable: string[] | undefined;
/** Every record field some edit operation sets, in a fixed order (the snapshot's columns). */
export const editableFields = (): string[] =>
  (editable ??= [
    ...new Set(
      editOperations().flatMap((op) =>
        Object.entries(op.fields).flatMap(([name, f]) => (f.kind === 'list' || f.in || f.kind === 'boolean' ? [] : [f.record ?? name])),
      ),
    ),
  ]);

export interface SnapshotEntry {
  /** The record's own type field (tipoContrato), which picks the operation. */
  type: string;
  /** Encoded value per editableFields() field. */
  values: string[];
}

export interface Snapshot {
  owner?: Owner;
  connectionId?: string;
  /** When the last pull wrote into it. */
  at: number;
  /** Records past the bound: none are kept. */
  overflow?: boolean;
  records: Map<string, SnapshotEntry>;
}

interface Head {
  owner?: Owner;
  connectionId?: string;
  at: number;
  overflow?: boolean;
  gen: number;
  parts: number;
}

/** A value as the snapshot keeps it: numbers as digits, text trimmed (long or multi-line text as its start, length and hash). */
export function encode(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(Math.round(value * 1e6) / 1e6) : '';
  const text = String(value).trim();
  if (text.length <= TEXT_KEPT && !/[\t\n\r\\]/.test(text)) return text;
  return `${text.slice(0, 40).replace(/[\t\n\r\\]/g, ' ')}…\\${text.length}:${hash(text)}`;
}

/** The readable part of an encoded value (a long text's start, with "…"). */
export function shownPart(encoded: string): string {
  const [start, kept] = encoded.split('…\\');
  return kept === undefined ? start : `${start}…`;
}

const headKey = (sheetId: number) => `${SNAPSHOT_PREFIX}${sheetId}`;
const partKey = (sheetId: number, gen: number, n: number) => `${SNAPSHOT_PREFIX}${sheetId}#${gen % 2}.${n}`;

export class SnapshotStore {
  constructor(private readonly store: SignedStore) {}

  get(sheetId: number): Snapshot | null {
    const reading = this.store.reading();
    const raw = reading.get(headKey(sheetId));
    if (!raw) return null;
    let head: Head;
    try {
      head = JSON.parse(raw) as Head;
    } catch {
      return null;
    }
    const records = new Map<string, SnapshotEntry>();
    for (let n = 0; n < head.parts; n++) {
      const part = reading.get(partKey(sheetId, head.gen, n));
      if (part === null) return null;
      for (const line of part.split('\n')) {
        if (!line) continue;
        const [id, type, ...values] = line.split('\t');
        records.set(id, { type, values });
      }
    }
    return reading.mark({ owner: head.owner, connectionId: head.connectionId, at: head.at, overflow: head.overflow, records });
  }

  save(sheetId: number, snapshot: Snapshot): void {
    const previous = this.store.get(headKey(sheetId));
    const gen = previous ? ((JSON.parse(previous) as Head).gen ?? 0) + 1 : 0;
    const parts: string[] = [];
    let current = '';
    if (!snapshot.overflow)
      for (const [id, e] of snapshot.records) {
        const line = `${id}\t${e.type}\t${e.values.join('\t')}\n`;
        if (current.length + line.length > PART_CHARS && current) {
          parts.push(current);
          current = '';
        }
        current += line;
      }
    if (current) parts.push(current);
    parts.forEach((p, n) => this.store.set(partKey(sheetId, gen, n), p));
    const head: Head = { owner: snapshot.owner, connectionId: snapshot.connectionId, at: snapshot.at, gen, parts: parts.length };
    if (snapshot.overflow) head.overflow = true;
    this.store.set(headKey(sheetId), JSON.stringify(head));
    this.store.saved(snapshot);
  }

  /** Forgets a sheet's snapshot (its report was deleted): the head and the parts of both slots. */
  forget(sheetId: number): void {
    const head = headKey(sheetId);
    for (const key of this.store.keys()) if (key === head || key.startsWith(`${head}#`)) this.store.delete(key);
  }

  /**
   * Records just pulled into the sheet: their editable fields become the base.
   * A pull with another owner or connection starts a new snapshot (the sheet
   * never mixes organizations).
   */
  pulled(sheetId: number, owner: Owner | undefined, connectionId: string | undefined, records: ReadonlyArray<Record<string, unknown>>, now: number): void {
    const before = this.get(sheetId);
    // A base someone else wrote or changed is never carried on: the pull starts it again from what it read.
    const same = before && isSealed(before) && before.owner?.id === owner?.id && before.connectionId === connectionId;
    const snapshot: Snapshot = same ? before : { owner, connectionId, at: now, records: new Map() };
    snapshot.at = now;
    for (const r of records) {
      const id = r.idAssinaturaContrato;
      if (id === null || id === undefined) continue;
      snapshot.records.set(String(id), { type: String(r.tipoContrato ?? ''), values: editableFields().map((f) => encode(r[f])) });
    }
    if (snapshot.records.size > MAX_SNAPSHOT_RECORDS) snapshot.overflow = true;
    this.save(sheetId, snapshot);
  }
}

/** Whether imports of this listing keep a snapshot (some update pushes edits from its sheets). */
export const editableListing = (listingKey: string): boolean => listingKey === EDITABLE_LISTING;
