/** A scripted billing service for the bulk core's unit tests: each request gets the answer a function gives, and is logged. */
import { BillingClient } from '../../../src/api/client';
import type { HttpOutcome, HttpRequest, Transport } from '../../../src/api/transport';
import { zone } from './fixtures';

export const json = (status: number, body: unknown): HttpOutcome => ({
  kind: 'response',
  status,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

export const listOf = (data: unknown[]) => json(200, { data, paging: { page: 0, totalPages: 1, totalRows: data.length, itemsPerPage: 100 }, message: [] });

export function scripted(answer: (req: HttpRequest, url: URL) => HttpOutcome): { client: BillingClient; log: string[]; waves: number[] } {
  const log: string[] = [];
  const waves: number[] = [];
  const one = (req: HttpRequest) => {
    const url = new URL(req.url);
    log.push(`${req.method} ${url.pathname}${url.search}`);
    return answer(req, url);
  };
  const transport: Transport = {
    fetch: one,
    fetchAll: (reqs) => {
      waves.push(reqs.length);
      return reqs.map(one);
    },
  };
  // No retries of its own: each scripted answer is what the bulk core sees.
  const client = new BillingClient({ baseUrl: 'https://api.exemplo.com.br', apiKey: 'k', transport, sleep: () => {}, zone, retry: { retries: 0 } });
  return { client, log, waves };
}
