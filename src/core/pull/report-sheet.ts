/**
 * The report sheet as a step finds it: our columns where their metadata says
 * (a column the user deleted between two steps rebuilt beside its neighbours,
 * and said), and each data row's key read from the id column (and the
 * connection's, consolidated).
 */
import { findColumns, resolveLayout } from '../sheets/sheet-layout';
import type { SheetPort } from '../sheets/sheet-port';
import { type Column, tableSpec } from '../sheets/table';
import { listing } from '../../api/operations';
import type { Companies, LeadSheet, SheetRow } from './companies';
import { knownKeys, prepareSheet, reportColumns } from './layout';
import { ImportError, type ImportDeps, type ImportState } from './state';

export class ReportSheet implements LeadSheet {
  readonly sheet: SheetPort;
  /** Lead columns (consolidated), the record's, then "Recebido em". */
  readonly columns: Column[];
  readonly positions: number[];
  /** Where the record's id is among `columns`. */
  readonly idIndex: number;

  constructor(
    state: ImportState,
    deps: ImportDeps,
    readonly companies: Companies,
  ) {
    const idField = tableSpec(listing(state.spec.listing)).idField;
    this.columns = [...companies.lead, ...reportColumns(state.spec.listing, { cardData: state.spec.cardData })];
    this.idIndex = this.columns.findIndex((c) => c.key === idField);
    const sheet = deps.book.byId(state.sheetId);
    if (!sheet) throw new ImportError(`A aba "${state.spec.sheetName}" foi apagada durante a importação. Rode o relatório de novo.`);
    this.sheet = sheet;
    const found = findColumns(sheet, this.columns);
    if (found.every((p) => p !== null)) this.positions = found as number[];
    else {
      // A column of ours deleted between two steps: rebuilt beside its neighbours, and said.
      const layout = resolveLayout(sheet, this.columns, knownKeys(), idField, true);
      prepareSheet(sheet, this.columns, layout.positions);
      this.positions = layout.positions;
      const note = `Colunas do complemento que tinham sido apagadas foram refeitas: ${layout.rebuilt.join(', ')}.`;
      if (layout.rebuilt.length && !state.warnings.includes(note)) state.warnings.push(note);
    }
  }

  /** The record's columns this report writes (card data only when asked), without the lead columns or "Recebido em". */
  get fields(): Column[] {
    return this.columns.slice(this.companies.lead.length, -1);
  }

  /** The last column of ours. */
  get width(): number {
    return Math.max(...this.positions);
  }

  /** Values of the first `rows` data rows in the column of ours at `index`. */
  column(index: number, rows: number): unknown[] {
    return this.sheet.read(2, this.positions[index], rows, 1).map(([v]) => v);
  }

  /** Data rows 2..last: their keys, read from the id column (and the connection's, when consolidated). */
  rows(last: number): SheetRow[] {
    return this.companies.rows(this, this.column(this.idIndex, last - 1));
  }

  /** The record keys the sheet holds now. */
  keys(): Set<string> {
    const last = this.sheet.lastRow();
    return new Set(last < 2 ? undefined : this.rows(last).map((r) => r.key));
  }
}
