/**
 * The document's stored work (reports, unfinished pulls and bulk runs) as a
 * key-value store in a hidden sheet of the document itself, not in
 * DocumentProperties: an owner's trigger may run without the document as its
 * active spreadsheet, and then has no document properties, but it can open
 * the document by id and read this sheet.
 *
 * One row per key (A: key, B: value), read whole once per store. A key keeps
 * its row for good (deleting writes an empty value), so rows do not pile up
 * and nothing moves under another execution; a new key is added with
 * appendRow, which Sheets applies atomically, so two owners' runs adding keys
 * at the same time do not overwrite each other's rows. Anyone can edit this
 * sheet: nothing in it is trusted to decide whose key runs what (see
 * core/owners.ts), and no key is ever written here.
 */
import type { KeyValueStore } from '../core/ports';

export const WORK_SHEET = 'Faturamento · dados';
/** A1 of the sheet, to find it again if someone renames it. */
const MARK = 'faturamento:dados';
/** Keys moved here from DocumentProperties, where they were kept before. */
const LEGACY_PREFIXES = ['faturamento.relatorio.', 'faturamento.job.', 'faturamento.lote.'];

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

function findSheet(ss: GoogleAppsScript.Spreadsheet.Spreadsheet): Sheet | null {
  const named = ss.getSheetByName(WORK_SHEET);
  if (named) return named;
  return ss.getSheets().find((s) => s.isSheetHidden() && String(s.getRange(1, 1).getValue()) === MARK) ?? null;
}

export function workStore(ss: GoogleAppsScript.Spreadsheet.Spreadsheet): KeyValueStore {
  let sheet: Sheet | null | undefined;
  /** key → row; 0: appended by this store, row not known yet. */
  const rows = new Map<string, number>();
  const values = new Map<string, string>();

  const load = (): void => {
    if (sheet !== undefined) return;
    sheet = findSheet(ss);
    if (!sheet && legacyKeys() > 0) sheet = create();
    if (!sheet) return;
    rows.clear();
    values.clear();
    const last = sheet.getLastRow();
    if (last < 2) return;
    const grid = sheet.getRange(2, 1, last - 1, 2).getValues();
    grid.forEach(([k, v], i) => {
      const key = String(k);
      if (!key) return;
      rows.set(key, i + 2);
      if (v === '' || v === null) values.delete(key);
      else values.set(key, String(v));
    });
  };

  /** Reports and jobs kept in DocumentProperties before this sheet existed (none in a run without the document). */
  const legacyKeys = (): number => {
    const doc = PropertiesService.getDocumentProperties();
    return doc ? doc.getKeys().filter((k) => LEGACY_PREFIXES.some((p) => k.startsWith(p))).length : 0;
  };

  const create = (): Sheet => {
    // insertSheet makes the new sheet active: the person keeps looking at the sheet they were on.
    const before = ss.getActiveSheet();
    const made = ss.insertSheet(WORK_SHEET, ss.getSheets().length);
    // Two columns and only the rows it uses: its cells count against the document's 10 million.
    if (made.getMaxColumns() > 2) made.deleteColumns(3, made.getMaxColumns() - 2);
    if (made.getMaxRows() > 2) made.deleteRows(3, made.getMaxRows() - 2);
    made.getRange(1, 1, 2, 2).setNumberFormat('@');
    made.getRange(1, 1, 1, 2).setValues([[MARK, 'Dados do complemento Faturamento: não edite.']]);
    if (before) ss.setActiveSheet(before);
    made.hideSheet();
    // Reports and jobs saved before this sheet existed come along (they have no owner: see core/owners.ts).
    const doc = PropertiesService.getDocumentProperties();
    if (doc) {
      const legacy = Object.entries(doc.getProperties()).filter(([k]) => LEGACY_PREFIXES.some((p) => k.startsWith(p)));
      if (legacy.length) {
        made.getRange(2, 1, legacy.length, 2).setValues(legacy);
        for (const [k] of legacy) doc.deleteProperty(k);
      }
    }
    return made;
  };

  /** The row of a key this store appended: found by reading the keys again. */
  const locate = (s: Sheet, key: string): number => {
    const keys = s.getRange(1, 1, s.getLastRow(), 1).getValues();
    for (let i = keys.length - 1; i >= 0; i--) if (String(keys[i][0]) === key) return i + 1;
    return 0;
  };

  const write = (key: string, value: string): void => {
    load();
    if (!sheet) sheet = create();
    let row = rows.get(key);
    if (row === 0) row = locate(sheet, key);
    if (row) {
      sheet.getRange(row, 2).setValue(value);
      rows.set(key, row);
    } else {
      sheet.appendRow([key, value]);
      rows.set(key, 0);
    }
  };

  return {
    get(key) {
      load();
      return values.get(key) ?? null;
    },
    set(key, value) {
      write(key, value);
      values.set(key, value);
    },
    delete(key) {
      load();
      if (!values.has(key)) return;
      write(key, '');
      values.delete(key);
    },
    keys() {
      load();
      return [...values.keys()];
    },
    all() {
      load();
      return Object.fromEntries(values);
    },
  };
}
