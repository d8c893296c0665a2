/**
 * Exactly once under faults: 5% of requests fail with 500, some get 429 with
 * Retry-After, some creates and emissions are applied and then answered with a
 * 500 or a dropped connection, steps end at short deadlines, and an execution
 * is killed right after a batch went out. Run and re-run until done; then the
 * sandbox's data must hold each valid row once and the log no invalid row.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SandboxHandle, borrowSandbox } from '../../../dev/sandbox/harness';
import type { BillingClient } from '../../../src/api/client';
import { continueBulk } from '../../../src/core/bulk/job';
import { startBulk } from '../../../src/core/bulk/launch';
import type { BulkProgress } from '../../../src/core/bulk/state';
import { bulkJobStore } from '../../../src/core/bulk/stored-job';
import { SAFE_RESEND_MS } from '../../../src/core/bulk/batch';
import { catalog, client, CUSTOM_HEADER, customRow, deps, MemoryStore, type Rec, zone, trusted } from './fixtures';
import { MemoryBook } from './memory-book';

let sb: SandboxHandle;

beforeAll(async () => {
  sb = await borrowSandbox({
    seed: 23,
    size: 'small',
    config: {
      faults: [
        // Rated faults land where the seeded draws fall, which moves with the request pattern: two 429s on POSTs are certain.
        { kind: 'status', status: 429, retryAfterSeconds: 1, method: 'POST', times: 2 },
        { kind: 'commitThenFail', failWith: 'status500', method: 'POST', pathPrefix: '/v2/assinaturascontratos', rate: 0.08 },
        { kind: 'commitThenFail', failWith: 'reset', method: 'POST', rate: 0.05 },
        { kind: 'status', status: 429, retryAfterSeconds: 1, rate: 0.05 },
        { kind: 'status', status: 500, rate: 0.05 },
      ],
    },
  });
});
afterAll(async () => {
  await sb?.stop();
});

/**
 * A client that, on the `at`-th write wave of the run (counted across executions, so how many waves fit in
 * one step on a loaded machine does not matter), lets the requests reach the service and then dies like a
 * killed execution.
 */
function killingClient(real: BillingClient, at: number, kill: () => void, count: { waves: number }): BillingClient {
  return new Proxy(real, {
    get(target, prop, receiver) {
      // The client a step derives with its limit is what it sends through: it dies alike.
      if (prop === 'withLimit') return (limit: number | undefined) => killingClient(target.withLimit(limit), at, kill, count);
      if (prop !== 'writeMany') return Reflect.get(target, prop, receiver);
      return (...args: Parameters<BillingClient['writeMany']>) => {
        const out = target.writeMany(...args);
        if (++count.waves === at) {
          kill();
          throw new Error('Exceeded maximum execution time');
        }
        return out;
      };
    },
  });
}

/** Drives a job as sidebars, dispatcher and a person pressing Executar again would, until nothing is left. */
function runUntilSettled(
  book: MemoryBook,
  operation: 'criarAssinaturaPersonalizada' | 'emitirNfse',
  sheetName: string,
  killAt: number,
): BulkProgress & { killed: boolean } {
  const store = new MemoryStore();
  let killed = false;
  const count = { waves: 0 };
  let offset = 0;
  const clock = () => Date.now() + offset;
  const make = () =>
    deps(sb, book, {
      // A fresh view of the same properties per execution, as Apps Script gives each one.
      jobs: bulkJobStore(trusted(store)),
      now: clock,
      // Short steps: the job has to cross many executions.
      clientFor: () =>
        killed
          ? client(sb)
          : killingClient(
              client(sb),
              killAt,
              () => {
                killed = true;
                store.frozen = true;
                for (const s of book.sheets) s.killed = true;
              },
              count,
            ),
    });
  let p: BulkProgress | null = null;
  for (let round = 0; round < 60; round++) {
    // Two virtual minutes between executions: a row whose outcome was unknown may be resent five executions later.
    offset += SAFE_RESEND_MS / 5;
    const d = make();
    try {
      p =
        p && !p.done
          ? continueBulk(d, p.jobId, clock() + 400)
          : startBulk(d, { operation, sheetName, connection: 'x', scope: 'all', batchSize: 8 }, clock() + 400);
    } catch (err) {
      expect((err as Error).message).toBe('killed');
      store.frozen = false;
      for (const s of book.sheets) s.killed = false;
      continue;
    }
    if (p.done && p.counts.pending === 0 && p.status === 'done') return { ...p, killed };
  }
  throw new Error(`never settled: ${JSON.stringify(p)}`);
}

describe('exactly once under faults, kills and re-runs', () => {
  it('custom subscriptions: each valid row created once, invalid rows never sent', async () => {
    await sb.reset();
    const cat = await catalog(sb);
    const rows = Array.from({ length: 90 }, (_, i) =>
      customRow(i % 3 === 0 ? '' : `REL-${i}`, cat.clientes[i % cat.clientes.length], cat.produtos[i % cat.produtos.length], i),
    );
    const invalid = ['INV-1', 'INV-2', 'INV-3'];
    rows.splice(10, 0, ['INV-1', cat.clientes[0], 'ontem', '11/2026', 'MENSAL', cat.produtos[0], 'x', 10, 'AGRUPADA', 10]);
    rows.splice(40, 0, [
      'INV-2',
      cat.clientes[0],
      zone.instant({ year: 2026, month: 11, day: 1 }),
      '11/2026',
      'SEMANAL',
      cat.produtos[0],
      'x',
      10,
      'AGRUPADA',
      10,
    ]);
    rows.splice(70, 0, [
      'INV-3',
      cat.clientes[0],
      zone.instant({ year: 2026, month: 11, day: 1 }),
      '11/2026',
      'MENSAL',
      cat.produtos[0],
      'x',
      10.001,
      'AGRUPADA',
      10,
    ]);
    const book = new MemoryBook();
    const sheet = book.sheet('Lote', CUSTOM_HEADER, rows);
    expect(runUntilSettled(book, 'criarAssinaturaPersonalizada', 'Lote', 3).killed).toBe(true);

    const records = sheet.records();
    const valid = records.filter((r) => !invalid.includes(r['ID de integração'] as string));
    expect(valid.every((r) => r.Status === 'OK')).toBe(true);
    expect(records.filter((r) => invalid.includes(r['ID de integração'] as string)).map((r) => r.Status)).toEqual(['ERRO', 'ERRO', 'ERRO']);
    const dump = await sb.dump<Rec>(sb.orgs[0].name, 'assinaturas');
    const count = new Map<string, number>();
    for (const a of dump) count.set(a.idIntegracao, (count.get(a.idIntegracao) ?? 0) + 1);
    for (const r of valid) {
      const key = r['ID de integração'] as string;
      expect(count.get(key), key).toBe(1);
      expect(dump.find((a) => a.idIntegracao === key)!.idAssinaturaContrato).toBe(r['ID da assinatura criada']);
    }
    const log = await sb.requestLog({ method: 'POST' });
    expect(log.filter((e) => invalid.includes((e.body as Rec)?.idIntegracao))).toEqual([]);
    // The faults did fire: this was not a quiet run.
    expect(log.some((e) => e.outcome === 'commit-then-500')).toBe(true);
    expect(log.some((e) => e.status === 429)).toBe(true);
    // Every create whose answer was lost was looked up by its key before anything else.
    const lookedUp = new Set((await sb.requestLog({ method: 'GET', pathPrefix: '/v2/assinaturascontratos' })).map((e) => e.query.idIntegracao));
    const lost = log.filter((e) => e.outcome !== 'response' && e.path.startsWith('/v2/assinaturascontratos'));
    expect(lost.length).toBeGreaterThan(0);
    for (const e of lost) expect(lookedUp.has((e.body as Rec).idIntegracao), (e.body as Rec).idIntegracao).toBe(true);
  });

  it('NFS-e: every invoice gets exactly one note', async () => {
    await sb.reset();
    const cat = await catalog(sb);
    const faturas = cat.emitiveis.slice(0, 40);
    const book = new MemoryBook();
    const sheet = book.sheet(
      'NF',
      ['ID da fatura'],
      faturas.map((f) => [f]),
    );
    expect(runUntilSettled(book, 'emitirNfse', 'NF', 2).killed).toBe(true);
    const notes = await sb.dump<Rec>(sb.orgs[0].name, 'nfse');
    const rows = sheet.records();
    for (const [i, f] of faturas.entries()) {
      const mine = notes.filter((n) => n.idFatura === f);
      expect(mine, `fatura ${f}`).toHaveLength(1);
      expect(['OK', 'JÁ EMITIDA']).toContain(rows[i].Status);
      expect(rows[i]['ID da NFS-e']).toBe(mine[0].idNotaFiscalServico);
    }
  });
});
