/**
 * One owner, four client documents, each with an hourly report and its own
 * trigger, created a few seconds apart. Google fires each trigger in its
 * document and does not wait for the owner's other executions: while the
 * first hourly run works through the due documents under the owner's user
 * lock, the other three start. An execution that finds the owner's work in
 * hand must not spend the owner's daily trigger minutes waiting on that lock,
 * 60 seconds per document.
 */
import { describe, expect, it } from 'vitest';
import { COST_MODELS } from '../../../dev/gas/clock';
import type { ServiceCall } from '../../../dev/gas/execution';
import type { Rec } from '../../core/bulk/fixtures';
import { emulator, importAll, ok } from '../helpers';
import { connectEmpresa, sandbox } from './setup';

const sandboxOf = sandbox(23, { size: { faturas: 400, clientes: 30, cobrancas: 10, transacoes: 10, assinaturas: 10 } });

const ANA = 'ana@escritorio.com.br';
const HOUR = 3_600_000;
/** A service call of the first hourly run, in the middle of its work (it makes about 640 when it is not killed). */
const KILL_AT = 300;

describe('an owner’s overlapping hourly runs', () => {
  it('do not wait on the owner’s user lock, 60 s per document, while another of their runs works', () => {
    const emu = emulator({ user: ANA, costs: COST_MODELS.pessimistic, latency: { ms: 300 } });
    connectEmpresa(emu, sandboxOf());
    const ids = Array.from({ length: 4 }, (_, i) => emu.addSpreadsheet({ name: `Cliente ${i + 1}` }).id);
    for (const documentId of ids) {
      importAll(emu, { listing: 'faturas', sheetName: 'Faturas', name: 'Faturas', connection: 'Empresa', filters: {} }, { documentId });
      const report = (emu.run('listReports', [], { documentId }) as Rec[])[0];
      ok(emu.run('setReportSchedule', [report.id, { kind: 'hourly' }, false], { documentId }));
    }
    expect(emu.triggers.triggers).toHaveLength(4);
    // Someone deleted a row of each sheet: every due report has something to write again.
    for (const documentId of ids) emu.withServices((s) => s.SpreadsheetApp.getActiveSpreadsheet().getSheetByName('Faturas')?.deleteRow(2), { documentId });
    // How long each tryLock kept its execution: the virtual time until that execution's next call.
    const waits: Array<{ execution: number; seconds: number }> = [];
    let asked: { execution: number; at: number } | null = null;
    const onServiceCall = (c: ServiceCall) => {
      if (asked?.execution === c.execution.id) {
        waits.push({ execution: asked.execution, seconds: Math.round((c.execution.clock.now() - asked.at) / 1000) });
        asked = null;
      }
      if (c.object === 'Lock' && c.method === 'tryLock') asked = { execution: c.execution.id, at: c.execution.clock.now() };
    };
    const runs = emu.runDueTriggers(new Date(emu.now + HOUR + 10 * 60_000), { onServiceCall });
    expect(runs.map((r) => r.status)).toEqual(['ok', 'ok', 'ok', 'ok']);
    // Every report ran in that hour.
    for (const documentId of ids) expect(((emu.run('listReports', [], { documentId }) as Rec[])[0].lastRun as Rec).origin).toBe('agendado');
    const idle = runs.filter((r) => r.counters.urlFetchRequests === 0);
    const seen = `runs (s, fetches): ${runs.map((r) => `${Math.round(r.counters.virtualMs / 1000)} s, ${r.counters.urlFetchRequests}`).join('; ')}`;
    expect(
      waits.filter((w) => w.seconds >= 10),
      seen,
    ).toEqual([]);
    expect(
      idle.reduce((ms, r) => ms + r.counters.virtualMs, 0),
      seen,
    ).toBeLessThan(60_000);
  });

  it('leave nothing due undone when the run serving the owner’s documents is killed: a later run serves what it had not', () => {
    const emu = emulator({ user: ANA, costs: COST_MODELS.pessimistic, latency: { ms: 300 } });
    connectEmpresa(emu, sandboxOf());
    const ids = Array.from({ length: 4 }, (_, i) => emu.addSpreadsheet({ name: `Cliente ${i + 1}` }).id);
    // A daily report in each, due at the next hour (São Paulo, UTC−3): what one run serves is not due again that day.
    const hour = (new Date(emu.now + HOUR).getUTCHours() + 21) % 24;
    for (const documentId of ids) {
      importAll(emu, { listing: 'faturas', sheetName: 'Faturas', name: 'Faturas', connection: 'Empresa', filters: {} }, { documentId });
      const report = (emu.run('listReports', [], { documentId }) as Rec[])[0];
      ok(emu.run('setReportSchedule', [report.id, { kind: 'daily', hour }, false], { documentId }));
    }
    const lastRun = (documentId: string) => ((emu.run('listReports', [], { documentId }) as Rec[])[0].lastRun ?? {}) as Rec;
    const before = ids.map((id) => lastRun(id).at);
    // The first run of the hour serves every due document, and is killed in the middle of its work.
    let first: number | undefined;
    const onServiceCall = (c: ServiceCall) => {
      first ??= c.execution.id;
      if (c.execution.id === first && c.index === KILL_AT) c.execution.killed = true;
    };
    const runs = emu.runDueTriggers(new Date(emu.now + HOUR + 10 * 60_000), { onServiceCall });
    expect(runs[0].status).toBe('killed');
    // The runs after it find the documents it had not served still due, and serve them.
    expect(runs.slice(1).reduce((n, r) => n + r.counters.urlFetchRequests, 0)).toBeGreaterThan(0);
    for (const [i, id] of ids.entries())
      expect({ id, ran: lastRun(id).at !== before[i], origin: lastRun(id).origin }).toEqual({ id, ran: true, origin: 'agendado' });
  });
});
