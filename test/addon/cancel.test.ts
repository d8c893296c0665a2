/**
 * A cancel ends its own run only, wherever that run goes on: the sidebar's
 * request reaches the owner's hourly run even when it steps the pull without
 * the document as its active spreadsheet, and a request left behind never ends
 * the report's next run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SandboxHandle, borrowSandbox } from '../../dev/sandbox/harness';
import type { Rec } from '../core/bulk/fixtures';
import { connect, emulator, finishRun, type Progress } from './helpers';

let sb: SandboxHandle;
/** A slow service: each round trip takes 4 s of the execution's time, so a sidebar step does one wave. */
const slow = { costs: { urlFetchCallMs: 4_000 } };

beforeAll(async () => {
  sb = await borrowSandbox({ seed: 5, size: { faturas: 1_500, clientes: 20, cobrancas: 5, transacoes: 5, assinaturas: 5 } });
});
afterAll(async () => {
  await sb?.stop();
});

function started(emu: ReturnType<typeof emulator>): Progress & { runId: string } {
  const out = emu.run('startImportRun', [{ connection: 'Demo', listing: 'faturas', name: 'Faturas', sheetName: 'Faturas' }]) as Rec;
  expect(out.ok).toBe(true);
  return emu.run('continueReportRun', [out.value.reportId], slow) as Progress & { runId: string };
}

describe('cancelling a run', () => {
  it('the hourly run without the document sees the cancel asked in the sidebar', () => {
    const emu = emulator();
    connect(emu, sb);
    const p = started(emu);
    expect(p.status).toBe('running');
    emu.run('requestCancelReportRun', [p.reportId, p.runId]);
    // The sidebar was closed: the owner's trigger goes on with the pull, opening the document by id.
    emu.runDueTriggers(new Date(emu.now + 3_600_000), { documentContext: false, ...slow });
    const report = (emu.run('listReports') as Rec[])[0];
    expect(report.lastRun).toMatchObject({ result: 'cancelado' });
    expect(report.lastRun.rows).toBeLessThan(1_500);
    expect(report.canContinue).toBe(true);
  });

  it('a request left behind ends neither the next refresh nor the one after', () => {
    const emu = emulator();
    connect(emu, sb);
    const p = started(emu);
    emu.run('requestCancelReportRun', [p.reportId, p.runId]);
    expect(finishRun(emu, p.reportId, slow).status).toBe('cancelled');
    // The request stays in the cache for minutes; a second, late one arrives after the cancel too.
    emu.run('requestCancelReportRun', [p.reportId, p.runId]);
    for (const round of [1, 2]) {
      const next = emu.run('runReport', [p.reportId]) as Progress & { runId: string };
      expect(next.runId, `refresh ${round}`).not.toBe(p.runId);
      expect(finishRun(emu, p.reportId, slow), `refresh ${round}`).toMatchObject({ status: 'done', rows: 1_500 });
    }
    // A cancel of the finished run comes too late and changes nothing.
    expect(emu.run('cancelReportRun', [p.reportId, p.runId])).toMatchObject({ status: 'done', cancelLate: true });
  });
});
