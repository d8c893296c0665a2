import { describe, expect, it } from 'vitest';
import { NetworkError, RateLimitedError, ServerError, UnauthorizedError, UnexpectedResponseError } from '../../src/api/errors';
import { client, json } from './scripted';

describe('HttpClient', () => {
  it('sends the key header and JSON body, and joins base URL and path without a double slash', () => {
    const { http, sent } = client([json(200, { ok: true })]);
    http.request({ method: 'POST', path: '/v2/x', body: { a: 1 } });
    expect(sent[0].url).toBe('https://api.test/v2/x');
    expect(sent[0].headers['x-api-key']).toBe('secret-key-123');
    expect(sent[0].headers['Content-Type']).toBe('application/json');
    expect(sent[0].body).toBe('{"a":1}');
  });

  it('honours Retry-After on 429 for a GET', () => {
    const { http, sleeps, sent } = client([json(429, {}, { 'Retry-After': '7' }), json(200, { data: [] })]);
    expect(http.request({ method: 'GET', path: '/v2/clientes' })).toEqual({ data: [] });
    expect(sleeps).toEqual([7000]);
    expect(sent).toHaveLength(2);
  });

  it('backs off exponentially on 5xx and network errors for a GET, then gives up with a typed error', () => {
    const { http, sleeps } = client([
      json(503, {}),
      { kind: 'network-error', message: 'reset' },
      json(500, {}),
      json(502, {}),
      json(500, { status: '500', message: ['falhou'] }),
    ]);
    const outcome = http.send({ method: 'GET', path: '/v2/assinaturascontratos' });
    expect(outcome.ok).toBe(false);
    expect(!outcome.ok && outcome.error).toBeInstanceOf(ServerError);
    expect(sleeps).toEqual([375, 750, 1500, 3000]);
  });

  it('never retries a POST or a PUT whose outcome is unknown (a late PUT repeated could land over a newer one)', () => {
    for (const answer of [json(500, {}), { kind: 'network-error' as const, message: 'socket hang up' }])
      for (const [method, path] of [
        ['POST', '/v2/assinaturascontratos/personalizado'],
        ['PUT', '/v2/assinaturascontratos/plano/1'],
      ] as const) {
        const { http, sent } = client([answer, json(200, {})]);
        const outcome = http.send({ method, path, body: {} });
        expect(outcome.ok).toBe(false);
        expect(sent).toHaveLength(1);
      }
  });

  it('retries a POST after a 429, which says it was not processed', () => {
    const { http, sent } = client([json(429, {}, { 'retry-after': '1' }), json(200, { data: null })]);
    expect(http.send({ method: 'POST', path: '/v2/faturamento/nfse/emitir', body: {} }).ok).toBe(true);
    expect(sent).toHaveLength(2);
  });

  it('does not wait inside a call for a Retry-After longer than the policy allows', () => {
    const { http, sleeps } = client([json(429, {}, { 'retry-after': '3600' })]);
    const outcome = http.send({ method: 'GET', path: '/v2/nfse' });
    expect(!outcome.ok && outcome.error).toBeInstanceOf(RateLimitedError);
    expect(!outcome.ok && (outcome.error as RateLimitedError).retryAfterMs).toBe(3_600_000);
    expect(sleeps).toEqual([]);
  });

  it('maps statuses to typed errors that carry method and path but never the key', () => {
    const { http } = client([json(401, { status: '401', message: ['Unauthorized'] })]);
    const outcome = http.send({ method: 'GET', path: '/v2/clientes', query: [['cpfCnpj', '1']] });
    expect(!outcome.ok && outcome.error).toBeInstanceOf(UnauthorizedError);
    const error = (outcome as { error: UnauthorizedError }).error;
    expect(error.method).toBe('GET');
    expect(error.path).toBe('/v2/clientes');
    expect(error.message).not.toContain('secret-key-123');
  });

  it('calls an HTML answer an unexpected response (a wrong base URL)', () => {
    const { http } = client([{ kind: 'response', status: 200, headers: { 'content-type': 'text/html' }, body: '<html>' }]);
    const outcome = http.send({ method: 'GET', path: '/v2/clientes' });
    expect(!outcome.ok && outcome.error).toBeInstanceOf(UnexpectedResponseError);
  });

  it('reports a time-out as a network error', () => {
    const { http } = client(Array.from({ length: 5 }, () => ({ kind: 'network-error' as const, message: 'timeout', timedOut: true })));
    const outcome = http.send({ method: 'GET', path: '/v2/clientes' });
    expect(!outcome.ok && outcome.error).toBeInstanceOf(NetworkError);
    expect((outcome as unknown as { error: NetworkError }).error.timedOut).toBe(true);
  });
});
