/**
 * Query filters: what callers pass (plain values) and what the wire carries
 * (the spec's formats). A value that cannot be formatted is refused here, before
 * any request, with a message naming the filter.
 */
import { isValidDay, pad2, pad4, type Zone } from './calendar';

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

export class FilterError extends Error {
  override name = 'FilterError';
  constructor(
    readonly operation: string,
    readonly filter: string,
    readonly detail: string,
  ) {
    super(`Filtro "${filter}" de ${operation}: ${detail}`);
  }
}

type Formatter = (value: unknown, zone: Zone) => string;

function calendarDay(value: unknown, zone: Zone): { year: number; month: number; day: number } | string {
  if (value instanceof Date || Object.prototype.toString.call(value) === '[object Date]') {
    const d = value as Date;
    if (Number.isNaN(d.getTime())) return 'data inválida';
    const w = zone.wall(d);
    return { year: w.year, month: w.month, day: w.day };
  }
  if (typeof value === 'string') {
    const s = value.trim();
    let m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
    if (m) return checkDay(Number(m[1]), Number(m[2]), Number(m[3]));
    m = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(s);
    if (m) return checkDay(Number(m[3]), Number(m[2]), Number(m[1]));
    return `use o formato DD/MM/AAAA (recebido "${s}")`;
  }
  if (value && typeof value === 'object' && 'year' in value && 'month' in value && 'day' in value) {
    const v = value as { year: number; month: number; day: number };
    return checkDay(v.year, v.month, v.day);
  }
  return 'esperava uma data';
}

function checkDay(year: number, month: number, day: number) {
  return isValidDay(year, month, day) ? { year, month, day } : `a data ${pad2(day)}/${pad2(month)}/${pad4(year)} não existe`;
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
    return `${pad2(d.day)}/${pad2(d.month)}/${pad4(d.year)}`;
  },
  datetime(value, zone) {
    let wall: { year: number; month: number; day: number; hour: number; minute: number } | null = null;
    if (value instanceof Date || Object.prototype.toString.call(value) === '[object Date]') {
      if (Number.isNaN((value as Date).getTime())) return fail('data e hora inválidas');
      wall = zone.wall(value as Date);
    } else if (typeof value === 'string') {
      const s = value.trim();
      let m = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::\d{2}(?:\.\d+)?)?$/.exec(s);
      if (m) wall = { year: +m[1], month: +m[2], day: +m[3], hour: +m[4], minute: +m[5] };
      m = /^(\d{2})\/(\d{2})\/(\d{4}) (\d{2}):(\d{2})$/.exec(s);
      if (m) wall = { year: +m[3], month: +m[2], day: +m[1], hour: +m[4], minute: +m[5] };
      if (!wall) return fail(`use o formato DD/MM/AAAA HH:MM (recebido "${s}")`);
    } else {
      return fail('esperava data e hora');
    }
    const day = checkDay(wall.year, wall.month, wall.day);
    if (typeof day === 'string') return fail(day);
    if (wall.hour > 23 || wall.minute > 59) return fail('hora inválida');
    return `${pad2(wall.day)}/${pad2(wall.month)}/${pad4(wall.year)} ${pad2(wall.hour)}:${pad2(wall.minute)}`;
  },
  competencia(value, zone) {
    let year: number | undefined;
    let month: number | undefined;
    if (value instanceof Date || Object.prototype.toString.call(value) === '[object Date]') {
      const w = zone.wall(value as Date);
      year = w.year;
      month = w.month;
    } else if (typeof value === 'string') {
      const s = value.trim();
      let m = /^(\d{1,2})\/(\d{4})$/.exec(s);
      if (m) [month, year] = [Number(m[1]), Number(m[2])];
      m = /^(\d{4})-(\d{2})$/.exec(s);
      if (m) [year, month] = [Number(m[1]), Number(m[2])];
      if (year === undefined) return fail(`use o formato MM/AAAA (recebido "${s}")`);
    } else if (value && typeof value === 'object' && 'year' in value && 'month' in value) {
      ({ year, month } = value as { year: number; month: number });
    } else {
      return fail('esperava uma competência MM/AAAA');
    }
    if (!Number.isInteger(month) || month! < 1 || month! > 12) return fail('o mês da competência vai de 01 a 12');
    if (!Number.isInteger(year) || year! < 1900 || year! > 9999) return fail('ano da competência inválido');
    return `${pad2(month!)}/${pad4(year!)}`;
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
        if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0) return fail(`"${String(item)}" não é um ID (número inteiro)`);
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
    if (digits.length !== 11 && digits.length !== 14) return fail(`"${raw}" tem ${digits.length} dígitos; CPF tem 11 e CNPJ tem 14`);
    return digits;
  },
  sortOrder(value) {
    const s = typeof value === 'string' ? value.trim().toLowerCase() : '';
    if (s !== 'asc' && s !== 'desc') return fail('use asc (crescente) ou desc (decrescente)');
    return s;
  },
};

/** Formats every given filter as the spec wants it on the wire; empty values are left out. */
export function formatFilters(
  operation: string,
  defs: readonly FilterDef[],
  values: FilterValues,
  zone: Zone,
): Array<[string, string]> {
  const known = new Map(defs.map((d) => [d.name, d]));
  const out: Array<[string, string]> = [];
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined || value === null || value === '') continue;
    const def = known.get(name);
    if (!def) throw new FilterError(operation, name, 'este filtro não existe nesta listagem');
    try {
      out.push([name, formatters[def.kind](value, zone)]);
    } catch (err) {
      throw new FilterError(operation, def.name, (err as Error).message);
    }
  }
  return out;
}
