/** Strict query formats: a wrong value is a 400 whose message names the parameter. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { borrowSandbox, type SandboxHandle } from '../../dev/sandbox/harness.js';
import { api } from './helpers.js';

let sb: SandboxHandle;
beforeAll(async () => {
  sb = await borrowSandbox({ seed: 5 });
});
afterAll(async () => {
  await sb?.stop();
});

const BAD_DATE = ['2025-01-31', '31/02/2025', '1/2/2025', '01/13/2025', 'ontem'];
const BAD_DATETIME = ['01/02/2025', '01/02/2025 24:00', '2025-02-01T10:00', '01/02/2025 10:00:00', '01/02/2025 9:00'];
const BAD_COMP = ['13/2025', '1/2025', '2025-01', '01-2025', '00/2025'];
const BAD_INT = ['abc', '1.5', '-1', '1e3', '99999999999', ' 1'];
const BAD_BOOL = ['TRUE', '1', 'yes', 'verdadeiro', ''];
const BAD_LIST = ['1;2', '1, 2', '1,,2', 'a,b', ',1'];
const BAD_CPFCNPJ = ['123.456.789-09', '1234567890', '123', '0000000000000a'];

type Kind = 'date' | 'datetime' | 'comp' | 'int' | 'bool' | 'list' | 'cpf';
const BAD: Record<Kind, string[]> = { date: BAD_DATE, datetime: BAD_DATETIME, comp: BAD_COMP, int: BAD_INT, bool: BAD_BOOL, list: BAD_LIST, cpf: BAD_CPFCNPJ };

const PARAMS: Record<string, Array<[string, Kind]>> = {
  '/v2/clientes': [
    ['idCliente', 'int'],
    ['cpfCnpj', 'cpf'],
    ['isAtivo', 'bool'],
    ['isCliente', 'bool'],
    ['isFornecedor', 'bool'],
    ['isParceiro', 'bool'],
    ['isFuncionario', 'bool'],
    ['isListarTelefones', 'bool'],
    ['isListarTags', 'bool'],
    ['page', 'int'],
  ],
  '/v2/faturamento/faturas': [
    ['idFatura', 'int'],
    ['idCliente', 'int'],
    ['numero', 'int'],
    ['competencia', 'comp'],
    ['cpfCnpj', 'cpf'],
    ['dataHoraAtualizacaoInicial', 'datetime'],
    ['dataHoraAtualizacaoFinal', 'datetime'],
    ['isListarItens', 'bool'],
    ['page', 'int'],
  ],
  '/v2/nfse': [
    ['competencia', 'comp'],
    ['idNotaFiscalServico', 'int'],
    ['numeroNotaFiscalServico', 'int'],
    ['idFatura', 'int'],
    ['numeroFatura', 'int'],
    ['idCliente', 'int'],
    ['cpfCnpj', 'cpf'],
    ['page', 'int'],
  ],
  '/v2/financeiro/cobrancas': [
    ['idsCliente', 'list'],
    ['idsCobranca', 'list'],
    ['cpfCnpj', 'cpf'],
    ['vencimentoInicial', 'date'],
    ['vencimentoFinal', 'date'],
    ['dataPagamentoInicial', 'date'],
    ['dataPagamentoFinal', 'date'],
    ['isQuitado', 'bool'],
    ['isExibeCanceladas', 'bool'],
    ['isOcultarBaixaPerda', 'bool'],
    ['isListarEventosCartao', 'bool'],
    ['numeroTitulo', 'int'],
    ['numeroParcela', 'int'],
    ['dataHoraAtualizacaoInicial', 'datetime'],
    ['dataHoraAtualizacaoFinal', 'datetime'],
    ['page', 'int'],
  ],
  '/v2/financeiro/transacoes': [
    ['idTransacao', 'int'],
    ['cpfCnpj', 'cpf'],
    ['competencia', 'comp'],
    ['dataVencimentoInicial', 'date'],
    ['dataVencimentoFinal', 'date'],
    ['dataPagamentoInicial', 'date'],
    ['dataPagamentoFinal', 'date'],
    ['dataHoraAtualizacaoInicial', 'datetime'],
    ['dataHoraAtualizacaoFinal', 'datetime'],
    ['page', 'int'],
    ['pageSize', 'int'],
  ],
};

const cases = Object.entries(PARAMS).flatMap(([path, params]) => params.map(([p, kind]) => [path, p, kind] as const));

describe('list envelope 400s', () => {
  it.each(cases)('%s rejects a malformed %s (%s)', async (path, param, kind) => {
    for (const value of BAD[kind]) {
      const r = await api(sb, path, { query: { [param]: value } });
      expect(r.status, `${param}=${value}`).toBe(400);
      expect(r.body).toMatchObject({ status: '400', data: [], paging: {} });
      expect(r.body.message.join(' ')).toContain(`'${param}'`);
    }
  });

  it('accepts the well-formed values of every kind', async () => {
    const ok = await api(sb, '/v2/financeiro/cobrancas', {
      query: {
        idsCliente: '1,2,3',
        vencimentoInicial: '01/01/2025',
        dataHoraAtualizacaoFinal: '31/12/2026 23:59',
        isQuitado: 'false',
        cpfCnpj: '01234567890',
        numeroTitulo: 7,
      },
    });
    expect(ok.status).toBe(200);
    const comp = await api(sb, '/v2/nfse', { query: { competencia: '02/2026' } });
    expect(comp.status).toBe(200);
  });

  it('names every bad parameter of one request', async () => {
    const r = await api(sb, '/v2/faturamento/faturas', { query: { idFatura: 'x', competencia: '2025/01' } });
    expect(r.status).toBe(400);
    expect(r.body.message).toHaveLength(2);
    expect(r.body.message[0]).toContain("'idFatura'");
    expect(r.body.message[1]).toContain("'competencia'");
  });

  it('refuses an unknown sortField and a sortOrder other than asc/desc, in any case', async () => {
    for (const path of ['/v2/faturamento/faturas', '/v2/nfse', '/v2/financeiro/cobrancas', '/v2/financeiro/transacoes']) {
      const bad = await api(sb, path, { query: { sortField: 'naoExiste' } });
      expect(bad.status).toBe(400);
      expect(bad.body.message.join()).toContain("'sortField'");
      const badOrder = await api(sb, path, { query: { sortOrder: 'up' } });
      expect(badOrder.status).toBe(400);
      expect(badOrder.body.message.join()).toContain("'sortOrder'");
      for (const order of ['asc', 'ASC', 'desc', 'DESC', 'Desc']) expect((await api(sb, path, { query: { sortOrder: order } })).status).toBe(200);
    }
    expect((await api(sb, '/v2/faturamento/faturas', { query: { sortField: 'dataHoraAtualizacao' } })).status).toBe(200);
  });
});

describe('subscription listing 400s use the subscription envelope', () => {
  it.each([
    ['idAssinaturaContrato', 'abc'],
    ['idCliente', '1.0'],
    ['cpfCnpj', '123'],
    ['isAtivo', 'sim'],
    ['isListarDescontos', 'True'],
    ['vigencia', '2025-01-01'],
    ['competenciaReferencia', '2025-01'],
    ['pagina', 'dois'],
  ])('%s=%s', async (param, value) => {
    const r = await api(sb, '/v2/assinaturascontratos', { query: { [param]: value } });
    expect(r.status).toBe(400);
    expect(r.body.data).toBeNull();
    expect(typeof r.body.message).toBe('string');
    expect(r.body.errors.join(' ')).toContain(`'${param}'`);
  });
});
