/** GET /v2/financeiro/transacoes */
import { competenciaKey } from '../dates.js';
import type { Route } from '../envelopes.js';
import { applySort, badQuery, customerIdsMatching, ITEMS_PER_PAGE, pagedList, readSort, type SortKey } from '../listing.js';
import { QueryReader } from '../query.js';
import type { Transacao } from '../records.js';

/** Larger pageSize values are clamped silently; the paging object then shows the size used. */
export const MAX_PAGE_SIZE = 100;

const SORT_FIELDS: Record<string, SortKey<Transacao>> = {
  idTransacao: (r) => r.idTransacao,
  dataVencimento: (r) => r.dataVencimento,
  dataPagamento: (r) => r.dataPagamento,
  competencia: (r) => competenciaKey(r.competencia),
  dataHoraAtualizacao: (r) => r.dataHoraAtualizacao,
  dataHoraInclusao: (r) => r.dataHoraInclusao,
  valor: (r) => r.valor,
};

function inRange(v: string | null, ini: string | undefined, fim: string | undefined): boolean {
  if (ini === undefined && fim === undefined) return true;
  if (v === null) return false;
  return (ini === undefined || v >= ini) && (fim === undefined || v <= fim);
}

export const transacoesRoute: Route = {
  method: 'GET',
  pattern: /^\/v2\/financeiro\/transacoes$/,
  envelope: 'list',
  hasBody: false,
  handle(ctx) {
    const q = new QueryReader(ctx.query);
    const f = {
      idTransacao: q.int('idTransacao'),
      cpfCnpj: q.cpfCnpj('cpfCnpj'),
      competencia: q.competencia('competencia'),
      vencIni: q.date('dataVencimentoInicial'),
      vencFim: q.date('dataVencimentoFinal'),
      pagIni: q.date('dataPagamentoInicial'),
      pagFim: q.date('dataPagamentoFinal'),
      atuIni: q.datetime('dataHoraAtualizacaoInicial'),
      atuFim: q.datetime('dataHoraAtualizacaoFinal'),
    };
    const sort = readSort(q, ctx.query, SORT_FIELDS);
    const page = q.page('page', ctx.config.pageBase);
    let size = q.int('pageSize') ?? ITEMS_PER_PAGE;
    if (size < 1) {
      q.errors.push(`Parâmetro 'pageSize' inválido: '${size}' (mínimo 1)`);
      size = ITEMS_PER_PAGE;
    }
    size = Math.min(size, MAX_PAGE_SIZE);
    const bad = badQuery('list', q);
    if (bad) return bad;
    const ids = customerIdsMatching(ctx.org.clientes, f.cpfCnpj, undefined);
    const atuIni = f.atuIni && f.atuIni + ':00';
    const atuFim = f.atuFim && f.atuFim + ':59';
    const rows = ctx.org.transacoes.filter(
      (r) =>
        (f.idTransacao === undefined || r.idTransacao === f.idTransacao) &&
        (ids === null || ids.has(r.idClienteFornecedor)) &&
        (f.competencia === undefined || r.competencia === f.competencia) &&
        inRange(r.dataVencimento, f.vencIni, f.vencFim) &&
        inRange(r.dataPagamento, f.pagIni, f.pagFim) &&
        inRange(r.dataHoraAtualizacao, atuIni, atuFim),
    );
    const present = (r: Transacao) => ({ ...r, planosConta: r.planosConta.map((p) => ({ ...p })) });
    return pagedList(ctx, { listing: 'transacoes', rows: applySort(rows, sort), page, present, size });
  },
};
