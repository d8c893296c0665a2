/**
 * Settling writes whose outcome is unknown (time-out, 5xx, dropped connection,
 * a run killed after sending): look the record up by the identity the row
 * carries before anything is sent again. Lookups of one batch go out as one
 * concurrent wave; the first page is enough to know whether a record exists.
 */
import type { BillingClient } from '../../api/client';
import type { Nfse, Subscription } from '../../api/writes';
import type { BulkOperation } from './definitions';

/** What a lookup found: the note of an invoice, or the subscription of an idIntegracao (or of the id an update names). */
export type Existing = { kind: 'note'; record: Nfse } | { kind: 'subscription'; record: Subscription };

export type Found = { ok: true; existing: Existing | null } | { ok: false; error: Error };

/**
 * An edit pushed from an imported sheet, against the record as the service
 * holds it now: whether the record already holds it, the changes that clash
 * with one made in the service since the import (what to tell), and the body
 * to send (the service's current values in the fields the owner left alone).
 */
export interface Merged {
  holds: boolean;
  conflict?: string;
  body: Record<string, unknown>;
}

export type Merge = (record: Readonly<Record<string, unknown>> | null) => Merged;

export function lookupMany(client: BillingClient, op: BulkOperation, keys: ReadonlyArray<string | number>): Found[] {
  if (keys.length === 0) return [];
  if (op.identity === 'idempotent' && !op.pathId) throw new Error(`${op.label}: nada a conferir, a operação pode ser repetida`);
  // An update is settled by its record, read again by id.
  const field = op.identity === 'idempotent' ? (op.pathId as 'idAssinaturaContrato') : op.identity;
  // Exact match only: a service that ignored the filter must not make an unrelated record look like ours.
  const matches = (value: unknown, i: number) => String(value) === String(keys[i]);
  if (field === 'idFatura')
    return client
      .lookupEach(
        'nfse',
        keys.map((key) => ({ idFatura: key })),
      )
      .map((found, i): Found => {
        if (!found.ok) return found;
        const record = found.records.find((r) => matches(r.idFatura, i));
        return { ok: true, existing: record ? { kind: 'note', record } : null };
      });
  return client
    .lookupEach(
      'assinaturas',
      keys.map((key) => ({ [field]: key })),
    )
    .map((found, i): Found => {
      if (!found.ok) return found;
      const record = found.records.find((r) => matches(r[field], i));
      return { ok: true, existing: record ? { kind: 'subscription', record } : null };
    });
}

/** A template row's update against its record: it holds when the record shows every value sent, and goes as the row built it. */
export const asSent =
  (op: BulkOperation, body: Record<string, unknown>): Merge =>
  (record) => ({ holds: record !== null && holdsUpdate(op, body, record), body });

/**
 * Whether a subscription read back already holds what an update sent: each
 * body field against the record field it sets (a text sent only under its
 * flag counts only then). Flags themselves are not in the record.
 */
export function holdsUpdate(op: BulkOperation, body: Readonly<Record<string, unknown>>, record: Readonly<Record<string, unknown>>): boolean {
  return op.columns.every((col) => {
    if (col.in !== undefined || col.kind === 'boolean' || !(col.field in body)) return true;
    if (col.sentWhen && body[col.sentWhen] === false) return true;
    const sent = body[col.field];
    const held = record[col.record ?? col.field];
    if (typeof sent === 'number') return typeof held === 'number' && Math.abs(held - sent) < 0.005;
    return String(held ?? '').trim() === String(sent ?? '').trim();
  });
}
