/**
 * Pulling a listing into a sheet as a resumable job. Each step fetches page
 * waves until its deadline, writes what arrived in whole blocks and returns a
 * small state that the next execution continues from: a 6-minute kill loses at
 * most the waves since the last write, and those are fetched again and written
 * to the same rows.
 *
 * While a job runs the sheet is marked incomplete (first header cell and tab
 * colour); only a finished job clears stale rows and the mark.
 */
import type { BillingClient } from '../api/client';
import type { ApiRecord } from '../api/envelopes';
import type { FilterValues } from '../api/filters';
import { type ListingKey, type ListOperation, listing, listings } from '../api/operations';
import type { PagerState } from '../api/paging';
import type { Zone } from '../api/calendar';
import { type BookPort, CELL_LIMIT, type SheetPort } from './sheet-port';
import { matches, type SheetCondition } from './sheet-filters';
import {
  CellConverter,
  type CellValue,
  type ChildTable,
  childRows,
  type Column,
  discoverColumns,
  fittedWidths,
  NUMBER_FORMATS,
  recordRow,
  tableSpec,
} from './table';

export interface ImportSpec {
  listing: ListingKey;
  /** Absolute filter values (relative ones already resolved). */
  filters: FilterValues;
  sheetName: string;
  /** 'merge' updates rows by id (incremental refresh); 'replace' rewrites the sheet. */
  mode: 'replace' | 'merge';
  /** "Filtros na planilha", resolved for this run: records that fail them are not written. */
  sheetFilters?: SheetCondition[];
}

export type ImportStatus = 'running' | 'done' | 'cancelled' | 'failed';

export interface ImportState {
  spec: ImportSpec;
  sheetId: number;
  pager: PagerState | null;
  rows: number;
  /** Rows touched in merge mode (updated or added). */
  merged: number;
  children: Record<string, ChildEntry>;
  pages: number;
  warnings: string[];
  startedAt: number;
  updatedAt: number;
  status: ImportStatus;
  message?: string;
  /** A failure that continuing can get past (network, 5xx, 429): the form offers "Continuar" only then. */
  retryable?: boolean;
  /** Rows the service said the listing holds, once its first page told. */
  totalRows?: number;
  /** This run created the target sheet: a first run that fails can take it away again. */
  createdSheet?: boolean;
  steps: number;
}

export interface ChildEntry {
  sheetId: number;
  rows: number;
  /** An open child's columns as discovered so far (the spec does not give its shape). */
  columns?: Column[];
}

export interface ImportDeps {
  client: BillingClient;
  book: BookPort;
  zone: Zone;
  now: () => number;
  /** Rows buffered before a write: bounds Spreadsheet calls per rows written. */
  flushRows?: number;
  /** Persists the state after each write, so a killed execution resumes after what it wrote. */
  checkpoint?: (state: ImportState) => void;
  /** Asked between waves: a cancel requested while a step runs stops it there, not at the step's end. */
  cancelRequested?: () => boolean;
}

/** Failures that a later attempt can get past; the others need the user to change something first. */
const RETRYABLE_CODES = new Set(['network', 'server-error', 'rate-limited', 'unexpected-response']);

export function isRetryable(err: unknown): boolean {
  return RETRYABLE_CODES.has(String((err as { code?: unknown } | null)?.code ?? ''));
}

export class ImportError extends Error {
  override name = 'ImportError';
}

export const PARTIAL_MARK = '⚠ INCOMPLETO · ';
const PARTIAL_COLOR = '#f9ab00';
const DEFAULT_FLUSH_ROWS = 5000;

/** Google's limit on a sheet's name. */
export const SHEET_NAME_MAX = 100;

/** Why Google would refuse `name` for a sheet, in words for the form; null when it is fine. */
export function sheetNameProblem(name: string): string | null {
  if (name.length > SHEET_NAME_MAX || /[[\]*?:/\\]/.test(name)) return `Use um nome de aba com até ${SHEET_NAME_MAX} caracteres, sem [ ] * ? : / \\`;
  return null;
}

/** A child sheet beside `sheetName`, cut to the limit (a long parent name may lose the label's end). */
export function childSheetName(sheetName: string, child: ChildTable): string {
  return `${sheetName} · ${child.label}`.slice(0, SHEET_NAME_MAX);
}

function headerRow(columns: readonly Column[], partial: boolean): string[] {
  return columns.map((c, i) => (i === 0 && partial ? `${PARTIAL_MARK}${c.label}` : c.label));
}

function prepareSheet(sheet: SheetPort, columns: readonly Column[], partial: boolean): void {
  sheet.ensureSize(2, columns.length);
  sheet.setFormats(
    1,
    1,
    1,
    columns.map(() => '@'),
  );
  sheet.write(1, 1, [headerRow(columns, partial)]);
  // The field names stay machine-readable in the header notes.
  sheet.setNotes(
    1,
    1,
    columns.map((c) => c.key),
  );
  sheet.freezeRows(1);
  sheet.setHeaderStyle(columns.length);
  sheet.setTabColor(partial ? PARTIAL_COLOR : null);
}

/** Every field name any listing writes in its header notes. */
function knownKeys(): Set<string> {
  const keys = new Set<string>();
  for (const op of Object.values(listings) as ListOperation[]) {
    const spec = tableSpec(op);
    for (const c of spec.columns) keys.add(c.key);
    for (const child of spec.children) for (const c of child.columns) keys.add(c.key);
  }
  return keys;
}

/**
 * When a report switches to a listing with fewer columns, our old columns to
 * the right would pass for the user's own. They are recognised by their header
 * note (a field name) and cleared; anything else there is the user's and stays.
 */
function clearOurOldColumns(sheet: SheetPort, columns: number): void {
  const last = sheet.lastColumn();
  if (last <= columns) return;
  const notes = sheet.readNotes(1, columns + 1, last - columns);
  const keys = knownKeys();
  const rows = Math.max(sheet.lastRow(), 1);
  notes.forEach((note, i) => {
    if (!keys.has(note)) return;
    sheet.clear(1, columns + 1 + i, rows, 1);
    sheet.setNotes(1, columns + 1 + i, ['']);
  });
}

function markDone(sheet: SheetPort, columns: readonly Column[]): void {
  sheet.write(1, 1, [headerRow(columns, false)]);
  sheet.setTabColor(null);
}

function sheetFor(book: BookPort, name: string): SheetPort {
  return book.byName(name) ?? book.create(name);
}

export function startImport(spec: ImportSpec, deps: ImportDeps): ImportState {
  const op = listing(spec.listing);
  const table = tableSpec(op);
  const name = spec.sheetName.trim();
  if (!name) throw new ImportError('Informe o nome da aba de destino.');
  const problem = sheetNameProblem(name);
  if (problem) throw new ImportError(problem);
  const createdSheet = !deps.book.byName(name);
  const sheet = sheetFor(deps.book, name);
  if (spec.mode === 'replace') clearOurOldColumns(sheet, table.columns.length);
  prepareSheet(sheet, table.columns, true);
  const now = deps.now();
  return {
    spec: { ...spec, sheetName: name },
    sheetId: sheet.id,
    pager: null,
    rows: 0,
    merged: 0,
    children: {},
    pages: 0,
    warnings: [],
    startedAt: now,
    updatedAt: now,
    status: 'running',
    createdSheet,
    steps: 0,
  };
}

function formats(columns: readonly Column[]): string[] {
  return columns.map((c) => NUMBER_FORMATS[c.cell]);
}

/** Growing a sheet adds whole rows of its grid, so the projection uses the grid's width. */
function checkCells(deps: ImportDeps, sheet: SheetPort, rowsAfter: number, columns: number): void {
  const wanted = Math.max(sheet.cells(), (rowsAfter + 1) * Math.max(columns, sheet.maxColumns()));
  const projected = deps.book.totalCells() - sheet.cells() + wanted;
  if (projected > CELL_LIMIT) {
    throw new ImportError(`Esta importação levaria a planilha a ${projected.toLocaleString('pt-BR')} células. ${CELL_LIMIT_TEXT}`);
  }
}

const CELL_LIMIT_TEXT =
  'O Google Planilhas aceita no máximo 10 milhões de células por planilha. Use filtros (por exemplo, uma competência ou um período), apague abas que não usa ou importe em outra planilha.';

class Writer {
  private readonly conv: CellConverter;
  private readonly table;
  private readonly sheet: SheetPort;

  constructor(
    private readonly state: ImportState,
    private readonly deps: ImportDeps,
  ) {
    this.conv = new CellConverter(deps.zone);
    this.table = tableSpec(listing(state.spec.listing));
    const sheet = deps.book.byId(state.sheetId);
    if (!sheet) throw new ImportError(`A aba "${state.spec.sheetName}" foi apagada durante a importação. Rode o relatório de novo.`);
    this.sheet = sheet;
  }

  private child(child: ChildTable): { sheet: SheetPort; entry: ChildEntry } {
    let entry = this.state.children[child.field];
    let sheet = entry ? this.deps.book.byId(entry.sheetId) : null;
    if (!sheet) {
      const existing = this.deps.book.byName(childSheetName(this.state.spec.sheetName, child));
      sheet = existing ?? this.deps.book.create(childSheetName(this.state.spec.sheetName, child));
      // A refresh keeps the columns an earlier run laid out, in their order (the header notes hold the keys).
      const columns = child.open ? (entry?.columns ?? (existing ? columnsFromHeader(existing, child) : child.columns)) : undefined;
      entry = { sheetId: sheet.id, rows: entry?.rows ?? 0, ...(columns ? { columns } : {}) };
      prepareSheet(sheet, columns ?? child.columns, true);
      this.state.children[child.field] = entry;
    }
    return { sheet, entry };
  }

  /** The columns a child is written with; an open child's grow with the keys `records` bring, added at the end. */
  private childColumns(child: ChildTable, records: readonly ApiRecord[]): { sheet: SheetPort; entry: ChildEntry; columns: Column[] } {
    const { sheet, entry } = this.child(child);
    if (!child.open) return { sheet, entry, columns: child.columns };
    const before = entry.columns ?? child.columns;
    const { columns, dropped } = discoverColumns(child, records, before);
    if (dropped > 0) {
      const w = `${child.label}: só as primeiras ${columns.length} colunas foram importadas.`;
      if (!this.state.warnings.includes(w)) this.state.warnings.push(w);
    }
    if (columns.length !== before.length || columns.some((c, i) => c.cell !== before[i].cell)) {
      entry.columns = columns;
      prepareSheet(sheet, columns, true);
    }
    return { sheet, entry, columns };
  }

  private columnsOf(child: ChildTable): Column[] {
    return (child.open && this.state.children[child.field]?.columns) || child.columns;
  }

  /** Refuses up front when the service announced more rows than the spreadsheet can take. */
  expect(totalRows: number): void {
    if (this.state.spec.mode === 'replace') checkCells(this.deps, this.sheet, totalRows, this.table.columns.length);
  }

  write(downloaded: ApiRecord[]): void {
    const conditions = this.state.spec.sheetFilters ?? [];
    const records = conditions.length ? downloaded.filter((r) => matches(conditions, r)) : downloaded;
    if (this.state.spec.mode === 'merge') {
      // A record changed so that it no longer passes leaves the sheet.
      const gone = conditions.length ? downloaded.filter((r) => !records.includes(r)) : [];
      if (records.length || gone.length) this.merge(records, gone);
    } else if (records.length) this.append(records);
  }

  private append(records: ApiRecord[]): void {
    const { columns } = this.table;
    const rows = records.map((r) => recordRow(columns, r, this.conv));
    const start = this.state.rows + 2;
    checkCells(this.deps, this.sheet, this.state.rows + rows.length, columns.length);
    this.sheet.ensureSize(start + rows.length - 1, columns.length);
    this.sheet.setFormats(start, 1, rows.length, formats(columns));
    this.sheet.write(start, 1, rows);
    // A sheet this run made gets widths that fit its first rows; a sheet the user already had keeps theirs.
    if (this.state.createdSheet && this.state.rows === 0) this.sheet.setColumnWidths?.(fittedWidths(columns, rows));
    this.state.rows += rows.length;
    for (const child of this.table.children) {
      if (childRows(child, records, this.conv, child.columns.slice(0, 1)).length === 0) continue;
      const { sheet, entry, columns: childColumns } = this.childColumns(child, records);
      const childData = childRows(child, records, this.conv, childColumns);
      const at = entry.rows + 2;
      if (this.state.createdSheet && entry.rows === 0) sheet.setColumnWidths?.(fittedWidths(childColumns, childData));
      sheet.ensureSize(at + childData.length - 1, childColumns.length);
      sheet.setFormats(at, 1, childData.length, formats(childColumns));
      sheet.write(at, 1, childData);
      entry.rows += childData.length;
    }
  }

  /** Reads the sheet once, replaces rows by id, appends the new ones, writes once. */
  private merge(records: ApiRecord[], gone: ApiRecord[] = []): void {
    const { columns, idField } = this.table;
    const idCol = columns.findIndex((c) => c.key === idField);
    const goneIds = new Set(gone.map((r) => String(recordRow([columns[idCol]], r, this.conv)[0])));
    const read = readBlock(this.sheet, columns.length);
    const existing = goneIds.size ? read.filter((row) => !goneIds.has(String(row[idCol]))) : read;
    const index = new Map<string, number>();
    existing.forEach((row, i) => index.set(String(row[idCol]), i));
    const touched = new Set<string>(goneIds);
    for (const record of records) {
      const row = recordRow(columns, record, this.conv);
      const id = String(row[idCol]);
      touched.add(id);
      const at = index.get(id);
      if (at === undefined) {
        index.set(id, existing.length);
        existing.push(row);
      } else existing[at] = row;
    }
    checkCells(this.deps, this.sheet, existing.length, columns.length);
    if (existing.length > 0) {
      this.sheet.ensureSize(existing.length + 1, columns.length);
      this.sheet.setFormats(2, 1, existing.length, formats(columns));
      this.sheet.write(2, 1, existing);
    }
    if (read.length > existing.length) this.sheet.clear(existing.length + 2, 1, read.length - existing.length, columns.length);
    this.state.rows = existing.length;
    this.state.merged += records.length;
    for (const child of this.table.children) {
      const sheet = this.deps.book.byName(childSheetName(this.state.spec.sheetName, child));
      if (!sheet && childRows(child, records, this.conv, child.columns.slice(0, 1)).length === 0) continue;
      const oldWidth = sheet ? this.columnsOf(child).length : 0;
      const { sheet: target, entry, columns: childColumns } = this.childColumns(child, records);
      const fresh = childRows(child, records, this.conv, childColumns);
      const old = sheet ? readBlock(target, childColumns.length) : [];
      // Rows an earlier run wrote before a column was added get empty cells there.
      for (const row of old) while (row.length < childColumns.length) row.push('');
      const kept = old.filter((r) => !touched.has(String(r[0])));
      const all = kept.concat(fresh);
      if (all.length > 0) {
        target.ensureSize(all.length + 1, childColumns.length);
        target.setFormats(2, 1, all.length, formats(childColumns));
        target.write(2, 1, all);
      }
      if (old.length > all.length) target.clear(all.length + 2, 1, old.length - all.length, Math.max(oldWidth, childColumns.length));
      entry.rows = all.length;
    }
  }

  /** Clears what a previous, longer run left below, and lifts the incomplete mark. */
  finish(): void {
    const { columns } = this.table;
    if (this.state.spec.mode === 'replace') {
      clearBelow(this.sheet, this.state.rows, columns.length);
      for (const child of this.table.children) {
        const entry = this.state.children[child.field];
        const sheet = entry ? this.deps.book.byId(entry.sheetId) : this.deps.book.byName(childSheetName(this.state.spec.sheetName, child));
        if (!sheet) continue;
        const columns = entry?.columns ?? (child.open ? columnsFromHeader(sheet, child) : child.columns);
        clearBelow(sheet, entry?.rows ?? 0, columns.length);
        markDone(sheet, columns);
      }
    } else {
      for (const entry of Object.values(this.state.children)) {
        const child = this.table.children.find((c) => this.state.children[c.field] === entry);
        const sheet = this.deps.book.byId(entry.sheetId);
        if (sheet && child) markDone(sheet, this.columnsOf(child));
      }
    }
    markDone(this.sheet, columns);
  }
}

/**
 * An open child's columns as an earlier run left them: the keys in the header
 * notes, up to the first column that is not ours (the user's own, to the right).
 * Their kinds come back with the first value (`typed: false`).
 */
function columnsFromHeader(sheet: SheetPort, child: ChildTable): Column[] {
  const width = sheet.lastColumn();
  if (width < 2) return child.columns;
  const notes = sheet.readNotes(1, 1, width);
  if (notes[0] !== child.columns[0].key) return child.columns;
  const labels = sheet.read(1, 1, 1, width)[0] ?? [];
  const columns: Column[] = [child.columns[0]];
  for (let i = 1; i < width; i++) {
    const key = notes[i];
    if (!key || !/^[$\w][\w.]*$/.test(key)) break;
    const label = String(labels[i] ?? key).replace(PARTIAL_MARK, '');
    columns.push({ key, label: label || key, cell: 'text', typed: false });
  }
  return columns;
}

function readBlock(sheet: SheetPort, columns: number): CellValue[][] {
  const last = sheet.lastRow();
  if (last < 2) return [];
  return sheet.read(2, 1, last - 1, columns).filter((row) => row.some((v) => v !== ''));
}

function clearBelow(sheet: SheetPort, rows: number, columns: number): void {
  const last = sheet.lastRow();
  if (last > rows + 1) sheet.clear(rows + 2, 1, last - rows - 1, columns);
}

export interface StepOptions {
  /** Epoch ms by which the step must have written everything and returned. */
  deadline: number;
  base?: 0 | 1;
}

/**
 * Runs waves until the listing ends or the deadline nears. Returns the new
 * state; the caller persists it. Errors leave the state `failed` with a
 * Portuguese message and the sheet still marked incomplete.
 */
export function stepImport(state: ImportState, deps: ImportDeps, options: StepOptions): ImportState {
  if (state.status !== 'running') return state;
  const next: ImportState = { ...state, children: { ...state.children }, warnings: [...state.warnings], steps: state.steps + 1 };
  for (const [k, v] of Object.entries(next.children)) next.children[k] = { ...v };
  const flushRows = deps.flushRows ?? DEFAULT_FLUSH_ROWS;
  // The pager position of the last rows actually written: where a later step resumes.
  let committed = next.pager;
  try {
    const writer = new Writer(next, deps);
    const pager = deps.client.pager(next.spec.listing, next.spec.filters, { state: next.pager ?? undefined, base: options.base });
    let buffer: ApiRecord[] = [];
    let slowestWave = 0;
    let checkedTotal = next.pager !== null;
    const flush = () => {
      if (buffer.length === 0) return;
      writer.write(buffer);
      buffer = [];
      committed = pager.state;
      next.pager = committed;
      next.updatedAt = deps.now();
      deps.checkpoint?.(next);
    };
    while (!pager.done) {
      const began = deps.now();
      // Leave room for one more wave and the final write.
      if (began + slowestWave * 2 > options.deadline) break;
      for (const page of pager.nextWave()) {
        next.pages += 1;
        for (const r of page.records) buffer.push(r);
      }
      slowestWave = Math.max(slowestWave, deps.now() - began);
      if (!checkedTotal && pager.state.totalRows !== undefined) {
        writer.expect(pager.state.totalRows);
        checkedTotal = true;
      }
      if (pager.state.totalRows !== undefined) next.totalRows = pager.state.totalRows;
      if (buffer.length >= flushRows) flush();
      if (!pager.done && deps.cancelRequested?.()) {
        flush();
        return { ...cancelImport(next), updatedAt: deps.now() };
      }
    }
    flush();
    next.pager = committed;
    for (const w of pager.warnings) if (!next.warnings.includes(w)) next.warnings.push(w);
    if (pager.done) {
      writer.finish();
      next.status = 'done';
    }
  } catch (err) {
    next.pager = committed;
    next.status = 'failed';
    next.retryable = isRetryable(err);
    next.message = /10000000 cells|10,000,000|10 million/i.test((err as Error).message) ? CELL_LIMIT_TEXT : (err as Error).message;
  }
  next.updatedAt = deps.now();
  return next;
}

/** A failed job continues from its last written page. */
export function retryImport(state: ImportState): ImportState {
  return state.status === 'failed' ? { ...state, status: 'running', message: undefined, retryable: undefined } : state;
}

export function cancelImport(state: ImportState): ImportState {
  if (state.status !== 'running') return state;
  const rows = importedRows(state).toLocaleString('pt-BR');
  return { ...state, status: 'cancelled', message: `Importação cancelada com ${rows} linhas gravadas: a aba ficou marcada como incompleta.` };
}

/** Rows the sheet holds after the job (replace) or rows updated/added (merge). */
export function importedRows(state: ImportState): number {
  return state.spec.mode === 'merge' ? state.merged : state.rows;
}
