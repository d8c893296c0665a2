/**
 * The five write operations as one table, like the listings: per operation its
 * method, path, response shape and how an uncertain outcome is settled, and per
 * body field its kind, limits, label, note and example. The client's request
 * check (zod, built on first use), the template sheets, the row validation and
 * the body building are all derived from here: adding a body field is one entry
 * in `fields`.
 */
import { lazyTable } from './lazy-table';
import * as z from 'zod/mini';
import { COMPETENCIA_PATTERN, monthIndex, parseIsoDate } from './calendar';
import type { RecordOf } from './fields';
import type { EDITABLE_LISTING } from './operations';
import type * as records from './records';
import { plural } from './words';

export type WriteKey = 'criarAssinaturaPlano' | 'atualizarAssinaturaPlano' | 'criarAssinaturaPersonalizada' | 'atualizarAssinaturaPersonalizada' | 'emitirNfse';

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
  | 'boolean'
  /** A CPF or CNPJ, typed with or without punctuation; digits only on the wire (lost leading zeros restored). */
  | 'cpfCnpj';

export interface InputField<K extends InputKind = InputKind> {
  kind: K;
  label: string;
  /** A blank cell is an error (otherwise the column has a default, said in the note). */
  required: boolean;
  choices?: readonly string[];
  min?: number;
  max?: number;
  maxLength?: number;
  note: string;
  /** Example cell of the template; a date is given as YYYY-MM-DD and written as a Date. */
  example: string | number | boolean;
  /** What a blank optional cell sends (the body is required whole). */
  blank?: string | number | boolean;
  /** A boolean field that must be true for this value to be sent; when it is false the blank value goes instead. */
  sentWhen?: string;
  /** Goes into the path's `{id}` instead of the body; 'sheet': a column of the template only, never sent itself. */
  in?: 'path' | 'sheet';
  /**
   * A sheet-only column that identifies a record instead of the body field named
   * here: either one per row, both filled must agree. The add-on finds the
   * record through the customers listing (the only kind so far: idCliente by cpfCnpj).
   */
  finds?: 'idCliente';
  /** The field of the listed record this body field sets, when named differently (valor → valorUnitario). */
  record?: string;
  /**
   * An id picked from a reference tab the add-on fills from the imported subscriptions (there is no listing of
   * products or plans): the template's column offers "id — descrição", and a cell holding such a choice sends its id.
   */
  catalog?: 'produtos' | 'planos';
}

/** A list of records in the body, filled from a linked sheet rather than from columns of the row. */
export interface ListField<I extends Record<string, InputField> = Record<string, InputField>> {
  kind: 'list';
  label: string;
  item: I;
  /** Checks across the fields of one item. */
  rules?: Rule[];
}

export type BodyField = InputField | ListField;

/** A check across fields; `field` is where the problem shows (the cell, or the body path). */
export interface Rule {
  field: string;
  /** Without a final period: callers add punctuation. */
  check: (body: Record<string, unknown>) => string | null;
}

export interface WriteOperation<F extends Record<string, BodyField> = Record<string, BodyField>> {
  kind: 'write';
  key: WriteKey;
  label: string;
  method: 'POST' | 'PUT';
  /** `{id}` is replaced by the field marked `in: 'path'`. */
  path: string;
  fields: F;
  rules?: Rule[];
  /** How an outcome that is unknown is settled before sending again: looked up by this field, or simply repeated. */
  identity: 'idIntegracao' | 'idFatura' | 'idempotent';
  response: 'subscription' | 'emission';
  /** Name of the template sheet. */
  sheetName: string;
  /**
   * An update that can be pushed from an imported sheet of its listing: the
   * records it applies to (the record's own field says which, never the sheet)
   * and the listing they come from. Its body fields name the record fields they set.
   */
  edits?: { listing: typeof EDITABLE_LISTING; field: 'tipoContrato'; value: string };
  /** The request check, derived from `fields` and `rules`. */
  readonly body: z.ZodMiniObject;
}

export const FORMAS = ['AGRUPADA', 'INDIVIDUAL'] as const;
/** The spec shows MENSAL; the others are the usual Brazilian billing periods. */
export const PERIODICIDADES = ['MENSAL', 'BIMESTRAL', 'TRIMESTRAL', 'SEMESTRAL', 'ANUAL'] as const;
export const TIPOS_DESCONTO = ['PERCENTUAL', 'VALOR'] as const;
/** Longest idIntegracao the add-on writes or accepts. */
export const KEY_MAX_LENGTH = 60;

const input = <const K extends InputKind>(kind: K, spec: Omit<InputField<K>, 'kind'>): InputField<K> => ({ kind, ...spec });

const idIntegracao = (what: string, extra: Partial<InputField<'key'>> = {}) =>
  input('key', {
    label: 'ID de integração',
    required: false,
    maxLength: KEY_MAX_LENGTH,
    note: `Identificador ${what} no seu sistema (até ${KEY_MAX_LENGTH} caracteres, texto). Deixe em branco para o complemento gerar um: ele é gravado nesta célula antes do envio e garante que a linha nunca seja criada duas vezes.`,
    example: 'CLI-0001-2026',
    ...extra,
  });
const idCliente = input('integer', {
  label: 'ID do cliente',
  required: true,
  min: 1,
  note: 'ID do cliente no serviço de faturamento (número inteiro). Veja em Importar dados › Clientes.',
  example: 123,
});
/** Instead of "ID do cliente": the customer is found by this value in the customers listing. */
const cpfCnpjCliente = input('cpfCnpj', {
  label: 'CPF/CNPJ do cliente',
  required: false,
  in: 'sheet',
  finds: 'idCliente',
  note: 'CPF ou CNPJ do cliente, no lugar do ID do cliente: o complemento procura o cliente em Clientes e usa o ID dele. Só números ou com pontuação (a coluna é texto para manter os zeros à esquerda). O cliente precisa estar ativo e ser o único com esse CPF/CNPJ.',
  example: '',
});
const dataAdesao = input('date', { label: 'Data de adesão', required: true, note: 'Data de adesão no formato dd/mm/aaaa.', example: '2026-11-01' });
const competenciaInicial = input('competencia', {
  label: 'Competência inicial',
  required: true,
  note: 'Primeiro mês de cobrança, no formato MM/AAAA (por exemplo 11/2026). A coluna é texto para o Planilhas não transformar em data.',
  example: '11/2026',
});
const forma = input('choice', {
  label: 'Forma de faturamento',
  required: true,
  choices: FORMAS,
  note: 'AGRUPADA (uma fatura com as demais assinaturas do cliente) ou INDIVIDUAL (fatura própria).',
  example: 'AGRUPADA',
});
const diaVencimento = input('integer', {
  label: 'Dia de vencimento',
  required: true,
  min: 1,
  // The service refuses 29 to 31 (the sandbox, our reading of it, does too): a row is stopped here, not by the server.
  max: 28,
  note: 'Dia do mês em que a cobrança vence, de 1 a 28 (o serviço recusa 29, 30 e 31, dias que nem todo mês tem).',
  example: 10,
});
const descricao = (example: string) =>
  input('text', { label: 'Descrição', required: true, maxLength: 255, note: 'Descrição da assinatura (até 255 caracteres).', example });
const valor = input('money', {
  label: 'Valor',
  required: true,
  min: 0.01,
  note: 'Valor mensal em reais, maior que zero, com no máximo duas casas decimais.',
  example: 350,
});
const quantidade = input('integer', { label: 'Quantidade', required: true, min: 1, note: 'Quantidade contratada (número inteiro, 1 ou mais).', example: 1 });
const idAssinatura = input('integer', {
  label: 'ID da assinatura',
  required: true,
  min: 1,
  note: 'ID da assinatura a alterar (número inteiro), como aparece em Importar dados › Assinaturas e contratos.',
  example: 456,
  in: 'path',
});

/** DescontoRequest: one row of the Descontos sheet. */
export const discountFields = {
  idIntegracao: input('key', {
    label: 'ID de integração do desconto',
    required: false,
    maxLength: KEY_MAX_LENGTH,
    note: 'Identificador do desconto no seu sistema. Em branco: o ID da assinatura seguido de -D1, -D2… na ordem das linhas.',
    example: 'PLANO-0001-D1',
  }),
  descricao: input('text', {
    label: 'Descrição do desconto',
    required: true,
    maxLength: 255,
    note: 'Descrição do desconto (até 255 caracteres).',
    example: 'Desconto de fidelidade',
  }),
  tipoDesconto: input('choice', {
    label: 'Tipo de desconto',
    required: true,
    choices: TIPOS_DESCONTO,
    note: 'PERCENTUAL (o valor é uma porcentagem) ou VALOR (o valor é em reais).',
    example: 'PERCENTUAL',
  }),
  valorDesconto: input('money', {
    label: 'Valor do desconto',
    required: true,
    min: 0.01,
    note: 'Porcentagem ou valor em reais, positivo (o serviço mostra descontos como negativos).',
    example: 10,
  }),
  competenciaInicial: { ...competenciaInicial, note: 'Primeiro mês do desconto, MM/AAAA (texto).' },
  competenciaFinal: input('competencia', { label: 'Competência final', required: true, note: 'Último mês do desconto, MM/AAAA (texto).', example: '10/2027' }),
};

export const discountRules: Rule[] = [
  {
    field: 'valorDesconto',
    check: (d) =>
      d.tipoDesconto === 'PERCENTUAL' && typeof d.valorDesconto === 'number' && d.valorDesconto > 100 ? 'um desconto PERCENTUAL vai até 100' : null,
  },
  {
    field: 'competenciaFinal',
    check: (d) => {
      const from = d.competenciaInicial;
      const to = d.competenciaFinal;
      if (typeof from !== 'string' || typeof to !== 'string' || !COMPETENCIA_PATTERN.test(from) || !COMPETENCIA_PATTERN.test(to)) return null;
      return monthIndex(to) < monthIndex(from) ? `é anterior à competência inicial ${from}` : null;
    },
  },
];

/** The table's keys in the order the sidebar offers the operations (Object.values(writes) keeps it). */
const WRITE_ORDER: readonly WriteKey[] = [
  'criarAssinaturaPersonalizada',
  'atualizarAssinaturaPersonalizada',
  'criarAssinaturaPlano',
  'atualizarAssinaturaPlano',
  'emitirNfse',
];

/** Adds each operation's lazily built body schema. */
function table<const T extends Record<WriteKey, Omit<WriteOperation, 'body' | 'fields'> & { fields: Record<string, BodyField> }>>(build: () => T) {
  return lazyTable(WRITE_ORDER, () => {
    const ops = build();
    for (const op of Object.values(ops)) {
      let schema: z.ZodMiniObject | undefined;
      Object.defineProperty(op, 'body', { get: () => (schema ??= bodySchema(op.fields, op.rules ?? [])), enumerable: false });
    }
    return ops as { [K in keyof T]: T[K] & { readonly body: z.ZodMiniObject } };
  });
}

export const writes = table(() => ({
  criarAssinaturaPersonalizada: {
    kind: 'write',
    key: 'criarAssinaturaPersonalizada',
    label: 'Criar assinaturas personalizadas',
    method: 'POST',
    path: '/v2/assinaturascontratos/personalizado',
    identity: 'idIntegracao',
    response: 'subscription',
    sheetName: 'Lote · Assinaturas personalizadas',
    fields: {
      idIntegracao: idIntegracao('da assinatura'),
      idCliente,
      dataAdesao,
      competenciaInicial,
      periodicidade: input('choice', {
        label: 'Periodicidade',
        required: true,
        choices: PERIODICIDADES,
        note: 'Periodicidade da cobrança: MENSAL, BIMESTRAL, TRIMESTRAL, SEMESTRAL ou ANUAL.',
        example: 'MENSAL',
      }),
      idProduto: input('integer', {
        label: 'ID do produto',
        required: true,
        min: 1,
        catalog: 'produtos',
        note: 'ID do produto ou serviço cobrado (número inteiro). Escolha na lista pelo nome ("789 — Honorários contábeis": a linha envia 789) ou digite o ID. A lista vem da aba Produtos, que o complemento preenche com os produtos das abas importadas de Assinaturas e contratos e atualiza a cada atualização desses relatórios.',
        example: 789,
      }),
      descricaoAssinaturaContrato: descricao('Honorários contábeis mensais'),
      valor,
      formaFaturamentoAssinatura: forma,
      diaVencimentoCobranca: diaVencimento,
      cpfCnpjCliente,
    },
  },
  atualizarAssinaturaPersonalizada: {
    kind: 'write',
    key: 'atualizarAssinaturaPersonalizada',
    label: 'Atualizar assinaturas personalizadas',
    method: 'PUT',
    path: '/v2/assinaturascontratos/personalizado/{id}',
    identity: 'idempotent',
    response: 'subscription',
    sheetName: 'Lote · Atualizar personalizadas',
    edits: { listing: 'assinaturas', field: 'tipoContrato', value: 'PERSONALIZADO' },
    fields: {
      idAssinaturaContrato: idAssinatura,
      valor: { ...valor, record: 'valorUnitario' },
      descricaoAssinaturaContrato: descricao('Honorários contábeis mensais (reajuste)'),
      isAtualizaDiscriminacaoNfse: input('boolean', {
        label: 'Atualizar discriminação da NFS-e',
        required: true,
        note: 'Sim para trocar o texto impresso nas próximas NFS-e pela coluna Discriminação da NFS-e; Não para manter o atual.',
        example: 'Sim',
      }),
      discriminacaoNfse: input('text', {
        label: 'Discriminação da NFS-e',
        required: false,
        maxLength: 2000,
        // With the flag off the service ignores the text, but the body is required whole.
        blank: '',
        sentWhen: 'isAtualizaDiscriminacaoNfse',
        note: 'Texto do serviço impresso na NFS-e. Obrigatório quando "Atualizar discriminação da NFS-e" é Sim; ignorado quando é Não.',
        example: 'Serviços de contabilidade referentes à competência',
      }),
    },
    rules: [
      {
        field: 'discriminacaoNfse',
        check: (b) =>
          b.isAtualizaDiscriminacaoNfse === true && !b.discriminacaoNfse
            ? 'está vazia, mas "Atualizar discriminação da NFS-e" é Sim: escreva o texto da nota ou mude para Não'
            : null,
      },
    ],
  },
  criarAssinaturaPlano: {
    kind: 'write',
    key: 'criarAssinaturaPlano',
    label: 'Criar assinaturas de plano',
    method: 'POST',
    path: '/v2/assinaturascontratos/plano',
    identity: 'idIntegracao',
    response: 'subscription',
    sheetName: 'Lote · Assinaturas de plano',
    fields: {
      idIntegracao: idIntegracao('da assinatura', {
        note: `Identificador da assinatura no seu sistema (até ${KEY_MAX_LENGTH} caracteres, texto). Os descontos da aba Descontos se ligam a esta assinatura por este valor. Deixe em branco (só quando não houver descontos) para o complemento gerar um: ele é gravado nesta célula antes do envio e garante que a linha nunca seja criada duas vezes.`,
        example: 'PLANO-0001',
      }),
      idCliente,
      dataAdesao,
      competenciaInicial,
      idPlano: input('integer', {
        label: 'ID do plano',
        required: true,
        min: 1,
        catalog: 'planos',
        note: 'ID do plano contratado (número inteiro). Escolha na lista pelo nome ("12 — Plano contábil": a linha envia 12) ou digite o ID. A lista vem da aba Planos, que o complemento preenche com os planos das abas importadas de Assinaturas e contratos e atualiza a cada atualização desses relatórios.',
        example: 12,
      }),
      quantidade,
      formaFaturamentoAssinatura: forma,
      diaVencimentoCobranca: diaVencimento,
      cpfCnpjCliente,
      descontos: { kind: 'list', label: 'Descontos', item: discountFields, rules: discountRules },
    },
  },
  atualizarAssinaturaPlano: {
    kind: 'write',
    key: 'atualizarAssinaturaPlano',
    label: 'Atualizar assinaturas de plano',
    method: 'PUT',
    path: '/v2/assinaturascontratos/plano/{id}',
    identity: 'idempotent',
    response: 'subscription',
    sheetName: 'Lote · Atualizar planos',
    edits: { listing: 'assinaturas', field: 'tipoContrato', value: 'PLANO' },
    fields: { idAssinaturaContrato: idAssinatura, quantidade, descricaoAssinaturaContrato: descricao('Plano contábil completo') },
  },
  emitirNfse: {
    kind: 'write',
    key: 'emitirNfse',
    label: 'Emitir NFS-e de faturas',
    method: 'POST',
    path: '/v2/faturamento/nfse/emitir',
    identity: 'idFatura',
    response: 'emission',
    sheetName: 'Lote · Emitir NFS-e',
    fields: {
      idFatura: input('integer', {
        label: 'ID da fatura',
        required: true,
        min: 1,
        note: 'ID da fatura cuja NFS-e será emitida (número inteiro). Também funciona direto numa aba importada de Faturas: selecione as linhas e execute só as selecionadas.',
        example: 1001,
      }),
    },
  },
}));

/** Every write, in the table's order: a function, so code that may not load the writes' chunk can name it. */
export function writeOperations(): WriteOperation[] {
  return Object.values(writes as Record<string, WriteOperation>);
}

export function write(key: string): WriteOperation {
  const op = (writes as Record<string, WriteOperation>)[key];
  if (!op) throw new Error(`Operação de escrita desconhecida: ${key}`);
  return op;
}

/** The wire check of one field: the same limits the sheet's cell readers apply. */
function fieldSchema(field: InputField): z.ZodMiniType {
  switch (field.kind) {
    case 'integer': {
      let s = z.int();
      if (field.min !== undefined) s = s.check(z.minimum(field.min, `o valor mínimo é ${field.min}`));
      if (field.max !== undefined) s = s.check(z.maximum(field.max, `o valor máximo é ${field.max}`));
      return s;
    }
    case 'money': {
      let s = z.number().check(z.refine((n) => Number.isFinite(n), 'valor monetário inválido'));
      if (field.min !== undefined) s = s.check(z.refine((n) => n >= field.min!, 'o valor precisa ser maior que zero'));
      return s.check(z.refine((n) => Math.abs(Math.round(n * 100) - n * 100) < 1e-6, 'use no máximo duas casas decimais'));
    }
    case 'date':
      return z.string().check(z.refine((s) => parseIsoDate(s) !== null, 'use AAAA-MM-DD'));
    case 'competencia':
      return z.string().check(z.regex(COMPETENCIA_PATTERN, 'use MM/AAAA'));
    case 'boolean':
      return z.boolean();
    case 'choice':
      return z.enum(field.choices as [string, ...string[]], `escolha um de ${(field.choices ?? []).join(', ')}`);
    case 'key': {
      const s = z.string().check(z.minLength(1, 'informe o ID de integração'), z.regex(/^\S*$/, 'não use espaços no ID de integração'));
      return field.maxLength !== undefined ? s.check(z.maxLength(field.maxLength, `use no máximo ${plural(field.maxLength, 'caractere', 'caracteres')}`)) : s;
    }
    default: {
      const s = z.string();
      return field.maxLength !== undefined ? s.check(z.maxLength(field.maxLength, `use no máximo ${plural(field.maxLength, 'caractere', 'caracteres')}`)) : s;
    }
  }
}

function withRules<S extends z.ZodMiniObject>(schema: S, rules: readonly Rule[]): S {
  if (rules.length === 0) return schema;
  return schema.check(
    z.superRefine((body, ctx) => {
      for (const issue of ruleIssues(rules, body as Record<string, unknown>)) ctx.addIssue({ code: 'custom', path: [issue.field], message: issue.message });
    }),
  );
}

function bodySchema(fields: Record<string, BodyField>, rules: readonly Rule[]): z.ZodMiniObject {
  const shape: Record<string, z.ZodMiniType> = {};
  for (const [name, field] of Object.entries(fields)) {
    if (field.kind === 'list') shape[name] = z.array(withRules(bodySchema(field.item, []), field.rules ?? []));
    else if (field.in === undefined) shape[name] = fieldSchema(field);
  }
  return withRules(z.object(shape), rules);
}

/** Problems the rules find in a body (or the values read from a row). */
export function ruleIssues(rules: readonly Rule[], body: Record<string, unknown>): Array<{ field: string; message: string }> {
  const out: Array<{ field: string; message: string }> = [];
  for (const rule of rules) {
    const message = rule.check(body);
    if (message) out.push({ field: rule.field, message });
  }
  return out;
}

type KindValue = {
  text: string;
  key: string;
  integer: number;
  money: number;
  date: string;
  competencia: string;
  choice: string;
  boolean: boolean;
  cpfCnpj: string;
};

/** The body a write sends, inferred from its fields. */
export type BodyOf<F extends Record<string, BodyField>> = {
  [N in keyof F as F[N] extends { in: 'path' | 'sheet' } ? never : N]: F[N] extends ListField<infer I>
    ? BodyOf<I>[]
    : F[N] extends InputField<infer K>
      ? KindValue[K]
      : never;
};

type Writes = typeof writes;
export type WriteBody<K extends WriteKey> = BodyOf<Writes[K]['fields']>;

export type Subscription = RecordOf<ReturnType<typeof records.subscription>>;
export type Nfse = RecordOf<ReturnType<typeof records.nfse>>;

export interface SubscriptionResult {
  record: Subscription | null;
  messages: string[];
}

export interface EmissionResult {
  notes: Nfse[];
  messages: string[];
  /** On success the message may be the only place that names the issued note's id. */
  mentionedId?: number;
}

/** What a write returns, by its response shape. */
export type WriteResultOf<K extends WriteKey> = Writes[K]['response'] extends 'emission' ? EmissionResult : SubscriptionResult;

export type BodyCheck<K extends WriteKey> = { ok: true; body: WriteBody<K> } | { ok: false; issues: Array<{ field: string; message: string }> };

/** Bodies that passed `checkBody`, frozen so they stay as checked: the client does not check them again. */
const checked = new WeakSet<object>();

const KIND_NAMES: Record<string, string> = {
  number: 'um número',
  int: 'um número inteiro',
  string: 'um texto',
  boolean: 'verdadeiro ou falso',
  array: 'uma lista',
  object: 'um objeto',
};

/** zod/mini carries no messages of its own (no locale loaded): the type errors get ours, in Portuguese. */
function issueMessage(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type') return `esperava ${KIND_NAMES[issue.expected] ?? issue.expected}`;
  if (issue.code === 'invalid_value' && issue.message === 'Invalid input') return 'valor não permitido';
  return issue.message;
}

export function checkBody<K extends WriteKey>(key: K, body: unknown): BodyCheck<K> {
  const parsed = writes[key].body.safeParse(body);
  if (!parsed.success) {
    return { ok: false, issues: parsed.error.issues.map((i) => ({ field: i.path.map(String).join('.') || '(corpo)', message: issueMessage(i) })) };
  }
  const data = Object.freeze(parsed.data);
  checked.add(data);
  return { ok: true, body: data as WriteBody<K> };
}

export function isChecked(body: unknown): boolean {
  return typeof body === 'object' && body !== null && checked.has(body);
}
