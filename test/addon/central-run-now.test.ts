/**
 * "Atualizar relatórios agora" from the Central for a company whose reports
 * are in the user's other spreadsheets: each is opened and its runs started
 * at once; one Google could not open for a moment keeps its request, and
 * the next hourly run serves it, once.
 */
import { describe, expect, it } from 'vitest';
import { spreadsheetId } from '../../dev/gas/office';
import type { GasEmulator } from '../../dev/gas/runner';
import type { Rec } from '../core/bulk/fixtures';
import { emulator, importAll, ok, SP, sharedSandbox } from './helpers';

const sb = sharedSandbox({ seed: 5, size: { faturas: 10, clientes: 20, cobrancas: 10, transacoes: 10, assinaturas: 10 }, office: 2 });

const USER = 'contador@example.com.br';
const PADARIA = spreadsheetId('padaria');
const CAIXA = spreadsheetId('caixa');

function office(): { emu: GasEmulator; padaria: string } {
  const emu = emulator({ startAt: SP('2026-11-22T10:00:00'), user: USER });
  const [first, second] = sb().orgs.filter((o) => o.office);
  ok(emu.run('saveConnection', [{ name: 'Padaria', baseUrl: sb().baseUrl, apiKey: first.apiKey, isDefault: true }]));
  ok(emu.run('saveConnection', [{ name: 'Ótica', baseUrl: sb().baseUrl, apiKey: second.apiKey }]));
  const padaria = (emu.run('listConnections') as Rec[]).find((c) => c.name === 'Padaria')!.id as string;
  emu.addSpreadsheet({ id: PADARIA, name: 'Padaria · relatórios' });
  emu.addSpreadsheet({ id: CAIXA, name: 'Padaria · caixa' });
  importAll(emu, { listing: 'clientes', sheetName: 'Clientes', name: 'Clientes', connection: 'Padaria' }, { documentId: PADARIA });
  importAll(emu, { listing: 'faturas', sheetName: 'Faturas', name: 'Faturas', connection: 'Padaria' }, { documentId: CAIXA });
  // The caixa's report scheduled daily: the owner has an hourly trigger.
  const faturas = (emu.run('listReports', [], { documentId: CAIXA }) as Rec[])[0];
  ok(emu.run('setReportSchedule', [faturas.id, { kind: 'daily', hour: 6 }, false], { documentId: CAIXA }));
  // Another company's report beside it, which nobody asked for.
  importAll(emu, { listing: 'clientes', sheetName: 'Ótica', name: 'Ótica', connection: 'Ótica' }, { documentId: CAIXA });
  return { emu, padaria };
}

const lastRuns = (emu: GasEmulator, documentId: string) =>
  Object.fromEntries((emu.run('listReports', [], { documentId }) as Rec[]).map((r) => [r.name, r.lastRun?.at ?? null]));

describe("a company's reports in the other spreadsheets, run from the Central", () => {
  it('opens each and runs that company’s reports there now, and no other', () => {
    const { emu, padaria } = office();
    const before = { p: lastRuns(emu, PADARIA), c: lastRuns(emu, CAIXA) };
    emu.now += 30 * 60_000;
    const asked = ok(emu.run('runCompanyReports', [padaria]));
    expect(asked.here).toEqual([]);
    expect(asked.elsewhere.map((l: Rec) => l.name).sort()).toEqual(['Padaria · caixa', 'Padaria · relatórios']);
    const r = ok(emu.run('runCompanyReportsElsewhere', [padaria]));
    expect(r.served.sort()).toEqual(['Padaria · caixa', 'Padaria · relatórios']);
    expect(r.left).toEqual([]);
    const after = { p: lastRuns(emu, PADARIA), c: lastRuns(emu, CAIXA) };
    expect(after.p.Clientes).not.toEqual(before.p.Clientes);
    expect(after.c.Faturas).not.toEqual(before.c.Faturas);
    expect(after.c.Ótica).toEqual(before.c.Ótica);
    // Nothing is left asked: the next hourly run does not run them again.
    const runs = lastRuns(emu, PADARIA);
    emu.runDueTriggers(SP('2026-11-22T11:05:00'));
    expect(lastRuns(emu, PADARIA)).toEqual(runs);
  });

  it('keeps the request of a spreadsheet Google could not open now, and the next hourly run serves it once', () => {
    const { emu, padaria } = office();
    const before = lastRuns(emu, PADARIA);
    // Google fails every opening of another spreadsheet for a moment: none can be visited now.
    const r = ok(emu.run('runCompanyReportsElsewhere', [padaria], { faults: { rate: 1, services: ['openById'] } }));
    expect(r.served).toEqual([]);
    expect(r.left.sort()).toEqual(['Padaria · caixa', 'Padaria · relatórios']);
    expect(r.automatic).toBe(true);
    expect(lastRuns(emu, PADARIA)).toEqual(before);
    emu.runDueTriggers(SP('2026-11-22T11:05:00'));
    const served = lastRuns(emu, PADARIA);
    expect(served.Clientes).not.toEqual(before.Clientes);
    emu.runDueTriggers(SP('2026-11-22T12:05:00'));
    expect(lastRuns(emu, PADARIA)).toEqual(served);
  });
});
