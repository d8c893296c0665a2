/**
 * The typed client against the sandbox over real HTTP: two independent readings
 * of the spec that must agree on every operation, filter, format and shape.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { nodeTransport } from '../../dev/http/node-transport';
import { type SandboxHandle, borrowSandbox } from '../../dev/sandbox/harness';
import { BillingClient, type ClientConfig } from '../../src/api/client';
import { BadRequestError, NotFoundError, RateLimitedError, ServerError, UnauthorizedError, ValidationError, NetworkError } from '../../src/api/errors';
import type { ListingKey } from '../../src/api/operations';
import { intlZone } from '../../src/api/calendar';

type Rec = Record<string, any>;
let sb: SandboxHandle;
let sleeps: number[];

function client(overrides: Partial<ClientConfig> = {}, org = 0): BillingClient {
  return new BillingClient({
    baseUrl: sb.baseUrl,
    apiKey: sb.orgs[org].apiKey,
    transport: nodeTransport,
    sleep: (ms) => sleeps.push(ms),
    zone: intlZone('America/Sao_Paulo'),
    concurrency: 8,
    timeoutMs: 10_000,
    ...overrides,
  });
}

const ids = (records: Rec[], field: string) => records.map((r) => r[field]).sort((a, b) => a - b);

beforeAll(async () => {
  sb = await borrowSandbox({ seed: 7, size: 'small' });
});
afterAll(async () => {
  await sb?.stop();
});
beforeEach(async () => {
  sleeps = [];
  await sb.reset();
});

const ID_FIELD: Record<ListingKey, string> = {
  clientes: 'idCliente',
  faturas: 'idFatura',
  nfse: 'idNotaFiscalServico',
  cobrancas: 'idCobranca',
  transacoes: 'idTransacao',
  assinaturas: 'idAssinaturaContrato',
};

describe('every listing, every page', () => {
  it.each(Object.keys(ID_FIELD) as ListingKey[])('%s: all records arrive exactly once and pass the schema', async (key) => {
    const org = sb.orgs[0].name;
    // The sandbox hides cancelled charges unless asked, as the spec's isExibeCanceladas implies.
    const filters = key === 'cobrancas' ? { isExibeCanceladas: true } : {};
    const result = client().listAll(key, filters);
    const dump = await sb.dump<Rec>(org, key);
    expect(result.records.length).toBeGreaterThan(0);
    expect(ids(result.records, ID_FIELD[key])).toEqual(ids(dump, ID_FIELD[key]));
    expect(result.warnings).toEqual([]);
  });

  it.each([0, 1] as const)('copes with pages numbered from %i, detecting it in the first wave', async (pageBase) => {
    await sb.configure({ pageBase });
    for (const key of ['faturas', 'clientes', 'assinaturas'] as ListingKey[]) {
      const result = client().listAll(key);
      const dump = await sb.dump<Rec>(sb.orgs[0].name, key);
      expect(ids(result.records, ID_FIELD[key]), `${key} base ${pageBase}`).toEqual(ids(dump, ID_FIELD[key]));
    }
  });

  it('walks listings whose paging object is empty, stopping at the short page', async () => {
    await sb.configure({ pagingStyles: { faturas: 'empty', transacoes: 'empty', nfse: 'empty' } });
    for (const key of ['faturas', 'transacoes', 'nfse'] as ListingKey[]) {
      const result = client().listAll(key);
      const dump = await sb.dump<Rec>(sb.orgs[0].name, key);
      expect(ids(result.records, ID_FIELD[key])).toEqual(ids(dump, ID_FIELD[key]));
    }
  });

  it('fetches the remaining pages concurrently once the totals are known', async () => {
    await sb.reset({ size: { faturas: 600, clientes: 50, cobrancas: 10, transacoes: 10, assinaturas: 10 }, config: { faults: [{ kind: 'latency', ms: 40 }] } });
    const c = client({ concurrency: 4 });
    const result = c.listAll('faturas');
    const log = await sb.requestLog({ pathPrefix: '/v2/faturamento/faturas' });
    expect(result.pages).toBeGreaterThan(2);
    expect(Math.max(...log.map((e) => e.inFlight))).toBeGreaterThanOrEqual(3);
    // Waves, not requests, are the critical path: fewer waves than pages.
    expect(c.stats.waves).toBeLessThan(log.length);
  });

  it('stops with a warning when the server ignores the page parameter', async () => {
    await sb.configure({ addFaults: [{ kind: 'ignorePage', pathPrefix: '/v2/faturamento/faturas' }] });
    const result = client().listAll('faturas');
    expect(result.records.length).toBe(50);
    expect(result.warnings.join(' ')).toMatch(/ignorar o parâmetro de página/);
  });

  it('accepts the subscription listing as a bare record, a bare array and a list envelope', async () => {
    const dump = await sb.dump<Rec>(sb.orgs[0].name, 'assinaturas');
    const one = dump[3];
    for (const shape of ['record', 'array', 'envelope'] as const) {
      await sb.configure({ subscriptionListShape: shape });
      const single = client().listAll('assinaturas', { idAssinaturaContrato: one.idAssinaturaContrato });
      expect(
        single.records.map((r) => r.idAssinaturaContrato),
        shape,
      ).toEqual([one.idAssinaturaContrato]);
      const all = client().listAll('assinaturas');
      expect(all.records.length, shape).toBe(dump.length);
    }
  });

  it('sends the page parameter each listing names: pagina for subscriptions, pageSize for transactions', async () => {
    await sb.clearLog();
    client({ pageSize: 100 }).listAll('transacoes');
    client().listAll('assinaturas');
    const tx = await sb.requestLog({ pathPrefix: '/v2/financeiro/transacoes' });
    expect(tx.every((e) => e.query.pageSize === '100' && e.query.page !== undefined)).toBe(true);
    const subs = await sb.requestLog({ pathPrefix: '/v2/assinaturascontratos' });
    expect(subs.every((e) => e.query.pagina !== undefined && e.query.page === undefined)).toBe(true);
  });
});

describe('filters reach the wire in the spec formats and narrow as named', () => {
  it('equality filters narrow to the matching records, and combine with AND', async () => {
    const dump = await sb.dump<Rec>(sb.orgs[0].name, 'faturas');
    const sample = dump[5];
    const byCustomer = client().listAll('faturas', { idCliente: sample.idCliente });
    expect(ids(byCustomer.records, 'idFatura')).toEqual(
      ids(
        dump.filter((f) => f.idCliente === sample.idCliente),
        'idFatura',
      ),
    );
    const both = client().listAll('faturas', { idCliente: sample.idCliente, competencia: sample.competencia });
    const expected = dump.filter((f) => f.idCliente === sample.idCliente && f.competencia === sample.competencia);
    expect(ids(both.records, 'idFatura')).toEqual(ids(expected, 'idFatura'));
    expect(both.records.length).toBeLessThanOrEqual(byCustomer.records.length);
  });

  it('date ranges from Date values are sent as DD/MM/YYYY and bound the results', async () => {
    await sb.clearLog();
    const from = new Date('2026-03-01T12:00:00-03:00');
    const to = new Date('2026-06-30T12:00:00-03:00');
    const result = client().listAll('cobrancas', { vencimentoInicial: from, vencimentoFinal: to, isExibeCanceladas: true });
    const log = await sb.requestLog({ pathPrefix: '/v2/financeiro/cobrancas' });
    expect(log[0].query.vencimentoInicial).toBe('01/03/2026');
    expect(log[0].query.vencimentoFinal).toBe('30/06/2026');
    const dump = await sb.dump<Rec>(sb.orgs[0].name, 'cobrancas');
    const expected = dump.filter((c) => c.dataVencimento >= '2026-03-01' && c.dataVencimento <= '2026-06-30');
    expect(ids(result.records, 'idCobranca')).toEqual(ids(expected, 'idCobranca'));
  });

  it('datetime filters are sent as DD/MM/YYYY HH:MM, competência as MM/YYYY, id lists comma-separated', async () => {
    await sb.clearLog();
    client().listAll('faturas', { dataHoraAtualizacaoInicial: new Date('2026-01-02T13:04:00Z'), competencia: { year: 2026, month: 2 } });
    client().listAll('cobrancas', { idsCliente: [3, 4, 5] });
    const log = await sb.requestLog();
    const inv = log.find((e) => e.path === '/v2/faturamento/faturas')!;
    expect(inv.query.dataHoraAtualizacaoInicial).toBe('02/01/2026 10:04');
    expect(inv.query.competencia).toBe('02/2026');
    expect(log.find((e) => e.path === '/v2/financeiro/cobrancas')!.query.idsCliente).toBe('3,4,5');
    // Page 0 is the numbering probe: a server counting from 1 refuses it.
    expect(log.filter((e) => e.query.page !== '0').every((e) => e.status === 200)).toBe(true);
  });

  it('a punctuated CPF/CNPJ is sent as digits and finds its customer', async () => {
    const dump = await sb.dump<Rec>(sb.orgs[0].name, 'clientes');
    const cnpj = dump.find((c) => c.cpfCnpj.length === 14)!;
    const d = cnpj.cpfCnpj as string;
    const punctuated = `${d.slice(0, 2)}.${d.slice(2, 5)}.${d.slice(5, 8)}/${d.slice(8, 12)}-${d.slice(12)}`;
    const result = client().listAll('clientes', { cpfCnpj: punctuated });
    expect(result.records.map((r) => r.idCliente)).toContain(cnpj.idCliente);
    expect(result.records.every((r) => r.cpfCnpj === d)).toBe(true);
  });

  it('booleans and the isListar options reach the server', async () => {
    const plain = client().listAll('clientes', { isAtivo: true });
    expect(plain.records.every((r) => r.isAtivo === true && r.telefones === null)).toBe(true);
    const withPhones = client().listAll('clientes', { isListarTelefones: true });
    expect(withPhones.records.some((r) => Array.isArray(r.telefones) && r.telefones.length > 0)).toBe(true);
  });

  it('refuses a bad filter before any request', async () => {
    await sb.clearLog();
    expect(() => client().listAll('cobrancas', { vencimentoInicial: '2026-02-30' })).toThrow(/vencimentoInicial/);
    expect(await sb.requestLog()).toEqual([]);
  });
});

describe('errors', () => {
  it('401 for a wrong key, typed, without the key in the message', () => {
    const c = new BillingClient({
      baseUrl: sb.baseUrl,
      apiKey: 'chave-errada-123',
      transport: nodeTransport,
      sleep: () => {},
      zone: intlZone('America/Sao_Paulo'),
    });
    for (const key of ['clientes', 'faturas', 'assinaturas'] as ListingKey[]) {
      let error: unknown;
      try {
        c.listAll(key);
      } catch (e) {
        error = e;
      }
      expect(error, key).toBeInstanceOf(UnauthorizedError);
      expect((error as Error).message).not.toContain('chave-errada-123');
    }
  });

  it('400 from the server carries its messages', () => {
    let error: unknown;
    try {
      client().listAll('faturas', { sortField: 'naoExiste' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).messages.join(' ')).toMatch(/sortField/);
    expect((error as BadRequestError).path).toBe('/v2/faturamento/faturas');
  });

  it('404 for an unknown subscription on update', () => {
    expect(() =>
      client().updateCustomSubscription(999_999_999, {
        valor: 10,
        descricaoAssinaturaContrato: 'x',
        isAtualizaDiscriminacaoNfse: false,
        discriminacaoNfse: '',
      }),
    ).toThrow(NotFoundError);
  });

  it('retries a GET on 429 honouring Retry-After, and on 503 with backoff', async () => {
    await sb.configure({
      addFaults: [
        { kind: 'status', status: 429, retryAfterSeconds: 2, times: 1, pathPrefix: '/v2/clientes' },
        { kind: 'status', status: 503, times: 1, pathPrefix: '/v2/nfse' },
      ],
    });
    expect(client().listAll('clientes').records.length).toBeGreaterThan(0);
    expect(sleeps).toContain(2000);
    expect(client().listAll('nfse').records.length).toBeGreaterThan(0);
    expect(sleeps.length).toBe(2);
  });

  it('gives up after the retries with a typed server error', async () => {
    await sb.configure({ addFaults: [{ kind: 'status', status: 500, pathPrefix: '/v2/clientes' }] });
    expect(() => client({ retry: { retries: 2 } }).listAll('clientes')).toThrow(ServerError);
    const log = await sb.requestLog({ pathPrefix: '/v2/clientes' });
    // The first wave asks pages 0 and 1; each is tried three times.
    expect(log.length).toBe(6);
  });

  it('a 429 with a long Retry-After surfaces as RateLimitedError', async () => {
    await sb.configure({ addFaults: [{ kind: 'status', status: 429, retryAfterSeconds: 600, pathPrefix: '/v2/nfse' }] });
    expect(() => client().listAll('nfse')).toThrow(RateLimitedError);
  });

  it('never retries a POST that failed after it may have been applied', async () => {
    await sb.configure({ addFaults: [{ kind: 'commitThenFail', failWith: 'status500', method: 'POST', times: 1 }] });
    const body = await customBody();
    expect(() => client().createCustomSubscription(body)).toThrow(ServerError);
    const posts = await sb.requestLog({ method: 'POST' });
    expect(posts.length).toBe(1);
    const subs = await sb.dump<Rec>(sb.orgs[0].name, 'assinaturas');
    expect(subs.filter((s) => s.idIntegracao === body.idIntegracao)).toHaveLength(1);
  });

  it('a hanging server becomes a time-out network error', async () => {
    await sb.configure({ addFaults: [{ kind: 'hang', method: 'POST' }] });
    let error: unknown;
    try {
      client({ timeoutMs: 300 }).createCustomSubscription(await customBody());
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).timedOut).toBe(true);
  });

  it('refuses an invalid body before sending it', async () => {
    await sb.clearLog();
    let error: unknown;
    try {
      client().createCustomSubscription({ idCliente: 'abc' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((i) => i.field)).toContain('idCliente');
    expect(await sb.requestLog()).toEqual([]);
  });
});

async function customBody(): Promise<Rec> {
  const customers = await sb.dump<Rec>(sb.orgs[0].name, 'clientes');
  const products = await sb.dump<Rec>(sb.orgs[0].name, 'produtos');
  const customer = customers.find((c) => c.isAtivo)!;
  return {
    idIntegracao: `teste-${Math.random().toString(36).slice(2)}`,
    idCliente: customer.idCliente,
    dataAdesao: '2026-11-01',
    competenciaInicial: '11/2026',
    periodicidade: 'MENSAL',
    idProduto: products[0].idProduto,
    descricaoAssinaturaContrato: 'Consultoria contábil mensal',
    valor: 1234.56,
    formaFaturamentoAssinatura: 'AGRUPADA',
    diaVencimentoCobranca: 10,
  };
}

describe('writes', () => {
  it('creates and updates a custom subscription', async () => {
    const body = await customBody();
    const created = client().createCustomSubscription(body);
    expect(created.record).toMatchObject({ idIntegracao: body.idIntegracao, valorLiquido: 1234.56, tipoContrato: 'PERSONALIZADO' });
    const id = created.record!.idAssinaturaContrato as number;
    const updated = client().updateCustomSubscription(id, {
      valor: 99.9,
      descricaoAssinaturaContrato: 'Novo',
      isAtualizaDiscriminacaoNfse: true,
      discriminacaoNfse: 'Serviços de contabilidade',
    });
    expect(updated.record).toMatchObject({ idAssinaturaContrato: id, valorLiquido: 99.9, discriminacaoNfse: 'Serviços de contabilidade' });
  });

  it('creates a plan subscription with discounts (negative valorDesconto) and updates it', async () => {
    const customers = await sb.dump<Rec>(sb.orgs[0].name, 'clientes');
    const plans = await sb.dump<Rec>(sb.orgs[0].name, 'planos');
    const created = client().createPlanSubscription({
      idIntegracao: `plano-${Date.now()}`,
      idCliente: customers.find((c) => c.isAtivo)!.idCliente,
      dataAdesao: '2026-11-01',
      competenciaInicial: '11/2026',
      idPlano: plans[0].idPlano,
      quantidade: 2,
      formaFaturamentoAssinatura: 'INDIVIDUAL',
      diaVencimentoCobranca: 5,
      descontos: [
        {
          idIntegracao: 'd1',
          descricao: 'Boas-vindas',
          tipoDesconto: 'PERCENTUAL',
          valorDesconto: 10,
          competenciaInicial: '11/2026',
          competenciaFinal: '12/2026',
        },
      ],
    });
    const r = created.record!;
    expect(r.valorDesconto as number).toBeLessThan(0);
    expect(r.valorLiquido).toBeCloseTo((r.valorBruto as number) + (r.valorDesconto as number), 2);
    const updated = client().updatePlanSubscription(r.idAssinaturaContrato as number, { quantidade: 3, descricaoAssinaturaContrato: 'Plano ajustado' });
    expect(updated.record).toMatchObject({ quantidade: 3, descricaoAssinaturaContrato: 'Plano ajustado' });
  });

  it.each(['record', 'array'] as const)('issues an NFS-e with the emission envelope as %s, and refuses a second one', async (shape) => {
    await sb.configure({ emissionShape: shape });
    const invoices = await sb.dump<Rec>(sb.orgs[0].name, 'faturas');
    const notes = await sb.dump<Rec>(sb.orgs[0].name, 'nfse');
    const noted = new Set(notes.map((n) => n.idFatura));
    const invoice = invoices.find((f) => !noted.has(f.idFatura) && f.statusFatura !== 'CANCELADA')!;
    const emitted = client().emitNfse(invoice.idFatura);
    expect(emitted.notes).toHaveLength(1);
    expect(emitted.notes[0].idFatura).toBe(invoice.idFatura);
    expect(emitted.mentionedId).toBe(emitted.notes[0].idNotaFiscalServico);
    expect(() => client().emitNfse(invoice.idFatura)).toThrow(BadRequestError);
    const listed = client().listAll('nfse', { idFatura: invoice.idFatura });
    expect(listed.records.map((n) => n.idNotaFiscalServico)).toEqual([emitted.notes[0].idNotaFiscalServico]);
  });

  it('refuses emission for an organization without city-hall integration', async () => {
    const org = sb.orgs.findIndex((o) => !o.hasCityHallIntegration);
    const invoices = await sb.dump<Rec>(sb.orgs[org].name, 'faturas');
    expect(() => client({}, org).emitNfse(invoices[0].idFatura)).toThrow(BadRequestError);
  });
});

describe('a large listing', () => {
  it('pulls every page of a 10,000-invoice listing, each record exactly once', async () => {
    await sb.reset({ size: { faturas: 10_000, clientes: 200, cobrancas: 10, transacoes: 10, assinaturas: 10 } });
    const result = client({ concurrency: 10 }).listAll('faturas');
    const dump = await sb.dump<Rec>(sb.orgs[0].name, 'faturas');
    expect(dump.length).toBe(10_000);
    expect(result.records.length).toBe(10_000);
    expect(new Set(result.records.map((r) => r.idFatura)).size).toBe(10_000);
    expect(ids(result.records, 'idFatura')).toEqual(ids(dump, 'idFatura'));
  });
});
