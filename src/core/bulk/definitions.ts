/**
 * The five write operations as sheets, derived from the write table
 * (src/api/writes.ts): each body field is a column of the template, read by
 * its kind and limits; what sits beside each row (Status, ID, Mensagem…)
 * follows from the operation's response shape. Nothing here lists a body field.
 */
import { type BodyField, discountFields, type InputField, type Rule, type WriteKey, type WriteOperation, writes } from '../../api/writes';

/** A column of a template: one body field (or the Descontos sheet's link column), named. */
export interface InputColumn extends InputField {
  field: string;
}

/** Rows of a template that get formats and dropdowns up front; rows typed below still work, only without the dropdown. */
export const TEMPLATE_ROWS = 500;

export { RESULT_NOTE } from '../sheets/sheet-layout';

export type ResultKey = 'status' | 'id' | 'numero' | 'chave' | 'mensagem' | 'processadoEm';

export interface ResultColumn {
  key: ResultKey;
  label: string;
  format: string;
  note: string;
  /** Pixels, where Sheets' default 100 is too narrow to read the column. */
  width?: number;
}

export interface BulkOperation {
  key: WriteKey;
  label: string;
  /** Name of the template sheet. */
  sheetName: string;
  write: WriteOperation;
  columns: InputColumn[];
  /** The column whose value goes into the path ({id}) instead of the body. */
  pathId?: string;
  /** How an outcome that is unknown is settled before sending again. */
  identity: WriteOperation['identity'];
  rules: readonly Rule[];
  results: ResultColumn[];
  /** Plan subscriptions read their discounts from the linked Descontos sheet. */
  discounts?: string;
}

/** Starts the Mensagem of a row Validar found a problem in: it is not a run's ERRO, but it is what "Ir para as linhas com erro" goes to. */
export const TO_FIX = 'A corrigir: ';

export const STATUS = {
  ok: 'OK',
  erro: 'ERRO',
  jaExiste: 'JÁ EXISTE',
  jaEmitida: 'JÁ EMITIDA',
  pendente: 'PENDENTE',
  exemplo: 'EXEMPLO',
} as const;

const status: ResultColumn = {
  key: 'status',
  label: 'Status',
  format: '@',
  note: 'Preenchido pelo complemento: OK, ERRO, JÁ EXISTE / JÁ EMITIDA, PENDENTE (resultado ainda sendo conferido). Linhas OK são puladas quando você executa de novo; linhas EXEMPLO são sempre ignoradas.',
};
// Sentences (what went wrong and what to do): wide enough to read without opening the cell.
const mensagem: ResultColumn = {
  key: 'mensagem',
  label: 'Mensagem',
  format: '@',
  note: 'O que aconteceu com a linha e, se houve erro, o que corrigir.',
  width: 420,
};
const processadoEm: ResultColumn = {
  key: 'processadoEm',
  label: 'Processado em',
  format: 'dd/MM/yyyy HH:mm:ss',
  note: 'Quando o complemento gravou o resultado desta linha.',
};
const idCriado: ResultColumn = { key: 'id', label: 'ID da assinatura criada', format: '0', note: 'idAssinaturaContrato devolvido pelo serviço.' };
const nfseResults: ResultColumn[] = [
  status,
  { key: 'id', label: 'ID da NFS-e', format: '0', note: 'idNotaFiscalServico da nota emitida (ou da que já existia).' },
  {
    key: 'numero',
    label: 'Número da NFS-e',
    format: '@',
    note: 'Número da nota na prefeitura, como texto (com os zeros). Fica vazio enquanto a prefeitura não numerar a nota.',
  },
  {
    key: 'chave',
    label: 'Fatura conferida',
    format: '0',
    note: 'ID da fatura a que o resultado desta linha se refere: se a aba for importada de novo e a linha passar a ser outra fatura, o resultado antigo não vale para ela.',
  },
  mensagem,
  processadoEm,
];

function resultsOf(op: WriteOperation): ResultColumn[] {
  if (op.response === 'emission') return nfseResults;
  return op.identity === 'idempotent' ? [status, mensagem, processadoEm] : [status, idCriado, mensagem, processadoEm];
}

const columnsOf = (fields: Record<string, BodyField>): InputColumn[] =>
  Object.entries(fields).flatMap(([field, def]) => (def.kind === 'list' ? [] : [{ ...def, field }]));

function bulk(op: WriteOperation): BulkOperation {
  const entries = Object.entries(op.fields);
  return {
    key: op.key,
    label: op.label,
    sheetName: op.sheetName,
    write: op,
    columns: columnsOf(op.fields),
    pathId: entries.find(([, f]) => f.kind !== 'list' && f.in === 'path')?.[0],
    identity: op.identity,
    rules: op.rules ?? [],
    results: resultsOf(op),
    discounts: entries.find(([, f]) => f.kind === 'list')?.[0],
  };
}

/**
 * In the order the sidebar offers them. Each is built on first use: every
 * execution loads the bundle, and most never touch a bulk operation.
 */
export const bulkOperations = Object.defineProperties(
  // No prototype, as the tables it reads (src/api/lazy-table.ts): an operation named "toString" is unknown.
  Object.create(null),
  Object.fromEntries(
    // The keys only: reading an operation would build the writes table at load.
    (Object.keys(writes) as WriteKey[]).map((key) => {
      let built: BulkOperation | undefined;
      return [key, { enumerable: true, get: () => (built ??= bulk(writes[key])) }];
    }),
  ),
) as Record<WriteKey, BulkOperation>;

/** The linked sheet of plan discounts, keyed by the subscription row's idIntegracao. */
export const DISCOUNT_SHEET = 'Descontos';

/** The Descontos sheet: the link to its subscription row, then the DescontoRequest fields. */
export const discountColumns: InputColumn[] = [
  {
    field: 'assinatura',
    kind: 'key',
    label: 'ID de integração da assinatura',
    required: true,
    maxLength: 60,
    note: 'O ID de integração da linha da assinatura (aba de assinaturas de plano) a que este desconto pertence. Uma assinatura pode ter várias linhas de desconto.',
    example: 'PLANO-0001',
  },
  ...columnsOf(discountFields),
];

export function bulkOperation(key: string): BulkOperation {
  const op = (bulkOperations as Record<string, BulkOperation>)[key];
  if (!op) throw new Error(`Operação de lote desconhecida: ${key}`);
  return op;
}
