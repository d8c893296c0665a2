/** Fault injection: latency, 429, 500/503 at a rate, hang, reset, commit-then-fail. */
import http from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { borrowSandbox, type SandboxHandle } from '../../dev/sandbox/harness.js';
import { api } from './helpers.js';

let sb: SandboxHandle;
beforeAll(async () => {
  sb = await borrowSandbox({ seed: 8 });
});
afterEach(async () => {
  await sb.reset();
});
afterAll(async () => {
  await sb?.stop();
});

/** Raw GET that reports network failures instead of throwing. */
function rawGet(sbx: SandboxHandle, path: string, timeoutMs: number): Promise<{ status?: number; error?: string }> {
  return new Promise((resolve) => {
    const req = http.get(`${sbx.baseUrl}${path}`, { agent: false, headers: { 'x-api-key': sbx.orgs[0].apiKey } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode }));
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Error('client timeout')));
    req.on('error', (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message }));
  });
}

function plano(sbx: SandboxHandle, cliente: any, planoId: number, idIntegracao: string) {
  return api(sbx, '/v2/assinaturascontratos/plano', {
    body: {
      idIntegracao,
      idCliente: cliente.idCliente,
      dataAdesao: '2026-11-22',
      competenciaInicial: '12/2026',
      idPlano: planoId,
      quantidade: 1,
      formaFaturamentoAssinatura: 'AGRUPADA',
      diaVencimentoCobranca: 10,
    },
  });
}

describe('faults', () => {
  it('latency delays matching requests only', async () => {
    await sb.configure({ faults: [{ kind: 'latency', ms: 300, jitterMs: 50, pathPrefix: '/v2/nfse' }] });
    const t = performance.now();
    await api(sb, '/v2/nfse');
    const slow = performance.now() - t;
    await api(sb, '/v2/clientes');
    // A lower bound only: an upper bound on a loaded machine would flake.
    expect(slow).toBeGreaterThanOrEqual(295);
    const log = await sb.requestLog({ pathPrefix: '/v2/nfse' });
    expect(log[0].faults).toEqual(['latency']);
    const other = await sb.requestLog({ pathPrefix: '/v2/clientes' });
    expect(other.at(-1)?.faults ?? []).toEqual([]);
  });

  it("a fault for one organization hits only requests with that organization's key", async () => {
    await sb.configure({ faults: [{ kind: 'status', status: 500, org: sb.orgs[1].name, pathPrefix: '/v2/clientes' }] });
    expect((await api(sb, '/v2/clientes', { key: sb.orgs[1].apiKey })).status).toBe(500);
    expect((await api(sb, '/v2/clientes', { key: sb.orgs[0].apiKey })).status).toBe(200);
    expect((await api(sb, '/v2/clientes', { key: sb.orgs[2].apiKey })).status).toBe(200);
    await expect(sb.configure({ faults: [{ kind: 'status', status: 500, org: 7 as never }] })).rejects.toThrow(/org must be an organization's name/);
  });

  it('429 with Retry-After for the next N matching requests, in the operation envelope', async () => {
    await sb.configure({ faults: [{ kind: 'status', status: 429, retryAfterSeconds: 7, times: 2, method: 'GET', pathPrefix: '/v2/faturamento' }] });
    const a = await api(sb, '/v2/faturamento/faturas');
    expect(a.status).toBe(429);
    expect(a.headers.get('retry-after')).toBe('7');
    expect(a.body).toMatchObject({ status: '429', data: [], paging: {} });
    expect((await api(sb, '/v2/clientes')).status).toBe(200);
    expect((await api(sb, '/v2/faturamento/faturas')).status).toBe(429);
    expect((await api(sb, '/v2/faturamento/faturas')).status).toBe(200);
    const sub = await sb.configure({ faults: [{ kind: 'status', status: 429, retryAfterSeconds: 1, pathPrefix: '/v2/assinaturascontratos' }] });
    expect(sub.faults).toHaveLength(1);
    const s = await api(sb, '/v2/assinaturascontratos');
    expect(s.status).toBe(429);
    expect(s.body).toMatchObject({ data: null });
    expect(Array.isArray(s.body.errors)).toBe(true);
  });

  it('500/503 at a rate, reproducible with the same seed', async () => {
    async function run(): Promise<number[]> {
      await sb.reset();
      await sb.configure({
        faults: [
          { kind: 'status', status: 503, rate: 0.3 },
          { kind: 'status', status: 500, rate: 0.2 },
        ],
      });
      const out: number[] = [];
      for (let i = 0; i < 40; i++) out.push((await api(sb, '/v2/clientes')).status);
      return out;
    }
    const first = await run();
    const second = await run();
    expect(first).toEqual(second);
    expect(first).toContain(503);
    expect(first).toContain(500);
    expect(first).toContain(200);
  });

  it('hang: no answer until the client gives up', async () => {
    await sb.configure({ faults: [{ kind: 'hang', times: 1, pathPrefix: '/v2/clientes' }] });
    const r = await rawGet(sb, '/v2/clientes', 400);
    expect(r.error).toBeDefined();
    expect(r.status).toBeUndefined();
    expect((await rawGet(sb, '/v2/clientes', 5000)).status).toBe(200);
    const log = await sb.requestLog({ pathPrefix: '/v2/clientes' });
    expect(log[0]).toMatchObject({ outcome: 'hang', status: null });
  });

  it('reset: the connection is dropped without an answer', async () => {
    await sb.configure({ faults: [{ kind: 'reset', times: 1 }] });
    const r = await rawGet(sb, '/v2/nfse', 5000);
    expect(r.status).toBeUndefined();
    expect(r.error).toMatch(/ECONNRESET|socket hang up/);
    await expect(fetch(`${sb.baseUrl}/v2/nfse`, { headers: { 'x-api-key': sb.orgs[0].apiKey } }).then((x) => x.status)).resolves.toBe(200);
    expect((await sb.requestLog())[0]).toMatchObject({ outcome: 'reset', status: null });
  });

  it('commitThenFail: the write is applied but the client sees a 500 or a dropped connection', async () => {
    const org = sb.orgs[0].name;
    const cliente = (await sb.dump<any>(org, 'clientes')).find((c) => c.isAtivo);
    const idPlano = (await sb.dump<any>(org, 'planos'))[0].idPlano;
    await sb.configure({ faults: [{ kind: 'commitThenFail', failWith: 'status500', times: 1, method: 'POST', pathPrefix: '/v2/assinaturascontratos' }] });
    const r = await plano(sb, cliente, idPlano, 'CTF-500');
    expect(r.status).toBe(500);
    expect(r.body).toMatchObject({ data: null });
    expect((await sb.dump<any>(org, 'assinaturas')).filter((a) => a.idIntegracao === 'CTF-500')).toHaveLength(1);

    await sb.configure({ faults: [{ kind: 'commitThenFail', failWith: 'reset', times: 1, method: 'POST' }] });
    await expect(plano(sb, cliente, idPlano, 'CTF-RESET')).rejects.toThrow();
    expect((await sb.dump<any>(org, 'assinaturas')).filter((a) => a.idIntegracao === 'CTF-RESET')).toHaveLength(1);
    const log = await sb.requestLog({ method: 'POST' });
    expect(log.map((e) => e.outcome)).toEqual(['commit-then-500', 'commit-then-reset']);
    // The rule was for one request only.
    expect((await plano(sb, cliente, idPlano, 'CTF-OK')).status).toBe(200);
  });

  it('lateCommit: the request fails and the write appears only N requests later, to the Nth', async () => {
    const org = sb.orgs[0].name;
    const cliente = (await sb.dump<any>(org, 'clientes')).find((c) => c.isAtivo);
    const idPlano = (await sb.dump<any>(org, 'planos'))[0].idPlano;
    const listed = async (key: string) => {
      const r = await api(sb, `/v2/assinaturascontratos?idIntegracao=${key}`);
      const d = r.body as any;
      return (Array.isArray(d) ? d : d && typeof d === 'object' ? [d] : []).filter((a: any) => a.idIntegracao === key).length;
    };
    await sb.configure({ faults: [{ kind: 'lateCommit', failWith: 'status503', afterRequests: 3, times: 1, method: 'POST' }] });
    const r = await plano(sb, cliente, idPlano, 'LATE-503');
    expect(r.status).toBe(503);
    expect(await listed('LATE-503')).toBe(0);
    expect(await listed('LATE-503')).toBe(0);
    expect(await listed('LATE-503')).toBe(1);
    expect((await sb.dump<any>(org, 'assinaturas')).filter((a) => a.idIntegracao === 'LATE-503')).toHaveLength(1);
    const [post] = await sb.requestLog({ method: 'POST' });
    expect(post).toMatchObject({ outcome: 'late-commit-503', lateCommit: { committed: true, atSeq: post.seq + 3, status: 200 } });

    await sb.configure({ faults: [{ kind: 'lateCommit', failWith: 'reset', afterMs: 50, times: 1, method: 'POST' }] });
    await expect(plano(sb, cliente, idPlano, 'LATE-RESET')).rejects.toThrow();
    await expect.poll(() => sb.dump<any>(org, 'assinaturas').then((all) => all.filter((a) => a.idIntegracao === 'LATE-RESET').length)).toBe(1);

    // A reset drops commits not yet run.
    await sb.configure({ faults: [{ kind: 'lateCommit', failWith: 'status500', afterRequests: 1000, times: 1, method: 'POST' }] });
    expect((await plano(sb, cliente, idPlano, 'LATE-NEVER')).status).toBe(500);
    await sb.reset();
    expect(await listed('LATE-NEVER')).toBe(0);
  });

  it('echoKey answers with an error that quotes the request key', async () => {
    await sb.configure({ faults: [{ kind: 'echoKey', status: 502, times: 1 }] });
    const r = await api(sb, '/v2/clientes', { key: sb.orgs[1].apiKey });
    expect(r.status).toBe(502);
    expect(JSON.stringify(r.body)).toContain(sb.orgs[1].apiKey);
    expect((await api(sb, '/v2/clientes')).status).toBe(200);
  });

  it('rejects an unknown fault kind', async () => {
    await expect(sb.configure({ faults: [{ kind: 'explode' } as never] })).rejects.toThrow(/kind/);
  });
});
