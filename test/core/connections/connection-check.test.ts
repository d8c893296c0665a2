/**
 * "Testar conexão" over a scripted service: what the user is told for a
 * working, slow, refused, unreachable or wrong address, and how the customers
 * are counted (from the totals when the service gives them, else page by page).
 */
import { describe, expect, it } from 'vitest';
import { intlZone } from '../../../src/api/calendar';
import { BillingClient } from '../../../src/api/client';
import type { HttpOutcome, HttpRequest, Transport } from '../../../src/api/transport';
import { checkConnection } from '../../../src/core/connections/connection-check';
import { identifyOrganization } from '../../../src/core/connections/organizations';
import { json } from '../../api/scripted';

/** A service answering each request from its page number; `undefined` pages are empty. */
function service(answer: (page: number, req: HttpRequest) => HttpOutcome) {
  const sent: HttpRequest[] = [];
  const transport: Transport = {
    fetch(req) {
      sent.push(req);
      return answer(Number(new URL(req.url).searchParams.get('page') ?? 0), req);
    },
    fetchAll: (reqs) => reqs.map((r) => transport.fetch(r)),
  };
  const client = new BillingClient({ baseUrl: 'https://api.test', apiKey: 'k', transport, sleep: () => {}, zone: intlZone('America/Sao_Paulo') });
  return { client, sent };
}

const customers = (first: number, n: number) => Array.from({ length: n }, (_, i) => ({ idCliente: first + i }));

/** A clock that advances `step` ms at each reading. */
function clock(step: number) {
  let t = 1_000_000;
  return () => {
    const now = t;
    t += step;
    return now;
  };
}

describe('checkConnection', () => {
  it('counts the customers from the totals the service announces, without reading every page', () => {
    const { client, sent } = service((page) => json(200, { data: customers(page * 2 + 1, 2), paging: { page, totalRows: 2542, totalPages: 1271 } }));
    expect(checkConnection(client, clock(100))).toEqual({
      ok: true,
      code: 'ok',
      customers: 2542,
      organization: { key: '1:', name: '', document: '', own: false },
      elapsedMs: 100,
      message: 'Conexão funcionando: 2.542 clientes na organização.',
    });
    expect(sent.length).toBeLessThanOrEqual(2);
  });

  it('says "cliente" for one and counts an empty organisation', () => {
    expect(checkConnection(service((page) => json(200, { data: page === 0 ? customers(1, 1) : [], paging: { totalRows: 1 } })).client, clock(1))).toMatchObject(
      {
        code: 'ok',
        customers: 1,
        message: 'Conexão funcionando: 1 cliente na organização.',
      },
    );
    expect(checkConnection(service(() => json(200, { data: [], paging: { totalRows: 0 } })).client, clock(1))).toMatchObject({
      code: 'ok',
      customers: 0,
      message: 'Conexão funcionando: 0 clientes na organização.',
    });
  });

  it('counts page by page when the service gives no totals', () => {
    const { client } = service((page) => json(200, { data: page < 2 ? customers(page * 3 + 1, 3) : page === 2 ? customers(7, 1) : [] }));
    expect(checkConnection(client, clock(1))).toMatchObject({ ok: true, code: 'ok', customers: 7, message: 'Conexão funcionando: 7 clientes na organização.' });
  });

  it('stops at its page limit and says there are more customers than it counted', () => {
    const { client, sent } = service((page) => json(200, { data: customers(page * 100 + 1, 100) }));
    const result = checkConnection(client, clock(1));
    expect(result).toMatchObject({ ok: true, code: 'ok', customers: 4_000, message: 'Conexão funcionando: mais de 4.000 clientes na organização.' });
    expect(sent.length).toBeLessThan(60);
  });

  it('a page limit reached after the totals arrived still reports the announced total', () => {
    const { client } = service((page) => json(200, { data: customers(page * 10 + 1, 10), paging: { totalRows: 999_999 } }));
    expect(checkConnection(client, clock(1))).toMatchObject({ customers: 999_999, message: 'Conexão funcionando: 999.999 clientes na organização.' });
  });

  it('keeps the total of the first page when the next page of the wave omits it', () => {
    const { client } = service((page) => json(200, { data: customers(page * 2 + 1, 2), ...(page === 0 ? { paging: { totalRows: 80 } } : {}) }));
    expect(checkConnection(client, clock(1))).toMatchObject({ customers: 80, message: 'Conexão funcionando: 80 clientes na organização.' });
  });

  it('a warning other than the page limit does not turn the count into a lower bound', () => {
    // Page 1 repeats a customer of page 0: counted once, with a warning, and the count is still exact.
    const pages = [customers(1, 3), [...customers(3, 1), ...customers(4, 2)], []];
    const { client } = service((page) => json(200, { data: pages[page] ?? [] }));
    expect(checkConnection(client, clock(1))).toMatchObject({ customers: 5, message: 'Conexão funcionando: 5 clientes na organização.' });
  });

  it('keeps an organization whose first record has no name, as a consolidated run tells it, and names only one that has', () => {
    const nameless = [{ idCliente: 9, cpfCnpj: '11444777000161', isCliente: false, isFornecedor: false, isParceiro: false, isFuncionario: false }];
    const answer = (records: object[]) => () => json(200, { data: records, paging: { totalRows: 1 } });
    const found = checkConnection(service(answer(nameless)).client, clock(1));
    // Testar stores what it finds and a consolidated run keeps what it identifies: were they to differ, each would undo the other.
    expect(found.organization).toEqual(identifyOrganization(service(answer(nameless)).client));
    expect(found).toMatchObject({ organization: { key: '9:11444777000161', name: '' }, message: 'Conexão funcionando: 1 cliente na organização.' });
    const named = [{ ...nameless[0], razaoSocial: 'Aurora Contabilidade Ltda' }];
    expect(checkConnection(service(answer(named)).client, clock(1)).message).toBe(
      'Conexão funcionando: 1 cliente na organização "Aurora Contabilidade Ltda" (CNPJ 11.444.777/0001-61).',
    );
  });

  it('calls a working but slow service slow, with the time it took', () => {
    const answer = () => json(200, { data: customers(1, 3), paging: { totalRows: 3 } });
    expect(checkConnection(service(answer).client, clock(6_250))).toEqual({
      ok: true,
      code: 'slow',
      customers: 3,
      organization: { key: '1:', name: '', document: '', own: false },
      elapsedMs: 6_250,
      message: 'Conectado (3 clientes), mas o serviço demorou 6,3 s para responder.',
    });
    expect(checkConnection(service(answer).client, clock(5_000)).code).toBe('ok');
    expect(checkConnection(service(answer).client, clock(5_001)).code).toBe('slow');
  });

  it('tells a refused key from an unreachable host, a time-out and a wrong address', () => {
    const check = (outcome: HttpOutcome) => checkConnection(service(() => outcome).client, clock(40));
    expect(check(json(401, { message: 'no' }))).toEqual({
      ok: false,
      code: 'unauthorized',
      elapsedMs: 40,
      message: 'Chave de API recusada (HTTP 401): confira se a chave foi copiada inteira e se pertence a esta organização.',
    });
    expect(check({ kind: 'network-error', message: 'timeout', timedOut: true })).toEqual({
      ok: false,
      code: 'timeout',
      elapsedMs: 40,
      message: 'O serviço não respondeu a tempo. Tente de novo em alguns minutos; se persistir, confira o endereço base.',
    });
    expect(check({ kind: 'network-error', message: 'DNS' })).toEqual({
      ok: false,
      code: 'unreachable',
      elapsedMs: 40,
      message: 'Não foi possível alcançar o endereço informado. Confira o endereço base e a sua conexão.',
    });
    const html: HttpOutcome = { kind: 'response', status: 404, headers: { 'content-type': 'text/html' }, body: '<html>' };
    expect(check(html)).toEqual({
      ok: false,
      code: 'wrong-url',
      elapsedMs: 40,
      message: 'O endereço respondeu, mas não como o serviço de faturamento (HTTP 404). Confira o endereço base.',
    });
    expect(check(json(404, { message: 'rota' }))).toMatchObject({ code: 'wrong-url', message: expect.stringContaining('(HTTP 404)') });
    expect(check({ kind: 'response', status: 200, headers: { 'content-type': 'text/html' }, body: '<html>' })).toMatchObject({
      code: 'wrong-url',
      message: 'O endereço respondeu, mas não como o serviço de faturamento (resposta não é JSON). Confira o endereço base.',
    });
  });

  it("passes any other service error on in the service's words, and anything else as unexpected", () => {
    const failed = checkConnection(service(() => json(500, { message: 'manutenção' })).client, clock(1));
    expect(failed).toMatchObject({ ok: false, code: 'error' });
    expect(failed.message).toContain('manutenção');
    expect(failed.message).not.toMatch(/^Erro inesperado/);
    const broken = service(() => {
      throw new Error('quebrou');
    });
    expect(checkConnection(broken.client, clock(2))).toEqual({ ok: false, code: 'error', elapsedMs: 2, message: 'Erro inesperado: quebrou' });
  });
});
