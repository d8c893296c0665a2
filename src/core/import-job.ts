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
import { brDateTime, isDate, type Zone } from '../api/calendar';
import { NetworkError, RateLimitedError } from '../api/errors';
import { bounded } from './bounds';
import { CHILD_TAG, childTagValue, dropOrphans, findChildSheet, type Lead, placeChildRows } from './child-sheet';
import { CALL_MS, CELL_READ_MS, fits, StepBudget, writeCostMs } from './deadline';
import { columnRuns, findColumns, headerNote, LISTING_TAG, noteKey, resolveLayout, SHEET_TAG } from './sheet-layout';
import { type BookPort, CELL_LIMIT, type SheetPort } from './sheet-port';
import { childSheetName, PARTIAL_MARK, SHEET_NAME_MAX, sheetNameProblem } from './sheet-names';
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
import { UserError } from '../api/user-error';
import type { RunStatus } from './run-state';

export interface ImportSpec {
  listing: ListingKey;
  /** Absolute filter values (relative ones already resolved). */
  filters: FilterValues;
  sheetName: string;
  /** The report's sheet, found by id whatever the user renamed it to; its name is only for creating it. */
  sheetId?: number;
  /** The report the sheet belongs to (sheet metadata), so no other report writes it. */
  reportId?: string;
  /**
   * Both modes write each record on the row where its id is now, so the user's
   * cells beside it stay with it. 'merge' (incremental refresh) writes only the
   * records received; 'replace' (a full pull) then deals with rows whose
   * record did not come (see `sweep`).
   */
  mode: 'replace' | 'merge';
  /** "Filtros na planilha", resolved for this run: records that fail them are not written. */
  sheetFilters?: SheetCondition[];
  /** "Incluir dados de cartão": without it, card columns are not written (and an earlier run's are cleared). */
  cardData?: boolean;
  /** A consolidated pull: the same listing from each of these companies into one sheet (see consolidated-job.ts). */
  companies?: CompanySpec[];
}

/** One company of a consolidated pull: the owner's connection, by id; its name is what the Empresa column shows. */
export interface CompanySpec {
  id: string;
  name: string;
  /** This company's filters (its own update stamp in an incremental run). */
  filters: FilterValues;
  /** 'merge' when this company's rows are refreshed incrementally, 'replace' when fully. */
  mode: 'replace' | 'merge';
}

/** Where one company of a consolidated pull stands: the job keeps one per company, so each resumes on its own. */
export interface CompanyState {
  id: string;
  pager: PagerState | null;
  status: 'running' | 'done' | 'failed';
  /** Rows written for this company in this run. */
  rows: number;
  pages: number;
  message?: string;
  retryable?: boolean;
  totalRows?: number;
  transientFailures?: number;
}

export type ImportStatus = RunStatus;

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
  /** Epoch ms before which the service asked not to be called again (a Retry-After longer than a step had left). */
  notBefore?: number;
  /** Steps in a row that ended on a service that did not answer, without a page written. */
  transientFailures?: number;
  /** A consolidated pull's companies, in the spec's order. */
  companies?: CompanyState[];
  /** A consolidated pull that ended with some companies failed: what failed, in words. The sheet stays marked. */
  partial?: string;
  /** Parts of the final settling already done (see Writer.finish): a settling longer than a step goes on from here. */
  settled?: string[];
}

export interface ChildEntry {
  sheetId: number;
  rows: number;
  /** An open child's columns as discovered so far (the spec does not give its shape). */
  columns?: Column[];
}

export interface ImportDeps {
  client: BillingClient;
  /** A consolidated pull's client for each company's connection. */
  clientFor?: (connectionId: string) => BillingClient;
  book: BookPort;
  zone: Zone;
  now: () => number;
  /** Rows buffered before a write: bounds Spreadsheet calls per rows written. */
  flushRows?: number;
  /** Persists the state after each write, so a killed execution resumes after what it wrote. */
  checkpoint?: (state: ImportState) => void;
  /** Asked between waves: a cancel requested while a step runs stops it there, not at the step's end. */
  cancelRequested?: () => boolean;
  /** Told about the records each block wrote into the sheet (after "Filtros na planilha"). */
  pulled?: (sheetId: number, records: readonly ApiRecord[]) => void;
}

/** Failures that a later attempt can get past; the others need the user to change something first. */
const RETRYABLE_CODES = new Set(['network', 'server-error', 'rate-limited', 'unexpected-response']);

export function isRetryable(err: unknown): boolean {
  // Stryker disable next-line StringLiteral: any fallback text that is not one of the codes above reads as not retryable, as '' does
  return RETRYABLE_CODES.has(String((err as { code?: unknown } | null)?.code ?? ''));
}

export class ImportError extends UserError {
  override name = 'ImportError';
}

const PARTIAL_COLOR = '#f9ab00';
export const DEFAULT_FLUSH_ROWS = 5000;
/** Cut fields named one by one in the warnings; past these, only counted (warnings live in a property). */
const MAX_NAMED_CUTS = 5;
const MORE_CUTS = 'Além desses, ';

function headerRow(columns: readonly Column[], partial: boolean): string[] {
  return columns.map((c, i) => (i === 0 && partial ? `${PARTIAL_MARK}${c.label}` : c.label));
}

/** When each row was last received: how a full refresh tells the records that left the listing. */
export const RECEIVED_COLUMN: Column = { key: '$recebidoEm', label: 'Recebido em', cell: 'datetime' };

/** A consolidated sheet's first column: the company (the connection's name at run time). Dashboards look for its tag `empresa`. */
export const COMPANY_COLUMN: Column = { key: 'empresa', label: 'Empresa', cell: 'text' };
/** Beside it, the connection's id: what a consolidated sheet's rows are keyed by, with the record's id (never the name). */
export const CONNECTION_COLUMN: Column = { key: '$conexao', label: 'ID da conexão', cell: 'text' };
const LEAD_COLUMNS = [COMPANY_COLUMN, CONNECTION_COLUMN];

/** The columns before a record's own: Empresa and the connection's id in a consolidated sheet. */
export function leadOf(consolidated: boolean): Lead {
  return consolidated ? 2 : 0;
}

/** What shapes a report sheet's columns besides its listing. */
export interface ColumnChoice {
  /** A consolidated sheet starts with Empresa and the connection's id. */
  consolidated?: boolean;
  /** "Incluir dados de cartão": card columns only when asked for. */
  cardData?: boolean;
}

/** The report sheet's columns: Empresa and the connection when consolidated, the listing's (card data only when asked for), then when the row was received. */
export function reportColumns(listingKey: ListingKey, choice: ColumnChoice = {}): Column[] {
  const own = tableSpec(listing(listingKey)).columns.filter((c) => choice.cardData || !c.onRequest);
  return [...(choice.consolidated ? LEAD_COLUMNS : []), ...own, RECEIVED_COLUMN];
}

const consecutive = (n: number): number[] => Array.from({ length: n }, (_, i) => i + 1);

/** Writes per run of adjacent columns of ours: the user's columns between them are never touched. */
function eachRun(positions: readonly number[], fn: (column: number, indexes: number[]) => void): void {
  for (const run of columnRuns(positions)) fn(run.column, run.indexes);
}

function writeHeader(sheet: SheetPort, columns: readonly Column[], partial: boolean, positions: readonly number[]): void {
  const header = headerRow(columns, partial);
  eachRun(positions, (column, indexes) => sheet.write(1, column, [indexes.map((i) => header[i])]));
}

function prepareSheet(sheet: SheetPort, columns: readonly Column[], partial: boolean, positions: readonly number[] = consecutive(columns.length)): void {
  sheet.ensureSize(2, Math.max(...positions));
  eachRun(positions, (column, indexes) => {
    sheet.setFormats(
      1,
      column,
      1,
      indexes.map(() => '@'),
    );
    // The field names stay machine-readable in the header notes, with what their codes mean below.
    sheet.setNotes(
      1,
      column,
      indexes.map((i) => headerNote(columns[i])),
    );
  });
  writeHeader(sheet, columns, partial, positions);
  sheet.freezeRows(1);
  if (positions.every((p, i) => p === i + 1)) sheet.setHeaderStyle(columns.length);
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
  keys.add(RECEIVED_COLUMN.key);
  for (const c of LEAD_COLUMNS) keys.add(c.key);
  return keys;
}

function markDone(sheet: SheetPort, columns: readonly Column[], positions?: readonly number[]): void {
  writeHeader(sheet, columns, false, positions ?? consecutive(columns.length));
  sheet.setTabColor(null);
}

function sheetFor(book: BookPort, name: string): SheetPort {
  return book.byName(name) ?? book.create(name);
}

function freeName(book: BookPort, base: string): string {
  const taken = new Set(book.sheetNames().map((n) => n.toLowerCase()));
  if (!taken.has(base.toLowerCase())) return base;
  for (let i = 2; ; i++) {
    const name = `${base.slice(0, SHEET_NAME_MAX - 5)} (${i})`;
    if (!taken.has(name.toLowerCase())) return name;
  }
}

/** The report's sheet by id; by name only for a report that never ran; recreated (and said so) when the user deleted it. */
function reportSheet(book: BookPort, spec: ImportSpec): { sheet: SheetPort; recreated: boolean } {
  if (spec.sheetId !== undefined) {
    const byId = book.byId(spec.sheetId);
    if (byId) return { sheet: byId, recreated: false };
    return { sheet: book.create(freeName(book, spec.sheetName)), recreated: true };
  }
  return { sheet: sheetFor(book, spec.sheetName), recreated: false };
}

/**
 * Whether an incremental refresh can merge: the sheet is there and every column
 * of ours is where its metadata says (card columns the report no longer wants
 * are cleared by `startImport` in either mode).
 */
export function canMerge(book: BookPort, listingKey: ListingKey, sheetId: number | undefined, choice: ColumnChoice = {}): boolean {
  const sheet = sheetId === undefined ? null : book.byId(sheetId);
  if (!sheet || sheet.sheetTag(LISTING_TAG) !== listingKey) return false;
  return findColumns(sheet, reportColumns(listingKey, choice)).every((p) => p !== null);
}

export function startImport(spec: ImportSpec, deps: ImportDeps): ImportState {
  const op = listing(spec.listing);
  const table = tableSpec(op);
  const name = spec.sheetName.trim();
  if (!name) throw new ImportError('Informe o nome da aba de destino.');
  const problem = sheetNameProblem(name);
  if (problem) throw new ImportError(problem);
  // A sheet this run makes gets widths fitted to its first rows; one the user already had keeps theirs.
  const createdSheet = spec.sheetId === undefined ? !deps.book.byName(name) : !deps.book.byId(spec.sheetId);
  const { sheet, recreated } = reportSheet(deps.book, { ...spec, sheetName: name });
  const columns = reportColumns(spec.listing, { consolidated: Boolean(spec.companies), cardData: spec.cardData });
  const previous = sheet.sheetTag(LISTING_TAG);
  const layout = resolveLayout(sheet, columns, knownKeys(), table.idField, previous === null ? null : previous === spec.listing);
  prepareSheet(sheet, columns, true, layout.positions);
  sheet.setSheetTag(LISTING_TAG, spec.listing);
  if (spec.reportId) sheet.setSheetTag(SHEET_TAG, `relatorio:${spec.reportId}`);
  const warnings: string[] = [];
  if (recreated) warnings.push(`A aba do relatório tinha sido apagada e foi criada de novo ("${sheet.name()}").`);
  if (layout.rebuilt.length) warnings.push(`Colunas do complemento que tinham sido apagadas foram refeitas: ${layout.rebuilt.join(', ')}.`);
  const now = deps.now();
  return {
    spec: { ...spec, sheetName: sheet.name(), sheetId: sheet.id },
    sheetId: sheet.id,
    pager: null,
    rows: 0,
    merged: 0,
    children: {},
    pages: 0,
    warnings,
    startedAt: now,
    updatedAt: now,
    status: 'running',
    createdSheet,
    steps: 0,
    ...(spec.companies ? { companies: spec.companies.map((c): CompanyState => ({ id: c.id, pager: null, status: 'running', rows: 0, pages: 0 })) } : {}),
  };
}

function formats(columns: readonly Column[]): string[] {
  return columns.map((c) => NUMBER_FORMATS[c.cell]);
}

/** A sheet that grows to `rows` rows of data (below its header) with `columns` of ours; `sheet` null: one still to be made. */
interface Growth {
  sheet: SheetPort | null;
  rows: number;
  columns: number;
}

/** Empty columns a new child sheet keeps beside its own, for the user's notes on the items. */
const CHILD_SPARE_COLUMNS = 4;
/** What Sheets gives a new sheet (insertSheet): 1,000 rows of 26 columns. */
const NEW_SHEET_ROWS = 1_000;
const NEW_SHEET_COLUMNS = 26;

/**
 * Refuses before anything is written when the sheets of a write (the report's
 * and its child sheets) would take the whole spreadsheet past its cells.
 * Growing a sheet adds whole rows of its grid, so each projection uses the grid's width.
 */
function checkCells(deps: ImportDeps, growths: readonly Growth[]): void {
  let projected = deps.book.totalCells();
  for (const g of growths) {
    if (!g.sheet) {
      // Made with a new sheet's whole grid, then cut to its columns (BookPort.create), then grown.
      projected += Math.max(Math.max(g.rows + 1, NEW_SHEET_ROWS) * g.columns, NEW_SHEET_ROWS * NEW_SHEET_COLUMNS);
      continue;
    }
    const now = g.sheet.cells();
    projected += Math.max(now, (g.rows + 1) * Math.max(g.columns, g.sheet.maxColumns())) - now;
  }
  if (projected > CELL_LIMIT) {
    const children = growths.length > 1 ? ' (com as abas de itens)' : '';
    throw new ImportError(`Esta importação${children} levaria a planilha a ${projected.toLocaleString('pt-BR')} células. ${CELL_LIMIT_TEXT}`);
  }
}

export const CELL_LIMIT_TEXT =
  'O Google Planilhas aceita no máximo 10 milhões de células por planilha. Use filtros (por exemplo, uma competência ou um período), apague abas que não usa ou importe em outra planilha.';

/** A run's failure in words: Google's refusal at the cell limit becomes the add-on's own message, whoever's run it was. */
export function failureMessage(err: unknown): string {
  const raw = (err as Error)?.message ?? String(err);
  return /10000000 cells|10,000,000|10 million/i.test(raw) ? CELL_LIMIT_TEXT : bounded(raw, 2000);
}

/** Rows written as one block when the records between them span at most this many cells: the cells written stay close to the cells changed. */
const GAP_CELLS = 30;

/** A child sheet ready for a batch's rows. */
interface PreparedChild {
  sheet: SheetPort;
  entry: ChildEntry;
  columns: Column[];
  fresh: CellValue[][];
}

/** Writes a pull's records into its sheet (and child sheets), each on the row of its key. */
export class Writer {
  private readonly conv: CellConverter;
  private readonly table;
  private readonly columns: Column[];
  private readonly sheet: SheetPort;
  private positions: number[];
  /** Columns before the record's own (Empresa, connection id) in a consolidated sheet. */
  private readonly lead: Lead;
  /** The company whose records are being written (consolidated pulls write one company at a time). */
  private company: CompanySpec | null = null;
  /** Record id → row, read once per step from the id column; rows appended this step are added. */
  private index: Map<string, number> | null = null;
  private nextRow = 0;

  constructor(
    private readonly state: ImportState,
    private readonly deps: ImportDeps,
  ) {
    this.conv = new CellConverter(deps.zone);
    this.table = tableSpec(listing(state.spec.listing));
    this.lead = leadOf(Boolean(state.spec.companies));
    this.columns = reportColumns(state.spec.listing, { consolidated: this.lead > 0, cardData: state.spec.cardData });
    const sheet = deps.book.byId(state.sheetId);
    if (!sheet) throw new ImportError(`A aba "${state.spec.sheetName}" foi apagada durante a importação. Rode o relatório de novo.`);
    this.sheet = sheet;
    const found = findColumns(sheet, this.columns);
    if (found.every((p) => p !== null)) this.positions = found as number[];
    else {
      // A column of ours deleted between two steps: rebuilt beside its neighbours, and said.
      const layout = resolveLayout(sheet, this.columns, knownKeys(), this.table.idField, true);
      prepareSheet(sheet, this.columns, true, layout.positions);
      this.positions = layout.positions;
      const note = `Colunas do complemento que tinham sido apagadas foram refeitas: ${layout.rebuilt.join(', ')}.`;
      if (layout.rebuilt.length && !state.warnings.includes(note)) state.warnings.push(note);
    }
  }

  /** The record's columns this report writes (card data only when asked), without the lead columns or "Recebido em". */
  private get fields(): Column[] {
    return this.columns.slice(this.lead, -1);
  }

  private get idIndex(): number {
    return this.columns.findIndex((c) => c.key === this.table.idField);
  }

  /** A row's key: the record's id, or connection id + record id in a consolidated sheet ('' for a row without an id). */
  private keyOf(connection: unknown, id: unknown): string {
    if (id === '' || id === null || id === undefined) return '';
    return this.lead ? `${String(connection)}|${String(id)}` : String(id);
  }

  /** The keys of data rows 2..last, read from the id column (and the connection's, when consolidated). */
  private rowKeys(last: number): string[] {
    const ids = this.sheet.read(2, this.positions[this.idIndex], last - 1, 1);
    const connections = this.lead ? this.sheet.read(2, this.positions[this.lead - 1], last - 1, 1) : null;
    return ids.map(([id], i) => this.keyOf(connections?.[i][0], id));
  }

  private rowIndex(): Map<string, number> {
    if (this.index) return this.index;
    const index = new Map<string, number>();
    const last = this.sheet.lastRow();
    if (last >= 2) {
      this.rowKeys(last).forEach((key, i) => {
        if (key !== '' && !index.has(key)) index.set(key, i + 2);
      });
    }
    this.nextRow = Math.max(last, 1) + 1;
    this.index = index;
    return index;
  }

  /** The child sheet an earlier run of this report wrote, by its metadata; null when there is none. */
  private existingChild(child: ChildTable): SheetPort | null {
    const entry = this.state.children[child.field];
    const byEntry = entry ? this.deps.book.byId(entry.sheetId) : null;
    return byEntry ?? findChildSheet(this.deps.book, this.state.sheetId, child.field, childSheetName(this.state.spec.sheetName, child));
  }

  private child(child: ChildTable): { sheet: SheetPort; entry: ChildEntry } {
    let entry = this.state.children[child.field];
    let sheet = entry ? this.deps.book.byId(entry.sheetId) : null;
    if (!sheet) {
      const existing = this.existingChild(child);
      // A child sheet of known columns gets those and a few for the user's notes (200,000 rows of a 26-column grid
      // would be 5.2 million of the 10 million cells); an open one's columns are found as records come.
      const width = child.open ? undefined : child.columns.length + CHILD_SPARE_COLUMNS;
      sheet = existing ?? this.deps.book.create(freeName(this.deps.book, childSheetName(this.state.spec.sheetName, child)), width);
      if (!existing) sheet.setSheetTag(CHILD_TAG, childTagValue(this.state.sheetId, child.field));
      // A refresh keeps the columns an earlier run laid out, in their order (the header notes hold the keys).
      const columns = child.open ? (entry?.columns ?? (existing ? columnsFromHeader(existing, child, this.lead) : child.columns)) : undefined;
      entry = { sheetId: sheet.id, rows: entry?.rows ?? 0, ...(columns ? { columns } : {}) };
      prepareSheet(sheet, this.withLead(columns ?? child.columns), true);
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
      prepareSheet(sheet, this.withLead(columns), true);
    }
    return { sheet, entry, columns };
  }

  private columnsOf(child: ChildTable): Column[] {
    return (child.open && this.state.children[child.field]?.columns) || child.columns;
  }

  /** A child's columns as the sheet holds them: after Empresa and the connection's id in a consolidated sheet. */
  private withLead(columns: Column[]): Column[] {
    return this.lead ? [...LEAD_COLUMNS, ...columns] : columns;
  }

  /** The lead cells of the company being written (none for one company). */
  private leadCells(): CellValue[] {
    // Only a consolidated sheet's writer is given a company.
    return this.company ? [this.company.name, this.company.id] : [];
  }

  /**
   * Refuses up front when the service announced more rows than the spreadsheet
   * can take: the report's rows, and its child sheets' at the rate the first
   * records bring them.
   */
  expect(totalRows: number, sample: readonly ApiRecord[]): void {
    if (this.state.spec.mode !== 'replace') return;
    const perRecord = (child: ChildTable) => (sample.length ? this.childRowCount(child, sample) / sample.length : 0);
    checkCells(this.deps, [
      { sheet: this.sheet, rows: totalRows, columns: Math.max(...this.positions) },
      ...this.childGrowths((child) => Math.ceil(perRecord(child) * totalRows), true),
    ]);
  }

  private childRowCount(child: ChildTable, records: readonly ApiRecord[]): number {
    return childRows(child, records, this.conv, this.columnsOf(child).slice(0, 1)).length;
  }

  /** Each child sheet grown by `rows(child)` rows: to `rows` itself when `replacing`, else below what it has. */
  private childGrowths(rows: (child: ChildTable) => number, replacing: boolean): Growth[] {
    const out: Growth[] = [];
    for (const child of this.table.children) {
      const added = rows(child);
      if (added === 0) continue;
      const sheet = this.existingChild(child);
      const kept = sheet && !replacing ? Math.max(sheet.lastRow() - 1, 0) : 0;
      const columns = this.lead + this.columnsOf(child).length;
      out.push({ sheet, rows: kept + added, columns: sheet ? columns : child.open ? Math.max(columns, NEW_SHEET_COLUMNS) : columns + CHILD_SPARE_COLUMNS });
    }
    return out;
  }

  /** Before anything of `records` is written: the rows they add here and in the child sheets fit the spreadsheet. */
  private checkWrite(records: readonly ApiRecord[]): void {
    const index = this.rowIndex();
    const fresh = new Set(records.map((r) => this.keyOf(this.company?.id, r[this.table.idField])).filter((id) => !index.has(id)));
    checkCells(this.deps, [
      { sheet: this.sheet, rows: this.nextRow - 2 + fresh.size, columns: Math.max(...this.positions) },
      ...this.childGrowths((child) => this.childRowCount(child, records), false),
    ]);
  }

  write(downloaded: ApiRecord[], company: CompanySpec | null = null): void {
    this.company = company;
    // Filtros na planilha: the add-on's own conditions, applied after the service's filters narrowed the download.
    const conditions = this.state.spec.sheetFilters ?? [];
    const records = conditions.length ? downloaded.filter((r) => matches(conditions, r)) : downloaded;
    if (records.length === 0) return;
    // Every sheet's growth is checked, then child sheets are made, before any row is written: a refusal leaves nothing half-saved.
    this.checkWrite(records);
    const children = this.prepareChildren(records);
    this.place(records);
    // Snapshots of what was pulled (for pushing edits back) are per company-less sheet: record ids are unique there.
    if (!company) this.deps.pulled?.(this.state.sheetId, records);
    if (company) this.state.rows += records.length;
    else if (this.state.spec.mode === 'merge') this.state.merged += records.length;
    else this.state.rows += records.length;
    this.placeChildren(records, children);
    this.noteCuts();
  }

  /** Fields cut to the cell limit become warnings: the first few by record and field, the rest counted. */
  private noteCuts(): void {
    const cuts = this.conv.cuts.splice(0);
    if (cuts.length === 0) return;
    const warnings = this.state.warnings;
    const named = warnings.filter((w) => w.startsWith('O campo "')).length;
    for (const cut of cuts.slice(0, Math.max(0, MAX_NAMED_CUTS - named))) warnings.push(cut);
    const more = named + cuts.length - MAX_NAMED_CUTS;
    if (more <= 0) return;
    const at = warnings.findIndex((w) => w.startsWith(MORE_CUTS));
    // Stryker disable next-line EqualityOperator,OptionalChaining,MethodExpression: `at > 0` is the same (the count line follows five named cuts), the line always holds its number, and MORE_CUTS has no digit
    const previous = at >= 0 ? Number(/\d+/.exec(warnings[at].slice(MORE_CUTS.length))?.[0] ?? 0) : 0;
    // A count line exists only after five named cuts: then `more` is all of this write's cuts.
    const line = `${MORE_CUTS}${previous + more} campos também passaram de 50.000 caracteres e foram cortados.`;
    // Stryker disable next-line EqualityOperator: `at > 0` is the same: the count line is never the first warning
    if (at >= 0) warnings[at] = line;
    else warnings.push(line);
  }

  /** Each record on the row where its id is now; new ids below the last row. Only our columns are written. */
  private place(records: ApiRecord[]): void {
    const index = this.rowIndex();
    const received = new Date(this.state.startedAt);
    const targets = new Map<number, CellValue[]>();
    for (const record of records) {
      const row = [...this.leadCells(), ...recordRow(this.fields, record, this.conv), received];
      const id = this.keyOf(this.company?.id, row[this.idIndex]);
      let at = index.get(id);
      if (at === undefined) {
        at = this.nextRow++;
        index.set(id, at);
      }
      targets.set(at, row);
    }
    // Stryker disable next-line MethodExpression: the first column instead is the same: the sheet was prepared as wide as our last column
    const width = Math.max(...this.positions);
    this.sheet.ensureSize(this.nextRow - 1, width);
    const gap = Math.max(1, Math.floor(GAP_CELLS / this.columns.length));
    for (const [first, last] of blocks([...targets.keys()], gap)) this.writeBlock(first, last, targets);
    // A sheet this run made gets widths that fit its first rows (our columns are 1..n there).
    if (this.state.createdSheet && this.state.rows === 0 && this.state.merged === 0) {
      // Stryker disable next-line MethodExpression: without the slice of rows it is the same: fittedWidths looks at the first 200 rows anyway
      this.sheet.setColumnWidths?.(fittedWidths(this.columns.slice(0, -1), [...targets.values()].slice(0, 200)));
    }
    if (this.state.spec.mode === 'merge' && !this.lead) this.state.rows = index.size;
  }

  private writeBlock(first: number, last: number, targets: Map<number, CellValue[]>): void {
    const count = last - first + 1;
    // `targets` holds every block's rows: only this block's own rows tell whether it has rows in between.
    const whole = Array.from({ length: count }, (_, i) => first + i).every((r) => targets.has(r));
    eachRun(this.positions, (column, indexes) => {
      // Rows in between that are not ours to change this time are written back as they are.
      const current = whole ? null : this.sheet.read(first, column, count, indexes.length);
      const values = Array.from({ length: count }, (_, i) => {
        const row = targets.get(first + i);
        return row ? indexes.map((k) => row[k]) : (current as CellValue[][])[i];
      });
      this.sheet.setFormats(
        first,
        column,
        count,
        indexes.map((k) => NUMBER_FORMATS[this.columns[k].cell]),
      );
      this.sheet.write(first, column, values);
    });
  }

  /**
   * Child rows of the records received, each on the row of its key (see
   * child-sheet.ts); rows of those records whose item did not come are dropped.
   * Both modes alike: a full pull then drops the rows of records that left.
   */
  private placeChildren(records: ApiRecord[], children: PreparedChild[]): void {
    const parents = new Set(records.map((r) => this.keyOf(this.company?.id, r[this.table.idField])));
    for (const { sheet, entry, columns, fresh } of children) {
      if (this.state.createdSheet && entry.rows === 0 && fresh.length > 0) sheet.setColumnWidths?.(fittedWidths(columns, fresh));
      entry.rows = placeChildRows(sheet, columns, formats(columns), fresh, parents, this.lead);
    }
  }

  /** Each child sheet the records bring rows to (made when missing), its rows, and the cells it may grow to checked. */
  private prepareChildren(records: ApiRecord[]): PreparedChild[] {
    const lead = this.leadCells();
    const out: PreparedChild[] = [];
    for (const child of this.table.children) {
      // Stryker disable next-line MethodExpression: every column gives as many rows as the parent's id alone, which is cheaper
      if (!this.state.children[child.field] && !this.existingChild(child) && childRows(child, records, this.conv, child.columns.slice(0, 1)).length === 0)
        continue;
      const { sheet, entry, columns: childColumns } = this.childColumns(child, records);
      const own = childRows(child, records, this.conv, childColumns);
      const fresh = lead.length ? own.map((row) => [...lead, ...row]) : own;
      const columns = this.withLead(childColumns);
      out.push({ sheet, entry, columns, fresh });
    }
    return out;
  }

  /**
   * After a full pull, rows whose record did not come this run (or a second
   * row with the same id) are not records of the report any more. Without
   * cells of the user they are deleted as whole rows, so nothing below loses
   * its row; with the user's cells they stay, marked in a note, so nothing
   * the user typed is lost or attached to another record.
   */
  private sweep(untouched: ReadonlySet<string> = new Set()): void {
    const last = this.sheet.lastRow();
    if (last < 2) return;
    // Only the key and "Recebido em" columns are read whole (a whole 200,000-row sheet would not fit an execution);
    // a row is read across only when it is not a current record's.
    const column = (p: number) => this.sheet.read(2, p, last - 1, 1).map(([v]) => v);
    const ids = column(this.positions[this.idIndex]);
    const stamps = column(this.positions[this.columns.length - 1]);
    const connections = this.lead ? column(this.positions[this.lead - 1]) : null;
    const seen = new Set<string>();
    const suspects: number[] = [];
    ids.forEach((id, i) => {
      // Stryker disable next-line StringLiteral: a one-company sheet's keys ignore the connection, and no company is left untouched there
      const connection = connections ? String(connections[i]) : '';
      const key = this.keyOf(connection, id);
      const stamp = stamps[i];
      // A consolidated sheet's rows of a company that failed or was refreshed incrementally stay as they are.
      const fresh = untouched.has(connection) || (isDate(stamp) && Math.abs(stamp.getTime() - this.state.startedAt) < 1000);
      const current = key !== '' && !seen.has(key) && fresh;
      // Stryker disable next-line StringLiteral: adding '' to `seen` is the same: a row without a key is never current
      if (key !== '') seen.add(key);
      if (!current) suspects.push(i + 2);
    });
    const width = Math.max(this.sheet.lastColumn(), ...this.positions);
    const ours = new Set(this.positions);
    const idAt = this.positions[this.idIndex] - 1;
    const gone: number[] = [];
    const kept: number[] = [];
    let next = 0;
    for (const [first, lastSuspect] of blocks(suspects, SUSPECT_GAP)) {
      const rows = this.sheet.read(first, 1, lastSuspect - first + 1, width);
      for (; next < suspects.length && suspects[next] <= lastSuspect; next++) {
        const r = suspects[next];
        const row = rows[r - first];
        if (this.positions.every((p) => row[p - 1] === '')) continue;
        const userCells = row.some((v, c) => !ours.has(c + 1) && v !== '');
        (userCells ? kept : gone).push(r);
      }
    }
    for (const [first, lastGone] of blocks(gone, 1).reverse()) this.sheet.deleteRows(first, lastGone - first + 1);
    if (kept.length) {
      const when = brDateTime(this.deps.zone.wall(new Date(this.state.startedAt)));
      // Rows deleted above move these up.
      for (const row of kept) {
        // Stryker disable next-line EqualityOperator: a kept row is never one that goes
        const shift = gone.filter((g) => g < row).length;
        this.sheet.setNote(
          row - shift,
          idAt + 1,
          `Este registro não veio na atualização completa de ${when}. A linha ficou porque tem anotações suas; apague-a quando não precisar mais.`,
        );
      }
      this.state.warnings.push(
        `${kept.length} linha(s) de registros que não vieram nesta atualização ficaram na aba porque têm anotações suas (veja a nota na coluna ${this.columns[this.idIndex].label}).`,
      );
    }
  }

  /** The record keys the report sheet holds now. */
  private parentIds(): Set<string> {
    const last = this.sheet.lastRow();
    if (last < 2) return new Set();
    // Stryker disable next-line MethodExpression,StringLiteral: dropOrphans skips a row whose parent key is '' before looking it up, so '' in this set changes nothing
    return new Set(this.rowKeys(last).filter((key) => key !== ''));
  }

  /**
   * Empresa is the connection's name at this run: rows this run did not write
   * (a renamed connection's, refreshed incrementally or failed) follow it, on
   * the report sheet and on every child sheet alike.
   */
  private renameCompanies(companies: readonly CompanySpec[]): void {
    if (!this.lead) return;
    const names = new Map(companies.map((c) => [c.id, c.name]));
    renameRows(this.sheet, this.positions[0], this.positions[this.lead - 1], names);
    // Child sheets lay Empresa and the connection's id out first.
    for (const child of this.table.children) {
      const sheet = this.existingChild(child);
      if (sheet) renameRows(sheet, 1, 2, names);
    }
  }

  /** Whether the consolidated sheet has rows of connections other than `companies` (one read of the connection column). */
  private holdsOthers(companies: readonly CompanySpec[]): boolean {
    const last = this.sheet.lastRow();
    if (last < 2 || !this.lead) return false;
    const ids = new Set(companies.map((c) => c.id));
    return this.sheet.read(2, this.positions[this.lead - 1], last - 1, 1).some(([id]) => id !== '' && !ids.has(String(id)));
  }

  /**
   * The settling of a run, in parts that each fit an execution: rows whose
   * record did not come, then each child sheet's orphans, then the names and
   * the marks. `state.settled` holds the parts done, so a run whose settling
   * does not fit one step goes on with the next part in the next step; the
   * incomplete mark is lifted only by the last part.
   */
  private settlingParts(settled: readonly string[]): SettlingPart[] {
    const companies = this.state.spec.companies;
    const rows = Math.max(this.sheet.lastRow() - 1, 0);
    const keyColumns = this.lead ? 2 : 1;
    const parts: SettlingPart[] = [];
    const started = settled.length > 0;
    // A consolidated pull refreshed incrementally throughout settles only when the sheet holds a company it no longer names.
    const sweeping = this.state.spec.mode === 'replace' || (started ? settled.includes('sweep') : Boolean(companies && this.holdsOthers(companies)));
    if (sweeping) {
      // Stryker disable next-line OptionalChaining,ArrayDeclaration: a run with companies in its spec has one company state for each (startImport), so both are always there; without companies nothing is left untouched, and a stand-in entry without a mode or a failed state is filtered out all the same
      const untouched = new Set((companies ?? []).filter((c, i) => c.mode === 'merge' || this.state.companies?.[i]?.status === 'failed').map((c) => c.id));
      parts.push({ name: 'sweep', costMs: rows * (keyColumns + 1) * CELL_READ_MS + FINISH_CALLS * CALL_MS, run: () => this.sweep(untouched) });
      let keys: Set<string> | undefined;
      for (const child of this.table.children) {
        const sheet = this.existingChild(child);
        if (!sheet) continue;
        const childRows = Math.max(sheet.lastRow() - 1, 0);
        parts.push({
          name: `child:${child.field}`,
          costMs: (rows * keyColumns + childRows * (this.lead + 1)) * CELL_READ_MS + FINISH_CALLS * CALL_MS,
          run: () => {
            const entry = this.state.children[child.field];
            const columns = this.withLead(entry?.columns ?? (child.open ? columnsFromHeader(sheet, child, this.lead) : child.columns));
            // The report sheet does not change after the sweep: its keys are read once for every child sheet.
            keys ??= this.parentIds();
            const left = dropOrphans(sheet, columns.length, keys, this.lead);
            if (entry) entry.rows = left;
          },
        });
      }
    }
    let renamed = 0;
    if (companies) for (const child of this.table.children) renamed += Math.max((this.existingChild(child)?.lastRow() ?? 1) - 1, 0);
    parts.push({
      name: 'marks',
      costMs: (companies ? (rows + renamed) * 2 * CELL_READ_MS : 0) + (FINISH_CALLS + 2 * this.table.children.length) * CALL_MS,
      run: () => this.lift(companies),
    });
    return parts;
  }

  /** Company names brought up to date, and (unless some company failed) the incomplete marks lifted everywhere. */
  private lift(companies: readonly CompanySpec[] | undefined): void {
    if (!this.state.partial) {
      for (const child of this.table.children) {
        const entry = this.state.children[child.field];
        const sheet = entry ? this.deps.book.byId(entry.sheetId) : this.existingChild(child);
        if (sheet) markDone(sheet, this.withLead(entry?.columns ?? (child.open ? columnsFromHeader(sheet, child, this.lead) : child.columns)));
      }
    }
    if (companies) this.renameCompanies(companies);
    // Some company failed: its rows keep their last good values, and the sheet stays marked incomplete.
    if (!this.state.partial) markDone(this.sheet, this.columns, this.positions);
  }

  /**
   * Settles rows whose record did not come, and lifts the incomplete mark. In
   * a consolidated sheet a company the report no longer names leaves, one
   * refreshed incrementally or that failed keeps its rows (and a failure keeps the mark).
   * With a `limit`, only the parts that fit before it are done (the first one
   * always when `mustProgress`); returns whether the settling is complete.
   */
  // Stryker disable next-line BooleanLiteral: every caller that gives a limit says whether it must progress, and without a limit every part fits
  finish(limit?: number, mustProgress = true): boolean {
    const settled = (this.state.settled ??= []);
    let ran = 0;
    for (const part of this.settlingParts(settled)) {
      if (settled.includes(part.name)) continue;
      if (!(mustProgress && ran === 0) && !fits(this.deps.now(), part.costMs, limit)) return false;
      part.run();
      settled.push(part.name);
      // Stryker disable next-line AssignmentOperator: ran is only compared with 0, which -1 is not either
      ran += 1;
      // A kill in a later part does not undo this one.
      this.deps.checkpoint?.(this.state);
    }
    return true;
  }
}

/** One part of the settling (see Writer.settlingParts). */
interface SettlingPart {
  name: string;
  costMs: number;
  run: () => void;
}

/** Writes each row's company name (column `nameColumn`) from its connection id (column `idColumn`) where the name shown is not the current one. */
function renameRows(sheet: SheetPort, nameColumn: number, idColumn: number, names: ReadonlyMap<string, string>): void {
  const last = sheet.lastRow();
  if (last < 2) return;
  const connections = sheet.read(2, idColumn, last - 1, 1);
  const shown = sheet.read(2, nameColumn, last - 1, 1);
  const stale = new Map<number, CellValue[]>();
  connections.forEach(([id], i) => {
    const name = names.get(String(id));
    if (name !== undefined && shown[i][0] !== name) stale.set(i + 2, [name]);
  });
  for (const [first, lastRow] of blocks([...stale.keys()], 1)) {
    sheet.write(
      first,
      nameColumn,
      Array.from({ length: lastRow - first + 1 }, (_, i) => stale.get(first + i) as CellValue[]),
    );
  }
}

/** Sorted rows grouped into [first, last] blocks whose neighbours are at most `gap` rows apart. */
function blocks(rows: number[], gap: number): Array<[number, number]> {
  const sorted = rows.slice().sort((a, b) => a - b);
  const out: Array<[number, number]> = [];
  for (const r of sorted) {
    const last = out[out.length - 1];
    if (last && r - last[1] <= gap) last[1] = r;
    else out.push([r, r]);
  }
  return out;
}

/**
 * An open child's columns as an earlier run left them: the keys in the header
 * notes, up to the first column that is not ours (the user's own, to the right).
 * Their kinds come back with the first value (`typed: false`).
 */
function columnsFromHeader(sheet: SheetPort, child: ChildTable, lead: Lead = 0): Column[] {
  const width = sheet.lastColumn();
  if (width < lead + 2) return child.columns;
  const notes = sheet.readNotes(1, 1, width);
  if (noteKey(notes[lead]) !== child.columns[0].key) return child.columns;
  // Stryker disable next-line ArrayDeclaration: a read of one row always returns that row
  const labels = sheet.read(1, 1, 1, width)[0] ?? [];
  const columns: Column[] = [child.columns[0]];
  for (let i = lead + 1; i < width; i++) {
    const key = noteKey(notes[i]);
    if (!key) break;
    // Stryker disable next-line StringLiteral: the incomplete mark is only ever written on the sheet's first header cell, and these start after the parent's id
    const label = String(labels[i] ?? key).replace(PARTIAL_MARK, '');
    columns.push({ key, label: label || key, cell: 'text', typed: false });
  }
  return columns;
}

export interface StepOptions {
  /** Epoch ms after which the step starts no new wave (a sidebar's step, a share of the hourly run). */
  deadline: number;
  /**
   * Epoch ms the execution must never pass (its 6-minute kill, less a margin).
   * A wave starts only if, at its worst (a 60 s time-out, then the write of
   * everything buffered), it ends before this. Undefined: no hard limit.
   */
  limit?: number;
  base?: 0 | 1;
}

/** A run whose pages are all written but whose settling (see Writer.finish) goes on in the next step. */
export const SETTLING_GOES_ON = 'Todas as páginas foram gravadas; a conferência final das linhas continua na próxima etapa.';

/** Rows apart that the sweep still reads in one block: fewer calls for a few cells more. */
const SUSPECT_GAP = 20;

/** Steps in a row the service may fail to answer before the run is reported failed. */
export const MAX_TRANSIENT_FAILURES = 3;
/** Rows a page is assumed to hold before the first page tells. */
export const ASSUMED_PAGE_ROWS = 100;
/** The calls that end a run: stale rows cleared, marks lifted, the Histórico row, the job saved. */
export const FINISH_CALLS = 12;

/**
 * The service did not answer in time (a time-out, whose retries the deadline
 * cut short) or asked for a pause longer than the step had: worth going on
 * in a later step. A 5xx or a refused connection already had the client's
 * retries and fails the run as before ("Continuar" resumes it).
 */
export function transient(err: unknown): err is NetworkError | RateLimitedError {
  return (err instanceof NetworkError && err.timedOut) || err instanceof RateLimitedError;
}

/**
 * Runs waves until the listing ends or the deadline nears. Returns the new
 * state; the caller persists it. Errors leave the state `failed` with a
 * Portuguese message and the sheet still marked incomplete.
 */
export function stepImport(state: ImportState, deps: ImportDeps, options: StepOptions): ImportState {
  if (state.status !== 'running') return state;
  // The service asked for a pause longer than the last step had: nothing is asked before it ends.
  if (state.notBefore !== undefined && deps.now() < state.notBefore) return state;
  const next: ImportState = {
    ...state,
    children: { ...state.children },
    warnings: [...state.warnings],
    steps: state.steps + 1,
    notBefore: undefined,
    ...(state.settled ? { settled: [...state.settled] } : {}),
  };
  for (const [k, v] of Object.entries(next.children)) next.children[k] = { ...v };
  const flushRows = deps.flushRows ?? DEFAULT_FLUSH_ROWS;
  // The pager position of the last rows actually written: where a later step resumes.
  let committed = next.pager;
  let buffer: ApiRecord[] = [];
  let flush = () => {};
  let written = false;
  try {
    const writer = new Writer(next, deps);
    const pager = deps.client.pager(next.spec.listing, next.spec.filters, { state: next.pager ?? undefined, base: options.base });
    const table = tableSpec(listing(next.spec.listing));
    // A record may bring a row to each child sheet too: the write is planned as that wide.
    const width = table.columns.length + table.children.reduce((n, c) => n + c.columns.length, 0);
    const budget = new StepBudget(deps.now, options);
    let checkedTotal = next.pager !== null;
    flush = () => {
      if (buffer.length === 0) return;
      writer.write(buffer);
      buffer = [];
      written = true;
      committed = pager.state;
      next.pager = committed;
      next.updatedAt = deps.now();
      deps.checkpoint?.(next);
    };
    while (!pager.done) {
      // At its worst the wave times out after a minute and then everything buffered is written: it must still end in time.
      const reserve = writeCostMs(buffer.length + pager.nextWaveSize * (pager.state.pageSize ?? ASSUMED_PAGE_ROWS), width, FINISH_CALLS);
      const began = budget.startWave(reserve);
      if (began === null) break;
      deps.client.withLimit(budget.requestLimit(reserve));
      for (const page of pager.nextWave()) {
        next.pages += 1;
        for (const r of page.records) buffer.push(r);
      }
      budget.waveEnded(began);
      if (!checkedTotal && pager.state.totalRows !== undefined) {
        writer.expect(pager.state.totalRows, buffer);
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
    next.transientFailures = 0;
    if (next.status === 'running') next.message = undefined;
    for (const w of pager.warnings) if (!next.warnings.includes(w)) next.warnings.push(w);
    const incomplete = pager.state.incomplete;
    if (pager.done && incomplete) {
      // Rows are written but nothing proves the listing is whole: the mark stays and the run is not OK.
      next.status = 'failed';
      next.message = `Importação incompleta: ${incomplete}`;
    } else if (pager.done) {
      // Settling 200,000 rows may not fit what this execution has left, nor one whole execution: each part that
      // fits is done, the first one at least when this step fetched no page (a page fetched was written), and the next step goes on.
      if (writer.finish(options.limit, next.pages === state.pages)) next.status = 'done';
      else next.message = SETTLING_GOES_ON;
    }
  } catch (err) {
    if (transient(err)) {
      // What arrived before the failure is kept: it was fetched within the plan, so its write fits too.
      try {
        flush();
      } catch {
        // The write failed as well: the next step fetches those pages again.
      }
    }
    next.pager = committed;
    const failures = written ? 1 : (state.transientFailures ?? 0) + 1;
    const text = bounded((err as Error).message, 500);
    if (transient(err) && failures < MAX_TRANSIENT_FAILURES) {
      // Not a failure yet: the run waits (a Retry-After) or tries again in its next step, from what it wrote.
      next.transientFailures = failures;
      const wait = err instanceof RateLimitedError ? err.retryAfterMs : undefined;
      if (wait) next.notBefore = deps.now() + wait;
      next.message = wait
        ? `O serviço pediu uma pausa de ${Math.ceil(wait / 1000)} s. A importação continua depois dela, de onde parou.`
        : `O serviço não respondeu a tempo (${text}). A importação tenta de novo na próxima etapa, de onde parou.`;
    } else {
      next.status = 'failed';
      next.retryable = isRetryable(err);
      next.transientFailures = 0;
      next.message = transient(err)
        ? `O serviço não respondeu em ${failures} tentativas seguidas (${text}). A importação parou depois da última página gravada; use Continuar quando o serviço voltar.`
        : failureMessage(err);
    }
  }
  next.updatedAt = deps.now();
  return next;
}

/** A failed job continues from its last written page (a consolidated one, each failed company from its own). */
export function retryImport(state: ImportState): ImportState {
  if (state.status !== 'failed') return state;
  const companies = state.companies?.map((c) => (c.status === 'failed' ? { ...c, status: 'running' as const, message: undefined, retryable: undefined } : c));
  return { ...state, status: 'running', message: undefined, retryable: undefined, ...(companies ? { companies } : {}) };
}

export function cancelImport(state: ImportState): ImportState {
  if (state.status !== 'running') return state;
  const rows = importedRows(state).toLocaleString('pt-BR');
  return { ...state, status: 'cancelled', message: `Importação cancelada com ${rows} linhas gravadas: a aba ficou marcada como incompleta.` };
}

/** Rows the sheet holds after the job (replace) or rows updated/added (merge). */
export function importedRows(state: ImportState): number {
  return state.spec.mode === 'merge' && !state.companies ? state.merged : state.rows;
}
