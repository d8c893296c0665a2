/**
 * The listing table against the interface specification
 * (shared/spec/billing-api-v2.md, "Endpoints"): each listing is asked at its
 * path with its own page parameter, offers only the query parameters the spec
 * lists, reads the envelope the spec gives, and what the forms offer (options,
 * sort fields, incremental refresh) names things that exist.
 */
import { describe, expect, it } from 'vitest';
import { intlZone } from '../../src/api/calendar';
import type { ListingKey, ListOperation } from '../../src/api/operations';
import { fresh } from './fresh';
import { json, scripted } from './scripted';

/** Path and query parameters of each listing, as the spec's "Endpoints" section gives them. */
const SPEC: Record<ListingKey, { path: string; params: string }> = {
  clientes: {
    path: '/v2/clientes',
    params: 'idCliente idIntegracao cpfCnpj email isAtivo isCliente isFornecedor isParceiro isFuncionario isListarTelefones isListarTags page',
  },
  faturas: {
    path: '/v2/faturamento/faturas',
    params:
      'idFatura idCliente numero idIntegracao numeroPedido competencia loteCheckout codigoCheckout cpfCnpj email dataHoraAtualizacaoInicial dataHoraAtualizacaoFinal isListarItens sortField sortOrder page',
  },
  nfse: {
    path: '/v2/nfse',
    params: 'competencia idNotaFiscalServico numeroNotaFiscalServico idFatura numeroFatura idCliente cpfCnpj email sortField sortOrder page',
  },
  cobrancas: {
    path: '/v2/financeiro/cobrancas',
    params:
      'idsCliente idsCobranca cpfCnpj email vencimentoInicial vencimentoFinal dataPagamentoInicial dataPagamentoFinal isQuitado isExibeCanceladas isOcultarBaixaPerda isListarEventosCartao codigoCheckout numeroTitulo numeroParcela dataHoraAtualizacaoInicial dataHoraAtualizacaoFinal sortField sortOrder page',
  },
  transacoes: {
    path: '/v2/financeiro/transacoes',
    params:
      'idTransacao cpfCnpj competencia dataVencimentoInicial dataVencimentoFinal dataPagamentoInicial dataPagamentoFinal dataHoraAtualizacaoInicial dataHoraAtualizacaoFinal sortField sortOrder page pageSize',
  },
  assinaturas: {
    path: '/v2/assinaturascontratos',
    params: 'idAssinaturaContrato idIntegracao idCliente cpfCnpj email vigencia competenciaReferencia isAtivo isListarDescontos pagina',
  },
};

/** The type the spec gives each query parameter, as the filter kind that formats it (a CPF/CNPJ is a string whose digits the add-on checks). */
const KINDS: Record<string, string> = Object.fromEntries(
  Object.entries({
    integer: 'idCliente idFatura numero idNotaFiscalServico numeroNotaFiscalServico numeroFatura numeroTitulo numeroParcela idTransacao idAssinaturaContrato',
    string: 'idIntegracao email numeroPedido loteCheckout codigoCheckout vigencia competenciaReferencia',
    cpfCnpj: 'cpfCnpj',
    boolean:
      'isAtivo isCliente isFornecedor isParceiro isFuncionario isListarTelefones isListarTags isListarItens isQuitado isExibeCanceladas isOcultarBaixaPerda isListarEventosCartao isListarDescontos',
    competencia: 'competencia',
    date: 'vencimentoInicial vencimentoFinal dataPagamentoInicial dataPagamentoFinal dataVencimentoInicial dataVencimentoFinal',
    datetime: 'dataHoraAtualizacaoInicial dataHoraAtualizacaoFinal',
    idList: 'idsCliente idsCobranca',
    sortField: 'sortField',
    sortOrder: 'sortOrder',
  }).flatMap(([kind, names]) => names.split(' ').map((name) => [name, kind])),
);

function client(BillingClient: Awaited<ReturnType<typeof fresh>>['BillingClient'], answers = [json(200, { data: [] })], pageSize?: number) {
  const { transport, sent } = scripted(answers);
  return {
    billing: new BillingClient({ baseUrl: 'https://api.test', apiKey: 'k', transport, sleep: () => {}, zone: intlZone('America/Sao_Paulo'), pageSize }),
    sent,
  };
}

describe('listings against the spec', () => {
  it('asks each listing at its path, with its own page parameter and only the parameters the spec lists', async () => {
    const m = await fresh();
    const operations = Object.values(m.listings) as ListOperation[];
    for (const op of operations) {
      const spec = SPEC[op.key];
      const params = spec.params.split(' ');
      expect(m.listing(op.key)).toBe(op);
      expect(op).toMatchObject({ kind: 'list', key: op.key, method: 'GET', path: spec.path });
      expect(params, op.key).toContain(op.pageParam);
      for (const f of op.filters) expect(params, `${op.key}: ${f.name}`).toContain(f.name);
      // Every parameter but paging is a filter the forms offer.
      expect(op.filters.map((f) => f.name).sort(), op.key).toEqual(params.filter((p) => p !== op.pageParam && p !== op.pageSizeParam).sort());

      const { billing, sent } = client(m.BillingClient, [json(200, { data: [] }), json(200, { data: [] })], 50);
      billing.pager(op.key, {}).nextWave();
      const url = new URL(sent[1].url);
      expect(url.pathname, op.key).toBe(spec.path);
      expect(url.searchParams.get(op.key === 'assinaturas' ? 'pagina' : 'page'), op.key).toBe('1');
      expect(url.searchParams.get('pageSize'), op.key).toBe(op.key === 'transacoes' ? '50' : null);
      expect(
        [...url.searchParams.keys()].every((p) => params.includes(p)),
        op.key,
      ).toBe(true);
    }
  });

  it('formats each filter as the type the spec gives its parameter', async () => {
    const m = await fresh();
    const operations = Object.values(m.listings) as ListOperation[];
    for (const op of operations) for (const f of op.filters) expect(f.kind, `${op.key}.${f.name}`).toBe(KINDS[f.name]);
  });

  it('offers the isListar switches as options, and only them', async () => {
    const m = await fresh();
    const operations = Object.values(m.listings) as ListOperation[];
    for (const op of operations) for (const f of op.filters) expect(Boolean(f.option), `${op.key}.${f.name}`).toBe(f.name.startsWith('isListar'));
  });

  it('offers sort fields that are fields of the listing’s records or the update time the spec names', async () => {
    const m = await fresh();
    const operations = Object.values(m.listings) as ListOperation[];
    for (const op of operations) {
      const sortField = op.filters.find((f) => f.kind === 'sortField');
      const order = op.filters.find((f) => f.kind === 'sortOrder');
      expect(Boolean(order), op.key).toBe(Boolean(sortField));
      if (!sortField) continue;
      expect(sortField.choices?.length, op.key).toBeGreaterThan(2);
      const keys = [...m.tableSpec(op).columns.map((c) => c.key), 'dataHoraAtualizacao'];
      for (const choice of sortField.choices ?? []) expect(keys, `${op.key} sorted by ${choice}`).toContain(choice);
      expect(sortField.choices, op.key).toContain(op.idField);
    }
  });

  it('refreshes incrementally exactly the listings that filter on the update time, by those filters', async () => {
    const m = await fresh();
    const operations = Object.values(m.listings) as ListOperation[];
    for (const op of operations) {
      const from = op.filters.find((f) => f.name === 'dataHoraAtualizacaoInicial');
      const to = op.filters.find((f) => f.name === 'dataHoraAtualizacaoFinal');
      expect(op.updatedSince, op.key).toEqual(from && to ? { from: from.name, to: to.name } : undefined);
      if (from && to) expect([from.kind, to.kind]).toEqual(['datetime', 'datetime']);
    }
    expect(operations.filter((op) => op.updatedSince).map((op) => op.key)).toEqual(['faturas', 'cobrancas', 'transacoes']);
  });

  it('identifies records by an integer id field of their own', async () => {
    const m = await fresh();
    const operations = Object.values(m.listings) as ListOperation[];
    for (const op of operations) expect(m.tableSpec(op).columns.find((c) => c.key === op.idField)?.cell, op.key).toBe('integer');
  });

  it('reads a bare subscription record, as the spec shows it, and no bare list where the spec gives the list envelope', async () => {
    const m = await fresh();
    const operations = Object.values(m.listings) as ListOperation[];
    const subscription = client(m.BillingClient, [json(200, { idAssinaturaContrato: 9, nomeCliente: 'Padaria' }), json(200, {})]);
    expect(subscription.billing.listAll('assinaturas').records).toEqual([{ idAssinaturaContrato: 9, nomeCliente: 'Padaria' }]);
    for (const op of operations.filter((o) => o.key !== 'assinaturas')) {
      expect(op.envelope).toBe('list');
      const bare = client(m.BillingClient, [json(200, []), json(200, [])]);
      expect(() => bare.billing.listAll(op.key), op.key).toThrow(m.SchemaError);
    }
  });
});
