/**
 * Turns records into typed sheet rows: one flat row per record (nested objects
 * become dotted columns) and one child table per nested array, keyed by the
 * parent's id. Cell kinds decide the number format written before the values,
 * which is what keeps CPF/CNPJ, CEP and note numbers as text.
 */
import { bounded, CELL_TEXT_MAX } from '../bounds';
import type { ApiRecord } from '../../api/envelopes';
import type { CellKind, FieldMap } from '../../api/fields';
import type { ListOperation } from '../../api/operations';
import { ITEM_LABELS } from '../../api/item-labels';
import { COMPETENCIA_PATTERN, DATE_PATTERN, DATETIME_PATTERN, parseIsoDate, parseIsoDateTime, type Zone } from '../../api/calendar';
import { plural } from '../../api/words';

export type CellValue = string | number | boolean | Date;

export interface Column {
  /** Field path in the record, dotted for nested objects: the machine-readable name kept in the header note. */
  key: string;
  label: string;
  cell: CellKind;
  /** What the values mean (codes, flags), in Portuguese: shown in the header note under the key. */
  note?: string;
  /** Integer codes of a yes/no flag, shown as Sim/Não. */
  codes?: Readonly<Record<number, boolean>>;
  /** Written only when the report asks for it (card data). */
  onRequest?: 'cartao';
  /** False while an open child's column has seen no value to take its kind from. */
  typed?: false;
  /** A column the add-on derives from another field of the record (its key is then its own). */
  source?: string;
  /** The layout version that brought this column (1 when absent): a sheet laid out before it gets it as new, not as deleted. */
  since?: number;
}

export interface ChildTable {
  /** The array field of the parent record. */
  field: string;
  label: string;
  parentKey: string;
  /** The parent id first. For an open child only that: the rest comes from the data (`discoverColumns`). */
  columns: Column[];
  /** The spec does not show the items' shape: columns are the union of the keys the data holds. */
  open: boolean;
}

export interface TableSpec {
  columns: Column[];
  children: ChildTable[];
  idField: string;
}

export const NUMBER_FORMATS: Record<CellKind, string> = {
  text: '@',
  json: '@',
  boolean: '@',
  integer: '0',
  number: '0.########',
  percent: '0.00',
  money: '#,##0.00',
  date: 'dd/MM/yyyy',
  datetime: 'dd/MM/yyyy HH:mm',
  month: 'MM/yyyy',
};

/**
 * Beside a listing's competência (text, every digit kept), the same month as a date: a pivot table sorts text as
 * text (12/2025 after 11/2026), dates by time. The Faturamento dashboard's pivot groups by it.
 */
export const MONTH_COLUMNS: Partial<Record<string, Column>> = {
  faturas: {
    key: '$mesCompetencia',
    label: 'Mês da competência',
    cell: 'month',
    source: 'competencia',
    since: 2,
    note: 'A competência como data (dia 1 do mês), mostrada MM/AAAA: ordena e agrupa por mês nas tabelas dinâmicas.',
  },
};

function flatten(
  fields: FieldMap,
  prefix = '',
  labelPrefix = '',
  onRequest?: 'cartao',
): { columns: Column[]; arrays: Array<[string, FieldMap | undefined, string]> } {
  const columns: Column[] = [];
  const arrays: Array<[string, FieldMap | undefined, string]> = [];
  for (const [name, field] of Object.entries(fields)) {
    const key = prefix ? `${prefix}.${name}` : name;
    if (field.type === 'scalar') {
      const column: Column = { key, label: labelPrefix ? `${labelPrefix} ${field.label}` : field.label, cell: field.cell };
      if (field.note !== undefined) column.note = field.note;
      if (field.codes !== undefined) column.codes = field.codes;
      if (onRequest) column.onRequest = onRequest;
      columns.push(column);
    } else if (field.type === 'object') columns.push(...flatten(field.fields, key, '', field.onRequest ?? onRequest).columns);
    else arrays.push([key, field.item, field.label]);
  }
  return { columns, arrays };
}

const specCache = new Map<string, TableSpec>();

export function tableSpec(op: ListOperation): TableSpec {
  const cached = specCache.get(op.key);
  if (cached) return cached;
  const { columns, arrays } = flatten(op.record);
  const month = MONTH_COLUMNS[op.key];
  if (month) columns.splice(columns.findIndex((c) => c.key === month.source) + 1, 0, month);
  const parentLabel = columns.find((c) => c.key === op.idField)?.label ?? op.idField;
  const children: ChildTable[] = arrays.map(([field, item, label]) => ({
    field,
    label,
    parentKey: op.idField,
    // An item that repeats its parent's id (a discount's idAssinaturaContrato) shows it once, in the first column.
    columns: [{ key: op.idField, label: parentLabel, cell: 'integer' }, ...(item ? flatten(item).columns.filter((c) => c.key !== op.idField) : [])],
    open: !item,
  }));
  const spec = { columns, children, idField: op.idField };
  specCache.set(op.key, spec);
  return spec;
}

export function valueAt(record: ApiRecord, key: string): unknown {
  if (!key.includes('.')) return record[key];
  let v: unknown = record;
  for (const part of key.split('.')) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[part] : undefined;
  return v;
}

/** Per-run memo: dates repeat a lot across records and each conversion may cost a service call. */
export class CellConverter {
  private readonly dates = new Map<string, Date | null>();
  /** Texts cut to the cell limit, each naming its record and field, for the run's warnings. */
  readonly cuts: string[] = [];
  constructor(private readonly zone: Zone) {}

  /** A text over Google's 50,000 characters per cell is cut, and the cut is told. */
  fit(value: CellValue, where: () => string): CellValue {
    if (typeof value !== 'string' || value.length <= CELL_TEXT_MAX) return value;
    const text = value;
    this.cuts.push(
      `${where()} tinha ${plural(text.length, 'caractere', 'caracteres')}: a célula mostra os primeiros ${(CELL_TEXT_MAX - 1).toLocaleString('pt-BR')} (limite do Google Planilhas), seguidos de "…".`,
    );
    return bounded(text, CELL_TEXT_MAX);
  }

  cell(kind: CellKind, value: unknown, codes?: Readonly<Record<number, boolean>>): CellValue {
    if (value === null || value === undefined) return '';
    // Whatever the column's kind, a list or object in it reads as words: never JSON, never "[object Object]".
    if (typeof value === 'object' && !(value instanceof Date)) return readable(value);
    switch (kind) {
      case 'integer':
      case 'number':
      case 'money':
      case 'percent':
        return typeof value === 'number' ? value : String(value);
      case 'boolean':
        return yesNo(typeof value === 'number' && codes && value in codes ? codes[value] : value);
      case 'date':
      case 'datetime': {
        const text = String(value);
        let date = this.dates.get(text);
        if (date === undefined) {
          const wall = kind === 'date' ? parseIsoDate(text) : parseIsoDateTime(text);
          date = wall ? this.zone.instant(wall) : null;
          this.dates.set(text, date);
        }
        // A copy: a Date in a cell must not be shared with another cell's mutation.
        return date ? new Date(date.getTime()) : text;
      }
      case 'month': {
        const text = String(value);
        return COMPETENCIA_PATTERN.test(text) ? this.zone.instant({ year: Number(text.slice(3)), month: Number(text.slice(0, 2)), day: 1 }) : text;
      }
      case 'json':
        return typeof value === 'string' ? value : typeof value === 'object' ? readable(value) : String(value);
      default:
        return typeof value === 'string' ? value : typeof value === 'object' ? readable(value) : String(value);
    }
  }
}

function yesNo(value: unknown): string {
  return value === true ? 'Sim' : value === false ? 'Não' : String(value);
}

/** A list or object inside a cell, as words: `a, b` and `chave: valor; …`, never JSON. */
function readable(value: object): string {
  if (Array.isArray(value)) return value.map((v) => (v !== null && typeof v === 'object' ? readable(v) : String(v ?? ''))).join(', ');
  return Object.entries(value)
    .map(([k, v]) => `${k}: ${v !== null && typeof v === 'object' ? readable(v) : String(v ?? '')}`)
    .join('; ');
}

export function recordRow(columns: readonly Column[], record: ApiRecord, conv: CellConverter): CellValue[] {
  return columns.map((c) => {
    const v = conv.cell(c.cell, valueAt(record, c.source ?? c.key), c.codes);
    if (typeof v !== 'string' || v.length <= CELL_TEXT_MAX) return v;
    return conv.fit(v, () => `O campo "${c.key}" do registro ${columns[0].label} ${String(valueAt(record, columns[0].key))}`);
  });
}

export function childRows(child: ChildTable, records: readonly ApiRecord[], conv: CellConverter, columns: readonly Column[] = child.columns): CellValue[][] {
  const rows: CellValue[][] = [];
  for (const record of records) {
    const items = valueAt(record, child.field);
    if (!Array.isArray(items)) continue;
    const parentId = record[child.parentKey];
    for (const item of items) {
      rows.push(
        columns.map((c, i) => {
          if (i === 0) return conv.cell('integer', parentId);
          const where = () => `O campo "${child.field}" do registro ${String(parentId)}`;
          if (c.key === SCALAR_ITEM) return conv.fit(conv.cell(c.cell, isPlainObject(item) ? undefined : item), where);
          return conv.fit(conv.cell(c.cell, isPlainObject(item) ? valueAt(item, c.key) : undefined, c.codes), where);
        }),
      );
    }
  }
  return rows;
}

/** The rows `records` bring to a child table: one per item. */
export function childRowCount(child: ChildTable, records: readonly ApiRecord[]): number {
  let rows = 0;
  for (const record of records) {
    const items = valueAt(record, child.field);
    if (Array.isArray(items)) rows += items.length;
  }
  return rows;
}

/** The column of a list whose items are plain values (a tag given as a word). */
export const SCALAR_ITEM = '$valor';

/** Bounds what a listing's data can add to a sheet: a runaway shape stops here, with a warning. */
export const OPEN_COLUMNS_MAX = 60;

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Keys that carry amounts get two decimals; the spec names money like this everywhere. */
const MONEY_KEY = /valor|preco|preço|total|desconto|multa|juros|saldo|tarifa/i;
const ID_KEY = /^id[A-Z_]|^id$|^numero|^codigo/;

/** A column's kind from one value seen in it. Null and undefined tell nothing. */
export function kindOf(key: string, value: unknown): CellKind | null {
  if (value === null || value === undefined || value === '') return null;
  const leaf = key.slice(key.lastIndexOf('.') + 1);
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'number') {
    // The column of a list's plain items is named by us, not by the service: its name says nothing of money.
    if (MONEY_KEY.test(leaf) && key !== SCALAR_ITEM) return 'money';
    return Number.isInteger(value) && ID_KEY.test(leaf) ? 'integer' : 'number';
  }
  if (typeof value === 'string') {
    if (DATE_PATTERN.test(value) && parseIsoDate(value)) return 'date';
    if (DATETIME_PATTERN.test(value) && parseIsoDateTime(value)) return 'datetime';
  }
  return 'text';
}

/** `valorTotal` → "Valor total", `endereco.cidade` → "Endereco · cidade": a readable header for a key the spec does not name. */
export function labelOf(key: string): string {
  const words = key
    .split('.')
    .map((part) => part.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase())
    .join(' · ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Dotted leaves of an item, in its own key order; arrays inside an item are one text column. */
function leaves(value: Record<string, unknown>, prefix: string, out: Array<[string, unknown]>, depth = 0): void {
  for (const [k, v] of Object.entries(value)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (isPlainObject(v) && depth < 4) leaves(v, key, out, depth + 1);
    else out.push([key, v]);
  }
}

export interface Discovery {
  columns: Column[];
  /** Keys left out because the table reached `OPEN_COLUMNS_MAX`. */
  dropped: number;
}

/**
 * The columns of an open child table after seeing `records`: the known ones
 * first, in their order (so a refresh keeps the sheet's layout), then keys seen
 * for the first time, in the order they appear. A known column still without a
 * kind (`typed: false`, from an earlier sheet's header) takes the first value's.
 */
export function discoverColumns(child: ChildTable, records: readonly ApiRecord[], known: readonly Column[]): Discovery {
  const columns = known.map((c) => ({ ...c }));
  const byKey = new Map(columns.map((c) => [c.key, c]));
  let dropped = 0;
  const see = (key: string, value: unknown) => {
    let col = byKey.get(key);
    if (!col) {
      if (columns.length >= OPEN_COLUMNS_MAX) {
        dropped++;
        return;
      }
      col = { key, label: key === SCALAR_ITEM ? child.label : (ITEM_LABELS[key] ?? labelOf(key)), cell: 'text', typed: false };
      columns.push(col);
      byKey.set(key, col);
    }
    if (col.typed === false) {
      const kind = kindOf(key, value);
      if (kind) {
        col.cell = kind;
        delete col.typed;
      }
    }
  };
  for (const record of records) {
    const items = valueAt(record, child.field);
    if (!Array.isArray(items)) continue;
    for (const item of items) {
      if (!isPlainObject(item)) {
        see(SCALAR_ITEM, item);
        continue;
      }
      const found: Array<[string, unknown]> = [];
      leaves(item, '', found);
      for (const [k, v] of found) see(k, v);
    }
  }
  return { columns, dropped };
}

/** Bounds of a fitted column: narrow codes stay readable, long free text does not push the rest off screen. */
export const COLUMN_WIDTH = { min: 60, max: 320 } as const;

/** Characters a value shows with, roughly, in its column's format. */
function shownLength(value: CellValue, kind: CellKind): number {
  if (value instanceof Date) return kind === 'datetime' ? 16 : 10;
  if (typeof value === 'number') return kind === 'money' ? value.toFixed(2).length + Math.floor(Math.abs(value) >= 1000 ? 1 : 0) + 1 : String(value).length;
  return String(value).length;
}

/**
 * Column widths fitted to the header and a sample of rows, within
 * `COLUMN_WIDTH`: about 7 px a character in the sheet's 10 pt font, plus
 * padding (the header is bold, so a little more).
 */
export function fittedWidths(columns: readonly Column[], rows: readonly CellValue[][], sample = 200): number[] {
  return columns.map((c, i) => {
    let chars = Math.ceil(c.label.length * 1.1);
    for (let r = 0; r < rows.length && r < sample; r++) chars = Math.max(chars, shownLength(rows[r][i], c.cell));
    return Math.max(COLUMN_WIDTH.min, Math.min(COLUMN_WIDTH.max, chars * 7 + 16));
  });
}
