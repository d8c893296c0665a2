/**
 * How a dashboard's sheet is written, whatever its kind: a head that says what
 * it shows, from which reports, with which filters and when, then its tables,
 * each a bold title over a header row, its figures in their number formats.
 */
import { listing } from '../../api/operations';
import { plural } from '../../api/words';
import type { Report, SavedFilterValue } from '../reports/reports';
import { describeSheetFilter } from '../sheets/sheet-filters';
import { type CellValue, tableSpec } from '../sheets/table';
import type { Source } from './panel';
import type { DashboardSheetPort } from './port';

export const MONEY = '#,##0.00';
export const INTEGER = '0';
export const TEXT = '@';

/** First row of the main table's header. */
export const TABLE_ROW = 8;

/** Rows a dashboard lists at most; its count and the path to select them cover every one. */
export const LIST_MAX = 2_000;

export interface TablePlan {
  title: string;
  header: string[];
  rows: CellValue[][];
  /** One number format per column. */
  formats: string[];
}

/** The head above the tables, one line a row, as text. */
export function writeHead(sheet: DashboardSheetPort, lines: readonly string[]): void {
  sheet.ensureSize(TABLE_ROW + 2, 1);
  sheet.setFormats(1, 1, lines.length, [TEXT]);
  sheet.write(
    1,
    1,
    lines.map((line) => [line]),
  );
  sheet.setBold(1, 1, 1);
}

/** Writes a table from `row` (its title); returns the row after its last. */
export function writeTable(sheet: DashboardSheetPort, row: number, t: TablePlan): number {
  sheet.write(row, 1, [[t.title]]);
  sheet.setBold(row, 1, 1);
  const width = t.header.length;
  sheet.ensureSize(row + 1 + t.rows.length, width);
  sheet.setFormats(
    row + 1,
    1,
    1,
    t.header.map(() => TEXT),
  );
  sheet.write(row + 1, 1, [t.header]);
  sheet.setBold(row + 1, 1, width);
  if (t.rows.length) {
    sheet.setFormats(row + 2, 1, t.rows.length, t.formats);
    sheet.write(row + 2, 1, t.rows);
  }
  return row + 2 + t.rows.length;
}

/** A report and its sheet, as the head names them. */
export const sourceText = ({ report, sheet }: Source): string => `relatório "${report.name}" (aba "${sheet.name()}")`;

/** The head's line of when: how many records, and what refreshes it (`after`: "do relatório"). */
export const updatedText = (stamp: string, counted: number, after: string): string =>
  `Atualizado em ${stamp} · ${plural(counted, 'registro considerado', 'registros considerados')} · atualiza sozinho a cada atualização ${after}.`;

function describeValue(v: SavedFilterValue): string {
  if (Array.isArray(v)) return v.join(', ');
  if (typeof v === 'boolean') return v ? 'Sim' : 'Não';
  if (typeof v === 'object' && v !== null) {
    if (v.rel === 'hoje') return v.dias === 0 ? 'hoje' : `hoje ${v.dias > 0 ? '+' : '−'} ${plural(Math.abs(v.dias), 'dia', 'dias')}`;
    return v.meses === 0 ? 'mês atual' : `mês atual ${v.meses > 0 ? '+' : '−'} ${Math.abs(v.meses)}`;
  }
  return String(v);
}

/** The report's filters in words: the service's, then "Filtros na planilha". Options (Incluir itens…) choose what comes, not which records: not filters. */
export function describeFilters(report: Report): string {
  const op = listing(report.listing);
  const service = Object.entries(report.filters)
    .map(([name, value]) => ({ def: op.filters.find((f) => f.name === name), name, value }))
    .filter(({ def }) => !def?.option)
    .map(({ def, name, value }) => `${def?.label ?? name}: ${describeValue(value)}`);
  const sheet = (report.sheetFilters ?? []).map((f) => describeSheetFilter(f, tableSpec(op).columns));
  const all = [...service, ...sheet];
  return all.length ? all.join('; ') : 'nenhum';
}
