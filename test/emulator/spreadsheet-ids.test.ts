/**
 * Documents get ids of Google's length: 44 characters of [A-Za-z0-9_-]
 * (developers.google.com/sheets/api/guides/concepts, "spreadsheetId"), the
 * same for the same seed. Kinder before: a test's "cliente-a" made every
 * record keyed by document (the agenda, the signatures) a third as long.
 */
import { describe, expect, it } from 'vitest';
import { spreadsheetId } from '../../dev/gas/office';
import { fixture } from './helpers';

describe('spreadsheet ids of Google’s length', () => {
  it('are 44 characters of [A-Za-z0-9_-], one per seed, the same every time', () => {
    const ids = Array.from({ length: 200 }, (_, i) => spreadsheetId(`cliente-${i}`));
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{44}$/);
    expect(new Set(ids).size).toBe(ids.length);
    expect(spreadsheetId('cliente-7')).toBe(ids[7]);
    expect(spreadsheetId(7)).not.toBe(ids[7]);
  });

  it('are what a document added without an id gets, and what the script sees', () => {
    const emu = fixture('function id() { return SpreadsheetApp.getActiveSpreadsheet().getId(); }');
    const added = emu.addSpreadsheet({ name: 'Cliente A' });
    expect(added.id).toBe(spreadsheetId('Cliente A'));
    expect(emu.run('id', [], { documentId: added.id })).toBe(added.id);
    expect(emu.run('id')).toHaveLength(44);
    expect(emu.addSpreadsheet().id).toMatch(/^[A-Za-z0-9_-]{44}$/);
  });
});
