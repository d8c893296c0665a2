/**
 * A small stand-in of the billing service's customer listing for core tests
 * that must not start the sandbox: each API key is one company with its own
 * customers, pages numbered from 0 with totals, and any request can be made
 * to fail (a time-out, a 429, a refused key) to see how the core carries on.
 */
import { intlZone } from '../../src/api/calendar';
import { BillingClient } from '../../src/api/client';
import type { HttpOutcome, HttpRequest, Transport } from '../../src/api/transport';

export const zone = intlZone('America/Sao_Paulo');
export const PAGE_ROWS = 3;

export interface Asked {
  key: string;
  page: number;
  /** The listing's path and its filters as sent. */
  path: string;
  /** The round trip (1, 2, …) that carried it. */
  trip: number;
  query: URLSearchParams;
}

/** What to answer instead of the page: an outcome, or undefined to serve it. */
export type Fault = (asked: Asked) => HttpOutcome | undefined;

export const timedOut: HttpOutcome = { kind: 'network-error', message: 'Timeout: tempo esgotado', timedOut: true };
export const refused = (status: number, message = 'Chave recusada'): HttpOutcome => ({
  kind: 'response',
  status,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ status: String(status), message: [message], data: [] }),
});

export class FakeService {
  /** Every request, in the order sent; `trips` counts the round trips (one per `fetch`/`fetchAll`). */
  readonly asked: Asked[] = [];
  trips = 0;
  fault: Fault = () => undefined;
  /** Advanced by each round trip, for a clock that moves with the network. */
  onTrip: () => void = () => {};

  constructor(readonly companies: Record<string, Array<Record<string, unknown>>>) {}

  private answer(request: HttpRequest): HttpOutcome {
    const url = new URL(request.url);
    const key = request.headers['x-api-key'];
    const page = Number(url.searchParams.get('page') ?? url.searchParams.get('pagina') ?? 0);
    const asked = { key, page, path: url.pathname, query: url.searchParams, trip: this.trips };
    this.asked.push(asked);
    return this.fault(asked) ?? this.page(key, page);
  }

  /** What the service answers for one page of a company's customers. */
  page(key: string, page: number): HttpOutcome {
    const records = this.companies[key];
    if (!records) return refused(401);
    const totalPages = Math.max(1, Math.ceil(records.length / PAGE_ROWS));
    return {
      kind: 'response',
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        status: '200',
        message: [],
        data: records.slice(page * PAGE_ROWS, (page + 1) * PAGE_ROWS),
        paging: { page, totalRows: records.length, totalPages, itemsPerPage: PAGE_ROWS },
      }),
    };
  }

  readonly transport: Transport = {
    fetch: (request) => {
      this.trips++;
      this.onTrip();
      return this.answer(request);
    },
    fetchAll: (requests) => {
      this.trips++;
      this.onTrip();
      return requests.map((r) => this.answer(r));
    },
  };

  /** A client of one company; `retries`: how often a failed page is tried again (none by default). */
  client(apiKey: string, now: () => number = Date.now, retries = 0): BillingClient {
    return new BillingClient({
      baseUrl: 'https://api.test/',
      apiKey,
      transport: this.transport,
      sleep: () => {},
      random: () => 0.5,
      retry: { retries },
      zone,
      now,
    });
  }
}

/** `n` invoices of one company, ids from `from` (the listing of incremental runs). */
export const invoices = (from: number, n: number): Array<Record<string, unknown>> => Array.from({ length: n }, (_, i) => ({ idFatura: from + i }));

/** `n` customers of one company, ids from `from`. */
export const customers = (from: number, n: number, name = 'Cliente'): Array<Record<string, unknown>> =>
  Array.from({ length: n }, (_, i) => ({ idCliente: from + i, razaoSocial: `${name} ${from + i}` }));
