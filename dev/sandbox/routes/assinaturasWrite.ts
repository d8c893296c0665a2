/** POST/PUT /v2/assinaturascontratos/plano and /personalizado. */
import { nowLocalDatetime } from '../dates.js';
import { errorReply, subscriptionReply, type Reply, type Route, type RouteContext } from '../envelopes.js';
import type { OrgData } from '../generate.js';
import { priceSubscription } from '../pricing.js';
import type { Assinatura, Cliente, DescontoAssinatura } from '../records.js';
import { BodyReader, FORMAS_FATURAMENTO, isPlainObject, MAX_DIA_VENCIMENTO, PERIODICIDADES, readDescontos, type DescontoBody } from '../validation.js';
import { presentAssinatura } from './assinaturas.js';

function bodyReader(ctx: RouteContext): BodyReader | Reply {
  if (!isPlainObject(ctx.body)) return errorReply('subscription', 400, ['body: o corpo deve ser um objeto JSON']);
  return new BodyReader(ctx.body);
}

/** Customer checks run only when the id itself was well-formed. */
function checkCliente(r: BodyReader, org: OrgData, idCliente: number | undefined): Cliente | undefined {
  if (idCliente === undefined) return undefined;
  const c = org.clienteById.get(idCliente);
  if (!c) r.error('idCliente', `cliente ${idCliente} não encontrado`);
  else if (!c.isAtivo) r.error('idCliente', `cliente ${idCliente} está inativo`);
  return c;
}

function checkDuplicate(r: BodyReader, ctx: RouteContext, idIntegracao: string | undefined): void {
  if (idIntegracao === undefined || ctx.config.duplicateIntegrationId !== 'reject') return;
  if (ctx.org.assinaturas.some((a) => a.idIntegracao === idIntegracao)) r.error('idIntegracao', `já existe assinatura com idIntegracao '${idIntegracao}'`);
}

function insert(org: OrgData, a: Assinatura): Reply {
  org.assinaturas.push(a);
  org.assinaturaById.set(a.idAssinaturaContrato, a);
  return subscriptionReply(presentAssinatura(a, true), 'Assinatura incluída com sucesso');
}

function descontoRecords(org: OrgData, idAssinatura: number, ds: DescontoBody[]): DescontoAssinatura[] {
  // Stored and returned negative, as the spec says discount amounts appear in responses.
  return ds.map((d) => ({
    idDescontoAssinaturaContrato: org.next.idDesconto++,
    idAssinaturaContrato: idAssinatura,
    idIntegracao: d.idIntegracao,
    descricao: d.descricao,
    tipoDesconto: d.tipoDesconto,
    valorDesconto: -d.valorDesconto,
    competenciaInicial: d.competenciaInicial,
    competenciaFinal: d.competenciaFinal,
  }));
}

function positiveDiscounts(a: Assinatura) {
  return (a.descontos ?? []).map((d) => ({ ...d, valorDesconto: Math.abs(d.valorDesconto) }));
}

export const createPlanoRoute: Route = {
  method: 'POST',
  pattern: /^\/v2\/assinaturascontratos\/plano$/,
  envelope: 'subscription',
  hasBody: true,
  handle(ctx) {
    const r = bodyReader(ctx);
    if (!(r instanceof BodyReader)) return r;
    const b = {
      idIntegracao: r.string('idIntegracao', 60),
      idCliente: r.int('idCliente', 1),
      dataAdesao: r.date('dataAdesao'),
      competenciaInicial: r.competencia('competenciaInicial'),
      idPlano: r.int('idPlano', 1),
      quantidade: r.int('quantidade', 1, 999_999),
      formaFaturamentoAssinatura: r.oneOf('formaFaturamentoAssinatura', FORMAS_FATURAMENTO),
      diaVencimentoCobranca: r.int('diaVencimentoCobranca', 1, MAX_DIA_VENCIMENTO),
    };
    const descontos = readDescontos(r);
    const cliente = checkCliente(r, ctx.org, b.idCliente);
    const plano = b.idPlano === undefined ? undefined : ctx.org.planos.find((p) => p.idPlano === b.idPlano);
    if (b.idPlano !== undefined && !plano) r.error('idPlano', `plano ${b.idPlano} não encontrado`);
    checkDuplicate(r, ctx, b.idIntegracao);
    if (r.errors.length || !cliente || !plano) return errorReply('subscription', 400, r.errors);
    const ok = b as { [K in keyof typeof b]-?: NonNullable<(typeof b)[K]> };
    const produto = ctx.org.produtos.find((p) => p.idProduto === plano.idProduto)!;
    const id = ctx.org.next.idAssinatura++;
    const price = priceSubscription({
      tipoCalculo: plano.tipoCalculo,
      quantidade: ok.quantidade,
      valorUnitario: plano.valorUnitario,
      competenciaInicial: ok.competenciaInicial,
      descontos,
    });
    const now = nowLocalDatetime();
    return insert(ctx.org, {
      idAssinaturaContrato: id,
      idIntegracao: ok.idIntegracao,
      idCliente: cliente.idCliente,
      nomeCliente: cliente.nomeFantasia,
      dataAdesao: ok.dataAdesao,
      competenciaInicial: ok.competenciaInicial,
      competenciaFinal: null,
      tipoContrato: 'PLANO',
      periodicidade: 'MENSAL',
      tipoCalculo: plano.tipoCalculo,
      idPlano: plano.idPlano,
      descricaoPlano: plano.descricao,
      idProduto: produto.idProduto,
      descricaoProduto: produto.descricao,
      descricaoAssinaturaContrato: plano.descricao,
      quantidade: ok.quantidade,
      valorUnitario: plano.valorUnitario,
      ...price,
      isDescontoVencimentoBoleto: false,
      formaFaturamentoAssinatura: ok.formaFaturamentoAssinatura,
      diaVencimentoCobranca: ok.diaVencimentoCobranca,
      competenciaPagamento: 'COMPETENCIA_CORRENTE',
      discriminacaoNfse: null,
      informacaoAdicionalBoleto: null,
      dataHoraCadastro: now,
      dataHoraAtualizacao: now,
      statusAssinaturaContrato: 'ATIVO',
      dataCancelamento: null,
      motivoCancelamento: null,
      descontos: descontoRecords(ctx.org, id, descontos),
    });
  },
};

export const createPersonalizadoRoute: Route = {
  method: 'POST',
  pattern: /^\/v2\/assinaturascontratos\/personalizado$/,
  envelope: 'subscription',
  hasBody: true,
  handle(ctx) {
    const r = bodyReader(ctx);
    if (!(r instanceof BodyReader)) return r;
    const b = {
      idIntegracao: r.string('idIntegracao', 60),
      idCliente: r.int('idCliente', 1),
      dataAdesao: r.date('dataAdesao'),
      competenciaInicial: r.competencia('competenciaInicial'),
      periodicidade: r.oneOf('periodicidade', PERIODICIDADES),
      idProduto: r.int('idProduto', 1),
      descricaoAssinaturaContrato: r.string('descricaoAssinaturaContrato', 255),
      valor: r.money('valor'),
      formaFaturamentoAssinatura: r.oneOf('formaFaturamentoAssinatura', FORMAS_FATURAMENTO),
      diaVencimentoCobranca: r.int('diaVencimentoCobranca', 1, MAX_DIA_VENCIMENTO),
    };
    const cliente = checkCliente(r, ctx.org, b.idCliente);
    const produto = b.idProduto === undefined ? undefined : ctx.org.produtos.find((p) => p.idProduto === b.idProduto);
    if (b.idProduto !== undefined && !produto) r.error('idProduto', `produto ${b.idProduto} não encontrado`);
    checkDuplicate(r, ctx, b.idIntegracao);
    if (r.errors.length || !cliente || !produto) return errorReply('subscription', 400, r.errors);
    const ok = b as { [K in keyof typeof b]-?: NonNullable<(typeof b)[K]> };
    const now = nowLocalDatetime();
    return insert(ctx.org, {
      idAssinaturaContrato: ctx.org.next.idAssinatura++,
      idIntegracao: ok.idIntegracao,
      idCliente: cliente.idCliente,
      nomeCliente: cliente.nomeFantasia,
      dataAdesao: ok.dataAdesao,
      competenciaInicial: ok.competenciaInicial,
      competenciaFinal: null,
      tipoContrato: 'PERSONALIZADO',
      periodicidade: ok.periodicidade,
      tipoCalculo: 'PRECO_FIXO',
      idPlano: null,
      descricaoPlano: null,
      idProduto: produto.idProduto,
      descricaoProduto: produto.descricao,
      descricaoAssinaturaContrato: ok.descricaoAssinaturaContrato,
      quantidade: 1,
      valorUnitario: ok.valor,
      valorBruto: ok.valor,
      valorDesconto: 0,
      valorLiquido: ok.valor,
      isDescontoVencimentoBoleto: false,
      formaFaturamentoAssinatura: ok.formaFaturamentoAssinatura,
      diaVencimentoCobranca: ok.diaVencimentoCobranca,
      competenciaPagamento: 'COMPETENCIA_CORRENTE',
      discriminacaoNfse: null,
      informacaoAdicionalBoleto: null,
      dataHoraCadastro: now,
      dataHoraAtualizacao: now,
      statusAssinaturaContrato: 'ATIVO',
      dataCancelamento: null,
      motivoCancelamento: null,
      descontos: [],
    });
  },
};

/**
 * Body errors first (as a framework validating the body before the handler
 * would), then the id: a non-numeric id is a 400, an unknown one or one of the
 * other contract type a 404, a cancelled one a 400.
 */
function findForUpdate(ctx: RouteContext, r: BodyReader, tipo: string): Assinatura | Reply {
  const raw = ctx.params[0];
  if (!/^\d{1,10}$/.test(raw)) r.error('id', `identificador inválido: '${decodeURIComponent(raw)}'`);
  if (r.errors.length) return errorReply('subscription', 400, r.errors);
  const a = ctx.org.assinaturaById.get(Number(raw));
  if (!a || a.tipoContrato !== tipo) return errorReply('subscription', 404, [`Assinatura ${raw} não encontrada`]);
  if (a.statusAssinaturaContrato !== 'ATIVO') return errorReply('subscription', 400, [`Assinatura ${raw} está cancelada e não pode ser alterada`]);
  return a;
}

export const updatePlanoRoute: Route = {
  method: 'PUT',
  pattern: /^\/v2\/assinaturascontratos\/plano\/([^/]+)$/,
  envelope: 'subscription',
  hasBody: true,
  handle(ctx) {
    const r = bodyReader(ctx);
    if (!(r instanceof BodyReader)) return r;
    const quantidade = r.int('quantidade', 1, 999_999);
    const descricao = r.string('descricaoAssinaturaContrato', 255);
    const a = findForUpdate(ctx, r, 'PLANO');
    if (!('idAssinaturaContrato' in a)) return a;
    a.quantidade = quantidade!;
    a.descricaoAssinaturaContrato = descricao!;
    Object.assign(a, priceSubscription({ ...a, descontos: positiveDiscounts(a) }));
    a.dataHoraAtualizacao = nowLocalDatetime();
    return subscriptionReply(presentAssinatura(a, true), 'Assinatura alterada com sucesso');
  },
};

export const updatePersonalizadoRoute: Route = {
  method: 'PUT',
  pattern: /^\/v2\/assinaturascontratos\/personalizado\/([^/]+)$/,
  envelope: 'subscription',
  hasBody: true,
  handle(ctx) {
    const r = bodyReader(ctx);
    if (!(r instanceof BodyReader)) return r;
    const valor = r.money('valor');
    const descricao = r.string('descricaoAssinaturaContrato', 255);
    const atualiza = r.bool('isAtualizaDiscriminacaoNfse');
    // Only required when it is to be applied; ignored otherwise.
    const discriminacao = atualiza ? r.string('discriminacaoNfse', 2000) : undefined;
    const a = findForUpdate(ctx, r, 'PERSONALIZADO');
    if (!('idAssinaturaContrato' in a)) return a;
    a.valorUnitario = valor!;
    a.descricaoAssinaturaContrato = descricao!;
    if (atualiza) a.discriminacaoNfse = discriminacao!;
    Object.assign(a, priceSubscription({ ...a, descontos: positiveDiscounts(a) }));
    a.dataHoraAtualizacao = nowLocalDatetime();
    return subscriptionReply(presentAssinatura(a, true), 'Assinatura alterada com sucesso');
  },
};
