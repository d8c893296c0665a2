/** The hidden sheet that holds the stored work, as a co-editor who unhides it sees and edits it. */
import { expect } from 'vitest';
import type { GasEmulator } from '../../dev/gas/runner';
import type { Rec } from '../core/bulk/fixtures';

export const WORK_SHEET = 'Faturamento · dados';

/** The hidden sheet's rows as key → [row, value]. */
export function stored(emu: GasEmulator): Map<string, [number, string]> {
  const rows = emu.values(WORK_SHEET) as unknown[][];
  return new Map(rows.map((r, i) => [String(r[0]), [i + 1, String(r[1])] as [number, string]]));
}

/** Another editor unhides the sheet and types over one item's cell. */
export function typeOver(emu: GasEmulator, key: string, text: (value: string) => string): void {
  const [row, value] = stored(emu).get(key) ?? [0, ''];
  expect(row, key).toBeGreaterThan(0);
  emu.withServices((s) => {
    s.SpreadsheetApp.getActiveSpreadsheet().getSheetByName(WORK_SHEET)!.getRange(row, 2).setValue(text(value));
  });
}

/** The text of an item's JSON changed by `change`. */
export const editJson =
  (change: (item: Rec) => Rec) =>
  (value: string): string =>
    JSON.stringify(change(JSON.parse(value)));

/** Another editor changes one item's JSON in its cell. */
export function editCell(emu: GasEmulator, key: string, change: (item: Rec) => Rec): void {
  typeOver(emu, key, editJson(change));
}
