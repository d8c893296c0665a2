/**
 * The typed billing client: every operation of the table, with filters
 * formatted as the spec says, all pages walked, bodies validated before they
 * are sent and responses decoded into checked records.
 */
import type { Zone } from './calendar';
import { type ApiRecord, type DecodedList, decodeEmission, decodeList, decodeSubscription } from './envelopes';
import { ValidationError } from './errors';
import { formatFilters, type FilterValues } from './filters';
import { HttpClient, type HttpConfig, type RequestSpec, type Settled } from './http';
import { type ListingFilters, type ListingKey, type ListingRecord, type ListOperation, listing } from './operations';
import { type PageFetcher, Pager, type PagerOptions, type PageResult, type PagerState } from './paging';
import * as records from './records';
import {
  checkBody,
  type EmissionResult,
  isChecked,
  type SubscriptionResult,
  type WriteBody,
  type WriteKey,
  type WriteOperation,
  type WriteResultOf,
  write,
} from './writes';

export type { EmissionResult, SubscriptionResult };

export interface ClientConfig extends HttpConfig {
  /** Time zone that Date filter values are read in (the spreadsheet's). */
  zone: Zone;
  /** Time zone the service reads date-times in (America/Sao_Paulo unless the connection says otherwise); default `zone`. */
  serviceZone?: Zone;
  /** Pages fetched at once when the totals are known. */
  concurrency?: number;
  /** Requested page size where the listing accepts one (transactions). */
  pageSize?: number;
}

export interface ListResult<R> {
  records: R[];
  warnings: string[];
  pages: number;
}

export type WriteOutcome<K extends WriteKey> = { ok: true; result: WriteResultOf<K> } | { ok: false; error: Error };

/** What one lookup found on the first page of its listing, or why it failed (the request's error, or a SchemaError reading it). */
export type Lookup<R extends ApiRecord = ApiRecord> = { ok: true; records: R[] } | { ok: false; error: Error };

export interface PagerRequest {
  state?: PagerState;
  base?: 0 | 1;
  maxPages?: number;
  firstPages?: number;
}

export class BillingClient {
  readonly http: HttpClient;

  constructor(private readonly config: ClientConfig) {
    this.http = new HttpClient(config);
  }

  get stats() {
    return this.http.stats;
  }

  /**
   * A client of the same connection whose requests give up retrying where a
   * retry could not end by `limit` (epoch ms; undefined: no limit), so a
   * hanging service or a long Retry-After hands its error back instead of
   * running past the execution. The client it is asked of keeps its own
   * limit, shared by every caller of the connection: send through the one
   * returned.
   */
  withLimit(limit: number | undefined): BillingClient {
    return new BillingClient({ ...this.config, deadline: limit });
  }

  /**
   * One lookup per filter set, all in one concurrent wave: the first page of
   * the listing is enough to know what exists. Each settles on its own.
   */
  lookupEach<K extends ListingKey>(key: K, each: ReadonlyArray<ListingFilters<K> | FilterValues>): Array<Lookup<ListingRecord<K>>> {
    if (each.length === 0) return [];
    const op = listing(key);
    const info = { method: 'GET', path: op.path };
    const specs: RequestSpec[] = each.map((filters) => ({ method: 'GET', path: op.path, query: this.listQuery(op, filters as FilterValues) }));
    return this.http.sendAll(specs).map((settled): Lookup<ListingRecord<K>> => {
      if (!settled.ok) return settled;
      try {
        const decoded = decodeList(info, `${op.method} ${op.path}`, op.record, op.idField, settled.json, op.envelope === 'flexible');
        return { ok: true, records: decoded.records as ListingRecord<K>[] };
      } catch (error) {
        return { ok: false, error: error as Error };
      }
    });
  }

  /** The query of one page of a listing; exposed so tests and forms can show what goes on the wire. */
  listQuery(op: ListOperation, filters: FilterValues, page?: number): Array<[string, string]> {
    const query = formatFilters(op.label, op.filters, filters, this.config.zone, this.config.serviceZone);
    if (op.pageSizeParam && this.config.pageSize) query.push([op.pageSizeParam, String(this.config.pageSize)]);
    if (page !== undefined) query.push([op.pageParam, String(page)]);
    return query;
  }

  pager<K extends ListingKey>(key: K, filters: ListingFilters<K> | FilterValues, request: PagerRequest = {}): Pager<ListingRecord<K>> {
    return this.walk(key, filters, request).pager;
  }

  /** One page of a listing alone, decoded as a walk's wave would decode it, or why it failed. */
  listPage<K extends ListingKey>(key: K, filters: ListingFilters<K> | FilterValues, page: number): ReturnType<PageFetcher<ListingRecord<K>>>[number] {
    const walk = this.walk(key, filters);
    return walk.decode(this.http.sendAll(walk.specs([page])))[0];
  }

  /** A listing's walk: its pager, and the requests and decoding of its pages for waves shared with other walks (`waveAcross`). */
  walk<K extends ListingKey>(key: K, filters: ListingFilters<K> | FilterValues, request: PagerRequest = {}): Walk<ListingRecord<K>> {
    const op = listing(key);
    // Formatted once: bad filters are refused before the first request, and every page reuses the query.
    const query = this.listQuery(op, filters as FilterValues);
    const options: PagerOptions = {
      concurrency: Math.max(1, this.config.concurrency ?? 10),
      idField: op.idField,
      state: request.state,
      base: request.base,
      maxPages: request.maxPages,
      firstPages: request.firstPages,
    };
    const specs = (pages: number[]): RequestSpec[] =>
      pages.map((page) => ({ method: 'GET', path: op.path, query: [...query, [op.pageParam, String(page)] as [string, string]] }));
    const decode = (settled: Settled[]) =>
      settled.map((one) => {
        if (!one.ok) return one;
        const info = { method: 'GET', path: op.path };
        // The table's record for K: the decoded list carries K's record type.
        return {
          ok: true as const,
          list: decodeList(info, `${op.method} ${op.path}`, op.record, op.idField, one.json, op.envelope === 'flexible') as DecodedList<ListingRecord<K>>,
        };
      });
    // The pager sends through the walk's client, which a caller may swap for one with a limit between waves.
    const walk: Walk<ListingRecord<K>> = { client: this, pager: new Pager((pages) => decode(walk.client.http.sendAll(specs(pages))), options), specs, decode };
    return walk;
  }

  /** Every record of a listing, all pages. */
  listAll<K extends ListingKey>(key: K, filters: ListingFilters<K> | FilterValues = {}, request: PagerRequest = {}): ListResult<ListingRecord<K>> {
    const pager = this.pager(key, filters, request);
    const out: ListingRecord<K>[] = [];
    let pages = 0;
    while (!pager.done) {
      for (const page of pager.nextWave()) {
        pages++;
        for (const r of page.records) out.push(r);
      }
    }
    return { records: out, warnings: pager.warnings, pages };
  }

  /** Checks a body against the operation's table entry; the issues name each field. */
  validateBody<K extends WriteKey>(op: WriteOperation & { key: K }, body: unknown): WriteBody<K> {
    if (isChecked(body)) return body as WriteBody<K>;
    const checked = checkBody(op.key, body);
    if (!checked.ok) throw new ValidationError(op.label, checked.issues);
    return checked.body as WriteBody<K>;
  }

  private writeSpec(op: WriteOperation, body: unknown, id?: number | string): RequestSpec {
    const data = this.validateBody(op, body);
    let path = op.path;
    if (path.includes('{id}')) {
      if (id === undefined || id === null || String(id).trim() === '')
        throw new ValidationError(op.label, [{ field: 'id', message: 'informe o ID da assinatura' }]);
      path = path.replace('{id}', encodeURIComponent(String(id).trim()));
    }
    return { method: op.method, path, body: data };
  }

  private decodeWrite<K extends WriteKey>(op: WriteOperation & { key: K }, spec: RequestSpec, json: unknown): WriteResultOf<K> {
    const info = { method: spec.method, path: spec.path };
    const name = `${op.method} ${op.path}`;
    const result: EmissionResult | SubscriptionResult =
      op.response === 'emission'
        ? decodeEmission(info, name, records.nfse(), json)
        : (({ record, messages }) => ({ record, messages }))(decodeSubscription(info, name, records.subscription(), json));
    // The table's response shape for K decides which of the two it is.
    return result as WriteResultOf<K>;
  }

  /**
   * Sends several writes of one operation concurrently. Each item settles on its
   * own: a failed row never hides its neighbours' outcomes.
   */
  writeMany<K extends WriteKey>(key: K, items: ReadonlyArray<{ body: unknown; id?: number | string }>): Array<WriteOutcome<K>> {
    const op = write(key) as WriteOperation & { key: K };
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
    return prepared.map((p): WriteOutcome<K> => {
      if ('error' in p) return { ok: false, error: p.error };
      const s = settled[k++];
      if (!s.ok) return { ok: false, error: s.error };
      try {
        return { ok: true, result: this.decodeWrite(op, p.spec, s.json) };
      } catch (error) {
        return { ok: false, error: error as Error };
      }
    });
  }

  private writeOne<K extends WriteKey>(key: K, body: unknown, id?: number | string): WriteResultOf<K> {
    const [outcome] = this.writeMany(key, [{ body, id }]);
    if (!outcome.ok) throw outcome.error;
    return outcome.result;
  }

  createPlanSubscription(body: unknown): SubscriptionResult {
    return this.writeOne('criarAssinaturaPlano', body);
  }

  updatePlanSubscription(id: number | string, body: unknown): SubscriptionResult {
    return this.writeOne('atualizarAssinaturaPlano', body, id);
  }

  createCustomSubscription(body: unknown): SubscriptionResult {
    return this.writeOne('criarAssinaturaPersonalizada', body);
  }

  updateCustomSubscription(id: number | string, body: unknown): SubscriptionResult {
    return this.writeOne('atualizarAssinaturaPersonalizada', body, id);
  }

  emitNfse(idFatura: number): EmissionResult {
    return this.writeOne('emitirNfse', { idFatura });
  }
}

/** One listing walked by one client (a company's connection). */
export interface Walk<R extends ApiRecord = ApiRecord> {
  /** What its pages go through: the client it was made by, or one derived from it with a limit (`withLimit`). */
  client: BillingClient;
  pager: Pager<R>;
  specs(pages: number[]): RequestSpec[];
  decode(settled: Settled[]): ReturnType<PageFetcher<R>>;
}

export type WaveOutcome<R extends ApiRecord = ApiRecord> = { ok: true; pages: PageResult<R>[] } | { ok: false; error: unknown };

/**
 * The next wave of several walks in shared round trips (one `fetchAll` for all
 * of them), each walk asking at most its `max` pages. A walk's failure is its
 * own: the others' pages are taken all the same.
 */
export function waveAcross<R extends ApiRecord>(walks: ReadonlyArray<{ walk: Walk<R>; max: number }>): WaveOutcome<R>[] {
  const plans = walks.map(({ walk, max }) => walk.pager.planWave(max));
  const asking = walks.flatMap(({ walk }, i) => (plans[i].length ? [{ i, walk, specs: walk.specs(plans[i]) }] : []));
  const settled = asking.length ? HttpClient.sendAcross(asking.map((a) => ({ http: a.walk.client.http, specs: a.specs }))) : [];
  const answers = new Map(asking.map((a, n) => [a.i, settled[n]]));
  return walks.map(({ walk }, i): WaveOutcome<R> => {
    try {
      return { ok: true, pages: walk.pager.takeWave(plans[i], walk.decode(answers.get(i) ?? [])) };
    } catch (error) {
      return { ok: false, error };
    }
  });
}
