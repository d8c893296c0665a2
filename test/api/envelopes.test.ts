/**
 * The envelopes the service answers with, as a listing, a subscription write
 * and an NFS-e emission read them: the open shapes the spec allows are taken,
 * anything else is refused with a message naming the record and the field.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { intlZone } from '../../src/api/calendar';
import type { BillingClient } from '../../src/api/client';
import type { HttpOutcome } from '../../src/api/transport';
import { json } from './scripted';

type Envelopes = typeof import('../../src/api/envelopes');
let decodeEmission: Envelopes['decodeEmission'];
let decodeList: Envelopes['decodeList'];
let decodeSubscription: Envelopes['decodeSubscription'];
let Client: typeof BillingClient;
let SchemaError: typeof import('../../src/api/errors')['SchemaError'];
let records: typeof import('../../src/api/records');
// The type names and the paging schema are built once and kept for the module's life: each test loads the modules anew to judge how they are built.
beforeEach(async () => {
  vi.resetModules();
  ({ decodeEmission, decodeList, decodeSubscription } = await import('../../src/api/envelopes'));
  ({ BillingClient: Client } = await import('../../src/api/client'));
  ({ SchemaError } = await import('../../src/api/errors'));
  records = await import('../../src/api/records');
});

function answering(body: unknown): BillingClient {
  const answer = (): HttpOutcome => json(200, body);
  return new Client({
    baseUrl: 'https://api.test',
    apiKey: 'k',
    transport: { fetch: answer, fetchAll: (reqs) => reqs.map(answer) },
    sleep: () => {},
    zone: intlZone('America/Sao_Paulo'),
  });
}

const list = (key: 'faturas' | 'assinaturas', body: unknown) => answering(body).listAll(key).records;

/** The part of the SchemaError's message after the operation, without the request. */
function refusal(key: 'faturas' | 'assinaturas', body: unknown): string {
  try {
    list(key, body);
  } catch (e) {
    if (!(e instanceof SchemaError)) throw e;
    return e.detail;
  }
  throw new Error('accepted');
}

const info = { method: 'POST', path: '/v2/x' };

describe('listing envelopes', () => {
  it('a bare array is taken only where the spec leaves the envelope open', () => {
    expect(list('assinaturas', [{ idAssinaturaContrato: 1 }, { idAssinaturaContrato: 2 }])).toEqual([{ idAssinaturaContrato: 1 }, { idAssinaturaContrato: 2 }]);
    expect(refusal('faturas', [{ idFatura: 1 }])).toBe('esperava o envelope de listagem, veio uma lista sem envelope');
  });

  it('an answer that is not an object says what came', () => {
    expect(refusal('faturas', 'ok')).toBe('esperava um objeto JSON, veio texto "ok"');
    expect(refusal('faturas', null)).toBe('esperava um objeto JSON, veio nulo');
    expect(refusal('faturas', 5)).toBe('esperava um objeto JSON, veio número');
    expect(refusal('faturas', true)).toBe('esperava um objeto JSON, veio verdadeiro/falso');
    expect(refusal('faturas', 'x'.repeat(60))).toBe(`esperava um objeto JSON, veio texto "${'x'.repeat(40)}"`);
  });

  it('data null is an empty page; one record as data is taken only where the envelope is open', () => {
    expect(list('faturas', { data: null, paging: { totalPages: 1 } })).toEqual([]);
    expect(list('assinaturas', { data: { idAssinaturaContrato: 3 } })).toEqual([{ idAssinaturaContrato: 3 }]);
    expect(refusal('faturas', { data: { idFatura: 3 } })).toBe('campo data: esperava lista, veio objeto');
    expect(refusal('faturas', { data: 'nada' })).toBe('campo data: esperava lista, veio texto "nada"');
  });

  it('where the envelope is open, a bare record or an empty object is taken; elsewhere data is required', () => {
    expect(list('assinaturas', { idAssinaturaContrato: 4, nome: 'x' })).toEqual([{ idAssinaturaContrato: 4, nome: 'x' }]);
    expect(list('assinaturas', {})).toEqual([]);
    expect(refusal('assinaturas', { outro: 1 })).toBe('resposta sem o campo data');
    expect(refusal('faturas', {})).toBe('resposta sem o campo data');
    expect(refusal('faturas', { idFatura: 4 })).toBe('resposta sem o campo data');
  });

  it('a record that is not an object is named by its position', () => {
    expect(refusal('faturas', { data: [{ idFatura: 1 }, null] })).toBe('registro 2: esperava um objeto, veio nulo');
    expect(refusal('faturas', { data: [[1]] })).toBe('registro 1: esperava um objeto, veio lista');
    expect(refusal('faturas', { data: [7] })).toBe('registro 1: esperava um objeto, veio número');
  });

  it('a bad field names the record by position, by id when it has one, and the field', () => {
    expect(refusal('faturas', { data: [{ valorTotal: '1,00' }] })).toBe('registro 1, campo valorTotal: esperava número, veio texto "1,00"');
    expect(refusal('faturas', { data: [{ idFatura: 1 }, { idFatura: 9, numero: false }] })).toBe(
      'registro 2 (idFatura 9), campo numero: esperava número, veio verdadeiro/falso',
    );
    expect(refusal('faturas', { data: [{ idFatura: 9, dataEmissao: '01/10/2026' }] })).toMatch(
      /^registro 1 \(idFatura 9\), campo dataEmissao: .+ \(veio texto "01\/10\/2026"\)$/,
    );
  });

  it('says in Portuguese the type a field should have: text, a list', () => {
    expect(refusal('faturas', { data: [{ nomeCliente: 5 }] })).toBe('registro 1, campo nomeCliente: esperava texto, veio número');
    expect(refusal('faturas', { data: [{ itens: {} }] })).toBe('registro 1, campo itens: esperava lista, veio objeto');
  });

  it('paging must hold whole numbers; its absence or null is no paging', () => {
    expect(refusal('faturas', { data: [], paging: { page: '1' } })).toBe('paging: campo page: esperava número, veio texto "1"');
    expect(refusal('faturas', { data: [], paging: { totalPages: 1.5 } })).toMatch(/^paging: campo totalPages: /);
    expect(list('faturas', { data: [{ idFatura: 1 }], paging: null })).toEqual([{ idFatura: 1 }]);
  });

  it('carries the service messages of an envelope, and none for the shapes that have no envelope', () => {
    const decode = (body: unknown) => decodeList(info, 'GET /v2/x', records.subscription(), 'idAssinaturaContrato', body, true);
    expect(decode({ data: [], message: 'ok', paging: { page: 2, totalRows: 0, totalPages: 0, itemsPerPage: 50, extra: 1 } })).toEqual({
      records: [],
      paging: { page: 2, totalRows: 0, totalPages: 0, itemsPerPage: 50 },
      messages: ['ok'],
    });
    expect(decode([{ idAssinaturaContrato: 1 }])).toEqual({ records: [{ idAssinaturaContrato: 1 }], paging: {}, messages: [] });
    expect(decode({ idAssinaturaContrato: 1 })).toEqual({ records: [{ idAssinaturaContrato: 1 }], paging: {}, messages: [] });
    expect(decode({})).toEqual({ records: [], paging: {}, messages: [] });
  });

  it('keeps unknown fields of the records', () => {
    expect(list('faturas', { data: [{ idFatura: 1, novo: { a: 1 } }], paging: { totalPages: 1 } })).toEqual([{ idFatura: 1, novo: { a: 1 } }]);
  });
});

describe('subscription envelope', () => {
  const decode = (body: unknown) => decodeSubscription(info, 'POST /v2/x', records.subscription(), body);

  it('takes the record, and the messages and errors whether a text or a list', () => {
    expect(decode({ data: { idAssinaturaContrato: 5 }, message: 'criada', errors: ['aviso', 3] })).toEqual({
      record: { idAssinaturaContrato: 5 },
      messages: ['criada', 'aviso'],
      errors: ['aviso'],
    });
    expect(decode({ message: '', errors: 'falhou' })).toEqual({ record: null, messages: ['falhou'], errors: ['falhou'] });
    expect(decode({ data: null, message: 7 })).toEqual({ record: null, messages: [], errors: [] });
  });

  it('refuses what is not an envelope, and a bad record by its field', () => {
    for (const [body, came] of [
      [[], 'lista'],
      [null, 'nulo'],
      ['ok', 'texto "ok"'],
    ] as const) {
      expect(() => decode(body)).toThrow(`esperava o envelope de assinatura, veio ${came}`);
    }
    expect(() => decode({ data: { idAssinaturaContrato: 'x' } })).toThrow(
      'registro 1 (idAssinaturaContrato x), campo idAssinaturaContrato: esperava número, veio texto "x"',
    );
  });
});

describe('emission envelope', () => {
  const decode = (body: unknown) => decodeEmission(info, 'POST /v2/x', records.nfse(), body);

  it('takes one note or a list, and the id a success message mentions', () => {
    expect(decode({ data: { idNotaFiscalServico: 8 }, message: ['Nota 123 emitida'] })).toEqual({
      notes: [{ idNotaFiscalServico: 8 }],
      messages: ['Nota 123 emitida'],
      mentionedId: 123,
    });
    expect(decode({ data: [{ idNotaFiscalServico: 1 }, { idNotaFiscalServico: 2 }], message: ['sem número', 'lote 45'] })).toMatchObject({
      notes: [{ idNotaFiscalServico: 1 }, { idNotaFiscalServico: 2 }],
      mentionedId: 45,
    });
    expect(decode({ data: null, message: 'Aguarde' })).toEqual({ notes: [], messages: ['Aguarde'], mentionedId: undefined });
    expect(decode({}).notes).toEqual([]);
    expect(decode({ message: 'protocolo 1234567890123' }).mentionedId).toBeUndefined();
  });

  it('refuses what is not an envelope, and a bad note by its field', () => {
    expect(() => decode([])).toThrow('esperava o envelope de emissão, veio lista');
    expect(() => decode(null)).toThrow('esperava o envelope de emissão, veio nulo');
    expect(() => decode('ok')).toThrow('esperava o envelope de emissão, veio texto "ok"');
    expect(() => decode({ data: { idNotaFiscalServico: 'x' } })).toThrow('registro 1 (idNotaFiscalServico x), campo idNotaFiscalServico:');
    expect(() => decode({ data: [{ idNotaFiscalServico: 1 }, 'x'] })).toThrow('registro 2: esperava um objeto, veio texto "x"');
  });
});
