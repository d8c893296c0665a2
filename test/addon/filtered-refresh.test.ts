/**
 * A refresh while the user has a filter on the report sheet (Dados › Criar um
 * filtro): every record once, the user's notes beside their records, and the
 * filter still there with its criteria on the same column. The real bundle in
 * the emulator, the sandbox over HTTP.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { GasEmulator } from '../../dev/gas/runner';
import { type SandboxHandle, borrowSandbox } from '../../dev/sandbox/harness';
import { columnsOf, connect, emulator, finishRun, importAll, SP } from './helpers';

type Rec = Record<string, any>;
let sb: SandboxHandle;

beforeAll(async () => {
  sb = await borrowSandbox({ seed: 29, size: 'small' });
});
afterAll(async () => {
  await sb?.stop();
});
beforeEach(async () => {
  await sb.reset();
});

const sheetById = (s: any, id: number) => s.SpreadsheetApp.getActiveSpreadsheet().getSheetById(id)!;

/** The filter as the user sees it: its range, the header of each filtered column, and the hidden rows' records. */
function filterState(emu: GasEmulator, id: number) {
  return emu.withServices((s) => {
    const sh = sheetById(s, id);
    const f = sh.getFilter();
    if (!f) return null;
    const range = f.getRange();
    const notes = sh.getRange(1, 1, 1, sh.getLastColumn()).getNotes()[0] as string[];
    const criteria: Record<string, unknown[]> = {};
    for (let c = range.getColumn(); c <= range.getLastColumn(); c++) {
      const k = f.getColumnFilterCriteria(c);
      if (k) criteria[notes[c - 1].split('\n')[0]] = [String(k.getCriteriaType()), ...k.getCriteriaValues()];
    }
    const hidden: number[] = [];
    for (let r = 2; r <= sh.getLastRow(); r++) if (sh.isRowHiddenByFilter(r)) hidden.push(r);
    return { criteria, hidden, lastRow: range.getLastRow() };
  });
}

describe('a refresh under an active filter', () => {
  it('keeps every record once, notes beside them, and the filter with its criteria', async () => {
    const emu = emulator({ startAt: SP('2026-06-01T09:00:00') });
    connect(emu, sb);
    const first = importAll(emu, { listing: 'faturas', sheetName: 'Faturas', filters: {}, name: 'Faturas', incremental: true });
    const id = emu.withServices((s) => s.SpreadsheetApp.getActiveSpreadsheet().getSheetByName('Faturas')!.getSheetId() as number);
    const col = columnsOf(emu, 'Faturas');
    const totals = (emu.values('Faturas').slice(1) as unknown[][]).map((r) => r[col.valorTotal] as number).sort((a, b) => a - b);
    const threshold = totals[Math.floor(totals.length / 2)];
    emu.withServices((s) => {
      const sh = sheetById(s, id);
      const width = sh.getLastColumn();
      sh.getRange(1, width + 1).setValue('Minha nota');
      const ids = sh.getRange(2, col.idFatura + 1, sh.getLastRow() - 1, 1).getValues() as unknown[][];
      sh.getRange(2, width + 1, ids.length, 1).setValues(ids.map((r) => [`nota ${r[0]}`]));
      const f = sh.getRange(1, 1, sh.getLastRow(), width + 1).createFilter();
      f.setColumnFilterCriteria(col.valorTotal + 1, s.SpreadsheetApp.newFilterCriteria().whenNumberGreaterThan(threshold).build());
    });
    const before = filterState(emu, id)!;
    expect(before.hidden.length).toBeGreaterThan(0);

    const check = () => {
      const name = emu.withServices((s) => sheetById(s, id).getName() as string);
      const values = emu.values(name) as unknown[][];
      const c = columnsOf(emu, name);
      const note = (values[0] as string[]).indexOf('Minha nota');
      const seen = new Set<unknown>();
      values.slice(1).forEach((r) => {
        if (r[c.idFatura] === '') return;
        expect(seen.has(r[c.idFatura]), `record ${r[c.idFatura]} twice`).toBe(false);
        seen.add(r[c.idFatura]);
        expect(r[note]).toBe(`nota ${r[c.idFatura]}`);
      });
      const state = filterState(emu, id)!;
      expect(state, 'the filter is still there').not.toBeNull();
      expect(state.criteria).toEqual({ valorTotal: ['NUMBER_GREATER_THAN', threshold] });
      // No hidden row holds a record the criteria let through.
      for (const r of state.hidden) expect(values[r - 1][c.valorTotal] as number).toBeLessThanOrEqual(threshold);
      return seen.size;
    };

    // A full refresh in another order.
    const report = (emu.run('listReports') as Rec[])[0];
    expect((emu.run('startImportRun', [{ ...report, filters: { sortField: 'idFatura', sortOrder: 'desc' } }]) as Rec).ok).toBe(true);
    expect(finishRun(emu, first.reportId).status).toBe('done');
    expect(check()).toBe(first.rows);
    expect(filterState(emu, id)!.hidden).toEqual(before.hidden);

    // An incremental refresh.
    emu.now = SP('2026-11-22T10:00:00').getTime();
    emu.run('runReport', [first.reportId]);
    expect(finishRun(emu, first.reportId).status).toBe('done');
    expect(check()).toBe(first.rows);
    expect(filterState(emu, id)!.hidden).toEqual(before.hidden);
  });
});
