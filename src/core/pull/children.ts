/**
 * A pull's child sheets (e.g. "Faturas · Itens"), one per nested list of the
 * listing: found by their metadata, made when the first items come (just wide
 * enough, under a name no sheet has), laid out again only when an open list's
 * columns grow, and each item written on the row of its key (child-sheet.ts).
 */
import type { ApiRecord } from '../../api/envelopes';
import { listing } from '../../api/operations';
import { ITEM_LABELS } from '../../api/item-labels';
import { CHILD_TAG, childTagValue, findChildSheet, placeChildRows } from '../sheets/child-sheet';
import { isChildSheet } from '../trust/targets';
import { noteKey } from '../sheets/sheet-layout';
import { childSheetName, freeName } from '../sheets/sheet-names';
import type { SheetPort } from '../sheets/sheet-port';
import {
  type CellConverter,
  type CellValue,
  type ChildTable,
  childRowCount,
  childRows,
  type Column,
  discoverColumns,
  fittedWidths,
  NUMBER_FORMATS,
  tableSpec,
} from '../sheets/table';
import { type Growth, NEW_SHEET_COLUMNS } from './cell-limit';
import type { Companies, Writing } from './companies';
import { prepareSheet } from './layout';
import type { ChildEntry, ImportDeps, ImportState } from './state';
import { plural } from '../../api/words';

/** Empty columns a new child sheet keeps beside its own, for the user's notes on the items. */
const CHILD_SPARE_COLUMNS = 4;

/** A child sheet ready for a batch's rows. */
interface PreparedChild {
  sheet: SheetPort;
  entry: ChildEntry;
  columns: Column[];
  fresh: CellValue[][];
}

/**
 * An open child's columns as an earlier run left them: the keys in the header
 * notes, up to the first column that is not ours (the user's own, to the right).
 * Their kinds come back with the first value (`typed: false`).
 */
function columnsFromHeader(sheet: SheetPort, child: ChildTable, lead = 0): Column[] {
  const width = sheet.lastColumn();
  if (width < lead + 2) return child.columns;
  const keys = sheet.readNotes(1, 1, width).map(noteKey);
  if (keys[lead] !== child.columns[0].key) return child.columns;
  const labels = sheet.read(1, 1, 1, width)[0];
  const after = keys.slice(lead + 1);
  const end = after.indexOf('');
  // The incomplete mark is only ever on a sheet's first header cell, left of these.
  const found = (end === -1 ? after : after.slice(0, end)).map(
    (key, i): Column => ({ key, label: ITEM_LABELS[key] ?? (String(labels[lead + 1 + i]) || key), cell: 'text', typed: false }),
  );
  return [child.columns[0], ...found];
}

export class ChildSheets {
  readonly tables: readonly ChildTable[];
  /** What the search for each child's sheet found in this step: the write, the sweep and the marks ask it again, and each search is a call or two. */
  private readonly found = new Map<string, SheetPort | null>();
  /** Every child sheet's tag, searched once for all of this step's child lists (a sheet this step makes is known by its entry). */
  private tagged: ReadonlyArray<{ sheet: SheetPort; value: string }> | undefined;

  constructor(
    private readonly state: ImportState,
    private readonly deps: ImportDeps,
    private readonly companies: Companies,
    private readonly conv: CellConverter,
  ) {
    this.tables = tableSpec(listing(state.spec.listing)).children;
  }

  /** The sheet the job says holds `child`, only when its own metadata says it is that child of this report's sheet. */
  private byEntry(child: ChildTable): SheetPort | null {
    const entry = this.state.children[child.field];
    const sheet = entry ? this.deps.book.byId(entry.sheetId) : null;
    return sheet && isChildSheet(sheet, childTagValue(this.state.sheetId, child.field)) ? sheet : null;
  }

  /** The child sheet an earlier run of this report wrote, by its metadata; null when there is none. */
  existing(child: ChildTable): SheetPort | null {
    const entered = this.byEntry(child);
    if (entered) return entered;
    if (!this.found.has(child.field)) {
      this.tagged ??= this.deps.book.tagged(CHILD_TAG);
      this.found.set(
        child.field,
        findChildSheet(this.deps.book, this.state.sheetId, child.field, childSheetName(this.state.spec.sheetName, child), this.tagged),
      );
    }
    return this.found.get(child.field) ?? null;
  }

  /** A child's columns as `sheet` holds them: after the lead columns, an open child's as this run or an earlier one laid them out. */
  laidOut(child: ChildTable, sheet: SheetPort): Column[] {
    const columns = this.state.children[child.field]?.columns ?? (child.open ? columnsFromHeader(sheet, child, this.companies.lead.length) : child.columns);
    return this.withLead(columns);
  }

  /** The columns a child is written with (an open child's as found so far), without the lead columns. */
  columnsOf(child: ChildTable): Column[] {
    return (child.open && this.state.children[child.field]?.columns) || child.columns;
  }

  private withLead(columns: Column[]): Column[] {
    return [...this.companies.lead, ...columns];
  }

  private made(child: ChildTable): { sheet: SheetPort; entry: ChildEntry } {
    let entry = this.state.children[child.field];
    let sheet = this.byEntry(child);
    if (!sheet) {
      const existing = this.existing(child);
      sheet = existing ?? this.create(child);
      // A refresh keeps the columns an earlier run laid out, in their order (the header notes hold the keys).
      const columns = child.open ? (entry?.columns ?? (existing ? columnsFromHeader(existing, child, this.companies.lead.length) : child.columns)) : undefined;
      entry = { sheetId: sheet.id, rows: entry?.rows ?? 0, ...(columns ? { columns } : {}) };
      prepareSheet(sheet, this.withLead(columns ?? child.columns));
      this.state.children[child.field] = entry;
    }
    return { sheet, entry };
  }

  /** A new child sheet, tagged for its parent. */
  private create(child: ChildTable): SheetPort {
    const book = this.deps.book;
    // A child sheet of known columns gets those and a few for the user's notes (200,000 rows of a 26-column grid
    // would be 5.2 million of the 10 million cells); an open one's columns are found as records come.
    const width = child.open ? undefined : child.columns.length + CHILD_SPARE_COLUMNS;
    const sheet = book.create(freeName(book, childSheetName(this.state.spec.sheetName, child)), width);
    sheet.setSheetTag(CHILD_TAG, childTagValue(this.state.sheetId, child.field));
    return sheet;
  }

  /** The columns a child is written with; an open child's grow with the keys `records` bring, added at the end. */
  private grown(child: ChildTable, records: readonly ApiRecord[]): { sheet: SheetPort; entry: ChildEntry; columns: Column[] } {
    const { sheet, entry } = this.made(child);
    if (!child.open) return { sheet, entry, columns: child.columns };
    const before = entry.columns ?? child.columns;
    const { columns, dropped } = discoverColumns(child, records, before);
    if (dropped > 0) {
      const w = `${child.label}: só as primeiras ${plural(columns.length, 'coluna foi importada', 'colunas foram importadas')}.`;
      if (!this.state.warnings.includes(w)) this.state.warnings.push(w);
    }
    if (columns.length !== before.length || columns.some((c, i) => c.cell !== before[i].cell)) {
      entry.columns = columns;
      prepareSheet(sheet, this.withLead(columns));
    }
    return { sheet, entry, columns };
  }

  /** Each child sheet grown by `rows(child)` rows: to `rows` itself when `replacing`, else below what it has. */
  growths(rows: (child: ChildTable) => number, replacing: boolean): Growth[] {
    const out: Growth[] = [];
    for (const child of this.tables) {
      const added = rows(child);
      if (added === 0) continue;
      const sheet = this.existing(child);
      const kept = sheet && !replacing ? Math.max(sheet.lastRow() - 1, 0) : 0;
      const columns = this.companies.lead.length + this.columnsOf(child).length;
      out.push({ sheet, rows: kept + added, columns: sheet ? columns : child.open ? Math.max(columns, NEW_SHEET_COLUMNS) : columns + CHILD_SPARE_COLUMNS });
    }
    return out;
  }

  /** Each child sheet the records bring rows to (made when missing), and its rows. */
  prepare(records: ApiRecord[], writing: Writing): PreparedChild[] {
    const out: PreparedChild[] = [];
    for (const child of this.tables) {
      if (!this.state.children[child.field] && !this.existing(child) && childRowCount(child, records) === 0) continue;
      const { sheet, entry, columns } = this.grown(child, records);
      const fresh = childRows(child, records, this.conv, columns).map((row) => [...writing.cells, ...row]);
      out.push({ sheet, entry, columns: this.withLead(columns), fresh });
    }
    return out;
  }

  /**
   * Child rows of the records received, each on the row of its key (see
   * child-sheet.ts); rows of those records whose item did not come are dropped.
   * Both modes alike: a full pull then drops the rows of records that left.
   */
  place(children: readonly PreparedChild[], parents: ReadonlySet<string>): void {
    for (const { sheet, entry, columns, fresh } of children) {
      if (this.state.createdSheet && entry.rows === 0 && fresh.length > 0) sheet.setColumnWidths?.(fittedWidths(columns, fresh));
      const formats = columns.map((c) => NUMBER_FORMATS[c.cell]);
      entry.rows = placeChildRows(sheet, columns, formats, fresh, parents, this.companies.lead.length);
    }
  }
}
