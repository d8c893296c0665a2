/**
 * Query filters: what callers pass (plain values) and what the wire carries
 * (the spec's formats). A value that cannot be formatted is refused here, before
 * any request, with a message naming the filter.
 */
import {
  brDate,
  brDateTime,
  checkDay,
  checkMonth,
  competencia,
  type Day,
  isDate,
  type Month,
  type Parsed,
  parseCompetencia,
  parseDay,
  parseDayTime,
  type Zone,
} from './calendar';
import { UserError } from './user-error';
import { plural } from './words';

export type FilterKind =
  | 'integer'
  | 'string'
  | 'boolean'
  | 'date'
  | 'datetime'
  | 'competencia'
  | 'idList'
  | 'sortField'
  | 'sortOrder'
  /** Digits only (the spec's format); punctuation is removed and zeros lost by a spreadsheet are restored. */
  | 'cpfCnpj';

export interface FilterDef {
  name: string;
  kind: FilterKind;
  label: string;
  /** isListar* switches: they shape the records rather than narrow them. */
  option?: boolean;
  /** Sort fields worth offering in a form; the service accepts others too. */
  choices?: readonly string[];
}

export type DateInput = Date | string | { year: number; month: number; day: number };
export type FilterValue = string | number | boolean | Date | readonly number[] | { year: number; month: number; day?: number };
export type FilterValues = Record<string, FilterValue | null | undefined>;

/** Thrown when a request's filters are formatted and one is unknown to the listing, has a value its kind refuses, or ends its period before it starts. */
export class FilterError extends UserError {
  override name = 'FilterError';
  constructor(
    readonly operation: string,
    readonly filter: string,
    readonly detail: string,
  ) {
    super(`Filtro "${filter}" de ${operation}: ${detail}`, `filter:${filter}`);
  }
}

/** `zone` reads Date values as days; `service` is the zone the service reads date-times in. */
type Formatter = (value: unknown, zone: Zone, service: Zone) => string;

function calendarDay(value: unknown, zone: Zone): Day | string {
  if (isDate(value)) {
    if (Number.isNaN(value.getTime())) return 'data inválida';
    return zone.wall(value);
  }
  if (typeof value === 'string') {
    const parsed = parseDay(value);
    if (parsed.ok) return parsed.value;
    return parsed.reason === 'format' ? `${parsed.message} (recebido "${value.trim()}")` : parsed.message;
  }
  if (value && typeof value === 'object' && 'year' in value && 'month' in value && 'day' in value) {
    const parsed = checkDay(value as Day);
    return parsed.ok ? parsed.value : parsed.message;
  }
  return 'esperava uma data';
}

const fail = (message: string): never => {
  throw new Error(message);
};

const formatters: Record<FilterKind, Formatter> = {
  integer(value) {
    const n = typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : value;
    if (typeof n !== 'number' || !Number.isSafeInteger(n)) return fail('esperava um número inteiro');
    return String(n);
  },
  string(value) {
    if (typeof value === 'number') return String(value);
    if (typeof value !== 'string') return fail('esperava um texto');
    return value.trim();
  },
  boolean(value) {
    if (value === true || value === 'true') return 'true';
    if (value === false || value === 'false') return 'false';
    return fail('esperava sim (true) ou não (false)');
  },
  date(value, zone) {
    const d = calendarDay(value, zone);
    if (typeof d === 'string') return fail(d);
    return brDate(d);
  },
  datetime(value, _zone, service) {
    if (isDate(value)) {
      if (Number.isNaN(value.getTime())) return fail('data e hora inválidas');
      // An instant goes out as the service's wall clock, whatever the spreadsheet's zone.
      return brDateTime(service.wall(value));
    }
    if (typeof value !== 'string') return fail('esperava data e hora');
    const parsed = parseDayTime(value);
    if (parsed.ok) return brDateTime(parsed.value);
    return fail(parsed.reason === 'format' ? `${parsed.message} (recebido "${value.trim()}")` : parsed.message);
  },
  competencia(value, zone) {
    let parsed: Parsed<Month>;
    if (isDate(value)) parsed = checkMonth(zone.wall(value));
    else if (typeof value === 'string') parsed = parseCompetencia(value);
    else if (value && typeof value === 'object' && 'year' in value && 'month' in value) parsed = checkMonth(value as { year: number; month: number });
    else return fail('esperava uma competência MM/AAAA');
    if (parsed.ok) return competencia(parsed.value);
    return fail(parsed.reason === 'format' ? `${parsed.message} (recebido "${String(value).trim()}")` : parsed.message);
  },
  idList(value) {
    const items = Array.isArray(value)
      ? value
      : typeof value === 'string'
        ? value.split(/[,;\s]+/).filter(Boolean)
        : typeof value === 'number'
          ? [value]
          : fail('esperava uma lista de IDs separados por vírgula');
    if (items.length === 0) return fail('a lista de IDs está vazia');
    return items
      .map((item) => {
        const n = typeof item === 'string' && /^\d+$/.test(item) ? Number(item) : item;
        if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 1) return fail(`"${String(item)}" não é um ID (número inteiro)`);
        return String(n);
      })
      .join(',');
  },
  sortField(value) {
    if (typeof value !== 'string' || !/^[A-Za-z][A-Za-z0-9]*$/.test(value.trim())) return fail('nome de campo inválido para ordenação');
    return value.trim();
  },
  cpfCnpj(value) {
    const raw = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : fail('esperava um CPF ou CNPJ');
    if (!/^[\d.\-/\s]+$/.test(raw)) return fail(`"${raw}" não é um CPF/CNPJ: use só números`);
    const digits = raw.replace(/\D/g, '');
    // A number cell drops leading zeros: 10 digits was a CPF, 12-13 a CNPJ.
    if (digits.length === 9 || digits.length === 10) return digits.padStart(11, '0');
    if (digits.length === 12 || digits.length === 13) return digits.padStart(14, '0');
    if (digits.length !== 11 && digits.length !== 14) return fail(`"${raw}" tem ${plural(digits.length, 'dígito', 'dígitos')}; CPF tem 11 e CNPJ tem 14`);
    return digits;
  },
  sortOrder(value) {
    const s = typeof value === 'string' ? value.trim().toLowerCase() : '';
    if (s !== 'asc' && s !== 'desc') return fail('use asc (crescente) ou desc (decrescente)');
    return s;
  },
};

/** Whether a CPF's (11 digits) or CNPJ's (14) last two digits are the check digits of the rest (weights from the right 2, 3, …; a CNPJ's wrap after 9). */
export function checkDigitsMatch(digits: string): boolean {
  const cnpj = digits.length === 14;
  let made = digits.slice(0, -2);
  for (let k = 0; k < 2; k++) {
    const n = made.length;
    const sum = [...made].reduce((t, d, i) => t + Number(d) * (cnpj ? ((n - 1 - i) % 8) + 2 : n + 1 - i), 0);
    const rest = sum % 11;
    made += rest < 2 ? '0' : String(11 - rest);
  }
  return made === digits;
}

/** "12345678000190" → "12.345.678/0001-90" (a CPF as 123.456.789-01), as people read them. */
export function formatCpfCnpj(digits: string): string {
  if (digits.length === 14) return digits.replace(/^(\d{2})(\d{3})(\d{3})(\d{4})(\d{2})$/, '$1.$2.$3/$4-$5');
  if (digits.length === 11) return digits.replace(/^(\d{3})(\d{3})(\d{3})(\d{2})$/, '$1.$2.$3-$4');
  return digits;
}

/** A CPF or CNPJ as the wire wants it (digits, lost leading zeros restored); throws a Portuguese message when it is not one. */
export function cpfCnpjDigits(value: unknown): string {
  return formatters.cpfCnpj(value, undefined as never, undefined as never);
}

/** Formats every given filter as the spec wants it on the wire; empty values are left out. */
export function formatFilters(operation: string, defs: readonly FilterDef[], values: FilterValues, zone: Zone, service: Zone = zone): Array<[string, string]> {
  const known = new Map(defs.map((d) => [d.name, d]));
  const out: Array<[string, string]> = [];
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined || value === null || value === '') continue;
    const def = known.get(name);
    if (!def) throw new FilterError(operation, name, 'este filtro não existe nesta listagem');
    try {
      out.push([name, formatters[def.kind](value, zone, service)]);
    } catch (err) {
      throw new FilterError(operation, def.name, (err as Error).message);
    }
  }
  refuseInvertedRanges(operation, out);
  return out;
}

/** `DD/MM/AAAA[ HH:MM]` as a key that sorts in time order. */
const sortable = (br: string) => br.replace(/^(\d{2})\/(\d{2})\/(\d{4})/, '$3-$2-$1');

/** A range whose end comes before its start would ask the service for nothing: said beside the end field instead. */
function refuseInvertedRanges(operation: string, formatted: ReadonlyArray<[string, string]>): void {
  const values = new Map(formatted);
  for (const [name, start] of formatted) {
    if (!name.endsWith('Inicial')) continue;
    const endName = `${name.slice(0, -'Inicial'.length)}Final`;
    const end = values.get(endName);
    if (end !== undefined && /^\d{2}\/\d{2}\/\d{4}/.test(start) && sortable(end) < sortable(start)) {
      throw new FilterError(operation, endName, `o fim (${end}) é anterior ao início (${start}); corrija o período`);
    }
  }
}
