/**
 * Bulk runs know their rows by key, through the real bundle in the emulator:
 * a run continued after the user sorted or deleted rows acts on the rows it
 * started with, wherever they are now, and the template's example row is
 * never sent, even with its Status column deleted.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type SandboxHandle, borrowSandbox } from '../../dev/sandbox/harness';
import { catalog, type Rec } from '../core/bulk/fixtures';
import { bulkToEnd, columnsOf, connect, emulator, importAll, ok } from './helpers';

let sb: SandboxHandle;
let cat: Awaited<ReturnType<typeof catalog>>;

beforeAll(async () => {
  sb = await borrowSandbox({ seed: 31, size: 'small' });
});
afterAll(async () => {
  await sb?.stop();
});
beforeEach(async () => {
  await sb.reset();
  cat = await catalog(sb);
});

const toEnd = bulkToEnd;

describe('bulk rows by key', () => {
  it('an NFS-e run continued after the user sorted and deleted rows emits only for the invoices selected at the start', async () => {
    const emu = emulator();
    connect(emu, sb);
    importAll(emu, { listing: 'faturas', sheetName: 'Faturas', filters: {} });
    const col = columnsOf(emu, 'Faturas');
    const values = emu.values('Faturas');
    const emitiveis = new Set(cat.emitiveis);
    const rows = values.map((r, i) => ({ row: i + 1, id: r[col.idFatura] as number })).filter((r) => emitiveis.has(r.id));
    const chosen = [rows[0], rows[2], rows[4], rows[6]];
    emu.select('Faturas', ...chosen.map((c) => `A${c.row}`));
    // Every POST refused: the run stops after its first batch, nothing emitted.
    await sb.configure({ addFaults: [{ kind: 'status', status: 401, method: 'POST' }] });
    const started = ok(emu.run('startBulkRun', [{ connection: 'Demo', operation: 'emitirNfse', sheetName: 'Faturas', scope: 'selected', batchSize: 1 }]));
    expect(started.status).toBe('failed');
    await sb.configure({ faults: [] });
    // The user sorts the sheet and deletes the row of one chosen invoice before continuing.
    emu.withServices((s) => {
      const sh = s.SpreadsheetApp.getActiveSpreadsheet().getSheetByName('Faturas')!;
      sh.sort(col.valorTotal + 1, false);
      const ids = sh
        .getRange(1, col.idFatura + 1, sh.getLastRow(), 1)
        .getValues()
        .map((r: unknown[]) => r[0]);
      sh.deleteRows(ids.indexOf(chosen[3].id) + 1, 1);
    });
    await sb.clearLog();
    const end = toEnd(emu, ok(emu.run('continueBulkRun', [started.jobId])));
    expect(end.status).toBe('done');
    expect(end.warnings.join(' ')).toMatch(/saiu da aba/);
    const emitted = (await sb.requestLog({ method: 'POST' })).map((e) => (e.body as Rec).idFatura);
    const allowed = new Set(chosen.slice(0, 3).map((c) => c.id));
    expect(emitted.length).toBeGreaterThan(0);
    expect(emitted.every((id) => allowed.has(id))).toBe(true);
    // Each result sits beside its own invoice.
    const after = emu.values('Faturas');
    const header = after[0] as string[];
    const status = header.indexOf('Status do lote');
    for (const line of after.slice(1)) {
      if (allowed.has(line[col.idFatura] as number)) expect(['OK', 'ERRO']).toContain(line[status]);
      else expect(['', 'ERRO']).toContain(line[status]);
    }
    const notes = await sb.dump<Rec>(sb.orgs[0].name, 'nfse');
    for (const id of allowed) expect(notes.filter((n) => n.idFatura === id).length).toBeLessThanOrEqual(1);
    expect(notes.some((n) => n.idFatura === chosen[3].id)).toBe(false);
  });

  it('the example row is never sent, even after the user deleted the Status column', async () => {
    const emu = emulator();
    connect(emu, sb);
    const sheet = ok(emu.run('createBulkTemplate', ['criarAssinaturaPersonalizada'])).sheetName as string;
    const [c1] = cat.clientes;
    const p1 = cat.produtos[0];
    emu.withServices((s) => {
      const sh = s.SpreadsheetApp.getActiveSpreadsheet().getSheetByName(sheet)!;
      sh.getRange(3, 1, 1, 10).setValues([['REAL-1', c1, '05/11/2026', '11/2026', 'MENSAL', p1, 'Mensalidade', 100, 'AGRUPADA', 10]] as never);
      sh.deleteColumns((sh.getRange('1:1').getValues()[0] as string[]).indexOf('Status') + 1, 1);
    });
    expect(emu.values(sheet)[0]).not.toContain('Status');
    await sb.clearLog();
    const end = toEnd(emu, ok(emu.run('startBulkRun', [{ connection: 'Demo', operation: 'criarAssinaturaPersonalizada', sheetName: sheet, scope: 'all' }])));
    expect(end.status).toBe('done');
    const posted = (await sb.requestLog({ method: 'POST' })).map((e) => (e.body as Rec).idIntegracao);
    expect(posted).toEqual(['REAL-1']);
  });
});
