/**
 * Quota care: no request beyond need, the day's UrlFetch calls and trigger
 * minutes counted per user and shown in Relatórios, and scheduled work stopped
 * with a clear message before a daily quota is gone.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type SandboxHandle, borrowSandbox } from '../../dev/sandbox/harness';
import type { Rec } from '../core/bulk/fixtures';
import { connect, emulator, importAll, SP } from './helpers';

let sb: SandboxHandle;

beforeAll(async () => {
  sb = await borrowSandbox({ seed: 7, size: 'small' });
});
afterAll(async () => {
  await sb?.stop();
});
beforeEach(async () => {
  await sb.reset({ size: { faturas: 250, clientes: 60, cobrancas: 10, transacoes: 10, assinaturas: 10 } });
});

interface Usage {
  fetches: number;
  fetchLimit: number;
  triggerMinutes: number;
  triggerLimit: number;
  stopped?: string;
}

describe('requests', () => {
  it('60 customers, a listing without totals, cost at most 3 requests', async () => {
    const emu = emulator();
    connect(emu, sb);
    await sb.clearLog();
    expect(importAll(emu, { listing: 'clientes', sheetName: 'Clientes' }).rows).toBe(60);
    expect((await sb.requestLog({ pathPrefix: '/v2/clientes' })).length).toBeLessThanOrEqual(3);
  });
});

describe('the day’s quota use', () => {
  it('counts every request and the hourly run’s minutes for the user, and Relatórios shows them', async () => {
    const emu = emulator();
    connect(emu, sb);
    await sb.clearLog();
    importAll(emu, { listing: 'faturas', sheetName: 'Faturas', name: 'Faturas' });
    const sent = (await sb.requestLog()).length;
    expect((emu.run('getUsage') as Usage).fetches).toBe(sent);
    const id = (emu.run('listReports') as Rec[])[0].id as string;
    emu.run('setReportSchedule', [id, { kind: 'hourly' }, false]);
    const [run] = emu.runDueTriggers(SP('2026-11-22T11:05:00'));
    const usage = emu.run('getUsage') as Usage;
    expect(usage.fetches).toBe((await sb.requestLog()).length);
    expect(usage.triggerMinutes * 60_000).toBeGreaterThanOrEqual(run.counters.virtualMs - 30_000);
    expect(usage).toMatchObject({ fetchLimit: 20_000, triggerLimit: 90 });
    expect(usage.stopped).toBeUndefined();
  });

  it.each([
    ['UrlFetch calls', { fetches: 19_200, triggerMs: 0 }, /chamadas ao serviço/],
    ['trigger minutes', { fetches: 0, triggerMs: 79 * 60_000 }, /minutos de execução automática/],
  ])('near the daily quota of %s, the hourly run stops with a clear message and sends nothing', async (_what, spent, text) => {
    const emu = emulator();
    connect(emu, sb);
    importAll(emu, { listing: 'clientes', sheetName: 'Clientes', name: 'Clientes' });
    const id = (emu.run('listReports') as Rec[])[0].id as string;
    emu.run('setReportSchedule', [id, { kind: 'hourly' }, false]);
    emu.withServices((s) =>
      s.PropertiesService.getUserProperties().setProperty('faturamento.uso', JSON.stringify({ since: SP('2026-11-22T09:00:00').getTime(), ...spent })),
    );
    await sb.clearLog();
    const [run] = emu.runDueTriggers(SP('2026-11-22T11:05:00'));
    expect(run.status).toBe('ok');
    expect(await sb.requestLog()).toHaveLength(0);
    const usage = emu.run('getUsage') as Usage;
    expect(usage.stopped).toMatch(/As atualizações agendadas pararam hoje/);
    expect(usage.stopped).toMatch(text);
    // The quota day began at 9h on the 22nd: past midnight it is still spent, and the message says when it ends.
    expect(usage.stopped).toMatch(/24 horas depois da primeira chamada do dia/);
    emu.runDueTriggers(SP('2026-11-23T00:30:00'));
    await sb.clearLog();
    const [stillSpent] = emu.runDueTriggers(SP('2026-11-23T08:05:00'));
    expect(stillSpent.status).toBe('ok');
    expect(await sb.requestLog()).toHaveLength(0);
    // From 9h on the 23rd a new quota day starts afresh.
    const [next] = emu.runDueTriggers(SP('2026-11-23T10:05:00'));
    expect(next.status).toBe('ok');
    expect((await sb.requestLog()).length).toBeGreaterThan(0);
    expect((emu.run('getUsage') as Usage).stopped).toBeUndefined();
  });

  it('on a Workspace account plans with its quotas: 79 minutes spent leave the hourly run going, and Relatórios shows 6 hours', async () => {
    const emu = emulator({ account: 'workspace' });
    connect(emu, sb);
    importAll(emu, { listing: 'clientes', sheetName: 'Clientes', name: 'Clientes' });
    const id = (emu.run('listReports') as Rec[])[0].id as string;
    emu.run('setReportSchedule', [id, { kind: 'hourly' }, false]);
    emu.withServices((s) =>
      s.PropertiesService.getUserProperties().setProperty(
        'faturamento.uso',
        JSON.stringify({ since: SP('2026-11-22T09:00:00').getTime(), fetches: 19_200, triggerMs: 79 * 60_000 }),
      ),
    );
    await sb.clearLog();
    const [run] = emu.runDueTriggers(SP('2026-11-22T11:05:00'));
    expect(run.status).toBe('ok');
    expect((await sb.requestLog()).length).toBeGreaterThan(0);
    const usage = emu.run('getUsage') as Usage;
    expect(usage).toMatchObject({ fetchLimit: 100_000, triggerLimit: 360 });
    expect(usage.stopped).toBeUndefined();
  });
});
