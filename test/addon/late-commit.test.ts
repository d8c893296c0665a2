/**
 * A service that commits a creation some time after the add-on's request
 * already failed (a 500, a 503 or a dropped connection): the lookup that
 * follows finds nothing yet. The real bundle in the emulator, the sandbox over
 * HTTP; re-run as a person would, and by the hourly run.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { GasEmulator } from '../../dev/gas/runner';
import { type SandboxHandle, borrowSandbox } from '../../dev/sandbox/harness';
import { catalog, type Rec } from '../core/bulk/fixtures';
import { connect, emulator, executeBulk, ok, rowsByHeader, subscriptionSheet } from './helpers';

let sb: SandboxHandle;
let cat: Awaited<ReturnType<typeof catalog>>;

beforeAll(async () => {
  sb = await borrowSandbox({ seed: 47, size: 'small' });
});
afterAll(async () => {
  await sb?.stop();
});
beforeEach(async () => {
  await sb.reset();
  cat = await catalog(sb);
});

const ROWS = 24;

function template(emu: GasEmulator): string {
  return subscriptionSheet(emu, cat, ROWS, 'Tardia', 40);
}

const step = (emu: GasEmulator, sheet: string): Rec => executeBulk(emu, { operation: 'criarAssinaturaPersonalizada', sheetName: sheet });

/** Below the EXEMPLO row. */
const rowsOf = (emu: GasEmulator, sheet: string) => rowsByHeader(emu, sheet).slice(1);

/** Creations per integration key, from the sandbox's own records. */
async function createdByKey(): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const a of await sb.dump<Rec>(sb.orgs[0].name, 'assinaturas')) out.set(a.idIntegracao, (out.get(a.idIntegracao) ?? 0) + 1);
  return out;
}

const uncommitted = async () => (await sb.requestLog({ method: 'POST' })).filter((e) => e.lateCommit && !e.lateCommit.committed);

/**
 * Time passes for the service: its queue moves with the traffic it gets (the
 * faults count requests, so the test is deterministic), here other clients' reads.
 */
async function lateCommitsDone(): Promise<void> {
  for (let i = 0; i < 400 && (await uncommitted()).length > 0; i++) await fetch(`${sb.baseUrl}/v2/clientes`, { headers: { 'x-api-key': sb.orgs[1].apiKey } });
  expect(await uncommitted()).toEqual([]);
}

function expectSettled(emu: GasEmulator, sheet: string, counts: Map<string, number>, allowPending: boolean): void {
  for (const r of rowsOf(emu, sheet)) {
    const key = r['ID de integração'] as string;
    expect(key).toMatch(/\S/);
    expect(counts.get(key) ?? 0, `${key}`).toBeLessThanOrEqual(1);
    if (r.Status === 'OK') {
      expect(counts.get(key)).toBe(1);
      expect(r['ID da assinatura criada']).toEqual(expect.any(Number));
    } else {
      expect(allowPending, `${key}: ${r.Status} ${r.Mensagem}`).toBe(true);
      expect(r.Status).toBe('PENDENTE');
      // Says what is going on and what to do, in Portuguese.
      expect(String(r.Mensagem)).toMatch(/\S{3,}.*\S{3,}/);
      expect(String(r.Mensagem)).not.toBe('Enviando…');
    }
  }
}

const FAULTS = [
  // The first two creations land only well after the execution (more requests than it makes).
  { kind: 'lateCommit', failWith: 'status500', method: 'POST', times: 2, afterRequests: 300 },
  { kind: 'lateCommit', failWith: 'status500', method: 'POST', rate: 0.2, afterRequests: 3 },
  { kind: 'lateCommit', failWith: 'status503', method: 'POST', rate: 0.15, afterRequests: 1 },
  { kind: 'lateCommit', failWith: 'reset', method: 'POST', rate: 0.15, afterRequests: 6 },
] as const;

describe('a service that commits after failing the request', () => {
  it('re-run by a person: no duplicate, no unknown outcome resent in the same execution, every row OK at the end', async () => {
    const emu = emulator();
    connect(emu, sb);
    const sheet = template(emu);
    await sb.configure({ faults: [...FAULTS] });
    step(emu, sheet);
    const posts = await sb.requestLog({ method: 'POST' });
    expect(posts.some((e) => e.lateCommit)).toBe(true);
    // Within one execution a key is sent once, whatever its answer was.
    const sent = posts.map((e) => (e.body as Rec).idIntegracao);
    expect(new Set(sent).size).toBe(sent.length);
    expectSettled(emu, sheet, await createdByKey(), true);
    // Every creation the service had not committed by the end is PENDENTE (and was not sent again).
    const waiting = new Set((await uncommitted()).map((e) => (e.body as Rec).idIntegracao));
    expect(waiting.size).toBeGreaterThanOrEqual(2);
    for (const r of rowsOf(emu, sheet)) if (waiting.has(r['ID de integração'])) expect(r.Status).toBe('PENDENTE');

    // Later (past the safe delay), the person runs it again; the service has long committed.
    await lateCommitsDone();
    await sb.configure({ faults: [] });
    emu.now += 11 * 60_000;
    step(emu, sheet);
    const counts = await createdByKey();
    expectSettled(emu, sheet, counts, false);
    const keys = rowsOf(emu, sheet).map((r) => r['ID de integração'] as string);
    expect(new Set(keys).size).toBe(ROWS);
    for (const k of keys) expect(counts.get(k), k).toBe(1);
  });

  it('the hourly run finishes a run the sidebar left, with the faults still on: no duplicate, rows OK or PENDENTE', async () => {
    const emu = emulator();
    connect(emu, sb);
    const sheet = template(emu);
    await sb.configure({ faults: [...FAULTS] });
    // A tiny first step, then the sidebar is closed.
    const first = ok(
      emu.run(
        'startBulkRun',
        [{ operation: 'criarAssinaturaPersonalizada', sheetName: sheet, connection: 'Demo', scope: 'all', batchSize: 5, stepSeconds: 5 }],
        { costs: { urlFetchCallMs: 3000 } },
      ),
    );
    expect(first.done).toBe(false);
    for (let hour = 1; hour <= 3; hour++) {
      // An hour passes for the service too: what it queued has been committed.
      await lateCommitsDone();
      emu.now += 60 * 60_000;
      emu.run('runScheduledReports', [], { kind: 'trigger' });
      expectSettled(emu, sheet, await createdByKey(), true);
    }
    expect((emu.run('getBulkForm') as Rec).jobs).toEqual([]);
    const counts = await createdByKey();
    expectSettled(emu, sheet, counts, true);
    const rows = rowsOf(emu, sheet);
    expect(rows.filter((r) => r.Status === 'OK').length).toBeGreaterThan(ROWS / 2);
  });
});
