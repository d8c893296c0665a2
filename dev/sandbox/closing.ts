/**
 * A known competência to close (10/2026): each organization gets, beside its
 * random records, six invoices whose notes and charges hold the cases a
 * month-end close must find: an ISS retido note, a note still without a
 * number (EMITIDA), a note whose service value differs from its invoice's
 * total, an invoice without a charge, an invoice without a note and one whose
 * only note was cancelled. Charges
 * and invoices share no id (the spec gives none): a charge goes with an
 * invoice by client and competência, so each case's client has no other
 * record of that competência. Drawn from its own stream, after every other.
 */
import { linhaDigitavel } from './brazil.js';
import { dateToDay, datetime, dayToDate, pad } from './dates.js';
import type { OrgData } from './generate.js';
import { nfseFor } from './nfse.js';
import type { Cliente, CobrancaRow, FaturaRow } from './records.js';
import { centsToMoney, type Rng } from './rng.js';

export const CLOSING_COMPETENCIA = '10/2026';

export type Charge = 'paga' | 'a vencer' | 'vencida' | null;

interface Case {
  tipo: 'RECORRENTE' | 'AVULSA';
  status: 'FATURADA' | 'ABERTA';
  /** The note: null for none. */
  note: null | NoteCase;
  charge: Charge;
  day: number;
}

/**
 * A note: its status, whether ISS is withheld, and how much its service value is under the invoice's total (cents).
 * `status` names one the spec does not list (its sets of values are "not shown"): a note the city hall cancelled.
 */
export interface NoteCase {
  autorizada: boolean;
  retido: boolean;
  under: number;
  status?: string;
}

const CASES: readonly Case[] = [
  { tipo: 'RECORRENTE', status: 'FATURADA', note: { autorizada: true, retido: true, under: 0 }, charge: 'paga', day: 5 },
  { tipo: 'AVULSA', status: 'FATURADA', note: { autorizada: false, retido: false, under: 0 }, charge: 'a vencer', day: 9 },
  { tipo: 'RECORRENTE', status: 'FATURADA', note: { autorizada: true, retido: false, under: 1_250 }, charge: 'vencida', day: 14 },
  { tipo: 'AVULSA', status: 'FATURADA', note: { autorizada: true, retido: false, under: 0 }, charge: null, day: 20 },
  { tipo: 'RECORRENTE', status: 'ABERTA', note: null, charge: 'paga', day: 27 },
  { tipo: 'AVULSA', status: 'FATURADA', note: { autorizada: true, retido: false, under: 0, status: 'CANCELADA' }, charge: null, day: 29 },
];

/** Buyers with no invoice and no charge of the competência, by id: each case's client is one of them. */
function quietBuyers(data: OrgData): Cliente[] {
  const busy = new Set<number>();
  for (const f of data.faturas) if (f.competencia === CLOSING_COMPETENCIA) busy.add(f.idCliente);
  for (const c of data.cobrancas) if (c.competencia === CLOSING_COMPETENCIA) busy.add(c.idCliente);
  return data.clientes.filter((c) => c.isCliente && !busy.has(c.idCliente)).sort((a, b) => a.idCliente - b.idCliente);
}

/**
 * The cases take the place of the organization's first invoices and charges (of January 2025), keeping their
 * ids and numbers, so the listings keep the size asked for. A case without a quiet client or a record to
 * replace (a very small organization) is left out.
 */
export function seedClosing(data: OrgData, rng: Rng): void {
  const buyers = quietBuyers(data);
  let charged = 0;
  CASES.forEach((k, i) => {
    const old = data.faturas[i];
    const slot = k.charge ? data.cobrancas[charged] : undefined;
    if (!old || buyers.length === 0 || (k.charge && !slot)) return;
    const client = buyers.splice(rng.int(0, buyers.length - 1), 1)[0];
    const fatura = invoiceFor(data, rng, client, {
      idFatura: old.idFatura,
      idItemFatura: old.itens?.[0]?.idItemFatura ?? old.idFatura,
      numero: old.numero,
      idIntegracao: `FAT-2026-F${pad(i + 1, 5)}`,
      statusFatura: k.status,
      tipoFatura: k.tipo,
      dataEmissao: `2026-10-${pad(k.day)}`,
      minute: 9 * 60 + i,
    });
    data.faturas[i] = fatura;
    data.faturaById.set(fatura.idFatura, fatura);
    // The replaced invoice's note goes with it.
    data.nfse = data.nfse.filter((n) => n.idFatura !== old.idFatura);
    data.nfseByFatura.delete(old.idFatura);
    if (k.note && data.def.hasCityHallIntegration) addNote(data, rng, fatura, client, k.note);
    if (k.charge && slot)
      data.cobrancas[charged++] = chargeFor(rng, fatura, client, k.charge, { idCobranca: slot.idCobranca, nosso: slot.nossoNumero, titulo: slot.numeroTitulo });
  });
}

/** What sets one invoice of the competência apart; its product, value and item are drawn. */
export interface InvoiceSlot {
  idFatura: number;
  idItemFatura: number;
  numero: number;
  idIntegracao: string;
  statusFatura: 'FATURADA' | 'ABERTA';
  tipoFatura: 'RECORRENTE' | 'AVULSA';
  dataEmissao: string;
  /** Minute of the day it was last updated, on its day of issue. */
  minute: number;
}

/** An invoice of CLOSING_COMPETENCIA with one item, for `client`. */
export function invoiceFor(data: OrgData, rng: Rng, client: Cliente, slot: InvoiceSlot): FaturaRow {
  const produto = rng.pick(data.produtos);
  const totalCents = rng.cents(300, 4000);
  return {
    idFatura: slot.idFatura,
    idIntegracao: slot.idIntegracao,
    numeroPedido: null,
    codigoCheckout: null,
    numero: slot.numero,
    statusFatura: slot.statusFatura,
    tipoFatura: slot.tipoFatura,
    formaFaturamentoAssinatura: slot.tipoFatura === 'RECORRENTE' ? 'AGRUPADA' : null,
    origemFatura: 'MANUAL',
    competencia: CLOSING_COMPETENCIA,
    idCliente: client.idCliente,
    nomeCliente: client.nomeFantasia,
    dataEmissao: slot.dataEmissao,
    valorTotal: centsToMoney(totalCents),
    itens: [
      {
        idItemFatura: slot.idItemFatura,
        idProduto: produto.idProduto,
        descricaoProduto: produto.descricao,
        descricao: `${produto.descricao} - ${CLOSING_COMPETENCIA}`,
        quantidade: 1,
        valorUnitario: centsToMoney(totalCents),
        valorTotal: centsToMoney(totalCents),
      },
    ],
    _loteCheckout: null,
    _dataHoraAtualizacao: datetime(slot.dataEmissao, slot.minute, 0),
  };
}

export function addNote(data: OrgData, rng: Rng, f: FaturaRow, c: Cliente, n: NoteCase): void {
  const aliquota = rng.pick([2, 3, 5]);
  const valorServico = centsToMoney(Math.round(f.valorTotal * 100) - n.under);
  const note = nfseFor(f, c, {
    idNotaFiscalServico: data.next.idNfse,
    dataEmissao: f.dataEmissao,
    horaEmissao: '10:30',
    numeroRps: data.next.numeroRps,
    numeroNotaFiscalServico: n.autorizada ? pad(data.next.numeroNfse, data.nfseNumberWidth) : null,
    issRetido: n.retido ? 2 : 0,
    aliquota,
    valorServico,
    ...(n.status ? { status: n.status } : {}),
  });
  data.next.idNfse += 1;
  data.next.numeroRps += 1;
  if (n.autorizada) data.next.numeroNfse += 1;
  data.nfse.push(note);
  data.nfseByFatura.set(f.idFatura, note);
}

export function chargeFor(
  rng: Rng,
  f: FaturaRow,
  c: Cliente,
  state: NonNullable<Charge>,
  ids: { idCobranca: number; nosso: number; titulo: number },
): CobrancaRow {
  const emitted = dateToDay(f.dataEmissao);
  // Today is 2026-11-22: a charge due in December is not due yet; one due on 10 November is overdue.
  const due = state === 'a vencer' ? dateToDay('2026-12-05') : state === 'vencida' ? dateToDay('2026-11-10') : emitted + 15;
  const paid = state === 'paga';
  const valorCents = Math.round(f.valorTotal * 100);
  const updated = datetime(dayToDate(paid ? due - 2 : emitted), 11 * 60, 0);
  return {
    idCobranca: ids.idCobranca,
    idCliente: c.idCliente,
    idIntegracaoCliente: c.idIntegracao,
    cpfCnpj: c.cpfCnpj,
    nomeFantasia: c.nomeFantasia,
    razaoSocial: c.razaoSocial,
    nossoNumero: ids.nosso,
    numeroTitulo: ids.titulo,
    numeroParcela: 1,
    dataEmissao: f.dataEmissao,
    dataVencimentoOriginal: dayToDate(due),
    dataVencimento: dayToDate(due),
    dataPagamento: paid ? dayToDate(due - 2) : null,
    isQuitado: paid,
    competencia: f.competencia,
    valor: f.valorTotal,
    valorPago: paid ? f.valorTotal : null,
    valorMoraMulta: 0,
    valorDesconto: 0,
    linhaDigitavel: linhaDigitavel(rng, valorCents, due),
    pixCopiaCola: null,
    codigoCheckout: null,
    metodoPagamento: 'BOLETO',
    statusTitulo: paid ? 'QUITADO' : 'PENDENTE',
    situacao: 'EMITIDA',
    dataHoraCancelamento: null,
    motivoCancelamento: null,
    usuarioCancelamento: null,
    dataHoraCadastro: datetime(f.dataEmissao, 10 * 60, 0),
    dataHoraAtualizacao: updated,
    link: `https://pagamento.sandbox-faturamento.com.br/c/${rng.digits(6)}f${ids.idCobranca % 1000}`,
    eventosCartao: [],
    _baixaPerda: false,
  };
}
