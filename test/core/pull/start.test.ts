/**
 * Starting a pull: the target sheet's name checked with words that say what
 * to do, the report's sheet found by id (made again under a free name when
 * the user deleted it), the header marked incomplete until the run ends,
 * every header cell text with its field's note.
 */
import { describe, expect, it } from 'vitest';
import { listing } from '../../../src/api/operations';
import { ImportError, type ImportSpec } from '../../../src/core/pull/state';
import { childSheetName, PARTIAL_MARK, sheetNameProblem } from '../../../src/core/sheets/sheet-names';
import { LAYOUT_TAG, LISTING_TAG, SHEET_TAG } from '../../../src/core/sheets/sheet-layout';
import { tableSpec } from '../../../src/core/sheets/table';
import { reportTag } from '../../../src/core/trust/targets';
import type { StrictSheet } from './strict-book';
import { startDeps, startSpec, startLooked } from './world';

describe('the target sheet', () => {
  it('a blank name, one too long, or with characters Sheets refuses, is refused saying what to do', () => {
    expect(() => startLooked(startSpec({ sheetName: '   ' }), startDeps())).toThrow(new ImportError('Informe o nome da aba de destino.'));
    expect(sheetNameProblem('a'.repeat(100))).toBeNull();
    expect(sheetNameProblem('a'.repeat(101))).toMatch(/^Use um nome de aba com até 100 caracteres/);
    for (const bad of ['a[b', 'a]b', 'a*b', 'a?b', 'a:b', 'a/b', 'a\\b']) expect(sheetNameProblem(bad), bad).not.toBeNull();
    expect(() => startLooked(startSpec({ sheetName: 'Jan/2026' }), startDeps())).toThrow(ImportError);
    expect(new ImportError('x').name).toBe('ImportError');
  });

  it('a new sheet is made under the name given, trimmed, and the run says it made it', () => {
    const d = startDeps();
    const state = startLooked(startSpec({ sheetName: '  Clientes  ' }), d);
    expect(d.book.byId(state.sheetId)?.name()).toBe('Clientes');
    expect(state.spec.sheetName).toBe('Clientes');
    expect(state.createdSheet).toBe(true);
    expect(state.warnings).toEqual([]);
  });

  it("the report's sheet is found by id whatever it is called; deleted, it is made again under a name no sheet has, and the run says so", () => {
    const d = startDeps();
    const first = startLooked(startSpec({ reportId: 'r1' }), d);
    const sheet = d.book.byId(first.sheetId) as StrictSheet;
    const renamed = startLooked(startSpec({ sheetId: first.sheetId, sheetName: 'Outro nome' }), d);
    expect(renamed.sheetId).toBe(first.sheetId);
    expect(renamed.createdSheet).toBe(false);
    d.book.sheets = d.book.sheets.filter((s) => s !== sheet);
    d.book.create('clientes');
    d.book.create('Clientes (2)');
    const again = startLooked(startSpec({ sheetId: first.sheetId }), d);
    expect(again.sheetId).not.toBe(first.sheetId);
    expect(again.spec.sheetName).toBe('Clientes (3)');
    expect(again.createdSheet).toBe(true);
    expect(again.warnings).toEqual(['A aba do relatório tinha sido apagada e foi criada de novo ("Clientes (3)").']);
  });

  it('a sheet the user already had keeps its name, and the run did not make it', () => {
    const d = startDeps();
    d.book.create('Clientes');
    const state = startLooked(startSpec(), d);
    expect(state.createdSheet).toBe(false);
    expect(d.book.sheets.length).toBe(1);
  });

  it('a name typed with spaces around it is the sheet of that name the user already had', () => {
    const d = startDeps();
    const had = d.book.create('Clientes');
    const state = startLooked(startSpec({ sheetName: ' Clientes  ' }), d);
    expect(state.sheetId).toBe(had.id);
    expect(state.createdSheet).toBe(false);
    expect(d.book.sheets.length).toBe(1);
  });

  it('child sheets are named after their parent and table, within the name limit', () => {
    const child = tableSpec(listing('clientes')).children[0];
    expect(childSheetName('Clientes', child)).toBe(`Clientes · ${child.label}`);
    expect(childSheetName('x'.repeat(100), child).length).toBe(100);
  });
});

describe('the header of a run under way', () => {
  it('marked incomplete on its first cell, every cell text, each carrying its field in a note', () => {
    const d = startDeps();
    const state = startLooked(startSpec(), d);
    const sheet = d.book.byId(state.sheetId) as StrictSheet;
    const header = sheet.grid[0].map(String);
    expect(header[0]).toBe(`${PARTIAL_MARK}ID do cliente`);
    expect(header.slice(1).every((h) => !h.startsWith(PARTIAL_MARK))).toBe(true);
    expect(sheet.formats.get('1:1')).toBe('@');
    expect(sheet.formats.get(`1:${header.length}`)).toBe('@');
    expect(sheet.notes[0][0].split('\n')[0]).toBe('idCliente');
    expect(sheet.frozen).toBe(1);
  });

  it('card columns only when asked for', () => {
    const d = startDeps();
    const plain = startLooked(startSpec({ sheetName: 'A' }), d);
    const withCards = startLooked(startSpec({ sheetName: 'B', cardData: true }), d);
    const width = (id: number) => (d.book.byId(id) as StrictSheet).grid[0].length;
    // The customer's card (number, CVV, expiry, printed name, holder's CPF): five columns more.
    expect(width(withCards.sheetId)).toBe(width(plain.sheetId) + 5);
  });
});

/** A report's sheet laid out by its first run, the arguments of each call it gets to `method` after, and a run started on it again. */
function laidOut(method: 'setSheetTag' | 'setNotes') {
  const d = startDeps();
  const first = startLooked(startSpec({ reportId: 'r1' }), d);
  const sheet = d.book.byId(first.sheetId) as StrictSheet;
  const calls: unknown[][] = [];
  const own = (sheet[method] as (...args: unknown[]) => void).bind(sheet);
  (sheet as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
    calls.push(args);
    own(...args);
  };
  const again = (spec: Partial<ImportSpec> = {}) => startLooked(startSpec({ reportId: 'r1', sheetId: first.sheetId, ...spec }), d);
  return { sheet, calls, again };
}

describe("the sheet's own tags", () => {
  it('are written when they do not say the listing and the report yet, and not again when they already do', () => {
    const { calls: written, again } = laidOut('setSheetTag');
    again();
    expect(written).toEqual([]);
    again({ reportId: 'r2', listing: 'faturas' });
    expect(written.filter(([key]) => key !== LAYOUT_TAG)).toEqual([
      [LISTING_TAG, 'faturas'],
      [SHEET_TAG, reportTag('r2')],
    ]);
  });
});

describe("the header's notes", () => {
  it('are not written again where they already name their fields; a note the user changed is written back', () => {
    const { sheet, calls: noted, again } = laidOut('setNotes');
    const before = structuredClone(sheet.notes[0]);
    again();
    expect(noted).toEqual([]);
    sheet.setNote(1, 2, 'minha nota');
    again();
    expect(noted.map(([row, column]) => [row, column])).toEqual([[1, 1]]);
    expect(sheet.notes[0]).toEqual(before);
  });
});
