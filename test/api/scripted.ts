/** A scripted transport for the HTTP client's unit tests: answers from a queue, records what was sent. */
import { HttpClient, type HttpConfig } from '../../src/api/http';
import type { HttpOutcome, HttpRequest, Transport } from '../../src/api/transport';

export function scripted(answers: HttpOutcome[]) {
  const sent: HttpRequest[] = [];
  const transport: Transport = {
    fetch(req) {
      sent.push(req);
      const next = answers.shift();
      if (!next) throw new Error('no scripted answer left');
      return next;
    },
    fetchAll(reqs) {
      return reqs.map((r) => transport.fetch(r));
    },
  };
  return { transport, sent };
}

export const json = (status: number, body: unknown, headers: Record<string, string> = {}): HttpOutcome => ({
  kind: 'response',
  status,
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

/** A client over scripted answers that records its sleeps instead of sleeping. */
export function client(answers: HttpOutcome[], config: Partial<HttpConfig> = {}) {
  const { transport, sent } = scripted(answers);
  const sleeps: number[] = [];
  const http = new HttpClient({
    baseUrl: 'https://api.test/',
    apiKey: 'secret-key-123',
    transport,
    sleep: (ms) => sleeps.push(ms),
    random: () => 0.5,
    ...config,
  });
  return { http, sent, sleeps };
}
