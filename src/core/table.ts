/**
 * Turns records into typed sheet rows: one flat row per record (nested objects
 * become dotted columns) and one child table per nested array, keyed by the
 * parent's id. Cell kinds decide the number format written before the values,
 * which is what keeps CPF/CNPJ, CEP and note numbers as text.
 */
import { bounded, CELL_TEXT_MAX } from './bounds';
import type { ApiRecord } from '../api/envelopes';
import type { CellKind, FieldMap } from '../api/fields';
import type { ListOperation } from '../api/operations';
import { parseIsoDate, parseIsoDateTime, type Zone } from '../api/calendar';

export type CellValue = string | number | boolean | Date;

export interface Column {
  /** Field path in the record, dotted for nested objects: the machine-readable name kept in the header note. */
  key: string;
  label: string;
  cell: CellKind;
}

export interface ChildTable {
  /** The array field of the parent record. */
  field: string;
  label: string;
  parentKey: string;
  /** The parent id first; where the spec does not show the items, each item is one text cell (JSON for objects). */
  columns: Column[];
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
};

function flatten(fields: FieldMap, prefix = '', labelPrefix = ''): { columns: Column[]; arrays: Array<[string, FieldMap | undefined, string]> } {
  const columns: Column[] = [];
  const arrays: Array<[string, FieldMap | undefined, string]> = [];
  for (const [name, field] of Object.entries(fields)) {
    const key = prefix ? `${prefix}.${name}` : name;
    if (field.type === 'scalar') columns.push({ key, label: labelPrefix ? `${labelPrefix} ${field.label}` : field.label, cell: field.cell });
    else if (field.type === 'object') columns.push(...flatten(field.fields, key, '').columns);
    else arrays.push([key, field.item, field.label]);
  }
  return { columns, arrays };
}

const specCache = new Map<string, TableSpec>();

export function tableSpec(op: ListOperation): TableSpec {
  const cached = specCache.get(op.key);
  if (cached) return cached;
  const { columns, arrays } = flatten(op.record);
  const parentLabel = columns.find((c) => c.key === op.idField)?.label ?? op.idField;
  const children: ChildTable[] = arrays.map(([field, item, label]) => ({
    field,
    label,
    parentKey: op.idField,
    columns: [{ key: op.idField, label: parentLabel, cell: 'integer' }, ...(item ? flatten(item).columns : [{ key: '$value', label, cell: 'text' as const }])],
  }));
  const spec = { columns, children, idField: op.idField };
  specCache.set(op.key, spec);
  return spec;
}

function valueAt(record: ApiRecord, key: string): unknown {
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
      `${where()} tinha ${text.length.toLocaleString('pt-BR')} caracteres: a célula mostra os primeiros ${(CELL_TEXT_MAX - 1).toLocaleString('pt-BR')} (limite do Google Planilhas), seguidos de "…".`,
    );
    return bounded(text, CELL_TEXT_MAX);
  }

  cell(kind: CellKind, value: unknown): CellValue {
    if (value === null || value === undefined) return '';
    switch (kind) {
      case 'integer':
      case 'number':
      case 'money':
      case 'percent':
        return typeof value === 'number' ? value : String(value);
      case 'boolean':
        return value === true ? 'Sim' : value === false ? 'Não' : String(value);
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
      case 'json':
        return typeof value === 'string' ? value : JSON.stringify(value);
      default:
        return typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
    }
  }
}

export function recordRow(columns: readonly Column[], record: ApiRecord, conv: CellConverter): CellValue[] {
  return columns.map((c) => {
    const v = conv.cell(c.cell, valueAt(record, c.key));
    if (typeof v !== 'string' || v.length <= CELL_TEXT_MAX) return v;
    return conv.fit(v, () => `O campo "${c.key}" do registro ${columns[0].label} ${String(valueAt(record, columns[0].key))}`);
  });
}

export function childRows(child: ChildTable, records: readonly ApiRecord[], conv: CellConverter): CellValue[][] {
  const rows: CellValue[][] = [];
  for (const record of records) {
    const items = valueAt(record, child.field);
    if (!Array.isArray(items)) continue;
    const parentId = record[child.parentKey];
    for (const item of items) {
      rows.push(
        child.columns.map((c, i) => {
          if (i === 0) return conv.cell('integer', parentId);
          const where = () => `O campo "${child.field}" do registro ${String(parentId)}`;
          if (c.key === '$value') return conv.fit(conv.cell('text', item && typeof item === 'object' ? JSON.stringify(item) : item), where);
          return conv.fit(conv.cell(c.cell, item && typeof item === 'object' ? (item as Record<string, unknown>)[c.key] : undefined), where);
        }),
      );
    }
  }
  return rows;
}
