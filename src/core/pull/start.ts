/**
 * Starting a pull: the target sheet's name checked, the report's sheet as the
 * run's one look found it (or made), our columns laid out where their metadata
 * says with the header marked incomplete, and the state of a run that has
 * fetched nothing.
 */
import { listing } from '../../api/operations';
import { LISTING_TAG, resolveLayout, SHEET_TAG } from '../sheets/sheet-layout';
import { sheetNameProblem } from '../sheets/sheet-names';
import { tableSpec } from '../sheets/table';
import { knownKeys, lookAtSheet, prepareSheet, reportColumns, reportSheet, type SheetLook } from './layout';
import { type CompanyState, type ImportDeps, ImportError, type ImportSpec, type ImportState } from './state';

/** `look`: the sheet as the run found it before it planned; a pull started on its own looks now. */
export function startImport(spec: ImportSpec, deps: ImportDeps, look?: SheetLook): ImportState {
  const name = spec.sheetName.trim();
  if (!name) throw new ImportError('Informe o nome da aba de destino.');
  const problem = sheetNameProblem(name);
  if (problem) throw new ImportError(problem);
  const choice = { consolidated: Boolean(spec.companies), cardData: spec.cardData };
  const found = look ?? lookAtSheet(deps.book, spec, choice);
  // A sheet this run makes gets widths fitted to its first rows; one the user already had keeps theirs.
  const createdSheet = !found.sheet;
  const { sheet, recreated } = reportSheet(deps.book, { ...spec, sheetName: name }, found);
  const columns = reportColumns(spec.listing, choice);
  const previous = found.listing;
  // A sheet the look did not find is new: no column of ours yet.
  const layout = resolveLayout(
    sheet,
    columns,
    knownKeys(),
    tableSpec(listing(spec.listing)).idField,
    previous === null ? null : previous === spec.listing,
    found.columns,
  );
  prepareSheet(sheet, columns, layout.positions);
  sheet.setSheetTag(LISTING_TAG, spec.listing);
  if (spec.reportId) sheet.setSheetTag(SHEET_TAG, `relatorio:${spec.reportId}`);
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
