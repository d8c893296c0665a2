/**
 * Building the Fechamento da competência on its own sheet: the three reports'
 * sheets are read by column metadata, the figures laid out with one column
 * block per company, and below them the rows behind each conference line,
 * rewritten on every refresh (never a copy left to drift).
 */
import { addMonths, competencia as monthText } from '../../api/calendar';
import { UserError } from '../../api/user-error';
import { plural } from '../../api/words';
import { bounded, MESSAGE_MAX } from '../bounds';
import { sameOrganizations } from '../organizations';
import type { Report } from '../reports';
import type { SheetPort } from '../sheet-port';
import type { CellValue } from '../table';
import { CHARGE_MATCH, type CheckKey, type ClosingFigures, type ClosingSource, closing, CLOSING_NEEDS } from './closing';
import { INTEGER, LIST_MAX, MONEY, moneyText, TEXT, type Today } from './figures';
import type { DashboardSheetPort } from './port';
import {
  crossOrganization,
  type DashboardDeps,
  dashboardSheet,
  describeFilters,
  labelsOf,
  notRefreshed,
  partialNotes,
  readSource,
  reportOf,
  sourceSheet,
  stamp,
  TABLE_ROW,
  writeTable,
} from './refresh';
import type { Dashboard } from './store';

const ROLES: Record<ClosingSource, string> = { faturas: 'de faturas', nfse: 'de NFS-e', cobrancas: 'de cobranças' };

/** The competência before today's, in the spreadsheet's zone. */
export function lastMonth(deps: Pick<DashboardDeps, 'zone' | 'now'>): string {
  const w = deps.zone.wall(new Date(deps.now()));
  return monthText(addMonths({ year: w.year, month: w.month }, -1));
}

const reportIdOf = (d: Dashboard): Record<ClosingSource, string | undefined> => ({
  faturas: d.reportId,
  nfse: d.secondReportId,
  cobrancas: d.chargesReportId,
});

/** Why the charges report cannot be closed with the invoices (another organization); undefined when it can, or is unknown. */
function chargesElsewhere(invoices: Report, charges: Report): string | undefined {
  const a = invoices.organizations;
  const b = charges.organizations;
  if (!a || !b || sameOrganizations(a, b)) return undefined;
  return `Os relatórios de faturas "${invoices.name}" e de cobranças "${charges.name}" são de organizações diferentes: escolha relatórios da mesma empresa (ou das mesmas empresas).`;
}

interface Read {
  figures: ClosingFigures;
  reports: Record<ClosingSource, Report>;
  sheets: Record<ClosingSource, SheetPort>;
}

/** The three reports read once, and the close computed from them. */
export function computeClosing(deps: DashboardDeps, d: Dashboard): Read {
  const ids = reportIdOf(d);
  const reports = {} as Record<ClosingSource, Report>;
  const sheets = {} as Record<ClosingSource, SheetPort>;
  for (const source of ['faturas', 'nfse', 'cobrancas'] as const) {
    reports[source] = reportOf(deps, ids[source], ROLES[source]);
    sheets[source] = sourceSheet(deps, reports[source], ROLES[source]);
  }
  const across = crossOrganization(reports.faturas, reports.nfse) ?? chargesElsewhere(reports.faturas, reports.cobrancas);
  if (across) throw new UserError(across);
  const tables = {
    faturas: readSource(sheets.faturas, CLOSING_NEEDS.faturas),
    nfse: readSource(sheets.nfse, CLOSING_NEEDS.nfse),
    cobrancas: readSource(sheets.cobrancas, CLOSING_NEEDS.cobrancas),
  };
  const consolidated = Object.values(tables).map((t) => t.column('empresa') !== undefined);
  if (consolidated.some((c) => c !== consolidated[0]))
    throw new UserError(
      'Os três relatórios do fechamento precisam ser todos de uma empresa ou todos consolidados (com a coluna Empresa): escolha relatórios do mesmo tipo.',
    );
  const w = deps.zone.wall(new Date(deps.now()));
  const today: Today = { day: { year: w.year, month: w.month, day: w.day }, zone: deps.zone };
  const labels = { faturas: labelsOf(reports.faturas), nfse: labelsOf(reports.nfse), cobrancas: labelsOf(reports.cobrancas) };
  return { figures: closing(tables, d.competencia ?? lastMonth(deps), today, labels), reports, sheets };
}

/** The figures table: a label column, then count and value per company (and the total when consolidated), then where each check's rows are. */
function figuresTable(f: ClosingFigures, where: Map<CheckKey, string>) {
  const blocks = f.consolidated ? [...f.companies, 'Total'] : [''];
  const header = ['Item', ...blocks.flatMap((name) => (name ? [`${name} · qtde.`, `${name} · valor`] : ['Quantidade', 'Valor'])), 'Linhas'];
  const rows: CellValue[][] = [];
  const bold: number[] = [];
  for (const section of f.sections) {
    bold.push(rows.length);
    rows.push([section.title, ...header.slice(1).map(() => '')]);
    for (const line of section.lines) {
      const tallies = f.consolidated
        ? [...line.tallies, line.tallies.reduce((t, x) => ({ count: t.count + x.count, cents: t.cents + x.cents }), { count: 0, cents: 0 })]
        : line.tallies;
      rows.push([line.label, ...tallies.flatMap((t) => [t.count, t.cents / 100]), line.check ? (where.get(line.check) ?? '') : '']);
    }
  }
  const formats = [TEXT, ...blocks.flatMap(() => [INTEGER, MONEY]), TEXT];
  return { title: `Fechamento da competência ${f.competencia}`, header, rows, formats, bold };
}

/** Builds or refreshes a Fechamento now; the stored dashboard comes back with its sheet and last refresh. */
export function refreshClosing(deps: DashboardDeps, d: Dashboard): Dashboard {
  const sheet = dashboardSheet(deps, d);
  const at = deps.now();
  let read: Read;
  try {
    read = computeClosing(deps, d);
  } catch (err) {
    return notRefreshed(deps, d, sheet, err instanceof Error ? err.message : String(err));
  }
  const { figures: f, reports, sheets } = read;
  sheet.removePivots();
  for (const id of sheet.chartIds()) sheet.removeChart(id);
  sheet.reset();
  const partial = partialNotes(Object.values(reports).map((report) => ({ report })));
  const source = (s: ClosingSource) =>
    `${s === 'faturas' ? 'faturas' : s === 'nfse' ? 'NFS-e' : 'cobranças'}: relatório "${reports[s].name}" (aba "${sheets[s].name()}")`;
  const all = ['faturas', 'nfse', 'cobrancas'] as const;
  const header = [
    [`Fechamento da competência ${f.competencia}`],
    [`Fontes: ${all.map(source).join('; ')}.`],
    [`Filtros dos relatórios: ${all.map((s) => `${ROLES[s].slice(3)}: ${describeFilters(reports[s])}`).join('; ')}.`],
    [
      `Atualizado em ${stamp(deps, at)} · ${plural(f.counted, 'registro considerado', 'registros considerados')} · atualiza sozinho a cada atualização de um dos três relatórios.`,
    ],
    [`Como casa: NFS-e com a fatura pelo ID da fatura (da mesma empresa); ${CHARGE_MATCH}.`],
    [[...partial, ...f.notes].join(' ') || 'Todas as notas da competência foram comparadas com a sua fatura.'],
  ];
  sheet.ensureSize(TABLE_ROW + 2, 1);
  sheet.setFormats(1, 1, header.length, [TEXT]);
  sheet.write(1, 1, header);
  sheet.setBold(1, 1, 1);
  // Where each check's rows go, below the figures: known before the table is written, since its size is.
  const lines = f.sections.reduce((t, s) => t + 1 + s.lines.length, 0);
  let row = TABLE_ROW + 2 + lines + 2;
  const where = new Map<CheckKey, string>();
  const blocks = f.checks.map((c) => {
    const shown = c.list.slice(0, LIST_MAX);
    const block = { check: c, at: row, shown };
    const first = row + 2;
    where.set(
      c.key,
      shown.length === 0 ? 'nenhuma' : shown.length === 1 ? `linha ${first} desta aba` : `linhas ${first}–${first + shown.length - 1} desta aba`,
    );
    row += 3 + shown.length;
    return block;
  });
  // The grid grows once to hold every block: a block's title row is written before its table grows the sheet.
  sheet.ensureSize(row, Math.max(...f.checks.map((c) => c.header.length)));
  const table = figuresTable(f, where);
  sheet.setColumnWidths?.([330, ...table.header.slice(1).map(() => 120)]);
  writeTable(sheet, TABLE_ROW, table);
  for (const b of table.bold) sheet.setBold(TABLE_ROW + 2 + b, 1, 1);
  for (const { check, at: blockRow, shown } of blocks) writeCheck(sheet, blockRow, check, shown);
  return deps.dashboards.save({
    ...d,
    sheetId: sheet.id,
    sheetName: sheet.name(),
    chartIds: [],
    lastRefresh: { at, ok: true, counted: f.counted, ...(partial.length ? { message: bounded(partial.join(' '), MESSAGE_MAX) } : {}) },
  });
}

function writeCheck(sheet: DashboardSheetPort, row: number, check: ClosingFigures['checks'][number], shown: CellValue[][]): void {
  const total = check.tallies.reduce((t, x) => t + x.cents, 0);
  const more = check.rows.length > shown.length ? ` (a lista mostra as ${LIST_MAX} primeiras; Ver linhas em Painéis seleciona todas)` : '';
  writeTable(sheet, row, {
    title: `${check.title}: ${plural(check.rows.length, 'linha', 'linhas')} · ${moneyText(total)}${more}`,
    header: check.header,
    rows: shown,
    formats: check.formats,
  });
}

/** Sheet rows (1-based) of a conference line's records in their report's sheet, and that sheet. */
export function checkRows(deps: DashboardDeps, d: Dashboard, key: CheckKey): { sheet: SheetPort; rows: number[]; title: string } {
  const { figures, sheets } = computeClosing(deps, d);
  const check = figures.checks.find((c) => c.key === key);
  if (!check) throw new UserError('Esta linha de conferência não existe: atualize a lista de painéis.');
  return { sheet: sheets[check.source], rows: check.rows.map((r) => r + 2), title: check.title };
}

/** Faturas sem NFS-e of the close: the invoices to issue, as they are in the invoices report's sheet now. */
export function closingInvoicesToIssue(deps: DashboardDeps, d: Dashboard): { sheet: SheetPort; ids: Array<{ empresa: string; id: number }> } {
  const { figures, sheets } = computeClosing(deps, d);
  return { sheet: sheets.faturas, ids: figures.invoices };
}
