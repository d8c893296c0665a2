/**
 * The typed client's writes and listing requests over a scripted service:
 * what goes on the wire, how each answer is read, and that a failed row never
 * hides its neighbours.
 */
import { describe, expect, it } from 'vitest';
import { intlZone } from '../../src/api/calendar';
import { BillingClient, type ClientConfig } from '../../src/api/client';
import { BadRequestError, SchemaError, ServerError, ValidationError } from '../../src/api/errors';
import { WORST_ROUND_TRIP_MS } from '../../src/api/http';
import { listing } from '../../src/api/operations';
import type { HttpOutcome } from '../../src/api/transport';
import { json, scripted } from './scripted';

function billing(answers: HttpOutcome[], config: Partial<ClientConfig> = {}) {
  const { transport, sent } = scripted(answers);
  const client = new BillingClient({ baseUrl: 'https://api.test', apiKey: 'k', transport, sleep: () => {}, zone: intlZone('America/Sao_Paulo'), ...config });
  return { client, sent };
}

const plan = { quantidade: 2, descricaoAssinaturaContrato: 'Plano contábil completo' };

describe('BillingClient writes', () => {
  it('emits an NFS-e with a POST of the invoice id and reads the emission envelope', () => {
    const { client, sent } = billing([json(200, { data: { idNotaFiscalServico: 4 }, message: 'Nota 4 emitida' })]);
    expect(client.emitNfse(7)).toEqual({ notes: [{ idNotaFiscalServico: 4 }], messages: ['Nota 4 emitida'], mentionedId: 4 });
    expect(sent[0]).toMatchObject({ method: 'POST', url: 'https://api.test/v2/faturamento/nfse/emitir', body: '{"idFatura":7}' });
  });

  it('updates a plan subscription with a PUT to its trimmed, encoded id and reads the subscription envelope', () => {
    const { client, sent } = billing([json(200, { data: { idAssinaturaContrato: 9 }, message: 'ok', errors: ['aviso'] })]);
    expect(client.updatePlanSubscription(' 9/1 ', plan)).toEqual({ record: { idAssinaturaContrato: 9 }, messages: ['ok', 'aviso'] });
    expect(sent[0]).toMatchObject({ method: 'PUT', url: 'https://api.test/v2/assinaturascontratos/plano/9%2F1' });
    expect(JSON.parse(sent[0].body ?? '')).toEqual(plan);
  });

  it('refuses an update without an id before sending anything', () => {
    for (const id of [undefined, null, '', '  ']) {
      const { client, sent } = billing([]);
      expect(() => client.updatePlanSubscription(id as never, plan)).toThrow(
        new ValidationError('Atualizar assinaturas de plano', [{ field: 'id', message: 'informe o ID da assinatura' }]).message,
      );
      expect(sent).toEqual([]);
    }
    expect(billing([json(200, { data: null })]).client.updatePlanSubscription(0, plan).record).toBeNull();
  });

  it('each row settles on its own: a bad body, a refused row, a bad answer and a success side by side', () => {
    const { client, sent } = billing([
      json(422, { message: ['fatura já emitida'] }),
      json(200, { data: 'x' }),
      json(200, { data: [{ idNotaFiscalServico: 5 }] }),
    ]);
    const outcomes = client.writeMany('emitirNfse', [
      { body: { idFatura: 0 } },
      { body: { idFatura: 1 } },
      { body: { idFatura: 2 } },
      { body: { idFatura: 3 } },
    ]);
    expect(sent.map((r) => r.body)).toEqual(['{"idFatura":1}', '{"idFatura":2}', '{"idFatura":3}']);
    expect(outcomes[0].ok === false && outcomes[0].error).toBeInstanceOf(ValidationError);
    expect(outcomes[1].ok === false && outcomes[1].error).toBeInstanceOf(BadRequestError);
    expect(outcomes[2].ok === false && outcomes[2].error).toBeInstanceOf(SchemaError);
    expect(outcomes[2].ok === false && outcomes[2].error.message).toBe(
      'Resposta fora do formato documentado em POST /v2/faturamento/nfse/emitir: registro 1: esperava um objeto, veio texto "x" (POST /v2/faturamento/nfse/emitir)',
    );
    expect(outcomes[3]).toEqual({ ok: true, result: { notes: [{ idNotaFiscalServico: 5 }], messages: [], mentionedId: undefined } });
  });

  it('each subscription write checks its own operation before sending', () => {
    const { client, sent } = billing([]);
    expect(() => client.createPlanSubscription({})).toThrow(/^Criar assinaturas de plano: /);
    expect(() => client.createCustomSubscription({})).toThrow(/^Criar assinaturas personalizadas: /);
    expect(() => client.updateCustomSubscription(1, { idIntegracao: 5 })).toThrow(/^Atualizar assinaturas personalizadas: /);
    expect(sent).toEqual([]);
  });

  it('a failed single write throws its typed error', () => {
    const { client } = billing([json(400, { message: 'CPF inválido' })]);
    expect(() => client.emitNfse(1)).toThrow('O serviço recusou o pedido: CPF inválido (POST /v2/faturamento/nfse/emitir, HTTP 400)');
  });
});

describe('BillingClient listing requests', () => {
  it('asks the configured page size where the listing takes one, then the page', () => {
    const op = listing('transacoes');
    const { client } = billing([], { pageSize: 200 });
    expect(client.listQuery(op, {}, 3)).toEqual([
      ['pageSize', '200'],
      [op.pageParam, '3'],
    ]);
    expect(billing([]).client.listQuery(op, {})).toEqual([]);
    expect(billing([], { pageSize: 200 }).client.listQuery(listing('clientes'), {})).toEqual([]);
  });

  it('asks pages in waves as wide as the concurrency allows (one at a time would take three waves)', () => {
    const waves: number[] = [];
    const page = (n: number) => json(200, { data: [{ idCliente: n }], paging: { page: n, totalPages: 4 } });
    const answers = [page(1), page(2), page(3), page(4)];
    const transport = {
      fetch() {
        waves.push(1);
        return answers.shift() as HttpOutcome;
      },
      fetchAll(reqs: unknown[]) {
        waves.push(reqs.length);
        return reqs.map(() => answers.shift() as HttpOutcome);
      },
    };
    const client = new BillingClient({
      baseUrl: 'https://api.test',
      apiKey: 'k',
      transport,
      sleep: () => {},
      zone: intlZone('America/Sao_Paulo'),
      concurrency: 3,
    });
    expect(client.listAll('clientes').records).toHaveLength(4);
    expect(waves).toEqual([2, 2]);
  });

  it('walks every page and counts them', () => {
    const page = (n: number) => json(200, { data: [{ idCliente: n }], paging: { page: n, totalPages: 2 } });
    const { client, sent } = billing([page(1), page(2)], { concurrency: 0 });
    expect(client.listAll('clientes')).toEqual({ records: [{ idCliente: 1 }, { idCliente: 2 }], warnings: [], pages: 2 });
    expect(sent).toHaveLength(2);
    expect(client.stats.requests).toBe(2);
  });
});

describe('a client with a limit (withLimit)', () => {
  /** A retry of the first 503 waits 375 ms: with a worst-case round trip after it, it ends at 1000 + 375 + WORST_ROUND_TRIP_MS. */
  const retryEnds = 1000 + 375 + WORST_ROUND_TRIP_MS;
  const customers = json(200, { data: [{ idCliente: 1 }], paging: { page: 1, totalPages: 1 } });
  /** Pages numbered from 1: one request a page. */
  const ONE = { base: 1 } as const;
  /** A service that answers 503 `failures` times, then the customers. */
  const flaky = (failures: number) => billing([...Array(failures).fill(json(503, {})), customers], { now: () => 1000, random: () => 0.5 });

  it('is another client of the same connection: it gives up a retry its limit has no room for, while the client it came from still retries', () => {
    const { client, sent } = flaky(2);
    const derived = client.withLimit(retryEnds - 1);
    expect(derived).not.toBe(client);
    expect(() => derived.listAll('clientes', {}, ONE)).toThrow(ServerError);
    expect(sent).toHaveLength(1);
    expect(client.listAll('clientes', {}, ONE).records).toEqual([{ idCliente: 1 }]);
    expect(sent.map((r) => [r.url, r.headers['x-api-key']])).toEqual(Array(3).fill(['https://api.test/v2/clientes?page=1', 'k']));
  });

  it('a limit with room for the retry retries, and a client derived with no limit retries whatever the one it came from had', () => {
    expect(flaky(1).client.withLimit(retryEnds).listAll('clientes', {}, ONE).records).toHaveLength(1);
    const unlimited = flaky(2);
    expect(unlimited.client.withLimit(0).withLimit(undefined).listAll('clientes', {}, ONE).records).toHaveLength(1);
    expect(unlimited.sent).toHaveLength(3);
  });

  it("a walk's pages go through the client the walk holds now: one derived with a limit between waves", () => {
    const { client, sent } = flaky(1);
    const walk = client.walk('clientes', {}, ONE);
    walk.client = client.withLimit(retryEnds - 1);
    expect(() => walk.pager.nextWave()).toThrow(ServerError);
    expect(sent).toHaveLength(1);
  });
});
