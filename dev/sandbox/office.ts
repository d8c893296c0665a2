/**
 * An accounting office's client companies, each its own organization with its
 * own key, for the Central do escritório: the `office` option adds N of them
 * beside the three demo organizations. Each company's month (OFFICE_COMPETENCIA)
 * is built to hold one status the Central shows, in a fixed cycle, so an
 * office of 30 holds each status three times or more; the rest of its data is
 * drawn as any organization's, small by default. Companies are generated on
 * first use, so an office of 100 starts as fast as none.
 */
import { cnpjCheckDigits, COMPANY_WORDS, LEGAL_SUFFIXES } from './brazil.js';
import { addNote, CLOSING_COMPETENCIA, type Charge, chargeFor, invoiceFor } from './closing.js';
import { pad } from './dates.js';
import type { OrgData } from './generate.js';
import type { OrgDef } from './orgs.js';
import type { Cliente, CobrancaRow, FaturaRow } from './records.js';
import type { Rng } from './rng.js';
import type { OfficeOptions, OfficeStatus, SizeCounts, TouchRequest, TouchResult } from './types.js';

/** The month an office closes on the service's today (22/11/2026): the one before, as the Fechamento's known close. */
export const OFFICE_COMPETENCIA = CLOSING_COMPETENCIA;

/** Company i holds STATUS_CYCLE[i % 10]: three "Sem pendências" in ten, one of each other status. */
export const STATUS_CYCLE: readonly OfficeStatus[] = [
  'sem-pendencias',
  'notas-a-emitir',
  'vencidas',
  'valor-diferente',
  'sem-pendencias',
  'cobranca-sem-fatura',
  'nota-sem-numero',
  'sem-movimento',
  'falha-conexao',
  'sem-pendencias',
];

/** Invoices without a note in a "notas a emitir" company, and overdue charges in a "vencidas" one (fewer when the month is smaller). */
export const MISSING_NOTES = 3;
export const OVERDUE_CHARGES = 2;
/** How far under its invoice a "valor diferente" company's first note is, in cents. */
export const NOTE_UNDER_CENTS = 1_250;

/** A company's records besides its month: a small organization, so a hundred of them stay cheap. */
export const OFFICE_BACKGROUND: SizeCounts = { clientes: 40, faturas: 40, cobrancas: 40, transacoes: 30, assinaturas: 10 };
export const DEFAULT_MONTH_INVOICES = 8;

/** Where office companies start: after the demo organizations. */
const FIRST_INDEX = 3;

export type OfficeCompany = NonNullable<OrgDef['office']>;

const ACTIVITY = ['Comércio', 'Serviços', 'Indústria', 'Distribuidora', 'Consultoria', 'Logística', 'Engenharia', 'Alimentos', 'Tecnologia', 'Saúde'];

/** Unique for a thousand companies: a business and an activity, numbered past the hundredth. */
function companyName(i: number): string {
  const base = COMPANY_WORDS[i % COMPANY_WORDS.length];
  const activity = ACTIVITY[Math.floor(i / COMPANY_WORDS.length) % ACTIVITY.length];
  const round = Math.floor(i / (COMPANY_WORDS.length * ACTIVITY.length));
  return `${base} ${activity}${round ? ` ${round + 1}` : ''} ${LEGAL_SUFFIXES[i % LEGAL_SUFFIXES.length]}`;
}

/** 32 hex digits that depend only on the company's place (FNV-1a over a few salts): keys survive reseeding. */
function keyDigits(i: number): string {
  let out = '';
  for (let salt = 0; salt < 4; salt++) {
    let h = 0x811c9dc5 ^ salt;
    for (const c of `office-${i}-${salt}`) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193) >>> 0;
    out += h.toString(16).padStart(8, '0');
  }
  return out;
}

/** A valid CNPJ per place: 8 digits of root, branch 0001, check digits. */
export function officeCnpj(i: number): string {
  const base = `7${pad(i + 1, 7)}0001`;
  return base + cnpjCheckDigits(base);
}

/** The option as given: a count, or the office's sizes. */
export function officeOptions(option: number | OfficeOptions | undefined): OfficeOptions {
  if (option === undefined) return { companies: 0 };
  const o = typeof option === 'number' ? { companies: option } : option;
  if (!Number.isInteger(o.companies) || o.companies < 0 || o.companies > 1000) throw new Error('office.companies must be an integer 0..1000');
  if (o.invoices !== undefined && (!Number.isInteger(o.invoices) || o.invoices < 1 || o.invoices > 10_000))
    throw new Error('office.invoices must be an integer 1..10000');
  return o;
}

/** The office's companies as organizations, in order. */
export function officeDefs(options: OfficeOptions): OrgDef[] {
  const count = options.companies;
  const invoices = options.invoices ?? DEFAULT_MONTH_INVOICES;
  return Array.from({ length: count }, (_, i) => {
    const status = STATUS_CYCLE[i % STATUS_CYCLE.length];
    return {
      index: FIRST_INDEX + i,
      name: companyName(i),
      apiKey: `sbx_live_${keyDigits(i)}`,
      hasCityHallIntegration: true,
      cnpj: officeCnpj(i),
      ...(status === 'falha-conexao' ? { revoked: true } : {}),
      office: { number: i, status, invoices: status === 'sem-movimento' ? 0 : invoices },
    };
  });
}

/** The background sizes of an office company. */
export function officeSize(options: OfficeOptions): SizeCounts {
  return { ...OFFICE_BACKGROUND, ...options.size };
}

/** Ids of records the month adds, above anything drawn (ranges of generate.ts) and below what the API creates. */
const MONTH_IDS = { fatura: 2_900_000, item: 4_900_000, cobranca: 5_900_000, nosso: 990_000, titulo: 90_000 };

/** The state of invoice k's note and charge for the company's status. */
function caseOf(status: OfficeStatus, k: number): { note: 'ok' | 'none' | 'under' | 'unnumbered'; charge: NonNullable<Charge> } {
  const charge: NonNullable<Charge> = status === 'vencidas' && k < OVERDUE_CHARGES ? 'vencida' : k % 2 === 0 ? 'paga' : 'a vencer';
  if (status === 'notas-a-emitir' && k < MISSING_NOTES) return { note: 'none', charge };
  if (status === 'valor-diferente' && k === 0) return { note: 'under', charge };
  if (status === 'nota-sem-numero' && k === 0) return { note: 'unnumbered', charge };
  return { note: 'ok', charge };
}

/**
 * The company's month: its drawn records of the competência go, and its
 * invoices come, each for a client in turn, with their notes and charges as
 * its status says. Each invoice has a charge of its value and client, so they
 * pair as the Fechamento pairs them.
 */
export function seedOfficeMonth(data: OrgData, rng: Rng, company: OfficeCompany): void {
  const gone = new Set(data.faturas.filter((f) => f.competencia === OFFICE_COMPETENCIA).map((f) => f.idFatura));
  data.faturas = data.faturas.filter((f) => !gone.has(f.idFatura));
  for (const id of gone) data.faturaById.delete(id);
  data.nfse = data.nfse.filter((n) => n.competencia !== OFFICE_COMPETENCIA && !gone.has(n.idFatura));
  data.nfseByFatura = new Map(data.nfse.map((n) => [n.idFatura, n]));
  data.cobrancas = data.cobrancas.filter((c) => c.competencia !== OFFICE_COMPETENCIA);
  const buyers = data.clientes.filter((c) => c.isCliente && c.isAtivo);
  const base = (data.def.index + 1) * 10_000_000;
  const numero = data.faturas.reduce((m, f) => Math.max(m, f.numero), 0);
  for (let k = 0; k < company.invoices; k++) {
    const client = buyers[k % buyers.length];
    const fatura = invoiceFor(data, rng, client, {
      idFatura: base + MONTH_IDS.fatura + k,
      idItemFatura: base + MONTH_IDS.item + k,
      numero: numero + 1 + k,
      idIntegracao: `FAT-2026-E${pad(k + 1, 5)}`,
      statusFatura: 'FATURADA',
      tipoFatura: k % 3 === 0 ? 'AVULSA' : 'RECORRENTE',
      dataEmissao: `2026-10-${pad(1 + (k % 28))}`,
      minute: 8 * 60 + (k % 600),
    });
    addMonthInvoice(data, fatura);
    const c = caseOf(company.status, k);
    if (c.note !== 'none')
      addNote(data, rng, fatura, client, { autorizada: c.note !== 'unnumbered', retido: k % 4 === 3, under: c.note === 'under' ? NOTE_UNDER_CENTS : 0 });
    data.cobrancas.push(monthCharge(data, rng, fatura, client, c.charge, k));
  }
  if (company.status === 'cobranca-sem-fatura' && company.invoices > 0) {
    // A charge of the month no invoice accounts for: every invoice already has its own of equal value.
    const stray = invoiceFor(data, rng, buyers[0], { ...LATE_SLOT, idFatura: 0 });
    data.cobrancas.push(monthCharge(data, rng, stray, buyers[0], 'a vencer', company.invoices));
  }
}

/** The slot of an invoice added late in the month, its ids given by the caller. */
const LATE_SLOT = {
  idItemFatura: 0,
  numero: 0,
  idIntegracao: '',
  statusFatura: 'FATURADA',
  tipoFatura: 'AVULSA',
  dataEmissao: '2026-10-31',
  minute: 18 * 60,
} as const;

function addMonthInvoice(data: OrgData, fatura: FaturaRow): void {
  data.faturas.push(fatura);
  data.faturaById.set(fatura.idFatura, fatura);
}

function monthCharge(data: OrgData, rng: Rng, fatura: FaturaRow, client: Cliente, state: NonNullable<Charge>, k: number): CobrancaRow {
  const base = (data.def.index + 1) * 10_000_000;
  return chargeFor(rng, fatura, client, state, { idCobranca: base + MONTH_IDS.cobranca + k, nosso: MONTH_IDS.nosso + k, titulo: MONTH_IDS.titulo + k });
}

/** What a touch changes in a company's month, so its records' dataHoraAtualizacao moves (or, for a note, the listing grows). */
export type TouchKind = TouchRequest['kind'];

/**
 * Changes one company's month as its people would: a new invoice (no note, no
 * charge yet), an invoice's value raised by R$ 1,00, its first open charge
 * paid, or the note of an invoice without one issued (authorised, numbered).
 * `at` is the service's local time of the change (YYYY-MM-DDTHH:MM:SS).
 */
export function touchMonth(data: OrgData, kind: TouchKind, at: string): TouchResult {
  const org = data.def.name;
  const month = data.faturas.filter((f) => f.competencia === OFFICE_COMPETENCIA);
  if (kind === 'addInvoice') {
    const base = (data.def.index + 1) * 10_000_000;
    const k = month.length;
    const client = data.clientes.find((c) => c.isCliente && c.isAtivo)!;
    const fatura = invoiceFor(data, data.rng, client, {
      ...LATE_SLOT,
      idFatura: base + MONTH_IDS.fatura + 50_000 + data.faturas.length,
      idItemFatura: base + MONTH_IDS.item + 50_000 + data.faturas.length,
      numero: data.faturas.reduce((m, f) => Math.max(m, f.numero), 0) + 1,
      idIntegracao: `FAT-2026-E${pad(k + 1, 5)}`,
    });
    fatura._dataHoraAtualizacao = at;
    addMonthInvoice(data, fatura);
    return { org, kind, id: fatura.idFatura, at };
  }
  if (kind === 'alterInvoice') {
    const f = month[0];
    if (!f) throw new Error(`${org} has no invoice of ${OFFICE_COMPETENCIA}`);
    f.valorTotal = Math.round(f.valorTotal * 100 + 100) / 100;
    f.itens = (f.itens ?? []).map((i, n) => (n === 0 ? { ...i, valorUnitario: f.valorTotal, valorTotal: f.valorTotal } : i));
    f._dataHoraAtualizacao = at;
    return { org, kind, id: f.idFatura, at };
  }
  if (kind === 'payCharge') {
    const c = data.cobrancas.find((x) => x.competencia === OFFICE_COMPETENCIA && !x.isQuitado && x.situacao === 'EMITIDA');
    if (!c) throw new Error(`${org} has no open charge of ${OFFICE_COMPETENCIA}`);
    Object.assign(c, { isQuitado: true, statusTitulo: 'QUITADO', dataPagamento: at.slice(0, 10), valorPago: c.valor, dataHoraAtualizacao: at });
    return { org, kind, id: c.idCobranca, at };
  }
  if (kind === 'cancelCharge') {
    const c = data.cobrancas.find((x) => x.competencia === OFFICE_COMPETENCIA && !x.isQuitado && x.dataHoraCancelamento === null);
    if (!c) throw new Error(`${org} has no open charge of ${OFFICE_COMPETENCIA}`);
    Object.assign(c, {
      situacao: 'CANCELADA',
      dataHoraCancelamento: at,
      motivoCancelamento: 'Cancelada pelo cliente',
      usuarioCancelamento: 'financeiro',
      dataHoraAtualizacao: at,
    });
    return { org, kind, id: c.idCobranca, at };
  }
  const f = month.find((x) => !data.nfseByFatura.has(x.idFatura));
  if (!f) throw new Error(`${org} has no invoice of ${OFFICE_COMPETENCIA} without a note`);
  addNote(data, data.rng, f, data.clienteById.get(f.idCliente)!, { autorizada: true, retido: false, under: 0 });
  return { org, kind, id: data.nfseByFatura.get(f.idFatura)!.idNotaFiscalServico };
}
