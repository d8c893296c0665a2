/**
 * Strict reading of query parameters. Every malformed value is collected as a
 * message naming the parameter; the route answers 400 with all of them.
 * Absent parameters are undefined; unknown parameters are never looked at.
 */
import { isRealDate } from './dates.js';

const INT_MAX = 2_147_483_647; // the service is plainly Java: Integer parameters

export class QueryReader {
  readonly errors: string[] = [];
  constructor(private readonly params: URLSearchParams) {}

  private raw(name: string): string | undefined {
    const v = this.params.get(name);
    return v === null ? undefined : v;
  }

  private fail(name: string, value: string, expected: string): undefined {
    this.errors.push(`Parâmetro '${name}' inválido: '${value}' (esperado ${expected})`);
    return undefined;
  }

  /** Exact-match string; an empty value is a filter on the empty string, as a naive backend does. */
  str(name: string): string | undefined {
    return this.raw(name);
  }

  int(name: string): number | undefined {
    const v = this.raw(name);
    if (v === undefined) return undefined;
    if (!/^\d{1,10}$/.test(v) || Number(v) > INT_MAX) return this.fail(name, v, 'número inteiro');
    return Number(v);
  }

  bool(name: string): boolean | undefined {
    const v = this.raw(name);
    if (v === undefined) return undefined;
    if (v === 'true') return true;
    if (v === 'false') return false;
    return this.fail(name, v, 'true ou false');
  }

  /** DD/MM/YYYY → YYYY-MM-DD */
  date(name: string): string | undefined {
    const v = this.raw(name);
    if (v === undefined) return undefined;
    const m = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(v);
    if (!m || !isRealDate(+m[3], +m[2], +m[1])) return this.fail(name, v, 'data no formato DD/MM/YYYY');
    return `${m[3]}-${m[2]}-${m[1]}`;
  }

  /** DD/MM/YYYY HH:MM → YYYY-MM-DDTHH:MM */
  datetime(name: string): string | undefined {
    const v = this.raw(name);
    if (v === undefined) return undefined;
    const m = /^(\d{2})\/(\d{2})\/(\d{4}) (\d{2}):(\d{2})$/.exec(v);
    if (!m || !isRealDate(+m[3], +m[2], +m[1]) || +m[4] > 23 || +m[5] > 59) return this.fail(name, v, 'data e hora no formato DD/MM/YYYY HH:MM');
    return `${m[3]}-${m[2]}-${m[1]}T${m[4]}:${m[5]}`;
  }

  /** MM/YYYY, returned as MM/YYYY (records hold the same text). */
  competencia(name: string): string | undefined {
    const v = this.raw(name);
    if (v === undefined) return undefined;
    const m = /^(\d{2})\/(\d{4})$/.exec(v);
    if (!m || +m[1] < 1 || +m[1] > 12) return this.fail(name, v, 'competência no formato MM/YYYY');
    return v;
  }

  /** Comma-separated integers, no spaces, no empty items. */
  intList(name: string): Set<number> | undefined {
    const v = this.raw(name);
    if (v === undefined) return undefined;
    if (!/^\d{1,10}(,\d{1,10})*$/.test(v) || v.split(',').some((x) => Number(x) > INT_MAX)) {
      return this.fail(name, v, 'lista de inteiros separados por vírgula');
    }
    return new Set(v.split(',').map(Number));
  }

  /** 11 or 14 digits: a CPF/CNPJ that lost its leading zeros or kept its punctuation is refused. */
  cpfCnpj(name: string): string | undefined {
    const v = this.raw(name);
    if (v === undefined) return undefined;
    if (!/^(\d{11}|\d{14})$/.test(v)) return this.fail(name, v, 'CPF (11 dígitos) ou CNPJ (14 dígitos), somente números');
    return v;
  }

  /** Page number at or above the base. */
  page(name: string, base: 0 | 1): number {
    const v = this.int(name);
    if (v === undefined) return base;
    if (v < base) {
      this.errors.push(`Parâmetro '${name}' inválido: '${v}' (a primeira página é ${base})`);
      return base;
    }
    return v;
  }
}
