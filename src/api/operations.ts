/**
 * The read side of the interface as one table: every listing's path, filters,
 * record and paging. The client, the import forms and the sheet columns are all
 * driven from here; adding a filter is one line. The write side is in writes.ts.
 */
import type { FieldMap, RecordOf } from './fields';
import type { DateInput, FilterDef, FilterKind } from './filters';
import { lazyTable } from './lazy-table';
import * as records from './records';

export type ListingKey = 'clientes' | 'faturas' | 'nfse' | 'cobrancas' | 'transacoes' | 'assinaturas';

/** The one listing whose sheets Enviar alterações pushes edits from: every write's `edits` names it (writes.ts). */
export const EDITABLE_LISTING = 'assinaturas' satisfies ListingKey;

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

/** Keeps each filter's name and kind as literal types, so callers get per-operation filter types. */
function filter<const N extends string, const K extends FilterKind>(name: N, kind: K, label: string, extra: Partial<FilterDef> = {}) {
  return { name, kind, label, ...extra } as FilterDef & { name: N; kind: K };
}
const option = <const N extends string>(name: N, label: string) => filter(name, 'boolean', label, { option: true });
const sort = (choices: readonly string[]) => [filter('sortField', 'sortField', 'Ordenar por', { choices }), filter('sortOrder', 'sortOrder', 'Ordem')] as const;
const updatedBetween = () =>
  [filter('dataHoraAtualizacaoInicial', 'datetime', 'Atualizado a partir de'), filter('dataHoraAtualizacaoFinal', 'datetime', 'Atualizado até')] as const;

/** The listings in the order the import form offers them. */
const LISTING_ORDER: readonly ListingKey[] = ['clientes', 'faturas', 'nfse', 'cobrancas', 'transacoes', 'assinaturas'];

/** Built on first use (see lazyTable). */
const table = <const T extends Record<ListingKey, ListOperation>>(build: () => T): T => lazyTable(LISTING_ORDER, build);

export const listings = table(() => ({
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
    get record() {
      return records.customer();
    },
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
    get record() {
      return records.invoice();
    },
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
    get record() {
      return records.nfse();
    },
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
    get record() {
      return records.charge();
    },
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
    get record() {
      return records.transaction();
    },
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
    get record() {
      return records.subscription();
    },
    idField: 'idAssinaturaContrato',
    pageParam: 'pagina',
    envelope: 'flexible',
  },
}));

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

/** A decoded record of one listing, typed from the table. */
export type ListingRecord<K extends ListingKey> = RecordOf<(typeof listings)[K]['record']>;
