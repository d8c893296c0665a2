/**
 * An office's hourly reports on a quiet day: the day's first hour opens each
 * spreadsheet and sets its sheet against the listing cell by cell; the later
 * hours of the day ask the listing again from the owner's agenda and, finding
 * it as it was, leave the spreadsheet closed. A change at the service, a new
 * day, other work due there, a paused company, a failure or a report changed
 * by its owner opens it as before.
 */
import { describe, expect, it } from 'vitest';
import type { ServiceCall } from '../../dev/gas/execution';
import { spreadsheetId } from '../../dev/gas/office';
import type { GasEmulator } from '../../dev/gas/runner';
import { QUIET_NOTE } from '../../src/core/hourly/quiet-mark';
import { api } from '../sandbox/helpers';
import { connect, emulator, importAll, ok, SP, sharedSandbox } from './helpers';

type Rec = Record<string, any>;
const sb = sharedSandbox({ seed: 5, size: 'small' }, true);

const NOTAS = spreadsheetId('notas-do-cliente');
const CLIENTES = spreadsheetId('clientes-do-cliente');

const reportIn = (emu: GasEmulator, documentId: string, name: string): Rec =>
  (emu.run('listReports', [], { documentId }) as Rec[]).find((r) => r.name === name)!;

/** Two client spreadsheets, each with one hourly report, served by the owner's trigger without a document. */
function office(): GasEmulator {
  const emu = emulator({ triggerDocumentContext: false });
  connect(emu, sb());
  emu.addSpreadsheet({ id: NOTAS, name: 'Notas do cliente' });
  emu.addSpreadsheet({ id: CLIENTES, name: 'Clientes do cliente' });
  importAll(emu, { listing: 'nfse', sheetName: 'NFS-e', name: 'Notas', filters: {} }, { documentId: NOTAS });
  importAll(emu, { listing: 'clientes', sheetName: 'Clientes', name: 'Clientes', filters: {} }, { documentId: CLIENTES });
  ok(emu.run('setReportSchedule', [reportIn(emu, NOTAS, 'Notas').id, { kind: 'hourly' }, false], { documentId: NOTAS }));
  ok(emu.run('setReportSchedule', [reportIn(emu, CLIENTES, 'Clientes').id, { kind: 'hourly' }, false], { documentId: CLIENTES }));
  return emu;
}

/** The owner's runs of the hour ending at `at`: the spreadsheets they opened, and what they asked of the service. */
async function hour(emu: GasEmulator, at: string): Promise<{ opened: string[]; asked: string[] }> {
  await sb().clearLog();
  const opened: string[] = [];
  const onServiceCall = (c: ServiceCall) => {
    if (c.object === 'SpreadsheetApp' && c.method === 'openById') opened.push(String(c.args[0]));
  };
  for (const run of emu.runDueTriggers(SP(at), { onServiceCall })) expect(run.status).toBe('ok');
  const asked = (await sb().requestLog()).map((e) => `${e.method} ${e.path}`);
  return { opened: [...new Set(opened)].sort(), asked };
}

/** A note issued at the service for an invoice without one: the NFS-e listing changes. */
async function issueNote(): Promise<number> {
  const org = sb().orgs[0].name;
  const noted = new Set((await sb().dump<Rec>(org, 'nfse')).map((n) => n.idFatura));
  const invoice = (await sb().dump<Rec>(org, 'faturas')).find((f) => !noted.has(f.idFatura) && f.statusFatura !== 'CANCELADA')!;
  const emitted = await api(sb(), '/v2/faturamento/nfse/emitir', { body: { idFatura: invoice.idFatura } });
  expect(emitted.status).toBe(200);
  return invoice.idFatura;
}

describe('hourly reports on a quiet day', () => {
  it("the day's first hour opens each spreadsheet; the later ones ask the listings and open none", async () => {
    const emu = office();
    const first = await hour(emu, '2026-11-22T11:59:00');
    expect(first.opened).toEqual([CLIENTES, NOTAS].sort());
    const sheets = [emu.values('NFS-e', undefined, NOTAS), emu.values('Clientes', undefined, CLIENTES)];
    for (const at of ['2026-11-22T12:59:00', '2026-11-22T13:59:00']) {
      const later = await hour(emu, at);
      expect(later.opened).toEqual([]);
      // Each listing asked as the day's check asked it.
      expect(later.asked.filter((a) => a === 'GET /v2/nfse').length).toBeGreaterThan(0);
      expect(later.asked.filter((a) => a === 'GET /v2/clientes').length).toBeGreaterThan(0);
    }
    expect([emu.values('NFS-e', undefined, NOTAS), emu.values('Clientes', undefined, CLIENTES)]).toEqual(sheets);
    // Its owner sees the last check in Relatórios, and when the next one comes.
    const card = reportIn(emu, NOTAS, 'Notas');
    expect(card.lastRun.at).toBe('22/11/2026 13:59');
    expect(card.lastRun.message).toBe(QUIET_NOTE);
    expect(card.nextRunAt).toBe('22/11/2026 14:00');
  });

  it("a quiet hour reads the owner's paused companies and asked runs once, not once a spreadsheet", async () => {
    const emu = office();
    await hour(emu, '2026-11-22T11:59:00');
    const reads: string[] = [];
    const onServiceCall = (c: ServiceCall) => {
      if (c.object === 'Properties' && (c.method === 'getProperty' || c.method === 'getProperties')) reads.push(`${c.method}(${String(c.args[0] ?? '')})`);
    };
    const runs = emu.runDueTriggers(SP('2026-11-22T12:59:00'), { onServiceCall });
    expect(runs.length).toBeGreaterThan(0);
    // Two spreadsheets settled: neither key asked alone (one read of all the owner's properties serves the run's checks).
    expect(reads.filter((r) => /pausadas|pedidos/.test(r))).toEqual([]);
  });

  it("the Central do escritório shows the company's last check and its next, not the day's first visit", async () => {
    const emu = office();
    await hour(emu, '2026-11-22T11:59:00');
    await hour(emu, '2026-11-22T12:59:00');
    await hour(emu, '2026-11-22T13:59:00');
    let step = ok<Rec>(emu.run('startCentralRefresh', [{ competencia: '10/2026' }]));
    for (let i = 0; !step.finished && i < 20; i++) step = ok<Rec>(emu.run('continueCentralRefresh'));
    const values = emu.values('Central') as unknown[][];
    const header = values.find((r) => r[0] === 'Empresa') as string[];
    const row = values[values.indexOf(header) + 1];
    expect(row[header.indexOf('Última execução')]).toBe(`OK em 22/11/2026 13:59: ${QUIET_NOTE}`);
    expect(row[header.indexOf('Próxima execução')]).toBe('22/11/2026 14:00');
  });

  it('a record added at the service opens its spreadsheet within the hour and writes it; the other stays closed', async () => {
    const emu = office();
    await hour(emu, '2026-11-22T11:59:00');
    const rows = emu.values('NFS-e', undefined, NOTAS).length;
    const invoice = await issueNote();
    const changed = await hour(emu, '2026-11-22T12:59:00');
    expect(changed.opened).toEqual([NOTAS]);
    const sheet = emu.values('NFS-e', undefined, NOTAS);
    expect(sheet).toHaveLength(rows + 1);
    expect(sheet.flat()).toContain(invoice);
    expect(reportIn(emu, NOTAS, 'Notas').lastRun.message ?? '').not.toContain('Sem mudanças');
  });

  it("a person's edit of a cell of ours is put back at the next day's first hour", async () => {
    const emu = office();
    await hour(emu, '2026-11-22T11:59:00');
    const before = emu.values('Clientes', undefined, CLIENTES);
    emu.withServices((s) => s.SpreadsheetApp.getActiveSpreadsheet().getSheetByName('Clientes')?.getRange(2, 2).setValue('editado'), { documentId: CLIENTES });
    expect((await hour(emu, '2026-11-22T12:59:00')).opened).toEqual([]);
    expect(emu.values('Clientes', undefined, CLIENTES)[1][1]).toBe('editado');
    for (let h = 13; h <= 23; h++) expect((await hour(emu, `2026-11-22T${h}:59:00`)).opened).toEqual([]);
    expect(emu.values('Clientes', undefined, CLIENTES)[1][1]).toBe('editado');
    const nextDay = await hour(emu, '2026-11-23T00:59:00');
    expect(nextDay.opened).toEqual([CLIENTES, NOTAS].sort());
    expect(emu.values('Clientes', undefined, CLIENTES)[1][1]).toEqual(before[1][1]);
  });

  it('other work due in the spreadsheet opens it at its hour', async () => {
    const emu = office();
    importAll(emu, { listing: 'clientes', sheetName: 'Diário', name: 'Diário', filters: {} }, { documentId: NOTAS });
    ok(emu.run('setReportSchedule', [reportIn(emu, NOTAS, 'Diário').id, { kind: 'daily', hour: 13 }, false], { documentId: NOTAS }));
    await hour(emu, '2026-11-22T11:59:00');
    expect((await hour(emu, '2026-11-22T12:59:00')).opened).toEqual([]);
    expect((await hour(emu, '2026-11-22T13:59:00')).opened).toEqual([NOTAS]);
    expect((await hour(emu, '2026-11-22T14:59:00')).opened).toEqual([]);
  });

  it('a failure at the service opens the spreadsheet, where the run meets and reports it', async () => {
    const emu = office();
    await hour(emu, '2026-11-22T11:59:00');
    await sb().configure({ addFaults: [{ kind: 'status', status: 500, pathPrefix: '/v2/clientes' }] });
    try {
      const failing = await hour(emu, '2026-11-22T12:59:00');
      expect(failing.opened).toEqual([CLIENTES]);
      expect(reportIn(emu, CLIENTES, 'Clientes').lastRun.result).not.toBe('ok');
    } finally {
      await sb().configure({ faults: [] });
    }
  });

  it('a report its owner changed is opened at the next hour, not settled from its old terms', async () => {
    const emu = office();
    await hour(emu, '2026-11-22T11:59:00');
    const report = reportIn(emu, CLIENTES, 'Clientes');
    ok(emu.run('setReportSchedule', [report.id, { kind: 'everyHours', hours: 1 }, false], { documentId: CLIENTES }));
    expect((await hour(emu, '2026-11-22T12:59:00')).opened).toEqual([CLIENTES]);
    expect((await hour(emu, '2026-11-22T13:59:00')).opened).toEqual([]);
  });

  it('a company paused in the Central is not asked: its spreadsheet is opened to skip it', async () => {
    const emu = office();
    await hour(emu, '2026-11-22T11:59:00');
    const connectionId = reportIn(emu, CLIENTES, 'Clientes').connectionId ?? (emu.run('listConnections') as Rec[])[0].id;
    ok(emu.run('setCompanyPaused', [connectionId, true]));
    const paused = await hour(emu, '2026-11-22T12:59:00');
    expect(paused.opened).toEqual([CLIENTES, NOTAS].sort());
    expect(paused.asked).toEqual([]);
  });
});
