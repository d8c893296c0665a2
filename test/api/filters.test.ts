import { describe, expect, it } from 'vitest';
import { intlZone } from '../../src/api/calendar';
import { FilterError, formatFilters } from '../../src/api/filters';
import { listings } from '../../src/api/operations';

const zone = intlZone('America/Sao_Paulo');
const fmt = (key: keyof typeof listings, values: Record<string, unknown>) =>
  Object.fromEntries(formatFilters(listings[key].label, listings[key].filters, values as never, zone));

/** The values are refused before any request, naming the filter, with a message that says `text`. */
function expectRefusal(key: keyof typeof listings, values: Record<string, unknown>, filter: string, text: string): void {
  let error: unknown;
  try {
    fmt(key, values);
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(FilterError);
  expect((error as FilterError).filter).toBe(filter);
  expect((error as FilterError).message).toContain(text);
}

describe('filter formatting', () => {
  it('formats dates as DD/MM/YYYY in the spreadsheet zone, from Dates, ISO strings and parts', () => {
    // 02:00 UTC on 1 Oct is still 30 Sep in São Paulo.
    expect(fmt('cobrancas', { vencimentoInicial: new Date('2026-10-01T02:00:00Z') })).toEqual({ vencimentoInicial: '30/09/2026' });
    expect(fmt('cobrancas', { vencimentoFinal: '2026-10-01' })).toEqual({ vencimentoFinal: '01/10/2026' });
    expect(fmt('cobrancas', { dataPagamentoInicial: { year: 2026, month: 2, day: 28 } })).toEqual({ dataPagamentoInicial: '28/02/2026' });
  });

  it('formats datetimes as DD/MM/YYYY HH:MM and competência as MM/YYYY', () => {
    expect(fmt('faturas', { dataHoraAtualizacaoInicial: new Date('2026-10-01T12:05:00Z'), competencia: '2026-03' })).toEqual({
      dataHoraAtualizacaoInicial: '01/10/2026 09:05',
      competencia: '03/2026',
    });
    expect(fmt('transacoes', { competencia: '3/2026' })).toEqual({ competencia: '03/2026' });
  });

  it('joins id lists with commas and normalises booleans and sort order', () => {
    expect(fmt('cobrancas', { idsCliente: [3, 10, 7], isQuitado: false, sortOrder: 'DESC' })).toEqual({
      idsCliente: '3,10,7',
      isQuitado: 'false',
      sortOrder: 'desc',
    });
    expect(fmt('cobrancas', { idsCobranca: '1; 2, 3' })).toEqual({ idsCobranca: '1,2,3' });
  });

  it('leaves empty values out', () => {
    expect(fmt('clientes', { cpfCnpj: '', email: null, idCliente: undefined })).toEqual({});
  });

  it.each([
    ['cobrancas', { vencimentoInicial: '31/02/2026' }, 'vencimentoInicial', 'não existe'],
    ['cobrancas', { vencimentoInicial: '2026/10/01' }, 'vencimentoInicial', 'DD/MM/AAAA'],
    ['faturas', { competencia: '13/2026' }, 'competencia', '01 a 12'],
    ['faturas', { idFatura: 'abc' }, 'idFatura', 'inteiro'],
    ['cobrancas', { idsCliente: [1, 'x'] }, 'idsCliente', '"x"'],
    ['faturas', { sortOrder: 'up' }, 'sortOrder', 'asc'],
    ['clientes', { isAtivo: 'sim' }, 'isAtivo', 'true'],
    ['clientes', { naoExiste: 1 }, 'naoExiste', 'não existe'],
  ] as const)('refuses a bad value before any request (%s %j)', (key, values, filter, text) => {
    expectRefusal(key, values, filter, text);
  });

  it('refuses a range whose end is before its start, beside the end field, before any request', () => {
    expect(() => fmt('cobrancas', { vencimentoInicial: '2026-10-31', vencimentoFinal: '2026-10-01' })).toThrow(/anterior ao início/);
    try {
      fmt('faturas', { dataHoraAtualizacaoInicial: '2026-10-01T10:00', dataHoraAtualizacaoFinal: '2026-10-01T09:59' });
      expect.unreachable();
    } catch (err) {
      expect((err as FilterError).filter).toBe('dataHoraAtualizacaoFinal');
    }
    // Across a year the order is by date, not by text.
    expect(fmt('cobrancas', { vencimentoInicial: '2026-12-31', vencimentoFinal: '2027-01-01' })).toEqual({
      vencimentoInicial: '31/12/2026',
      vencimentoFinal: '01/01/2027',
    });
    expect(fmt('cobrancas', { vencimentoInicial: '2026-10-01', vencimentoFinal: '2026-10-01' })).toEqual({
      vencimentoInicial: '01/10/2026',
      vencimentoFinal: '01/10/2026',
    });
  });
});

describe('filter values a person types', () => {
  it.each([
    ['clientes', { cpfCnpj: '1234567' }, 'cpfCnpj', 'tem 7 dígitos'],
    ['clientes', { cpfCnpj: '123456789012345' }, 'cpfCnpj', 'tem 15 dígitos'],
    ['clientes', { cpfCnpj: 'abc' }, 'cpfCnpj', 'use só números'],
    ['faturas', { dataHoraAtualizacaoInicial: '01/10/2026 25:70' }, 'dataHoraAtualizacaoInicial', 'hora inválida'],
    ['faturas', { dataHoraAtualizacaoInicial: '31/09/2026 10:00' }, 'dataHoraAtualizacaoInicial', 'não existe'],
    ['faturas', { dataHoraAtualizacaoInicial: '01/10/2026' }, 'dataHoraAtualizacaoInicial', 'DD/MM/AAAA HH:MM'],
    ['faturas', { competencia: '00/2026' }, 'competencia', '01 a 12'],
    ['faturas', { competencia: '10/1899' }, 'competencia', 'ano'],
    ['faturas', { competencia: 'out/2026' }, 'competencia', 'MM/AAAA'],
    ['cobrancas', { vencimentoInicial: '2026-13-01' }, 'vencimentoInicial', 'não existe'],
  ] as const)('refuses %s %j before sending', (key, values, filter, text) => {
    expectRefusal(key, values, filter, text);
  });

  it('restores the zeros a number cell dropped from a CPF or CNPJ, and drops punctuation', () => {
    expect(fmt('clientes', { cpfCnpj: 1234567890 })).toEqual({ cpfCnpj: '01234567890' });
    expect(fmt('clientes', { cpfCnpj: '123456789' })).toEqual({ cpfCnpj: '00123456789' });
    expect(fmt('clientes', { cpfCnpj: 1234567000189 })).toEqual({ cpfCnpj: '01234567000189' });
    expect(fmt('clientes', { cpfCnpj: '12.345.678/0001-95' })).toEqual({ cpfCnpj: '12345678000195' });
    expect(fmt('clientes', { cpfCnpj: '123.456.789-09' })).toEqual({ cpfCnpj: '12345678909' });
  });

  it('reads datetimes typed either way, and competências with one digit or as AAAA-MM', () => {
    expect(fmt('faturas', { dataHoraAtualizacaoInicial: '2026-10-01T08:05:59', dataHoraAtualizacaoFinal: '2026-10-01 23:59' })).toEqual({
      dataHoraAtualizacaoInicial: '01/10/2026 08:05',
      dataHoraAtualizacaoFinal: '01/10/2026 23:59',
    });
    expect(fmt('faturas', { competencia: { year: 2026, month: 1 } })).toEqual({ competencia: '01/2026' });
    expect(fmt('nfse', { competencia: new Date('2026-02-01T12:00:00Z') })).toEqual({ competencia: '02/2026' });
    expect(fmt('transacoes', { pageSize: undefined, idTransacao: ' 42 ' } as never)).toEqual({ idTransacao: '42' });
  });
});

/** The message a refused value gets, exactly (the detail after `Filtro "x" de Y:`). */
function refusal(key: keyof typeof listings, values: Record<string, unknown>): string {
  try {
    fmt(key, values);
  } catch (e) {
    expect(e).toBeInstanceOf(FilterError);
    expect((e as FilterError).name).toBe('FilterError');
    return (e as FilterError).detail;
  }
  return 'aceito';
}

describe('every filter kind, value by value', () => {
  it.each([
    ['faturas', 'idFatura', ' 42 ', '42'],
    ['faturas', 'idFatura', '-3', '-3'],
    ['faturas', 'idFatura', 17, '17'],
    ['faturas', 'email', ' ana@x.com.br ', 'ana@x.com.br'],
    ['faturas', 'numeroPedido', 123, '123'],
    ['clientes', 'isAtivo', true, 'true'],
    ['clientes', 'isAtivo', 'true', 'true'],
    ['clientes', 'isAtivo', false, 'false'],
    ['clientes', 'isAtivo', 'false', 'false'],
    ['cobrancas', 'idsCliente', 7, '7'],
    ['cobrancas', 'idsCliente', ' 12, 345 ', '12,345'],
    ['cobrancas', 'idsCliente', ['12', 3], '12,3'],
    ['faturas', 'sortField', ' numero ', 'numero'],
    ['faturas', 'sortOrder', ' ASC ', 'asc'],
    ['faturas', 'sortOrder', 'desc', 'desc'],
    ['clientes', 'cpfCnpj', 123456789012, '00123456789012'],
    ['clientes', 'cpfCnpj', ' 123.456.789-09 ', '12345678909'],
  ] as const)('%s %s %j goes out as %j', (key, name, value, wire) => {
    expect(fmt(key, { [name]: value })).toEqual({ [name]: wire });
  });

  it.each([
    ['faturas', 'idFatura', '0x10', 'esperava um número inteiro'],
    ['faturas', 'idFatura', '1e3', 'esperava um número inteiro'],
    ['faturas', 'idFatura', 1.5, 'esperava um número inteiro'],
    ['faturas', 'idFatura', true, 'esperava um número inteiro'],
    ['faturas', 'idFatura', [42], 'esperava um número inteiro'],
    ['faturas', 'email', true, 'esperava um texto'],
    ['clientes', 'isAtivo', 1, 'esperava sim (true) ou não (false)'],
    ['cobrancas', 'vencimentoInicial', new Date('x'), 'data inválida'],
    ['cobrancas', 'vencimentoInicial', 20261001, 'esperava uma data'],
    ['cobrancas', 'vencimentoInicial', { year: 2026, month: 2 }, 'esperava uma data'],
    ['cobrancas', 'vencimentoInicial', { year: 2026, day: 2 }, 'esperava uma data'],
    ['cobrancas', 'vencimentoInicial', { month: 2, day: 2 }, 'esperava uma data'],
    ['cobrancas', 'vencimentoInicial', { year: 2026, month: 2, day: 30 }, 'a data 30/02/2026 não existe'],
    ['cobrancas', 'vencimentoInicial', ' 31/02/2026 ', 'a data 31/02/2026 não existe'],
    ['cobrancas', 'vencimentoInicial', ' 2026/10/01 ', 'use o formato DD/MM/AAAA (recebido "2026/10/01")'],
    ['faturas', 'dataHoraAtualizacaoInicial', new Date('x'), 'data e hora inválidas'],
    ['faturas', 'dataHoraAtualizacaoInicial', 45000, 'esperava data e hora'],
    ['faturas', 'dataHoraAtualizacaoInicial', ' 01/10/2026 ', 'use o formato DD/MM/AAAA HH:MM (recebido "01/10/2026")'],
    ['faturas', 'dataHoraAtualizacaoInicial', '31/09/2026 10:00', 'a data 31/09/2026 não existe'],
    ['faturas', 'competencia', 202610, 'esperava uma competência MM/AAAA'],
    ['faturas', 'competencia', { year: 2026 }, 'esperava uma competência MM/AAAA'],
    ['faturas', 'competencia', { month: 10 }, 'esperava uma competência MM/AAAA'],
    ['faturas', 'competencia', ' out/2026 ', 'use o formato MM/AAAA (recebido "out/2026")'],
    ['faturas', 'competencia', '13/2026', 'o mês da competência vai de 01 a 12'],
    ['cobrancas', 'idsCliente', true, 'esperava uma lista de IDs separados por vírgula'],
    ['cobrancas', 'idsCliente', [], 'a lista de IDs está vazia'],
    ['cobrancas', 'idsCliente', ' ; ', 'a lista de IDs está vazia'],
    ['cobrancas', 'idsCliente', ['0x10'], '"0x10" não é um ID (número inteiro)'],
    ['cobrancas', 'idsCliente', [' 3'], '" 3" não é um ID (número inteiro)'],
    ['cobrancas', 'idsCliente', [1.5], '"1.5" não é um ID (número inteiro)'],
    ['cobrancas', 'idsCliente', [-1], '"-1" não é um ID (número inteiro)'],
    ['cobrancas', 'idsCliente', '0', '"0" não é um ID (número inteiro)'],
    ['faturas', 'sortField', 5, 'nome de campo inválido para ordenação'],
    ['faturas', 'sortField', '1numero', 'nome de campo inválido para ordenação'],
    ['faturas', 'sortField', 'numero-x', 'nome de campo inválido para ordenação'],
    ['faturas', 'sortOrder', 5, 'use asc (crescente) ou desc (decrescente)'],
    ['clientes', 'cpfCnpj', true, 'esperava um CPF ou CNPJ'],
    ['clientes', 'cpfCnpj', ' CPF 123.456.789-09 ', '"CPF 123.456.789-09" não é um CPF/CNPJ: use só números'],
  ] as const)('%s %s %j is refused: %s', (key, name, value, detail) => {
    expect(refusal(key, { [name]: value })).toBe(detail);
  });
});
