/**
 * A tab belongs to one report, child tabs included, and nothing the add-on
 * owns is ever a destination: every such tab is tried in Importar's form and,
 * with the stored report or pull pointed at it as a co-editor could in the
 * hidden sheet, at run time (the sidebar's Atualizar and Continuar, and the
 * hourly run). Each is refused, the tab keeps every cell, and the owner reads
 * why in Histórico.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GasEmulator } from '../../dev/gas/runner';
import { type SandboxHandle, borrowSandbox } from '../../dev/sandbox/harness';
import type { Rec } from '../core/bulk/fixtures';
import { connect, emulator, finishRun, importAll, ok, type Progress } from './helpers';

const STORE = 'Faturamento · dados';

let sb: SandboxHandle;
let emu: GasEmulator;
/** Every tab the add-on owns or another report owns, once the document is set up. */
let owned: string[];
let nfse: Rec;

beforeAll(async () => {
  sb = await borrowSandbox({ seed: 31, size: 'small' });
  emu = emulator();
  connect(emu, sb);
  importAll(emu, { listing: 'faturas', sheetName: 'Faturas', name: 'Faturas', filters: { isListarItens: true } });
  importAll(emu, { listing: 'clientes', sheetName: 'Clientes', name: 'Clientes' });
  importAll(emu, { listing: 'nfse', sheetName: 'NFS-e', name: 'NFS-e' });
  const reports = emu.run('listReports') as Rec[];
  const id = (name: string) => reports.find((r) => r.name === name)?.id as string;
  nfse = reports.find((r) => r.name === 'NFS-e') as Rec;
  ok(emu.run('createDashboard', [{ kind: 'faturamento', reportId: id('Faturas') }]));
  ok(emu.run('createBulkTemplate', ['emitirNfse']));
  emu.run('runDiagnostics');
  const mine = new Set(['NFS-e', 'Página1']);
  owned = emu.sheetNames().filter((n) => !mine.has(n));
  // What the walk found: child tabs of other reports, the Diagnóstico, and the rest of what the add-on keeps.
  expect(owned).toEqual(expect.arrayContaining(['Faturas', 'Faturas · Itens', 'Clientes', 'Histórico', 'Diagnóstico', STORE, 'Lote · Emitir NFS-e']));
  expect(owned).toHaveLength(8);
});
afterAll(async () => {
  await sb?.stop();
});

/** Every cell of every tab but Histórico (which gains its row) and the store (which keeps the runs). */
function cells(): string {
  return JSON.stringify(owned.filter((n) => n !== 'Histórico' && n !== STORE).map((n) => [n, emu.values(n)]));
}

function sheetId(name: string): number {
  return emu.withServices((s) => s.SpreadsheetApp.getActiveSpreadsheet().getSheetByName(name)!.getSheetId());
}

/** A value of the hidden sheet rewritten as any editor can in Planilhas. */
function rewrite(key: string, change: (value: Rec) => Rec): void {
  emu.withServices((s) => {
    const sheet = s.SpreadsheetApp.getActiveSpreadsheet().getSheetByName(STORE)!;
    const rows = sheet.getDataRange().getValues();
    const row = rows.findIndex((r) => r[0] === key) + 1;
    sheet.getRange(row, 2).setValue(JSON.stringify(change(JSON.parse(String(rows[row - 1][1])))));
  });
}

function lastHistory(): unknown[] {
  const rows = emu.values('Histórico');
  return rows[rows.length - 1];
}

/** A run that must not go: refused by the server, or ended failed; never OK. */
function refusedRun(call: () => unknown): void {
  let p: Progress | undefined;
  try {
    p = call() as Progress;
  } catch {
    return;
  }
  expect(p.status).toBe('failed');
  expect(p.message).toMatch(/não é a aba do relatório "NFS-e".*nada foi gravado/);
}

describe('a tab belongs to one report, and the add-on keeps its own', () => {
  it('Importar › Aba never offers them, and typing their name is refused', () => {
    const form = emu.run('getImportForm') as Rec;
    expect(form.sheets.filter((n: string) => owned.includes(n))).toEqual([]);
    const before = cells();
    for (const name of owned) {
      const out = emu.run('startImportRun', [{ connection: 'Demo', listing: 'nfse', name: `Nova ${name}`, sheetName: name, confirmReplace: name }]) as Rec;
      expect(out, name).toMatchObject({ ok: false, field: 'sheetName' });
      expect(out.message, name).toMatch(/Escolha outr[ao]|escolha outro nome/);
      // Editing a saved report towards one of them is refused the same way.
      const edit = emu.run('startImportRun', [
        { connection: 'Demo', id: nfse.id, listing: 'nfse', name: 'NFS-e', sheetName: name, confirmReplace: name },
      ]) as Rec;
      expect(edit, name).toMatchObject({ ok: false, field: 'sheetName' });
    }
    expect(cells()).toBe(before);
    expect(emu.run('listReports')).toHaveLength(3);
  });

  it('a stored report pointed at one of them writes nothing there, from the sidebar or the hourly run, and says so', () => {
    ok(emu.run('setReportSchedule', [nfse.id, { kind: 'hourly' }, false]));
    for (const name of owned) {
      const before = cells();
      rewrite(`faturamento.relatorio.${nfse.id}`, (r) => ({ ...r, sheetId: sheetId(name), sheetName: name }));
      refusedRun(() => emu.run('runReport', [nfse.id]));
      expect(cells(), name).toBe(before);
      emu.runDueTriggers(new Date(emu.now + 3_600_000));
      expect(cells(), name).toBe(before);
      expect(lastHistory()[5], name).toBe('ERRO');
    }
  });

  it('an unfinished pull pointed at one of them writes nothing there', () => {
    rewrite(`faturamento.relatorio.${nfse.id}`, (r) => ({ ...r, sheetId: sheetId('NFS-e'), sheetName: 'NFS-e' }));
    ok(emu.run('setReportSchedule', [nfse.id, null, false]));
    for (const name of owned.filter((n) => n !== STORE)) {
      const started = emu.run('runReport', [nfse.id]) as Progress;
      expect(started.status, name).toBe('running');
      const before = cells();
      rewrite(`faturamento.job.${nfse.id}`, (j) => ({
        ...j,
        state: { ...j.state, sheetId: sheetId(name), spec: { ...j.state.spec, sheetId: sheetId(name) } },
      }));
      refusedRun(() => emu.run('continueReportRun', [nfse.id]));
      expect(cells(), name).toBe(before);
      expect(lastHistory()[5], name).toBe('ERRO');
    }
  });

  it("a pull's child list pointed at another tab still goes to its own child tab", () => {
    const faturas = (emu.run('listReports') as Rec[]).find((r) => r.name === 'Faturas') as Rec;
    const items = emu.values('Faturas · Itens').length;
    expect((emu.run('runReport', [faturas.id]) as Progress).status).toBe('running');
    const before = JSON.stringify(emu.values('Clientes'));
    rewrite(`faturamento.job.${faturas.id}`, (j) => ({ ...j, state: { ...j.state, children: { itens: { sheetId: sheetId('Clientes'), rows: 0 } } } }));
    // The checkpoint so changed is not the one its owner saved: never stepped, and Atualizar starts over.
    expect(() => emu.run('continueReportRun', [faturas.id])).toThrow(/alterado fora do complemento/);
    expect(JSON.stringify(emu.values('Clientes'))).toBe(before);
    expect((emu.run('runReport', [faturas.id]) as Progress).status).toBe('running');
    expect(finishRun(emu, faturas.id).status).toBe('done');
    expect(JSON.stringify(emu.values('Clientes'))).toBe(before);
    expect(emu.values('Faturas · Itens')).toHaveLength(items);
  });
});
