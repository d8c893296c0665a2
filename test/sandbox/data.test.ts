/** Seeded, realistic Brazilian data. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isValidCnpj, isValidCpf } from '../../dev/sandbox/brazil.js';
import { generateOrg, SIZES } from '../../dev/sandbox/generate.js';
import { ORG_DEFS } from '../../dev/sandbox/orgs.js';
import { borrowSandbox, startSandbox, type SandboxHandle } from '../../dev/sandbox/harness.js';
import { api } from './helpers.js';

let sb: SandboxHandle;
let org: string;
const d: Record<string, any[]> = {};
beforeAll(async () => {
  sb = await borrowSandbox({ seed: 1, size: 'medium' });
  org = sb.orgs[0].name;
  for (const r of ['clientes', 'faturas', 'nfse', 'cobrancas', 'transacoes', 'assinaturas'] as const) d[r] = await sb.dump(org, r);
});
afterAll(async () => {
  await sb?.stop();
});

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;
const COMP = /^(0[1-9]|1[0-2])\/20(24|25|26|27)$/;
const twoDecimals = (v: number) => Math.abs(Math.round(v * 100) - v * 100) < 1e-6;

describe('check digits', () => {
  it('validates known documents and rejects altered ones', () => {
    expect(isValidCpf('52998224725')).toBe(true);
    expect(isValidCpf('52998224724')).toBe(false);
    expect(isValidCpf('11111111111')).toBe(false);
    expect(isValidCnpj('11222333000181')).toBe(true);
    expect(isValidCnpj('11222333000180')).toBe(false);
  });

  it('every CPF/CNPJ in the data has valid check digits, and some start with 0', () => {
    const docs = [
      ...d.clientes.map((c) => c.cpfCnpj),
      ...d.clientes.filter((c) => c.cartaoCredito.cpfPortadorCartao).map((c) => c.cartaoCredito.cpfPortadorCartao),
    ];
    for (const doc of docs) expect(doc.length === 11 ? isValidCpf(doc) : isValidCnpj(doc), doc).toBe(true);
    expect(docs.some((x) => x.length === 11 && x.startsWith('0'))).toBe(true);
    expect(docs.some((x) => x.length === 14 && x.startsWith('0'))).toBe(true);
  });
});

describe('realistic data', () => {
  it('customers: CEP, accents, formula-like names, masked cards', () => {
    expect(d.clientes.every((c) => /^\d{5}-\d{3}$/.test(c.cep))).toBe(true);
    expect(d.clientes.some((c) => c.cep.startsWith('0'))).toBe(true);
    expect(d.clientes.some((c) => /[ãçéêíóôú]/i.test(c.nomeFantasia))).toBe(true);
    for (const p of ['=', '+', '-', '@', "'"])
      expect(
        d.clientes.some((c) => c.nomeFantasia.startsWith(p)),
        p,
      ).toBe(true);
    const cards = d.clientes.filter((c) => c.cartaoCredito.numeroCartao !== '');
    expect(cards.length).toBeGreaterThan(0);
    expect(cards.every((c) => /^\*{12}\d{4}$/.test(c.cartaoCredito.numeroCartao) && c.cartaoCredito.cvvCartao === '***')).toBe(true);
    expect(d.clientes.every((c) => DATE.test(c.dataCadastro) && DATETIME.test(c.dataHoraAtualizacao))).toBe(true);
  });

  it('invoices in every status; NFS-e numbers zero-padded or null', () => {
    expect(new Set(d.faturas.map((f) => f.statusFatura))).toEqual(new Set(['ABERTA', 'FATURADA', 'REFATURADA', 'CANCELADA']));
    expect(d.faturas.every((f) => COMP.test(f.competencia) && DATE.test(f.dataEmissao) && twoDecimals(f.valorTotal))).toBe(true);
    expect(d.nfse.some((n) => n.numeroNotaFiscalServico === null && n.statusNotaFiscalServico === 'EMITIDA')).toBe(true);
    const numbered = d.nfse.filter((n) => n.numeroNotaFiscalServico !== null);
    expect(numbered.every((n) => /^\d{6}$/.test(n.numeroNotaFiscalServico))).toBe(true);
    expect(numbered.some((n) => n.numeroNotaFiscalServico.startsWith('000'))).toBe(true);
  });

  it('charges: cancelled, baixa por perda, card events; money with 2 decimals', () => {
    expect(d.cobrancas.some((c) => c.dataHoraCancelamento && c.motivoCancelamento)).toBe(true);
    expect(d.cobrancas.some((c) => c._baixaPerda)).toBe(true);
    expect(d.cobrancas.some((c) => c.eventosCartao.length > 0)).toBe(true);
    expect(d.cobrancas.every((c) => twoDecimals(c.valor) && (c.valorPago === null || twoDecimals(c.valorPago)))).toBe(true);
    expect(d.cobrancas.every((c) => c.isQuitado === (c.dataPagamento !== null))).toBe(true);
  });

  it('transactions: R, D, T, multi-line observations, formula-like descriptions', () => {
    expect(new Set(d.transacoes.map((t) => t.tipoTransacao))).toEqual(new Set(['R', 'D', 'T']));
    expect(d.transacoes.some((t) => t.observacao.includes('\n'))).toBe(true);
    for (const p of ['=', '+', '-', '@', "'"])
      expect(
        d.transacoes.some((t) => t.descricao.startsWith(p)),
        p,
      ).toBe(true);
    expect(d.transacoes.every((t) => DATE.test(t.dataVencimento) && t.dataVencimento >= '2025-01-01' && t.dataVencimento <= '2026-12-31')).toBe(true);
  });

  it('subscriptions: PLANO and PERSONALIZADO, negative discounts, net = gross + discount', () => {
    expect(new Set(d.assinaturas.map((a) => a.tipoContrato))).toEqual(new Set(['PLANO', 'PERSONALIZADO']));
    expect(d.assinaturas.some((a) => a.valorDesconto < 0)).toBe(true);
    for (const a of d.assinaturas) {
      expect(a.valorDesconto).toBeLessThanOrEqual(0);
      expect(Math.round(a.valorBruto * 100) + Math.round(a.valorDesconto * 100)).toBe(Math.round(a.valorLiquido * 100));
    }
  });
});

describe('determinism', () => {
  it('the same seed gives the same data over HTTP; another seed differs', async () => {
    const first = await api(sb, '/v2/financeiro/transacoes', { query: { page: 3 } });
    const other = await startSandbox({ seed: 1, size: 'medium', eager: false });
    try {
      const again = await api(other, '/v2/financeiro/transacoes', { query: { page: 3 } });
      expect(again.body).toEqual(first.body);
      await other.reset({ seed: 2 });
      const reseeded = await api(other, '/v2/financeiro/transacoes', { query: { page: 3 } });
      expect(reseeded.body.data).not.toEqual(first.body.data);
    } finally {
      await other.stop();
    }
  });

  // How long it takes is the bench's business (timed assertions flake on a loaded machine).
  it('generates 100k transactions and 50k invoices for one organization', () => {
    const big = generateOrg(ORG_DEFS[0], 1, SIZES.large);
    expect(big.transacoes.length).toBe(100_000);
    expect(big.faturas.length).toBe(50_000);
  });
});
