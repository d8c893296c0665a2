/**
 * The HTTP client's edges: what goes on the wire, how each answer settles, and
 * when a retry is (not) worth the execution's time.
 */
import { describe, expect, it } from 'vitest';
import { NetworkError, ServerError, UnexpectedResponseError } from '../../src/api/errors';
import { encodeQuery, envelopeMessages, HttpClient, parseRetryAfter, WORST_ROUND_TRIP_MS } from '../../src/api/http';
import { client, json } from './scripted';

describe('HttpClient requests', () => {
  it('asks for JSON with the key, no body header on a GET, the default 30 s time-out, and an encoded query', () => {
    const { http, sent } = client([json(200, {})], { baseUrl: 'https://api.test///' });
    http.request({
      method: 'GET',
      path: '/v2/clientes',
      query: [
        ['nome', 'Ana & Cia'],
        ['pagina', '2'],
      ],
    });
    expect(sent[0]).toEqual({
      method: 'GET',
      url: 'https://api.test/v2/clientes?nome=Ana%20%26%20Cia&pagina=2',
      headers: { 'x-api-key': 'secret-key-123', Accept: 'application/json' },
      timeoutMs: 30_000,
    });
  });

  it('uses the configured time-out and sends no query mark for an empty query', () => {
    const { http, sent } = client([json(200, {})], { timeoutMs: 5000 });
    http.request({ method: 'GET', path: '/v2/x', query: [] });
    expect(sent[0].url).toBe('https://api.test/v2/x');
    expect(sent[0].timeoutMs).toBe(5000);
    expect(encodeQuery(undefined)).toBe('');
  });

  it('counts requests, waves and retries', () => {
    const { http } = client([json(503, {}), json(200, {})]);
    http.request({ method: 'GET', path: '/v2/x' });
    expect(http.stats).toEqual({ requests: 2, waves: 2, retries: 1 });
  });

  it('sends a batch in one fetchAll and retries only the failed ones', () => {
    const { http, sent } = client([json(200, { a: 1 }), json(503, {}), json(200, { b: 2 })]);
    const settled = http.sendAll([
      { method: 'GET', path: '/a' },
      { method: 'GET', path: '/b' },
    ]);
    expect(settled.map((s) => s.ok && s.json)).toEqual([{ a: 1 }, { b: 2 }]);
    expect(sent.map((r) => r.url)).toEqual(['https://api.test/a', 'https://api.test/b', 'https://api.test/b']);
    expect(http.stats).toEqual({ requests: 3, waves: 2, retries: 1 });
  });

  it('sends a single request with fetch and nothing at all for no requests', () => {
    const calls: string[] = [];
    const transport = {
      fetch() {
        calls.push('fetch');
        return json(200, {});
      },
      fetchAll(reqs: unknown[]) {
        calls.push(`fetchAll ${reqs.length}`);
        return reqs.map(() => json(200, {}));
      },
    };
    const http = new HttpClient({ baseUrl: 'https://api.test', apiKey: 'k', transport, sleep: () => {} });
    http.send({ method: 'GET', path: '/a' });
    http.sendAll([]);
    http.sendAll([
      { method: 'GET', path: '/a' },
      { method: 'GET', path: '/b' },
    ]);
    expect(calls).toEqual(['fetch', 'fetchAll 2']);
  });

  it('request throws the typed error of a failure', () => {
    const { http } = client([json(400, { message: 'não' })]);
    expect(() => http.request({ method: 'GET', path: '/v2/x' })).toThrow('O serviço recusou o pedido: não (GET /v2/x, HTTP 400)');
  });

  it('sends nothing for no requests', () => {
    const { http, sent } = client([]);
    expect(http.sendAll([])).toEqual([]);
    expect(HttpClient.sendAcross([])).toEqual([]);
    expect(sent).toEqual([]);
  });
});

describe('settling answers', () => {
  const settleOne = (answer: Parameters<typeof client>[0][number]) => {
    const { http } = client([answer], { retry: { retries: 0 } });
    return http.send({ method: 'GET', path: '/v2/x' });
  };

  it('a 2xx is JSON, whatever its status', () => {
    expect(settleOne(json(201, { id: 1 }))).toEqual({ ok: true, status: 201, json: { id: 1 } });
    expect(settleOne(json(299, [1]))).toEqual({ ok: true, status: 299, json: [1] });
  });

  it('a 2xx without JSON names its content type, or says it had none', () => {
    const untyped = settleOne({ kind: 'response', status: 204, headers: {}, body: '' });
    expect(!untyped.ok && untyped.error.message).toContain('o serviço não respondeu em JSON (sem tipo)');
    const typed = settleOne({ kind: 'response', status: 200, headers: { 'Content-Type': 'text/plain;charset=x' }, body: 'oi' });
    expect(!typed.ok && typed.error.message).toContain('o serviço não respondeu em JSON (text/plain)');
  });

  it('a 404 that is not JSON is a wrong address, and an unknown status is named', () => {
    const page = settleOne({ kind: 'response', status: 404, headers: { 'content-type': 'text/html' }, body: '<h1>' });
    expect(!page.ok && page.error).toBeInstanceOf(UnexpectedResponseError);
    expect(!page.ok && page.error.message).toBe('Resposta inesperada: endereço não encontrado (404). Confira o endereço base da conexão (GET /v2/x, HTTP 404)');
    for (const status of [300, 302, 199, 418]) {
      const odd = settleOne(json(status, {}));
      expect(!odd.ok && odd.error.message).toBe(
        `Resposta inesperada: código HTTP ${status} inesperado. Confira o endereço base da conexão (GET /v2/x, HTTP ${status})`,
      );
    }
  });

  it('a 5xx outside the retried statuses is still a server error, with no messages when it is not JSON', () => {
    const error = settleOne(json(507, {}));
    expect(!error.ok && error.error).toBeInstanceOf(ServerError);
    const page = settleOne({ kind: 'response', status: 502, headers: {}, body: 'Bad Gateway' });
    expect(!page.ok && (page.error as ServerError).messages).toEqual([]);
    expect(!page.ok && page.error.message).toBe('Erro no serviço de faturamento (GET /v2/x, HTTP 502)');
  });

  it('collects the messages of every envelope, trimmed, once each, texts only', () => {
    expect(envelopeMessages({ message: ' a ', errors: [' b ', ' ', 3, 'a'], mensagem: 'c', erros: ['d'], outro: 'x' })).toEqual(['a', 'b', 'c', 'd']);
    expect(envelopeMessages({ message: '   ' })).toEqual([]);
    expect(envelopeMessages('texto')).toEqual([]);
    expect(envelopeMessages(null)).toEqual([]);
  });

  it('reads Retry-After as seconds or as a date, and ignores what is neither', () => {
    expect(parseRetryAfter(' 1.5 ', 0)).toBe(1500);
    expect(parseRetryAfter('0', 0)).toBe(0);
    expect(parseRetryAfter('1.25', 0)).toBe(1250);
    expect(parseRetryAfter('x5', 0)).toBeUndefined();
    expect(parseRetryAfter('5 segundos', 0)).toBeUndefined();
    const now = Date.parse('2026-11-22T10:00:00Z');
    expect(parseRetryAfter('Sun, 22 Nov 2026 10:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Sun, 22 Nov 2026 09:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('logo', now)).toBeUndefined();
    expect(parseRetryAfter('', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
});

describe('retries', () => {
  it('a time-out is tried once more, not four times', () => {
    const timeout = { kind: 'network-error' as const, message: 'timeout', timedOut: true };
    const { http, sent, sleeps } = client([timeout, timeout, json(200, {})]);
    const outcome = http.send({ method: 'GET', path: '/v2/x' });
    expect(!outcome.ok && outcome.error).toBeInstanceOf(NetworkError);
    expect(sent).toHaveLength(2);
    expect(sleeps).toEqual([375]);
  });

  it('does not retry a status outside the policy, nor past the policy count', () => {
    const refused = client([json(400, {}), json(200, {})]);
    expect(refused.http.send({ method: 'GET', path: '/v2/x' }).ok).toBe(false);
    expect(refused.sent).toHaveLength(1);
    const once = client([json(503, {}), json(503, {}), json(200, {})], { retry: { retries: 1 } });
    expect(once.http.send({ method: 'GET', path: '/v2/x' }).ok).toBe(false);
    expect(once.sent).toHaveLength(2);
  });

  it('caps the back-off at the policy maximum and spreads it with the random draw', () => {
    const answers = [json(503, {}), json(503, {}), json(200, {})];
    const { http, sleeps } = client(answers, { random: () => 1, retry: { baseDelayMs: 1000, maxDelayMs: 1500 } });
    expect(http.send({ method: 'GET', path: '/v2/x' }).ok).toBe(true);
    expect(sleeps).toEqual([1000, 1500]);
    const low = client([json(503, {}), json(200, {})], { random: () => 0 });
    low.http.send({ method: 'GET', path: '/v2/x' });
    expect(low.sleeps).toEqual([250]);
  });

  it('waits a Retry-After equal to the policy maximum, and a 429 without one backs off', () => {
    const edge = client([json(429, {}, { 'retry-after': '60' }), json(200, {})]);
    expect(edge.http.send({ method: 'GET', path: '/v2/x' }).ok).toBe(true);
    expect(edge.sleeps).toEqual([60_000]);
    const bare = client([json(429, {}), json(200, {})]);
    expect(bare.http.send({ method: 'POST', path: '/v2/x' }).ok).toBe(true);
    expect(bare.sleeps).toEqual([375]);
  });

  it('a retry is sent only if its wait and a worst-case round trip end before the deadline', () => {
    const fits = client([json(503, {}), json(200, {})], { now: () => 1000, deadline: 1000 + 375 + WORST_ROUND_TRIP_MS });
    expect(fits.http.send({ method: 'GET', path: '/v2/x' }).ok).toBe(true);
    const late = client([json(503, {}), json(200, {})], { now: () => 1001, deadline: 1000 + 375 + WORST_ROUND_TRIP_MS });
    expect(late.http.send({ method: 'GET', path: '/v2/x' }).ok).toBe(false);
    expect(late.sent).toHaveLength(1);
  });

  it('waits once per wave, for the longest of the waits asked', () => {
    const { http, sleeps } = client([json(429, {}, { 'retry-after': '2' }), json(429, {}, { 'retry-after': '5' }), json(200, {}), json(200, {})]);
    http.sendAll([
      { method: 'GET', path: '/a' },
      { method: 'GET', path: '/b' },
    ]);
    expect(sleeps).toEqual([5000]);
  });

  it('does not sleep for a zero wait', () => {
    const { http, sleeps, sent } = client([json(429, {}, { 'retry-after': '0' }), json(200, {})]);
    expect(http.send({ method: 'GET', path: '/v2/x' }).ok).toBe(true);
    expect(sleeps).toEqual([]);
    expect(sent).toHaveLength(2);
  });
});
