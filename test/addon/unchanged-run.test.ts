/**
 * A scheduled refresh whose listing comes back as the sheet already holds it:
 * the listing is asked for, the sheet is left as it is (not one cell written,
 * "Recebido em" included) and the report's card says so. A record that
 * changed at the service, a cell of ours the person edited or a row they
 * deleted makes the usual run go, which writes the sheet again.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type SandboxHandle, borrowSandbox } from '../../dev/sandbox/harness';
import type { GasEmulator } from '../../dev/gas/runner';
import { api } from '../sandbox/helpers';
import { connect, emulator as base, importAll, ok, rowsByHeader, SP, typeRows } from './helpers';

type Rec = Record<string, any>;
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

const SHEET = 'NFS-e';

function report(emu: GasEmulator): Rec {
  return (emu.run('listReports') as Rec[]).find((r) => r.name === 'Notas')!;
}

/** The hourly run at `at`: the cells it wrote anywhere in the document, and what it asked of the service. */
async function hour(emu: GasEmulator, at: string): Promise<{ written: number; asked: string[] }> {
  await sb.clearLog();
  const [run] = emu.runDueTriggers(SP(at));
  expect(run.status).toBe('ok');
  const asked = (await sb.requestLog()).map((e) => `${e.method} ${e.path}`);
  return { written: run.counters.cellsWritten, asked };
}

function scheduledHistory(emu: GasEmulator): string[][] {
  return emu.displayValues('Histórico').filter((r) => r[2] === 'Agendado');
}

for (const documentContext of [true, false]) {
  const emulator = () => base({ triggerDocumentContext: documentContext });
  const way = documentContext ? 'with the document' : 'without the document';

  describe(`an hourly refresh that finds the sheet as the service has it (${way})`, () => {
    function scheduled(): GasEmulator {
      const emu = emulator();
      connect(emu, sb);
      importAll(emu, { listing: 'nfse', sheetName: SHEET, name: 'Notas', filters: {} });
      ok(emu.run('setReportSchedule', [report(emu).id, { kind: 'hourly' }, false]));
      return emu;
    }

    it('asks for the listing, writes nothing into the sheet, and says so on the report', async () => {
      const emu = scheduled();
      const before = emu.values(SHEET);
      const { asked, written } = await hour(emu, '2026-11-22T11:59:00');
      expect(asked.filter((a) => a === 'GET /v2/nfse').length).toBeGreaterThan(0);
      // The report's own item in the work store, and nothing else.
      expect(written).toBe(1);
      // "Recebido em" too: a rewrite would have stamped every row with this run's start.
      expect(emu.values(SHEET)).toEqual(before);
      const card = report(emu).lastRun;
      expect(card).toMatchObject({ origin: 'agendado', result: 'ok', rows: before.length - 1 });
      expect(card.message).toContain('Sem mudanças');
      expect(card.at).toMatch(/22\/11\/2026 11:/);
      expect(scheduledHistory(emu)).toEqual([]);
      // Still due every hour: the next hour checks again.
      await hour(emu, '2026-11-22T12:59:00');
      expect(report(emu).lastRun.at).toMatch(/22\/11\/2026 12:/);
      expect(emu.values(SHEET)).toEqual(before);
    });

    it('with "Filtros na planilha", the records they keep are what is set against the sheet', async () => {
      const emu = emulator();
      connect(emu, sb);
      const all = await sb.dump<Rec>(sb.orgs[0].name, 'clientes');
      const state = String(all[0].estado);
      importAll(emu, {
        listing: 'clientes',
        sheetName: 'Clientes',
        name: 'Notas',
        filters: {},
        sheetFilters: [{ field: 'estado', op: 'igual', values: [state] }],
      });
      ok(emu.run('setReportSchedule', [report(emu).id, { kind: 'hourly' }, false]));
      const before = emu.values('Clientes');
      expect(before.length - 1).toBe(all.filter((c) => String(c.estado) === state).length);
      expect(before.length - 1).toBeLessThan(all.length);
      const { written } = await hour(emu, '2026-11-22T11:59:00');
      expect(written).toBe(1);
      expect(emu.values('Clientes')).toEqual(before);
      expect(report(emu).lastRun.message).toContain('Sem mudanças');
    });

    it('a record added at the service is written at the next hour, with Histórico', async () => {
      const emu = scheduled();
      const org = sb.orgs[0].name;
      const noted = new Set((await sb.dump<Rec>(org, 'nfse')).map((n) => n.idFatura));
      const invoice = (await sb.dump<Rec>(org, 'faturas')).find((f) => !noted.has(f.idFatura) && f.statusFatura !== 'CANCELADA')!;
      const emitted = await api(sb, '/v2/faturamento/nfse/emitir', { body: { idFatura: invoice.idFatura } });
      expect(emitted.status).toBe(200);
      const before = rowsByHeader(emu, SHEET).length;
      await hour(emu, '2026-11-22T11:59:00');
      const rows = rowsByHeader(emu, SHEET);
      expect(rows).toHaveLength(before + 1);
      expect(rows.map((r) => r['ID da fatura'] ?? r['ID Fatura'] ?? r.idFatura)).toContain(invoice.idFatura);
      expect(report(emu).lastRun.message ?? '').not.toContain('Sem mudanças');
      expect(scheduledHistory(emu)).toHaveLength(1);
    });

    it('a listing longer than the check reads is not checked: each page is asked once, by the run', async () => {
      // 1,100 customers are 22 pages of 50: more than the check's two round trips of ten pages.
      await sb.reset({ size: { clientes: 1100, faturas: 10, cobrancas: 5, transacoes: 5, assinaturas: 5 } });
      const emu = emulator();
      connect(emu, sb);
      importAll(emu, { listing: 'clientes', sheetName: 'Clientes', name: 'Notas', filters: {} });
      ok(emu.run('setReportSchedule', [report(emu).id, { kind: 'hourly' }, false]));
      await sb.clearLog();
      expect(emu.runDueTriggers(SP('2026-11-22T11:59:00')).map((r) => r.status)).toEqual(['ok']);
      const pages = (await sb.requestLog({ pathPrefix: '/v2/clientes' })).map((e) => String(e.query.page));
      expect(pages.length).toBeGreaterThanOrEqual(22);
      expect(new Set(pages).size).toBe(pages.length);
      expect(emu.values('Clientes')).toHaveLength(1101);
    });

    it('a cell of ours the person edited, and a row they deleted, are put back at the next hour', async () => {
      const emu = scheduled();
      const before = emu.values(SHEET);
      const header = before[0] as string[];
      const at = header.findIndex((h) => h !== 'Recebido em' && typeof before[1][header.indexOf(h)] === 'string' && before[1][header.indexOf(h)] !== '');
      const edited = before[1].slice();
      edited[at] = 'editado à mão';
      typeRows(emu, SHEET, 2, [edited]);
      await hour(emu, '2026-11-22T11:59:00');
      expect(emu.values(SHEET)[1][at]).toEqual(before[1][at]);
      expect(scheduledHistory(emu)).toHaveLength(1);

      emu.withServices((s) => s.SpreadsheetApp.getActiveSpreadsheet().getSheetByName(SHEET)!.deleteRow(3));
      await hour(emu, '2026-11-22T12:59:00');
      const ids = (rows: unknown[][]) =>
        rows
          .slice(1)
          .map((r) => String(r[0]))
          .sort();
      expect(ids(emu.values(SHEET))).toEqual(ids(before));
      expect(scheduledHistory(emu)).toHaveLength(2);

      // A header of ours renamed by hand is put back too.
      typeRows(emu, SHEET, 1, [[...header.slice(0, at), 'Meu título', ...header.slice(at + 1)]]);
      await hour(emu, '2026-11-22T13:59:00');
      expect(emu.values(SHEET)[0]).toEqual(header);
      expect(scheduledHistory(emu)).toHaveLength(3);
    });
  });
}
