/**
 * Several companies' listings walked in shared round trips: one `fetchAll`
 * per wave whoever the requests go to, each walk's pages and failures its
 * own. Real HTTP to the sandbox's three organizations.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { nodeTransport } from '../../dev/http/node-transport';
import { type SandboxHandle, borrowSandbox } from '../../dev/sandbox/harness';
import { intlZone } from '../../src/api/calendar';
import { BillingClient, type Walk, waveAcross } from '../../src/api/client';
import { UnauthorizedError } from '../../src/api/errors';
import type { Transport } from '../../src/api/transport';

type Rec = Record<string, any>;
let sb: SandboxHandle;

beforeAll(async () => {
  sb = await borrowSandbox({ seed: 9, size: 'small' });
});
afterAll(async () => {
  await sb?.stop();
});
beforeEach(async () => {
  await sb.reset();
});

/** The node transport, counting round trips and the requests each carried. */
function counting(): { transport: Transport; trips: number[] } {
  const trips: number[] = [];
  return {
    trips,
    transport: {
      fetch: (r) => {
        trips.push(1);
        return nodeTransport.fetch(r);
      },
      fetchAll: (rs) => {
        trips.push(rs.length);
        return nodeTransport.fetchAll(rs);
      },
    },
  };
}

function client(transport: Transport, apiKey: string): BillingClient {
  return new BillingClient({ baseUrl: sb.baseUrl, apiKey, transport, sleep: () => {}, zone: intlZone('America/Sao_Paulo'), pageSize: 20, timeoutMs: 10_000 });
}

describe('waves across companies', () => {
  it('walks three companies in shared round trips, every record of each once, a refused key failing alone', async () => {
    const { transport, trips } = counting();
    const walks: Walk[] = [sb.orgs[0].apiKey, sb.orgs[1].apiKey, 'sbx_live_errada'].map((key) => client(transport, key).walk('clientes', {}));
    const got: Rec[][] = [[], [], []];
    const errors: unknown[] = [];
    for (let guard = 0; walks.some((w, i) => !w.pager.done && errors[i] === undefined); guard++) {
      if (guard > 50) throw new Error('never ended');
      const open = walks.flatMap((w, i) => (!w.pager.done && errors[i] === undefined ? [i] : []));
      const outcomes = waveAcross(open.map((i) => ({ walk: walks[i], max: 3 })));
      outcomes.forEach((o, k) => {
        if (o.ok) for (const p of o.pages) got[open[k]].push(...p.records);
        else errors[open[k]] = o.error;
      });
    }
    for (const org of [0, 1]) {
      const dump = await sb.dump<Rec>(sb.orgs[org].name, 'clientes');
      expect(got[org].map((c) => c.idCliente).sort((a, b) => a - b)).toEqual(dump.map((c) => c.idCliente).sort((a, b) => a - b));
    }
    expect(got[2]).toEqual([]);
    expect(errors[2]).toBeInstanceOf(UnauthorizedError);
    // The first round trip carried every company's first two pages; none carried more than 3 a company.
    expect(trips[0]).toBe(6);
    expect(Math.max(...trips)).toBeLessThanOrEqual(9);
    const log = await sb.requestLog({ pathPrefix: '/v2/clientes' });
    expect(log.length).toBe(trips.reduce((a, b) => a + b, 0));
    expect(trips.length).toBeLessThan(log.length / 2);
  });
});
