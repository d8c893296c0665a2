/**
 * Every listing filter narrows as named, checked against the organization's full
 * dump; combined filters are ANDed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { borrowSandbox, type SandboxHandle } from '../../dev/sandbox/harness.js';
import { api, listAll } from './helpers.js';

let sb: SandboxHandle;
let org: string;
const dump: Record<string, any[]> = {};

const toQueryDate = (d: string) => `${d.slice(8, 10)}/${d.slice(5, 7)}/${d.slice(0, 4)}`;
const toQueryDatetime = (dt: string) => `${toQueryDate(dt.slice(0, 10))} ${dt.slice(11, 16)}`;
const ids = (rows: any[], key: string) => rows.map((r) => r[key]).sort((a, b) => a - b);

beforeAll(async () => {
  sb = await borrowSandbox({ seed: 11 });
  org = sb.orgs[0].name;
  for (const r of ['clientes', 'faturas', 'nfse', 'cobrancas', 'transacoes', 'assinaturas'] as const) dump[r] = await sb.dump(org, r);
});
afterAll(async () => {
  await sb?.stop();
});

/** The listing's full result for a query, across pages. */
async function all(path: string, query: Record<string, string | number> = {}) {
  return listAll(sb, path, query);
}

function emailOf(idCliente: number): string {
  return dump.clientes.find((c) => c.idCliente === idCliente).email;
}

interface FilterCase {
  param: string;
  value: () => string | number;
  keep: (row: any) => boolean;
}

function checkFilters(path: string, idKey: string, resource: string, base: Record<string, string>, cases: FilterCase[]) {
  const visible = () => dump[resource].filter((r) => Object.keys(base).length === 0 || r.dataHoraCancelamento === null || base.isExibeCanceladas === 'true');
  it.each(cases.map((c) => [c.param, c] as const))(`${path} narrows by %s`, async (_p, c) => {
    const value = c.value();
    const expected = visible().filter(c.keep);
    expect(expected.length, 'the chosen value must select something').toBeGreaterThan(0);
    expect(expected.length, 'the filter must actually narrow').toBeLessThan(visible().length);
    const got = await all(path, { ...base, [c.param]: value });
    expect(ids(got, idKey)).toEqual(ids(expected, idKey));
  });
}

describe('GET /v2/clientes', () => {
  const c = () => dump.clientes.find((x) => x.idIntegracao !== '' && x.isAtivo && x.cpfCnpj.startsWith('0')) ?? dump.clientes[5];
  const shared = () => dump.clientes.find((x) => dump.clientes.filter((y) => y.email === x.email).length > 1);
  checkFilters('/v2/clientes', 'idCliente', 'clientes', {}, [
    { param: 'idCliente', value: () => c().idCliente, keep: (r) => r.idCliente === c().idCliente },
    { param: 'idIntegracao', value: () => c().idIntegracao, keep: (r) => r.idIntegracao === c().idIntegracao },
    { param: 'cpfCnpj', value: () => c().cpfCnpj, keep: (r) => r.cpfCnpj === c().cpfCnpj },
    { param: 'email', value: () => shared().email.toUpperCase(), keep: (r) => r.email === shared().email },
    { param: 'isAtivo', value: () => 'false', keep: (r) => !r.isAtivo },
    { param: 'isCliente', value: () => 'false', keep: (r) => !r.isCliente },
    { param: 'isFornecedor', value: () => 'true', keep: (r) => r.isFornecedor },
    { param: 'isParceiro', value: () => 'true', keep: (r) => r.isParceiro },
    { param: 'isFuncionario', value: () => 'true', keep: (r) => r.isFuncionario },
  ]);

  it('combines filters with AND', async () => {
    const got = await all('/v2/clientes', { isAtivo: 'true', isFornecedor: 'true' });
    const expected = dump.clientes.filter((r) => r.isAtivo && r.isFornecedor);
    expect(ids(got, 'idCliente')).toEqual(ids(expected, 'idCliente'));
    expect(expected.length).toBeLessThan(dump.clientes.filter((r) => r.isAtivo).length);
    const none = await all('/v2/clientes', { idCliente: dump.clientes[1].idCliente, cpfCnpj: dump.clientes[2].cpfCnpj });
    expect(none).toEqual([]);
  });

  it('ignores unknown parameters', async () => {
    const got = await all('/v2/clientes', { naoExiste: 'x', isAtivo: 'false' });
    expect(got.length).toBe(dump.clientes.filter((r) => !r.isAtivo).length);
  });
});

describe('GET /v2/faturamento/faturas', () => {
  const f = () =>
    dump.faturas.find((x) => x.numeroPedido && x.idIntegracao && x.codigoCheckout && x._loteCheckout) ?? dump.faturas.find((x) => x.codigoCheckout);
  const withCheckout = () => dump.faturas.find((x) => x._loteCheckout && dump.faturas.filter((y) => y._loteCheckout === x._loteCheckout).length > 1) ?? f();
  const cliente = () => dump.clientes.find((c) => dump.faturas.some((x) => x.idCliente === c.idCliente));
  const mid = () => dump.faturas[Math.floor(dump.faturas.length / 2)]._dataHoraAtualizacao as string;
  checkFilters('/v2/faturamento/faturas', 'idFatura', 'faturas', {}, [
    { param: 'idFatura', value: () => f().idFatura, keep: (r) => r.idFatura === f().idFatura },
    { param: 'idCliente', value: () => cliente().idCliente, keep: (r) => r.idCliente === cliente().idCliente },
    { param: 'numero', value: () => f().numero, keep: (r) => r.numero === f().numero },
    { param: 'idIntegracao', value: () => f().idIntegracao, keep: (r) => r.idIntegracao === f().idIntegracao },
    { param: 'numeroPedido', value: () => f().numeroPedido, keep: (r) => r.numeroPedido === f().numeroPedido },
    { param: 'competencia', value: () => f().competencia, keep: (r) => r.competencia === f().competencia },
    { param: 'loteCheckout', value: () => withCheckout()._loteCheckout, keep: (r) => r._loteCheckout === withCheckout()._loteCheckout },
    { param: 'codigoCheckout', value: () => f().codigoCheckout, keep: (r) => r.codigoCheckout === f().codigoCheckout },
    { param: 'cpfCnpj', value: () => cliente().cpfCnpj, keep: (r) => dump.clientes.find((c) => c.idCliente === r.idCliente).cpfCnpj === cliente().cpfCnpj },
    { param: 'email', value: () => cliente().email, keep: (r) => emailOf(r.idCliente) === cliente().email },
    { param: 'dataHoraAtualizacaoInicial', value: () => toQueryDatetime(mid()), keep: (r) => r._dataHoraAtualizacao >= mid().slice(0, 16) + ':00' },
    { param: 'dataHoraAtualizacaoFinal', value: () => toQueryDatetime(mid()), keep: (r) => r._dataHoraAtualizacao <= mid().slice(0, 16) + ':59' },
  ]);

  it('combines filters with AND (competencia + cliente + atualização range)', async () => {
    const x = dump.faturas[40];
    const ini = '2025-01-01T00:00:00';
    const got = await all('/v2/faturamento/faturas', { competencia: x.competencia, idCliente: x.idCliente, dataHoraAtualizacaoInicial: toQueryDatetime(ini) });
    const expected = dump.faturas.filter((r) => r.competencia === x.competencia && r.idCliente === x.idCliente);
    expect(ids(got, 'idFatura')).toEqual(ids(expected, 'idFatura'));
    const narrower = await all('/v2/faturamento/faturas', { competencia: x.competencia, idCliente: x.idCliente, numero: x.numero });
    expect(narrower.map((r) => r.idFatura)).toEqual([x.idFatura]);
  });

  it('does not show hidden columns and sorts by the names the spec uses', async () => {
    const r = await api(sb, '/v2/faturamento/faturas', { query: { sortField: 'competencia', sortOrder: 'DESC' } });
    expect(Object.keys(r.body.data[0]).some((k) => k.startsWith('_'))).toBe(false);
    const key = (c: string) => c.slice(3) + c.slice(0, 2);
    const comps = r.body.data.map((x: any) => key(x.competencia));
    expect(comps).toEqual([...comps].sort().reverse());
    const newest = dump.faturas
      .map((x) => key(x.competencia))
      .sort()
      .at(-1);
    expect(comps[0]).toBe(newest);
    const byNumero = await api(sb, '/v2/faturamento/faturas', { query: { sortField: 'numero', sortOrder: 'desc' } });
    expect(byNumero.body.data[0].numero).toBe(Math.max(...dump.faturas.map((x) => x.numero)));
    const byUpd = await all('/v2/faturamento/faturas', { sortField: 'dataHoraAtualizacao', sortOrder: 'asc' });
    const order = byUpd.map((x) => dump.faturas.find((y) => y.idFatura === x.idFatura)._dataHoraAtualizacao);
    expect(order).toEqual([...order].sort());
    const desc = await api(sb, '/v2/faturamento/faturas', { query: { sortOrder: 'desc' } });
    expect(desc.body.data[0].idFatura).toBe(Math.max(...dump.faturas.map((x) => x.idFatura)));
  });
});

describe('GET /v2/nfse', () => {
  const n = () => dump.nfse.find((x) => x.numeroNotaFiscalServico !== null);
  const cli = () => dump.clientes.find((c) => dump.nfse.some((x) => x.idCliente === c.idCliente));
  checkFilters('/v2/nfse', 'idNotaFiscalServico', 'nfse', {}, [
    { param: 'competencia', value: () => n().competencia, keep: (r) => r.competencia === n().competencia },
    { param: 'idNotaFiscalServico', value: () => n().idNotaFiscalServico, keep: (r) => r.idNotaFiscalServico === n().idNotaFiscalServico },
    // An integer parameter against a zero-padded text.
    {
      param: 'numeroNotaFiscalServico',
      value: () => Number(n().numeroNotaFiscalServico),
      keep: (r) => r.numeroNotaFiscalServico === n().numeroNotaFiscalServico,
    },
    { param: 'idFatura', value: () => n().idFatura, keep: (r) => r.idFatura === n().idFatura },
    { param: 'numeroFatura', value: () => n().numeroFatura, keep: (r) => r.numeroFatura === n().numeroFatura },
    { param: 'idCliente', value: () => cli().idCliente, keep: (r) => r.idCliente === cli().idCliente },
    { param: 'cpfCnpj', value: () => cli().cpfCnpj, keep: (r) => r.cpfCnpj === cli().cpfCnpj },
    { param: 'email', value: () => cli().email, keep: (r) => emailOf(r.idCliente) === cli().email },
  ]);

  it('combines filters with AND', async () => {
    const x = n();
    expect(await all('/v2/nfse', { competencia: x.competencia, idFatura: x.idFatura })).toHaveLength(1);
    const other = dump.nfse.find((y) => y.competencia !== x.competencia);
    expect(await all('/v2/nfse', { competencia: other.competencia, idFatura: x.idFatura })).toEqual([]);
  });
});

describe('GET /v2/financeiro/cobrancas', () => {
  const base = { isExibeCanceladas: 'true' };
  const c = () => dump.cobrancas.find((x) => x.codigoCheckout && x.dataPagamento);
  const two = () => [dump.cobrancas[3].idCliente, dump.cobrancas[9].idCliente];
  const mid = () => dump.cobrancas[Math.floor(dump.cobrancas.length / 2)];
  checkFilters('/v2/financeiro/cobrancas', 'idCobranca', 'cobrancas', base, [
    { param: 'idsCliente', value: () => two().join(','), keep: (r) => two().includes(r.idCliente) },
    {
      param: 'idsCobranca',
      value: () => `${dump.cobrancas[0].idCobranca},${dump.cobrancas[7].idCobranca}`,
      keep: (r) => [dump.cobrancas[0].idCobranca, dump.cobrancas[7].idCobranca].includes(r.idCobranca),
    },
    { param: 'cpfCnpj', value: () => c().cpfCnpj, keep: (r) => r.cpfCnpj === c().cpfCnpj },
    { param: 'email', value: () => emailOf(c().idCliente), keep: (r) => emailOf(r.idCliente) === emailOf(c().idCliente) },
    { param: 'vencimentoInicial', value: () => toQueryDate(mid().dataVencimento), keep: (r) => r.dataVencimento >= mid().dataVencimento },
    { param: 'vencimentoFinal', value: () => toQueryDate(mid().dataVencimento), keep: (r) => r.dataVencimento <= mid().dataVencimento },
    {
      param: 'dataPagamentoInicial',
      value: () => toQueryDate(c().dataPagamento),
      keep: (r) => r.dataPagamento !== null && r.dataPagamento >= c().dataPagamento,
    },
    { param: 'dataPagamentoFinal', value: () => toQueryDate(c().dataPagamento), keep: (r) => r.dataPagamento !== null && r.dataPagamento <= c().dataPagamento },
    { param: 'isQuitado', value: () => 'true', keep: (r) => r.isQuitado },
    { param: 'isOcultarBaixaPerda', value: () => 'true', keep: (r) => !r._baixaPerda },
    { param: 'codigoCheckout', value: () => c().codigoCheckout, keep: (r) => r.codigoCheckout === c().codigoCheckout },
    { param: 'numeroTitulo', value: () => c().numeroTitulo, keep: (r) => r.numeroTitulo === c().numeroTitulo },
    { param: 'numeroParcela', value: () => 1, keep: (r) => r.numeroParcela === 1 },
    {
      param: 'dataHoraAtualizacaoInicial',
      value: () => toQueryDatetime(mid().dataHoraAtualizacao),
      keep: (r) => r.dataHoraAtualizacao >= mid().dataHoraAtualizacao.slice(0, 16) + ':00',
    },
    {
      param: 'dataHoraAtualizacaoFinal',
      value: () => toQueryDatetime(mid().dataHoraAtualizacao),
      keep: (r) => r.dataHoraAtualizacao <= mid().dataHoraAtualizacao.slice(0, 16) + ':59',
    },
  ]);

  it('hides cancelled charges unless isExibeCanceladas=true; shows baixa por perda unless hidden', async () => {
    const cancelled = dump.cobrancas.filter((r) => r.dataHoraCancelamento !== null);
    const perda = dump.cobrancas.filter((r) => r._baixaPerda);
    expect(cancelled.length).toBeGreaterThan(0);
    expect(perda.length).toBeGreaterThan(0);
    const dflt = await all('/v2/financeiro/cobrancas');
    expect(dflt.length).toBe(dump.cobrancas.length - cancelled.length);
    expect(dflt.some((r) => r.situacao === 'BAIXA_POR_PERDA')).toBe(true);
    const shown = await all('/v2/financeiro/cobrancas', { isExibeCanceladas: 'true' });
    expect(shown.length).toBe(dump.cobrancas.length);
    const hidden = await all('/v2/financeiro/cobrancas', { isOcultarBaixaPerda: 'true' });
    expect(hidden.length).toBe(dump.cobrancas.length - cancelled.length - perda.length);
    const unpaid = await all('/v2/financeiro/cobrancas', { isQuitado: 'false' });
    expect(unpaid.every((r) => !r.isQuitado && r.dataPagamento === null)).toBe(true);
  });

  it('combines filters with AND', async () => {
    const x = c();
    const got = await all('/v2/financeiro/cobrancas', { idsCliente: String(x.idCliente), isQuitado: 'true', vencimentoFinal: toQueryDate(x.dataVencimento) });
    const expected = dump.cobrancas.filter(
      (r) => r.idCliente === x.idCliente && r.isQuitado && r.dataVencimento <= x.dataVencimento && r.dataHoraCancelamento === null,
    );
    expect(ids(got, 'idCobranca')).toEqual(ids(expected, 'idCobranca'));
    expect(got.map((r) => r.idCobranca)).toContain(x.idCobranca);
  });
});

describe('GET /v2/financeiro/transacoes', () => {
  const mid = () => dump.transacoes[Math.floor(dump.transacoes.length / 2)];
  const paid = () => dump.transacoes.find((x, i) => i > 40 && x.dataPagamento);
  const cli = () => dump.clientes.find((c) => dump.transacoes.some((t) => t.idClienteFornecedor === c.idCliente && c !== dump.clientes[0]));
  checkFilters('/v2/financeiro/transacoes', 'idTransacao', 'transacoes', {}, [
    { param: 'idTransacao', value: () => mid().idTransacao, keep: (r) => r.idTransacao === mid().idTransacao },
    { param: 'cpfCnpj', value: () => cli().cpfCnpj, keep: (r) => r.idClienteFornecedor === cli().idCliente },
    { param: 'competencia', value: () => mid().competencia, keep: (r) => r.competencia === mid().competencia },
    { param: 'dataVencimentoInicial', value: () => toQueryDate(mid().dataVencimento), keep: (r) => r.dataVencimento >= mid().dataVencimento },
    { param: 'dataVencimentoFinal', value: () => toQueryDate(mid().dataVencimento), keep: (r) => r.dataVencimento <= mid().dataVencimento },
    {
      param: 'dataPagamentoInicial',
      value: () => toQueryDate(paid().dataPagamento),
      keep: (r) => r.dataPagamento !== null && r.dataPagamento >= paid().dataPagamento,
    },
    {
      param: 'dataPagamentoFinal',
      value: () => toQueryDate(paid().dataPagamento),
      keep: (r) => r.dataPagamento !== null && r.dataPagamento <= paid().dataPagamento,
    },
    {
      param: 'dataHoraAtualizacaoInicial',
      value: () => toQueryDatetime(mid().dataHoraAtualizacao),
      keep: (r) => r.dataHoraAtualizacao >= mid().dataHoraAtualizacao.slice(0, 16) + ':00',
    },
    {
      param: 'dataHoraAtualizacaoFinal',
      value: () => toQueryDatetime(mid().dataHoraAtualizacao),
      keep: (r) => r.dataHoraAtualizacao <= mid().dataHoraAtualizacao.slice(0, 16) + ':59',
    },
  ]);

  it('combines filters with AND and sorts', async () => {
    const x = mid();
    const got = await all('/v2/financeiro/transacoes', {
      competencia: x.competencia,
      dataVencimentoInicial: toQueryDate(x.dataVencimento),
      sortField: 'valor',
      sortOrder: 'Desc',
    });
    const expected = dump.transacoes.filter((r) => r.competencia === x.competencia && r.dataVencimento >= x.dataVencimento);
    expect(ids(got, 'idTransacao')).toEqual(ids(expected, 'idTransacao'));
    const valores = got.map((r) => r.valor);
    expect(valores).toEqual([...valores].sort((a, b) => b - a));
  });
});

describe('GET /v2/assinaturascontratos', () => {
  // One-record results come back bare by default; normalise for comparison.
  async function subs(query: Record<string, string | number>) {
    const out: any[] = [];
    for (let pagina = 1; ; pagina++) {
      const r = await api(sb, '/v2/assinaturascontratos', { query: { ...query, pagina } });
      expect(r.status).toBe(200);
      const page = Array.isArray(r.body) ? r.body : [r.body];
      if (page.length === 0) return out;
      out.push(...page);
    }
  }
  const a = () => dump.assinaturas.find((x) => x.idIntegracao !== '' && x.statusAssinaturaContrato === 'ATIVO');
  const cli = () => dump.clientes.find((c) => dump.assinaturas.filter((s) => s.idCliente === c.idCliente).length > 1);
  const cases: Array<[string, () => string | number, (r: any) => boolean]> = [
    ['idAssinaturaContrato', () => a().idAssinaturaContrato, (r) => r.idAssinaturaContrato === a().idAssinaturaContrato],
    ['idIntegracao', () => a().idIntegracao, (r) => r.idIntegracao === a().idIntegracao],
    ['idCliente', () => cli().idCliente, (r) => r.idCliente === cli().idCliente],
    ['cpfCnpj', () => cli().cpfCnpj, (r) => r.idCliente === cli().idCliente],
    ['email', () => cli().email, (r) => emailOf(r.idCliente) === cli().email],
    ['isAtivo', () => 'false', (r) => r.statusAssinaturaContrato !== 'ATIVO'],
    [
      'competenciaReferencia',
      () => '03/2025',
      (r) => {
        const k = (c: string) => Number(c.slice(3) + c.slice(0, 2));
        return k(r.competenciaInicial) <= 202503 && (r.competenciaFinal === null || k(r.competenciaFinal) >= 202503);
      },
    ],
    [
      'vigencia',
      () => '15/06/2025',
      (r) =>
        r.dataAdesao <= '2025-06-15' &&
        (r.dataCancelamento === null || r.dataCancelamento > '2025-06-15') &&
        (r.competenciaFinal === null || Number(r.competenciaFinal.slice(3) + r.competenciaFinal.slice(0, 2)) >= 202506),
    ],
  ];
  it.each(cases)('narrows by %s', async (param, value, keep) => {
    const expected = dump.assinaturas.filter(keep);
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(dump.assinaturas.length);
    const got = await subs({ [param]: value() });
    expect(ids(got, 'idAssinaturaContrato')).toEqual(ids(expected, 'idAssinaturaContrato'));
  });

  it('combines filters with AND', async () => {
    const c = cli();
    const got = await subs({ idCliente: c.idCliente, isAtivo: 'true' });
    expect(ids(got, 'idAssinaturaContrato')).toEqual(
      ids(
        dump.assinaturas.filter((r) => r.idCliente === c.idCliente && r.statusAssinaturaContrato === 'ATIVO'),
        'idAssinaturaContrato',
      ),
    );
  });
});
