/**
 * What a user reads when a call fails: each status becomes a typed error whose
 * Portuguese message says what to do and names the request, never the key.
 */
import { describe, expect, it } from 'vitest';
import { BillingClient } from '../../src/api/client';
import { intlZone } from '../../src/api/calendar';
import { type BillingError, NotFoundError, SchemaError, ServerError, ValidationError } from '../../src/api/errors';
import type { HttpOutcome } from '../../src/api/transport';
import { writes } from '../../src/api/writes';
import { client, json } from './scripted';

/** The error one answer settles into, with no retry in the way. */
function failure(answer: Parameters<typeof client>[0][number], method: 'GET' | 'POST' = 'GET'): BillingError {
  const { http } = client([answer], { retry: { retries: 0 } });
  const outcome = http.send({ method, path: '/v2/clientes', query: [['cpfCnpj', '123']] });
  if (outcome.ok) throw new Error('expected a failure');
  return outcome.error;
}

describe('typed errors of the billing client', () => {
  it('a refused key says to check the connection key, with the status that refused it', () => {
    for (const status of [401, 403]) {
      const error = failure(json(status, { message: ['Unauthorized'] }));
      expect(error).toMatchObject({ name: 'UnauthorizedError', code: 'unauthorized', status, method: 'GET', path: '/v2/clientes' });
      expect(error.message).toBe(`A chave de API foi recusada pelo serviço: confira a chave da conexão (GET /v2/clientes, HTTP ${status})`);
    }
  });

  it('a refused request lists the service messages, or says the data was invalid when there are none', () => {
    const listed = failure(json(422, { message: ['nome obrigatório', 'cpf inválido'] }), 'POST');
    expect(listed).toMatchObject({ name: 'BadRequestError', code: 'bad-request', status: 422, messages: ['nome obrigatório', 'cpf inválido'] });
    expect(listed.message).toBe('O serviço recusou o pedido: nome obrigatório; cpf inválido (POST /v2/clientes, HTTP 422)');
    const bare = failure(json(400, {}));
    expect(bare.message).toBe('O serviço recusou o pedido: dados inválidos (GET /v2/clientes, HTTP 400)');
  });

  it('a missing record says so, with the service message when there is one', () => {
    const named = failure(json(404, { message: 'Cliente 9 não existe' }));
    expect(named).toMatchObject({ name: 'NotFoundError', code: 'not-found', status: 404, messages: ['Cliente 9 não existe'] });
    expect(named.message).toBe('Não encontrado: Cliente 9 não existe (GET /v2/clientes, HTTP 404)');
    expect(failure(json(404, {})).message).toBe('Não encontrado (GET /v2/clientes, HTTP 404)');
    expect(failure(json(404, { message: ['sem cliente', 'sem fatura'] })).message).toBe('Não encontrado: sem cliente; sem fatura (GET /v2/clientes, HTTP 404)');
    expect(new NotFoundError({ method: 'GET', path: '/v2/x' }).messages).toEqual([]);
    expect(new ServerError({ method: 'GET', path: '/v2/x' }, 500).messages).toEqual([]);
  });

  it('a server failure says it is the billing service, with its messages when given', () => {
    const named = failure(json(503, { errors: ['banco fora do ar', 'tente depois'] }));
    expect(named).toMatchObject({ name: 'ServerError', code: 'server-error', status: 503, messages: ['banco fora do ar', 'tente depois'] });
    expect(named.message).toBe('Erro no serviço de faturamento: banco fora do ar; tente depois (GET /v2/clientes, HTTP 503)');
    expect(failure(json(500, {})).message).toBe('Erro no serviço de faturamento (GET /v2/clientes, HTTP 500)');
  });

  it('a rate limit asks to wait and keeps how long', () => {
    const error = failure(json(429, {}, { 'Retry-After': '2' }));
    expect(error).toMatchObject({ name: 'RateLimitedError', code: 'rate-limited', status: 429, retryAfterMs: 2000 });
    expect(error.message).toBe('O serviço pediu para esperar antes de novos pedidos (limite de requisições) (GET /v2/clientes, HTTP 429)');
  });

  it('no answer names the cause, a time-out says the service did not answer in time; neither has a status', () => {
    const dropped = failure({ kind: 'network-error', message: 'socket hang up' });
    expect(dropped).toMatchObject({ name: 'NetworkError', code: 'network', timedOut: false, status: undefined });
    expect(dropped.message).toBe('Sem resposta do serviço: socket hang up (GET /v2/clientes)');
    const late = failure({ kind: 'network-error', message: 'timeout', timedOut: true });
    expect(late).toMatchObject({ timedOut: true, status: undefined });
    expect(late.message).toBe('O serviço não respondeu a tempo (GET /v2/clientes)');
  });

  it('an answer that is not the interface points at the base URL', () => {
    const error = failure({ kind: 'response', status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, body: '<html>' });
    expect(error).toMatchObject({ name: 'UnexpectedResponseError', code: 'unexpected-response', status: 200 });
    expect(error.message).toBe(
      'Resposta inesperada: o serviço não respondeu em JSON (text/html). Confira o endereço base da conexão (GET /v2/clientes, HTTP 200)',
    );
  });

  it('an answer that breaks the documented shape names the operation and what was wrong', () => {
    const answer = (): HttpOutcome => json(200, [{ idFatura: 1 }]);
    const billing = new BillingClient({
      baseUrl: 'https://api.test',
      apiKey: 'k',
      transport: { fetch: answer, fetchAll: (reqs) => reqs.map(answer) },
      sleep: () => {},
      zone: intlZone('America/Sao_Paulo'),
    });
    const error = (() => {
      try {
        billing.listAll('faturas');
      } catch (e) {
        return e as SchemaError;
      }
    })();
    expect(error).toBeInstanceOf(SchemaError);
    expect(error).toMatchObject({ name: 'SchemaError', code: 'schema', operation: 'GET /v2/faturamento/faturas', status: undefined });
    expect(error?.message).toBe(
      'Resposta fora do formato documentado em GET /v2/faturamento/faturas: esperava o envelope de listagem, veio uma lista sem envelope (GET /v2/faturamento/faturas)',
    );
  });

  it('never puts the key or the query in the message', () => {
    for (const status of [400, 401, 404, 429, 500]) {
      const { message } = failure(json(status, { message: ['x'] }));
      expect(message).not.toContain('secret-key-123');
      expect(message).not.toContain('cpfCnpj');
    }
  });

  it('a request refused before sending names the operation and each field with what to do', () => {
    const billing = new BillingClient({
      baseUrl: 'http://127.0.0.1:9',
      apiKey: 'k',
      transport: { fetch: () => ({ ok: false, error: 'offline' }) } as never,
      sleep: () => {},
    } as never);
    let error: unknown;
    try {
      billing.validateBody(writes.atualizarAssinaturaPlano, { idCliente: 0, idIntegracao: 5 });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ name: 'ValidationError', code: 'validation', operation: 'Atualizar assinaturas de plano' });
    expect((error as ValidationError).message).toBe(
      'Atualizar assinaturas de plano: quantidade: esperava um número; descricaoAssinaturaContrato: esperava um texto',
    );
  });
});
