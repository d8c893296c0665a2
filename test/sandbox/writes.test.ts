/** Subscription creation and update: computed values, validation, 404, duplicates. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { borrowSandbox, type SandboxHandle } from '../../dev/sandbox/harness.js';
import { api } from './helpers.js';

let sb: SandboxHandle;
let org: string;
let cliente: any;
let inactive: any;
let porUnidade: any;
let fixo: any;
let produto: any;

beforeAll(async () => {
  sb = await borrowSandbox({ seed: 9 });
  org = sb.orgs[0].name;
});
beforeEach(async () => {
  await sb.reset();
  const clientes = await sb.dump<any>(org, 'clientes');
  cliente = clientes.find((c) => c.isAtivo && c.isCliente);
  inactive = clientes.find((c) => !c.isAtivo);
  const planos = await sb.dump<any>(org, 'planos');
  porUnidade = planos.find((p) => p.tipoCalculo === 'PRECO_POR_UNIDADE');
  fixo = planos.find((p) => p.tipoCalculo === 'PRECO_FIXO');
  produto = (await sb.dump<any>(org, 'produtos'))[2];
});
afterAll(async () => {
  await sb?.stop();
});

const cents = (v: number) => Math.round(v * 100);

function planoBody(over: Record<string, unknown> = {}) {
  return {
    idIntegracao: 'ERP-PLANO-1',
    idCliente: cliente.idCliente,
    dataAdesao: '2026-11-20',
    competenciaInicial: '12/2026',
    idPlano: porUnidade.idPlano,
    quantidade: 7,
    formaFaturamentoAssinatura: 'AGRUPADA',
    diaVencimentoCobranca: 10,
    descontos: [
      {
        idIntegracao: 'D1',
        descricao: 'Fidelidade',
        tipoDesconto: 'PERCENTUAL',
        valorDesconto: 12.5,
        competenciaInicial: '12/2026',
        competenciaFinal: '12/2027',
      },
      { idIntegracao: 'D2', descricao: 'Boas-vindas', tipoDesconto: 'VALOR', valorDesconto: 5.55, competenciaInicial: '11/2026', competenciaFinal: '01/2027' },
      { idIntegracao: 'D3', descricao: 'Expirado', tipoDesconto: 'PERCENTUAL', valorDesconto: 50, competenciaInicial: '01/2025', competenciaFinal: '06/2025' },
    ],
    ...over,
  };
}

function personalizadoBody(over: Record<string, unknown> = {}) {
  return {
    idIntegracao: 'ERP-PERS-1',
    idCliente: cliente.idCliente,
    dataAdesao: '2026-11-01',
    competenciaInicial: '11/2026',
    periodicidade: 'MENSAL',
    idProduto: produto.idProduto,
    descricaoAssinaturaContrato: 'Consultoria mensal – São Paulo',
    valor: 1234.56,
    formaFaturamentoAssinatura: 'INDIVIDUAL',
    diaVencimentoCobranca: 5,
    ...over,
  };
}

describe('POST /v2/assinaturascontratos/plano', () => {
  it('creates the subscription with computed gross, negative discount and net values', async () => {
    const r = await api(sb, '/v2/assinaturascontratos/plano', { body: planoBody() });
    expect(r.status).toBe(200);
    expect(r.body.errors).toEqual([]);
    expect(typeof r.body.message).toBe('string');
    const a = r.body.data;
    const bruto = cents(porUnidade.valorUnitario * 7);
    const desconto = Math.round(bruto * 0.125) + 555;
    expect(cents(a.valorBruto)).toBe(bruto);
    expect(cents(a.valorDesconto)).toBe(-desconto);
    expect(cents(a.valorLiquido)).toBe(bruto - desconto);
    expect(a).toMatchObject({
      idIntegracao: 'ERP-PLANO-1',
      idCliente: cliente.idCliente,
      nomeCliente: cliente.nomeFantasia,
      tipoContrato: 'PLANO',
      idPlano: porUnidade.idPlano,
      quantidade: 7,
      valorUnitario: porUnidade.valorUnitario,
      statusAssinaturaContrato: 'ATIVO',
      competenciaInicial: '12/2026',
      dataAdesao: '2026-11-20',
    });
    expect(a.dataHoraCadastro).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
    expect(a.descontos).toHaveLength(3);
    expect(a.descontos.map((d: any) => d.valorDesconto)).toEqual([-12.5, -5.55, -50]);
    const listed = await api(sb, '/v2/assinaturascontratos', { query: { idIntegracao: 'ERP-PLANO-1' } });
    expect(listed.body.idAssinaturaContrato).toBe(a.idAssinaturaContrato);
  });

  it('ignores quantidade for a fixed-price plan and has a zero discount without discounts', async () => {
    const r = await api(sb, '/v2/assinaturascontratos/plano', { body: planoBody({ idPlano: fixo.idPlano, quantidade: 3, descontos: [] }) });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({
      valorBruto: fixo.valorUnitario,
      valorDesconto: 0,
      valorLiquido: fixo.valorUnitario,
      tipoCalculo: 'PRECO_FIXO',
      descontos: [],
    });
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['missing idIntegracao', { idIntegracao: undefined }, 'idIntegracao'],
    ['empty idIntegracao', { idIntegracao: '  ' }, 'idIntegracao'],
    ['idCliente as text', { idCliente: '123' }, 'idCliente'],
    ['unknown idCliente', { idCliente: 1 }, 'idCliente'],
    ['bad dataAdesao', { dataAdesao: '20/11/2026' }, 'dataAdesao'],
    ['impossible dataAdesao', { dataAdesao: '2026-02-30' }, 'dataAdesao'],
    ['bad competenciaInicial', { competenciaInicial: '2026-12' }, 'competenciaInicial'],
    ['unknown idPlano', { idPlano: 42 }, 'idPlano'],
    ['quantidade zero', { quantidade: 0 }, 'quantidade'],
    ['quantidade fraction', { quantidade: 1.5 }, 'quantidade'],
    ['bad formaFaturamentoAssinatura', { formaFaturamentoAssinatura: 'agrupada' }, 'formaFaturamentoAssinatura'],
    ['diaVencimentoCobranca 31', { diaVencimentoCobranca: 31 }, 'diaVencimentoCobranca'],
    ['null field', { idPlano: null }, 'idPlano'],
    ['descontos not a list', { descontos: {} }, 'descontos'],
    [
      'discount percent > 100',
      {
        descontos: [
          { idIntegracao: 'X', descricao: 'X', tipoDesconto: 'PERCENTUAL', valorDesconto: 101, competenciaInicial: '12/2026', competenciaFinal: '12/2026' },
        ],
      },
      'descontos[0].valorDesconto',
    ],
    [
      'negative discount',
      {
        descontos: [
          { idIntegracao: 'X', descricao: 'X', tipoDesconto: 'VALOR', valorDesconto: -5, competenciaInicial: '12/2026', competenciaFinal: '12/2026' },
        ],
      },
      'descontos[0].valorDesconto',
    ],
    [
      'discount 3 decimals',
      {
        descontos: [
          { idIntegracao: 'X', descricao: 'X', tipoDesconto: 'VALOR', valorDesconto: 1.234, competenciaInicial: '12/2026', competenciaFinal: '12/2026' },
        ],
      },
      'descontos[0].valorDesconto',
    ],
    [
      'discount unknown type',
      {
        descontos: [{ idIntegracao: 'X', descricao: 'X', tipoDesconto: 'FIXO', valorDesconto: 1, competenciaInicial: '12/2026', competenciaFinal: '12/2026' }],
      },
      'descontos[0].tipoDesconto',
    ],
    [
      'discount range inverted',
      {
        descontos: [{ idIntegracao: 'X', descricao: 'X', tipoDesconto: 'VALOR', valorDesconto: 1, competenciaInicial: '12/2026', competenciaFinal: '11/2026' }],
      },
      'descontos[0].competenciaFinal',
    ],
    [
      'discount missing descricao',
      { descontos: [{ idIntegracao: 'X', tipoDesconto: 'VALOR', valorDesconto: 1, competenciaInicial: '12/2026', competenciaFinal: '12/2026' }] },
      'descontos[0].descricao',
    ],
  ])('400 naming the field: %s', async (_name, over, field) => {
    const before = (await sb.dump(org, 'assinaturas')).length;
    const r = await api(sb, '/v2/assinaturascontratos/plano', { body: planoBody(over) });
    expect(r.status).toBe(400);
    expect(r.body.data).toBeNull();
    expect(typeof r.body.message).toBe('string');
    expect(r.body.errors.some((e: string) => e.startsWith(field + ':'))).toBe(true);
    expect((await sb.dump(org, 'assinaturas')).length).toBe(before);
  });

  it('refuses an inactive customer, a customer of another organization, a non-object body, non-JSON and a wrong content type', async () => {
    expect((await api(sb, '/v2/assinaturascontratos/plano', { body: planoBody({ idCliente: inactive.idCliente }) })).body.errors.join()).toContain('idCliente');
    const other = (await sb.dump<any>(sb.orgs[1].name, 'clientes')).find((c) => c.isAtivo);
    const cross = await api(sb, '/v2/assinaturascontratos/plano', { body: planoBody({ idCliente: other.idCliente }) });
    expect(cross.status).toBe(400);
    expect(cross.body.errors.join()).toContain('idCliente');
    const arr = await api(sb, '/v2/assinaturascontratos/plano', { body: [planoBody()] });
    expect(arr.status).toBe(400);
    const broken = await api(sb, '/v2/assinaturascontratos/plano', { body: '{"idIntegracao":' });
    expect(broken.status).toBe(400);
    expect(broken.body.data).toBeNull();
    const form = await api(sb, '/v2/assinaturascontratos/plano', { body: JSON.stringify(planoBody()), contentType: 'application/x-www-form-urlencoded' });
    expect(form.status).toBe(415);
    expect(form.body.data).toBeNull();
  });

  it('accepts a duplicate idIntegracao by default (a second record), rejects it when configured', async () => {
    const a = await api(sb, '/v2/assinaturascontratos/plano', { body: planoBody({ idIntegracao: 'DUP-1' }) });
    const b = await api(sb, '/v2/assinaturascontratos/plano', { body: planoBody({ idIntegracao: 'DUP-1' }) });
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(b.body.data.idAssinaturaContrato).not.toBe(a.body.data.idAssinaturaContrato);
    const all = await sb.dump<any>(org, 'assinaturas');
    expect(all.filter((s) => s.idIntegracao === 'DUP-1')).toHaveLength(2);
    const listed = await api(sb, '/v2/assinaturascontratos', { query: { idIntegracao: 'DUP-1' } });
    expect(listed.body).toHaveLength(2);
    await sb.configure({ duplicateIntegrationId: 'reject' });
    const c = await api(sb, '/v2/assinaturascontratos/personalizado', { body: personalizadoBody({ idIntegracao: 'DUP-1' }) });
    expect(c.status).toBe(400);
    expect(c.body.errors.join()).toContain('idIntegracao');
    expect((await sb.dump<any>(org, 'assinaturas')).filter((s) => s.idIntegracao === 'DUP-1')).toHaveLength(2);
  });
});

describe('POST /v2/assinaturascontratos/personalizado', () => {
  it('creates a custom subscription valued by valor', async () => {
    const r = await api(sb, '/v2/assinaturascontratos/personalizado', { body: personalizadoBody() });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({
      tipoContrato: 'PERSONALIZADO',
      idPlano: null,
      idProduto: produto.idProduto,
      descricaoProduto: produto.descricao,
      quantidade: 1,
      valorUnitario: 1234.56,
      valorBruto: 1234.56,
      valorDesconto: 0,
      valorLiquido: 1234.56,
      periodicidade: 'MENSAL',
      descricaoAssinaturaContrato: 'Consultoria mensal – São Paulo',
      formaFaturamentoAssinatura: 'INDIVIDUAL',
      diaVencimentoCobranca: 5,
    });
  });

  it.each<[Record<string, unknown>, string]>([
    [{ valor: 0 }, 'valor'],
    [{ valor: '10.00' }, 'valor'],
    [{ valor: 10.001 }, 'valor'],
    [{ periodicidade: 'SEMANAL' }, 'periodicidade'],
    [{ idProduto: 3 }, 'idProduto'],
    [{ descricaoAssinaturaContrato: '' }, 'descricaoAssinaturaContrato'],
    [{ diaVencimentoCobranca: 0 }, 'diaVencimentoCobranca'],
  ])('400 for %o', async (over, field) => {
    const r = await api(sb, '/v2/assinaturascontratos/personalizado', { body: personalizadoBody(over) });
    expect(r.status).toBe(400);
    expect(r.body.errors.some((e: string) => e.startsWith(field + ':'))).toBe(true);
  });
});

describe('PUT updates', () => {
  it('updates a plan subscription and recomputes its values', async () => {
    const created = (await api(sb, '/v2/assinaturascontratos/plano', { body: planoBody({ descontos: [] }) })).body.data;
    const r = await api(sb, `/v2/assinaturascontratos/plano/${created.idAssinaturaContrato}`, {
      method: 'PUT',
      body: { quantidade: 10, descricaoAssinaturaContrato: '=Plano revisado' },
    });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({
      quantidade: 10,
      descricaoAssinaturaContrato: '=Plano revisado',
      valorBruto: cents(porUnidade.valorUnitario * 10) / 100,
    });
    const stored = (await sb.dump<any>(org, 'assinaturas')).find((a) => a.idAssinaturaContrato === created.idAssinaturaContrato);
    expect(stored.quantidade).toBe(10);
  });

  it('updates a custom subscription, with and without its NFS-e text', async () => {
    const created = (await api(sb, '/v2/assinaturascontratos/personalizado', { body: personalizadoBody() })).body.data;
    const path = `/v2/assinaturascontratos/personalizado/${created.idAssinaturaContrato}`;
    const r = await api(sb, path, {
      method: 'PUT',
      body: { valor: 99.9, descricaoAssinaturaContrato: 'Novo', isAtualizaDiscriminacaoNfse: true, discriminacaoNfse: 'Serviços\nprestados' },
    });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ valorUnitario: 99.9, valorBruto: 99.9, valorLiquido: 99.9, discriminacaoNfse: 'Serviços\nprestados' });
    const r2 = await api(sb, path, {
      method: 'PUT',
      body: { valor: 100, descricaoAssinaturaContrato: 'Outro', isAtualizaDiscriminacaoNfse: false, discriminacaoNfse: 'ignorado' },
    });
    expect(r2.body.data).toMatchObject({ valorLiquido: 100, discriminacaoNfse: 'Serviços\nprestados' });
    const missing = await api(sb, path, { method: 'PUT', body: { valor: 100, descricaoAssinaturaContrato: 'Outro', isAtualizaDiscriminacaoNfse: true } });
    expect(missing.status).toBe(400);
    expect(missing.body.errors.join()).toContain('discriminacaoNfse');
  });

  it("404 for an unknown id, another organization's id or the other contract type; 400 for bad fields or ids", async () => {
    const subs = await sb.dump<any>(org, 'assinaturas');
    const plano = subs.find((a) => a.tipoContrato === 'PLANO' && a.statusAssinaturaContrato === 'ATIVO');
    const pers = subs.find((a) => a.tipoContrato === 'PERSONALIZADO' && a.statusAssinaturaContrato === 'ATIVO');
    const cancelled = subs.find((a) => a.tipoContrato === 'PLANO' && a.statusAssinaturaContrato !== 'ATIVO');
    const foreign = (await sb.dump<any>(sb.orgs[1].name, 'assinaturas')).find((a) => a.tipoContrato === 'PLANO');
    const good = { quantidade: 2, descricaoAssinaturaContrato: 'x' };
    for (const id of [999, foreign.idAssinaturaContrato, pers.idAssinaturaContrato]) {
      const r = await api(sb, `/v2/assinaturascontratos/plano/${id}`, { method: 'PUT', body: good });
      expect(r.status, `id ${id}`).toBe(404);
      expect(r.body).toMatchObject({ data: null });
      expect(r.body.errors.length).toBeGreaterThan(0);
    }
    const persGood = { valor: 10, descricaoAssinaturaContrato: 'x', isAtualizaDiscriminacaoNfse: false };
    expect((await api(sb, `/v2/assinaturascontratos/personalizado/${plano.idAssinaturaContrato}`, { method: 'PUT', body: persGood })).status).toBe(404);
    const bad = await api(sb, `/v2/assinaturascontratos/plano/${plano.idAssinaturaContrato}`, { method: 'PUT', body: { quantidade: -1 } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.some((e: string) => e.startsWith('quantidade:'))).toBe(true);
    expect(bad.body.errors.some((e: string) => e.startsWith('descricaoAssinaturaContrato:'))).toBe(true);
    const badId = await api(sb, '/v2/assinaturascontratos/plano/abc', { method: 'PUT', body: good });
    expect(badId.status).toBe(400);
    const closed = await api(sb, `/v2/assinaturascontratos/plano/${cancelled.idAssinaturaContrato}`, { method: 'PUT', body: good });
    expect(closed.status).toBe(400);
  });
});
