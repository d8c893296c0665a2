/**
 * UrlFetchApp over real synchronous HTTP. Failures look like Apps Script's:
 * status >= 400 throws unless muteHttpExceptions, a network failure throws
 * "Address unavailable"/"Timeout", and one failed request fails a whole fetchAll.
 *
 * Like Apps Script it takes no time-out option: a server that does not answer
 * costs URL_FETCH_DEADLINE_MS of virtual time whatever the caller wanted
 * (the emulator only waits `realWaitMs` of real time to find that out).
 * fetchAll sends at most `concurrency` requests at once, group after group.
 */
import type { HttpOutcome, HttpRequest, Transport } from '../../src/api/transport';
import { allowed } from './allow-list';
import { BlobImpl, toSignedBytes } from './blob';
import { URL_FETCH_DEADLINE_MS } from './clock';
import type { Execution } from './execution';
import { GasObject } from './instrument';
import { isPlainObject } from './realm';

type GResponse = GoogleAppsScript.URL_Fetch.HTTPResponse;
type GOptions = GoogleAppsScript.URL_Fetch.URLFetchRequestOptions;
type GRequest = GoogleAppsScript.URL_Fetch.URLFetchRequest;

export const MAX_URL_LENGTH = 2082;
export const USER_AGENT = 'Mozilla/5.0 (compatible; Google-Apps-Script)';

export interface UrlFetchQuota {
  /** Called once per request; throws when the daily quota is spent. */
  request(): void;
}

export interface UrlFetchConfig {
  transport: Transport;
  /** Real time the emulator waits for a server before calling it a hang (charged as URL_FETCH_DEADLINE_MS). */
  realWaitMs: number;
  /** Requests of one fetchAll in flight at once. */
  concurrency: number;
  /** Virtual latency of each round trip on top of urlFetchCallMs: a fixed part and a random jitter. */
  latency: { ms: number; jitterMs: number; random: () => number };
  quota: UrlFetchQuota;
  /** Prefixes the manifest allows (urlFetchWhitelist), or null to allow any URL. */
  whitelist: string[] | null;
}

class HttpResponseImpl
  extends GasObject
  implements Pick<GResponse, 'getAllHeaders' | 'getBlob' | 'getContent' | 'getContentText' | 'getHeaders' | 'getResponseCode'>
{
  readonly gasName = 'HTTPResponse';
  constructor(
    private readonly res: Extract<HttpOutcome, { kind: 'response' }>,
    private readonly exec: Execution,
  ) {
    super();
  }
  getResponseCode(): number {
    return this.res.status;
  }
  getContentText(_charset?: string): string {
    return this.res.body;
  }
  getContent(): GoogleAppsScript.Byte[] {
    return toSignedBytes(Buffer.from(this.res.body, 'utf8'), this.exec.realm);
  }
  getHeaders(): object {
    const out = this.exec.realm.object();
    for (const [k, v] of Object.entries(this.res.headers)) out[k] = v;
    return out;
  }
  getAllHeaders(): object {
    return this.getHeaders();
  }
  getBlob(): GoogleAppsScript.Base.Blob {
    return new BlobImpl(
      Buffer.from(this.res.body, 'utf8'),
      this.res.headers['content-type'] ?? null,
      null,
      this.exec.realm,
    ) as unknown as GoogleAppsScript.Base.Blob;
  }
}

interface Prepared {
  request: HttpRequest;
  mute: boolean;
}

function formEncode(obj: Record<string, unknown>): string {
  return Object.entries(obj)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
    .join('&');
}

export class UrlFetchAppImpl extends GasObject implements Pick<GoogleAppsScript.URL_Fetch.UrlFetchApp, 'fetch' | 'fetchAll' | 'getRequest'> {
  readonly gasName = 'UrlFetchApp';
  constructor(
    private readonly config: UrlFetchConfig,
    private readonly exec: Execution,
  ) {
    super();
  }

  private prepare(url: string, params: GOptions = {}): Prepared {
    if (typeof url !== 'string' || !/^https?:\/\//i.test(url)) throw this.exec.error(`Invalid argument: ${String(url)}`);
    if (url.length > MAX_URL_LENGTH) throw this.exec.error('Limit Exceeded: URLFetch URL Length.');
    if (this.config.whitelist && !allowed(url, this.config.whitelist)) {
      throw this.exec.error(`UrlFetchApp.fetch: ${url} is not in the urlFetchWhitelist of the manifest.`);
    }
    const method = String(params.method ?? 'get').toUpperCase();
    const headers: Record<string, string> = { 'User-Agent': USER_AGENT };
    for (const [k, v] of Object.entries(params.headers ?? {})) headers[k] = String(v);
    let body: string | undefined;
    const payload = params.payload as unknown;
    if (payload !== undefined && payload !== null) {
      if (typeof payload === 'string') body = payload;
      else if (isPlainObject(payload)) body = formEncode(payload);
      else if (Array.isArray(payload)) body = Buffer.from(payload.map((b: number) => b & 255)).toString('utf8');
      else body = String(payload);
      if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
        headers['Content-Type'] = params.contentType ?? 'application/x-www-form-urlencoded';
      }
    }
    if (params.contentType) headers['Content-Type'] = params.contentType;
    return {
      request: { method: method as HttpRequest['method'], url, headers, body, timeoutMs: this.config.realWaitMs },
      mute: params.muteHttpExceptions === true,
    };
  }

  private settle(p: Prepared, outcome: HttpOutcome): HttpResponseImpl {
    if (outcome.kind === 'network-error') {
      throw this.exec.error(outcome.timedOut ? `Timeout: ${p.request.url}` : `Address unavailable: ${p.request.url}`);
    }
    if (outcome.status >= 400 && !p.mute) {
      const truncated = outcome.body.length > 200 ? `${outcome.body.slice(0, 200)}...` : outcome.body;
      throw this.exec.error(
        `Request failed for ${p.request.url.split('?')[0]} returned code ${outcome.status}. Truncated server response: ${truncated} (use muteHttpExceptions option to examine full response)`,
      );
    }
    return new HttpResponseImpl(outcome, this.exec);
  }

  private send(prepared: Prepared[]): HttpOutcome[] {
    for (let i = 0; i < prepared.length; i++) this.config.quota.request();
    this.exec.counters.urlFetchRequests += prepared.length;
    this.exec.counters.urlFetchWaves += 1;
    const outcomes: HttpOutcome[] = [];
    const size = Math.max(1, this.config.concurrency);
    for (let i = 0; i < prepared.length; i += size) {
      const requests = prepared.slice(i, i + size).map((p) => p.request);
      const began = performance.now();
      const group = requests.length === 1 ? [this.config.transport.fetch(requests[0])] : this.config.transport.fetchAll(requests);
      const { ms, jitterMs, random } = this.config.latency;
      this.exec.clock.advance(this.exec.costs.urlFetchCallMs + ms + random() * jitterMs);
      if (group.some((o) => o.kind === 'network-error' && o.timedOut)) {
        // The group lasted as long as its slowest request: a hang, 60 s, of which the clock may already count the real wait.
        const counted = this.exec.clock.options.countRealTime ? performance.now() - began : 0;
        this.exec.clock.advance(URL_FETCH_DEADLINE_MS - counted);
      }
      outcomes.push(...group);
    }
    return outcomes;
  }

  fetch(url: string, params?: GOptions): GResponse {
    const p = this.prepare(url, params);
    return this.settle(p, this.send([p])[0]) as unknown as GResponse;
  }

  fetchAll(requests: Array<GRequest | string>): GResponse[] {
    const prepared = Array.from(requests, (r) => (typeof r === 'string' ? this.prepare(r) : this.prepare(r.url, r)));
    const outcomes = this.send(prepared);
    return this.exec.realm.array(prepared.map((p, i) => this.settle(p, outcomes[i]))) as unknown as GResponse[];
  }

  getRequest(url: string, params?: GOptions): GRequest {
    const p = this.prepare(url, params);
    const out = this.exec.realm.object() as unknown as GRequest;
    Object.assign(out, { url, method: p.request.method.toLowerCase(), headers: this.exec.realm.toContext(p.request.headers), payload: p.request.body });
    return out;
  }
}
