/** Page bases, paging objects, pagina, pageSize and the ignorePage fault. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { borrowSandbox, type SandboxHandle } from '../../dev/sandbox/harness.js';
import { api } from './helpers.js';

let sb: SandboxHandle;
const dump: Record<string, any[]> = {};
beforeAll(async () => {
  sb = await borrowSandbox({ seed: 2 });
  for (const r of ['clientes', 'faturas', 'nfse', 'transacoes', 'assinaturas'] as const) dump[r] = await sb.dump(sb.orgs[0].name, r);
});
afterEach(async () => {
  await sb.reset();
});
afterAll(async () => {
  await sb?.stop();
});

const idsOf = (rows: any[], key: string) => rows.map((r) => r[key]);

describe('page base', () => {
  it('starts at 1 by default: page 1 is the first 50, page 0 is a 400, past the end is empty', async () => {
    const first = await api(sb, '/v2/faturamento/faturas', { query: { page: 1 } });
    expect(idsOf(first.body.data, 'idFatura')).toEqual(idsOf(dump.faturas.slice(0, 50), 'idFatura'));
    const noPage = await api(sb, '/v2/faturamento/faturas');
    expect(noPage.body.data).toEqual(first.body.data);
    const second = await api(sb, '/v2/faturamento/faturas', { query: { page: 2 } });
    expect(idsOf(second.body.data, 'idFatura')).toEqual(idsOf(dump.faturas.slice(50, 100), 'idFatura'));
    const zero = await api(sb, '/v2/faturamento/faturas', { query: { page: 0 } });
    expect(zero.status).toBe(400);
    expect(zero.body.message.join()).toContain("'page'");
    const past = await api(sb, '/v2/faturamento/faturas', { query: { page: 99 } });
    expect(past.status).toBe(200);
    expect(past.body.data).toEqual([]);
  });

  it('starts at 0 when configured', async () => {
    await sb.configure({ pageBase: 0 });
    const first = await api(sb, '/v2/faturamento/faturas', { query: { page: 0 } });
    expect(idsOf(first.body.data, 'idFatura')).toEqual(idsOf(dump.faturas.slice(0, 50), 'idFatura'));
    expect(first.body.paging.page).toBe(0);
    const one = await api(sb, '/v2/faturamento/faturas', { query: { page: 1 } });
    expect(idsOf(one.body.data, 'idFatura')).toEqual(idsOf(dump.faturas.slice(50, 100), 'idFatura'));
  });

  it('collects every record exactly once by paging to the empty page', async () => {
    const seen: number[] = [];
    for (let page = 1; ; page++) {
      const r = await api(sb, '/v2/clientes', { query: { page } });
      if (r.body.data.length === 0) break;
      seen.push(...idsOf(r.body.data, 'idCliente'));
    }
    expect(seen).toEqual(idsOf(dump.clientes, 'idCliente'));
  });
});

describe('paging objects', () => {
  it('has the documented defaults per listing', async () => {
    const n = dump.faturas.length;
    const fat = await api(sb, '/v2/faturamento/faturas', { query: { page: 2 } });
    expect(fat.body.paging).toEqual({ page: 2, totalRows: n, totalPages: Math.ceil(n / 50), itemsPerPage: 50 });
    expect((await api(sb, '/v2/clientes')).body.paging).toEqual({});
    expect((await api(sb, '/v2/nfse')).body.paging).toEqual({ totalRows: dump.nfse.length, totalPages: Math.ceil(dump.nfse.length / 50) });
    expect((await api(sb, '/v2/financeiro/cobrancas', { query: { page: 2 } })).body.paging).toEqual({ page: 2, itemsPerPage: 50 });
    expect((await api(sb, '/v2/financeiro/transacoes')).body.paging).toMatchObject({ page: 1, totalRows: dump.transacoes.length, itemsPerPage: 50 });
  });

  it('can be switched per listing', async () => {
    await sb.configure({ pagingStyles: { faturas: 'empty', clientes: 'full' } });
    expect((await api(sb, '/v2/faturamento/faturas')).body.paging).toEqual({});
    expect((await api(sb, '/v2/clientes')).body.paging).toEqual({
      page: 1,
      totalRows: dump.clientes.length,
      totalPages: Math.ceil(dump.clientes.length / 50),
      itemsPerPage: 50,
    });
    await sb.configure({ pagingStyles: { faturas: 'totals' } });
    const filtered = await api(sb, '/v2/faturamento/faturas', { query: { idFatura: dump.faturas[0].idFatura } });
    expect(filtered.body.paging).toEqual({ totalRows: 1, totalPages: 1 });
  });

  it('rejects an invalid configuration', async () => {
    await expect(sb.configure({ pagingStyles: { faturas: 'weird' as never } })).rejects.toThrow(/pagingStyles/);
    await expect(sb.configure({ pageBase: 2 as never })).rejects.toThrow(/pageBase/);
  });
});

describe('transactions pageSize', () => {
  it('honours pageSize and clamps silently above 100', async () => {
    const ten = await api(sb, '/v2/financeiro/transacoes', { query: { pageSize: 10, page: 2 } });
    expect(idsOf(ten.body.data, 'idTransacao')).toEqual(idsOf(dump.transacoes.slice(10, 20), 'idTransacao'));
    expect(ten.body.paging).toMatchObject({ page: 2, itemsPerPage: 10, totalPages: Math.ceil(dump.transacoes.length / 10) });
    const big = await api(sb, '/v2/financeiro/transacoes', { query: { pageSize: 1000 } });
    expect(big.status).toBe(200);
    expect(big.body.data).toHaveLength(100);
    expect(big.body.paging.itemsPerPage).toBe(100);
    const zero = await api(sb, '/v2/financeiro/transacoes', { query: { pageSize: 0 } });
    expect(zero.status).toBe(400);
    expect(zero.body.message.join()).toContain("'pageSize'");
  });

  it('is ignored by the other listings (unknown parameter)', async () => {
    const r = await api(sb, '/v2/faturamento/faturas', { query: { pageSize: 10 } });
    expect(r.body.data).toHaveLength(50);
  });
});

describe('subscriptions: pagina and list shapes', () => {
  it('pages with pagina and ignores page', async () => {
    const n = dump.assinaturas.length;
    expect(n).toBeGreaterThan(50);
    const p2 = await api(sb, '/v2/assinaturascontratos', { query: { pagina: 2 } });
    expect(idsOf(p2.body, 'idAssinaturaContrato')).toEqual(idsOf(dump.assinaturas.slice(50, 100), 'idAssinaturaContrato'));
    const withPage = await api(sb, '/v2/assinaturascontratos', { query: { page: 2 } });
    expect(idsOf(withPage.body, 'idAssinaturaContrato')).toEqual(idsOf(dump.assinaturas.slice(0, 50), 'idAssinaturaContrato'));
    const past = await api(sb, '/v2/assinaturascontratos', { query: { pagina: 9 } });
    expect(past.body).toEqual([]);
  });

  it("'record' (default) returns a bare record for exactly one match, else an array", async () => {
    const one = await api(sb, '/v2/assinaturascontratos', { query: { idAssinaturaContrato: dump.assinaturas[3].idAssinaturaContrato } });
    expect(Array.isArray(one.body)).toBe(false);
    expect(one.body.idAssinaturaContrato).toBe(dump.assinaturas[3].idAssinaturaContrato);
    const none = await api(sb, '/v2/assinaturascontratos', { query: { idAssinaturaContrato: 1 } });
    expect(none.body).toEqual([]);
  });

  it("'array' and 'envelope' shapes", async () => {
    const id = dump.assinaturas[3].idAssinaturaContrato;
    await sb.configure({ subscriptionListShape: 'array' });
    const arr = await api(sb, '/v2/assinaturascontratos', { query: { idAssinaturaContrato: id } });
    expect(arr.body).toHaveLength(1);
    await sb.configure({ subscriptionListShape: 'envelope', pagingStyles: { assinaturas: 'full' } });
    const env = await api(sb, '/v2/assinaturascontratos', { query: { pagina: 2 } });
    expect(env.body).toMatchObject({ status: '200', message: [], paging: { page: 2, totalRows: dump.assinaturas.length, itemsPerPage: 50 } });
    expect(env.body.data[0].idAssinaturaContrato).toBe(dump.assinaturas[50].idAssinaturaContrato);
  });
});

describe('fault ignorePage', () => {
  it('makes the matching listing return the first page whatever page is asked', async () => {
    await sb.configure({ faults: [{ kind: 'ignorePage', pathPrefix: '/v2/faturamento/faturas' }] });
    const p2 = await api(sb, '/v2/faturamento/faturas', { query: { page: 2 } });
    expect(idsOf(p2.body.data, 'idFatura')).toEqual(idsOf(dump.faturas.slice(0, 50), 'idFatura'));
    const other = await api(sb, '/v2/clientes', { query: { page: 2 } });
    expect(other.body.data[0].idCliente).toBe(dump.clientes[50].idCliente);
    await sb.configure({ faults: [{ kind: 'ignorePage', pathPrefix: '/v2/assinaturascontratos', times: 1 }] });
    const s1 = await api(sb, '/v2/assinaturascontratos', { query: { pagina: 2 } });
    expect(s1.body[0].idAssinaturaContrato).toBe(dump.assinaturas[0].idAssinaturaContrato);
    const s2 = await api(sb, '/v2/assinaturascontratos', { query: { pagina: 2 } });
    expect(s2.body[0].idAssinaturaContrato).toBe(dump.assinaturas[50].idAssinaturaContrato);
  });
});
