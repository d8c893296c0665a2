/**
 * Seeded generation of one organization's data. Every organization draws from
 * its own stream (seed + index), so generating lazily or in another order gives
 * the same records.
 */
import {
  BAIRROS,
  BANDEIRAS,
  BANKS,
  COMPANY_WORDS,
  LEGAL_SUFFIXES,
  LOGRADOUROS,
  PLACES,
  linhaDigitavel,
  makeCep,
  makeCnpj,
  makeCpf,
  maybeFormula,
  personName,
  slug,
} from './brazil.js';
import { seedClosing } from './closing.js';
import { seedOfficeMonth } from './office.js';
import { addDays, competenciaOf, dateToDay, datetime, dayToDate, pad, TODAY_DAY } from './dates.js';
import { nfseFor } from './nfse.js';
import type { OrgDef } from './orgs.js';
import { priceSubscription } from './pricing.js';
import type {
  Assinatura,
  Cliente,
  CobrancaRow,
  DescontoAssinatura,
  EventoCartao,
  FaturaRow,
  ItemFatura,
  Nfse,
  Plano,
  PlanoConta,
  Produto,
  Tag,
  Telefone,
  Transacao,
} from './records.js';
import { centsToMoney, Rng } from './rng.js';
import type { SandboxSize, SizeCounts } from './types.js';

export const SIZES: Record<'small' | 'medium' | 'large', SizeCounts> = {
  small: { clientes: 60, faturas: 130, cobrancas: 120, transacoes: 160, assinaturas: 70 },
  medium: { clientes: 1_000, faturas: 10_000, cobrancas: 10_000, transacoes: 20_000, assinaturas: 2_000 },
  large: { clientes: 5_000, faturas: 50_000, cobrancas: 50_000, transacoes: 100_000, assinaturas: 10_000 },
};

export function resolveSize(size: SandboxSize | undefined): SizeCounts {
  if (size === undefined) return SIZES.small;
  if (typeof size === 'string') {
    const s = SIZES[size];
    if (!s) throw new Error(`unknown size ${size}`);
    return s;
  }
  return { ...SIZES.small, ...size };
}

export interface OrgData {
  def: OrgDef;
  clientes: Cliente[];
  clienteById: Map<number, Cliente>;
  faturas: FaturaRow[];
  faturaById: Map<number, FaturaRow>;
  nfse: Nfse[];
  nfseByFatura: Map<number, Nfse>;
  cobrancas: CobrancaRow[];
  transacoes: Transacao[];
  assinaturas: Assinatura[];
  assinaturaById: Map<number, Assinatura>;
  produtos: Produto[];
  planos: Plano[];
  /** Next ids for records created through the API. */
  next: { idAssinatura: number; idDesconto: number; idNfse: number; numeroRps: number; numeroNfse: number };
  /** Runtime decisions (e.g. status of an emitted note), seeded too. */
  rng: Rng;
  nfseNumberWidth: number;
}

/** Ids with gaps, as a shared sequence in a real multi-tenant database would leave. */
class IdSeq {
  private n: number;
  constructor(
    private rng: Rng,
    start: number,
  ) {
    this.n = start;
  }
  next(): number {
    this.n += this.rng.int(1, 3);
    return this.n;
  }
  peek(): number {
    return this.n;
  }
}

const MOTIVOS_INATIVACAO = ['Encerrou as atividades', 'Inadimplência', 'Mudou de fornecedor'];
const MOTIVOS_CANCELAMENTO = ['Cobrança emitida em duplicidade', 'Cliente solicitou cancelamento', 'Valor incorreto'];
const FORMAS_PAGAMENTO = [
  { id: 1, nome: 'Boleto' },
  { id: 2, nome: 'PIX' },
  { id: 3, nome: 'Transferência' },
  { id: 4, nome: 'Cartão de Crédito' },
  { id: 5, nome: 'Dinheiro' },
  { id: 6, nome: 'Débito Automático' },
];
const PLANOS_RECEITA = [
  { id: 101, nome: '1.01.01 - Receita de Honorários Contábeis' },
  { id: 102, nome: '1.01.02 - Receita de Serviços de Folha' },
  { id: 103, nome: '1.01.03 - Receita de Consultoria' },
  { id: 104, nome: '1.02.01 - Rendimentos de Aplicação' },
];
const PLANOS_DESPESA = [
  { id: 201, nome: '2.01.01 - Aluguel' },
  { id: 202, nome: '2.01.02 - Energia Elétrica' },
  { id: 203, nome: '2.02.01 - Salários' },
  { id: 204, nome: '2.02.02 - Pró-labore' },
  { id: 205, nome: '2.03.01 - Software e Licenças' },
  { id: 206, nome: '2.04.01 - Impostos (DAS)' },
];
const DESCRICOES_RECEITA = ['Honorários contábeis', 'Abertura de empresa', 'Declaração de IRPF', 'Folha de pagamento', 'Consultoria tributária'];
const DESCRICOES_DESPESA = ['Aluguel da sala', 'Conta de luz', 'Salários', 'Licença do sistema contábil', 'DAS Simples Nacional', 'Material de escritório'];
const OBSERVACOES = [
  '',
  'Pagamento referente ao contrato.\nEnviar recibo por e-mail.',
  'Conferido por Márcia.\r\nLançamento revisado em auditoria.',
  'Parcela renegociada;\nvencimento original alterado.\n\nVer anexo.',
  'Sem observações',
];

function moneyParts(rng: Rng, totalCents: number, parts: number): number[] {
  const out: number[] = [];
  let left = totalCents;
  for (let i = 0; i < parts - 1; i++) {
    const c = Math.max(1, Math.floor(left * (0.2 + rng.next() * 0.5)));
    out.push(c);
    left -= c;
  }
  out.push(left);
  return out;
}

/** Spreads records over 2025-01-01..today, in id order, with jitter. */
function dayFor(rng: Rng, i: number, n: number): number {
  const base = Math.floor((i / Math.max(1, n)) * TODAY_DAY);
  return Math.min(TODAY_DAY, Math.max(0, base + rng.int(-5, 5)));
}

function timeOfDay(rng: Rng): number {
  return rng.int(7 * 60, 20 * 60);
}

export function generateOrg(def: OrgDef, seed: number, counts: SizeCounts): OrgData {
  const root = new Rng(seed * 7919 + def.index * 104729 + 17);
  const base = (def.index + 1) * 10_000_000;
  const produtos = genProdutos(root.fork(1), base);
  const planos = genPlanos(root.fork(2), base, produtos);
  const clientes = genClientes(root.fork(3), base, def, counts.clientes);
  const clienteById = new Map(clientes.map((c) => [c.idCliente, c]));
  const buyers = clientes.filter((c) => c.isCliente);
  const faturas = genFaturas(root.fork(4), base, buyers, produtos, counts.faturas);
  const nfseWidth = def.index === 1 ? 8 : 6;
  const nfseGen = genNfse(root.fork(5), base, def, faturas, clienteById, nfseWidth);
  const cobrancas = genCobrancas(root.fork(6), base, buyers, counts.cobrancas);
  const transacoes = genTransacoes(root.fork(7), base, clientes, counts.transacoes);
  const assinaturas = genAssinaturas(root.fork(8), base, buyers, planos, produtos, counts.assinaturas);
  const maxDesconto = assinaturas.reduce((m, a) => Math.max(m, ...(a.descontos ?? []).map((d) => d.idDescontoAssinaturaContrato)), base + 8_000_000);
  const data: OrgData = {
    def,
    clientes,
    clienteById,
    faturas,
    faturaById: new Map(faturas.map((f) => [f.idFatura, f])),
    nfse: nfseGen.notes,
    nfseByFatura: new Map(nfseGen.notes.map((n) => [n.idFatura, n])),
    cobrancas,
    transacoes,
    assinaturas,
    assinaturaById: new Map(assinaturas.map((a) => [a.idAssinaturaContrato, a])),
    produtos,
    planos,
    next: {
      idAssinatura: (assinaturas.at(-1)?.idAssinaturaContrato ?? base + 7_000_000) + 1,
      idDesconto: maxDesconto + 1,
      idNfse: nfseGen.nextId,
      numeroRps: nfseGen.nextRps,
      numeroNfse: nfseGen.nextNumero,
    },
    rng: root.fork(9),
    nfseNumberWidth: nfseWidth,
  };
  // An office company's month is its status's (office.ts); the demo organizations' is the known close.
  if (def.office) seedOfficeMonth(data, root.fork(10), def.office);
  else seedClosing(data, root.fork(10));
  return data;
}

function genProdutos(rng: Rng, base: number): Produto[] {
  const names = [
    'Honorários Contábeis Mensais',
    'Departamento Pessoal',
    'Escrituração Fiscal',
    'Consultoria Tributária',
    'BPO Financeiro',
    'Certificado Digital A1',
    'Abertura de Empresa',
    'Declaração de IRPF',
  ];
  let id = base + 100 + rng.int(0, 50);
  return names.map((descricao) => ({ idProduto: (id += rng.int(1, 4)), descricao }));
}

function genPlanos(rng: Rng, base: number, produtos: Produto[]): Plano[] {
  const defs: Array<[string, Plano['tipoCalculo'], number]> = [
    ['Plano MEI', 'PRECO_FIXO', 189.9],
    ['Plano Simples Essencial', 'PRECO_FIXO', 549],
    ['Plano Lucro Presumido', 'PRECO_FIXO', 1390.5],
    ['Folha por Funcionário', 'PRECO_POR_UNIDADE', 42.75],
    ['Notas Fiscais por Lote', 'PRECO_POR_UNIDADE', 3.33],
    ['BPO Financeiro Plus', 'PRECO_FIXO', 2199.99],
  ];
  let id = base + 500 + rng.int(0, 50);
  return defs.map(([descricao, tipoCalculo, valorUnitario], i) => ({
    idPlano: (id += rng.int(1, 4)),
    descricao,
    idProduto: produtos[i % produtos.length].idProduto,
    tipoCalculo,
    valorUnitario,
  }));
}

function emailFor(rng: Rng, name: string): string {
  const domain = rng.pick(['gmail.com', 'hotmail.com', 'uol.com.br', 'terra.com.br', 'empresa.com.br', 'yahoo.com.br']);
  return `${slug(name).slice(0, 24) || 'contato'}${rng.chance(0.3) ? rng.int(1, 99) : ''}@${domain}`;
}

function genClientes(rng: Rng, base: number, def: OrgDef, n: number): Cliente[] {
  const ids = new IdSeq(rng, base + 1000);
  const out: Cliente[] = [];
  const sharedEmail = `financeiro@${slug(def.name).split('.')[0]}.com.br`;
  let idTel = base + 900_000;
  let idTag = base + 950_000;
  for (let i = 0; i < n; i++) {
    const self = i === 0;
    const pj = self || rng.chance(0.6);
    const place = rng.pick(PLACES);
    const person = personName(rng);
    const fantasia = self ? def.name : pj ? `${rng.pick(COMPANY_WORDS)}${rng.chance(0.3) ? ' ' + rng.int(2, 9) : ''}` : person;
    const nomeFantasia = self ? fantasia : maybeFormula(rng, fantasia);
    const razaoSocial = self ? def.name : pj ? `${fantasia.replace(/^[=+\-@']/, '')} ${rng.pick(LEGAL_SUFFIXES)}` : person;
    const ativo = self || rng.chance(0.88);
    const cadastroDay = rng.int(0, Math.max(0, TODAY_DAY - 30));
    const dataCadastro = dayToDate(cadastroDay);
    const inativacaoDay = ativo ? null : rng.int(cadastroDay + 1, TODAY_DAY);
    const updatedDay = inativacaoDay ?? rng.int(cadastroDay, TODAY_DAY);
    const hasCard = !self && rng.chance(0.25);
    const cpf = pj ? (self ? def.cnpj : makeCnpj(rng)) : makeCpf(rng);
    const telefones: Telefone[] = [];
    for (let t = rng.int(0, 3); t > 0; t--) {
      const cel = rng.chance(0.6);
      telefones.push({
        idTelefone: (idTel += rng.int(1, 3)),
        tipo: cel ? 'CELULAR' : 'COMERCIAL',
        ddi: '55',
        ddd: place.ddd,
        numero: cel ? '9' + rng.digits(8) : String(rng.int(2, 5)) + rng.digits(7),
        ramal: !cel && rng.chance(0.3) ? String(rng.int(100, 999)) : null,
        isPrincipal: t === 1,
      });
    }
    const tags: Tag[] = [];
    for (let t = rng.int(0, 2); t > 0; t--)
      tags.push({ idTag: (idTag += rng.int(1, 3)), descricao: rng.pick(['VIP', 'Simples Nacional', 'MEI', 'Lucro Presumido', 'Inadimplente', 'Indicação']) });
    out.push({
      idCliente: ids.next(),
      idIntegracao: rng.chance(0.8) ? `CLI-${pad(i + 1, 6)}` : '',
      isAtivo: ativo,
      isCliente: !self && rng.chance(0.9),
      isFornecedor: !self && rng.chance(0.2),
      isParceiro: !self && rng.chance(0.05),
      isFuncionario: !self && !pj && rng.chance(0.08),
      dataCadastro,
      nomeFantasia,
      razaoSocial,
      cpfCnpj: cpf,
      nif: '',
      // Several customers share the accountant's mailbox, so an email filter can return many.
      email: !self && rng.chance(0.08) ? sharedEmail : emailFor(rng, fantasia),
      emailSecundario: rng.chance(0.3) ? emailFor(rng, person) : null,
      website: pj && rng.chance(0.4) ? `https://www.${slug(fantasia).replace(/\./g, '')}.com.br` : '',
      idSegmento: rng.int(1, 8),
      pais: 'Brasil',
      estado: place.uf,
      cidade: place.cidade,
      bairro: rng.pick(BAIRROS),
      logradouro: rng.pick(LOGRADOUROS),
      numeroEndereco: rng.chance(0.1) ? 'S/N' : String(rng.int(1, 3999)),
      complementoEndereco: rng.chance(0.35) ? rng.pick(['Sala 12', 'Apto 301', 'Bloco B, Conj. 45', 'Fundos']) : null,
      unidadeConsumidora: rng.chance(0.05) ? rng.digits(10) : null,
      cep: makeCep(rng, place),
      meioPagamento: hasCard ? 'CARTAO_CREDITO' : rng.pick(['BOLETO', 'BOLETO', 'PIX', 'BOLETO_PIX']),
      diaVencimentoCobranca: rng.pick([5, 10, 15, 20, 25, 28]),
      idGrupoFaturamento: rng.int(1, 4),
      formaEmissaoNfse: 'MANUAL',
      dataInativacao: inativacaoDay === null ? null : dayToDate(inativacaoDay),
      idMotivoInativacao: ativo ? null : rng.int(1, MOTIVOS_INATIVACAO.length),
      motivoInativacao: ativo ? null : rng.pick(MOTIVOS_INATIVACAO),
      dataHoraCadastro: datetime(dataCadastro, timeOfDay(rng), rng.int(0, 59)),
      dataHoraAtualizacao: datetime(dayToDate(updatedDay), timeOfDay(rng), rng.int(0, 59)),
      isNaoRetemPisCofinsCsll: rng.chance(0.2),
      isNaoRetemIrrf: rng.chance(0.2),
      isNaoDestacaIss: rng.chance(0.1),
      cartaoCredito: hasCard
        ? {
            numeroCartao: `************${rng.digits(4)}`,
            cvvCartao: '***',
            vencimentoCartao: `${pad(rng.int(1, 12))}/${rng.int(2026, 2031)}`,
            nomeImpressoCartao: person.toUpperCase(),
            cpfPortadorCartao: pj ? makeCpf(rng) : cpf,
          }
        : { numeroCartao: '', cvvCartao: '', vencimentoCartao: '', nomeImpressoCartao: '', cpfPortadorCartao: '' },
      telefones,
      tags,
    });
  }
  return out;
}

const INVOICE_STATUS: Array<[string, number]> = [
  ['FATURADA', 0.58],
  ['ABERTA', 0.15],
  ['REFATURADA', 0.1],
  ['CANCELADA', 0.17],
];

function weighted(rng: Rng, table: Array<[string, number]>): string {
  let r = rng.next();
  for (const [v, w] of table) if ((r -= w) < 0) return v;
  return table[table.length - 1][0];
}

function genFaturas(rng: Rng, base: number, buyers: Cliente[], produtos: Produto[], n: number): FaturaRow[] {
  const ids = new IdSeq(rng, base + 2_000_000);
  let idItem = base + 4_000_000;
  let numero = rng.int(1000, 5000);
  const out: FaturaRow[] = [];
  let lote = 0;
  for (let i = 0; i < n; i++) {
    const c = rng.pick(buyers);
    const day = dayFor(rng, i, n);
    const dataEmissao = dayToDate(day);
    const recorrente = rng.chance(0.75);
    const itens: ItemFatura[] = [];
    let totalCents = 0;
    for (let k = rng.int(1, 4); k > 0; k--) {
      const p = rng.pick(produtos);
      const qtd = rng.chance(0.7) ? 1 : rng.int(2, 12);
      const vu = rng.cents(15, 2500);
      const tot = vu * qtd;
      totalCents += tot;
      itens.push({
        idItemFatura: (idItem += rng.int(1, 3)),
        idProduto: p.idProduto,
        descricaoProduto: p.descricao,
        descricao: maybeFormula(rng, `${p.descricao} - ${competenciaOf(dataEmissao)}`, 0.04),
        quantidade: qtd,
        valorUnitario: centsToMoney(vu),
        valorTotal: centsToMoney(tot),
      });
    }
    const withCheckout = rng.chance(0.3);
    if (withCheckout && rng.chance(0.3)) lote++;
    const updDay = Math.min(TODAY_DAY, day + rng.int(0, 20));
    out.push({
      idFatura: ids.next(),
      idIntegracao: rng.chance(0.6) ? `FAT-${dataEmissao.slice(0, 4)}-${pad(i + 1, 6)}` : null,
      numeroPedido: rng.chance(0.4) ? (rng.chance(0.5) ? pad(rng.int(1, 99999), 6) : `PED-${rng.int(10000, 99999)}`) : null,
      codigoCheckout: withCheckout ? `CHK${rng.digits(4)}${String.fromCharCode(65 + rng.int(0, 25))}${rng.digits(3)}` : null,
      numero: (numero += 1),
      statusFatura: weighted(rng, INVOICE_STATUS),
      tipoFatura: recorrente ? 'RECORRENTE' : 'AVULSA',
      formaFaturamentoAssinatura: recorrente ? (rng.chance(0.8) ? 'AGRUPADA' : 'INDIVIDUAL') : null,
      origemFatura: 'MANUAL',
      competencia: competenciaOf(rng.chance(0.8) ? dataEmissao : addDays(dataEmissao, -30)),
      idCliente: c.idCliente,
      nomeCliente: c.nomeFantasia,
      dataEmissao,
      valorTotal: centsToMoney(totalCents),
      itens,
      _loteCheckout: withCheckout ? `LOTE-${pad(lote + 1, 5)}` : null,
      _dataHoraAtualizacao: datetime(dayToDate(updDay), timeOfDay(rng), rng.int(0, 59)),
    });
  }
  return out;
}

function genNfse(rng: Rng, base: number, def: OrgDef, faturas: FaturaRow[], clientes: Map<number, Cliente>, width: number) {
  const ids = new IdSeq(rng, base + 3_000_000);
  let rps = rng.int(1, 900);
  let numero = rng.int(1, 400);
  const notes: Nfse[] = [];
  if (def.hasCityHallIntegration) {
    for (const f of faturas) {
      if ((f.statusFatura !== 'FATURADA' && f.statusFatura !== 'REFATURADA') || !rng.chance(0.7)) continue;
      const c = clientes.get(f.idCliente)!;
      const autorizada = rng.chance(0.8);
      const aliquota = rng.pick([2, 2.5, 3, 3.5, 5]);
      const issRetido = rng.chance(0.25) ? 2 : 0;
      notes.push(
        nfseFor(f, c, {
          idNotaFiscalServico: ids.next(),
          dataEmissao: dayToDate(Math.min(TODAY_DAY, dateToDay(f.dataEmissao) + rng.int(0, 3))),
          horaEmissao: `${pad(rng.int(7, 20))}:${pad(rng.int(0, 59))}`,
          numeroRps: (rps += 1),
          numeroNotaFiscalServico: autorizada ? pad((numero += 1), width) : null,
          issRetido,
          aliquota,
        }),
      );
    }
  }
  return { notes, nextId: ids.peek() + 1, nextRps: rps + 1, nextNumero: numero + 1 };
}

function genCobrancas(rng: Rng, base: number, buyers: Cliente[], n: number): CobrancaRow[] {
  const ids = new IdSeq(rng, base + 5_000_000);
  let nosso = rng.int(100_000, 900_000);
  let titulo = rng.int(1, 5000);
  let idEvento = base + 5_900_000;
  const out: CobrancaRow[] = [];
  for (let i = 0; i < n; i++) {
    const c = rng.pick(buyers);
    const emDay = dayFor(rng, i, n);
    const dataEmissao = dayToDate(emDay);
    const vencOrigDay = emDay + rng.int(5, 30);
    const prorrogado = rng.chance(0.1);
    const vencDay = prorrogado ? vencOrigDay + rng.int(3, 20) : vencOrigDay;
    const valorCents = rng.cents(50, 5000);
    const metodo = rng.chance(0.7) ? 'BOLETO' : rng.chance(0.66) ? 'CARTAO_CREDITO' : 'PIX';
    const r = rng.next();
    const cancelada = r < 0.1;
    const perda = !cancelada && r < 0.15 && vencDay < TODAY_DAY - 60;
    const pagoDay = !cancelada && !perda && rng.chance(0.7) ? Math.min(TODAY_DAY, vencDay + rng.int(-5, 10)) : null;
    const paid = pagoDay !== null && pagoDay <= TODAY_DAY && pagoDay >= emDay;
    const moraCents = paid && pagoDay! > vencDay ? Math.round(valorCents * 0.02) + (pagoDay! - vencDay) * Math.round(valorCents * 0.00033) : 0;
    const descCents = paid && pagoDay! < vencDay - 3 && rng.chance(0.3) ? Math.round(valorCents * 0.05) : 0;
    const updDay = Math.min(TODAY_DAY, paid ? pagoDay! : emDay + rng.int(0, 10));
    const eventos: EventoCartao[] = [];
    if (metodo === 'CARTAO_CREDITO') {
      const bandeira = rng.pick(BANDEIRAS);
      const truncado = `${rng.digits(4)}********${rng.digits(4)}`;
      for (let k = rng.int(1, 3); k > 0; k--) {
        const cancel = k > 1 && rng.chance(0.5);
        eventos.push({
          idEventoCartao: (idEvento += rng.int(1, 3)),
          dataHoraRegistro: datetime(dayToDate(Math.min(TODAY_DAY, emDay + rng.int(0, 5))), timeOfDay(rng), rng.int(0, 59)),
          pedidoNumero: rng.int(100000, 999999),
          tid: rng.digits(20),
          autorizacao: rng.digits(6),
          bandeira,
          cartaoTruncado: truncado,
          mensagem: cancel
            ? 'Transação cancelada'
            : rng.pick(['Transação autorizada', 'Transação capturada com sucesso', 'Não autorizada - saldo insuficiente']),
          isTransacaoCancelada: cancel,
          motivoCancelamento: cancel ? rng.pick(['Estorno solicitado pelo cliente', 'Cobrança em duplicidade']) : null,
        });
      }
    }
    const cancelDt = cancelada ? datetime(dayToDate(Math.min(TODAY_DAY, emDay + rng.int(1, 20))), timeOfDay(rng), rng.int(0, 59)) : null;
    out.push({
      idCobranca: ids.next(),
      idCliente: c.idCliente,
      idIntegracaoCliente: c.idIntegracao,
      cpfCnpj: c.cpfCnpj,
      nomeFantasia: c.nomeFantasia,
      razaoSocial: c.razaoSocial,
      nossoNumero: (nosso += rng.int(1, 2)),
      numeroTitulo: (titulo += 1),
      numeroParcela: rng.chance(0.8) ? 1 : rng.int(2, 6),
      dataEmissao,
      dataVencimentoOriginal: dayToDate(vencOrigDay),
      dataVencimento: dayToDate(vencDay),
      dataPagamento: paid ? dayToDate(pagoDay!) : null,
      isQuitado: paid,
      competencia: competenciaOf(dataEmissao),
      valor: centsToMoney(valorCents),
      valorPago: paid ? centsToMoney(valorCents + moraCents - descCents) : null,
      valorMoraMulta: centsToMoney(moraCents),
      valorDesconto: centsToMoney(descCents),
      linhaDigitavel: linhaDigitavel(rng, valorCents, vencDay),
      pixCopiaCola:
        metodo !== 'CARTAO_CREDITO' && rng.chance(0.6)
          ? `00020101021226870014br.gov.bcb.pix2565qrpix.exemplo.com.br/qr/v2/${rng.digits(12)}5204000053039865802BR5925${slug(c.razaoSocial).slice(0, 25).toUpperCase()}6009SAO PAULO62070503***6304${rng.digits(4)}`
          : null,
      codigoCheckout: rng.chance(0.2) ? `CHK${rng.digits(8)}` : null,
      metodoPagamento: metodo,
      statusTitulo: cancelada ? 'CANCELADO' : perda ? 'BAIXADO' : paid ? 'QUITADO' : 'PENDENTE',
      situacao: cancelada ? 'CANCELADA' : perda ? 'BAIXA_POR_PERDA' : 'EMITIDA',
      dataHoraCancelamento: cancelDt,
      motivoCancelamento: cancelada ? rng.pick(MOTIVOS_CANCELAMENTO) : null,
      usuarioCancelamento: cancelada ? rng.pick(['marcia.araujo', 'joao.simoes', 'integracao.api']) : null,
      dataHoraCadastro: datetime(dataEmissao, timeOfDay(rng), rng.int(0, 59)),
      dataHoraAtualizacao: cancelDt ?? datetime(dayToDate(updDay), timeOfDay(rng), rng.int(0, 59)),
      link: `https://pagamento.sandbox-faturamento.com.br/c/${rng.digits(6)}${(ids.peek() % 1000).toString(36)}`,
      eventosCartao: eventos,
      _baixaPerda: perda,
    });
  }
  return out;
}

function genTransacoes(rng: Rng, base: number, clientes: Cliente[], n: number): Transacao[] {
  const ids = new IdSeq(rng, base + 6_000_000);
  let idTpc = base + 6_600_000;
  const self = clientes[0];
  const contas = BANKS.slice(0, 4).map((b, i) => ({ id: base + 60 + i * 3, nome: `${b} - CC ${rng.int(1000, 99999)}-${rng.int(0, 9)}` }));
  const out: Transacao[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const t = rng.next();
    const tipo = t < 0.5 ? 'R' : t < 0.85 ? 'D' : 'T';
    const vencDay = dayFor(rng, i, n) + rng.int(0, 20);
    const dataVencimento = dayToDate(vencDay);
    const pagoDay = vencDay <= TODAY_DAY && rng.chance(0.75) ? Math.min(TODAY_DAY, vencDay + rng.int(-3, 7)) : null;
    const valorCents = tipo === 'T' ? rng.cents(500, 20000) : rng.cents(10, 8000);
    const cf = tipo === 'T' ? self : clientes[rng.int(0, clientes.length - 1)];
    const conta = rng.pick(contas);
    let destino: { id: number; nome: string } | null = null;
    if (tipo === 'T')
      do destino = rng.pick(contas);
      while (destino.id === conta.id);
    const forma = tipo === 'T' ? FORMAS_PAGAMENTO[2] : rng.pick(FORMAS_PAGAMENTO);
    const op = tipo === 'R' ? 'C' : 'D';
    const planos: PlanoConta[] = [];
    if (tipo !== 'T') {
      const catalog = tipo === 'R' ? PLANOS_RECEITA : PLANOS_DESPESA;
      for (const part of moneyParts(rng, valorCents, rng.chance(0.8) ? 1 : rng.int(2, 3))) {
        const p = rng.pick(catalog);
        planos.push({
          idTransacaoPlanoConta: (idTpc += rng.int(1, 3)),
          idPlanoConta: p.id,
          planoConta: p.nome,
          complemento: rng.chance(0.3) ? 'Rateio' : '',
          valor: centsToMoney(part),
          tipoOperacao: op,
        });
      }
    }
    const incDay = Math.max(0, Math.min(TODAY_DAY, vencDay - rng.int(0, 25)));
    const updDay = Math.min(TODAY_DAY, pagoDay ?? incDay + rng.int(0, 5));
    const descricao = tipo === 'T' ? `Transferência entre contas` : rng.pick(tipo === 'R' ? DESCRICOES_RECEITA : DESCRICOES_DESPESA);
    out[i] = {
      idTransacao: ids.next(),
      tipoTransacao: tipo,
      tipoOperacao: op,
      descricao: maybeFormula(rng, descricao + (rng.chance(0.3) ? ` ${competenciaOf(dataVencimento)}` : '')),
      numeroDocumento: rng.chance(0.6) ? (rng.chance(0.5) ? pad(rng.int(1, 99999), 6) : `NF ${rng.int(100, 9999)}`) : '',
      dataDocumento: rng.chance(0.7) ? dayToDate(incDay) : null,
      dataVencimento,
      dataPagamento: pagoDay === null ? null : dayToDate(pagoDay),
      competencia: competenciaOf(rng.chance(0.85) ? dataVencimento : addDays(dataVencimento, -30)),
      valor: centsToMoney(valorCents),
      isQuitado: pagoDay !== null,
      idClienteFornecedor: cf.idCliente,
      clienteFornecedor: cf.nomeFantasia,
      idContaCorrente: conta.id,
      contaCorrente: conta.nome,
      idContaCorrenteDestino: destino?.id ?? null,
      contaCorrenteDestino: destino?.nome ?? null,
      idFormaPagamento: forma.id,
      formaPagamento: forma.nome,
      observacao: rng.pick(OBSERVACOES),
      dataHoraInclusao: datetime(dayToDate(incDay), timeOfDay(rng), rng.int(0, 59)),
      dataHoraAtualizacao: datetime(dayToDate(updDay), timeOfDay(rng), rng.int(0, 59)),
      planosConta: planos,
      centrosCusto: [],
      tags: [],
    };
  }
  return out;
}

function genAssinaturas(rng: Rng, base: number, buyers: Cliente[], planos: Plano[], produtos: Produto[], n: number): Assinatura[] {
  const ids = new IdSeq(rng, base + 7_000_000);
  let idDesc = base + 8_000_000;
  const out: Assinatura[] = [];
  for (let i = 0; i < n; i++) {
    const c = rng.pick(buyers);
    const id = ids.next();
    const plano = rng.chance(0.6) ? rng.pick(planos) : null;
    const produto = plano ? produtos.find((p) => p.idProduto === plano.idProduto)! : rng.pick(produtos);
    const adesaoDay = dayFor(rng, i, n);
    const dataAdesao = dayToDate(adesaoDay);
    const compIni = competenciaOf(dayToDate(Math.min(TODAY_DAY, adesaoDay + rng.int(0, 30))));
    const quantidade = plano?.tipoCalculo === 'PRECO_POR_UNIDADE' ? rng.int(1, 40) : 1;
    const valorUnitario = plano ? plano.valorUnitario : centsToMoney(rng.cents(99, 4500));
    const descontos: DescontoAssinatura[] = [];
    if (plano && rng.chance(0.35)) {
      for (let k = rng.int(1, 2); k > 0; k--) {
        const pct = rng.chance(0.8);
        const value = pct ? rng.pick([5, 10, 12.5, 15, 20]) : centsToMoney(rng.cents(10, 80));
        descontos.push({
          idDescontoAssinaturaContrato: (idDesc += rng.int(1, 3)),
          idAssinaturaContrato: id,
          idIntegracao: `DESC-${id}-${k}`,
          descricao: rng.pick(['Desconto de fidelidade', 'Promoção de adesão', 'Desconto indicação', 'Negociação comercial']),
          tipoDesconto: pct ? 'PERCENTUAL' : 'VALOR',
          valorDesconto: -value,
          competenciaInicial: compIni,
          competenciaFinal: rng.chance(0.7) ? '12/2027' : competenciaOf(dayToDate(Math.min(TODAY_DAY + 60, adesaoDay + 180))),
        });
      }
    }
    const price = priceSubscription({
      tipoCalculo: plano?.tipoCalculo ?? 'PRECO_FIXO',
      quantidade,
      valorUnitario,
      competenciaInicial: compIni,
      descontos: descontos.map((d) => ({ ...d, valorDesconto: -d.valorDesconto })),
    });
    const cancelada = rng.chance(0.1);
    const cadastro = datetime(dataAdesao, timeOfDay(rng), rng.int(0, 59));
    const cancelDay = cancelada ? Math.min(TODAY_DAY, adesaoDay + rng.int(30, 200)) : null;
    const descricaoAss = maybeFormula(
      rng,
      plano ? `${plano.descricao} - ${c.nomeFantasia.replace(/^[=+\-@']/, '')}` : `Contrato personalizado - ${produto.descricao}`,
    );
    out.push({
      idAssinaturaContrato: id,
      idIntegracao: rng.chance(0.85) ? `ASS-${pad(i + 1, 6)}` : '',
      idCliente: c.idCliente,
      nomeCliente: c.nomeFantasia,
      dataAdesao,
      competenciaInicial: compIni,
      competenciaFinal: cancelDay !== null ? competenciaOf(dayToDate(cancelDay)) : rng.chance(0.15) ? '12/2027' : null,
      tipoContrato: plano ? 'PLANO' : 'PERSONALIZADO',
      periodicidade: rng.chance(0.9) ? 'MENSAL' : rng.pick(['TRIMESTRAL', 'ANUAL']),
      tipoCalculo: plano?.tipoCalculo ?? 'PRECO_FIXO',
      idPlano: plano?.idPlano ?? null,
      descricaoPlano: plano?.descricao ?? null,
      idProduto: produto.idProduto,
      descricaoProduto: produto.descricao,
      descricaoAssinaturaContrato: descricaoAss,
      quantidade,
      valorUnitario,
      ...price,
      isDescontoVencimentoBoleto: rng.chance(0.2),
      formaFaturamentoAssinatura: rng.chance(0.75) ? 'AGRUPADA' : 'INDIVIDUAL',
      diaVencimentoCobranca: rng.pick([5, 10, 15, 20, 25]),
      competenciaPagamento: rng.chance(0.6) ? 'COMPETENCIA_CORRENTE' : 'COMPETENCIA_ANTERIOR',
      discriminacaoNfse: rng.chance(0.6) ? `Serviços de ${produto.descricao.toLowerCase()}\nCompetência {competencia}` : null,
      informacaoAdicionalBoleto: rng.chance(0.3) ? 'Após o vencimento cobrar multa de 2% e juros de 1% a.m.' : null,
      dataHoraCadastro: cadastro,
      dataHoraAtualizacao: cancelDay !== null ? datetime(dayToDate(cancelDay), timeOfDay(rng)) : cadastro,
      statusAssinaturaContrato: cancelada ? 'CANCELADO' : 'ATIVO',
      dataCancelamento: cancelDay === null ? null : dayToDate(cancelDay),
      motivoCancelamento: cancelada ? rng.pick(['Cliente encerrou a empresa', 'Migrou para outro escritório', 'Inadimplência']) : null,
      descontos,
    });
  }
  return out;
}
