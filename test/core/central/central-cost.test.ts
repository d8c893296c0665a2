/**
 * What a Central refresh costs at the platform's pessimistic figures
 * (300 ms a UrlFetch round trip, a fetchAll of up to 10 being one; 60 ms a
 * call on the work store; the sheet's cells), on a clock that only those
 * costs move: 100 companies with about 300 invoices each in the month fit
 * in at most 3 executions of 6 minutes, and the hourly refresh where 5 of
 * them changed in one execution, within 15% of it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeTransport } from '../../../dev/http/node-transport';
import { borrowSandbox, type SandboxHandle } from '../../../dev/sandbox/harness';
import type { Transport } from '../../../src/api/transport';
import { type CentralDeps, startCentral, stepCentral } from '../../../src/core/central/refresh';
import { COLUMNS } from '../../../src/core/central/sheet';
import { CentralStore } from '../../../src/core/central/store';
import { CALL_MS, CELL_WRITE_MS } from '../../../src/core/deadline';
import type { KeyValueStore } from '../../../src/core/ports';
import { MemoryStore, trusted } from '../bulk/fixtures';
import { DashBook } from '../dashboards/book';
import { clientOf, expectedMonth, NOW, user, zone } from './office';

const ROUND_TRIP_MS = 300;
const EXECUTION_MS = 6 * 60_000;
const STARTUP_MS = 1_000;
const COMPANIES = 100;
const COMP = '10/2026';
/** The sandbox's three demonstration organizations, whatever others it seeds: each with its full month of invoices. */
const DEMO = () => sb.orgs.slice(0, 3);

let sb: SandboxHandle;
beforeAll(async () => {
  // About 300 invoices and as many charges a month in each organization (7,000 over the sandbox's 23 months).
  sb = await borrowSandbox({ seed: 4, size: { clientes: 400, faturas: 7000, cobrancas: 7000, transacoes: 10, assinaturas: 10 } });
}, 120_000);
afterAll(async () => {
  await sb?.stop();
});

function costed(clock: { now: number }) {
  const transport: Transport = {
    fetch: (r) => {
      clock.now += ROUND_TRIP_MS;
      return nodeTransport.fetch(r);
    },
    fetchAll: (rs) => {
      clock.now += ROUND_TRIP_MS * Math.ceil(rs.length / 10);
      return nodeTransport.fetchAll(rs);
    },
  };
  const doc = new MemoryStore();
  const store: KeyValueStore = {
    get: (k) => doc.get(k),
    keys: () => doc.keys(),
    set: (k, v) => {
      clock.now += CALL_MS;
      doc.set(k, v);
    },
    delete: (k) => {
      clock.now += CALL_MS;
      doc.delete(k);
    },
  };
  const book = new DashBook();
  const sheet = book.create('Central');
  const write = sheet.write.bind(sheet);
  sheet.write = (row, col, values) => {
    clock.now += CALL_MS + values.reduce((n, v) => n + v.length, 0) * CELL_WRITE_MS;
    write(row, col, values);
  };
  const deps: CentralDeps = {
    store: trusted(store),
    clientFor: (id) => clientOf(sb, DEMO()[Number(id.slice(1)) % DEMO().length].apiKey, transport),
    now: () => clock.now,
    zone,
    user,
    sheet: () => sheet,
  };
  return { deps, sheet };
}

/** Executions of 6 minutes (each paying its start-up), each stepping until its soft deadline; returns how many it took. */
function executions(deps: CentralDeps, clock: { now: number }): { count: number; lastMs: number } {
  for (let count = 1; count <= 10; count++) {
    const start = clock.now;
    clock.now += STARTUP_MS;
    for (;;) {
      const r = stepCentral(deps, { deadline: start + 4.5 * 60_000, limit: start + EXECUTION_MS - 30_000 });
      expect(clock.now - start).toBeLessThanOrEqual(EXECUTION_MS);
      if (r.done) return { count, lastMs: clock.now - start };
      if (clock.now - start >= 4.5 * 60_000) break;
    }
  }
  throw new Error('the refresh does not end in 10 executions');
}

describe('a refresh of 100 companies at the pessimistic cost model', () => {
  // 21:00 on the sandbox's today: after every record's last update, with the hourly refresh still on the same day.
  const clock = { now: NOW - 170 * 60_000 };
  let world: ReturnType<typeof costed>;
  const companies = Array.from({ length: COMPANIES }, (_, i) => ({ connectionId: `c${i}`, name: `Empresa ${String(i + 1).padStart(3, '0')}` }));

  it('reads all of them in at most 3 executions of 6 minutes', async () => {
    for (const org of DEMO()) expect((await expectedMonth(sb, org.name, COMP)).invoices.count).toBeGreaterThan(250);
    world = costed(clock);
    startCentral(world.deps, { competencia: COMP, companies, onlyChanged: false });
    const full = executions(world.deps, clock);
    expect(full.count).toBeLessThanOrEqual(3);
    const rows = world.sheet.read(10, 1, COMPANIES, COLUMNS.length);
    expect(rows.filter((r) => typeof r[2] === 'number' && r[2] > 250)).toHaveLength(COMPANIES);
  });

  it('checks all of them and reads the 5 that changed in one execution, within 15% of it', () => {
    const central = new CentralStore(world.deps.store);
    for (const c of companies.slice(0, 5)) {
      const item = central.find(COMP, c)!;
      central.save({ ...item, marks: { ...item.marks!, newestNote: -1 } });
    }
    clock.now += 30 * 60_000;
    const started = clock.now;
    startCentral(world.deps, { competencia: COMP, companies, onlyChanged: true });
    const hourly = executions(world.deps, clock);
    expect(hourly.count).toBe(1);
    expect(hourly.lastMs).toBeLessThanOrEqual(0.15 * EXECUTION_MS);
    const read = [...central.month(COMP).values()].filter((m) => m.refreshedAt! > started);
    expect(read.map((m) => m.company.name).sort()).toEqual(companies.slice(0, 5).map((c) => c.name));
  });
});
