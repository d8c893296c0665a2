/**
 * The typed client's writes and listing requests over a scripted service:
 * what goes on the wire, how each answer is read, and that a failed row never
 * hides its neighbours.
 */
import { describe, expect, it } from 'vitest';
import { intlZone } from '../../src/api/calendar';
import { BillingClient, type ClientConfig } from '../../src/api/client';
import { BadRequestError, SchemaError, ValidationError } from '../../src/api/errors';
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
