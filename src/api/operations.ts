/**
 * The whole interface as one table: every operation's method, path, filters,
 * record, paging and body. The client, the import forms and the sheet columns
 * are all driven from here; adding a filter is one line.
 */
import * as z from 'zod';
import type { FieldMap } from './fields';
import type { DateInput, FilterDef, FilterKind } from './filters';
import * as records from './records';

export type ListingKey = 'clientes' | 'faturas' | 'nfse' | 'cobrancas' | 'transacoes' | 'assinaturas';
export type WriteKey = 'criarAssinaturaPlano' | 'atualizarAssinaturaPlano' | 'criarAssinaturaPersonalizada' | 'atualizarAssinaturaPersonalizada' | 'emitirNfse';

export interface ListOperation {
  kind: 'list';
  key: ListingKey;
  label: string;
  method: 'GET';
  path: string;
  filters: readonly FilterDef[];
  record: FieldMap;
  /** Identifies a record across pages: repeated ids reveal a server that ignores the page parameter. */
  idField: string;
  pageParam: 'page' | 'pagina';
  pageSizeParam?: 'pageSize';
  /** 'flexible': the spec does not give this listing's envelope (bare record, bare array or list envelope). */
  envelope: 'list' | 'flexible';
  /** Filters on dataHoraAtualizacao, which make incremental refreshes possible. */
  updatedSince?: { from: string; to: string };
}

export interface WriteOperation {
  kind: 'write';
  key: WriteKey;
  label: string;
  method: 'POST' | 'PUT';
  /** `{id}` is replaced by the subscription's id. */
  path: string;
  body: z.ZodObject;
  response: 'subscription' | 'emission';
}

/** Keeps each filter's name and kind as literal types, so callers get per-operation filter types. */
function filter<const N extends string, const K extends FilterKind>(name: N, kind: K, label: string, extra: Partial<FilterDef> = {}) {
  return { name, kind, label, ...extra } as FilterDef & { name: N; kind: K };
}
const option = <const N extends string>(name: N, label: string) => filter(name, 'boolean', label, { option: true });
const sort = (choices: readonly string[]) =>
  [filter('sortField', 'sortField', 'Ordenar por', { choices }), filter('sortOrder', 'sortOrder', 'Ordem')] as const;
const updatedBetween = () =>
  [
    filter('dataHoraAtualizacaoInicial', 'datetime', 'Atualizado a partir de'),
    filter('dataHoraAtualizacaoFinal', 'datetime', 'Atualizado até'),
  ] as const;

export const listings = {
  clientes: {
    kind: 'list',
    key: 'clientes',
    label: 'Clientes',
    method: 'GET',
    path: '/v2/clientes',
    filters: [
      filter('idCliente', 'integer', 'ID do cliente'),
      filter('idIntegracao', 'string', 'ID de integração'),
      filter('cpfCnpj', 'cpfCnpj', 'CPF/CNPJ'),
      filter('email', 'string', 'E-mail'),
      filter('isAtivo', 'boolean', 'Ativo'),
      filter('isCliente', 'boolean', 'Cliente'),
      filter('isFornecedor', 'boolean', 'Fornecedor'),
      filter('isParceiro', 'boolean', 'Parceiro'),
      filter('isFuncionario', 'boolean', 'Funcionário'),
      option('isListarTelefones', 'Incluir telefones'),
      option('isListarTags', 'Incluir tags'),
    ],
    record: records.customer,
    idField: 'idCliente',
    pageParam: 'page',
    envelope: 'list',
  },
  faturas: {
    kind: 'list',
    key: 'faturas',
    label: 'Faturas',
    method: 'GET',
    path: '/v2/faturamento/faturas',
    filters: [
      filter('idFatura', 'integer', 'ID da fatura'),
      filter('idCliente', 'integer', 'ID do cliente'),
      filter('numero', 'integer', 'Número'),
      filter('idIntegracao', 'string', 'ID de integração'),
      filter('numeroPedido', 'string', 'Número do pedido'),
      filter('competencia', 'competencia', 'Competência'),
      filter('loteCheckout', 'string', 'Lote de checkout'),
      filter('codigoCheckout', 'string', 'Código de checkout'),
      filter('cpfCnpj', 'cpfCnpj', 'CPF/CNPJ'),
      filter('email', 'string', 'E-mail'),
      ...updatedBetween(),
      option('isListarItens', 'Incluir itens'),
      ...sort(['idFatura', 'numero', 'competencia', 'dataHoraAtualizacao']),
    ],
    record: records.invoice,
    idField: 'idFatura',
    pageParam: 'page',
    envelope: 'list',
    updatedSince: { from: 'dataHoraAtualizacaoInicial', to: 'dataHoraAtualizacaoFinal' },
  },
  nfse: {
    kind: 'list',
    key: 'nfse',
    label: 'NFS-e',
    method: 'GET',
    path: '/v2/nfse',
    filters: [
      filter('competencia', 'competencia', 'Competência'),
      filter('idNotaFiscalServico', 'integer', 'ID da NFS-e'),
      filter('numeroNotaFiscalServico', 'integer', 'Número da NFS-e'),
      filter('idFatura', 'integer', 'ID da fatura'),
      filter('numeroFatura', 'integer', 'Número da fatura'),
      filter('idCliente', 'integer', 'ID do cliente'),
      filter('cpfCnpj', 'cpfCnpj', 'CPF/CNPJ'),
      filter('email', 'string', 'E-mail'),
      ...sort(['idNotaFiscalServico', 'competencia', 'dataEmissao', 'numeroRps']),
    ],
    record: records.nfse,
    idField: 'idNotaFiscalServico',
    pageParam: 'page',
    envelope: 'list',
  },
  cobrancas: {
    kind: 'list',
    key: 'cobrancas',
    label: 'Cobranças e boletos',
    method: 'GET',
    path: '/v2/financeiro/cobrancas',
    filters: [
      filter('idsCliente', 'idList', 'IDs de clientes'),
      filter('idsCobranca', 'idList', 'IDs de cobranças'),
      filter('cpfCnpj', 'cpfCnpj', 'CPF/CNPJ'),
      filter('email', 'string', 'E-mail'),
      filter('vencimentoInicial', 'date', 'Vencimento a partir de'),
      filter('vencimentoFinal', 'date', 'Vencimento até'),
      filter('dataPagamentoInicial', 'date', 'Pagamento a partir de'),
      filter('dataPagamentoFinal', 'date', 'Pagamento até'),
      filter('isQuitado', 'boolean', 'Quitada'),
      filter('isExibeCanceladas', 'boolean', 'Exibir canceladas'),
      filter('isOcultarBaixaPerda', 'boolean', 'Ocultar baixas por perda'),
      option('isListarEventosCartao', 'Incluir eventos de cartão'),
      filter('codigoCheckout', 'string', 'Código de checkout'),
      filter('numeroTitulo', 'integer', 'Número do título'),
      filter('numeroParcela', 'integer', 'Parcela'),
      ...updatedBetween(),
      ...sort(['idCobranca', 'dataVencimento', 'competencia', 'dataHoraAtualizacao']),
    ],
    record: records.charge,
    idField: 'idCobranca',
    pageParam: 'page',
    envelope: 'list',
    updatedSince: { from: 'dataHoraAtualizacaoInicial', to: 'dataHoraAtualizacaoFinal' },
  },
  transacoes: {
    kind: 'list',
    key: 'transacoes',
    label: 'Transações',
    method: 'GET',
    path: '/v2/financeiro/transacoes',
    filters: [
      filter('idTransacao', 'integer', 'ID da transação'),
      filter('cpfCnpj', 'cpfCnpj', 'CPF/CNPJ'),
      filter('competencia', 'competencia', 'Competência'),
      filter('dataVencimentoInicial', 'date', 'Vencimento a partir de'),
      filter('dataVencimentoFinal', 'date', 'Vencimento até'),
      filter('dataPagamentoInicial', 'date', 'Pagamento a partir de'),
      filter('dataPagamentoFinal', 'date', 'Pagamento até'),
      ...updatedBetween(),
      ...sort(['idTransacao', 'dataVencimento', 'competencia', 'dataHoraAtualizacao']),
    ],
    record: records.transaction,
    idField: 'idTransacao',
    pageParam: 'page',
    pageSizeParam: 'pageSize',
    envelope: 'list',
    updatedSince: { from: 'dataHoraAtualizacaoInicial', to: 'dataHoraAtualizacaoFinal' },
  },
  assinaturas: {
    kind: 'list',
    key: 'assinaturas',
    label: 'Assinaturas e contratos',
    method: 'GET',
    path: '/v2/assinaturascontratos',
    filters: [
      filter('idAssinaturaContrato', 'integer', 'ID da assinatura'),
      filter('idIntegracao', 'string', 'ID de integração'),
      filter('idCliente', 'integer', 'ID do cliente'),
      filter('cpfCnpj', 'cpfCnpj', 'CPF/CNPJ'),
      filter('email', 'string', 'E-mail'),
      // The spec types both as plain strings without a format; they are passed through as typed.
      filter('vigencia', 'string', 'Vigência'),
      filter('competenciaReferencia', 'string', 'Competência de referência'),
      filter('isAtivo', 'boolean', 'Ativa'),
      option('isListarDescontos', 'Incluir descontos'),
    ],
    record: records.subscription,
    idField: 'idAssinaturaContrato',
    pageParam: 'pagina',
    envelope: 'flexible',
  },
} as const satisfies Record<ListingKey, ListOperation>;

interface FilterInputs {
  integer: number | string;
  string: string;
  boolean: boolean;
  date: DateInput;
  datetime: Date | string;
  competencia: string | Date | { year: number; month: number };
  idList: readonly number[] | string;
  sortField: string;
  sortOrder: 'asc' | 'desc' | 'ASC' | 'DESC';
  cpfCnpj: string | number;
}

/** The filters one listing accepts, each with the plain values callers may pass. */
export type ListingFilters<K extends ListingKey> = {
  [F in (typeof listings)[K]['filters'][number] as F['name']]?: FilterInputs[F['kind']] | null;
};

export function listing(key: ListingKey): ListOperation {
  return listings[key];
}

const integer = z.number().int();
const competencia = z.string().regex(/^(0[1-9]|1[0-2])\/\d{4}$/, 'use MM/AAAA');
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'use AAAA-MM-DD');
const forma = z.string().min(1);

export const discountBody = z.object({
  idIntegracao: z.string().min(1),
  descricao: z.string().min(1),
  tipoDesconto: z.string().min(1),
  valorDesconto: z.number(),
  competenciaInicial: competencia,
  competenciaFinal: competencia,
});

export const writes: Record<WriteKey, WriteOperation> = {
  criarAssinaturaPlano: {
    kind: 'write',
    key: 'criarAssinaturaPlano',
    label: 'Criar assinaturas de plano',
    method: 'POST',
    path: '/v2/assinaturascontratos/plano',
    body: z.object({
      idIntegracao: z.string().min(1),
      idCliente: integer,
      dataAdesao: isoDate,
      competenciaInicial: competencia,
      idPlano: integer,
      quantidade: integer,
      formaFaturamentoAssinatura: forma,
      diaVencimentoCobranca: integer,
      descontos: z.array(discountBody),
    }),
    response: 'subscription',
  },
  atualizarAssinaturaPlano: {
    kind: 'write',
    key: 'atualizarAssinaturaPlano',
    label: 'Atualizar assinaturas de plano',
    method: 'PUT',
    path: '/v2/assinaturascontratos/plano/{id}',
    body: z.object({ quantidade: integer, descricaoAssinaturaContrato: z.string() }),
    response: 'subscription',
  },
  criarAssinaturaPersonalizada: {
    kind: 'write',
    key: 'criarAssinaturaPersonalizada',
    label: 'Criar assinaturas personalizadas',
    method: 'POST',
    path: '/v2/assinaturascontratos/personalizado',
    body: z.object({
      idIntegracao: z.string().min(1),
      idCliente: integer,
      dataAdesao: isoDate,
      competenciaInicial: competencia,
      periodicidade: z.string().min(1),
      idProduto: integer,
      descricaoAssinaturaContrato: z.string(),
      valor: z.number(),
      formaFaturamentoAssinatura: forma,
      diaVencimentoCobranca: integer,
    }),
    response: 'subscription',
  },
  atualizarAssinaturaPersonalizada: {
    kind: 'write',
    key: 'atualizarAssinaturaPersonalizada',
    label: 'Atualizar assinaturas personalizadas',
    method: 'PUT',
    path: '/v2/assinaturascontratos/personalizado/{id}',
    body: z.object({
      valor: z.number(),
      descricaoAssinaturaContrato: z.string(),
      isAtualizaDiscriminacaoNfse: z.boolean(),
      discriminacaoNfse: z.string(),
    }),
    response: 'subscription',
  },
  emitirNfse: {
    kind: 'write',
    key: 'emitirNfse',
    label: 'Emitir NFS-e de faturas',
    method: 'POST',
    path: '/v2/faturamento/nfse/emitir',
    body: z.object({ idFatura: integer }),
    response: 'emission',
  },
};

