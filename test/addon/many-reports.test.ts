/**
 * A spreadsheet that holds many reports, under the pessimistic cost model:
 * what a sidebar step spends finding its sheet and columns grows with the
 * sheets, and every step must still move its run forward.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { COST_MODELS } from '../../dev/gas/clock';
import type { GasEmulator } from '../../dev/gas/runner';
import { type SandboxHandle, borrowSandbox } from '../../dev/sandbox/harness';
import type { ServiceCall } from '../../dev/gas/execution';
import { connect, emulator, ok, type Progress, SP } from './helpers';

let sb: SandboxHandle;

beforeAll(async () => {
  sb = await borrowSandbox({ seed: 5, size: 'small' });
});
afterAll(async () => {
  await sb?.stop();
});
beforeEach(async () => {
  await sb.reset({ size: { faturas: 10, clientes: 12, cobrancas: 5, transacoes: 5, assinaturas: 5 } });
});

/** A Clientes report from the sidebar, stepped at most `steps` times (12 records are one page); its last progress. */
function importClientes(emu: GasEmulator, r: number, steps = 2): Progress {
  const form = { connection: 'Demo', listing: 'clientes', sheetName: `Clientes ${r}`, name: `Clientes ${r}`, filters: {} };
  let p = ok<Progress>(emu.run('startImportRun', [form]));
  for (let step = 0; step < steps && !p.done; step++) p = emu.run('continueReportRun', [p.reportId]) as Progress;
  return p;
}

describe('a spreadsheet with many reports', () => {
  it('each sidebar step of the tenth import brings its rows, under the pessimistic costs', () => {
    const emu = emulator({ costs: COST_MODELS.pessimistic, latency: { ms: 300 } });
    connect(emu, sb);
    for (let r = 1; r <= 10; r++) {
      // The first step fetches the one page, the second at the latest ends the run.
      const p = importClientes(emu, r);
      expect({ report: r, done: p.done, rows: p.rows, message: p.message }).toEqual({ report: r, done: true, rows: 12, message: undefined });
      expect(emu.values(`Clientes ${r}`)).toHaveLength(13);
    }
  });

  it("a scheduled pull reads the sheets' metadata once: each sheet's tags, and its own columns", () => {
    const emu = emulator({ costs: COST_MODELS.pessimistic });
    connect(emu, sb);
    const ids = [1, 2, 3, 4].map((r) => importClientes(emu, r, 50).reportId);
    ok(emu.run('setReportSchedule', [ids[0], { kind: 'hourly' }, false]));
    // A row deleted by hand: the sheet no longer holds the listing, so the hour runs the whole pull (unchanged-run.ts).
    emu.withServices((s) => s.SpreadsheetApp.getActiveSpreadsheet().getSheetByName('Clientes 1')?.deleteRow(3));
    const calls = new Map<string, number>();
    const onServiceCall = (c: ServiceCall) => calls.set(`${c.object}.${c.method}`, (calls.get(`${c.object}.${c.method}`) ?? 0) + 1);
    const [run] = emu.runDueTriggers(SP('2026-11-22T11:59:00'), { onServiceCall });
    expect(run.counters.urlFetchRequests).toBeGreaterThan(0);
    // Of seven sheets (the first, four reports, Histórico, the work sheet) only the report's own tags are read, then
    // the columns' places the run keeps for the next run (its two tags already say what the run would set). Histórico
    // and the child sheets are found by a search of the spreadsheet's sheet metadata, the report's sheet by its id: no
    // sheet is listed.
    expect(calls.get('Sheet.getDeveloperMetadata')).toBe(1 + 1);
    expect(calls.get('Spreadsheet.getSheets')).toBeUndefined();
    expect(calls.get('Sheet.getSheetId')).toBeLessThanOrEqual(2);
    expect(calls.get('Sheet.createDeveloperMetadataFinder')).toBe(1);
    // One flush, the lock's release: the check read the listing whole, and the run writes and settles it with no checkpoint between.
    expect(calls.get('SpreadsheetApp.flush')).toBe(1);
    // The report sheet's grid size is read once (and the work sheet's), every other sheet's not at all: no sheet grows.
    expect(calls.get('Sheet.getMaxRows')).toBe(2);
    // The records' dates are read in the spreadsheet's zone by Intl, once two probes showed it agrees with Sheets.
    expect(calls.get('Utilities.formatDate')).toBe(2);
    expect(calls.get('PropertiesService.getUserProperties')).toBe(1);
    expect(emu.values('Clientes 1')).toHaveLength(13);
  });

  it('the next run takes its columns from the places the last one kept, until the header row changes', () => {
    const emu = emulator({ costs: COST_MODELS.pessimistic });
    connect(emu, sb);
    const ids = [1, 2].map((r) => importClientes(emu, r, 50).reportId);
    ok(emu.run('setReportSchedule', [ids[0], { kind: 'hourly' }, false]));
    const finders = (at: string) => {
      let n = 0;
      const onServiceCall = (c: ServiceCall) => {
        if (c.object === 'Sheet' && c.method === 'createDeveloperMetadataFinder') n++;
      };
      const [run] = emu.runDueTriggers(SP(at), { onServiceCall });
      expect(run.status).toBe('ok');
      return n;
    };
    const byHeader = () => {
      const [header, ...rows] = emu.values('Clientes 1');
      // Every cell under its header, but when each row was received.
      const cells = (row: unknown[]) => Object.fromEntries(header.map((h, i) => [String(h), row[i]]).filter(([h]) => h !== 'Recebido em'));
      return rows.map(cells).sort((a, b) => String(a.ID).localeCompare(String(b.ID)));
    };
    expect(finders('2026-11-22T11:59:00')).toBe(1);
    // The same header row: no column metadata read at all.
    expect(finders('2026-11-22T12:59:00')).toBe(0);
    const before = byHeader();
    // The person moves the third column to the front: the header row changed, so the metadata is read again.
    emu.withServices((s) => {
      const sheet = s.SpreadsheetApp.getActiveSpreadsheet().getSheetByName('Clientes 1');
      sheet?.moveColumns(sheet.getRange('C:C'), 1);
    });
    const moved = emu.values('Clientes 1')[0];
    expect(finders('2026-11-22T13:59:00')).toBe(1);
    expect(emu.values('Clientes 1')[0]).toEqual(moved);
    expect(byHeader()).toEqual(before);
    expect(finders('2026-11-22T14:59:00')).toBe(0);
    expect(byHeader()).toEqual(before);
  });
});
