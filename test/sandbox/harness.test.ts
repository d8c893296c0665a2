/** Harness lifecycle: separate children on free ports, idempotent stop, 405/404 routing. */
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../dev/sandbox/harness.js';
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
