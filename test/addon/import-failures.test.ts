/**
 * Forms without dead ends, on the server side: a failure says whether
 * continuing can work, a failed first import can leave nothing behind, a
 * cancel asked while a step runs stops it between waves, and the imported
 * sheet is the active one at the end.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type SandboxHandle, borrowSandbox } from '../../dev/sandbox/harness';
import { connect, emulator, finishRun, type Progress } from './helpers';

let sb: SandboxHandle;
beforeAll(async () => {
  sb = await borrowSandbox({ seed: 5, size: 'small' });
});
afterAll(async () => {
  await sb?.stop();
});
beforeEach(async () => {
  await sb.reset();
});

/** Saves (or re-keys) the connection "Demo". */
function setKey(emu: ReturnType<typeof emulator>, apiKey: string): void {
  const existing = (emu.run('listConnections') as Array<{ id: string; name: string }>).find((c) => c.name === 'Demo');
  const r = emu.run('saveConnection', [{ id: existing?.id, name: 'Demo', baseUrl: sb.baseUrl, apiKey, isDefault: true }]) as { ok: boolean };
  expect(r.ok).toBe(true);
}

type Run = Progress & { runId: string; canContinue: boolean; firstRun: boolean; totalRows?: number; etaSeconds?: number; sheetName: string };

describe('a failed import', () => {
  it('a failed first import, discarded, brings the person back to the tab they were on', () => {
    const emu = emulator();
    setKey(emu, 'chave-errada');
    const active = () => emu.withServices((s) => s.SpreadsheetApp.getActiveSpreadsheet().getActiveSheet().getName());
    emu.withServices((s) => s.SpreadsheetApp.getActiveSpreadsheet().insertSheet('Minhas notas').activate());
    const started = emu.run('startImportRun', [{ connection: 'Demo', listing: 'faturas', sheetName: 'Faturas', filters: {} }]) as {
      ok: true;
      value: Run & { returnTo?: number };
    };
    const failed = finishRun(emu, started.value.reportId) as Run;
    expect(failed.status).toBe('failed');
    emu.withServices((s) => s.SpreadsheetApp.getActiveSpreadsheet().getSheetByName('Faturas')!.activate());
    expect(emu.run('discardFailedImport', [failed.reportId, started.value.returnTo])).toBe(true);
    expect(active()).toBe('Minhas notas');
  });

  it('a refused key: no "Continuar", and the first import leaves no sheet and no report behind', () => {
    const emu = emulator();
    setKey(emu, 'chave-errada');
    const sheetsBefore = emu.sheetNames();
    const started = emu.run('startImportRun', [{ connection: 'Demo', listing: 'faturas', sheetName: 'Faturas', filters: {} }]) as { ok: true; value: Run };
    const failed = finishRun(emu, started.value.reportId) as Run;
    expect(failed.status).toBe('failed');
    expect(failed.message).toMatch(/chave de API/);
    expect(failed).toMatchObject({ canContinue: false, firstRun: true });
    expect(emu.sheetNames()).toContain('Faturas');
    expect(emu.run('discardFailedImport', [failed.reportId])).toBe(true);
    expect(emu.sheetNames().filter((n) => n !== 'Histórico' && n !== 'Faturamento · dados')).toEqual(sheetsBefore);
    expect(emu.run('listReports')).toEqual([]);
    // Once the key is right, the same form works at once.
    setKey(emu, sb.orgs[0].apiKey);
    const again = emu.run('startImportRun', [{ connection: 'Demo', listing: 'faturas', sheetName: 'Faturas', filters: {}, newSheet: true }]) as {
      ok: true;
      value: Run;
    };
    expect(finishRun(emu, again.value.reportId).status).toBe('done');
  });

  it('never discards a report that once finished, nor a sheet that was there before', () => {
    const emu = emulator();
    connect(emu, sb);
    const started = emu.run('startImportRun', [{ connection: 'Demo', listing: 'nfse', sheetName: 'NFS-e', filters: {} }]) as { ok: true; value: Run };
    finishRun(emu, started.value.reportId);
    setKey(emu, 'chave-errada');
    const id = started.value.reportId;
    emu.run('runReport', [id]);
    const failed = finishRun(emu, id) as Run;
    expect(failed).toMatchObject({ status: 'failed', firstRun: false });
    expect(emu.run('discardFailedImport', [id])).toBe(false);
    expect(emu.sheetNames()).toContain('NFS-e');
  });

  it('an inverted period is refused beside its end field before any request', async () => {
    const emu = emulator();
    connect(emu, sb);
    await sb.clearLog();
    const r = emu.run('startImportRun', [
      { connection: 'Demo', listing: 'cobrancas', sheetName: 'Cobranças', filters: { vencimentoInicial: '2026-10-31', vencimentoFinal: '2026-10-01' } },
    ]) as { ok: false; field: string; message: string };
    expect(r).toMatchObject({ ok: false, field: 'filter:vencimentoFinal' });
    expect(r.message).toMatch(/anterior ao início/);
    expect(await sb.requestLog()).toEqual([]);
    expect(emu.sheetNames()).not.toContain('Cobranças');
  });
});

describe('a long import', () => {
  it('shows the total and an estimate, stops between waves when a cancel is asked mid-step, and says so', async () => {
    await sb.reset({ size: { faturas: 6_000, clientes: 50, cobrancas: 10, transacoes: 10, assinaturas: 10 } });
    const emu = emulator();
    connect(emu, sb);
    const started = emu.run('startImportRun', [{ connection: 'Demo', listing: 'faturas', sheetName: 'Faturas', filters: {} }]) as { ok: true; value: Run };
    const id = started.value.reportId;
    const first = emu.run('continueReportRun', [id], { costs: { urlFetchCallMs: 1000 } }) as Run;
    expect(first.status).toBe('running');
    expect(first.totalRows).toBe(6_000);
    expect(first.etaSeconds).toBeGreaterThan(0);
    // Asked from another execution (the sidebar's Cancelar, naming the run it watched) while the next step runs: that step stops after its wave.
    emu.run('requestCancelReportRun', [id, first.runId]);
    const stopped = emu.run('continueReportRun', [id], { costs: { urlFetchCallMs: 1000 } }) as Run;
    expect(stopped.status).toBe('cancelled');
    expect(stopped.message).toMatch(/cancelada com [\d.]+ linhas gravadas/);
    expect(stopped.rows).toBeLessThan(6_000);
    expect(String(emu.values('Faturas')[0][0])).toMatch(/^⚠ INCOMPLETO/);
    // A new run is not cancelled by the old request.
    const again = emu.run('startImportRun', [{ id, connection: 'Demo', listing: 'faturas', sheetName: 'Faturas', filters: {} }]) as { ok: true; value: Run };
    expect(finishRun(emu, again.value.reportId).status).toBe('done');
  });

  it('ends with the imported sheet active, not Histórico or a child sheet', () => {
    const emu = emulator();
    connect(emu, sb);
    const started = emu.run('startImportRun', [{ connection: 'Demo', listing: 'clientes', sheetName: 'Clientes', filters: { isListarTelefones: true } }]) as {
      ok: true;
      value: Run;
    };
    finishRun(emu, started.value.reportId);
    expect(emu.sheetNames()).toEqual(expect.arrayContaining(['Clientes', 'Clientes · Telefones', 'Histórico']));
    expect(emu.spreadsheet.activeSheet().name).toBe('Clientes');
    // Widths fitted to the content, within bounds: not every column 100 px.
    const sheet = emu.spreadsheet.byName('Clientes')!;
    const header = emu.values('Clientes')[0].map(String);
    const widths = header.map((_, i) => sheet.columnWidths.get(i + 1) ?? 100);
    expect(Math.min(...widths)).toBeGreaterThanOrEqual(60);
    expect(Math.max(...widths)).toBeLessThanOrEqual(320);
    expect(new Set(widths).size).toBeGreaterThan(3);
    expect(widths[header.indexOf('CPF/CNPJ')]).toBeGreaterThanOrEqual(14 * 7);
    expect(emu.spreadsheet.byName('Clientes · Telefones')!.columnWidths.size).toBeGreaterThan(0);
  });
});
