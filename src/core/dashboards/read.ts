/**
 * Reading the reports a panel needs: each report found by the id its dashboard
 * keeps, its sheet by id, and only the columns asked for, found by their
 * metadata (never by position or header text).
 */
import type { FilterValues } from '../../api/filters';
import { listing } from '../../api/operations';
import { UserError } from '../../api/user-error';
import { findChildSheet } from '../sheets/child-sheet';
import { describeOrganization, type Organization, sameOrganizations } from '../connections/organizations';
import type { Report, ReportStore } from '../reports/reports';
import { COLUMN_TAG, noteKey, RECEIVED_KEY } from '../sheets/sheet-layout';
import { childSheetName } from '../sheets/sheet-names';
import type { SheetPort } from '../sheets/sheet-port';
import { type CellValue, tableSpec } from '../sheets/table';
import type { PanelKind, Source, SourceField, SourceNeed } from './panel';
import type { DashboardBookPort } from './port';
import { EMPRESA, type SourceTable } from './sources';

/** What reading needs: the saved reports and the spreadsheet. */
export interface ReadDeps {
  reports: ReportStore;
  book: DashboardBookPort;
  /** What a report's last run asked the service for: a panel counts the months its report covered. */
  asked: (report: Report) => FilterValues;
}

/** Where each field's column is: its metadata, or for a child sheet (laid out by the import in header order) the header notes. */
function columnsByKey(sheet: SheetPort): Map<string, number> {
  const tags = sheet.columnTags(COLUMN_TAG);
  if (tags.size > 0 || sheet.lastColumn() === 0) return tags;
  const notes = sheet.readNotes(1, 1, sheet.lastColumn());
  notes.forEach((note, i) => {
    const key = noteKey(note);
    if (key && !tags.has(key)) tags.set(key, i + 1);
  });
  return tags;
}

/**
 * A sheet's columns by field key, read one column per call (only those asked for). A row of a report sheet whose
 * "Recebido em" is blank is no record of the service's (a full refresh kept it for the user's notes after its record
 * left): it reads as an empty row, so no panel counts it.
 */
function readSource(sheet: SheetPort, keys: readonly string[]): SourceTable {
  const tags = columnsByKey(sheet);
  const rows = Math.max(0, sheet.lastRow() - 1);
  const read = (at: number) => (rows ? sheet.read(2, at, rows, 1).map((r) => r[0]) : []);
  const receivedAt = tags.get(RECEIVED_KEY);
  const received = receivedAt === undefined ? undefined : read(receivedAt);
  const columns = new Map<string, CellValue[]>();
  for (const key of new Set([...keys, EMPRESA])) {
    const at = tags.get(key);
    if (at === undefined) continue;
    columns.set(key, received ? read(at).map((v, r) => (received[r] === '' ? '' : v)) : read(at));
  }
  return { rows, column: (key) => columns.get(key) };
}

function labelsOf(report: Report): Record<string, string> {
  return Object.fromEntries(tableSpec(listing(report.listing)).columns.map((c) => [c.key, `"${c.label}"`]));
}

/** What a dashboard says when one of its reports was deleted. */
export const deletedText = (role: string): string => `O relatório ${role} deste painel foi excluído: exclua o painel ou crie outro.`;

function reportOf(deps: ReadDeps, id: string | undefined, role: string): Report {
  const report = id ? deps.reports.find(id) : null;
  if (!report) throw new UserError(deletedText(role));
  return report;
}

function sourceSheet(deps: ReadDeps, report: Report, role: string): SheetPort {
  const sheet = report.sheetId === undefined ? null : deps.book.byId(report.sheetId);
  if (!sheet) throw new UserError(`A aba do relatório ${role} "${report.name}" não existe: atualize o relatório em Relatórios e o painel é refeito.`);
  return sheet;
}

/**
 * Why two reports cannot be compared: they read different organizations (an invoice of one never has its note
 * in the other, so every invoice would look unissued). Undefined when they read the same, or either is unknown.
 * `organizationsOf` tells a report's organizations (its last run's, by default).
 */
export function crossOrganization(
  invoices: Report,
  notes: Report,
  organizationsOf: (r: Report) => Organization[] | undefined = (r) => r.organizations,
): string | undefined {
  const a = organizationsOf(invoices);
  const b = organizationsOf(notes);
  if (!a || !b || sameOrganizations(a, b)) return undefined;
  const names = (list: Organization[]) => list.map(describeOrganization).join(', ');
  return `Os dois relatórios são de organizações diferentes: as faturas de "${invoices.name}" vêm de ${names(a)} e as NFS-e de "${notes.name}" vêm de ${names(b)}. Compará-los diria que nenhuma fatura tem nota: escolha um relatório de NFS-e da mesma empresa das faturas.`;
}

/** The child sheet a need joins, read; null when the report's sheet has none. */
function readChild(deps: ReadDeps, need: SourceNeed, report: Report, sheet: SheetPort): SourceTable | null {
  const child = need.child!;
  const def = tableSpec(listing(need.listing)).children.find((c) => c.field === child.field)!;
  const found = findChildSheet(deps.book, sheet.id, child.field, childSheetName(report.sheetName, def));
  return found ? readSource(found, child.columns) : null;
}

/**
 * The reports of a dashboard as its kind needs them: each report and its sheet (a UserError says which is gone),
 * then the kind's refusal of the reports together, and only then their columns.
 */
export function readSources(deps: ReadDeps, ids: Partial<Record<SourceField, string>>, kind: Pick<PanelKind, 'sources' | 'refuse'>): Source[] {
  const found = kind.sources.map((need) => {
    const report = reportOf(deps, ids[need.field], need.role);
    return { need, report, sheet: sourceSheet(deps, report, need.role) };
  });
  const refused = kind.refuse?.(found.map((f) => f.report));
  if (refused) throw new UserError(refused);
  return found.map(({ need, report, sheet }) => ({
    report,
    sheet,
    table: readSource(sheet, need.columns),
    labels: labelsOf(report),
    asked: deps.asked(report),
    ...(need.child ? { child: readChild(deps, need, report, sheet) } : {}),
  }));
}
