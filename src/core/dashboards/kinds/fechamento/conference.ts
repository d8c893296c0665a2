/**
 * The Fechamento's conference: which invoices, notes and charges of the
 * competência fall on each line (invoices without a note or a charge, notes
 * whose value differs or that have no number, charges paid, not yet due and
 * overdue), each with its rows, per company.
 */
import { plural } from '../../../../api/words';
import type { CellValue } from '../../../sheets/table';
import { INTEGER, MONEY, TEXT } from '../../page';
import { cents, col, dayNumber, dayOf, isTrue, issuedNote, money, openCharge, rowsOf, type SourceTable, text, type Today } from '../../sources';

export type ClosingSource = 'faturas' | 'nfse' | 'cobrancas';

/** The conference lines, each with the rows behind it. */
export type CheckKey = 'sem-nfse' | 'valor-diferente' | 'sem-numero' | 'sem-cobranca' | 'sem-fatura' | 'pagas' | 'a-vencer' | 'vencidas';

/** Each conference line: its name in the figures table (and the Painéis list), and the title of its rows below the figures. */
export const CHECKS: Record<CheckKey, { label: string; title: string }> = {
  'sem-nfse': { label: 'Faturas sem NFS-e', title: 'Faturas sem NFS-e' },
  'valor-diferente': { label: 'NFS-e com valor diferente da fatura (diferença: nota − fatura)', title: 'NFS-e com valor diferente da fatura' },
  'sem-numero': { label: 'Notas ainda sem número', title: 'Notas ainda sem número' },
  'sem-cobranca': { label: 'Faturas sem cobrança', title: 'Faturas sem cobrança' },
  'sem-fatura': { label: 'Cobranças da competência sem fatura', title: 'Cobranças sem fatura' },
  pagas: { label: 'Cobranças da competência pagas', title: 'Cobranças pagas' },
  'a-vencer': { label: 'Cobranças da competência em aberto, a vencer', title: 'Cobranças em aberto, a vencer' },
  vencidas: { label: 'Cobranças da competência vencidas', title: 'Cobranças vencidas' },
};

/** How an invoice and a charge are matched, said on the panel: the listings share no id, only client and competência. */
export const CHARGE_MATCH =
  'fatura e cobrança não têm ID em comum: uma cobrança (não cancelada) vale para uma fatura da mesma empresa, do mesmo cliente (ID do cliente) e da mesma competência, primeiro a de mesmo valor; a cobrança que não vale para nenhuma fatura é uma cobrança sem fatura';

/** A count and a sum in cents. */
export interface Tally {
  count: number;
  cents: number;
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

export interface ClosingSources {
  faturas: SourceTable;
  nfse: SourceTable;
  cobrancas: SourceTable;
}

const DATE = 'dd/mm/yyyy';

/** Per-company tallies, added to by row. */
export class Tallies {
  readonly byCompany: Tally[];
  constructor(size: number) {
    this.byCompany = Array.from({ length: size }, () => ({ count: 0, cents: 0 }));
  }
  add(company: number, c: number): void {
    this.byCompany[company].count += 1;
    this.byCompany[company].cents += c;
  }
}

export interface Ctx {
  src: ClosingSources;
  competencia: string;
  today: Today;
  names: string[];
  of: Record<ClosingSource, (row: number) => number>;
  consolidated: boolean;
  notes: string[];
}

export const ofMonth = (ctx: Ctx, source: ClosingSource): number[] => {
  const comp = col(ctx.src[source], 'competencia');
  return rowsOf(ctx.src[source]).filter((r) => text(comp[r]) === ctx.competencia);
};

export function conference(ctx: Ctx, live: number[], notesOfMonth: number[]): CheckRows[] {
  const f = ctx.src.faturas;
  const n = ctx.src.nfse;
  const fIds = col(f, 'idFatura');
  const fTotal = col(f, 'valorTotal');
  const nInvoice = col(n, 'idFatura');
  const nServico = col(n, 'valorServico');
  const key = (company: number, id: CellValue) => `${company}\u0000${text(id)}`;
  // Every issued note of the report counts as an invoice's note, whatever its competência; a cancelled one does not.
  const nStatus = col(n, 'statusNotaFiscalServico');
  const noted = new Set(rowsOf(n).flatMap((r) => (issuedNote(nStatus[r]) ? [key(ctx.of.nfse(r), nInvoice[r])] : [])));
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
  const paired = pairCharges(ctx, live, charges.live);
  const diff = (r: number) => cents(nServico[r]) - cents(fTotal[invoiceRow.get(key(ctx.of.nfse(r), nInvoice[r]))!]);
  return [
    invoiceCheck(ctx, 'sem-nfse', withoutNote),
    noteCheck(ctx, 'valor-diferente', mismatch, diff, invoiceRow),
    noteCheck(ctx, 'sem-numero', unnumbered, (r) => cents(nServico[r]), invoiceRow),
    invoiceCheck(ctx, 'sem-cobranca', paired.invoices),
    chargeCheck(ctx, 'sem-fatura', paired.charges),
    chargeCheck(ctx, 'pagas', charges.paid),
    chargeCheck(ctx, 'a-vencer', charges.notDue),
    chargeCheck(ctx, 'vencidas', charges.overdue),
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

/** Pairs each charge with one invoice of its company, client and competência, an equal amount first: the invoices left have no charge, the charges left no invoice. */
function pairCharges(ctx: Ctx, invoices: number[], charges: number[]): { invoices: number[]; charges: number[] } {
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
  const unpaired = new Set([...pool.values()].flat());
  return { invoices: left, charges: charges.filter((r) => unpaired.has(r)) };
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

function invoiceCheck(ctx: Ctx, key: CheckKey, rows: number[]): CheckRows {
  const f = ctx.src.faturas;
  const [id, numero, client, tipo, status, total] = ['idFatura', 'numero', 'nomeCliente', 'tipoFatura', 'statusFatura', 'valorTotal'].map((k) => col(f, k));
  const list = rows.map((r) => [id[r] ?? '', numero[r] ?? '', text(client[r]), text(tipo[r]), text(status[r]), money(cents(total[r]))]);
  return {
    key,
    title: CHECKS[key].title,
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

function noteCheck(ctx: Ctx, key: CheckKey, rows: number[], value: (r: number) => number, invoiceRow: Map<string, number>): CheckRows {
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
    title: CHECKS[key].title,
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

function chargeCheck(ctx: Ctx, key: CheckKey, rows: number[]): CheckRows {
  const c = ctx.src.cobrancas;
  const [id, client, name, due, valor] = ['idCobranca', 'idCliente', 'nomeFantasia', 'dataVencimento', 'valor'].map((k) => col(c, k));
  const list = rows.map((r) => [id[r] ?? '', client[r] ?? '', text(name[r]), due[r] ?? '', money(cents(valor[r]))]);
  return {
    key,
    title: CHECKS[key].title,
    source: 'cobrancas',
    rows,
    tallies: tallied(ctx, 'cobrancas', rows, (r) => cents(valor[r])),
    ...withCompany(ctx, 'cobrancas', ['ID da cobrança', 'ID do cliente', 'Cliente', 'Vencimento', 'Valor'], [INTEGER, INTEGER, TEXT, DATE, MONEY], list, rows),
  };
}
