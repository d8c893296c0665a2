/**
 * Writes a pull's records into its sheet and child sheets, each on the row of
 * its key: the record's id (with its connection's, consolidated) found where
 * the user's sorting left it, new ones below the last row, only our columns
 * written. Before any row of a batch is written, the cells it may add to every
 * sheet are checked against the spreadsheet's limit.
 */
import type { ApiRecord } from '../../api/envelopes';
import { listing } from '../../api/operations';
import { matches } from '../sheets/sheet-filters';
import { CellConverter, type CellValue, childRowCount, fittedWidths, NUMBER_FORMATS, recordRow, tableSpec } from '../sheets/table';
import { checkCells } from './cell-limit';
import { ChildSheets } from './children';
import type { Companies, Writing } from './companies';
import { companiesOf } from './consolidated';
import { blocks, eachRun } from './layout';
import { ReportSheet } from './report-sheet';
import type { CompanySpec, ImportDeps, ImportState } from './state';
import { plural } from '../../api/words';

/** Rows written as one block when the records between them span at most this many cells: the cells written stay close to the cells changed. */
const GAP_CELLS = 30;
/** Cut fields named one by one in the warnings; past these, only counted (warnings live in a property). */
const MAX_NAMED_CUTS = 5;
const MORE_CUTS = 'Além desses, ';

export class Writer {
  readonly conv: CellConverter;
  readonly report: ReportSheet;
  readonly children: ChildSheets;
  private readonly idField: string;
  /** Record key → row, read once per step from the id column; rows appended this step are added. */
  private index: Map<string, number> | null = null;
  private nextRow = 0;

  constructor(
    private readonly state: ImportState,
    private readonly deps: ImportDeps,
    readonly companies: Companies = companiesOf(state, deps),
  ) {
    this.conv = new CellConverter(deps.zone);
    this.idField = tableSpec(listing(state.spec.listing)).idField;
    this.report = new ReportSheet(state, deps, companies);
    this.children = new ChildSheets(state, deps, companies, this.conv);
  }

  private rowIndex(): Map<string, number> {
    if (this.index) return this.index;
    const index = new Map<string, number>();
    const last = this.report.sheet.lastRow();
    if (last >= 2) {
      this.report.rows(last).forEach(({ key }, i) => {
        if (key !== '' && !index.has(key)) index.set(key, i + 2);
      });
    }
    this.nextRow = Math.max(last, 1) + 1;
    this.index = index;
    return index;
  }

  /** A record's id as its cell shows it: what its row is keyed by. */
  private idOf(record: ApiRecord): CellValue {
    return this.conv.cell(this.report.columns[this.report.idIndex].cell, record[this.idField]);
  }

  /**
   * Refuses up front when the service announced more rows than the spreadsheet
   * can take: the report's rows, and its child sheets' at the rate the first
   * records bring them.
   */
  expect(totalRows: number, sample: readonly ApiRecord[]): void {
    if (this.state.spec.mode !== 'replace') return;
    const perRecord = (rows: number) => (sample.length ? rows / sample.length : 0);
    checkCells(
      () => this.deps.book.totalCells(),
      [
        { sheet: this.report.sheet, rows: totalRows, columns: this.report.width },
        ...this.children.growths((child) => Math.ceil(perRecord(childRowCount(child, sample)) * totalRows), true),
      ],
    );
  }

  /** Before anything of `records` is written: the rows they add here and in the child sheets fit the spreadsheet. */
  private checkWrite(records: readonly ApiRecord[], writing: Writing): void {
    const index = this.rowIndex();
    const fresh = new Set(records.map((r) => writing.key(this.idOf(r))).filter((key) => !index.has(key)));
    checkCells(
      () => this.deps.book.totalCells(),
      [
        { sheet: this.report.sheet, rows: this.nextRow - 2 + fresh.size, columns: this.report.width },
        ...this.children.growths((child) => childRowCount(child, records), false),
      ],
    );
  }

  /** Writes `downloaded` (of `company`, in a consolidated pull) that pass "Filtros na planilha". */
  write(downloaded: ApiRecord[], company?: CompanySpec): void {
    const writing = this.companies.writing(company);
    // Filtros na planilha: the add-on's own conditions, applied after the service's filters narrowed the download.
    const conditions = this.state.spec.sheetFilters ?? [];
    const records = conditions.length ? downloaded.filter((r) => matches(conditions, r)) : downloaded;
    if (records.length === 0) return;
    // Every sheet's growth is checked, then child sheets are made, before any row is written: a refusal leaves nothing half-saved.
    this.checkWrite(records, writing);
    const children = this.children.prepare(records, writing);
    const held = this.place(records, writing);
    writing.wrote(records, held);
    this.children.place(children, new Set(records.map((r) => writing.key(this.idOf(r)))));
    this.noteCuts();
  }

  /** Fields cut to the cell limit become warnings: the first few by record and field, the rest counted. */
  private noteCuts(): void {
    const cuts = this.conv.cuts.splice(0);
    const warnings = this.state.warnings;
    const named = warnings.filter((w) => w.startsWith('O campo "')).length;
    for (const cut of cuts.slice(0, Math.max(0, MAX_NAMED_CUTS - named))) warnings.push(cut);
    const more = named + cuts.length - MAX_NAMED_CUTS;
    if (more <= 0) return;
    // A count line exists only after five named cuts: then `more` is all of this write's cuts.
    const at = warnings.findIndex((w) => w.startsWith(MORE_CUTS));
    const previous = at === -1 ? 0 : Number.parseInt(warnings[at].slice(MORE_CUTS.length), 10);
    const line = `${MORE_CUTS}${plural(previous + more, 'campo também passou', 'campos também passaram')} de 50.000 caracteres e ${previous + more === 1 ? 'foi cortado' : 'foram cortados'}.`;
    if (at === -1) warnings.push(line);
    else warnings[at] = line;
  }

  /** Each record on the row where its key is now; new keys below the last row. Only our columns are written. Returns the rows of records. */
  private place(records: ApiRecord[], writing: Writing): number {
    const index = this.rowIndex();
    const { columns, idIndex } = this.report;
    const received = new Date(this.state.startedAt);
    const targets = new Map<number, CellValue[]>();
    for (const record of records) {
      const row = [...writing.cells, ...recordRow(this.report.fields, record, this.conv), received];
      const key = writing.key(row[idIndex]);
      let at = index.get(key);
      if (at === undefined) {
        at = this.nextRow++;
        index.set(key, at);
      }
      targets.set(at, row);
    }
    this.report.sheet.ensureSize(this.nextRow - 1, this.report.width);
    const gap = 1 + Math.floor(GAP_CELLS / columns.length);
    for (const rows of blocks([...targets.keys()], gap)) this.writeBlock(rows[0], rows[rows.length - 1], targets);
    // A sheet this run made gets widths that fit its first rows (our columns are 1..n there): its first write leaves rows counted.
    if (this.state.createdSheet && this.state.rows === 0) {
      this.report.sheet.setColumnWidths?.(fittedWidths(columns.slice(0, -1), [...targets.values()]));
    }
    return index.size;
  }

  private writeBlock(first: number, last: number, targets: Map<number, CellValue[]>): void {
    const { sheet, columns, positions } = this.report;
    const count = last - first + 1;
    // `targets` holds every block's rows: only this block's own rows tell whether it has rows in between.
    const whole = Array.from({ length: count }, (_, i) => first + i).every((r) => targets.has(r));
    eachRun(positions, (column, indexes) => {
      // Rows in between that are not ours to change this time are written back as they are.
      const current = whole ? null : sheet.read(first, column, count, indexes.length);
      const values = Array.from({ length: count }, (_, i) => {
        const row = targets.get(first + i);
        return row ? indexes.map((k) => row[k]) : (current as CellValue[][])[i];
      });
      sheet.setFormats(
        first,
        column,
        count,
        indexes.map((k) => NUMBER_FORMATS[columns[k].cell]),
      );
      sheet.write(first, column, values);
    });
  }
}
