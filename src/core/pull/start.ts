/**
 * Starting a pull from one look at the report's sheet: what the plan decides
 * from (runs/plan-pull.ts) and the start lays out, so neither looks again. The
 * start checks the target sheet's name, takes the sheet the look found (or
 * makes it), lays our columns out where their metadata says with the header
 * marked incomplete, and returns the state of a run that has fetched nothing.
 */
import { listing } from '../../api/operations';
import type { Column } from '../sheets/table';
import { COLUMN_TAG, LISTING_TAG, resolveHeader, SHEET_TAG } from '../sheets/sheet-layout';
import { freeName, sheetNameProblem } from '../sheets/sheet-names';
import type { BookPort, SheetPort } from '../sheets/sheet-port';
import { tableSpec } from '../sheets/table';
import { reportTag } from '../trust/targets';
import { type ColumnChoice, knownKeys, prepareSheet, reportColumns } from './layout';
import { type CompanyState, type ImportDeps, ImportError, type ImportSpec, type ImportState } from './state';

/** One look at a report's sheet before its run. */
export interface SheetLook {
  /** The report's sheet: by its id, by its name only for a report that never ran; null when it has none (the run makes it). */
  sheet: SheetPort | null;
  /** The listing the sheet's metadata says it holds. */
  listing: string | null;
  /** Where the columns of ours are, by field, as their metadata says. */
  columns: ReadonlyMap<string, number>;
  /** The report's columns, in their order: what `intact` looks for and the start lays out. */
  ours: readonly Column[];
  /**
   * Whether an incremental refresh can merge into it: found by the report's
   * id, of this listing, every column of ours where its metadata says (card
   * columns the report no longer wants are cleared by `startImport` in either
   * mode). A report that never ran has no sheet id: a sheet found by its name
   * was never merged into.
   */
  intact: boolean;
}

/** Looks at the sheet a run of `target` would write, with the columns `choice` gives it. */
export function lookAtSheet(book: BookPort, target: Pick<ImportSpec, 'listing' | 'sheetId' | 'sheetName'>, choice: ColumnChoice = {}): SheetLook {
  return lookAt(target.sheetId !== undefined ? book.byId(target.sheetId) : book.byName(target.sheetName.trim()), target, choice);
}

/** The look at `sheet`, the one a run of `target` writes, found already (by the Importar form, under the name the person typed). */
export function lookAt(sheet: SheetPort | null, target: Pick<ImportSpec, 'listing' | 'sheetId'>, choice: ColumnChoice = {}): SheetLook {
  const held = sheet?.sheetTag(LISTING_TAG) ?? null;
  const columns = sheet?.columnTags(COLUMN_TAG) ?? new Map<string, number>();
  const ours = reportColumns(target.listing, choice);
  const intact = sheet !== null && sheet.id === target.sheetId && held === target.listing && ours.every((c) => columns.has(c.key));
  return { sheet, listing: held, columns, ours, intact };
}

/** The sheet the look found; else made, under a free name when the user deleted the report's sheet (recreated). */
function reportSheet(book: BookPort, spec: ImportSpec, look: SheetLook): { sheet: SheetPort; recreated: boolean } {
  if (look.sheet) return { sheet: look.sheet, recreated: false };
  if (spec.sheetId !== undefined) return { sheet: book.create(freeName(book, spec.sheetName)), recreated: true };
  return { sheet: book.create(spec.sheetName), recreated: false };
}

function tag(sheet: SheetPort, key: string, value: string): void {
  if (sheet.sheetTag(key) !== value) sheet.setSheetTag(key, value);
}

/** Starts the pull `spec` on the sheet `found`, as the run looked at it before it planned (with the same column choice). */
export function startImport(spec: ImportSpec, deps: ImportDeps, found: SheetLook): ImportState {
  const name = spec.sheetName.trim();
  if (!name) throw new ImportError('Informe o nome da aba de destino.');
  const problem = sheetNameProblem(name);
  if (problem) throw new ImportError(problem);
  // A sheet this run makes gets widths fitted to its first rows; one the user already had keeps theirs.
  const createdSheet = !found.sheet;
  const { sheet, recreated } = reportSheet(deps.book, { ...spec, sheetName: name }, found);
  const previous = found.listing;
  // A sheet the look did not find is new: no column of ours yet.
  const { layout, notes } = resolveHeader(
    sheet,
    found.ours,
    knownKeys(),
    tableSpec(listing(spec.listing)).idField,
    previous === null ? null : previous === spec.listing,
    found.columns,
  );
  prepareSheet(sheet, found.ours, layout.positions, notes);
  // A tag that already says so is not written again: each write is a read of the sheet's metadata and a call.
  tag(sheet, LISTING_TAG, spec.listing);
  if (spec.reportId) tag(sheet, SHEET_TAG, reportTag(spec.reportId));
  const warnings: string[] = [];
  const listed = (labels: readonly string[]) => labels.join(', ');
  if (recreated) warnings.push(`A aba do relatório tinha sido apagada e foi criada de novo ("${sheet.name()}").`);
  if (layout.rebuilt.length) warnings.push(`Colunas do complemento que tinham sido apagadas foram refeitas: ${listed(layout.rebuilt)}.`);
  if (layout.added.length)
    warnings.push(`Colunas novas desta versão do complemento foram incluídas: ${listed(layout.added)}. Confira fórmulas que contam colunas (como PROCV).`);
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
