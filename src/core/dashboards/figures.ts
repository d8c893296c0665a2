/**
 * The figures of each dashboard, computed by the add-on from a report's
 * columns (exact sums in cents, deterministic order), never by formulas the
 * user could break. Columns come by field key, as the report sheet's column
 * metadata names them; the consolidated reports' first column is `empresa`.
 */
import { addMonths, competencia, type Day, type Month, monthIndex, type Zone } from '../../api/calendar';
import { type CellValue, MONTH_COLUMNS } from '../table';
import type { DashboardKind } from './kinds';
import { plural } from '../../api/words';

/** The company column of a consolidated report: each row's company, by its connection's name. */
export const EMPRESA = 'empresa';

/** Values of a report sheet's columns, by field key (its data rows, in sheet order); undefined for a column the sheet lacks. */
export interface SourceTable {
  column(key: string): readonly CellValue[] | undefined;
  rows: number;
}

export type ChartKind = 'COLUMN' | 'BAR' | 'LINE' | 'PIE' | 'TABLE';

export interface TablePlan {
  title: string;
  header: string[];
  rows: CellValue[][];
  /** One number format per column. */
  formats: string[];
}

export interface ChartPlan {
  type: ChartKind;
  title: string;
  /** The chart draws the table's header and its first `rows` rows, first `columns` columns. */
  rows: number;
  columns: number;
  options: Record<string, string | number | boolean>;
}

/** A pivot table over the report sheet itself, by field keys (the shell turns them into columns). */
export interface PivotPlan {
  title: string;
  rowKey: string;
  columnKey?: string;
  valueKey: string;
  valueName: string;
  /** Only rows whose `key` column shows one of `values`. */
  visible?: { key: string; values: string[] };
}

export interface Figures {
  table: TablePlan;
  chart: ChartPlan;
  /** A second table below the first (Fluxo de caixa: by plano de contas). */
  detail?: TablePlan;
  pivot?: PivotPlan;
  /** Records the figures counted. */
  counted: number;
  /** What the reader should know (a missing column, a list cut short). */
  notes: string[];
  /** Faturas sem NFS-e: each invoice by company (empty for one company) and id. */
  invoices?: Array<{ empresa: string; id: number }>;
}

/** Which field keys each dashboard reads from its report's sheet, its second report's, and the child sheet it joins. */
export const NEEDS: Record<DashboardKind, { main: string[]; second?: string[]; child?: { field: string; keys: string[] } }> = {
  vencimentos: { main: ['valor', 'dataVencimento', 'isQuitado', 'situacao'] },
  faturamento: { main: ['competencia', 'valorTotal', 'statusFatura'] },
  inadimplencia: { main: ['idCliente', 'nomeFantasia', 'razaoSocial', 'valor', 'dataVencimento', 'isQuitado', 'situacao'] },
  'sem-nfse': { main: ['idFatura', 'numero', 'nomeCliente', 'competencia', 'valorTotal', 'statusFatura'], second: ['idFatura'] },
  'fluxo-caixa': {
    main: ['idTransacao', 'tipoTransacao', 'tipoOperacao', 'valor', 'dataPagamento', 'isQuitado'],
    child: { field: 'planosConta', keys: ['idTransacao', 'planoConta', 'valor', 'tipoOperacao'] },
  },
  // Its three reports' fields are closing.ts's.
  fechamento: { main: [] },
};

export const MONEY = '#,##0.00';
export const INTEGER = '0';
export const TEXT = '@';

export const BUCKETS = ['A vencer', '1–30 dias', '31–60 dias', '61–90 dias', 'Mais de 90 dias'] as const;

/** Whole days since year 0 of a calendar day, so that days subtract. */
export const dayNumber = (d: Day): number => Math.round(Date.UTC(d.year, d.month - 1, d.day) / 86_400_000);

export interface Today {
  day: Day;
  zone: Zone;
}

/** A date cell as a Date (from the script's realm or ours, so known by its getTime); null for a blank or non-date cell. */
function asDate(value: CellValue | undefined): Date | null {
  return typeof (value as Partial<Date> | null | undefined)?.getTime === 'function' ? (value as Date) : null;
}

/** The calendar day a date cell shows in the spreadsheet's zone; null for a blank or non-date cell. */
export function dayOf(value: CellValue | undefined, zone: Zone): number | null {
  const date = asDate(value);
  return date ? dayNumber(zone.wall(date)) : null;
}

export const cents = (v: CellValue | undefined): number => (Number.isFinite(v) ? Math.round((v as number) * 100) : 0);
export const money = (c: number): number => c / 100;

/** An amount in cents as money is written in Brazil, in text: "R$ 1.234,56", "-R$ 0,50". */
export function moneyText(c: number): string {
  const whole = String(Math.floor(Math.abs(c) / 100)).replace(/\B(?=(\d{3})+$)/g, '.');
  return `${c < 0 ? '-' : ''}R$ ${whole},${String(Math.abs(c) % 100).padStart(2, '0')}`;
}
export const text = (v: CellValue | undefined): string => (v === undefined || v === null ? '' : v instanceof Date ? v.toISOString() : String(v)).trim();
/** A checkbox's true, or the Sim of a yes/no column. */
export const isTrue = (v: CellValue | undefined): boolean => ['sim', 'true'].includes(text(v).toLowerCase());

/** The data rows' indexes, first to last. */
export const rowsOf = (src: SourceTable): number[] => Array.from({ length: src.rows }, (_, r) => r);

/** An empty column stands for a missing one, so each figure reads every row the same way. */
export function col(src: SourceTable, key: string): readonly CellValue[] {
  return src.column(key) ?? [];
}

const CLOSED_CHARGE = new Set(['CANCELADA', 'CANCELADO', 'BAIXA_POR_PERDA', 'BAIXADO']);

/** An open charge: not paid, not cancelled, not written off. */
export function openCharge(paid: CellValue | undefined, situation: CellValue | undefined): boolean {
  return !isTrue(paid) && !CLOSED_CHARGE.has(text(situation).toUpperCase());
}

/** Each open charge with a due date: its row and days past due today (0 or less: not due yet). */
function openCharges(src: SourceTable, today: Today): Array<{ row: number; late: number }> {
  const venc = col(src, 'dataVencimento');
  const paid = col(src, 'isQuitado');
  const situation = col(src, 'situacao');
  const todayNumber = dayNumber(today.day);
  const out: Array<{ row: number; late: number }> = [];
  for (const r of rowsOf(src)) {
    if (!openCharge(paid[r], situation[r])) continue;
    const due = dayOf(venc[r], today.zone);
    if (due !== null) out.push({ row: r, late: todayNumber - due });
  }
  return out;
}

function bucketOf(daysLate: number): number {
  if (daysLate <= 0) return 0;
  if (daysLate <= 30) return 1;
  if (daysLate <= 60) return 2;
  if (daysLate <= 90) return 3;
  return 4;
}

/** Companies in first-seen order; one unnamed company when the sheet has no `empresa` column. */
export function companies(src: SourceTable): { names: string[]; of: (row: number) => string; consolidated: boolean } {
  const column = src.column(EMPRESA);
  if (!column) return { names: [''], of: () => '', consolidated: false };
  const names: string[] = [];
  const seen = new Set<string>();
  for (const v of column) {
    const name = text(v);
    if (!seen.has(name)) {
      seen.add(name);
      names.push(name);
    }
  }
  return { names, of: (row) => text(column[row]), consolidated: true };
}

export function missing(src: SourceTable, keys: readonly string[], labels: Record<string, string>): string[] {
  return keys.filter((k) => !src.column(k)).map((k) => `A coluna ${labels[k] ?? k} não está na aba do relatório: refaça a importação para ter esta coluna.`);
}

/** 1. Contas a receber por faixa de vencimento: open charges by days past due, per company when consolidated. */
export function receivablesByAge(src: SourceTable, today: Today, labels: Record<string, string> = {}): Figures {
  const valor = col(src, 'valor');
  const { names, of, consolidated } = companies(src);
  const sums = names.map(() => BUCKETS.map(() => 0));
  const counts = BUCKETS.map(() => 0);
  const charges = openCharges(src, today);
  for (const { row, late } of charges) {
    const b = bucketOf(late);
    sums[names.indexOf(of(row))][b] += cents(valor[row]);
    counts[b] += 1;
  }
  const counted = charges.length;
  const notes = missing(src, NEEDS.vencimentos.main, labels);
  if (consolidated) {
    const rows: CellValue[][] = BUCKETS.map((label, b) => [label, ...names.map((_, c) => money(sums[c][b])), money(sums.reduce((t, s) => t + s[b], 0))]);
    rows.push(['Total', ...names.map((_, c) => money(sums[c].reduce((a, x) => a + x, 0))), money(sums.flat().reduce((a, x) => a + x, 0))]);
    return {
      table: { title: 'Valor em aberto por faixa e empresa', header: ['Faixa', ...names, 'Total'], rows, formats: [TEXT, ...names.map(() => MONEY), MONEY] },
      chart: {
        type: 'COLUMN',
        title: 'Contas a receber por faixa de vencimento',
        rows: BUCKETS.length,
        columns: names.length + 1,
        options: { isStacked: true, 'legend.position': 'right' },
      },
      counted,
      notes,
    };
  }
  const rows: CellValue[][] = BUCKETS.map((label, b) => [label, money(sums[0][b]), counts[b]]);
  rows.push(['Total', money(sums[0].reduce((a, x) => a + x, 0)), counted]);
  return {
    table: { title: 'Valor em aberto por faixa', header: ['Faixa', 'Valor em aberto', 'Cobranças'], rows, formats: [TEXT, MONEY, INTEGER] },
    chart: { type: 'COLUMN', title: 'Contas a receber por faixa de vencimento', rows: BUCKETS.length, columns: 2, options: { 'legend.position': 'none' } },
    counted,
    notes,
  };
}

const MONTH_KEY = MONTH_COLUMNS.faturas!.key;

/** The last 12 competências, oldest first, ending with today's month. */
export function lastTwelve(today: Day): string[] {
  const now: Month = { year: today.year, month: today.month };
  return Array.from({ length: 12 }, (_, i) => competencia(addMonths(now, i - 11)));
}

/** 2. Faturamento por competência: invoices' total per competência, last 12 months, cancelled ones left out. */
export function billingByMonth(src: SourceTable, today: Today, labels: Record<string, string> = {}): Figures {
  const months = lastTwelve(today.day);
  const comp = col(src, 'competencia');
  const total = col(src, 'valorTotal');
  const status = col(src, 'statusFatura');
  const sums = new Map(months.map((m) => [m, 0]));
  const counts = new Map(months.map((m) => [m, 0]));
  let counted = 0;
  for (const r of rowsOf(src)) {
    const m = text(comp[r]);
    if (!sums.has(m) || text(status[r]).toUpperCase() === 'CANCELADA') continue;
    sums.set(m, (sums.get(m) ?? 0) + cents(total[r]));
    counts.set(m, (counts.get(m) ?? 0) + 1);
    counted += 1;
  }
  const rows: CellValue[][] = months.map((m) => [m, money(sums.get(m) ?? 0), counts.get(m) ?? 0]);
  rows.push(['Total', money([...sums.values()].reduce((a, x) => a + x, 0)), counted]);
  return {
    table: { title: 'Faturado por competência', header: ['Competência', 'Faturado', 'Faturas'], rows, formats: [TEXT, MONEY, INTEGER] },
    chart: { type: 'COLUMN', title: 'Faturamento por competência (últimos 12 meses)', rows: months.length, columns: 2, options: { 'legend.position': 'none' } },
    pivot: {
      title: 'Tabela dinâmica: valor total por competência e status (todas as faturas das 12 competências)',
      // The competência as a date: the pivot sorts its months by time, shown MM/AAAA as the filter names them.
      rowKey: MONTH_KEY,
      columnKey: 'statusFatura',
      valueKey: 'valorTotal',
      valueName: 'Valor total',
      visible: { key: MONTH_KEY, values: months },
    },
    counted,
    notes: missing(src, NEEDS.faturamento.main, labels),
  };
}

export const TOP_DEBTORS = 20;

/** 3. Inadimplência por cliente: the 20 largest overdue amounts (open charges past due), by client and company. */
export function overdueByClient(src: SourceTable, today: Today, labels: Record<string, string> = {}): Figures {
  const id = col(src, 'idCliente');
  const fantasy = col(src, 'nomeFantasia');
  const legal = col(src, 'razaoSocial');
  const valor = col(src, 'valor');
  const { of, consolidated } = companies(src);
  const byClient = new Map<string, { name: string; empresa: string; cents: number; count: number; worst: number }>();
  let counted = 0;
  for (const { row: r, late } of openCharges(src, today)) {
    if (late <= 0) continue;
    const key = `${of(r)}\u0000${text(id[r])}`;
    let c = byClient.get(key);
    if (!c) byClient.set(key, (c = { name: text(fantasy[r]) || text(legal[r]) || `Cliente ${text(id[r])}`, empresa: of(r), cents: 0, count: 0, worst: 0 }));
    c.cents += cents(valor[r]);
    c.count += 1;
    c.worst = Math.max(c.worst, late);
    counted += 1;
  }
  const top = [...byClient.values()].sort((a, b) => b.cents - a.cents || a.name.localeCompare(b.name, 'pt-BR')).slice(0, TOP_DEBTORS);
  const rows: CellValue[][] = top.map((c) => [c.name, money(c.cents), c.count, c.worst, ...(consolidated ? [c.empresa] : [])]);
  const notes = missing(src, ['idCliente', 'valor', 'dataVencimento', 'isQuitado', 'situacao'], labels);
  if (byClient.size > TOP_DEBTORS)
    notes.push(`${plural(byClient.size, 'cliente tem valores vencidos', 'clientes têm valores vencidos')}; aqui estão os ${TOP_DEBTORS} maiores.`);
  return {
    table: {
      title: `Os ${TOP_DEBTORS} maiores valores vencidos`,
      header: ['Cliente', 'Valor vencido', 'Cobranças vencidas', 'Maior atraso (dias)', ...(consolidated ? ['Empresa'] : [])],
      rows,
      formats: [TEXT, MONEY, INTEGER, INTEGER, ...(consolidated ? [TEXT] : [])],
    },
    chart: {
      type: 'BAR',
      title: 'Inadimplência por cliente (maiores valores vencidos)',
      rows: rows.length,
      columns: 2,
      options: { 'legend.position': 'none' },
    },
    counted,
    notes,
  };
}

/** Rows the dashboard lists at most; the count and the path to issue them cover every one. */
export const LIST_MAX = 2_000;

/** 4. Faturas sem NFS-e: invoices (not cancelled) whose id the NFS-e report does not hold, within the same company. */
export function invoicesWithoutNfse(invoices: SourceTable, nfse: SourceTable, labels: Record<string, string> = {}): Figures {
  const ids = col(invoices, 'idFatura');
  const numero = col(invoices, 'numero');
  const client = col(invoices, 'nomeCliente');
  const comp = col(invoices, 'competencia');
  const total = col(invoices, 'valorTotal');
  const status = col(invoices, 'statusFatura');
  const inv = companies(invoices);
  const notes = companies(nfse);
  const issued = new Set<string>();
  const nfseIds = col(nfse, 'idFatura');
  // A single-company NFS-e report answers for every company of the invoices only when the invoices are single-company too.
  // A blank id matches no invoice: an invoice's id is a number.
  for (const r of rowsOf(nfse)) issued.add(`${notes.of(r)}\u0000${text(nfseIds[r])}`);
  const rows: CellValue[][] = [];
  const list: Array<{ empresa: string; id: number }> = [];
  let owed = 0;
  for (const r of rowsOf(invoices)) {
    const id = ids[r];
    if (typeof id !== 'number' || text(status[r]).toUpperCase() === 'CANCELADA') continue;
    const empresa = inv.of(r);
    if (issued.has(`${notes.consolidated ? empresa : ''}\u0000${text(id)}`)) continue;
    list.push({ empresa, id });
    owed += cents(total[r]);
    if (rows.length < LIST_MAX)
      rows.push([id, numero[r] ?? '', text(client[r]), text(comp[r]), money(cents(total[r])), ...(inv.consolidated ? [empresa] : [])]);
  }
  const said = [...missing(invoices, NEEDS['sem-nfse'].main, labels), ...missing(nfse, ['idFatura'], labels)];
  if (list.length > LIST_MAX)
    said.push(`São ${plural(list.length, 'fatura', 'faturas')} sem NFS-e; a lista mostra as ${LIST_MAX} primeiras (a emissão em lote considera todas).`);
  return {
    table: {
      title: `${plural(list.length, 'fatura', 'faturas')} sem NFS-e · valor total ${moneyText(owed)}`,
      header: ['ID da fatura', 'Número', 'Cliente', 'Competência', 'Valor total', ...(inv.consolidated ? ['Empresa'] : [])],
      rows,
      formats: [INTEGER, INTEGER, TEXT, TEXT, MONEY, ...(inv.consolidated ? [TEXT] : [])],
    },
    chart: { type: 'TABLE', title: 'Faturas sem NFS-e', rows: rows.length, columns: inv.consolidated ? 6 : 5, options: { page: 'enable', pageSize: 20 } },
    counted: list.length,
    notes: said,
    invoices: list,
  };
}

/** The months a report covers, from its date filters: first and last, either open. */
export interface MonthSpan {
  from?: Month;
  to?: Month;
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

/** 5. Fluxo de caixa: receipts and payments of paid transactions by month of payment (the months the report covers), and by plano de contas. */
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
    const date = asDate(paidOn[r]);
    if (!date) continue;
    const w = today.zone.wall(date);
    const m = competencia({ year: w.year, month: w.month });
    const credit = text(op[r]).toUpperCase() === 'C';
    (credit ? inC : outC).set(m, ((credit ? inC : outC).get(m) ?? 0) + cents(valor[r]));
    paidMonth.set(`${of(r)}\u0000${text(id[r])}`, m);
  }
  const months = shownMonths(new Set(paidMonth.values()), today.day, span);
  const shown = new Set(months);
  const monthOf = new Map([...paidMonth].filter(([, m]) => shown.has(m)));
  const rows: CellValue[][] = months.map((m) => [m, money(inC.get(m) ?? 0), money(outC.get(m) ?? 0), money((inC.get(m) ?? 0) - (outC.get(m) ?? 0))]);
  const sum = (map: Map<string, number>) => months.reduce((a, m) => a + (map.get(m) ?? 0), 0);
  rows.push(['Total', money(sum(inC)), money(sum(outC)), money(sum(inC) - sum(outC))]);
  const notes = missing(src, NEEDS['fluxo-caixa'].main, labels);
  const figures: Figures = {
    table: { title: 'Recebimentos e pagamentos por mês', header: ['Mês', 'Recebimentos', 'Pagamentos', 'Saldo'], rows, formats: [TEXT, MONEY, MONEY, MONEY] },
    chart: {
      type: 'COLUMN',
      title: 'Fluxo de caixa por mês (recebimentos e pagamentos)',
      rows: months.length,
      columns: 3,
      options: { 'legend.position': 'bottom' },
    },
    counted: monthOf.size,
    notes,
  };
  if (!plans) {
    notes.push('A aba de planos de conta das transações não foi encontrada: o detalhe por plano de contas aparece depois de uma importação com ela.');
    return figures;
  }
  const pid = col(plans, 'idTransacao');
  const pname = col(plans, 'planoConta');
  const pvalue = col(plans, 'valor');
  const pop = col(plans, 'tipoOperacao');
  const child = companies(plans);
  const byPlan = new Map<string, { in: number; out: number }>();
  for (const r of rowsOf(plans)) {
    if (!monthOf.has(`${child.of(r)}\u0000${text(pid[r])}`)) continue;
    const name = text(pname[r]) || '(sem plano de contas)';
    let p = byPlan.get(name);
    if (!p) byPlan.set(name, (p = { in: 0, out: 0 }));
    if (text(pop[r]).toUpperCase() === 'C') p.in += cents(pvalue[r]);
    else p.out += cents(pvalue[r]);
  }
  const planRows: CellValue[][] = [...byPlan.entries()]
    .sort((a, b) => a[0].localeCompare(b[0], 'pt-BR'))
    .map(([name, p]) => [name, money(p.in), money(p.out), money(p.in - p.out)]);
  figures.detail = {
    title: 'Por plano de contas (mesmos meses)',
    header: ['Plano de contas', 'Recebimentos', 'Pagamentos', 'Saldo'],
    rows: planRows,
    formats: [TEXT, MONEY, MONEY, MONEY],
  };
  return figures;
}
