/**
 * Child sheets people edit ("Faturas · Itens"): found by their metadata
 * whatever the user renamed them (or the parent) to, and each item's row
 * written where its key (invoice id + item id) is now, so the user's cells to
 * the right stay beside their item through sorts and refreshes. The real
 * bundle in the emulator, the sandbox over HTTP.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { GasEmulator } from '../../dev/gas/runner';
import { type SandboxHandle, borrowSandbox } from '../../dev/sandbox/harness';
import { connect, emulator, finishRun, importAll, SP } from './helpers';

type Rec = Record<string, any>;
let sb: SandboxHandle;

beforeAll(async () => {
  sb = await borrowSandbox({ seed: 23, size: 'small' });
});
afterAll(async () => {
  await sb?.stop();
});
beforeEach(async () => {
  await sb.reset();
});

const sheetById = (s: any, id: number) => s.SpreadsheetApp.getActiveSpreadsheet().getSheetById(id)!;
const idOf = (emu: GasEmulator, name: string) => emu.withServices((s) => s.SpreadsheetApp.getActiveSpreadsheet().getSheetByName(name)!.getSheetId() as number);
const valuesOf = (emu: GasEmulator, id: number) =>
  emu.withServices((s) => {
    const sh = sheetById(s, id);
    return sh.getRange(1, 1, sh.getLastRow(), sh.getLastColumn()).getValues() as unknown[][];
  });

/** A note per item, to the right of our columns, naming the item it was typed beside. */
function annotate(emu: GasEmulator, childId: number, every = 1): number {
  return emu.withServices((s) => {
    const sh = sheetById(s, childId);
    const width = sh.getLastColumn();
    const rows = sh.getRange(2, 1, sh.getLastRow() - 1, 2).getValues() as unknown[][];
    sh.getRange(1, width + 1).setValue('Minha nota');
    let n = 0;
    rows.forEach((r, i) => {
      if (i % every !== 0) return;
      sh.getRange(i + 2, width + 1).setValue(`nota ${r[0]}/${r[1]}`);
      n++;
    });
    return n;
  });
}

/** Every item once, and every note beside the item it names. */
function expectBeside(emu: GasEmulator, childId: number): { items: number; notes: number } {
  const [header, ...rows] = valuesOf(emu, childId);
  const note = header.indexOf('Minha nota');
  expect(note).toBeGreaterThan(1);
  const seen = new Set<string>();
  let notes = 0;
  for (const r of rows) {
    if (r[0] === '') continue;
    const key = `${r[0]}/${r[1]}`;
    expect(seen.has(key), `item ${key} twice`).toBe(false);
    seen.add(key);
    if (r[note] !== '') {
      expect(r[note]).toBe(`nota ${key}`);
      notes++;
    }
  }
  return { items: seen.size, notes };
}

describe('child sheets by id and rows by key', () => {
  it('a renamed, sorted child sheet keeps its notes beside their items through full and incremental refreshes', async () => {
    const emu = emulator({ startAt: SP('2026-06-01T09:00:00') });
    connect(emu, sb);
    const first = importAll(emu, { listing: 'faturas', sheetName: 'Faturas', filters: { isListarItens: true }, name: 'Faturas', incremental: true });
    const items = (await sb.dump<Rec>(sb.orgs[0].name, 'faturas')).flatMap((f) => (f.itens ?? []).map((i: Rec) => `${f.idFatura}/${i.idItemFatura}`));
    expect(items.length).toBeGreaterThan(10);
    const childId = idOf(emu, 'Faturas · Itens');
    const notes = annotate(emu, childId);
    const sheetsBefore = emu.sheetNames().length;
    emu.withServices((s) => {
      const book = s.SpreadsheetApp.getActiveSpreadsheet();
      sheetById(s, childId).setName('Meus itens');
      book.getSheetByName('Faturas')!.setName('Minhas faturas');
      // Sorted by the item's total, descending: rows no longer follow the invoices.
      const sh = sheetById(s, childId);
      const total = (sh.getRange(1, 1, 1, sh.getLastColumn()).getNotes()[0] as string[]).indexOf('valorTotal');
      sh.sort(total + 1, false);
    });
    const report = (emu.run('listReports') as Rec[])[0];
    expect((emu.run('startImportRun', [{ ...report, filters: { isListarItens: true, sortField: 'idFatura', sortOrder: 'desc' } }]) as Rec).ok).toBe(true);
    expect(finishRun(emu, first.reportId).status).toBe('done');
    // No new child sheet: the renamed one was found by its metadata.
    expect(emu.sheetNames().length).toBe(sheetsBefore);
    expect(emu.sheetNames()).toContain('Meus itens');
    expect(expectBeside(emu, childId)).toEqual({ items: items.length, notes });

    // An incremental refresh merges into the same sheet, rows where they are.
    emu.now = SP('2026-11-22T10:00:00').getTime();
    emu.run('runReport', [first.reportId]);
    const again = finishRun(emu, first.reportId);
    expect(again.status).toBe('done');
    expect(emu.sheetNames().length).toBe(sheetsBefore);
    expect(expectBeside(emu, childId)).toEqual({ items: items.length, notes });
  });

  it('items of invoices that left the listing go, unless they carry the user cells, which stay marked', async () => {
    const emu = emulator();
    connect(emu, sb);
    const first = importAll(emu, { listing: 'faturas', sheetName: 'Faturas', filters: { isListarItens: true }, name: 'Faturas' });
    const childId = idOf(emu, 'Faturas · Itens');
    const rows = valuesOf(emu, childId).slice(1);
    const notes = annotate(emu, childId, 5);
    const one = rows[1][0] as number;
    const ofOne = rows.filter((r) => r[0] === one).length;
    const report = (emu.run('listReports') as Rec[])[0];
    expect((emu.run('startImportRun', [{ ...report, filters: { isListarItens: true, idFatura: String(one) } }]) as Rec).ok).toBe(true);
    expect(finishRun(emu, first.reportId).status).toBe('done');
    const after = valuesOf(emu, childId).slice(1);
    const annotatedOthers = rows.filter((r, i) => i % 5 === 0 && r[0] !== one).length;
    expect(after.filter((r) => r[0] === one)).toHaveLength(ofOne);
    expect(after).toHaveLength(ofOne + annotatedOthers);
    expect(expectBeside(emu, childId).notes).toBe(notes);
    const marked = emu.withServices((s) => {
      const sh = sheetById(s, childId);
      return (sh.getRange(2, 1, sh.getLastRow() - 1, 1).getNotes() as string[][]).filter((n) => /não veio/.test(n[0])).length;
    });
    expect(marked).toBe(annotatedOthers);
  });
});

describe('child-sheet headers', () => {
  it('are Portuguese labels, never raw keys, and a discount shows its subscription id once', () => {
    const emu = emulator();
    connect(emu, sb);
    importAll(emu, { listing: 'clientes', sheetName: 'Clientes', filters: { isListarTelefones: true } });
    importAll(emu, { listing: 'faturas', sheetName: 'Faturas', filters: { isListarItens: true } });
    importAll(emu, { listing: 'assinaturas', sheetName: 'Assinaturas', filters: { isListarDescontos: true } });
    const header = (name: string) => {
      const sheet = emu.spreadsheet.byName(name);
      if (!sheet) throw new Error(`no sheet ${name} among ${emu.sheetNames().join(', ')}`);
      return emu.displayValues(name, `A1:${String.fromCharCode(64 + sheet.lastColumn())}1`)[0];
    };
    expect(header('Clientes · Telefones')).toEqual(['ID do cliente', 'ID do telefone', 'Tipo', 'DDI', 'DDD', 'Número', 'Ramal', 'Principal']);
    expect(header('Faturas · Itens')).toEqual([
      'ID da fatura',
      'ID do item da fatura',
      'ID do produto',
      'Descrição do produto',
      'Descrição',
      'Quantidade',
      'Valor unitário',
      'Valor total',
    ]);
    const descontos = header('Assinaturas · Descontos');
    expect(descontos.filter((h) => h === 'ID da assinatura')).toHaveLength(1);
    expect(descontos[0]).toBe('ID da assinatura');
  });
});
