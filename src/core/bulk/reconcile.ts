/**
 * Settling writes whose outcome is unknown (time-out, 5xx, dropped connection,
 * a run killed after sending): look the record up by the identity the row
 * carries before anything is sent again. Lookups of one batch go out as one
 * concurrent wave; the first page is enough to know whether a record exists.
 */
import type { BillingClient } from '../../api/client';
import { type ApiRecord, decodeList } from '../../api/envelopes';
import type { BillingError } from '../../api/errors';
import type { RequestSpec } from '../../api/http';
import { listing } from '../../api/operations';
import type { BulkOperation } from './definitions';

export type Found = { ok: true; record: ApiRecord | null } | { ok: false; error: BillingError | Error };

export function lookupMany(client: BillingClient, op: BulkOperation, keys: ReadonlyArray<string | number>): Found[] {
  if (keys.length === 0) return [];
  if (op.identity === 'idempotent') throw new Error(`${op.label}: nada a conferir, a operação pode ser repetida`);
  const list = listing(op.identity === 'idFatura' ? 'nfse' : 'assinaturas');
  const specs: RequestSpec[] = keys.map((key) => ({ method: 'GET', path: list.path, query: client.listQuery(list, { [op.identity]: key }) }));
  return client.http.sendAll(specs).map((settled, i): Found => {
    if (!settled.ok) return settled;
    try {
      const decoded = decodeList({ method: 'GET', path: list.path }, `GET ${list.path}`, list.record, list.idField, settled.json, list.envelope === 'flexible');
      // Exact match only: a service that ignored the filter must not make an unrelated record look like ours.
      const record = decoded.records.find((r) => String(r[op.identity]) === String(keys[i])) ?? null;
      return { ok: true, record };
    } catch (error) {
      return { ok: false, error: error as Error };
    }
  });
}
