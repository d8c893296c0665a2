/** GET /v2/faturamento/faturas */
import { competenciaKey } from '../dates.js';
import type { Route } from '../envelopes.js';
import { applySort, badQuery, customerIdsMatching, pagedList, readSort, type SortKey } from '../listing.js';
import { QueryReader } from '../query.js';
import { stripHidden, type FaturaRow } from '../records.js';

const SORT_FIELDS: Record<string, SortKey<FaturaRow>> = {
  idFatura: (r) => r.idFatura,
  numero: (r) => r.numero,
  competencia: (r) => competenciaKey(r.competencia),
  dataHoraAtualizacao: (r) => r._dataHoraAtualizacao,
  dataEmissao: (r) => r.dataEmissao,
  valorTotal: (r) => r.valorTotal,
  idCliente: (r) => r.idCliente,
};

export const faturasRoute: Route = {
  method: 'GET',
  pattern: /^\/v2\/faturamento\/faturas$/,
  envelope: 'list',
  hasBody: false,
  handle(ctx) {
    const q = new QueryReader(ctx.query);
    const f = {
      idFatura: q.int('idFatura'),
      idCliente: q.int('idCliente'),
      numero: q.int('numero'),
      idIntegracao: q.str('idIntegracao'),
      numeroPedido: q.str('numeroPedido'),
      competencia: q.competencia('competencia'),
      loteCheckout: q.str('loteCheckout'),
      codigoCheckout: q.str('codigoCheckout'),
      cpfCnpj: q.cpfCnpj('cpfCnpj'),
      email: q.str('email'),
      atualizacaoIni: q.datetime('dataHoraAtualizacaoInicial'),
      atualizacaoFim: q.datetime('dataHoraAtualizacaoFinal'),
    };
    const listarItens = q.bool('isListarItens') === true;
    const sort = readSort(q, ctx.query, SORT_FIELDS);
    const page = q.page('page', ctx.config.pageBase);
    const bad = badQuery('list', q);
    if (bad) return bad;
    const clientIds = customerIdsMatching(ctx.org.clientes, f.cpfCnpj, f.email);
    // Minute-precision bounds, both inclusive.
    const ini = f.atualizacaoIni && f.atualizacaoIni + ':00';
    const fim = f.atualizacaoFim && f.atualizacaoFim + ':59';
    const rows = ctx.org.faturas.filter(
      (r) =>
        (f.idFatura === undefined || r.idFatura === f.idFatura) &&
        (f.idCliente === undefined || r.idCliente === f.idCliente) &&
        (f.numero === undefined || r.numero === f.numero) &&
        (f.idIntegracao === undefined || r.idIntegracao === f.idIntegracao) &&
        (f.numeroPedido === undefined || r.numeroPedido === f.numeroPedido) &&
        (f.competencia === undefined || r.competencia === f.competencia) &&
        (f.loteCheckout === undefined || r._loteCheckout === f.loteCheckout) &&
        (f.codigoCheckout === undefined || r.codigoCheckout === f.codigoCheckout) &&
        (clientIds === null || clientIds.has(r.idCliente)) &&
        (ini === undefined || r._dataHoraAtualizacao >= ini) &&
        (fim === undefined || r._dataHoraAtualizacao <= fim),
    );
    // Items: null unless asked for, as in the listings the spec shows.
    const present = (r: FaturaRow) => ({ ...stripHidden(r), itens: listarItens ? r.itens : null });
    return pagedList(ctx, { listing: 'faturas', rows: applySort(rows, sort), page, present });
  },
};
