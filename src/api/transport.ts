/**
 * The one seam between the billing client and the network. Apps Script's
 * UrlFetchApp and the Node test transport both implement it; everything above it
 * is plain, synchronous TypeScript.
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT';

export interface HttpRequest {
  method: HttpMethod;
  /** Absolute URL, query string included. */
  url: string;
  headers: Record<string, string>;
  /** JSON text for POST/PUT. */
  body?: string;
  /** Per-request time-out; a synchronous call cannot be interrupted otherwise. */
  timeoutMs?: number;
}

export type HttpOutcome =
  | { kind: 'response'; status: number; headers: Record<string, string>; body: string }
  /** No HTTP answer at all: refused, reset, DNS failure, time-out. */
  | { kind: 'network-error'; message: string; timedOut?: boolean };

export interface Transport {
  fetch(request: HttpRequest): HttpOutcome;
  /** Sends the requests concurrently; outcomes come back in request order. */
  fetchAll(requests: HttpRequest[]): HttpOutcome[];
}
