/**
 * One hourly run of the dispatcher through the real bundle, counted call by
 * call: a due scheduled report, an abandoned pull and an abandoned bulk run in
 * the same document are all served under one document lock and one read of
 * the stored work, and a slow pull does not starve the bulk run.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { GasEmulator } from '../../dev/gas/runner';
import { type SandboxHandle, borrowSandbox } from '../../dev/sandbox/harness';
import { catalog, type Rec } from '../core/bulk/fixtures';
import { connect, emulator, importAll, ok, type Progress, SP } from './helpers';

let sb: SandboxHandle;

beforeAll(async () => {
  sb = await borrowSandbox({ seed: 41, size: 'small' });
});
afterAll(async () => {
  await sb?.stop();
});
beforeEach(async () => {
  await sb.reset({ size: { faturas: 12_000, clientes: 60, cobrancas: 10, transacoes: 10, assinaturas: 10 } });
});

/**
 * Counts what the script asks of the document's properties. The emulator's
 * service calls do not say which store a Properties object belongs to, so the
 * document's map itself counts the per-key reads and listings.
 */
class CountingMap extends Map<string, string> {
  gets = 0;
  listings = 0;
  override get(key: string) {
    this.gets++;
    return super.get(key);
  }
  override keys() {
    this.listings++;
    return super.keys();
  }
}

function countDocumentReads(emu: GasEmulator): CountingMap {
  const id = emu.spreadsheet.id;
  const counting = new CountingMap(emu.properties.documentStore(id));
  emu.properties.document.set(id, counting);
  return counting;
}

const statuses = (emu: GasEmulator, sheet: string) => {
  const [header, ...rows] = emu.values(sheet) as unknown[][];
  const col = (header as string[]).indexOf('Status');
  return rows.map((r) => r[col]);
};

describe('one hourly run', () => {
  it('takes its locks once, never reads document properties, and moves every kind of work forward', () => {
    const emu = emulator();
    connect(emu, sb);
    // Due: a report scheduled every hour.
    importAll(emu, { listing: 'clientes', sheetName: 'Clientes', name: 'De hora em hora' });
    const scheduled = (emu.run('listReports') as Rec[])[0].id as string;
    expect(ok(emu.run('setReportSchedule', [scheduled, { kind: 'hourly' }, false]))).toMatchObject({ id: scheduled });
    // Unfinished pull: started from the sidebar, which was then closed.
    const pull = ok<Progress>(emu.run('startImportRun', [{ connection: 'Demo', listing: 'faturas', sheetName: 'Faturas', filters: {}, name: 'Faturas' }]));
    expect(pull.done).toBe(false);
    // Unfinished bulk run: one short step, then the sidebar was closed.
    return catalog(sb).then((cat) => {
      const sheet = ok(emu.run('createBulkTemplate', ['criarAssinaturaPersonalizada'])).sheetName as string;
      const rows = Array.from({ length: 30 }, (_, i) => ['', cat.clientes[0], '05/11/2026', '11/2026', 'MENSAL', cat.produtos[0], `H${i}`, 50, 'AGRUPADA', 10]);
      emu.withServices((s) => {
        s.SpreadsheetApp.getActiveSpreadsheet()
          .getSheetByName(sheet)!
          .getRange(3, 1, rows.length, rows[0].length)
          .setValues(rows as never);
      });
      const first = ok(
        emu.run(
          'startBulkRun',
          [{ operation: 'criarAssinaturaPersonalizada', sheetName: sheet, connection: 'Demo', scope: 'all', batchSize: 5, stepSeconds: 5 }],
          { costs: { urlFetchCallMs: 3000 } },
        ),
      );
      expect(first.done).toBe(false);
      const bulkBefore = statuses(emu, sheet).filter((s) => s === 'OK').length;
      expect(emu.triggers.triggers).toHaveLength(1);

      const doc = countDocumentReads(emu);
      const calls = new Map<string, number>();
      // A slow service: every wave of requests costs 19 s, so the pull alone could fill the whole run.
      const [run] = emu.runDueTriggers(SP('2026-11-22T11:05:00'), {
        costs: { urlFetchCallMs: 19_000 },
        onServiceCall: (c) => calls.set(`${c.object}.${c.method}`, (calls.get(`${c.object}.${c.method}`) ?? 0) + 1),
      });
      expect(run.status).toBe('ok');
      const n = (name: string) => calls.get(name) ?? 0;

      // The document's lock (it runs in the document here) and its owner's lock, each taken once.
      expect(n('LockService.getDocumentLock')).toBe(1);
      expect(n('LockService.getUserLock')).toBe(1);
      expect(n('Lock.tryLock') + n('Lock.waitLock')).toBe(2);
      // The stored work lives in the document's work sheet, read whole once (core/ports.ts readOnce);
      // the document's properties, which a run without the document could not reach, are not read at all.
      expect(doc.listings + doc.gets).toBe(0);

      // The due report ran as scheduled, to the end, although the pull alone could have used the whole run.
      const reports = emu.run('listReports') as Rec[];
      expect(reports.find((r) => r.id === scheduled)!.lastRun).toMatchObject({ origin: 'agendado', result: 'ok', rows: 60 });
      // The pull wrote rows.
      expect(emu.values('Faturas').length - 1).toBeGreaterThan(0);
      // The bulk run got its share: more than the one batch it would get from what a pull leaves.
      expect(statuses(emu, sheet).filter((s) => s === 'OK').length).toBeGreaterThanOrEqual(bulkBefore + 10);
    });
  });
});
