/** isListar* flags decide whether nested arrays are filled. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { borrowSandbox, type SandboxHandle } from '../../dev/sandbox/harness.js';
import { api, listAll } from './helpers.js';

let sb: SandboxHandle;
beforeAll(async () => {
  sb = await borrowSandbox({ seed: 4 });
});
afterAll(async () => {
  await sb?.stop();
});

describe('isListar flags', () => {
  it('customers: telefones and tags are null unless asked for', async () => {
    const plain = await listAll(sb, '/v2/clientes');
    expect(plain.every((c) => c.telefones === null && c.tags === null)).toBe(true);
    const full = await listAll(sb, '/v2/clientes', { isListarTelefones: 'true', isListarTags: 'true' });
    expect(full.every((c) => Array.isArray(c.telefones) && Array.isArray(c.tags))).toBe(true);
    expect(full.some((c) => c.telefones.length > 0 && c.telefones[0].ddd.length === 2)).toBe(true);
    expect(full.some((c) => c.tags.length > 0)).toBe(true);
    const onlyTags = await listAll(sb, '/v2/clientes', { isListarTags: 'true', isListarTelefones: 'false' });
    expect(onlyTags.every((c) => c.telefones === null && Array.isArray(c.tags))).toBe(true);
  });

  it('invoices: itens null unless isListarItens=true; items add up to valorTotal', async () => {
    const plain = await api(sb, '/v2/faturamento/faturas');
    expect(plain.body.data.every((f: any) => f.itens === null)).toBe(true);
    const full = await api(sb, '/v2/faturamento/faturas', { query: { isListarItens: true } });
    for (const f of full.body.data) {
      expect(f.itens.length).toBeGreaterThan(0);
      const sum = f.itens.reduce((s: number, i: any) => s + Math.round(i.valorTotal * 100), 0);
      expect(sum / 100).toBe(f.valorTotal);
    }
  });

  it('charges: eventosCartao is [] unless isListarEventosCartao=true', async () => {
    const plain = await listAll(sb, '/v2/financeiro/cobrancas', { isExibeCanceladas: 'true' });
    expect(plain.every((c) => Array.isArray(c.eventosCartao) && c.eventosCartao.length === 0)).toBe(true);
    const full = await listAll(sb, '/v2/financeiro/cobrancas', { isExibeCanceladas: 'true', isListarEventosCartao: 'true' });
    const card = full.filter((c) => c.eventosCartao.length > 0);
    expect(card.length).toBeGreaterThan(0);
    expect(card.every((c) => c.metodoPagamento === 'CARTAO_CREDITO')).toBe(true);
    expect(card.some((c) => c.eventosCartao.some((e: any) => e.isTransacaoCancelada && e.motivoCancelamento))).toBe(true);
    expect(card[0].eventosCartao[0].cartaoTruncado).toMatch(/^\d{4}\*{8}\d{4}$/);
  });

  it('subscriptions: descontos null unless isListarDescontos=true', async () => {
    const plain = await api(sb, '/v2/assinaturascontratos');
    expect(plain.body.every((a: any) => a.descontos === null)).toBe(true);
    const full = await api(sb, '/v2/assinaturascontratos', { query: { isListarDescontos: 'true' } });
    expect(full.body.every((a: any) => Array.isArray(a.descontos))).toBe(true);
    const withDiscount = full.body.filter((a: any) => a.descontos.length > 0);
    expect(withDiscount.length).toBeGreaterThan(0);
    expect(withDiscount.every((a: any) => a.descontos.every((d: any) => d.valorDesconto < 0 && d.idAssinaturaContrato === a.idAssinaturaContrato))).toBe(true);
  });

  it('transactions always carry planosConta that add up (transfers have none, but a destination account)', async () => {
    const all = await listAll(sb, '/v2/financeiro/transacoes');
    for (const t of all) {
      if (t.tipoTransacao === 'T') {
        expect(t.planosConta).toEqual([]);
        expect(t.idContaCorrenteDestino).not.toBeNull();
        expect(t.idContaCorrenteDestino).not.toBe(t.idContaCorrente);
      } else {
        expect(t.idContaCorrenteDestino).toBeNull();
        const sum = t.planosConta.reduce((s: number, p: any) => s + Math.round(p.valor * 100), 0);
        expect(sum / 100).toBe(t.valor);
      }
    }
    expect(new Set(all.map((t) => t.tipoTransacao))).toEqual(new Set(['R', 'D', 'T']));
  });
});
