/** GET /v2/assinaturascontratos (page parameter: pagina). */
import { competenciaKey, competenciaOf } from '../dates.js';
import { errorReply, listReply, type Reply, type Route } from '../envelopes.js';
import { customerIdsMatching, ITEMS_PER_PAGE, pagingObject, sliceForPage } from '../listing.js';
import { QueryReader } from '../query.js';
import type { Assinatura } from '../records.js';

export function presentAssinatura(a: Assinatura, listarDescontos: boolean): Assinatura {
  return { ...a, descontos: listarDescontos && a.descontos ? a.descontos.map((d) => ({ ...d })) : null };
}

/** In force on a date: joined on or before it, not cancelled by then, last competência not before its month. */
function vigenteEm(a: Assinatura, date: string): boolean {
  if (a.dataAdesao > date) return false;
  if (a.dataCancelamento !== null && a.dataCancelamento <= date) return false;
  return a.competenciaFinal === null || competenciaKey(a.competenciaFinal) >= competenciaKey(competenciaOf(date));
}

function cobreCompetencia(a: Assinatura, comp: string): boolean {
  const k = competenciaKey(comp);
  return competenciaKey(a.competenciaInicial) <= k && (a.competenciaFinal === null || competenciaKey(a.competenciaFinal) >= k);
}

export const assinaturasListRoute: Route = {
  method: 'GET',
  pattern: /^\/v2\/assinaturascontratos$/,
  envelope: 'subscription',
  hasBody: false,
  handle(ctx): Reply {
    const q = new QueryReader(ctx.query);
    const f = {
      idAssinaturaContrato: q.int('idAssinaturaContrato'),
      idIntegracao: q.str('idIntegracao'),
      idCliente: q.int('idCliente'),
      cpfCnpj: q.cpfCnpj('cpfCnpj'),
      email: q.str('email'),
      vigencia: q.date('vigencia'),
      competenciaReferencia: q.competencia('competenciaReferencia'),
      isAtivo: q.bool('isAtivo'),
    };
    const listarDescontos = q.bool('isListarDescontos') === true;
    const base = ctx.config.pageBase;
    const pagina = ctx.ignorePage ? base : q.page('pagina', base);
    if (q.errors.length) return errorReply('subscription', 400, q.errors);
    const ids = customerIdsMatching(ctx.org.clientes, f.cpfCnpj, f.email);
    const rows = ctx.org.assinaturas.filter(
      (a) =>
        (f.idAssinaturaContrato === undefined || a.idAssinaturaContrato === f.idAssinaturaContrato) &&
        (f.idIntegracao === undefined || a.idIntegracao === f.idIntegracao) &&
        (f.idCliente === undefined || a.idCliente === f.idCliente) &&
        (ids === null || ids.has(a.idCliente)) &&
        (f.vigencia === undefined || vigenteEm(a, f.vigencia)) &&
        (f.competenciaReferencia === undefined || cobreCompetencia(a, f.competenciaReferencia)) &&
        (f.isAtivo === undefined || (a.statusAssinaturaContrato === 'ATIVO') === f.isAtivo),
    );
    const data = sliceForPage(rows, pagina, base, ITEMS_PER_PAGE).map((a) => presentAssinatura(a, listarDescontos));
    switch (ctx.config.subscriptionListShape) {
      case 'envelope':
        return listReply(data, pagingObject(ctx.config.pagingStyles.assinaturas, pagina, rows.length, ITEMS_PER_PAGE));
      case 'record':
        return { status: 200, body: rows.length === 1 && data.length === 1 ? data[0] : data };
      case 'array':
        return { status: 200, body: data };
    }
  },
};
