/**
 * The work around each company, as the Central do escritório reads it: two
 * spreadsheets' reports seen from a third through the user's properties alone,
 * kept up to date by the actions and the hourly run; and a company's
 * schedules paused from anywhere, skipped by the hourly run with a line in
 * Histórico while the other companies run, and run again once resumed.
 */
import { describe, expect, it } from 'vitest';
import type { ServiceCall } from '../../dev/gas/execution';
import { spreadsheetId } from '../../dev/gas/office';
import type { GasEmulator } from '../../dev/gas/runner';
import { pauseCompany } from '../../src/core/hourly/paused';
import { documentUrl, readWorkIndex, workOf } from '../../src/core/hourly/work-index';
import type { KeyValueStore } from '../../src/core/ports';
import type { Rec } from '../core/bulk/fixtures';
import { emulator, importAll, ok, SP, sharedSandbox } from './helpers';

const sb = sharedSandbox({ seed: 5, size: { faturas: 10, clientes: 20, cobrancas: 10, transacoes: 10, assinaturas: 10 }, office: 2 });

const USER = 'contador@example.com.br';
const PADARIA = spreadsheetId('padaria');
const OTICA = spreadsheetId('otica');
const CONTROLE = spreadsheetId('controle');

/** The user's properties as the bundle keeps them: what any spreadsheet of theirs reads. */
function userProperties(emu: GasEmulator): KeyValueStore {
  const map = emu.properties.userStore(USER);
  return {
    get: (k) => map.get(k) ?? null,
    set: (k, v) => void map.set(k, v),
    delete: (k) => void map.delete(k),
    keys: () => [...map.keys()],
  };
}

/** An office: two companies, each with a connection; a spreadsheet per company and a control spreadsheet with nothing in it. */
function office(): { emu: GasEmulator; ids: Record<string, string> } {
  const emu = emulator({ startAt: SP('2026-11-22T10:00:00') });
  const [first, second] = sb().orgs.filter((o) => o.office);
  for (const [name, org] of [
    ['Padaria', first],
    ['Ótica', second],
  ] as const)
    ok(emu.run('saveConnection', [{ name, baseUrl: sb().baseUrl, apiKey: org.apiKey, isDefault: name === 'Padaria' }]));
  const ids = Object.fromEntries((emu.run('listConnections') as Rec[]).map((c) => [c.name, c.id as string]));
  emu.addSpreadsheet({ id: PADARIA, name: 'Padaria · relatórios' });
  emu.addSpreadsheet({ id: OTICA, name: 'Ótica · relatórios' });
  emu.addSpreadsheet({ id: CONTROLE, name: 'Controle do escritório' });
  return { emu, ids };
}

function scheduled(emu: GasEmulator, documentId: string, connection: string, name: string, schedule: Rec): Rec {
  importAll(emu, { listing: 'clientes', sheetName: name, name, connection }, { documentId });
  const report = (emu.run('listReports', [], { documentId }) as Rec[]).find((r) => r.name === name) as Rec;
  ok(emu.run('setReportSchedule', [report.id, schedule, false], { documentId }));
  return report;
}

const historyOf = (emu: GasEmulator, documentId: string) => {
  const [header, ...rows] = emu.values('Histórico', undefined, documentId) as unknown[][];
  const at = (label: string) => (header as string[]).indexOf(label);
  return rows.map((r) => [r[at('Relatório')], r[at('Origem')], r[at('Resultado')], r[at('Mensagem')]]);
};

describe('the work index', () => {
  it("shows each company's spreadsheets, reports, last and next runs from a third spreadsheet, opening none", () => {
    const { emu, ids } = office();
    scheduled(emu, PADARIA, 'Padaria', 'Clientes da padaria', { kind: 'hourly' });
    scheduled(emu, OTICA, 'Ótica', 'Clientes da ótica', { kind: 'daily', hour: 15 });
    importAll(emu, { listing: 'clientes', sheetName: 'Padaria na ótica', name: 'Padaria na ótica', connection: 'Padaria' }, { documentId: OTICA });

    let opened = 0;
    const onServiceCall = (c: ServiceCall) => {
      if (c.object === 'SpreadsheetApp' && c.method === 'openById') opened++;
    };
    // The control spreadsheet does anything of the add-on's: the index is in the user's properties.
    emu.run('listReports', [], { documentId: CONTROLE, onServiceCall });
    expect(opened).toBe(0);
    const index = readWorkIndex(userProperties(emu));
    const padaria = workOf(index, ids.Padaria);
    // By the spreadsheets' names, as an accountant reads them (Ó with the O's).
    expect(padaria.links).toEqual([
      { name: 'Ótica · relatórios', url: documentUrl(OTICA), reports: ['Padaria na ótica'] },
      { name: 'Padaria · relatórios', url: documentUrl(PADARIA), reports: ['Clientes da padaria'] },
    ]);
    expect(padaria).toMatchObject({ failures: 0, paused: false, incomplete: false, lastRun: { ok: true } });
    expect(padaria.next).toBe(SP('2026-11-22T11:00:00').getTime());
    const otica = workOf(index, ids.Ótica);
    expect(otica.links.map((l) => l.reports)).toEqual([['Clientes da ótica']]);
    expect(otica.next).toBe(SP('2026-11-22T15:00:00').getTime());

    // The hourly run writes the index after serving a document: the padaria's scheduled run is its last now.
    emu.runDueTriggers(SP('2026-11-22T11:59:00'), { documentContext: false });
    const after = workOf(readWorkIndex(userProperties(emu)), ids.Padaria);
    expect(after.lastRun?.at).toBeGreaterThanOrEqual(SP('2026-11-22T11:00:00').getTime());
    expect(after.next).toBe(SP('2026-11-22T12:00:00').getTime());
    expect(CONTROLE in readWorkIndex(userProperties(emu)).documents).toBe(false);
  });

  it("pausing a company skips its scheduled runs with a line in Histórico, the other company's run; resuming runs it at the next hour; Histórico says it once per pause", () => {
    const { emu, ids } = office();
    const padaria = scheduled(emu, PADARIA, 'Padaria', 'Clientes da padaria', { kind: 'hourly' });
    const otica = scheduled(emu, OTICA, 'Ótica', 'Clientes da ótica', { kind: 'hourly' });
    pauseCompany(userProperties(emu), ids.Padaria, true);
    expect(workOf(readWorkIndex(userProperties(emu)), ids.Padaria).paused).toBe(true);
    const mails = emu.mail.length;

    emu.runDueTriggers(SP('2026-11-22T11:59:00'), { documentContext: false });
    const lastOf = (documentId: string, id: unknown) => ((emu.run('listReports', [], { documentId }) as Rec[]).find((r) => r.id === id) as Rec).lastRun as Rec;
    expect(lastOf(PADARIA, padaria.id)).toMatchObject({ origin: 'manual' });
    expect(lastOf(OTICA, otica.id)).toMatchObject({ origin: 'agendado', result: 'ok' });
    expect(historyOf(emu, PADARIA).at(-1)).toEqual(['Clientes da padaria', 'Agendado', 'PAUSADO', 'Agendamento pausado na Central']);
    // The ótica's run found its sheet as it was (no Histórico line for that); nothing of it was paused.
    expect(historyOf(emu, OTICA).filter((h) => h[2] === 'PAUSADO')).toEqual([]);
    expect(emu.mail.length).toBe(mails);

    // Still paused the next hour: skipped again, and Histórico is not told twice.
    emu.runDueTriggers(SP('2026-11-22T12:59:00'), { documentContext: false });
    expect(lastOf(PADARIA, padaria.id)).toMatchObject({ origin: 'manual' });
    pauseCompany(userProperties(emu), ids.Padaria, false);
    emu.runDueTriggers(SP('2026-11-22T13:59:00'), { documentContext: false });
    expect(lastOf(PADARIA, padaria.id)).toMatchObject({ origin: 'agendado', result: 'ok' });
    expect(historyOf(emu, PADARIA).filter((h) => h[2] === 'PAUSADO')).toHaveLength(1);
  });
});
