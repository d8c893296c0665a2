/**
 * Fechamento da competência: the month-end close of one company, or of each
 * company of consolidated reports, from three reports' columns (invoices,
 * NFS-e, charges). Every figure is a count and a sum in cents; every
 * conference line names the rows behind it, by source and data row.
 */
import { plural } from '../../../../api/words';
import { cents, col, companies, isTrue, issuedNote, missing, openInvoices, text, type Today } from '../../sources';
import {
  CHECKS,
  type CheckKey,
  type CheckRows,
  type ClosingSource,
  type ClosingSources,
  type Ctx,
  conference,
  ofMonth,
  type Tally,
  Tallies,
} from './conference';

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

/** The lines another room reads by name (the Central do escritório), never by their label text. */
export type ClosingLineKey = 'faturas' | 'notas-emitidas' | 'iss-retido' | 'iss-a-recolher';

export interface ClosingLine {
  label: string;
  /** One per company, in `companies` order. */
  tallies: Tally[];
  check?: CheckKey;
  line?: ClosingLineKey;
}

export interface ClosingSection {
  title: string;
  lines: ClosingLine[];
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
  ctx.notes.push(...emptySources(ctx));
  for (const source of ['faturas', 'nfse', 'cobrancas'] as const) ctx.notes.push(...missing(src[source], CLOSING_NEEDS[source], labels[source]));
  const billing = billingSection(ctx);
  const notes = notesSection(ctx);
  const checks = conference(ctx, billing.live, notes.issued);
  const sections = [billing.section, notes.section, checkSection(checks)];
  const empresa = (row: number) => (consolidated ? names[of.faturas(row)] : '');
  const ids = col(src.faturas, 'idFatura');
  const withoutNote = checks.find((c) => c.key === 'sem-nfse')!.rows;
  ctx.notes.push(...openInvoices(src.faturas, withoutNote, ['fatura sem NFS-e', 'faturas sem NFS-e']));
  return {
    competencia,
    companies: names,
    consolidated,
    sections,
    checks,
    notes: ctx.notes,
    counted:
      billing.live.length + notes.ofMonth + checks.filter((c) => c.source === 'cobrancas' && c.key !== 'sem-fatura').reduce((t, c) => t + c.rows.length, 0),
    invoices: withoutNote.map((r) => ({ empresa: empresa(r), id: ids[r] as number })),
  };
}

/** Each report as the close names it, and what it lacks. */
const EMPTY: Record<ClosingSource, [string, string]> = {
  faturas: ['faturas', 'nenhuma fatura'],
  nfse: ['NFS-e', 'nenhuma NFS-e'],
  cobrancas: ['cobranças', 'nenhuma cobrança'],
};

/** What a source without a record of the competência means: its zeros and "nenhuma" are not a clean close. */
function emptySources(ctx: Ctx): string[] {
  const empty = (['faturas', 'nfse', 'cobrancas'] as const).filter((s) => ofMonth(ctx, s).length === 0);
  if (empty.length === 3)
    return [
      `Os três relatórios não têm nenhum registro da competência ${ctx.competencia} (nenhuma fatura, NFS-e ou cobrança): os zeros e "nenhuma" deste painel não são um fechamento em ordem. Confira a competência e os filtros dos relatórios.`,
    ];
  return empty.map(
    (s) =>
      `O relatório de ${EMPTY[s][0]} não tem ${EMPTY[s][1]} da competência ${ctx.competencia}: as linhas que dependem dele mostram zero por isso, não porque esteja em ordem. Confira os filtros dele.`,
  );
}

/** The invoice statuses the interface lists besides CANCELADA: only these are summed and checked against notes and charges. */
const LIVE_INVOICE = new Set(['ABERTA', 'FATURADA', 'REFATURADA']);

function billingSection(ctx: Ctx): { section: ClosingSection; live: number[] } {
  const f = ctx.src.faturas;
  const status = col(f, 'statusFatura');
  const tipo = col(f, 'tipoFatura');
  const total = col(f, 'valorTotal');
  const all = new Tallies(ctx.names.length);
  const byType = { RECORRENTE: new Tallies(ctx.names.length), AVULSA: new Tallies(ctx.names.length) };
  const cancelled = new Tallies(ctx.names.length);
  const open = new Tallies(ctx.names.length);
  const live: number[] = [];
  let otherType = 0;
  const others = new Map<string, Tallies>();
  for (const r of ofMonth(ctx, 'faturas')) {
    const c = ctx.of.faturas(r);
    const s = text(status[r]).toUpperCase();
    if (s === 'CANCELADA') {
      cancelled.add(c, cents(total[r]));
      continue;
    }
    if (!LIVE_INVOICE.has(s)) {
      if (!others.has(s)) others.set(s, new Tallies(ctx.names.length));
      others.get(s)!.add(c, cents(total[r]));
      continue;
    }
    live.push(r);
    all.add(c, cents(total[r]));
    if (text(status[r]).toUpperCase() === 'ABERTA') open.add(c, cents(total[r]));
    const t = byType[text(tipo[r]).toUpperCase() as keyof typeof byType];
    if (t) t.add(c, cents(total[r]));
    else otherType += 1;
  }
  if (otherType) ctx.notes.push(`${plural(otherType, 'fatura não é', 'faturas não são')} RECORRENTE nem AVULSA: entram no total, não nas linhas por tipo.`);
  const statuses = [...others.keys()].sort();
  if (statuses.length)
    ctx.notes.push(
      `Fora dos totais, cada status na sua linha: faturas da competência em status que a interface não lista (${statuses.map((x) => x || 'sem status').join(', ')}); nem somadas nem conferidas com as notas e cobranças.`,
    );
  return {
    live,
    section: {
      title: 'Faturamento',
      lines: [
        { label: 'Faturas da competência (sem as canceladas)', tallies: all.byCompany, line: 'faturas' },
        { label: 'Recorrentes', tallies: byType.RECORRENTE.byCompany },
        { label: 'Avulsas', tallies: byType.AVULSA.byCompany },
        { label: 'Em aberto (ABERTA: ainda não faturadas, incluídas no total)', tallies: open.byCompany },
        { label: 'Canceladas (fora do total)', tallies: cancelled.byCompany },
        ...statuses.map((x) => ({ label: `${x || 'Sem status'} (status que a interface não lista: fora do total)`, tallies: others.get(x)!.byCompany })),
      ],
    },
  };
}

/** The notes of the competência: only issued ones (AUTORIZADA, EMITIDA) are summed; each other status has its own line, out of the totals. */
function notesSection(ctx: Ctx): { section: ClosingSection; issued: number[]; ofMonth: number } {
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
  const others = new Map<string, Tallies>();
  const rows = ofMonth(ctx, 'nfse');
  const issued = rows.filter((r) => issuedNote(status[r]));
  for (const r of rows) {
    const c = ctx.of.nfse(r);
    const s = text(status[r]).toUpperCase();
    if (s === 'AUTORIZADA') authorized.add(c, cents(servico[r]));
    else if (s === 'EMITIDA') (text(numero[r]) ? numbered : unnumbered).add(c, cents(servico[r]));
    else {
      if (!others.has(s)) others.set(s, new Tallies(size));
      others.get(s)!.add(c, cents(servico[r]));
      continue;
    }
    all.add(c, cents(servico[r]));
    const aliquota = Number.isFinite(rate[r]) ? (rate[r] as number) : 0;
    let byRate = rates.get(aliquota);
    if (!byRate) rates.set(aliquota, (byRate = { withheld: new Tallies(size), due: new Tallies(size) }));
    const w = isTrue(retido[r]);
    (w ? withheld : due).add(c, cents(iss[r]));
    (w ? byRate.withheld : byRate.due).add(c, cents(iss[r]));
    net.add(c, cents(liquido[r]));
  }
  const statuses = [...others.keys()].sort();
  if (statuses.length)
    ctx.notes.push(
      `Fora dos totais, cada status na sua linha: ${plural(rows.length - issued.length, 'nota', 'notas')} da competência em status que a interface não dá como emitida (${statuses.map((s) => s || 'sem status').join(', ')}); a fatura que só tem notas assim conta como sem NFS-e.`,
    );
  const sorted = [...rates.entries()].sort((a, b) => a[0] - b[0]);
  return {
    issued,
    ofMonth: rows.length,
    section: {
      title: 'NFS-e',
      lines: [
        { label: 'Notas emitidas da competência (AUTORIZADA e EMITIDA) · valor dos serviços', tallies: all.byCompany, line: 'notas-emitidas' },
        { label: 'AUTORIZADA', tallies: authorized.byCompany },
        { label: 'EMITIDA com número', tallies: numbered.byCompany },
        { label: 'EMITIDA sem número', tallies: unnumbered.byCompany },
        ...statuses.map((s) => ({ label: `${s || 'Sem status'} (não é emitida: fora dos totais)`, tallies: others.get(s)!.byCompany })),
        { label: 'ISS retido pelo tomador', tallies: withheld.byCompany, line: 'iss-retido' },
        ...sorted.map(([a, t]) => ({ label: `   retido à alíquota de ${percent(a)}`, tallies: t.withheld.byCompany })),
        { label: 'ISS a recolher', tallies: due.byCompany, line: 'iss-a-recolher' },
        ...sorted.map(([a, t]) => ({ label: `   a recolher à alíquota de ${percent(a)}`, tallies: t.due.byCompany })),
        { label: 'Valor líquido', tallies: net.byCompany },
      ],
    },
  };
}

function checkSection(checks: CheckRows[]): ClosingSection {
  return { title: 'Conferência', lines: checks.map((c) => ({ label: CHECKS[c.key].label, tallies: c.tallies, check: c.key })) };
}

/** A line's tallies by its key; undefined when the close has no such line. */
export function closingLine(f: ClosingFigures, key: ClosingLineKey): Tally[] | undefined {
  for (const section of f.sections) for (const l of section.lines) if (l.line === key) return l.tallies;
  return undefined;
}

/** A conference line's rows and tallies by its key. */
export function closingCheck(f: ClosingFigures, key: CheckKey): CheckRows | undefined {
  return f.checks.find((c) => c.key === key);
}
