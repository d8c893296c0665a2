/**
 * Sends requests through the injected transport and turns outcomes into JSON or
 * typed errors. Retries are declarative (which statuses, how many, how long) and
 * only for calls that are safe to repeat: reads; a write (POST or PUT) only
 * after a 429, which tells us it was not processed.
 */
import {
  BadRequestError,
  type BillingError,
  NetworkError,
  NotFoundError,
  RateLimitedError,
  type RequestInfo,
  ServerError,
  UnauthorizedError,
  UnexpectedResponseError,
} from './errors';
import type { HttpMethod, HttpOutcome, HttpRequest, Transport } from './transport';

export interface RetryPolicy {
  /** Retries after the first attempt. */
  retries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited for inside one call: the error goes up so a job can reschedule. */
  maxRetryAfterMs: number;
  statuses: readonly number[];
}

export const defaultRetry: RetryPolicy = {
  retries: 4,
  baseDelayMs: 500,
  maxDelayMs: 20_000,
  maxRetryAfterMs: 60_000,
  statuses: [429, 500, 502, 503, 504],
};

/**
 * The longest one round trip can take: Apps Script's UrlFetchApp takes no
 * time-out option and gives up on a silent server after about 60 s. Plans that
 * must end in time count every round trip at this.
 */
export const WORST_ROUND_TRIP_MS = 60_000;

export interface HttpConfig {
  baseUrl: string;
  apiKey: string;
  transport: Transport;
  /** Blocking wait (Utilities.sleep in Apps Script). */
  sleep: (ms: number) => void;
  random?: () => number;
  retry?: Partial<RetryPolicy>;
  timeoutMs?: number;
  /** The clock retries are planned on (default Date.now). */
  now?: () => number;
  /**
   * Epoch ms by which every retry must be able to end: a retry is sent only if
   * its wait plus a worst-case round trip fits, so a hanging service or a long
   * Retry-After sends the error up instead of running past the execution.
   */
  deadline?: number;
}

export interface RequestSpec {
  method: HttpMethod;
  path: string;
  query?: ReadonlyArray<readonly [string, string]>;
  body?: unknown;
}

export type Settled = { ok: true; status: number; json: unknown } | { ok: false; error: BillingError };

export interface HttpStats {
  requests: number;
  /** Round trips on the critical path: a concurrent batch counts once. */
  waves: number;
  retries: number;
}

export function encodeQuery(query: ReadonlyArray<readonly [string, string]> | undefined): string {
  if (!query || query.length === 0) return '';
  return `?${query.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')}`;
}

function header(headers: Record<string, string>, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === wanted) return v;
  return undefined;
}

/** Retry-After as seconds or as an HTTP date. */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

/** Server messages from whichever envelope came back; a body that is no object has none of these fields. */
export function envelopeMessages(json: unknown): string[] {
  const o = (json ?? {}) as Record<string, unknown>;
  const out: string[] = [];
  for (const key of ['message', 'errors', 'mensagem', 'erros']) {
    const v = o[key];
    if (typeof v === 'string' && v.trim()) out.push(v.trim());
    if (Array.isArray(v)) for (const item of v) if (typeof item === 'string' && item.trim()) out.push(item.trim());
  }
  return [...new Set(out)];
}

/** What a body that is not JSON parses to: no parsed value can be a symbol. */
const NOT_JSON = Symbol();

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return NOT_JSON;
  }
}

export function settle(info: RequestInfo, outcome: HttpOutcome, nowMs: number): Settled {
  if (outcome.kind === 'network-error') return { ok: false, error: new NetworkError(info, outcome.message, outcome.timedOut) };
  const { status, body, headers } = outcome;
  const parsed = parseJson(body);
  const isJson = parsed !== NOT_JSON;
  const messages = envelopeMessages(parsed);
  if (status >= 200 && status < 300) {
    if (!isJson) {
      const kind = (header(headers, 'content-type') ?? '').split(';')[0] || 'sem tipo';
      return { ok: false, error: new UnexpectedResponseError(info, status, `o serviço não respondeu em JSON (${kind})`) };
    }
    return { ok: true, status, json: parsed };
  }
  if (status === 401 || status === 403) return { ok: false, error: new UnauthorizedError(info, status) };
  if (status === 400 || status === 422) return { ok: false, error: new BadRequestError(info, messages, status) };
  if (status === 404) {
    if (!isJson) return { ok: false, error: new UnexpectedResponseError(info, 404, 'endereço não encontrado (404)') };
    return { ok: false, error: new NotFoundError(info, messages) };
  }
  if (status === 429) return { ok: false, error: new RateLimitedError(info, parseRetryAfter(header(headers, 'retry-after'), nowMs)) };
  if (status >= 500) return { ok: false, error: new ServerError(info, status, messages) };
  return { ok: false, error: new UnexpectedResponseError(info, status, `código HTTP ${status} inesperado`) };
}

export class HttpClient {
  readonly stats: HttpStats = { requests: 0, waves: 0, retries: 0 };
  private readonly policy: RetryPolicy;
  private readonly random: () => number;
  private readonly base: string;

  constructor(private readonly config: HttpConfig) {
    this.policy = { ...defaultRetry, ...config.retry };
    this.random = config.random ?? Math.random;
    this.base = config.baseUrl.replace(/\/+$/, '');
  }

  private toRequest(spec: RequestSpec): HttpRequest {
    const headers: Record<string, string> = { 'x-api-key': this.config.apiKey, Accept: 'application/json' };
    const request: HttpRequest = {
      method: spec.method,
      url: `${this.base}${spec.path}${encodeQuery(spec.query)}`,
      headers,
      timeoutMs: this.config.timeoutMs ?? 30_000,
    };
    if (spec.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      request.body = JSON.stringify(spec.body);
    }
    return request;
  }

  /** How long to wait before trying `error` again, or undefined when it must not be retried. */
  private retryDelay(spec: RequestSpec, error: BillingError, attempt: number): number | undefined {
    if (attempt >= this.policy.retries) return undefined;
    // A time-out has already cost a minute of the execution: it is tried once more, not four times.
    if (error instanceof NetworkError && error.timedOut && attempt >= 1) return undefined;
    const rateLimited = error instanceof RateLimitedError;
    const transient = rateLimited || error instanceof NetworkError || this.policy.statuses.some((s) => s === error.status);
    if (!transient) return undefined;
    // A write whose fate is unknown (5xx, dropped, timed out) may have been applied, or be applied late: never repeat it blindly.
    // An update too, since a late PUT repeated could land over a newer one: the caller reads the record back and compares it
    // with what was sent, and sends it again only from a later execution, when the service still holds the values from before.
    if (spec.method !== 'GET' && !rateLimited) return undefined;
    let delay: number;
    if (rateLimited && error.retryAfterMs !== undefined) {
      if (error.retryAfterMs > this.policy.maxRetryAfterMs) return undefined;
      delay = error.retryAfterMs;
    } else {
      const ceiling = Math.min(this.policy.maxDelayMs, this.policy.baseDelayMs * 2 ** attempt);
      delay = Math.round(ceiling / 2 + (this.random() * ceiling) / 2);
    }
    if ((this.config.now ?? Date.now)() + delay + WORST_ROUND_TRIP_MS > (this.config.deadline ?? Infinity)) return undefined;
    return delay;
  }

  /** Sends every request concurrently, then retries the retryable failures in further waves. */
  sendAll(specs: readonly RequestSpec[]): Settled[] {
    return HttpClient.sendAcross([{ http: this, specs }])[0];
  }

  /**
   * Requests of several clients (several companies' connections) in the same
   * round trips: one `fetchAll` per wave whoever they go to, each retried by its
   * own client's rules. The first client's transport carries them all.
   */
  static sendAcross(groups: ReadonlyArray<{ http: HttpClient; specs: readonly RequestSpec[] }>): Settled[][] {
    const results: Settled[][] = groups.map(() => []);
    let pending = groups.flatMap((g, k) => g.specs.map((_, i) => [k, i] as const));
    const transport = groups[0]?.http.config.transport;
    for (let attempt = 0; pending.length > 0 && transport; attempt++) {
      const requests = pending.map(([k, i]) => groups[k].http.toRequest(groups[k].specs[i]));
      const outcomes = requests.length === 1 ? [transport.fetch(requests[0])] : transport.fetchAll(requests);
      for (const g of new Set(pending.map(([k]) => groups[k].http))) g.stats.waves += 1;
      const retry: Array<readonly [number, number]> = [];
      let wait = 0;
      pending.forEach(([k, i], n) => {
        const { http, specs } = groups[k];
        const spec = specs[i];
        http.stats.requests += 1;
        const settled = settle({ method: spec.method, path: spec.path }, outcomes[n], Date.now());
        results[k][i] = settled;
        if (settled.ok) return;
        const delay = http.retryDelay(spec, settled.error, attempt);
        if (delay === undefined) return;
        retry.push([k, i]);
        http.stats.retries += 1;
        wait = Math.max(wait, delay);
      });
      if (wait > 0) groups[0].http.config.sleep(wait);
      pending = retry;
    }
    return results;
  }

  send(spec: RequestSpec): Settled {
    return this.sendAll([spec])[0];
  }

  /** Like send, but throws the typed error. */
  request(spec: RequestSpec): unknown {
    const settled = this.send(spec);
    if (!settled.ok) throw settled.error;
    return settled.json;
  }
}
