/**
 * Google's clock, end to end: the real bundle in the emulator under the
 * pessimistic cost model, against a service that hangs (each hung request
 * costs 60 s, as UrlFetchApp has no time-out option), asks for long pauses and
 * commits writes whose answers never arrive. No execution may be killed at 6
 * minutes, every run must end with the right rows, and say what happened.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { COST_MODELS } from '../../dev/gas/clock';
import type { ExecutionReport, GasEmulator } from '../../dev/gas/runner';
import { type SandboxHandle, borrowSandbox } from '../../dev/sandbox/harness';
import { catalog, type Rec } from '../core/bulk/fixtures';
import { columnsOf, connect, emulator, finishRun, importAll, ok, type Progress, SP, subscriptionSheet } from './helpers';

let sb: SandboxHandle;

beforeAll(async () => {
  sb = await borrowSandbox({ seed: 12, size: 'small' });
});
afterAll(async () => {
  await sb?.stop();
});
beforeEach(async () => {
  await sb.reset({ size: { faturas: 3_000, clientes: 60, cobrancas: 10, transacoes: 10, assinaturas: 10 } });
});

/** Harsh Google: the pessimistic costs, some latency with jitter, and a hang noticed after 200 ms of real time. */
function harsh(): GasEmulator {
  return emulator({ costs: COST_MODELS.pessimistic, latency: { ms: 500, jitterMs: 1500, seed: 3 }, urlFetchTimeoutMs: 200 });
}

const KILL_MS = 6 * 60_000;

function expectNoKill(history: ExecutionReport[]): void {
  for (const r of history) {
    expect(r.status, `${r.functionName} #${r.id}`).not.toBe('killed');
    expect(r.counters.virtualMs, `${r.functionName} #${r.id}`).toBeLessThan(KILL_MS);
  }
}

/** Every row of the bulk sheet (below its example) is OK, and its key was created exactly once in the service. */
async function expectEachRowOnce(emu: GasEmulator, sheet: string): Promise<void> {
  const byKey = new Map<string, number>();
  for (const a of await sb.dump<Rec>(sb.orgs[0].name, 'assinaturas')) byKey.set(a.idIntegracao, (byKey.get(a.idIntegracao) ?? 0) + 1);
  const [header, , ...rows] = emu.values(sheet) as unknown[][];
  const at = (name: string) => (header as string[]).indexOf(name);
  for (const r of rows) {
    expect(byKey.get(r[at('ID de integração')] as string)).toBe(1);
    expect(r[at('Status')]).toBe('OK');
  }
}

describe('a pull from the sidebar', () => {
  it('through hangs, a long Retry-After and slow answers: no step killed, every row once, and each pause said', async () => {
    const emu = harsh();
    connect(emu, sb);
    const started = ok<Progress>(emu.run('startImportRun', [{ connection: 'Demo', listing: 'faturas', sheetName: 'Faturas', filters: {}, name: 'F' }]));
    const id = started.reportId;

    // The service stops answering: the step waits a minute per try (two tries), then says so and keeps the run.
    await sb.configure({ addFaults: [{ kind: 'hang', pathPrefix: '/v2/faturamento/faturas' }] });
    const hung = emu.execute('continueReportRun', [id]);
    expect(hung.status).toBe('ok');
    expect(hung.counters.virtualMs).toBeGreaterThanOrEqual(60_000);
    expect(hung.value).toMatchObject({ status: 'running', done: false });
    expect((hung.value as Progress).message).toMatch(/não respondeu a tempo/);

    // It answers again, but asks for a 10-minute pause: the run waits for it and sends nothing meanwhile.
    await sb.configure({ faults: [{ kind: 'status', status: 429, retryAfterSeconds: 600, pathPrefix: '/v2/faturamento/faturas', times: 1 }] });
    const paused = emu.run('continueReportRun', [id]) as Progress;
    expect(paused.status).toBe('running');
    expect(paused.message).toMatch(/pausa de 600 s/);
    await sb.clearLog();
    expect((emu.run('continueReportRun', [id]) as Progress).status).toBe('running');
    expect(await sb.requestLog({ pathPrefix: '/v2/faturamento/faturas' })).toHaveLength(0);

    // After the pause, slow answers (the emulator's latency) to the end.
    emu.now += 600_000;
    const done = finishRun(emu, id);
    expect(done.status).toBe('done');
    expect(done.message).toBeUndefined();
    const col = columnsOf(emu, 'Faturas');
    const ids = emu
      .values('Faturas')
      .slice(1)
      .map((r) => r[col.idFatura]);
    const dump = await sb.dump<Rec>(sb.orgs[0].name, 'faturas');
    expect(ids).toHaveLength(dump.length);
    expect(new Set(ids)).toEqual(new Set(dump.map((f) => f.idFatura)));
    expectNoKill(emu.history);
  });
});

describe('the hourly run', () => {
  it('against a service that hangs: never killed, fails after three runs with one clear message, then backs off', async () => {
    const emu = harsh();
    connect(emu, sb);
    importAll(emu, { listing: 'clientes', sheetName: 'Clientes', name: 'Clientes' });
    const reportId = (emu.run('listReports') as Rec[])[0].id as string;
    ok(emu.run('setReportSchedule', [reportId, { kind: 'hourly' }, true]));
    await sb.configure({ addFaults: [{ kind: 'hang', pathPrefix: '/v2/clientes' }] });
    await sb.clearLog();

    const runs: ExecutionReport[] = [];
    for (let h = 11; h < 23; h++) runs.push(...emu.runDueTriggers(SP(`2026-11-22T${h}:05:00`)));
    expectNoKill(runs);
    const report = (emu.run('listReports') as Rec[])[0];
    expect(report.lastRun.result).toBe('erro');
    expect(report.lastRun.message).toMatch(/não respondeu em 3 tentativas seguidas/);
    // Twelve hours of a dead service: a pull fails after three hourly tries; from the second failed pull on,
    // the schedule waits 2 h, then 4 h, instead of starting again every hour.
    expect(report.lastRun.message).toMatch(/Falhou 3 vezes seguidas: a atualização agendada espera 4 h/);
    const tries = await sb.requestLog({ pathPrefix: '/v2/clientes' });
    // Nine hourly tries of two pages, each asked twice: the hours from 22:00 on are paused. The first hour also
    // checked whether the sheet already held the listing (unchanged-run.ts: the last walk's pages and one more,
    // asked twice); once a run has failed no hour checks again.
    expect(tries.length).toBeLessThanOrEqual(9 * 2 * 2 + 3 * 2);
    expect(emu.mail.length).toBeLessThanOrEqual(3);
    expect(emu.mail.every((m) => m.body.length < 5_000)).toBe(true);

    // The service comes back: the schedule recovers on its own with every row.
    await sb.configure({ faults: [] });
    for (let h = 0; h < 24; h += 2) emu.runDueTriggers(SP(`2026-11-23T${String(h).padStart(2, '0')}:05:00`));
    const recovered = (emu.run('listReports') as Rec[])[0];
    expect(recovered.lastRun).toMatchObject({ result: 'ok', rows: 60 });
    expect(emu.values('Clientes').length - 1).toBe(60);
    expectNoKill(emu.history);
  });
});

describe('a bulk run', () => {
  it('against a service that commits writes and never answers them: no step killed, each row created once', async () => {
    const emu = harsh();
    connect(emu, sb);
    const cat = await catalog(sb);
    const sheet = subscriptionSheet(emu, cat, 30, 'L');
    // Writes are applied and their answers lost; the lookups that follow hang for a while.
    await sb.configure({
      addFaults: [
        { kind: 'commitThenFail', failWith: 'reset', method: 'POST', times: 12 },
        { kind: 'hang', method: 'GET', pathPrefix: '/v2/assinaturas', times: 6 },
      ],
    });
    let p = ok(emu.run('startBulkRun', [{ operation: 'criarAssinaturaPersonalizada', sheetName: sheet, connection: 'Demo', scope: 'all' }]));
    for (let i = 0; !p.done; i++) {
      if (i > 100) throw new Error('never finished');
      p = ok(emu.run('continueBulkRun', [p.jobId]));
    }
    expect(p.counts.ok).toBe(30);
    await expectEachRowOnce(emu, sheet);
    expectNoKill(emu.history);
  });
});

describe('a bulk run against every fault at once', () => {
  it('hangs, 429s (one asking for 10 minutes) and late commits: no step killed, every row once, and a clear end', async () => {
    const emu = harsh();
    connect(emu, sb);
    const cat = await catalog(sb);
    const sheet = subscriptionSheet(emu, cat, 40, 'F', 60);
    await sb.configure({
      addFaults: [
        // Creations that hang (a minute each) or fail, and are committed by the service later on.
        { kind: 'lateCommit', failWith: 'hang', method: 'POST', times: 3, afterRequests: 4 },
        { kind: 'lateCommit', failWith: 'status503', method: 'POST', rate: 0.2, afterRequests: 2 },
        // A short pause asked twice, then one of ten minutes.
        { kind: 'status', status: 429, retryAfterSeconds: 2, method: 'POST', times: 2 },
        { kind: 'status', status: 429, retryAfterSeconds: 600, method: 'POST', times: 1 },
        // Lookups that hang.
        { kind: 'hang', method: 'GET', pathPrefix: '/v2/assinaturas', times: 3 },
      ],
    });
    const run = async (): Promise<Rec> => {
      let p = ok(emu.run('startBulkRun', [{ operation: 'criarAssinaturaPersonalizada', sheetName: sheet, connection: 'Demo', scope: 'all' }]));
      for (let i = 0; !p.done; i++) {
        if (i > 60) throw new Error('never finished');
        // The sidebar asks again a minute later; the service commits what it held meanwhile.
        emu.now += 60_000;
        for (let k = 0; k < 6; k++) await fetch(`${sb.baseUrl}/v2/clientes`, { headers: { 'x-api-key': sb.orgs[1].apiKey } });
        p = ok(emu.run('continueBulkRun', [p.jobId]));
      }
      return p;
    };
    const first = await run();
    // Every fault was met.
    const log = await sb.requestLog();
    expect(log.some((e) => e.lateCommit && e.faults.includes('lateCommit') && e.status === null)).toBe(true);
    expect(log.filter((e) => e.status === 429).length).toBe(3);
    expect(log.some((e) => e.method === 'GET' && e.faults.includes('hang'))).toBe(true);
    // Rows whose creation may still land are never sent again this soon: the run ends saying how many to check.
    expect(first.counts.ok + first.counts.pending).toBe(40);
    if (first.counts.pending) expect(first.message).toMatch(new RegExp(`${first.counts.pending} PENDENTES? \\(execute de novo para conferi-las\\)`));
    // Executed again once the service can no longer commit them late: each is found or sent, none twice.
    emu.now += 11 * 60_000;
    const again = await run();
    expect(again.counts.pending).toBe(0);
    expect(again.message).toMatch(/linhas? enviadas? com sucesso/);
    await expectEachRowOnce(emu, sheet);
    expectNoKill(emu.history);
  });
});
