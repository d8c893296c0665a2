/**
 * Field-by-field validation of JSON bodies. Errors read "campo: motivo" so a
 * client (and a test) can tell which field was refused; nested fields are
 * named like descontos[0].valorDesconto.
 */
import { competenciaKey, parseBodyDate, parseCompetencia } from './dates.js';

const INT_MAX = 2_147_483_647;

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export class BodyReader {
  constructor(
    private readonly body: Record<string, unknown>,
    readonly errors: string[] = [],
    private readonly prefix = '',
  ) {}

  private fail(name: string, why: string): undefined {
    this.errors.push(`${this.prefix}${name}: ${why}`);
    return undefined;
  }

  private get(name: string): unknown {
    return this.body[name];
  }

  /** null counts as absent: a required field sent as null is refused like a missing one. */
  has(name: string): boolean {
    return this.get(name) !== undefined && this.get(name) !== null;
  }

  string(name: string, maxLength: number): string | undefined {
    const v = this.get(name);
    if (v === undefined || v === null) return this.fail(name, 'campo obrigatório');
    if (typeof v !== 'string') return this.fail(name, 'deve ser texto');
    if (v.trim() === '') return this.fail(name, 'não pode ser vazio');
    if (v.length > maxLength) return this.fail(name, `tamanho máximo ${maxLength} caracteres`);
    return v;
  }

  /** JSON number with no fraction; "10" (a string) is refused. */
  int(name: string, min: number, max = INT_MAX): number | undefined {
    const v = this.get(name);
    if (v === undefined || v === null) return this.fail(name, 'campo obrigatório');
    if (typeof v !== 'number' || !Number.isInteger(v)) return this.fail(name, 'deve ser um número inteiro');
    if (v < min || v > max) return this.fail(name, `deve estar entre ${min} e ${max}`);
    return v;
  }

  /** Positive amount with at most two decimals. */
  money(name: string, max = 99_999_999.99): number | undefined {
    const v = this.get(name);
    if (v === undefined || v === null) return this.fail(name, 'campo obrigatório');
    if (typeof v !== 'number' || !Number.isFinite(v)) return this.fail(name, 'deve ser um número');
    if (v <= 0) return this.fail(name, 'deve ser maior que zero');
    if (v > max) return this.fail(name, `deve ser no máximo ${max}`);
    if (Math.abs(Math.round(v * 100) - v * 100) > 1e-6) return this.fail(name, 'no máximo duas casas decimais');
    return v;
  }

  bool(name: string): boolean | undefined {
    const v = this.get(name);
    if (v === undefined || v === null) return this.fail(name, 'campo obrigatório');
    if (typeof v !== 'boolean') return this.fail(name, 'deve ser true ou false');
    return v;
  }

  date(name: string): string | undefined {
    const v = this.get(name);
    if (v === undefined || v === null) return this.fail(name, 'campo obrigatório');
    return parseBodyDate(v) ?? this.fail(name, 'data inválida (formato YYYY-MM-DD)');
  }

  competencia(name: string): string | undefined {
    const v = this.get(name);
    if (v === undefined || v === null) return this.fail(name, 'campo obrigatório');
    return parseCompetencia(v) ?? this.fail(name, 'competência inválida (formato MM/YYYY)');
  }

  oneOf<T extends string>(name: string, values: readonly T[]): T | undefined {
    const v = this.get(name);
    if (v === undefined || v === null) return this.fail(name, 'campo obrigatório');
    if (typeof v !== 'string' || !(values as readonly string[]).includes(v)) return this.fail(name, `valor inválido (aceitos: ${values.join(', ')})`);
    return v as T;
  }

  /** Optional array of objects; each element gets its own reader. */
  objects(name: string): BodyReader[] | undefined {
    const v = this.get(name);
    if (v === undefined || v === null) return [];
    if (!Array.isArray(v)) return this.fail(name, 'deve ser uma lista');
    const out: BodyReader[] = [];
    v.forEach((el, i) => {
      if (!isPlainObject(el)) this.fail(`${name}[${i}]`, 'deve ser um objeto');
      else out.push(new BodyReader(el, this.errors, `${this.prefix}${name}[${i}].`));
    });
    return out;
  }

  /** Records a cross-field error under this reader's prefix. */
  error(name: string, why: string): void {
    this.fail(name, why);
  }
}

export const FORMAS_FATURAMENTO = ['AGRUPADA', 'INDIVIDUAL'] as const;
export const PERIODICIDADES = ['MENSAL', 'BIMESTRAL', 'TRIMESTRAL', 'SEMESTRAL', 'ANUAL'] as const;
export const TIPOS_DESCONTO = ['PERCENTUAL', 'VALOR'] as const;
/** Days 29-31 do not exist in every month; billing services usually refuse them. */
export const MAX_DIA_VENCIMENTO = 28;

export interface DescontoBody {
  idIntegracao: string;
  descricao: string;
  tipoDesconto: (typeof TIPOS_DESCONTO)[number];
  valorDesconto: number;
  competenciaInicial: string;
  competenciaFinal: string;
}

export function readDescontos(r: BodyReader): DescontoBody[] {
  const out: DescontoBody[] = [];
  for (const d of r.objects('descontos') ?? []) {
    const item = {
      idIntegracao: d.string('idIntegracao', 60),
      descricao: d.string('descricao', 255),
      tipoDesconto: d.oneOf('tipoDesconto', TIPOS_DESCONTO),
      valorDesconto: d.money('valorDesconto'),
      competenciaInicial: d.competencia('competenciaInicial'),
      competenciaFinal: d.competencia('competenciaFinal'),
    };
    if (item.tipoDesconto === 'PERCENTUAL' && item.valorDesconto !== undefined && item.valorDesconto > 100) d.error('valorDesconto', 'percentual acima de 100');
    if (item.competenciaInicial && item.competenciaFinal && competenciaKey(item.competenciaFinal) < competenciaKey(item.competenciaInicial)) {
      d.error('competenciaFinal', 'anterior à competenciaInicial');
    }
    if (Object.values(item).every((v) => v !== undefined)) out.push(item as DescontoBody);
  }
  return out;
}
