/**
 * "Filtros na planilha": conditions on any field of a listing, applied by the
 * add-on to the records it downloaded, after the service's own filters have
 * narrowed the download. The service cannot filter invoices by status, for
 * example; a saved report can, here.
 *
 * A report keeps them as typed in the form (relative periods stay relative);
 * each run's plan resolves them against its own day into absolute conditions
 * (runs/plan-pull.ts).
 */
import type { ApiRecord } from '../../api/envelopes';
import { isoDate, parseCompetencia, parseDay, pad2, pad4 } from '../../api/calendar';
import type { ListingKey } from '../../api/operations';
import { type Column, valueAt } from './table';

export type SheetFilterOp = 'igual' | 'lista' | 'entre' | 'relativo' | 'vazio' | 'preenchido';

export interface SheetFilter {
  /** The column's key (dotted for nested objects), as in the header notes. */
  field: string;
  op: SheetFilterOp;
  /** `igual`: one value; `lista`: any of them. */
  values?: string[];
  /** `entre`: either bound may be blank (open). Dates DD/MM/AAAA or AAAA-MM-DD, competência MM/AAAA, numbers. */
  from?: string;
  to?: string;
  /** `relativo`: from today `de` to `ate` days, or from this month `de` to `ate` months (whole months). */
  rel?: { unit: 'dias' | 'meses'; de: number; ate: number };
}

/** What a run applies: no relative values left. */
export interface SheetCondition {
  field: string;
  op: 'igual' | 'lista' | 'entre' | 'vazio' | 'preenchido';
  values?: string[];
  from?: string;
  to?: string;
  /** The column's yes/no codes (ISS retido): the filter compares what the cell shows, Sim/Não. */
  codes?: Readonly<Record<number, boolean>>;
}

export const SHEET_FILTERS_MAX = 10;
const VALUES_MAX = 50;
const TEXT_MAX = 200;

export const OP_LABELS: Record<SheetFilterOp, string> = {
  igual: 'é igual a',
  lista: 'está na lista',
  entre: 'entre',
  relativo: 'período relativo a hoje',
  vazio: 'está vazio',
  preenchido: 'não está vazio',
};

/** Where the service's own filters fall short of a common question, the form says so. */
export const SERVICE_GAPS: Partial<Record<ListingKey, string>> = {
  faturas:
    'O serviço não filtra faturas por status, vencimento ou emissão (só por competência, cliente, número e data de atualização), e a fatura não traz data de vencimento. Para "faturas abertas que vencem este mês": Competência = mês atual acima e, em Filtros na planilha, Status é igual a ABERTA.',
};

/** A value as something that orders: numbers as numbers, dates and competências as ISO text, the rest lower-cased. */
function comparable(value: unknown): number | string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? 'sim' : 'não';
  const s = String(value).trim();
  if (s === '') return null;
  let m = /^(\d{1,2})\/(\d{4})$/.exec(s);
  if (m) return `${m[2]}-${pad2(Number(m[1]))}`;
  m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})(.*)$/.exec(s);
  if (m) return `${m[3]}-${pad2(Number(m[2]))}-${pad2(Number(m[1]))}${m[4].trim() ? `T${m[4].trim()}` : ''}`;
  if (/^\d{4}-\d{2}(-\d{2})?/.test(s)) return s;
  const n = /^-?\d+([.,]\d+)?$/.test(s) ? Number(s.replace(',', '.')) : Number.NaN;
  if (!Number.isNaN(n)) return n;
  if (/^(true|sim)$/i.test(s)) return 'sim';
  if (/^(false|não|nao)$/i.test(s)) return 'não';
  return s.toLowerCase();
}

function isEmpty(value: unknown): boolean {
  return value === null || value === undefined || (typeof value === 'string' && value.trim() === '') || (Array.isArray(value) && value.length === 0);
}

/** Equal as a person means it: "1500" equals 1500.00, "sim" equals true, a date typed DD/MM/AAAA equals the record's ISO date. */
function same(value: unknown, wanted: string): boolean {
  const a = comparable(value);
  const b = comparable(wanted);
  if (a === null || b === null) return false;
  if (typeof a === 'string' && typeof b === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(b) && a.startsWith(b)) return true;
  return a === b;
}

function inRange(value: unknown, from: string | undefined, to: string | undefined): boolean {
  const v = comparable(value);
  if (v === null) return false;
  const lo = from ? comparable(from) : null;
  const hi = to ? comparable(to) : null;
  if (lo !== null && (typeof lo !== typeof v || v < lo)) return false;
  // A date bound includes its whole day: "2026-10-31T23:59" is still within "2026-10-31".
  if (hi !== null && (typeof hi !== typeof v || (v > hi && !(typeof v === 'string' && v.startsWith(hi as string))))) return false;
  return true;
}

export function matches(conditions: readonly SheetCondition[], record: ApiRecord): boolean {
  for (const c of conditions) {
    const raw = valueAt(record, c.field);
    const value = c.codes && typeof raw === 'number' && raw in c.codes ? c.codes[raw] : raw;
    switch (c.op) {
      case 'vazio':
        if (!isEmpty(value)) return false;
        break;
      case 'preenchido':
        if (isEmpty(value)) return false;
        break;
      case 'igual':
      case 'lista':
        if (!(c.values ?? []).some((w) => same(value, w))) return false;
        break;
      case 'entre':
        if (!inRange(value, c.from, c.to)) return false;
        break;
    }
  }
  return true;
}

export interface SheetFilterProblem {
  index: number;
  message: string;
}

const bounded = (s: unknown) =>
  String(s ?? '')
    .trim()
    .slice(0, TEXT_MAX);

/** A bound as typed, checked against its column's kind; null when blank. */
function checkBound(text: string, cell: Column['cell'] | undefined, label: string): string | null {
  if (!text) return null;
  if (cell === 'date' || cell === 'datetime') {
    const d = parseDay(text);
    if (!d.ok) throw new Error(`${label}: ${d.message}`);
    return isoDate(d.value);
  }
  if (cell === 'integer' || cell === 'number' || cell === 'money' || cell === 'percent') {
    const t = text.replace(/\s/g, '');
    // "1.234,56" as typed in Brazil, or "1234.56".
    const n = /^-?\d{1,3}(\.\d{3})*(,\d+)?$/.test(t)
      ? Number(t.replace(/\./g, '').replace(',', '.'))
      : /^-?\d+([.,]\d+)?$/.test(t)
        ? Number(t.replace(',', '.'))
        : Number.NaN;
    if (Number.isNaN(n)) throw new Error(`${label}: "${text}" não é um número`);
    return String(n);
  }
  if (/^\d{1,2}\/\d{4}$/.test(text) || /^\d{4}-\d{1,2}$/.test(text)) {
    const m = parseCompetencia(text);
    if (!m.ok) throw new Error(`${label}: ${m.message}`);
    return `${pad2(m.value.month)}/${pad4(m.value.year)}`;
  }
  return text;
}

/**
 * Cleans what the form sent into filters a report can keep: known fields,
 * bounded texts, bounds in the column's format. Throws nothing; says which
 * filter is wrong and why.
 */
export function checkSheetFilters(input: unknown, columns: readonly Column[]): { ok: true; value: SheetFilter[] } | ({ ok: false } & SheetFilterProblem) {
  const list = Array.isArray(input) ? input : [];
  if (list.length > SHEET_FILTERS_MAX) return { ok: false, index: SHEET_FILTERS_MAX, message: `Use no máximo ${SHEET_FILTERS_MAX} filtros na planilha.` };
  const byKey = new Map(columns.map((c) => [c.key, c]));
  const out: SheetFilter[] = [];
  for (let i = 0; i < list.length; i++) {
    const raw = (list[i] ?? {}) as Partial<SheetFilter>;
    const column = byKey.get(String(raw.field ?? ''));
    const n = `Filtro na planilha ${i + 1}`;
    if (!column) return { ok: false, index: i, message: `${n}: escolha uma coluna.` };
    const label = `${n} (${column.label})`;
    const op = raw.op as SheetFilterOp;
    if (!(op in OP_LABELS)) return { ok: false, index: i, message: `${label}: escolha uma condição.` };
    try {
      if (op === 'igual' || op === 'lista') {
        const values = (op === 'igual' ? [bounded(raw.values?.[0])] : (raw.values ?? []).flatMap((v) => String(v ?? '').split(/[;\n]/)).map(bounded))
          .filter(Boolean)
          .slice(0, VALUES_MAX)
          .map((v) => checkBound(v, column.cell, label) ?? v);
        if (values.length === 0) return { ok: false, index: i, message: `${label}: informe ${op === 'igual' ? 'o valor' : 'os valores, separados por ;'}.` };
        out.push({ field: column.key, op, values });
      } else if (op === 'entre') {
        const from = checkBound(bounded(raw.from), column.cell, label) ?? undefined;
        const to = checkBound(bounded(raw.to), column.cell, label) ?? undefined;
        if (from === undefined && to === undefined) return { ok: false, index: i, message: `${label}: informe o início, o fim ou os dois.` };
        const lo = from === undefined ? null : comparable(from);
        const hi = to === undefined ? null : comparable(to);
        if (lo !== null && hi !== null && typeof lo === typeof hi && hi < lo)
          return { ok: false, index: i, message: `${label}: o fim é anterior ao início; corrija o período.` };
        out.push({ field: column.key, op, from, to });
      } else if (op === 'relativo') {
        const unit = raw.rel?.unit === 'meses' ? 'meses' : 'dias';
        const de = Number(raw.rel?.de ?? 0);
        const ate = Number(raw.rel?.ate ?? 0);
        if (!Number.isInteger(de) || !Number.isInteger(ate) || Math.abs(de) > 3660 || Math.abs(ate) > 3660) {
          return { ok: false, index: i, message: `${label}: use números inteiros de ${unit}.` };
        }
        if (ate < de) return { ok: false, index: i, message: `${label}: o fim do período vem antes do início.` };
        if (!['date', 'datetime'].includes(column.cell) && !(unit === 'meses' && column.cell === 'text')) {
          return { ok: false, index: i, message: `${label}: períodos relativos valem para colunas de data (ou competência, em meses).` };
        }
        out.push({ field: column.key, op, rel: { unit, de, ate } });
      } else out.push({ field: column.key, op });
    } catch (err) {
      return { ok: false, index: i, message: (err as Error).message };
    }
  }
  return { ok: true, value: out };
}

/** One line per filter, for the report's card: "Status é igual a ABERTA". */
export function describeSheetFilter(f: SheetFilter, columns: readonly Column[]): string {
  const label = columns.find((c) => c.key === f.field)?.label ?? f.field;
  switch (f.op) {
    case 'igual':
    case 'lista':
      return `${label} ${OP_LABELS[f.op]} ${(f.values ?? []).join('; ')}`;
    case 'entre':
      return `${label} entre ${f.from ?? '…'} e ${f.to ?? '…'}`;
    case 'relativo': {
      const r = f.rel ?? { unit: 'dias', de: 0, ate: 0 };
      if (r.unit === 'meses' && r.de === 0 && r.ate === 0) return `${label} no mês atual`;
      return `${label} de hoje ${r.de >= 0 ? '+' : '−'} ${Math.abs(r.de)} a hoje ${r.ate >= 0 ? '+' : '−'} ${Math.abs(r.ate)} ${r.unit}`;
    }
    default:
      return `${label} ${OP_LABELS[f.op]}`;
  }
}
