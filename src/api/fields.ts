/**
 * Field kinds of the interface's records. One definition per field yields both
 * its zod schema (for decoding responses) and its sheet column (label, cell
 * type), so the client, the forms and the sheets cannot drift apart.
 */
import * as z from 'zod';

export type CellKind =
  /** Identifier-like or free text: always written as text so digits, zeros and leading "=" survive. */
  | 'text'
  | 'integer'
  | 'number'
  | 'money'
  | 'percent'
  | 'date'
  | 'datetime'
  | 'boolean'
  /** Arrays whose items the spec does not describe: kept as JSON text. */
  | 'json';

export interface ScalarField {
  type: 'scalar';
  label: string;
  cell: CellKind;
  nullable: boolean;
  schema: z.ZodType;
}

export interface ObjectField {
  type: 'object';
  label: string;
  nullable: boolean;
  fields: FieldMap;
  schema: z.ZodType;
}

export interface ArrayField {
  type: 'array';
  label: string;
  nullable: boolean;
  /** Undefined when the spec does not show the items (kept as JSON). */
  item?: FieldMap;
  schema: z.ZodType;
}

export type Field = ScalarField | ObjectField | ArrayField;
export type FieldMap = Record<string, Field>;

const DATE = /^\d{4}-\d{2}-\d{2}$/;
// Seconds and a fraction are tolerated: the spec shows YYYY-MM-DDTHH:MM:SS, real services add milliseconds.
const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/;
const COMPETENCIA = /^(0[1-9]|1[0-2])\/\d{4}$/;
const TIME = /^\d{2}:\d{2}(:\d{2})?$/;

function money(): z.ZodType {
  return z.number().refine((n) => Number.isFinite(n), 'valor monetário inválido');
}

function scalar(cell: CellKind, schema: z.ZodType) {
  return (label: string): ScalarField & { orNull(): ScalarField } => {
    const field: ScalarField = { type: 'scalar', label, cell, nullable: false, schema };
    return { ...field, orNull: () => ({ ...field, nullable: true, schema: schema.nullable() }) };
  };
}

export const f = {
  integer: scalar('integer', z.number().int()),
  number: scalar('number', z.number()),
  percent: scalar('percent', z.number()),
  money: scalar('money', money()),
  /** An identifier-like string (CPF/CNPJ, CEP, numbers with zeros): the cell keeps it as text. */
  code: scalar('text', z.string()),
  text: scalar('text', z.string()),
  /** Enumerations are open: the spec lists the values that occur, not all that exist. */
  enumeration: scalar('text', z.string()),
  boolean: scalar('boolean', z.boolean()),
  date: scalar('date', z.string().regex(DATE, 'data fora do formato AAAA-MM-DD')),
  datetime: scalar('datetime', z.string().regex(DATETIME, 'data e hora fora do formato AAAA-MM-DDTHH:MM:SS')),
  competencia: scalar('text', z.string().regex(COMPETENCIA, 'competência fora do formato MM/AAAA')),
  time: scalar('text', z.string().regex(TIME, 'hora fora do formato HH:MM')),
  object(label: string, fields: FieldMap): ObjectField & { orNull(): ObjectField } {
    const schema = recordSchema(fields);
    const field: ObjectField = { type: 'object', label, nullable: false, fields, schema };
    return { ...field, orNull: () => ({ ...field, nullable: true, schema: schema.nullable() }) };
  },
  array(label: string, item?: FieldMap): ArrayField & { orNull(): ArrayField } {
    const schema = z.array(item ? recordSchema(item) : z.unknown());
    const field: ArrayField = { type: 'array', label, nullable: false, item, schema };
    return { ...field, orNull: () => ({ ...field, nullable: true, schema: schema.nullable() }) };
  },
};

/**
 * A record keeps fields it does not know (the service adds fields over time) and
 * tolerates absent ones (the spec's variants differ), but a present field must
 * have its documented type.
 */
export function recordSchema(fields: FieldMap): z.ZodType {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, field] of Object.entries(fields)) shape[name] = field.schema.optional();
  return z.looseObject(shape);
}
