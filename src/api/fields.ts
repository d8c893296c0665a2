/**
 * Field kinds of the interface's records. One definition per field yields its
 * check (for decoding responses), its sheet column (label, cell type) and
 * its TypeScript type, so the client, the forms, the sheets and the code that
 * reads records cannot drift apart.
 */
import { array, boolean, type Check, int, matching, nullable, number, record, string, unknown } from './checks';
import { DATE_PATTERN, DATETIME_PATTERN, COMPETENCIA_PATTERN, TIME_PATTERN } from './calendar';

export type CellKind =
  /** Identifier-like or free text: always written as text so digits, zeros and leading "=" survive. */
  | 'text'
  | 'integer'
  | 'number'
  | 'money'
  | 'percent'
  | 'date'
  | 'datetime'
  /** A competência (MM/AAAA) as the date of its first day, shown MM/AAAA: what sorts and groups by time where text cannot. */
  | 'month'
  | 'boolean'
  /** Arrays whose items the spec does not describe: kept as JSON text. */
  | 'json';

/** `T` is the field's value type; it exists only for inference and is never set. */
interface Typed<T> {
  readonly valueType?: T;
}

export interface ScalarField<T = unknown> extends Typed<T> {
  type: 'scalar';
  label: string;
  cell: CellKind;
  nullable: boolean;
  /** What the values mean, in Portuguese (codes, flags): the column's header note after the key. */
  note?: string;
  /** Integer codes shown as Sim/Não (ISS retido: 0 and 2); a code not listed stays as it came. */
  codes?: Readonly<Record<number, boolean>>;
  readonly schema: Check;
}

export interface ObjectField<M extends FieldMap = FieldMap, T = unknown> extends Typed<T> {
  type: 'object';
  label: string;
  nullable: boolean;
  /** Personal data a sheet shows only when the user asks for it ("Incluir dados de cartão"). */
  onRequest?: 'cartao';
  fields: M;
  readonly schema: Check;
}

export interface ArrayField<M extends FieldMap | undefined = FieldMap | undefined, T = unknown> extends Typed<T> {
  type: 'array';
  label: string;
  nullable: boolean;
  /** Undefined when the spec does not show the items: the child table's columns then come from the data. */
  item?: M;
  readonly schema: Check;
}

export type Field = ScalarField | ObjectField | ArrayField;
export type FieldMap = Record<string, Field>;

/** The value a field holds in a decoded record. */
export type ValueOf<F> = F extends Typed<infer T> ? T : unknown;

/**
 * A decoded record: every documented field with its type, each possibly
 * absent (the spec's variants differ); unknown fields are kept but untyped.
 */
export type RecordOf<M extends FieldMap> = { [K in keyof M]?: ValueOf<M[K]> } & { [field: string]: unknown };

type Nullable<F> = F & { orNull(): F };

function withSchema<F extends object>(base: F, schema: () => Check): F & { readonly schema: Check } {
  return Object.defineProperty(base, 'schema', { get: schema, enumerable: true }) as F & { readonly schema: Check };
}

/** A record's check, built on first use: most executions never decode one. */
function lazy(build: () => Check): () => Check {
  let built: Check | undefined;
  return () => (built ??= build());
}

interface ScalarExtras {
  note?: string;
  codes?: Readonly<Record<number, boolean>>;
}

/** `note` explains the field's codes in its column's header note: one place per field, beside its label. */
function scalar<T>(cell: CellKind, schema: Check, fixed: ScalarExtras = {}) {
  const orNullSchema = nullable(schema);
  return (label: string, note?: string): Nullable<ScalarField<T>> & { orNull(): ScalarField<T | null> } => {
    const extras = { ...fixed, ...(note === undefined ? {} : { note }) };
    const field = withSchema({ type: 'scalar' as const, label, cell, nullable: false, ...extras }, () => schema);
    const orNull = () => withSchema({ type: 'scalar' as const, label, cell, nullable: true, ...extras }, () => orNullSchema);
    return Object.assign(field, { orNull });
  };
}

export const f = {
  integer: scalar<number>('integer', int),
  number: scalar<number>('number', number),
  percent: scalar<number>('percent', number),
  money: scalar<number>('money', number),
  /** An identifier-like string (CPF/CNPJ, CEP, numbers with zeros): the cell keeps it as text. */
  code: scalar<string>('text', string),
  text: scalar<string>('text', string),
  /** Enumerations are open: the spec lists the values that occur, not all that exist. */
  enumeration: scalar<string>('text', string),
  boolean: scalar<boolean>('boolean', boolean),
  /**
   * A yes/no flag the service sends as an integer code: the cell says Sim/Não
   * like every boolean. `codes` maps each known code; others stay as they came.
   */
  flag: (codes: Readonly<Record<number, boolean>>) => scalar<number>('boolean', int, { codes }),
  date: scalar<string>('date', matching(DATE_PATTERN, 'data fora do formato AAAA-MM-DD')),
  datetime: scalar<string>('datetime', matching(DATETIME_PATTERN, 'data e hora fora do formato AAAA-MM-DDTHH:MM:SS')),
  competencia: scalar<string>('text', matching(COMPETENCIA_PATTERN, 'competência fora do formato MM/AAAA')),
  time: scalar<string>('text', matching(TIME_PATTERN, 'hora fora do formato HH:MM')),
  object<M extends FieldMap>(label: string, fields: M, extras: { onRequest?: 'cartao' } = {}) {
    const schema = lazy(() => recordSchema(fields));
    const field = withSchema({ type: 'object' as const, label, nullable: false, fields, ...extras }, schema) as ObjectField<M, RecordOf<M>>;
    const orNull = (): ObjectField<M, RecordOf<M> | null> =>
      withSchema(
        { type: 'object' as const, label, nullable: true, fields, ...extras },
        lazy(() => nullable(schema())),
      );
    return Object.assign(field, { orNull });
  },
  array<M extends FieldMap | undefined = undefined>(label: string, item?: M) {
    type Item = M extends FieldMap ? RecordOf<M> : unknown;
    const schema = lazy(() => array(item ? recordSchema(item) : unknown));
    const field = withSchema({ type: 'array' as const, label, nullable: false, item }, schema) as ArrayField<M, Item[]>;
    const orNull = (): ArrayField<M, Item[] | null> =>
      withSchema(
        { type: 'array' as const, label, nullable: true, item },
        lazy(() => nullable(schema())),
      );
    return Object.assign(field, { orNull });
  },
};

/**
 * A record keeps fields it does not know (the service adds fields over time) and
 * tolerates absent ones (the spec's variants differ), but a present field must
 * have its documented type.
 */
export function recordSchema(fields: FieldMap): Check {
  return record(Object.fromEntries(Object.entries(fields).map(([name, field]) => [name, field.schema])));
}
