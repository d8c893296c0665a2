/**
 * Bulk runs know their rows by key, through the real bundle in the emulator:
 * a run continued after the user sorted or deleted rows acts on the rows it
 * started with, wherever they are now, and the template's example row is
 * never sent, even with its Status column deleted. A lot too large to keep
 * each row's key finds its rows by the marks they carry in the sheet.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { COST_MODELS } from '../../dev/gas/clock';
import { type SandboxHandle, borrowSandbox } from '../../dev/sandbox/harness';
import { MAX_KEYS_CHARS } from '../../src/core/bulk/state';
import { catalog, type Rec } from '../core/bulk/fixtures';
import { bulkToEnd, columnsOf, connect, emulator, importAll, ok, rowsByHeader, subscriptionSheet, typeRows } from './helpers';

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

/** Rows to send, and rows already OK under long typed keys: together more keys than a job keeps. */
const FRESH = 24;
const KEY = (i: number) => `FEITA-${i}-`.padEnd(60, 'x');
const GONE = 2;
const DONE = Math.ceil(MAX_KEYS_CHARS / (KEY(0).length + 3)) + 10;

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

  it('a lot too large to keep each row’s key, sorted between executions, writes every result beside its own row, sends each once and counts each once', async () => {
    const emu = emulator({ costs: COST_MODELS.pessimistic, latency: { ms: 300 } });
    connect(emu, sb);
    // Fresh rows first, values rising; the rows done earlier after them, worth less.
    const sheet = subscriptionSheet(emu, cat, FRESH, 'Grande', 1000);
    const header = emu.values(sheet)[0] as string[];
    const at = (title: string) => header.indexOf(title);
    const done = Array.from({ length: DONE }, (_, i) => {
      const row: unknown[] = new Array(header.length).fill('');
      row.splice(0, 10, KEY(i), cat.clientes[0], '05/11/2026', '11/2026', 'MENSAL', cat.produtos[0], `Feita ${i}`, 50, 'AGRUPADA', 10);
      row[at('Status')] = 'OK';
      return row;
    });
    typeRows(emu, sheet, 3 + FRESH, done);
    await sb.clearLog();

    const form = { connection: 'Demo', operation: 'criarAssinaturaPersonalizada', sheetName: sheet, scope: 'all', batchSize: 4, stepSeconds: 5 };
    const first = ok(emu.run('startBulkRun', [form]));
    expect(first.done).toBe(false);
    const written = rowsByHeader(emu, sheet).filter((r) => r.Status === 'OK' && String(r['ID de integração']).startsWith('lote-')).length;
    expect(written).toBeGreaterThan(0);
    expect(written).toBeLessThan(FRESH - GONE);
    // The user sorts by value, highest first, before the run goes on: the rows still to send move to the top; the first two are deleted.
    emu.withServices((s) => {
      const sh = s.SpreadsheetApp.getActiveSpreadsheet().getSheetByName(sheet)!;
      sh.sort(at('Valor') + 1, false);
      sh.deleteRows(2, GONE);
    });
    const end = bulkToEnd(emu, first);
    expect(end.status).toBe('done');
    expect(end.warnings).toContain(`${GONE} linhas do lote saíram da aba (ou perderam a marca do lote) e não foram processadas.`);

    const created = (await sb.dump<Rec>(sb.orgs[0].name, 'assinaturas')).filter((a) => String(a.idIntegracao).startsWith('lote-'));
    const byKey = new Map(created.map((a) => [a.idIntegracao as string, a.idAssinaturaContrato]));
    expect(created.length).toBe(FRESH - GONE);
    expect(byKey.size).toBe(FRESH - GONE);
    const fresh = rowsByHeader(emu, sheet).filter((r) => String(r.Descrição).startsWith('Grande'));
    expect(fresh.length).toBe(FRESH - GONE);
    for (const row of fresh) {
      expect(row.Status).toBe('OK');
      expect(row['ID da assinatura criada']).toBe(byKey.get(row['ID de integração'] as string));
    }
    expect(end.counts).toEqual({ ok: FRESH - GONE, existing: 0, skipped: DONE, failed: 0, pending: 0 });
    expect(end.processed).toBe(end.total - GONE);
  });
});
