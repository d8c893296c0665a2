import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { borrowSandbox, type SandboxHandle } from '../../dev/sandbox/harness.js';
import { api } from './helpers.js';

let sb: SandboxHandle;
beforeAll(async () => {
  sb = await borrowSandbox({ seed: 3 });
});
afterAll(async () => {
  await sb?.stop();
});

const LIST_PATHS = ['/v2/clientes', '/v2/faturamento/faturas', '/v2/nfse', '/v2/financeiro/cobrancas', '/v2/financeiro/transacoes'];

describe('API keys', () => {
  it('reports three organizations, one without city-hall integration', () => {
    expect(sb.orgs).toHaveLength(3);
    expect(sb.orgs.filter((o) => !o.hasCityHallIntegration)).toHaveLength(1);
    expect(new Set(sb.orgs.map((o) => o.apiKey)).size).toBe(3);
    expect(sb.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it.each(LIST_PATHS)('%s: 401 in the list envelope for a missing or unknown key', async (path) => {
    for (const key of [null, 'nope', '']) {
      const r = await api(sb, path, { key });
      expect(r.status).toBe(401);
      expect(r.body).toMatchObject({ status: '401', data: [], paging: {} });
      expect(r.body.message.length).toBeGreaterThan(0);
    }
  });

  it('subscription operations answer 401 in the subscription envelope', async () => {
    const calls: Array<[string, string]> = [
      ['GET', '/v2/assinaturascontratos'],
      ['POST', '/v2/assinaturascontratos/plano'],
      ['PUT', '/v2/assinaturascontratos/plano/1'],
      ['POST', '/v2/assinaturascontratos/personalizado'],
      ['PUT', '/v2/assinaturascontratos/personalizado/1'],
    ];
    for (const [method, path] of calls) {
      const r = await api(sb, path, { key: 'wrong', method, body: method === 'GET' ? undefined : {} });
      expect(r.status, `${method} ${path}`).toBe(401);
      expect(r.body.data).toBeNull();
      expect(typeof r.body.message).toBe('string');
      expect(r.body.errors.length).toBeGreaterThan(0);
    }
  });

  it('NFS-e emission answers 401 in its envelope', async () => {
    const r = await api(sb, '/v2/faturamento/nfse/emitir', { key: null, body: { idFatura: 1 } });
    expect(r.status).toBe(401);
    expect(r.body).toMatchObject({ status: '401', data: null });
  });

  it('scopes data to the key organization', async () => {
    const [a, b] = sb.orgs;
    const ra = await api(sb, '/v2/clientes', { key: a.apiKey });
    const rb = await api(sb, '/v2/clientes', { key: b.apiKey });
    const idsA = new Set(ra.body.data.map((c: any) => c.idCliente));
    expect(ra.body.data.length).toBeGreaterThan(0);
    expect(rb.body.data.some((c: any) => idsA.has(c.idCliente))).toBe(false);
    const dumpB = await sb.dump<{ idFatura: number }>(b.name, 'faturas');
    const cross = await api(sb, '/v2/faturamento/faturas', { key: a.apiKey, query: { idFatura: dumpB[0].idFatura } });
    expect(cross.body.data).toEqual([]);
  });

  it('answers a second key of the same organization with the same data, logged under the same organization', async () => {
    const [aurora] = sb.orgs;
    expect(aurora.otherKeys?.length).toBe(1);
    const second = (aurora.otherKeys as string[])[0];
    const first = await api(sb, '/v2/clientes', { key: aurora.apiKey });
    await sb.clearLog();
    const again = await api(sb, '/v2/clientes', { key: second });
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(first.body.data);
    expect((await sb.requestLog({ pathPrefix: '/v2/clientes' })).map((e) => e.org)).toEqual([aurora.name]);
    expect(await sb.dump(second, 'clientes')).toEqual(await sb.dump(aurora.name, 'clientes'));
  });

  it('logs the organization name, never the key', async () => {
    await sb.clearLog();
    await api(sb, '/v2/clientes', { key: sb.orgs[1].apiKey });
    await api(sb, '/v2/clientes', { key: 'bad' });
    const log = await sb.requestLog({ pathPrefix: '/v2/clientes' });
    expect(log.map((e) => e.org)).toEqual([sb.orgs[1].name, null]);
    expect(JSON.stringify(log)).not.toContain(sb.orgs[1].apiKey);
  });
});
