/**
 * Fechamento da competência: the month-end close of three reports (invoices,
 * NFS-e, charges), laid out with one column block per company, and below the
 * figures the rows behind each conference line, rewritten on every refresh
 * (never a copy left to drift).
 */
import { UserError } from '../../../api/user-error';
import { plural } from '../../../api/words';
import { sameOrganizations } from '../../connections/organizations';
import type { Report } from '../../reports/reports';
import type { CellValue } from '../../sheets/table';
import { describeFilters, INTEGER, LIST_MAX, MONEY, sourceText, TABLE_ROW, TEXT, updatedText, writeHead, writeTable } from '../page';
import type { Page, PanelKind } from '../panel';
import type { DashboardSheetPort } from '../port';
import { crossOrganization } from '../read';
import { companyOf } from '../company';
import type { FailedCompany } from '../../reports/reports';
import { absentCompanies, absentHeader, absentNote, EMPRESA, lastMonth, moneyText, totalOf } from '../sources';
import { type ClosingFigures, closing, CLOSING_NEEDS } from './fechamento/closing';
import { CHARGE_MATCH, CHECKS, type CheckKey, type CheckRows, type ClosingSource } from './fechamento/conference';

/** What a Fechamento needs beyond any dashboard's time at the end of a run: it reads three reports (a 50,000-invoice company takes about 82 s at the pessimistic cost model, npm run bench). */
export const CLOSING_EXTRA_MS = 60_000;

/** Its reports, in the order of its sources, as the head names them. */
const ORDER: readonly ClosingSource[] = ['faturas', 'nfse', 'cobrancas'];
const NAMES: Record<ClosingSource, string> = { faturas: 'faturas', nfse: 'NFS-e', cobrancas: 'cobranças' };

/** Why the charges report cannot be closed with the invoices (another organization); undefined when it can, or is unknown. */
function chargesElsewhere(invoices: Report, charges: Report): string | undefined {
  const a = invoices.organizations;
  const b = charges.organizations;
  if (!a || !b || sameOrganizations(a, b)) return undefined;
  return `Os relatórios de faturas "${invoices.name}" e de cobranças "${charges.name}" são de organizações diferentes: escolha relatórios da mesma empresa (ou das mesmas empresas).`;
}

const MIXED =
  'Os três relatórios do fechamento precisam ser todos de uma empresa ou todos consolidados (com a coluna Empresa): escolha relatórios do mesmo tipo.';

/** Reports of one company mixed with consolidated ones: their figures cannot stand in one table. */
const mixed = (reports: readonly Report[]): string | undefined => (reports.some((r) => !r.companies !== !reports[0].companies) ? MIXED : undefined);

/**
 * The figures table: a label column, then count and value per company (a company without data: one column that says
 * so; and the total, of the companies counted, when consolidated), then where each check's rows are.
 */
function figuresTable(f: ClosingFigures, where: Map<CheckKey, string>, absent: readonly FailedCompany[]) {
  const pair = (name: string) => (name ? [`${name} · qtde.`, `${name} · valor`] : ['Quantidade', 'Valor']);
  const blocks = f.consolidated ? f.companies.flatMap(pair) : pair('');
  const total = f.consolidated ? pair(totalOf(f.companies, absent)) : [];
  const header = ['Item', ...blocks, ...absent.map(absentHeader), ...total, 'Linhas'];
  const none = absent.map(() => 'sem dados');
  const rows: CellValue[][] = [];
  const bold: number[] = [];
  for (const section of f.sections) {
    bold.push(rows.length);
    rows.push([section.title, ...header.slice(1).map(() => '')]);
    for (const line of section.lines) {
      const sum = line.tallies.reduce((t, x) => ({ count: t.count + x.count, cents: t.cents + x.cents }), { count: 0, cents: 0 });
      const cells = (list: typeof line.tallies) => list.flatMap((t) => [t.count, t.cents / 100]);
      rows.push([line.label, ...cells(line.tallies), ...none, ...(f.consolidated ? cells([sum]) : []), line.check ? (where.get(line.check) ?? '') : '']);
    }
  }
  const money = (n: number) => Array.from({ length: n / 2 }, () => [INTEGER, MONEY]).flat();
  const formats = [TEXT, ...money(blocks.length), ...none.map(() => TEXT), ...money(total.length), TEXT];
  return { title: `Fechamento da competência ${f.competencia}`, header, rows, formats, bold };
}

function writeCheck(sheet: DashboardSheetPort, row: number, check: CheckRows, shown: CellValue[][]): void {
  const total = check.tallies.reduce((t, x) => t + x.cents, 0);
  const more = check.rows.length > shown.length ? ` (a lista mostra as ${LIST_MAX} primeiras; Ver linhas em Painéis seleciona todas)` : '';
  writeTable(sheet, row, {
    title: `${check.title}: ${plural(check.rows.length, 'linha', 'linhas')} · ${moneyText(total)}${more}`,
    header: check.header,
    rows: shown,
    formats: check.formats,
  });
}

/** The close on its sheet: no chart, the figures, then each conference line's rows. */
function writeClosing({ sheet, sources, stamp, partial }: Page, f: ClosingFigures): number[] {
  for (const id of sheet.chartIds()) sheet.removeChart(id);
  const company = f.consolidated ? undefined : companyOf(sources[0].report);
  const absent = f.consolidated
    ? absentCompanies(
        sources.map((s) => s.report),
        f.companies,
      )
    : [];
  writeHead(sheet, [
    `Fechamento da competência ${f.competencia}${company ? ` · ${company}` : ''}`,
    `Fontes: ${sources.map((s, i) => `${NAMES[ORDER[i]]}: ${sourceText(s)}`).join('; ')}.`,
    `Filtros dos relatórios: ${sources.map((s, i) => `${NAMES[ORDER[i]]}: ${describeFilters(s.report)}`).join('; ')}.`,
    updatedText(stamp, f.counted, 'de um dos três relatórios'),
    `Como casa: NFS-e com a fatura pelo ID da fatura (da mesma empresa); ${CHARGE_MATCH}.`,
    [
      ...partial,
      absentNote(
        f.consolidated
          ? absentCompanies(
              sources.map((s) => s.report),
              f.companies,
            )
          : [],
      ),
      ...f.notes,
    ]
      .filter(Boolean)
      .join(' ') || 'Todas as notas da competência foram comparadas com a sua fatura.',
  ]);
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
  const table = figuresTable(f, where, absent);
  sheet.setColumnWidths?.([330, ...table.header.slice(1).map(() => 120)]);
  writeTable(sheet, TABLE_ROW, table);
  for (const b of table.bold) sheet.setBold(TABLE_ROW + 2 + b, 1, 1);
  for (const { check, at, shown } of blocks) writeCheck(sheet, at, check, shown);
  return [];
}

export const fechamento: PanelKind<ClosingFigures> = {
  title: 'Fechamento da competência',
  counts:
    'faturas, NFS-e e cobranças da competência escolhida: faturamento por tipo, notas por status com ISS retido e a recolher por alíquota, e a conferência entre elas',
  sources: [
    { field: 'reportId', listing: 'faturas', role: 'de faturas', columns: CLOSING_NEEDS.faturas },
    { field: 'secondReportId', listing: 'nfse', role: 'de NFS-e', columns: CLOSING_NEEDS.nfse },
    { field: 'chargesReportId', listing: 'cobrancas', role: 'de cobranças', columns: CLOSING_NEEDS.cobrancas },
  ],
  competencia: true,
  extraMs: CLOSING_EXTRA_MS,
  refuse: ([invoices, notes, charges]) => mixed([invoices, notes, charges]) ?? crossOrganization(invoices, notes) ?? chargesElsewhere(invoices, charges),
  compute({ sources, today, competencia }) {
    const [faturas, nfse, cobrancas] = sources;
    const consolidated = sources.map((s) => s.table.column(EMPRESA) !== undefined);
    if (consolidated.some((c) => c !== consolidated[0])) throw new UserError(MIXED);
    const tables = { faturas: faturas.table, nfse: nfse.table, cobrancas: cobrancas.table };
    const labels = { faturas: faturas.labels, nfse: nfse.labels, cobrancas: cobrancas.labels };
    return closing(tables, competencia ?? lastMonth(today), today, labels);
  },
  write: writeClosing,
  invoices: (f) => f.invoices,
  lines: (Object.entries(CHECKS) as Array<[CheckKey, { label: string }]>).map(([key, { label }]) => ({ key, label })),
  lineRows(f, key) {
    const check = f.checks.find((c) => c.key === key);
    return check && { source: ORDER.indexOf(check.source), rows: check.rows, title: check.title };
  },
};
