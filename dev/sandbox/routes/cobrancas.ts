/** GET /v2/financeiro/cobrancas */
import { competenciaKey } from '../dates.js';
import type { Route } from '../envelopes.js';
import { applySort, badQuery, customerIdsMatching, pagedList, readSort, type SortKey } from '../listing.js';
import { QueryReader } from '../query.js';
import { stripHidden, type CobrancaRow } from '../records.js';

const SORT_FIELDS: Record<string, SortKey<CobrancaRow>> = {
  idCobranca: (r) => r.idCobranca,
  numeroTitulo: (r) => r.numeroTitulo,
  nossoNumero: (r) => r.nossoNumero,
  dataVencimento: (r) => r.dataVencimento,
  dataPagamento: (r) => r.dataPagamento,
  dataEmissao: (r) => r.dataEmissao,
  competencia: (r) => competenciaKey(r.competencia),
  dataHoraAtualizacao: (r) => r.dataHoraAtualizacao,
  valor: (r) => r.valor,
};

function inRange(v: string | null, ini: string | undefined, fim: string | undefined): boolean {
  if (ini === undefined && fim === undefined) return true;
  if (v === null) return false;
  return (ini === undefined || v >= ini) && (fim === undefined || v <= fim);
}

export const cobrancasRoute: Route = {
  method: 'GET',
  pattern: /^\/v2\/financeiro\/cobrancas$/,
  envelope: 'list',
  hasBody: false,
  handle(ctx) {
    const q = new QueryReader(ctx.query);
    const f = {
      idsCliente: q.intList('idsCliente'),
      idsCobranca: q.intList('idsCobranca'),
      cpfCnpj: q.cpfCnpj('cpfCnpj'),
      email: q.str('email'),
      vencIni: q.date('vencimentoInicial'),
      vencFim: q.date('vencimentoFinal'),
      pagIni: q.date('dataPagamentoInicial'),
      pagFim: q.date('dataPagamentoFinal'),
      isQuitado: q.bool('isQuitado'),
      // Cancelled charges are hidden unless asked for; "baixa por perda" is shown unless hidden.
      exibeCanceladas: q.bool('isExibeCanceladas') === true,
      ocultarBaixaPerda: q.bool('isOcultarBaixaPerda') === true,
      codigoCheckout: q.str('codigoCheckout'),
      numeroTitulo: q.int('numeroTitulo'),
      numeroParcela: q.int('numeroParcela'),
      atuIni: q.datetime('dataHoraAtualizacaoInicial'),
      atuFim: q.datetime('dataHoraAtualizacaoFinal'),
    };
    const listarEventos = q.bool('isListarEventosCartao') === true;
    const sort = readSort(q, ctx.query, SORT_FIELDS);
    const page = q.page('page', ctx.config.pageBase);
    const bad = badQuery('list', q);
    if (bad) return bad;
    const emailIds = customerIdsMatching(ctx.org.clientes, undefined, f.email);
    const atuIni = f.atuIni && f.atuIni + ':00';
    const atuFim = f.atuFim && f.atuFim + ':59';
    const rows = ctx.org.cobrancas.filter(
      (r) =>
        (f.idsCliente === undefined || f.idsCliente.has(r.idCliente)) &&
        (f.idsCobranca === undefined || f.idsCobranca.has(r.idCobranca)) &&
        (f.cpfCnpj === undefined || r.cpfCnpj === f.cpfCnpj) &&
        (emailIds === null || emailIds.has(r.idCliente)) &&
        inRange(r.dataVencimento, f.vencIni, f.vencFim) &&
        inRange(r.dataPagamento, f.pagIni, f.pagFim) &&
        (f.isQuitado === undefined || r.isQuitado === f.isQuitado) &&
        (f.exibeCanceladas || r.dataHoraCancelamento === null) &&
        (!f.ocultarBaixaPerda || !r._baixaPerda) &&
        (f.codigoCheckout === undefined || r.codigoCheckout === f.codigoCheckout) &&
        (f.numeroTitulo === undefined || r.numeroTitulo === f.numeroTitulo) &&
        (f.numeroParcela === undefined || r.numeroParcela === f.numeroParcela) &&
        inRange(r.dataHoraAtualizacao, atuIni, atuFim),
    );
    // eventosCartao is typed "array", not nullable: not asked for means [].
    const present = (r: CobrancaRow) => ({ ...stripHidden(r), eventosCartao: listarEventos ? r.eventosCartao : [] });
    return pagedList(ctx, { listing: 'cobrancas', rows: applySort(rows, sort), page, present });
  },
};
