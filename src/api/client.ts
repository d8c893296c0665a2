/**
 * The typed billing client: every operation of the table, with filters
 * formatted as the spec says, all pages walked, bodies validated before they
 * are sent and responses decoded into checked records.
 */
import type { Zone } from './calendar';
import { type ApiRecord, decodeEmission, decodeList, decodeSubscription } from './envelopes';
import { ValidationError } from './errors';
import { formatFilters, type FilterValues } from './filters';
import { HttpClient, type HttpConfig, type RequestSpec } from './http';
import {
  type ListingFilters,
  type ListingKey,
  type ListOperation,
  listing,
  type WriteKey,
  type WriteOperation,
  writes,
} from './operations';
import { Pager, type PagerOptions, type PagerState } from './paging';
import * as records from './records';

export interface ClientConfig extends HttpConfig {
  /** Time zone that Date filter values are read in (the spreadsheet's). */
  zone: Zone;
  /** Pages fetched at once when the totals are known. */
  concurrency?: number;
  /** Requested page size where the listing accepts one (transactions). */
  pageSize?: number;
}

export interface ListResult {
  records: ApiRecord[];
  warnings: string[];
  pages: number;
}

export interface WriteResult {
  record: ApiRecord | null;
  messages: string[];
}

export interface EmissionResult {
  notes: ApiRecord[];
  messages: string[];
  mentionedId?: number;
}

export interface PagerRequest {
  state?: PagerState;
  base?: 0 | 1;
  maxPages?: number;
}

export class BillingClient {
  readonly http: HttpClient;

  constructor(private readonly config: ClientConfig) {
    this.http = new HttpClient(config);
  }

  get stats() {
    return this.http.stats;
  }

  /** The query of one page of a listing; exposed so tests and forms can show what goes on the wire. */
  listQuery(op: ListOperation, filters: FilterValues, page?: number): Array<[string, string]> {
    const query = formatFilters(op.label, op.filters, filters, this.config.zone);
    if (op.pageSizeParam && this.config.pageSize) query.push([op.pageSizeParam, String(this.config.pageSize)]);
    if (page !== undefined) query.push([op.pageParam, String(page)]);
    return query;
  }

  pager<K extends ListingKey>(key: K, filters: ListingFilters<K> | FilterValues, request: PagerRequest = {}): Pager {
    const op = listing(key);
    // Formatted once: bad filters are refused before the first request, and every page reuses the query.
    const query = this.listQuery(op, filters as FilterValues);
    const options: PagerOptions = {
      concurrency: Math.max(1, this.config.concurrency ?? 10),
      idField: op.idField,
      state: request.state,
      base: request.base,
      maxPages: request.maxPages,
    };
    return new Pager((pages) => {
      const specs: RequestSpec[] = pages.map((page) => ({ method: 'GET', path: op.path, query: [...query, [op.pageParam, String(page)] as [string, string]] }));
      return this.http.sendAll(specs).map((settled, i) => {
        if (!settled.ok) return settled;
        const info = { method: 'GET', path: specs[i].path };
        return { ok: true as const, list: decodeList(info, `${op.method} ${op.path}`, op.record, op.idField, settled.json, op.envelope === 'flexible') };
      });
    }, options);
  }

  /** Every record of a listing, all pages. */
  listAll<K extends ListingKey>(key: K, filters: ListingFilters<K> | FilterValues = {}, request: PagerRequest = {}): ListResult {
    const pager = this.pager(key, filters, request);
    const out: ApiRecord[] = [];
    let pages = 0;
    while (!pager.done) {
      for (const page of pager.nextWave()) {
        pages++;
        for (const r of page.records) out.push(r);
      }
    }
    return { records: out, warnings: pager.warnings, pages };
  }

  /** Checks a body against the operation's schema; the issues name each field. */
  validateBody(op: WriteOperation, body: unknown): Record<string, unknown> {
    const parsed = op.body.safeParse(body);
    if (!parsed.success) {
      throw new ValidationError(
        op.label,
        parsed.error.issues.map((i) => ({ field: i.path.map(String).join('.') || '(corpo)', message: i.message })),
      );
    }
    return parsed.data as Record<string, unknown>;
  }

  private writeSpec(op: WriteOperation, body: unknown, id?: number | string): RequestSpec {
    const data = this.validateBody(op, body);
    let path = op.path;
    if (path.includes('{id}')) {
      if (id === undefined || id === null || String(id).trim() === '') throw new ValidationError(op.label, [{ field: 'id', message: 'informe o ID da assinatura' }]);
      path = path.replace('{id}', encodeURIComponent(String(id).trim()));
    }
    return { method: op.method, path, body: data };
  }

  private decodeWrite(op: WriteOperation, spec: RequestSpec, json: unknown): WriteResult | EmissionResult {
    const info = { method: spec.method, path: spec.path };
    const name = `${op.method} ${op.path}`;
    if (op.response === 'emission') return decodeEmission(info, name, records.nfse, json);
    const { record, messages } = decodeSubscription(info, name, records.subscription, json);
    return { record, messages };
  }

  /**
   * Sends several writes of one operation concurrently. Each item settles on its
   * own: a failed row never hides its neighbours' outcomes.
   */
  writeMany(
    key: WriteKey,
    items: ReadonlyArray<{ body: unknown; id?: number | string }>,
  ): Array<{ ok: true; result: WriteResult | EmissionResult } | { ok: false; error: Error }> {
    const op = writes[key];
    type Prepared = { spec: RequestSpec } | { error: Error };
    const prepared: Prepared[] = items.map((item) => {
      try {
        return { spec: this.writeSpec(op, item.body, item.id) };
      } catch (error) {
        return { error: error as Error };
      }
    });
    const sendable = prepared.filter((p): p is { spec: RequestSpec } => 'spec' in p);
    const settled = this.http.sendAll(sendable.map((p) => p.spec));
    let k = 0;
    return prepared.map((p) => {
      if ('error' in p) return { ok: false as const, error: p.error };
      const s = settled[k++];
      if (!s.ok) return { ok: false as const, error: s.error };
      try {
        return { ok: true as const, result: this.decodeWrite(op, p.spec, s.json) };
      } catch (error) {
        return { ok: false as const, error: error as Error };
      }
    });
  }

  private writeOne(key: WriteKey, body: unknown, id?: number | string) {
    const [outcome] = this.writeMany(key, [{ body, id }]);
    if (!outcome.ok) throw outcome.error;
    return outcome.result;
  }

  createPlanSubscription(body: unknown): WriteResult {
    return this.writeOne('criarAssinaturaPlano', body) as WriteResult;
  }

  updatePlanSubscription(id: number | string, body: unknown): WriteResult {
    return this.writeOne('atualizarAssinaturaPlano', body, id) as WriteResult;
  }

  createCustomSubscription(body: unknown): WriteResult {
    return this.writeOne('criarAssinaturaPersonalizada', body) as WriteResult;
  }

  updateCustomSubscription(id: number | string, body: unknown): WriteResult {
    return this.writeOne('atualizarAssinaturaPersonalizada', body, id) as WriteResult;
  }

  emitNfse(idFatura: number): EmissionResult {
    return this.writeOne('emitirNfse', { idFatura }) as EmissionResult;
  }
}
