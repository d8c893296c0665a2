/** The records of the interface, field by field as the spec lists them. */
import { f, type FieldMap } from './fields';

/**
 * Each record's field map is built on first use: every execution evaluates the
 * whole bundle (cold start), and most use one listing or none.
 */
function once<T>(build: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= build());
}

/** Said under the values a column's note lists when the spec shows only the values that occur. */
const OTHER = ' Outros valores podem aparecer: a especificação lista só os que ocorrem.';
const NATUREZA = `Natureza: C = crédito (entra na conta); D = débito (sai da conta).${OTHER}`;
const FORMA_FATURAMENTO = 'AGRUPADA = uma fatura reúne as assinaturas do cliente; INDIVIDUAL = uma fatura por assinatura.';

const cartaoCredito = once(
  () =>
    ({
      numeroCartao: f.code('Cartão (número)'),
      cvvCartao: f.code('Cartão (CVV)'),
      vencimentoCartao: f.code('Cartão (vencimento)'),
      nomeImpressoCartao: f.text('Cartão (nome impresso)'),
      cpfPortadorCartao: f.code('Cartão (CPF do portador)'),
    }) satisfies FieldMap,
);

export const customer = once(
  () =>
    ({
      idCliente: f.integer('ID do cliente'),
      idIntegracao: f.code('ID de integração'),
      isAtivo: f.boolean('Ativo'),
      isCliente: f.boolean('Cliente'),
      isFornecedor: f.boolean('Fornecedor'),
      isParceiro: f.boolean('Parceiro'),
      isFuncionario: f.boolean('Funcionário'),
      dataCadastro: f.date('Data de cadastro'),
      nomeFantasia: f.text('Nome fantasia'),
      razaoSocial: f.text('Razão social'),
      cpfCnpj: f.code('CPF/CNPJ'),
      nif: f.code('NIF'),
      email: f.text('E-mail'),
      emailSecundario: f.text('E-mail secundário').orNull(),
      website: f.text('Site'),
      idSegmento: f.integer('ID do segmento'),
      pais: f.text('País'),
      estado: f.text('Estado'),
      cidade: f.text('Cidade'),
      bairro: f.text('Bairro'),
      logradouro: f.text('Logradouro'),
      numeroEndereco: f.code('Número'),
      complementoEndereco: f.text('Complemento').orNull(),
      unidadeConsumidora: f.code('Unidade consumidora').orNull(),
      cep: f.code('CEP'),
      meioPagamento: f.enumeration('Meio de pagamento', 'Meio de pagamento do cliente, no código que o serviço usa (a especificação não lista os valores).'),
      diaVencimentoCobranca: f.integer('Dia de vencimento'),
      idGrupoFaturamento: f.integer('ID do grupo de faturamento'),
      formaEmissaoNfse: f.enumeration('Forma de emissão da NFS-e', `MANUAL = a NFS-e do cliente é emitida manualmente.${OTHER}`),
      dataInativacao: f.date('Data de inativação').orNull(),
      idMotivoInativacao: f.integer('ID do motivo de inativação').orNull(),
      motivoInativacao: f.text('Motivo de inativação').orNull(),
      dataHoraCadastro: f.datetime('Cadastrado em'),
      dataHoraAtualizacao: f.datetime('Atualizado em'),
      isNaoRetemPisCofinsCsll: f.boolean('Não retém PIS/COFINS/CSLL'),
      isNaoRetemIrrf: f.boolean('Não retém IRRF'),
      isNaoDestacaIss: f.boolean('Não destaca ISS'),
      // Card holder CPF and card details reach a shared sheet only when the user asks ("Incluir dados de cartão").
      cartaoCredito: f.object('Cartão de crédito', cartaoCredito(), { onRequest: 'cartao' }).orNull(),
      telefones: f.array('Telefones').orNull(),
      tags: f.array('Tags').orNull(),
    }) satisfies FieldMap,
);

export const invoice = once(
  () =>
    ({
      idFatura: f.integer('ID da fatura'),
      idIntegracao: f.code('ID de integração').orNull(),
      numeroPedido: f.code('Número do pedido').orNull(),
      codigoCheckout: f.code('Código de checkout').orNull(),
      numero: f.integer('Número'),
      statusFatura: f.enumeration('Status', `ABERTA = em aberto; FATURADA = faturada; REFATURADA = faturada de novo; CANCELADA = cancelada.${OTHER}`),
      tipoFatura: f.enumeration('Tipo', `RECORRENTE = gerada por uma assinatura/contrato; AVULSA = lançada uma vez, fora de assinatura.${OTHER}`),
      formaFaturamentoAssinatura: f.enumeration('Forma de faturamento', FORMA_FATURAMENTO).orNull(),
      origemFatura: f.enumeration('Origem', `MANUAL = fatura criada manualmente.${OTHER}`),
      competencia: f.competencia('Competência'),
      idCliente: f.integer('ID do cliente'),
      nomeCliente: f.text('Cliente'),
      dataEmissao: f.date('Emissão'),
      valorTotal: f.money('Valor total'),
      // ItemFaturaJson is named by the spec but not shown: items are kept whole.
      itens: f.array('Itens').orNull(),
    }) satisfies FieldMap,
);

export const nfse = once(
  () =>
    ({
      idNotaFiscalServico: f.integer('ID da NFS-e'),
      competencia: f.competencia('Competência'),
      dataEmissao: f.date('Emissão'),
      horaEmissao: f.time('Hora de emissão'),
      statusNotaFiscalServico: f.enumeration(
        'Status',
        `EMITIDA = enviada à prefeitura (o número da NFS-e pode ainda não existir); AUTORIZADA = autorizada pela prefeitura.${OTHER}`,
      ),
      numeroRps: f.integer('Número do RPS'),
      numeroNotaFiscalServico: f.code('Número da NFS-e').orNull(),
      idFatura: f.integer('ID da fatura'),
      numeroFatura: f.integer('Número da fatura'),
      idCliente: f.integer('ID do cliente'),
      cpfCnpj: f.code('CPF/CNPJ'),
      nomeFantasia: f.text('Nome fantasia'),
      razaoSocial: f.text('Razão social'),
      issRetido: f.flag({ 0: false, 2: true })(
        'ISS retido',
        'Sim = o ISS é retido pelo tomador (o valor líquido é o do serviço menos o ISS); Não = não retido. O serviço manda 0 (Não) ou 2 (Sim); outro código aparece como veio.',
      ),
      aliquota: f.percent('Alíquota (%)'),
      valorServico: f.money('Valor do serviço'),
      valorIss: f.money('Valor do ISS'),
      valorLiquidoNfse: f.money('Valor líquido'),
    }) satisfies FieldMap,
);

const cardEvent = once(
  () =>
    ({
      idEventoCartao: f.integer('ID do evento'),
      dataHoraRegistro: f.datetime('Registrado em'),
      pedidoNumero: f.integer('Número do pedido'),
      tid: f.code('TID'),
      autorizacao: f.code('Autorização'),
      bandeira: f.text('Bandeira'),
      cartaoTruncado: f.code('Cartão'),
      mensagem: f.text('Mensagem'),
      isTransacaoCancelada: f.boolean('Cancelada'),
      motivoCancelamento: f.text('Motivo do cancelamento').orNull(),
    }) satisfies FieldMap,
);

export const charge = once(
  () =>
    ({
      idCobranca: f.integer('ID da cobrança'),
      idCliente: f.integer('ID do cliente'),
      idIntegracaoCliente: f.code('ID de integração do cliente'),
      cpfCnpj: f.code('CPF/CNPJ'),
      nomeFantasia: f.text('Nome fantasia'),
      razaoSocial: f.text('Razão social'),
      nossoNumero: f.integer('Nosso número'),
      numeroTitulo: f.integer('Número do título'),
      numeroParcela: f.integer('Parcela'),
      dataEmissao: f.date('Emissão'),
      dataVencimentoOriginal: f.date('Vencimento original'),
      dataVencimento: f.date('Vencimento'),
      dataPagamento: f.date('Pagamento').orNull(),
      isQuitado: f.boolean('Quitado'),
      competencia: f.competencia('Competência'),
      valor: f.money('Valor'),
      valorPago: f.money('Valor pago').orNull(),
      valorMoraMulta: f.money('Mora e multa'),
      valorDesconto: f.money('Desconto'),
      linhaDigitavel: f.code('Linha digitável'),
      pixCopiaCola: f.code('PIX copia e cola').orNull(),
      codigoCheckout: f.code('Código de checkout').orNull(),
      metodoPagamento: f.enumeration(
        'Método de pagamento',
        `Como o cliente paga esta cobrança: BOLETO = boleto bancário (veja a linha digitável); PIX = Pix (veja o Pix copia e cola); CARTAO_CREDITO = cartão de crédito.${OTHER}`,
      ),
      statusTitulo: f.enumeration(
        'Status do título',
        `PENDENTE = ainda não pago; QUITADO = pago (veja Quitado e Valor pago); CANCELADO = cobrança cancelada, nada a receber; BAIXADO = baixado sem pagamento (baixa por perda).${OTHER}`,
      ),
      situacao: f.enumeration('Situação', `EMITIDA = a cobrança foi emitida.${OTHER}`),
      dataHoraCancelamento: f.datetime('Cancelada em').orNull(),
      motivoCancelamento: f.text('Motivo do cancelamento').orNull(),
      usuarioCancelamento: f.text('Cancelada por').orNull(),
      dataHoraCadastro: f.datetime('Cadastrada em'),
      dataHoraAtualizacao: f.datetime('Atualizada em'),
      link: f.text('Link de pagamento'),
      eventosCartao: f.array('Eventos de cartão', cardEvent()).orNull(),
    }) satisfies FieldMap,
);

const accountPlanEntry = once(
  () =>
    ({
      idTransacaoPlanoConta: f.integer('ID do rateio'),
      idPlanoConta: f.integer('ID do plano de contas'),
      planoConta: f.text('Plano de contas'),
      complemento: f.text('Complemento'),
      valor: f.money('Valor'),
      tipoOperacao: f.enumeration('Tipo de operação', NATUREZA),
    }) satisfies FieldMap,
);

export const transaction = once(
  () =>
    ({
      idTransacao: f.integer('ID da transação'),
      tipoTransacao: f.enumeration(
        'Tipo de transação',
        `R = receita; D = despesa; T = transferência entre contas (uma transação é uma receita, uma despesa ou uma transferência; a especificação mostra o R).${OTHER}`,
      ),
      tipoOperacao: f.enumeration('Tipo de operação', NATUREZA),
      descricao: f.text('Descrição'),
      numeroDocumento: f.code('Número do documento'),
      dataDocumento: f.date('Data do documento').orNull(),
      dataVencimento: f.date('Vencimento'),
      dataPagamento: f.date('Pagamento').orNull(),
      competencia: f.competencia('Competência'),
      valor: f.money('Valor'),
      isQuitado: f.boolean('Quitado'),
      idClienteFornecedor: f.integer('ID do cliente/fornecedor'),
      clienteFornecedor: f.text('Cliente/fornecedor'),
      idContaCorrente: f.integer('ID da conta'),
      contaCorrente: f.text('Conta'),
      idContaCorrenteDestino: f.integer('ID da conta de destino').orNull(),
      contaCorrenteDestino: f.text('Conta de destino').orNull(),
      idFormaPagamento: f.integer('ID da forma de pagamento'),
      formaPagamento: f.text('Forma de pagamento'),
      observacao: f.text('Observação'),
      dataHoraInclusao: f.datetime('Incluída em'),
      dataHoraAtualizacao: f.datetime('Atualizada em'),
      planosConta: f.array('Planos de conta', accountPlanEntry()),
      centrosCusto: f.array('Centros de custo'),
      tags: f.array('Tags'),
    }) satisfies FieldMap,
);

export const subscriptionDiscount = once(
  () =>
    ({
      idDescontoAssinaturaContrato: f.integer('ID do desconto'),
      idAssinaturaContrato: f.integer('ID da assinatura'),
      idIntegracao: f.code('ID de integração'),
      descricao: f.text('Descrição'),
      tipoDesconto: f.enumeration('Tipo de desconto', `PERCENTUAL = o valor é uma porcentagem; VALOR = o valor é em reais.${OTHER}`),
      valorDesconto: f.number('Valor do desconto'),
      competenciaInicial: f.competencia('Competência inicial'),
      competenciaFinal: f.competencia('Competência final'),
    }) satisfies FieldMap,
);

export const subscription = once(
  () =>
    ({
      idAssinaturaContrato: f.integer('ID da assinatura'),
      idIntegracao: f.code('ID de integração'),
      idCliente: f.integer('ID do cliente'),
      nomeCliente: f.text('Cliente'),
      dataAdesao: f.date('Adesão'),
      competenciaInicial: f.competencia('Competência inicial'),
      competenciaFinal: f.competencia('Competência final').orNull(),
      tipoContrato: f.enumeration('Tipo de contrato', 'PLANO = assinatura de um plano; PERSONALIZADO = contrato com produto, valor e periodicidade próprios.'),
      periodicidade: f.enumeration('Periodicidade', `MENSAL = cobrada todo mês.${OTHER}`),
      tipoCalculo: f.enumeration('Tipo de cálculo', 'PRECO_FIXO = valor fixo por período; PRECO_POR_UNIDADE = valor unitário vezes a quantidade.'),
      idPlano: f.integer('ID do plano').orNull(),
      descricaoPlano: f.text('Plano').orNull(),
      idProduto: f.integer('ID do produto').orNull(),
      descricaoProduto: f.text('Produto').orNull(),
      descricaoAssinaturaContrato: f.text('Descrição'),
      quantidade: f.integer('Quantidade'),
      valorUnitario: f.money('Valor unitário'),
      valorBruto: f.money('Valor bruto'),
      valorDesconto: f.money('Desconto'),
      valorLiquido: f.money('Valor líquido'),
      isDescontoVencimentoBoleto: f.boolean('Desconto até o vencimento'),
      formaFaturamentoAssinatura: f.enumeration('Forma de faturamento', FORMA_FATURAMENTO),
      diaVencimentoCobranca: f.integer('Dia de vencimento'),
      competenciaPagamento: f.enumeration(
        'Competência de pagamento',
        'COMPETENCIA_ANTERIOR = paga-se no mês seguinte ao do serviço; COMPETENCIA_CORRENTE = paga-se no próprio mês do serviço.',
      ),
      discriminacaoNfse: f.text('Discriminação da NFS-e').orNull(),
      informacaoAdicionalBoleto: f.text('Informação adicional do boleto').orNull(),
      dataHoraCadastro: f.datetime('Cadastrada em'),
      dataHoraAtualizacao: f.datetime('Atualizada em'),
      statusAssinaturaContrato: f.enumeration('Status', `ATIVO = assinatura em vigor.${OTHER}`),
      dataCancelamento: f.date('Cancelada em').orNull(),
      motivoCancelamento: f.text('Motivo do cancelamento').orNull(),
      descontos: f.array('Descontos', subscriptionDiscount()).orNull(),
    }) satisfies FieldMap,
);
