/**
 * Decoding of the interface's envelopes into plain records, tolerant of the
 * shapes the spec leaves open and strict about the types it states.
 */
import { type Check, type Issue, int, record } from './checks';
import { type RequestInfo, SchemaError } from './errors';
import { type FieldMap, type RecordOf, recordSchema } from './fields';

export type ApiRecord = Record<string, unknown>;

export interface Paging {
  page?: number;
  totalRows?: number;
  totalPages?: number;
  itemsPerPage?: number;
}

export interface DecodedList<R = ApiRecord> {
  records: R[];
  paging: Paging;
  messages: string[];
}

/** A record's schema, built once per field map: a long pull decodes page after page with the same one. */
const schemaCache = new WeakMap<FieldMap, Check>();
function schemaOf(fields: FieldMap): Check {
  const schema = schemaCache.get(fields) ?? recordSchema(fields);
  schemaCache.set(fields, schema);
  return schema;
}

/** The types a check expects (it says "number" for an integer too) and typeof finds, in Portuguese; describe names null itself. */
const typeNames: Record<string, string> = {
  number: 'número',
  string: 'texto',
  boolean: 'verdadeiro/falso',
  array: 'lista',
  object: 'objeto',
  undefined: 'ausente',
};

function describe(value: unknown): string {
  if (value === null) return 'nulo';
  if (Array.isArray(value)) return 'lista';
  const t = typeof value;
  return t === 'string' ? `texto "${String(value).slice(0, 40)}"` : (typeNames[t] ?? t);
}

function issueText(issue: Issue, root: unknown): string {
  let value: unknown = root;
  // The path leads through the objects and arrays the check went into, down to the value at fault.
  for (const key of issue.path) value = (value as Record<PropertyKey, unknown>)[key];
  const field = issue.path.map(String).join('.');
  if (issue.code === 'invalid_type') return `campo ${field}: esperava ${typeNames[issue.expected] ?? issue.expected}, veio ${describe(value)}`;
  return `campo ${field}: ${issue.message} (veio ${describe(value)})`;
}

/** Validates each record, naming the record (by position and id) and the field at fault. */
export function decodeRecords<M extends FieldMap>(info: RequestInfo, operation: string, fields: M, idField: string, items: unknown[]): RecordOf<M>[] {
  const schema = schemaOf(fields);
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (!item || typeof item !== 'object' || Array.isArray(item)) {
      throw new SchemaError(info, operation, `registro ${i + 1}: esperava um objeto, veio ${describe(item)}`);
    }
    const result = schema.safeParse(item);
    if (!result.success) {
      const id = (item as ApiRecord)[idField];
      const which = `registro ${i + 1}${id !== undefined ? ` (${idField} ${String(id)})` : ''}`;
      throw new SchemaError(info, operation, `${which}, ${issueText(result.error.issues[0], item)}`);
    }
  }
  // Records are returned as received: the schema only checks, so unknown fields stay.
  return items as RecordOf<M>[];
}

const pagingSchema: Check<Paging> = record({ page: int, totalRows: int, totalPages: int, itemsPerPage: int });

function readPaging(info: RequestInfo, operation: string, raw: unknown): Paging {
  if (raw === undefined || raw === null) return {};
  const parsed = pagingSchema.safeParse(raw);
  if (!parsed.success) throw new SchemaError(info, operation, `paging: ${issueText(parsed.error.issues[0], raw)}`);
  const { page, totalRows, totalPages, itemsPerPage } = parsed.data;
  return { page, totalRows, totalPages, itemsPerPage };
}

function messagesOf(raw: unknown): string[] {
  if (typeof raw === 'string') return raw ? [raw] : [];
  return Array.isArray(raw) ? raw.filter((m): m is string => typeof m === 'string') : [];
}

/**
 * A list envelope, or — where the spec leaves the envelope open — a bare array
 * or a bare record.
 */
export function decodeList<M extends FieldMap>(
  info: RequestInfo,
  operation: string,
  fields: M,
  idField: string,
  json: unknown,
  flexible: boolean,
): DecodedList<RecordOf<M>> {
  if (Array.isArray(json)) {
    if (!flexible) throw new SchemaError(info, operation, 'esperava o envelope de listagem, veio uma lista sem envelope');
    return { records: decodeRecords(info, operation, fields, idField, json), paging: {}, messages: [] };
  }
  if (!json || typeof json !== 'object') throw new SchemaError(info, operation, `esperava um objeto JSON, veio ${describe(json)}`);
  const o = json as ApiRecord;
  if ('data' in o) {
    const data = o.data;
    const items = Array.isArray(data) ? data : data === null ? [] : flexible ? [data] : null;
    if (!items) throw new SchemaError(info, operation, `campo data: esperava lista, veio ${describe(data)}`);
    return {
      records: decodeRecords(info, operation, fields, idField, items),
      paging: readPaging(info, operation, o.paging),
      messages: messagesOf(o.message),
    };
  }
  if (flexible && idField in o) return { records: decodeRecords(info, operation, fields, idField, [o]), paging: {}, messages: [] };
  if (flexible && Object.keys(o).length === 0) return { records: [], paging: {}, messages: [] };
  throw new SchemaError(info, operation, 'resposta sem o campo data');
}

/** The subscription envelope: data, message, errors. */
export function decodeSubscription<M extends FieldMap>(info: RequestInfo, operation: string, fields: M, json: unknown) {
  if (!json || typeof json !== 'object' || Array.isArray(json))
    throw new SchemaError(info, operation, `esperava o envelope de assinatura, veio ${describe(json)}`);
  const o = json as ApiRecord;
  const messages = [...messagesOf(o.message), ...messagesOf(o.errors)];
  const data = o.data ?? null;
  const record = data === null ? null : decodeRecords(info, operation, fields, 'idAssinaturaContrato', [data])[0];
  return { record, messages, errors: messagesOf(o.errors) };
}

/** The NFS-e emission envelope: data as one record or as an array with paging. */
export function decodeEmission<M extends FieldMap>(info: RequestInfo, operation: string, fields: M, json: unknown) {
  if (!json || typeof json !== 'object' || Array.isArray(json))
    throw new SchemaError(info, operation, `esperava o envelope de emissão, veio ${describe(json)}`);
  const o = json as ApiRecord;
  const data = o.data ?? null;
  const items = data === null ? [] : Array.isArray(data) ? data : [data];
  const notes = decodeRecords(info, operation, fields, 'idNotaFiscalServico', items);
  const messages = messagesOf(o.message);
  // On success the message may be the only place that names the issued note's id.
  const mentioned = messages.map((m) => /\b(\d{1,12})\b/.exec(m)?.[1]).find(Boolean);
  return { notes, messages, mentionedId: mentioned ? Number(mentioned) : undefined };
}
