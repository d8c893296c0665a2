/** The request log: fields, filters, in-flight counts. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { borrowSandbox, type SandboxHandle } from '../../dev/sandbox/harness.js';
import { api } from './helpers.js';

let sb: SandboxHandle;
beforeAll(async () => {
  sb = await borrowSandbox({ seed: 12 });
});
afterAll(async () => {
  await sb?.stop();
});

describe('request log', () => {
  it('records method, path, parsed query, body, organization, status and arrival', async () => {
    await sb.clearLog();
    const before = Date.now();
    await api(sb, '/v2/faturamento/faturas', { query: { competencia: '01/2026', page: 1 } });
    await api(sb, '/v2/faturamento/nfse/emitir', { body: { idFatura: 5 } });
    await api(sb, '/v2/clientes', { key: null });
    await api(sb, '/__sandbox/orgs');
    const log = await sb.requestLog();
    expect(log).toHaveLength(3);
    expect(log[0]).toMatchObject({
      method: 'GET',
      path: '/v2/faturamento/faturas',
      query: { competencia: '01/2026', page: '1' },
      body: null,
      org: sb.orgs[0].name,
      status: 200,
      outcome: 'response',
      inFlight: 1,
    });
    expect(log[0].arrivedAt).toBeGreaterThanOrEqual(before);
    expect(log[0].finishedAtMono).toBeGreaterThanOrEqual(log[0].arrivedAtMono);
    expect(log[1]).toMatchObject({ method: 'POST', body: { idFatura: 5 }, status: 400 });
    expect(log[2]).toMatchObject({ org: null, status: 401 });
    expect(log[1].seq).toBe(log[0].seq + 1);
    expect(await sb.requestLog({ method: 'post' })).toHaveLength(1);
    expect(await sb.requestLog({ org: sb.orgs[0].name })).toHaveLength(2);
    expect(await sb.requestLog({ afterSeq: log[1].seq })).toEqual([log[2]]);
    await sb.clearLog();
    expect(await sb.requestLog()).toEqual([]);
  });

  it('counts requests in flight at arrival, proving concurrency', async () => {
    await sb.configure({ faults: [{ kind: 'latency', ms: 300, pathPrefix: '/v2/clientes' }] });
    await sb.clearLog();
    await Promise.all([1, 2, 3, 4, 5].map((page) => api(sb, '/v2/clientes', { query: { page } })));
    const log = await sb.requestLog();
    expect(log.map((e) => e.inFlight).sort()).toEqual([1, 2, 3, 4, 5]);
    await sb.clearLog();
    for (const page of [1, 2, 3]) await api(sb, '/v2/clientes', { query: { page } });
    expect((await sb.requestLog()).map((e) => e.inFlight)).toEqual([1, 1, 1]);
    await sb.configure({ faults: [] });
  });

  it('repeated query parameters are logged as arrays', async () => {
    await sb.clearLog();
    await fetch(`${sb.baseUrl}/v2/clientes?isAtivo=true&isAtivo=false`, { headers: { 'x-api-key': sb.orgs[0].apiKey } }).then((r) => r.text());
    expect((await sb.requestLog())[0].query).toEqual({ isAtivo: ['true', 'false'] });
  });
});
