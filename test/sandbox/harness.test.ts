/** Harness lifecycle: separate children on free ports, idempotent stop, 405/404 routing, a borrowed sandbox restarted as new. */
import { describe, expect, it } from 'vitest';
import { borrowSandbox, startSandbox } from '../../dev/sandbox/harness.js';
import { api } from './helpers.js';

describe('startSandbox', () => {
  it('runs independent servers on distinct free ports and stops them for good', async () => {
    const [a, b] = await Promise.all([startSandbox({ seed: 1 }), startSandbox({ seed: 1, config: { pageBase: 0 } })]);
    try {
      expect(a.baseUrl).not.toBe(b.baseUrl);
      expect((await api(a, '/v2/clientes', { query: { page: 0 } })).status).toBe(400);
      expect((await api(b, '/v2/clientes', { query: { page: 0 } })).status).toBe(200);
      await b.reset();
      expect((await api(b, '/v2/clientes', { query: { page: 0 } })).status).toBe(200);
    } finally {
      await a.stop();
      await b.stop();
    }
    await a.stop();
    await expect(fetch(`${a.baseUrl}/v2/clientes`)).rejects.toThrow();
  });

  it('answers 405 for a known path with the wrong method and 404 for an unknown path', async () => {
    const sb = await startSandbox();
    try {
      const m = await api(sb, '/v2/assinaturascontratos/plano');
      expect(m.status).toBe(405);
      expect(m.body.data).toBeNull();
      const n = await api(sb, '/v2/naoexiste');
      expect(n.status).toBe(404);
      expect(n.body).toMatchObject({ status: '404', data: [] });
    } finally {
      await sb.stop();
    }
  });
});

describe('borrowSandbox', () => {
  it('hands a sandbox given back to the next borrower as if just started with its options', async () => {
    const first = await borrowSandbox({ seed: 1, config: { pageBase: 0 } });
    await first.configure({ faults: [{ kind: 'status', status: 503 }] });
    expect((await api(first, '/v2/clientes', { query: { page: 0 } })).status).toBe(503);
    await first.stop();

    const second = await borrowSandbox({ seed: 2 });
    const fresh = await startSandbox({ seed: 2 });
    try {
      expect(second.baseUrl).toBe(first.baseUrl);
      expect(await second.requestLog()).toEqual([]);
      expect((await api(second, '/v2/clientes', { query: { page: 0 } })).status).toBe(400);
      expect((await second.requestLog()).map((e) => e.seq)).toEqual([1]);
      const org = second.orgs[0].name;
      expect(await second.dump(org, 'faturas')).toEqual(await fresh.dump(org, 'faturas'));
      // Its start options are the borrower's: a reset returns to them.
      await second.configure({ pageBase: 0 });
      await second.reset();
      expect((await api(second, '/v2/clientes', { query: { page: 0 } })).status).toBe(400);
    } finally {
      await second.stop();
      await fresh.stop();
    }
  });
});
