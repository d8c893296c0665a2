/** The billing client's transport over UrlFetchApp. */
import type { HttpOutcome, HttpRequest, Transport } from '../api/transport';
import { redact } from '../core/trust/redact';
import { countFetches } from './fetch-count';

function toParams(req: HttpRequest): GoogleAppsScript.URL_Fetch.URLFetchRequest {
  const params: GoogleAppsScript.URL_Fetch.URLFetchRequest = {
    url: req.url,
    method: req.method.toLowerCase() as GoogleAppsScript.URL_Fetch.HttpMethod,
    headers: { ...req.headers },
    // 4xx/5xx come back as responses so the client can type them.
    muteHttpExceptions: true,
    followRedirects: true,
  };
  if (req.body !== undefined) {
    params.payload = req.body;
    params.contentType = 'application/json';
  }
  return params;
}

function toOutcome(res: GoogleAppsScript.URL_Fetch.HTTPResponse): HttpOutcome {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.getHeaders() as Record<string, unknown>)) headers[k.toLowerCase()] = String(v);
  return { kind: 'response', status: res.getResponseCode(), headers, body: res.getContentText() };
}

function networkError(err: unknown): HttpOutcome {
  const message = err instanceof Error ? err.message : String(err);
  return { kind: 'network-error', message, timedOut: /timeout|tempo/i.test(message) };
}

export const urlFetchTransport: Transport = {
  fetch(req) {
    countFetches(1);
    try {
      return toOutcome(UrlFetchApp.fetch(req.url, toParams(req)));
    } catch (err) {
      return networkError(err);
    }
  },
  fetchAll(reqs) {
    countFetches(reqs.length);
    try {
      return UrlFetchApp.fetchAll(reqs.map(toParams)).map(toOutcome);
    } catch (err) {
      // fetchAll fails whole when one request has no answer, and the others may
      // have been applied. Nothing is resent here: one by one, a wave that hung
      // would cost a minute per request. Every request is reported as of unknown
      // outcome; the client retries the reads as a wave, if its deadline
      // allows, and a write (POST or PUT) is looked up before it is repeated.
      return reqs.map(() => networkError(err));
    }
  },
};

/** The transport with every response and network error scrubbed of the user's keys (see core/trust/redact.ts). */
export function scrubbingTransport(inner: Transport, secrets: readonly string[]): Transport {
  const clean = (o: HttpOutcome): HttpOutcome => {
    if (o.kind === 'network-error') return { ...o, message: redact(o.message, secrets) };
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(o.headers)) headers[k] = redact(v, secrets);
    return { ...o, headers, body: redact(o.body, secrets) };
  };
  return {
    fetch: (req) => clean(inner.fetch(req)),
    fetchAll: (reqs) => inner.fetchAll(reqs).map(clean),
  };
}
