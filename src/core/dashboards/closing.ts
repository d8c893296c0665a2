/**
 * Fechamento da competência: the month-end close of one company, or of each
 * company of consolidated reports, from three reports' columns (invoices,
 * NFS-e, charges). Every figure is a count and a sum in cents; every
 * conference line names the rows behind it, by source and data row.
 */
import type { CellValue } from '../table';
import { cents, col, companies, dayNumber, dayOf, isTrue, missing, money, openCharge, rowsOf, type SourceTable, text, type Today } from './figures';
import { plural } from '../../api/words';

/** Which field keys the close reads from each report. */
export const CLOSING_NEEDS = {
  faturas: ['idFatura', 'numero', 'nomeCliente', 'idCliente', 'competencia', 'valorTotal', 'statusFatura', 'tipoFatura'],
  nfse: [
    'idNotaFiscalServico',
    'idFatura',
    'competencia',
    'statusNotaFiscalServico',
    'numeroNotaFiscalServico',
    'nomeFantasia',
    'issRetido',
    'aliquota',
    'valorServico',
    'valorIss',
    'valorLiquidoNfse',
  ],
  cobrancas: ['idCobranca', 'idCliente', 'nomeFantasia', 'competencia', 'valor', 'isQuitado', 'situacao', 'dataVencimento'],
} as const;

export type ClosingSource = keyof typeof CLOSING_NEEDS;

/** The conference lines, each with the rows behind it. */
export type CheckKey = 'sem-nfse' | 'valor-diferente' | 'sem-numero' | 'sem-cobranca' | 'pagas' | 'a-vencer' | 'vencidas';

/** How an invoice and a charge are matched, said on the panel: the listings share no id, only client and competência. */
export const CHARGE_MATCH =
  'fatura e cobrança não têm ID em comum: uma cobrança (não cancelada) vale para uma fatura da mesma empresa, do mesmo cliente (ID do cliente) e da mesma competência, primeiro a de mesmo valor';

/** A count and a sum in cents. */
export interface Tally {
  count: number;
  cents: number;
}

export interface ClosingLine {
  label: string;
  /** One per company, in `companies` order. */
  tallies: Tally[];
  check?: CheckKey;
}

export interface ClosingSection {
  title: string;
  lines: ClosingLine[];
}

/** A conference line's rows: where they are in their report (0-based data rows) and what the panel lists of them. */
export interface CheckRows {
  key: CheckKey;
  title: string;
  source: ClosingSource;
  rows: number[];
  header: string[];
  formats: string[];
  list: CellValue[][];
  /** Per company, as in the conference line. */
  tallies: Tally[];
}

export interface ClosingFigures {
  competencia: string;
  companies: string[];
  consolidated: boolean;
  sections: ClosingSection[];
  checks: CheckRows[];
  notes: string[];
  counted: number;
  /** Faturas sem NFS-e: each invoice by company ('' for one company) and id, for Lançamentos em lote. */
  invoices: Array<{ empresa: string; id: number }>;
}

export interface ClosingSources {
  faturas: SourceTable;
  nfse: SourceTable;
  cobrancas: SourceTable;
}

const MONEY = '#,##0.00';
const INTEGER = '0';
const TEXT = '@';
const DATE = 'dd/mm/yyyy';

/** Per-company tallies, added to by row. */
class Tallies {
  readonly byCompany: Tally[];
  constructor(size: number) {
    this.byCompany = Array.from({ length: size }, () => ({ count: 0, cents: 0 }));
  }
  add(company: number, c: number): void {
    this.byCompany[company].count += 1;
    this.byCompany[company].cents += c;
  }
}

const percent = (v: number): string => `${v.toFixed(2).replace('.', ',')}%`;

/** Companies across the three reports, first seen first; one unnamed company when none has the `empresa` column. */
function allCompanies(src: ClosingSources): { names: string[]; of: Record<ClosingSource, (row: number) => number>; consolidated: boolean } {
  const each = { faturas: companies(src.faturas), nfse: companies(src.nfse), cobrancas: companies(src.cobrancas) };
  const consolidated = each.faturas.consolidated || each.nfse.consolidated || each.cobrancas.consolidated;
  const names = consolidated ? [...new Set([each.faturas, each.nfse, each.cobrancas].flatMap((c) => (c.consolidated ? c.names : [])))] : [''];
  const index = (c: { of: (row: number) => string }) => (row: number) => names.indexOf(c.of(row));
  return { names, of: { faturas: index(each.faturas), nfse: index(each.nfse), cobrancas: index(each.cobrancas) }, consolidated };
}

/** Builds the close of `competencia` (MM/YYYY) as of `today`. */
export function closing(src: ClosingSources, competencia: string, today: Today, labels: Record<ClosingSource, Record<string, string>>): ClosingFigures {
  const { names, of, consolidated } = allCompanies(src);
  const ctx: Ctx = { src, competencia, today, names, of, consolidated, notes: [] };
  for (const source of ['faturas', 'nfse', 'cobrancas'] as const) ctx.notes.push(...missing(src[source], CLOSING_NEEDS[source], labels[source]));
  const billing = billingSection(ctx);
  const notes = notesSection(ctx);
  const checks = conference(ctx, billing.live, notes.ofMonth);
  const sections = [billing.section, notes.section, checkSection(checks)];
  const empresa = (row: number) => (consolidated ? names[of.faturas(row)] : '');
  const ids = col(src.faturas, 'idFatura');
  const withoutNote = checks.find((c) => c.key === 'sem-nfse')!.rows;
  return {
    competencia,
    companies: names,
    consolidated,
    sections,
    checks,
    notes: ctx.notes,
    counted: billing.live.length + notes.ofMonth.length + checks.filter((c) => c.source === 'cobrancas').reduce((t, c) => t + c.rows.length, 0),
    invoices: withoutNote.map((r) => ({ empresa: empresa(r), id: ids[r] as number })),
  };
}

interface Ctx {
  src: ClosingSources;
  competencia: string;
  today: Today;
  names: string[];
  of: Record<ClosingSource, (row: number) => number>;
  consolidated: boolean;
  notes: string[];
}

const ofMonth = (ctx: Ctx, source: ClosingSource): number[] => {
  const comp = col(ctx.src[source], 'competencia');
  return rowsOf(ctx.src[source]).filter((r) => text(comp[r]) === ctx.competencia);
};

function billingSection(ctx: Ctx): { section: ClosingSection; live: number[] } {
  const f = ctx.src.faturas;
  const status = col(f, 'statusFatura');
  const tipo = col(f, 'tipoFatura');
  const total = col(f, 'valorTotal');
  const all = new Tallies(ctx.names.length);
  const byType = { RECORRENTE: new Tallies(ctx.names.length), AVULSA: new Tallies(ctx.names.length) };
  const cancelled = new Tallies(ctx.names.length);
  const live: number[] = [];
  let otherType = 0;
  for (const r of ofMonth(ctx, 'faturas')) {
    const c = ctx.of.faturas(r);
    if (text(status[r]).toUpperCase() === 'CANCELADA') {
      cancelled.add(c, cents(total[r]));
      continue;
    }
    live.push(r);
    all.add(c, cents(total[r]));
    const t = byType[text(tipo[r]).toUpperCase() as keyof typeof byType];
    if (t) t.add(c, cents(total[r]));
    else otherType += 1;
  }
  if (otherType) ctx.notes.push(`${plural(otherType, 'fatura não é', 'faturas não são')} RECORRENTE nem AVULSA: entram no total, não nas linhas por tipo.`);
  return {
    live,
    section: {
      title: 'Faturamento',
      lines: [
        { label: 'Faturas da competência (sem as canceladas)', tallies: all.byCompany },
        { label: 'Recorrentes', tallies: byType.RECORRENTE.byCompany },
        { label: 'Avulsas', tallies: byType.AVULSA.byCompany },
        { label: 'Canceladas (fora do total)', tallies: cancelled.byCompany },
      ],
    },
  };
}

function notesSection(ctx: Ctx): { section: ClosingSection; ofMonth: number[] } {
  const n = ctx.src.nfse;
  const status = col(n, 'statusNotaFiscalServico');
  const numero = col(n, 'numeroNotaFiscalServico');
  const retido = col(n, 'issRetido');
  const rate = col(n, 'aliquota');
  const servico = col(n, 'valorServico');
  const iss = col(n, 'valorIss');
  const liquido = col(n, 'valorLiquidoNfse');
  const size = ctx.names.length;
  const all = new Tallies(size);
  const authorized = new Tallies(size);
  const numbered = new Tallies(size);
  const unnumbered = new Tallies(size);
  const withheld = new Tallies(size);
  const due = new Tallies(size);
  const net = new Tallies(size);
  const rates = new Map<number, { withheld: Tallies; due: Tallies }>();
  const rows = ofMonth(ctx, 'nfse');
  let otherStatus = 0;
  for (const r of rows) {
    const c = ctx.of.nfse(r);
    const s = text(status[r]).toUpperCase();
    all.add(c, cents(servico[r]));
    if (s === 'AUTORIZADA') authorized.add(c, cents(servico[r]));
    else if (s === 'EMITIDA') (text(numero[r]) ? numbered : unnumbered).add(c, cents(servico[r]));
    else otherStatus += 1;
    const aliquota = Number.isFinite(rate[r]) ? (rate[r] as number) : 0;
    let byRate = rates.get(aliquota);
    if (!byRate) rates.set(aliquota, (byRate = { withheld: new Tallies(size), due: new Tallies(size) }));
    const w = isTrue(retido[r]);
    (w ? withheld : due).add(c, cents(iss[r]));
    (w ? byRate.withheld : byRate.due).add(c, cents(iss[r]));
    net.add(c, cents(liquido[r]));
  }
  if (otherStatus)
    ctx.notes.push(`${plural(otherStatus, 'nota tem', 'notas têm')} status diferente de AUTORIZADA e EMITIDA: entram nos totais, não nas linhas por status.`);
  const sorted = [...rates.entries()].sort((a, b) => a[0] - b[0]);
  return {
    ofMonth: rows,
    section: {
      title: 'NFS-e',
      lines: [
        { label: 'Notas da competência · valor dos serviços', tallies: all.byCompany },
        { label: 'AUTORIZADA', tallies: authorized.byCompany },
        { label: 'EMITIDA com número', tallies: numbered.byCompany },
        { label: 'EMITIDA sem número', tallies: unnumbered.byCompany },
        { label: 'ISS retido pelo tomador', tallies: withheld.byCompany },
        ...sorted.map(([a, t]) => ({ label: `   retido à alíquota de ${percent(a)}`, tallies: t.withheld.byCompany })),
        { label: 'ISS a recolher', tallies: due.byCompany },
        ...sorted.map(([a, t]) => ({ label: `   a recolher à alíquota de ${percent(a)}`, tallies: t.due.byCompany })),
        { label: 'Valor líquido', tallies: net.byCompany },
      ],
    },
  };
}

/** The conference lines as the panel names them. */
export const CHECK_LABELS: Record<CheckKey, string> = {
  'sem-nfse': 'Faturas sem NFS-e',
  'valor-diferente': 'NFS-e com valor diferente da fatura (diferença: nota − fatura)',
  'sem-numero': 'Notas ainda sem número',
  'sem-cobranca': 'Faturas sem cobrança',
  pagas: 'Cobranças da competência pagas',
  'a-vencer': 'Cobranças da competência em aberto, a vencer',
  vencidas: 'Cobranças da competência vencidas',
};

function checkSection(checks: CheckRows[]): ClosingSection {
  return { title: 'Conferência', lines: checks.map((c) => ({ label: CHECK_LABELS[c.key], tallies: c.tallies, check: c.key })) };
}

function conference(ctx: Ctx, live: number[], notesOfMonth: number[]): CheckRows[] {
  const f = ctx.src.faturas;
  const n = ctx.src.nfse;
  const fIds = col(f, 'idFatura');
  const fTotal = col(f, 'valorTotal');
  const nInvoice = col(n, 'idFatura');
  const nServico = col(n, 'valorServico');
  const key = (company: number, id: CellValue) => `${company}\u0000${text(id)}`;
  // Every note of the report counts as an invoice's note, whatever its competência.
  const noted = new Set(rowsOf(n).map((r) => key(ctx.of.nfse(r), nInvoice[r])));
  const invoiceRow = new Map(rowsOf(f).map((r) => [key(ctx.of.faturas(r), fIds[r]), r]));
  const withoutNote = live.filter((r) => typeof fIds[r] === 'number' && !noted.has(key(ctx.of.faturas(r), fIds[r])));
  const mismatch: number[] = [];
  const unmatched: number[] = [];
  for (const r of notesOfMonth) {
    const inv = invoiceRow.get(key(ctx.of.nfse(r), nInvoice[r]));
    if (inv === undefined) unmatched.push(r);
    else if (cents(nServico[r]) !== cents(fTotal[inv])) mismatch.push(r);
  }
  if (unmatched.length)
    ctx.notes.push(
      `${plural(unmatched.length, 'nota da competência não foi comparada', 'notas da competência não foram comparadas')} com a fatura: o ID da fatura dela não está no relatório de faturas (IDs ${unmatched
        .slice(0, 10)
        .map((r) => text(nInvoice[r]))
        .join(', ')}${unmatched.length > 10 ? '…' : ''}).`,
    );
  const numero = col(n, 'numeroNotaFiscalServico');
  const unnumbered = notesOfMonth.filter((r) => !text(numero[r]));
  const charges = chargesOfMonth(ctx);
  const noCharge = invoicesWithoutCharge(ctx, live, charges.live);
  const diff = (r: number) => cents(nServico[r]) - cents(fTotal[invoiceRow.get(key(ctx.of.nfse(r), nInvoice[r]))!]);
  return [
    invoiceCheck(ctx, 'sem-nfse', 'Faturas sem NFS-e', withoutNote),
    noteCheck(ctx, 'valor-diferente', 'NFS-e com valor diferente da fatura', mismatch, diff, invoiceRow),
    noteCheck(ctx, 'sem-numero', 'Notas ainda sem número', unnumbered, (r) => cents(nServico[r]), invoiceRow),
    invoiceCheck(ctx, 'sem-cobranca', 'Faturas sem cobrança', noCharge),
    chargeCheck(ctx, 'pagas', 'Cobranças pagas', charges.paid),
    chargeCheck(ctx, 'a-vencer', 'Cobranças em aberto, a vencer', charges.notDue),
    chargeCheck(ctx, 'vencidas', 'Cobranças vencidas', charges.overdue),
  ];
}

function chargesOfMonth(ctx: Ctx): { live: number[]; paid: number[]; notDue: number[]; overdue: number[] } {
  const c = ctx.src.cobrancas;
  const paidCol = col(c, 'isQuitado');
  const situation = col(c, 'situacao');
  const due = col(c, 'dataVencimento');
  const today = dayNumber(ctx.today.day);
  const out = { live: [] as number[], paid: [] as number[], notDue: [] as number[], overdue: [] as number[] };
  let closed = 0;
  for (const r of ofMonth(ctx, 'cobrancas')) {
    const paid = isTrue(paidCol[r]);
    if (!paid && !openCharge(paidCol[r], situation[r])) {
      closed += 1;
      continue;
    }
    out.live.push(r);
    if (paid) out.paid.push(r);
    else ((dayOf(due[r], ctx.today.zone) ?? today) < today ? out.overdue : out.notDue).push(r);
  }
  if (closed)
    ctx.notes.push(
      `${plural(closed, 'cobrança da competência está cancelada ou baixada', 'cobranças da competência estão canceladas ou baixadas')}: não contam.`,
    );
  return out;
}

/** Pairs each charge with one invoice of its company, client and competência, an equal amount first; the invoices left have no charge. */
function invoicesWithoutCharge(ctx: Ctx, invoices: number[], charges: number[]): number[] {
  const fClient = col(ctx.src.faturas, 'idCliente');
  const fTotal = col(ctx.src.faturas, 'valorTotal');
  const cClient = col(ctx.src.cobrancas, 'idCliente');
  const cValor = col(ctx.src.cobrancas, 'valor');
  const pool = new Map<string, number[]>();
  for (const r of charges) {
    const k = `${ctx.of.cobrancas(r)}\u0000${text(cClient[r])}`;
    pool.set(k, [...(pool.get(k) ?? []), r]);
  }
  const left: number[] = [];
  const take = (r: number, exact: boolean): boolean => {
    const list = pool.get(`${ctx.of.faturas(r)}\u0000${text(fClient[r])}`) ?? [];
    const at = exact ? list.findIndex((c) => cents(cValor[c]) === cents(fTotal[r])) : list.length ? 0 : -1;
    if (at < 0) return false;
    list.splice(at, 1);
    return true;
  };
  for (const r of invoices.filter((r) => !take(r, true))) if (!take(r, false)) left.push(r);
  return left;
}

function tallied(ctx: Ctx, source: ClosingSource, rows: number[], value: (r: number) => number): Tally[] {
  const t = new Tallies(ctx.names.length);
  for (const r of rows) t.add(ctx.of[source](r), value(r));
  return t.byCompany;
}

function withCompany(ctx: Ctx, source: ClosingSource, header: string[], formats: string[], list: CellValue[][], rows: number[]) {
  if (!ctx.consolidated) return { header, formats, list };
  return { header: [...header, 'Empresa'], formats: [...formats, TEXT], list: list.map((l, i) => [...l, ctx.names[ctx.of[source](rows[i])]]) };
}

function invoiceCheck(ctx: Ctx, key: CheckKey, title: string, rows: number[]): CheckRows {
  const f = ctx.src.faturas;
  const [id, numero, client, tipo, status, total] = ['idFatura', 'numero', 'nomeCliente', 'tipoFatura', 'statusFatura', 'valorTotal'].map((k) => col(f, k));
  const list = rows.map((r) => [id[r] ?? '', numero[r] ?? '', text(client[r]), text(tipo[r]), text(status[r]), money(cents(total[r]))]);
  return {
    key,
    title,
    source: 'faturas',
    rows,
    tallies: tallied(ctx, 'faturas', rows, (r) => cents(total[r])),
    ...withCompany(
      ctx,
      'faturas',
      ['ID da fatura', 'Número', 'Cliente', 'Tipo', 'Status', 'Valor total'],
      [INTEGER, INTEGER, TEXT, TEXT, TEXT, MONEY],
      list,
      rows,
    ),
  };
}

function noteCheck(ctx: Ctx, key: CheckKey, title: string, rows: number[], value: (r: number) => number, invoiceRow: Map<string, number>): CheckRows {
  const n = ctx.src.nfse;
  const [id, invoice, numero, status, taker, servico] = [
    'idNotaFiscalServico',
    'idFatura',
    'numeroNotaFiscalServico',
    'statusNotaFiscalServico',
    'nomeFantasia',
    'valorServico',
  ].map((k) => col(n, k));
  const total = col(ctx.src.faturas, 'valorTotal');
  const list = rows.map((r) => {
    const inv = invoiceRow.get(`${ctx.of.nfse(r)}\u0000${text(invoice[r])}`);
    return [
      id[r] ?? '',
      invoice[r] ?? '',
      text(numero[r]),
      text(status[r]),
      text(taker[r]),
      money(cents(servico[r])),
      inv === undefined ? '' : money(cents(total[inv])),
    ];
  });
  return {
    key,
    title,
    source: 'nfse',
    rows,
    tallies: tallied(ctx, 'nfse', rows, value),
    ...withCompany(
      ctx,
      'nfse',
      ['ID da NFS-e', 'ID da fatura', 'Número da NFS-e', 'Status', 'Tomador', 'Valor do serviço', 'Valor da fatura'],
      [INTEGER, INTEGER, TEXT, TEXT, TEXT, MONEY, MONEY],
      list,
      rows,
    ),
  };
}

function chargeCheck(ctx: Ctx, key: CheckKey, title: string, rows: number[]): CheckRows {
  const c = ctx.src.cobrancas;
  const [id, client, name, due, valor] = ['idCobranca', 'idCliente', 'nomeFantasia', 'dataVencimento', 'valor'].map((k) => col(c, k));
  const list = rows.map((r) => [id[r] ?? '', client[r] ?? '', text(name[r]), due[r] ?? '', money(cents(valor[r]))]);
  return {
    key,
    title,
    source: 'cobrancas',
    rows,
    tallies: tallied(ctx, 'cobrancas', rows, (r) => cents(valor[r])),
    ...withCompany(ctx, 'cobrancas', ['ID da cobrança', 'ID do cliente', 'Cliente', 'Vencimento', 'Valor'], [INTEGER, INTEGER, TEXT, DATE, MONEY], list, rows),
  };
}
