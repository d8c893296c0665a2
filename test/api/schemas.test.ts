import { describe, expect, it } from 'vitest';
import { BillingClient } from '../../src/api/client';
import { SchemaError } from '../../src/api/errors';
import type { HttpOutcome, Transport } from '../../src/api/transport';
import { intlZone } from '../../src/api/calendar';

/** Answers every request with the same JSON body. */
function clientAnswering(body: unknown): BillingClient {
  const answer = (): HttpOutcome => ({ kind: 'response', status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const transport: Transport = { fetch: answer, fetchAll: (reqs) => reqs.map(answer) };
  return new BillingClient({ baseUrl: 'https://api.test', apiKey: 'k', transport, sleep: () => {}, zone: intlZone('America/Sao_Paulo') });
}

const invoice = {
  idFatura: 5,
  idIntegracao: null,
  numero: 12,
  statusFatura: 'ABERTA',
  tipoFatura: 'AVULSA',
  formaFaturamentoAssinatura: null,
  origemFatura: 'MANUAL',
  competencia: '10/2026',
  idCliente: 3,
  nomeCliente: 'Padaria',
  dataEmissao: '2026-10-01',
  valorTotal: 150.5,
  itens: null,
};

function schemaError(records: unknown[]): SchemaError {
  try {
    clientAnswering({ status: '200', message: [], data: records, paging: { page: 1, totalPages: 1 } }).listAll('faturas');
  } catch (e) {
    if (e instanceof SchemaError) return e;
    throw e;
  }
  throw new Error('no schema error');
}

describe('record schemas', () => {
  it('a money field that arrives as a string names the operation, the record and the field', () => {
    const error = schemaError([invoice, { ...invoice, idFatura: 6, valorTotal: '150,50' }]);
    expect(error.message).toContain('GET /v2/faturamento/faturas');
    expect(error.message).toContain('registro 2 (idFatura 6)');
    expect(error.message).toContain('campo valorTotal: esperava número, veio texto "150,50"');
  });

  it('keeps unknown fields and accepts enumeration values the spec does not list', () => {
    const records = clientAnswering({
      status: '200',
      message: [],
      data: [{ ...invoice, statusFatura: 'EM_ANALISE', campoNovo: 1 }],
      paging: { totalPages: 1 },
    }).listAll('faturas').records;
    expect(records[0]).toMatchObject({ statusFatura: 'EM_ANALISE', campoNovo: 1 });
  });

  it('accepts null only where the spec says "or null"', () => {
    expect(schemaError([{ ...invoice, nomeCliente: null }]).message).toContain('campo nomeCliente: esperava texto, veio nulo');
  });

  it('checks the documented formats of dates and competências', () => {
    expect(schemaError([{ ...invoice, dataEmissao: '01/10/2026' }]).message).toMatch(/dataEmissao: data fora do formato AAAA-MM-DD/);
    expect(schemaError([{ ...invoice, competencia: '2026-10' }]).message).toMatch(/competencia: competência fora do formato MM\/AAAA/);
  });

  it('checks nested records too', () => {
    const body = { status: '200', message: [], data: [{ idTransacao: 1, planosConta: [{ idPlanoConta: 'x' }] }], paging: { totalPages: 1 } };
    let error: unknown;
    try {
      clientAnswering(body).listAll('transacoes');
    } catch (e) {
      error = e;
    }
    expect((error as Error).message).toContain('campo planosConta.0.idPlanoConta');
  });
});
