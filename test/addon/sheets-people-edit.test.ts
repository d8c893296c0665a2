/**
 * Sheets people edit and services that misbehave: what a run proves before it
 * says OK, the service's clock whatever the spreadsheet's zone, and sheets found
 * by id whatever the user renamed. The real bundle in the emulator, the sandbox
 * over HTTP.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type SandboxHandle, startSandbox } from '../../dev/sandbox/harness';
import { columnsOf, connect, emulator, finishRun, importAll, SP } from './helpers';

type Rec = Record<string, any>;
let sb: SandboxHandle;

beforeAll(async () => {
  sb = await startSandbox({ seed: 11, size: 'small' });
});
afterAll(async () => {
  await sb?.stop();
});
beforeEach(async () => {
  await sb.reset();
});

describe('completeness is proven, not assumed', () => {
  it('a pull that sees pages repeat (page parameter ignored) is INCOMPLETO, never OK', async () => {
    const emu = emulator();
    connect(emu, sb);
    await sb.configure({ addFaults: [{ kind: 'ignorePage', pathPrefix: '/v2/faturamento/faturas' }] });
    const p = importAll(emu, { listing: 'faturas', sheetName: 'Faturas', filters: {}, name: 'Faturas' });
    expect(p.status).toBe('failed');
    expect(p.message).toMatch(/incompleta/i);
    expect(String(emu.values('Faturas')[0][0])).toMatch(/INCOMPLETO/);
    const history = emu.values('Histórico');
    expect(history[1][5]).toBe('ERRO');
    expect(history[1][6]).toMatch(/ignorar o parâmetro de página/);
    // Continuing cannot turn the same unproven walk into OK.
    const again = finishRun(emu, p.reportId);
    expect(again.status).not.toBe('done');
  });
});

describe('time zones', () => {
  it('sends the incremental date-time in the service zone when the spreadsheet is elsewhere', async () => {
    const emu = emulator({ startAt: SP('2026-06-01T09:00:00'), spreadsheet: { timeZone: 'Asia/Tokyo' } });
    connect(emu, sb);
    importAll(emu, { listing: 'transacoes', sheetName: 'Transações', filters: {}, incremental: true });
    emu.now = SP('2026-11-22T10:00:00').getTime();
    await sb.clearLog();
    const id = (emu.run('listReports') as Rec[])[0].id;
    emu.run('runReport', [id]);
    const second = finishRun(emu, id);
    expect(second.incremental).toBe(true);
    const log = await sb.requestLog({ pathPrefix: '/v2/financeiro/transacoes' });
    expect(log.length).toBeGreaterThan(0);
    // 09:00 in São Paulo minus the 10-minute margin; in Tokyo that instant reads 21:50.
    expect(log.every((e) => e.query.dataHoraAtualizacaoInicial === '01/06/2026 08:50')).toBe(true);
    expect(columnsOf(emu, 'Transações')).toHaveProperty('idTransacao');
  });
});
