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
 * core/trust/owners.ts and core/trust/seal.ts), and no key is ever written here. Its
 * warning-only protection makes Sheets ask a person "are you sure?" before
 * an edit by hand; the add-on's own writes go through.
 */
import type { KeyValueStore } from '../core/ports';
import { withinCellLimit } from './cell-limit';

export const WORK_SHEET = 'Faturamento · dados';
const PROTECTION =
  'Dados do complemento Faturamento (relatórios, lotes, painéis). Editar estas células faz o complemento deixar de executar o item alterado até o dono salvá-lo de novo.';
/** What a refused write of the store says it did not save. */
const WHAT = 'O dado do complemento (relatório, lote ou painel)';

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

/** Reports and jobs kept in DocumentProperties before the sheet existed (none in a run without the document). */
function legacyEntries(): Array<[string, string]> {
  const doc = PropertiesService.getDocumentProperties();
  if (!doc) return [];
  return Object.entries(doc.getProperties()).filter(([k]) => LEGACY_PREFIXES.some((p) => k.startsWith(p)));
}

function createSheet(ss: GoogleAppsScript.Spreadsheet.Spreadsheet, legacy: Array<[string, string]> = legacyEntries()): Sheet {
  // insertSheet makes the new sheet active: the person keeps looking at the sheet they were on.
  const before = ss.getActiveSheet();
  const made = withinCellLimit(WHAT, () => ss.insertSheet(WORK_SHEET, ss.getSheets().length));
  // Two columns and only the rows it uses: its cells count against the document's 10 million.
  if (made.getMaxColumns() > 2) made.deleteColumns(3, made.getMaxColumns() - 2);
  if (made.getMaxRows() > 2) made.deleteRows(3, made.getMaxRows() - 2);
  made.getRange(1, 1, 2, 2).setNumberFormat('@');
  made.getRange(1, 1, 1, 2).setValues([[MARK, 'Dados do complemento Faturamento: não edite.']]);
  if (before) ss.setActiveSheet(before);
  made.hideSheet();
  warnBeforeEdits(made);
  // Reports and jobs saved before this sheet existed come along (they have no owner: see core/trust/owners.ts).
  if (legacy.length) {
    made.getRange(2, 1, legacy.length, 2).setValues(legacy);
    const doc = PropertiesService.getDocumentProperties();
    for (const [k] of legacy) doc?.deleteProperty(k);
  }
  return made;
}

/** Sheets asks a person "are you sure?" before they edit the sheet by hand; scripts write as before. */
function warnBeforeEdits(sheet: Sheet): void {
  if (sheet.getProtections(SpreadsheetApp.ProtectionType.SHEET).length === 0) sheet.protect().setDescription(PROTECTION).setWarningOnly(true);
}

/** The rows of keys this store appended (`rows`' zeros), found in one reading of the keys: the last row of each. */
function locate(sheet: Sheet, rows: Map<string, number>): void {
  const keys = sheet.getRange(1, 1, sheet.getLastRow(), 1).getValues();
  const last = new Map<string, number>();
  keys.forEach(([k], i) => last.set(String(k), i + 1));
  for (const [key, row] of rows) if (row === 0) rows.set(key, last.get(key) ?? 0);
}

class WorkSheetStore implements KeyValueStore {
  private sheet: Sheet | null | undefined;
  /** Its protection was checked in this execution (a sheet made before the store had one gets it at the next write). */
  private warned = false;
  /** key → row; 0: appended by this store, row not known yet. */
  private readonly rows = new Map<string, number>();
  private readonly values = new Map<string, string>();

  constructor(private readonly ss: GoogleAppsScript.Spreadsheet.Spreadsheet) {}

  private load(): void {
    if (this.sheet !== undefined) return;
    this.sheet = findSheet(this.ss);
    if (!this.sheet) {
      const legacy = legacyEntries();
      if (legacy.length) this.sheet = createSheet(this.ss, legacy);
    }
    if (!this.sheet) return;
    this.rows.clear();
    this.values.clear();
    const last = this.sheet.getLastRow();
    if (last < 1) return;
    // From row 1: an execution killed while making the sheet may leave it without its mark, and its first key there.
    const grid = this.sheet.getRange(1, 1, last, 2).getValues();
    grid.forEach(([k, v], i) => {
      const key = String(k);
      if (!key || key === MARK) return;
      this.rows.set(key, i + 1);
      if (v === '' || v === null) this.values.delete(key);
      else this.values.set(key, String(v));
    });
  }

  private write(key: string, value: string): void {
    this.load();
    if (!this.sheet) this.sheet = createSheet(this.ss);
    if (!this.warned) warnBeforeEdits(this.sheet);
    this.warned = true;
    if (this.rows.get(key) === 0) locate(this.sheet, this.rows);
    const row = this.rows.get(key);
    if (row) {
      this.sheet.getRange(row, 2).setValue(value);
    } else {
      const sheet = this.sheet;
      // A new row grows the sheet by its two cells when it is full, as this store keeps it: refused whole at the limit.
      withinCellLimit(WHAT, () => sheet.appendRow([key, value]));
      this.rows.set(key, 0);
    }
  }

  get(key: string): string | null {
    this.load();
    return this.values.get(key) ?? null;
  }

  set(key: string, value: string): void {
    this.write(key, value);
    this.values.set(key, value);
  }

  delete(key: string): void {
    this.load();
    if (!this.values.has(key)) return;
    this.write(key, '');
    this.values.delete(key);
  }

  keys(): string[] {
    this.load();
    return [...this.values.keys()];
  }

  /** What the sheet holds under `key` now, read from its row; the sheet is read whole again only when the row no longer holds the key. */
  current(key: string): string | null {
    const row = this.sheet ? this.rows.get(key) : undefined;
    if (this.sheet && row) {
      const [[k, v]] = this.sheet.getRange(row, 1, 1, 2).getValues();
      if (String(k) === key) return v === '' || v === null ? null : String(v);
    }
    // Read whole now, the sheet answers as it is.
    this.sheet = undefined;
    this.load();
    return this.values.get(key) ?? null;
  }

  all(): Record<string, string> {
    this.load();
    return Object.fromEntries(this.values);
  }
}

/**
 * The work sheet as a store, and a reader of a key's value as the sheet holds
 * it now (see WorkSheetStore.current): one store, so the reader starts from
 * the rows the store has read, a row read per key.
 */
export function workStore(ss: GoogleAppsScript.Spreadsheet.Spreadsheet): KeyValueStore & { current(key: string): string | null } {
  return new WorkSheetStore(ss);
}
