/**
 * Record shapes exactly as the spec lists them, plus the few hidden columns the
 * service must hold to filter or sort by things the records do not show
 * (hidden columns start with '_' and are stripped by the presenters).
 */

export interface Telefone {
  idTelefone: number;
  tipo: string;
  ddi: string;
  ddd: string;
  numero: string;
  ramal: string | null;
  isPrincipal: boolean;
}

export interface Tag {
  idTag: number;
  descricao: string;
}

export interface CartaoCredito {
  numeroCartao: string;
  cvvCartao: string;
  vencimentoCartao: string;
  nomeImpressoCartao: string;
  cpfPortadorCartao: string;
}

export interface Cliente {
  idCliente: number;
  idIntegracao: string;
  isAtivo: boolean;
  isCliente: boolean;
  isFornecedor: boolean;
  isParceiro: boolean;
  isFuncionario: boolean;
  dataCadastro: string;
  nomeFantasia: string;
  razaoSocial: string;
  cpfCnpj: string;
  nif: string;
  email: string;
  emailSecundario: string | null;
  website: string;
  idSegmento: number;
  pais: string;
  estado: string;
  cidade: string;
  bairro: string;
  logradouro: string;
  numeroEndereco: string;
  complementoEndereco: string | null;
  unidadeConsumidora: string | null;
  cep: string;
  meioPagamento: string;
  diaVencimentoCobranca: number;
  idGrupoFaturamento: number;
  formaEmissaoNfse: string;
  dataInativacao: string | null;
  idMotivoInativacao: number | null;
  motivoInativacao: string | null;
  dataHoraCadastro: string;
  dataHoraAtualizacao: string;
  isNaoRetemPisCofinsCsll: boolean;
  isNaoRetemIrrf: boolean;
  isNaoDestacaIss: boolean;
  cartaoCredito: CartaoCredito;
  telefones: Telefone[] | null;
  tags: Tag[] | null;
}

export interface ItemFatura {
  idItemFatura: number;
  idProduto: number;
  descricaoProduto: string;
  descricao: string;
  quantidade: number;
  valorUnitario: number;
  valorTotal: number;
}

export interface Fatura {
  idFatura: number;
  idIntegracao: string | null;
  numeroPedido: string | null;
  codigoCheckout: string | null;
  numero: number;
  statusFatura: string;
  tipoFatura: string;
  formaFaturamentoAssinatura: string | null;
  origemFatura: string;
  competencia: string;
  idCliente: number;
  nomeCliente: string;
  dataEmissao: string;
  valorTotal: number;
  itens: ItemFatura[] | null;
}
export interface FaturaRow extends Fatura {
  _loteCheckout: string | null;
  _dataHoraAtualizacao: string;
}

export interface Nfse {
  idNotaFiscalServico: number;
  competencia: string;
  dataEmissao: string;
  horaEmissao: string;
  statusNotaFiscalServico: string;
  numeroRps: number;
  numeroNotaFiscalServico: string | null;
  idFatura: number;
  numeroFatura: number;
  idCliente: number;
  cpfCnpj: string;
  nomeFantasia: string;
  razaoSocial: string;
  issRetido: number;
  aliquota: number;
  valorServico: number;
  valorIss: number;
  valorLiquidoNfse: number;
}

export interface EventoCartao {
  idEventoCartao: number;
  dataHoraRegistro: string;
  pedidoNumero: number;
  tid: string;
  autorizacao: string;
  bandeira: string;
  cartaoTruncado: string;
  mensagem: string;
  isTransacaoCancelada: boolean;
  motivoCancelamento: string | null;
}

export interface Cobranca {
  idCobranca: number;
  idCliente: number;
  idIntegracaoCliente: string;
  cpfCnpj: string;
  nomeFantasia: string;
  razaoSocial: string;
  nossoNumero: number;
  numeroTitulo: number;
  numeroParcela: number;
  dataEmissao: string;
  dataVencimentoOriginal: string;
  dataVencimento: string;
  dataPagamento: string | null;
  isQuitado: boolean;
  competencia: string;
  valor: number;
  valorPago: number | null;
  valorMoraMulta: number;
  valorDesconto: number;
  linhaDigitavel: string;
  pixCopiaCola: string | null;
  codigoCheckout: string | null;
  metodoPagamento: string;
  statusTitulo: string;
  situacao: string;
  dataHoraCancelamento: string | null;
  motivoCancelamento: string | null;
  usuarioCancelamento: string | null;
  dataHoraCadastro: string;
  dataHoraAtualizacao: string;
  link: string;
  eventosCartao: EventoCartao[];
}
export interface CobrancaRow extends Cobranca {
  _baixaPerda: boolean;
}

export interface PlanoConta {
  idTransacaoPlanoConta: number;
  idPlanoConta: number;
  planoConta: string;
  complemento: string;
  valor: number;
  tipoOperacao: string;
}

export interface Transacao {
  idTransacao: number;
  tipoTransacao: string;
  tipoOperacao: string;
  descricao: string;
  numeroDocumento: string;
  dataDocumento: string | null;
  dataVencimento: string;
  dataPagamento: string | null;
  competencia: string;
  valor: number;
  isQuitado: boolean;
  idClienteFornecedor: number;
  clienteFornecedor: string;
  idContaCorrente: number;
  contaCorrente: string;
  idContaCorrenteDestino: number | null;
  contaCorrenteDestino: string | null;
  idFormaPagamento: number;
  formaPagamento: string;
  observacao: string;
  dataHoraInclusao: string;
  dataHoraAtualizacao: string;
  planosConta: PlanoConta[];
  centrosCusto: unknown[];
  tags: unknown[];
}

export interface DescontoAssinatura {
  idDescontoAssinaturaContrato: number;
  idAssinaturaContrato: number;
  idIntegracao: string;
  descricao: string;
  tipoDesconto: string;
  valorDesconto: number;
  competenciaInicial: string;
  competenciaFinal: string;
}

export interface Assinatura {
  idAssinaturaContrato: number;
  idIntegracao: string;
  idCliente: number;
  nomeCliente: string;
  dataAdesao: string;
  competenciaInicial: string;
  competenciaFinal: string | null;
  tipoContrato: string;
  periodicidade: string;
  tipoCalculo: string;
  idPlano: number | null;
  descricaoPlano: string | null;
  idProduto: number | null;
  descricaoProduto: string | null;
  descricaoAssinaturaContrato: string;
  quantidade: number;
  valorUnitario: number;
  valorBruto: number;
  valorDesconto: number;
  valorLiquido: number;
  isDescontoVencimentoBoleto: boolean;
  formaFaturamentoAssinatura: string;
  diaVencimentoCobranca: number;
  competenciaPagamento: string;
  discriminacaoNfse: string | null;
  informacaoAdicionalBoleto: string | null;
  dataHoraCadastro: string;
  dataHoraAtualizacao: string;
  statusAssinaturaContrato: string;
  dataCancelamento: string | null;
  motivoCancelamento: string | null;
  descontos: DescontoAssinatura[] | null;
}

/** Catalog entries: the API has no listing for them, so clients only see them through subscriptions. */
export interface Produto {
  idProduto: number;
  descricao: string;
}
export interface Plano {
  idPlano: number;
  descricao: string;
  idProduto: number;
  tipoCalculo: 'PRECO_FIXO' | 'PRECO_POR_UNIDADE';
  valorUnitario: number;
}

/** Drops the hidden '_' columns. */
export function stripHidden<T extends object>(row: T): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) if (!k.startsWith('_')) out[k] = v;
  return out as T;
}
