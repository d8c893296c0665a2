/**
 * The five write operations as sheets: which column feeds which body field,
 * how a cell is read, what the template shows, and which result columns sit
 * beside each row. The bodies themselves stay defined once, in
 * src/api/operations.ts; a test checks that every body field has a column.
 */
import type { WriteKey } from '../../api/operations';

export type InputKind =
  /** Free text. */
  | 'text'
  /** Identifier text (idIntegracao): a number cell may have lost leading zeros, so it is refused. */
  | 'key'
  | 'integer'
  | 'money'
  /** dd/MM/yyyy in the sheet, YYYY-MM-DD on the wire. */
  | 'date'
  /** MM/yyyy as text in the sheet (a Date typed by the user is understood too). */
  | 'competencia'
  | 'choice'
  | 'boolean';

export interface InputColumn {
  field: string;
  label: string;
  kind: InputKind;
  /** A blank cell is an error (otherwise the column has a default, said in the note). */
  required: boolean;
  choices?: readonly string[];
  min?: number;
  max?: number;
  maxLength?: number;
  note: string;
  /** Example cell of the template; a date is given as YYYY-MM-DD and written as a Date. */
  example: string | number | boolean;
}

/** Starts the note of every result column: a column titled "Status" that holds a record's own status (an imported sheet) is never taken for ours. */
export const RESULT_NOTE = 'Resultado do lançamento em lote, preenchido pelo complemento.';

export type ResultKey = 'status' | 'id' | 'numero' | 'chave' | 'mensagem' | 'processadoEm';

export interface ResultColumn {
  key: ResultKey;
  label: string;
  format: string;
  note: string;
}

export interface BulkOperation {
  key: WriteKey;
  label: string;
  /** Name of the template sheet. */
  sheetName: string;
  columns: InputColumn[];
  /** The column whose value goes into the path ({id}) instead of the body. */
  pathId?: string;
  /** How an outcome that is unknown is settled before sending again. */
  identity: 'idIntegracao' | 'idFatura' | 'idempotent';
  results: ResultColumn[];
  /** Plan subscriptions read their discounts from the linked Descontos sheet. */
  discounts?: boolean;
}

export const STATUS = {
  ok: 'OK',
  erro: 'ERRO',
  jaExiste: 'JÁ EXISTE',
  jaEmitida: 'JÁ EMITIDA',
  pendente: 'PENDENTE',
  exemplo: 'EXEMPLO',
} as const;

export const FORMAS = ['AGRUPADA', 'INDIVIDUAL'] as const;
/** The spec shows MENSAL; the others are the usual Brazilian billing periods and are offered, not enforced. */
export const PERIODICIDADES = ['MENSAL', 'BIMESTRAL', 'TRIMESTRAL', 'SEMESTRAL', 'ANUAL'] as const;
export const TIPOS_DESCONTO = ['PERCENTUAL', 'VALOR'] as const;

const idIntegracao = (what: string): InputColumn => ({
  field: 'idIntegracao',
  label: 'ID de integração',
  kind: 'key',
  required: false,
  maxLength: 60,
  note: `Identificador ${what} no seu sistema (até 60 caracteres, texto). Deixe em branco para o complemento gerar um: ele é gravado nesta célula antes do envio e garante que a linha nunca seja criada duas vezes.`,
  example: 'CLI-0001-2026',
});

const idCliente: InputColumn = { field: 'idCliente', label: 'ID do cliente', kind: 'integer', required: true, min: 1, note: 'ID do cliente no serviço de faturamento (número inteiro). Veja em Importar dados › Clientes.', example: 123 };
const dataAdesao: InputColumn = { field: 'dataAdesao', label: 'Data de adesão', kind: 'date', required: true, note: 'Data de adesão no formato dd/mm/aaaa.', example: '2026-11-01' };
const competenciaInicial: InputColumn = {
  field: 'competenciaInicial',
  label: 'Competência inicial',
  kind: 'competencia',
  required: true,
  note: 'Primeiro mês de cobrança, no formato MM/AAAA (por exemplo 11/2026). A coluna é texto para o Planilhas não transformar em data.',
  example: '11/2026',
};
const forma: InputColumn = {
  field: 'formaFaturamentoAssinatura',
  label: 'Forma de faturamento',
  kind: 'choice',
  required: true,
  choices: FORMAS,
  note: 'AGRUPADA (uma fatura com as demais assinaturas do cliente) ou INDIVIDUAL (fatura própria).',
  example: 'AGRUPADA',
};
const diaVencimento: InputColumn = { field: 'diaVencimentoCobranca', label: 'Dia de vencimento', kind: 'integer', required: true, min: 1, max: 31, note: 'Dia do mês em que a cobrança vence (1 a 31; muitos serviços só aceitam até 28).', example: 10 };
const descricao = (example: string): InputColumn => ({
  field: 'descricaoAssinaturaContrato',
  label: 'Descrição',
  kind: 'text',
  required: true,
  maxLength: 255,
  note: 'Descrição da assinatura (até 255 caracteres).',
  example,
});
const valor: InputColumn = { field: 'valor', label: 'Valor', kind: 'money', required: true, min: 0.01, note: 'Valor mensal em reais, maior que zero, com no máximo duas casas decimais.', example: 350 };
const quantidade: InputColumn = { field: 'quantidade', label: 'Quantidade', kind: 'integer', required: true, min: 1, note: 'Quantidade contratada (número inteiro, 1 ou mais).', example: 1 };
const idAssinatura: InputColumn = {
  field: 'idAssinaturaContrato',
  label: 'ID da assinatura',
  kind: 'integer',
  required: true,
  min: 1,
  note: 'ID da assinatura a alterar (número inteiro), como aparece em Importar dados › Assinaturas e contratos.',
  example: 456,
};

const status: ResultColumn = {
  key: 'status',
  label: 'Status',
  format: '@',
  note: 'Preenchido pelo complemento: OK, ERRO, JÁ EXISTE / JÁ EMITIDA, PENDENTE (resultado ainda sendo conferido). Linhas OK são puladas quando você executa de novo; linhas EXEMPLO são sempre ignoradas.',
};
const mensagem: ResultColumn = { key: 'mensagem', label: 'Mensagem', format: '@', note: 'O que aconteceu com a linha e, se houve erro, o que corrigir.' };
const processadoEm: ResultColumn = { key: 'processadoEm', label: 'Processado em', format: 'dd/MM/yyyy HH:mm:ss', note: 'Quando o complemento gravou o resultado desta linha.' };
const idCriado: ResultColumn = { key: 'id', label: 'ID da assinatura criada', format: '0', note: 'idAssinaturaContrato devolvido pelo serviço.' };

export const bulkOperations: Record<WriteKey, BulkOperation> = {
  criarAssinaturaPersonalizada: {
    key: 'criarAssinaturaPersonalizada',
    label: 'Criar assinaturas personalizadas',
    sheetName: 'Lote · Assinaturas personalizadas',
    identity: 'idIntegracao',
    columns: [
      idIntegracao('da assinatura'),
      idCliente,
      dataAdesao,
      competenciaInicial,
      {
        field: 'periodicidade',
        label: 'Periodicidade',
        kind: 'choice',
        required: true,
        choices: PERIODICIDADES,
        note: 'Periodicidade da cobrança: MENSAL, BIMESTRAL, TRIMESTRAL, SEMESTRAL ou ANUAL.',
        example: 'MENSAL',
      },
      { field: 'idProduto', label: 'ID do produto', kind: 'integer', required: true, min: 1, note: 'ID do produto ou serviço cobrado (número inteiro).', example: 789 },
      descricao('Honorários contábeis mensais'),
      valor,
      forma,
      diaVencimento,
    ],
    results: [status, idCriado, mensagem, processadoEm],
  },
  atualizarAssinaturaPersonalizada: {
    key: 'atualizarAssinaturaPersonalizada',
    label: 'Atualizar assinaturas personalizadas',
    sheetName: 'Lote · Atualizar personalizadas',
    identity: 'idempotent',
    pathId: 'idAssinaturaContrato',
    columns: [
      idAssinatura,
      valor,
      descricao('Honorários contábeis mensais (reajuste)'),
      {
        field: 'isAtualizaDiscriminacaoNfse',
        label: 'Atualizar discriminação da NFS-e',
        kind: 'boolean',
        required: true,
        note: 'Sim para trocar o texto impresso nas próximas NFS-e pela coluna Discriminação da NFS-e; Não para manter o atual.',
        example: 'Sim',
      },
      {
        field: 'discriminacaoNfse',
        label: 'Discriminação da NFS-e',
        kind: 'text',
        required: false,
        maxLength: 2000,
        note: 'Texto do serviço impresso na NFS-e. Obrigatório quando "Atualizar discriminação da NFS-e" é Sim; ignorado quando é Não.',
        example: 'Serviços de contabilidade referentes à competência',
      },
    ],
    results: [status, mensagem, processadoEm],
  },
  criarAssinaturaPlano: {
    key: 'criarAssinaturaPlano',
    label: 'Criar assinaturas de plano',
    sheetName: 'Lote · Assinaturas de plano',
    identity: 'idIntegracao',
    discounts: true,
    columns: [
      {
        ...idIntegracao('da assinatura'),
        note: 'Identificador da assinatura no seu sistema (até 60 caracteres, texto). Os descontos da aba Descontos se ligam a esta assinatura por este valor. Deixe em branco (só quando não houver descontos) para o complemento gerar um: ele é gravado nesta célula antes do envio e garante que a linha nunca seja criada duas vezes.',
        example: 'PLANO-0001',
      },
      idCliente,
      dataAdesao,
      competenciaInicial,
      { field: 'idPlano', label: 'ID do plano', kind: 'integer', required: true, min: 1, note: 'ID do plano contratado (número inteiro).', example: 12 },
      quantidade,
      forma,
      diaVencimento,
    ],
    results: [status, idCriado, mensagem, processadoEm],
  },
  atualizarAssinaturaPlano: {
    key: 'atualizarAssinaturaPlano',
    label: 'Atualizar assinaturas de plano',
    sheetName: 'Lote · Atualizar planos',
    identity: 'idempotent',
    pathId: 'idAssinaturaContrato',
    columns: [idAssinatura, quantidade, descricao('Plano contábil completo')],
    results: [status, mensagem, processadoEm],
  },
  emitirNfse: {
    key: 'emitirNfse',
    label: 'Emitir NFS-e de faturas',
    sheetName: 'Lote · Emitir NFS-e',
    identity: 'idFatura',
    columns: [
      {
        field: 'idFatura',
        label: 'ID da fatura',
        kind: 'integer',
        required: true,
        min: 1,
        note: 'ID da fatura cuja NFS-e será emitida (número inteiro). Também funciona direto numa aba importada de Faturas: selecione as linhas e execute só as selecionadas.',
        example: 1001,
      },
    ],
    results: [
      status,
      { key: 'id', label: 'ID da NFS-e', format: '0', note: 'idNotaFiscalServico da nota emitida (ou da que já existia).' },
      { key: 'numero', label: 'Número da NFS-e', format: '@', note: 'Número da nota na prefeitura, como texto (com os zeros). Fica vazio enquanto a prefeitura não numerar a nota.' },
      {
        key: 'chave',
        label: 'Fatura conferida',
        format: '0',
        note: 'ID da fatura a que o resultado desta linha se refere: se a aba for importada de novo e a linha passar a ser outra fatura, o resultado antigo não vale para ela.',
      },
      mensagem,
      processadoEm,
    ],
  },
};

/** The linked sheet of plan discounts, keyed by the subscription row's idIntegracao. */
export const DISCOUNT_SHEET = 'Descontos';

export const discountColumns: InputColumn[] = [
  {
    field: 'assinatura',
    label: 'ID de integração da assinatura',
    kind: 'key',
    required: true,
    maxLength: 60,
    note: 'O ID de integração da linha da assinatura (aba de assinaturas de plano) a que este desconto pertence. Uma assinatura pode ter várias linhas de desconto.',
    example: 'PLANO-0001',
  },
  {
    field: 'idIntegracao',
    label: 'ID de integração do desconto',
    kind: 'key',
    required: false,
    maxLength: 60,
    note: 'Identificador do desconto no seu sistema. Em branco: o ID da assinatura seguido de -D1, -D2… na ordem das linhas.',
    example: 'PLANO-0001-D1',
  },
  { field: 'descricao', label: 'Descrição do desconto', kind: 'text', required: true, maxLength: 255, note: 'Descrição do desconto (até 255 caracteres).', example: 'Desconto de fidelidade' },
  {
    field: 'tipoDesconto',
    label: 'Tipo de desconto',
    kind: 'choice',
    required: true,
    choices: TIPOS_DESCONTO,
    note: 'PERCENTUAL (o valor é uma porcentagem) ou VALOR (o valor é em reais).',
    example: 'PERCENTUAL',
  },
  { field: 'valorDesconto', label: 'Valor do desconto', kind: 'money', required: true, min: 0.01, note: 'Porcentagem ou valor em reais, positivo (o serviço mostra descontos como negativos).', example: 10 },
  { ...competenciaInicial, note: 'Primeiro mês do desconto, MM/AAAA (texto).' },
  { field: 'competenciaFinal', label: 'Competência final', kind: 'competencia', required: true, note: 'Último mês do desconto, MM/AAAA (texto).', example: '10/2027' },
];

export function bulkOperation(key: string): BulkOperation {
  const op = (bulkOperations as Record<string, BulkOperation>)[key];
  if (!op) throw new Error(`Operação de lote desconhecida: ${key}`);
  return op;
}
