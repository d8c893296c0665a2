/**
 * Fluxo de caixa: receipts and payments of paid transactions by month of
 * payment (the months the report covers), and by plano de contas from the
 * transactions' child sheet.
 */
import { addMonths, competencia, type Day, type Month, monthIndex, parseDay, type Zone } from '../../../api/calendar';
import type { FilterValues } from '../../../api/filters';
import type { Report } from '../../reports/reports';
import type { CellValue } from '../../sheets/table';
import { MONEY, TEXT } from '../page';
import { cents, col, companies, isTrue, lastTwelve, missing, money, monthOf, rowsOf, type SourceTable, text, type Today } from '../sources';
import { type Figures, figuresKind } from './figures-page';

const COLUMNS = ['idTransacao', 'tipoTransacao', 'tipoOperacao', 'valor', 'dataPagamento', 'isQuitado'];

/** The months a report covers, from its date filters: first and last, either open. */
export interface MonthSpan {
  from?: Month;
  to?: Month;
}

/** Date filters that bound a report, in the order they say when money moved: payment first, then due date. */
const SPAN_FILTERS = [
  ['dataPagamentoInicial', 'dataPagamentoFinal'],
  ['dataVencimentoInicial', 'dataVencimentoFinal'],
] as const;

/** The months a report covers, from the date filters its last run asked (a 90-day report: those 3 or 4 months); none without them. */
function reportSpan(report: Report, filters: FilterValues, now: number, zone: Zone): MonthSpan | undefined {
  const at = new Date(report.lastRun?.startedAt ?? now);
  const month = (name: string): Month | undefined => {
    const day = typeof filters[name] === 'string' ? parseDay(filters[name] as string) : null;
    return day?.ok ? { year: day.value.year, month: day.value.month } : undefined;
  };
  for (const [first, last] of SPAN_FILTERS) {
    // Without an end, the report reaches the day it ran.
    const span = { from: month(first), to: month(last) ?? zone.wall(at) };
    if (filters[first] !== undefined || filters[last] !== undefined) return span;
  }
  return undefined;
}

/** `first`..`last` as competências, oldest first. */
function monthsBetween(first: number, last: number): string[] {
  return Array.from({ length: Math.max(0, last - first + 1) }, (_, i) => competencia(addMonths({ year: 0, month: 1 }, first + i)));
}

const indexOf = (m: Month): number => m.year * 12 + m.month - 1;

/**
 * The months the table shows. Without a span: of the last 12, from the first to the last that hold a payment (the
 * current one when none does). With one: its months (an open end is today's month), stretched to any month that holds
 * a payment, the latest 12 at most: a month without payments shows 0,00 only inside what the report covers.
 */
function shownMonths(paid: ReadonlySet<string>, today: Day, span: MonthSpan | undefined): string[] {
  const twelve = lastTwelve(today);
  const held = twelve.filter((m) => paid.has(m));
  if (!span?.from && !span?.to) return held.length ? twelve.slice(twelve.indexOf(held[0]), twelve.indexOf(held[held.length - 1]) + 1) : twelve.slice(-1);
  const paidAt = [...paid].map(monthIndex);
  const to = indexOf(span.to ?? today);
  const end = Math.max(to, ...paidAt);
  const start = Math.min(span.from ? indexOf(span.from) : to, ...paidAt);
  return monthsBetween(Math.max(start, end - 11), end);
}

/** The second table: the shown months' transactions by plano de contas, from the child sheet. */
function byPlan(plans: SourceTable, monthOfPaid: ReadonlyMap<string, string>): CellValue[][] {
  const pid = col(plans, 'idTransacao');
  const pname = col(plans, 'planoConta');
  const pvalue = col(plans, 'valor');
  const pop = col(plans, 'tipoOperacao');
  const child = companies(plans);
  const sums = new Map<string, { in: number; out: number }>();
  for (const r of rowsOf(plans)) {
    if (!monthOfPaid.has(`${child.of(r)}\u0000${text(pid[r])}`)) continue;
    const name = text(pname[r]) || '(sem plano de contas)';
    let p = sums.get(name);
    if (!p) sums.set(name, (p = { in: 0, out: 0 }));
    if (text(pop[r]).toUpperCase() === 'C') p.in += cents(pvalue[r]);
    else p.out += cents(pvalue[r]);
  }
  return [...sums.entries()].sort((a, b) => a[0].localeCompare(b[0], 'pt-BR')).map(([name, p]) => [name, money(p.in), money(p.out), money(p.in - p.out)]);
}

export function cashFlow(src: SourceTable, plans: SourceTable | null, today: Today, labels: Record<string, string> = {}, span?: MonthSpan): Figures {
  const id = col(src, 'idTransacao');
  const kind = col(src, 'tipoTransacao');
  const op = col(src, 'tipoOperacao');
  const valor = col(src, 'valor');
  const paidOn = col(src, 'dataPagamento');
  const paid = col(src, 'isQuitado');
  const { of } = companies(src);
  const inC = new Map<string, number>();
  const outC = new Map<string, number>();
  /** Transaction (by company and id) → month of payment, for the plano de contas split. */
  const paidMonth = new Map<string, string>();
  for (const r of rowsOf(src)) {
    if (!isTrue(paid[r]) || text(kind[r]).toUpperCase() === 'T') continue;
    const m = monthOf(paidOn[r], today.zone);
    if (m === null) continue;
    const credit = text(op[r]).toUpperCase() === 'C';
    (credit ? inC : outC).set(m, ((credit ? inC : outC).get(m) ?? 0) + cents(valor[r]));
    paidMonth.set(`${of(r)}\u0000${text(id[r])}`, m);
  }
  const months = shownMonths(new Set(paidMonth.values()), today.day, span);
  const shown = new Set(months);
  const monthOfPaid = new Map([...paidMonth].filter(([, m]) => shown.has(m)));
  const rows: CellValue[][] = months.map((m) => [m, money(inC.get(m) ?? 0), money(outC.get(m) ?? 0), money((inC.get(m) ?? 0) - (outC.get(m) ?? 0))]);
  const sum = (map: Map<string, number>) => months.reduce((a, m) => a + (map.get(m) ?? 0), 0);
  rows.push(['Total', money(sum(inC)), money(sum(outC)), money(sum(inC) - sum(outC))]);
  const notes = missing(src, COLUMNS, labels);
  const figures: Figures = {
    table: { title: 'Recebimentos e pagamentos por mês', header: ['Mês', 'Recebimentos', 'Pagamentos', 'Saldo'], rows, formats: [TEXT, MONEY, MONEY, MONEY] },
    chart: {
      type: 'COLUMN',
      title: 'Fluxo de caixa por mês (recebimentos e pagamentos)',
      rows: months.length,
      columns: 3,
      options: { 'legend.position': 'bottom' },
    },
    counted: monthOfPaid.size,
    notes,
  };
  if (!plans) {
    notes.push('A aba de planos de conta das transações não foi encontrada: o detalhe por plano de contas aparece depois de uma importação com ela.');
    return figures;
  }
  figures.detail = {
    title: 'Por plano de contas (mesmos meses)',
    header: ['Plano de contas', 'Recebimentos', 'Pagamentos', 'Saldo'],
    rows: byPlan(plans, monthOfPaid),
    formats: [TEXT, MONEY, MONEY, MONEY],
  };
  return figures;
}

export const fluxoCaixa = figuresKind({
  title: 'Fluxo de caixa por plano de contas',
  counts:
    'transações quitadas (sem transferências entre contas), pelo mês do pagamento, nos meses que o relatório cobre (pelos filtros de data de pagamento ou de vencimento; sem eles, do primeiro ao último mês com pagamento; no máximo 12)',
  sources: [
    {
      field: 'reportId',
      listing: 'transacoes',
      role: 'de origem',
      columns: COLUMNS,
      child: { field: 'planosConta', columns: ['idTransacao', 'planoConta', 'valor', 'tipoOperacao'] },
    },
  ],
  compute: ({ sources: [main], today, now }) =>
    cashFlow(main.table, main.child ?? null, today, main.labels, reportSpan(main.report, main.asked, now, today.zone)),
});
