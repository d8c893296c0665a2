/** SpreadsheetApp and Spreadsheet: the document the add-on is opened in, and others by id (see office.ts). */
import { parseA1 } from './a1';
import { DataValidationBuilderImpl } from './data-validation';
import type { Execution } from './execution';
import { addMetadata, DeveloperMetadataFinderImpl, LOCATION_TYPES, metadataOf, VISIBILITIES } from './developer-metadata';
import { FilterCriteriaBuilderImpl } from './filter';
import { GasObject } from './instrument';
import { RangeImpl } from './range';
import { RichTextValueBuilderImpl } from './rich-text';
import { SheetImpl } from './sheet';
import type { SheetsEnv } from './sheets-env';
import type { SheetModel, SpreadsheetModel } from './spreadsheet-model';
import { isValidTimeZone } from './tz';
import { UiImpl, type UiState } from './ui';
import { SUMMARIZE_ENUM } from './pivot';

type GApp = GoogleAppsScript.Spreadsheet.SpreadsheetApp;
type GSpreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;
type GSheet = GoogleAppsScript.Spreadsheet.Sheet;
type GRange = GoogleAppsScript.Spreadsheet.Range;
type GRangeList = GoogleAppsScript.Spreadsheet.RangeList;
type GSelection = GoogleAppsScript.Spreadsheet.Selection;

class RangeListImpl extends GasObject implements Pick<GRangeList, 'getRanges' | 'activate'> {
  readonly gasName = 'RangeList';
  constructor(
    private readonly ranges: RangeImpl[],
    private readonly env: SheetsEnv,
  ) {
    super();
  }
  getRanges(): GRange[] {
    return this.env.newArray(this.ranges) as unknown as GRange[];
  }
  /** Selects every range (on their one sheet); the last is the active range. */
  activate(): GRangeList {
    const sheet = this.ranges[0]?.sheet;
    if (!sheet || this.ranges.some((r) => r.sheet !== sheet)) throw this.env.exec.error('Ranges must all be on the same sheet.');
    this.env.model.activeSheetId = sheet.id;
    sheet.hidden = false;
    this.env.model.selection = { sheetId: sheet.id, ranges: this.ranges.map((r) => r.getA1Notation()) };
    return this as unknown as GRangeList;
  }
}

class SelectionImpl extends GasObject implements Pick<GSelection, 'getActiveRange' | 'getActiveRangeList' | 'getActiveSheet' | 'getCurrentCell'> {
  readonly gasName = 'Selection';
  constructor(private readonly ss: SpreadsheetImpl) {
    super();
  }
  getActiveRange(): GRange | null {
    return this.ss.getActiveRange();
  }
  getActiveRangeList(): GRangeList | null {
    return this.ss.getActiveRangeList();
  }
  getActiveSheet(): GSheet {
    return this.ss.getActiveSheet();
  }
  getCurrentCell(): GRange | null {
    return this.ss.currentCell();
  }
}

type SpreadsheetMethods =
  | 'deleteSheet'
  | 'getActiveRange'
  | 'getActiveRangeList'
  | 'getActiveSheet'
  | 'getId'
  | 'getName'
  | 'getRange'
  | 'getSelection'
  | 'getSheetByName'
  | 'getSheets'
  | 'getSpreadsheetLocale'
  | 'getSpreadsheetTimeZone'
  | 'getUrl'
  | 'insertSheet'
  | 'rename'
  | 'setActiveSheet'
  | 'setSpreadsheetLocale'
  | 'setSpreadsheetTimeZone'
  | 'toast'
  | 'getSheetById'
  | 'addDeveloperMetadata'
  | 'createDeveloperMetadataFinder'
  | 'getDeveloperMetadata'
  | 'moveActiveSheet';

export class SpreadsheetImpl extends GasObject implements Pick<GSpreadsheet, SpreadsheetMethods> {
  readonly gasName = 'Spreadsheet';

  constructor(private readonly env: SheetsEnv) {
    super();
  }

  private get model(): SpreadsheetModel {
    return this.env.model;
  }

  private sheetOf(sheet: GSheet): SheetModel {
    if (!(sheet instanceof SheetImpl) || !this.model.sheets.includes(sheet.model)) throw this.env.exec.error('Invalid argument: sheet');
    return sheet.model;
  }

  getId(): string {
    return this.model.id;
  }
  getName(): string {
    return this.model.name;
  }
  getUrl(): string {
    return this.model.url;
  }
  rename(newName: string): void {
    this.model.name = newName;
  }
  getSpreadsheetTimeZone(): string {
    return this.model.timeZone;
  }
  getSpreadsheetLocale(): string {
    return this.model.locale;
  }

  setSpreadsheetTimeZone(timezone: string): void {
    if (!isValidTimeZone(timezone)) throw this.env.exec.error(`Invalid argument: ${timezone}`);
    this.model.timeZone = timezone;
  }

  setSpreadsheetLocale(locale: string): void {
    this.model.locale = locale;
  }

  getSheets(): GSheet[] {
    return this.env.newArray(this.model.sheets.map((s) => this.env.sheetObject(s))) as unknown as GSheet[];
  }

  getSheetByName(name: string): GSheet | null {
    const s = this.model.byName(name);
    return s ? (this.env.sheetObject(s) as unknown as GSheet) : null;
  }

  getSheetById(id: number): GSheet | null {
    const s = this.model.byId(id);
    return s ? (this.env.sheetObject(s) as unknown as GSheet) : null;
  }

  insertSheet(a?: string | number | { template?: GSheet }, b?: number | { template?: GSheet }, _c?: { template?: GSheet }): GSheet {
    const name = typeof a === 'string' ? a : undefined;
    const index = typeof a === 'number' ? a : typeof b === 'number' ? b : this.model.sheets.length;
    const finalName = name ?? this.nextName();
    if (this.model.sheets.some((s) => s.name.toLowerCase() === finalName.toLowerCase())) {
      throw this.env.exec.error(`A sheet with the name "${finalName}" already exists. Please enter another name.`);
    }
    let sheet: SheetModel;
    try {
      sheet = this.model.addSheet(finalName, Math.min(index, this.model.sheets.length));
    } catch (err) {
      throw this.env.exec.error((err as Error).message);
    }
    // Sheets activates a sheet it inserts.
    this.model.activeSheetId = sheet.id;
    return this.env.sheetObject(sheet) as unknown as GSheet;
  }

  private nextName(): string {
    for (let n = this.model.sheets.length + 1; ; n++) {
      const name = `Página${n}`;
      if (!this.model.byName(name)) return name;
    }
  }

  deleteSheet(sheet: GSheet): void {
    const model = this.sheetOf(sheet);
    if (this.model.sheets.length === 1 || this.model.sheets.every((s) => s === model || s.hidden)) {
      throw this.env.exec.error("You can't remove all the sheets in a document.");
    }
    this.model.sheets = this.model.sheets.filter((s) => s !== model);
    if (this.model.activeSheetId === model.id) this.model.activeSheetId = this.model.sheets[0].id;
    if (this.model.selection?.sheetId === model.id) this.model.selection = null;
  }

  getActiveSheet(): GSheet {
    return this.env.sheetObject(this.model.activeSheet()) as unknown as GSheet;
  }

  setActiveSheet(sheet: GSheet, _restoreSelection?: boolean): GSheet {
    const model = this.sheetOf(sheet);
    this.model.activeSheetId = model.id;
    model.hidden = false;
    return sheet;
  }

  private selectionRanges(): RangeImpl[] | null {
    // Triggers have no user looking at the sheet, hence no selection.
    if (this.env.exec.kind !== 'ui') return null;
    // A user always has a cell selected: A1 of the active sheet unless the test selected something.
    this.model.selection ??= { sheetId: this.model.activeSheet().id, ranges: ['A1'] };
    const sheet = this.model.byId(this.model.selection.sheetId);
    if (!sheet) return null;
    return this.model.selection.ranges.map((a1) => {
      const ref = parseA1(
        a1,
        () => sheet.maxRows,
        () => sheet.maxColumns,
      );
      if (!ref) throw new Error(`emulator: bad selection ${a1}`);
      return new RangeImpl(this.env, sheet, ref.row, ref.column, ref.numRows, ref.numColumns);
    });
  }

  getActiveRange(): GRange | null {
    const ranges = this.selectionRanges();
    return ranges?.length ? (ranges[ranges.length - 1] as unknown as GRange) : null;
  }

  getActiveRangeList(): GRangeList | null {
    const ranges = this.selectionRanges();
    return ranges?.length ? (new RangeListImpl(ranges, this.env) as unknown as GRangeList) : null;
  }

  currentCell(): GRange | null {
    const ranges = this.selectionRanges();
    if (!ranges?.length) return null;
    const sel = this.model.selection!;
    const sheet = this.model.byId(sel.sheetId)!;
    if (sel.currentCell) return this.getRange(`'${sheet.name}'!${sel.currentCell}`);
    const last = ranges[ranges.length - 1];
    return new RangeImpl(this.env, sheet, last.row, last.column, 1, 1) as unknown as GRange;
  }

  getSelection(): GSelection {
    return new SelectionImpl(this) as unknown as GSelection;
  }

  getRange(a1Notation: string): GRange {
    const active = this.model.activeSheet();
    const sheetFor = (name?: string): SheetModel | undefined => (name === undefined ? active : this.model.byName(name));
    const ref = parseA1(
      a1Notation,
      (n) => sheetFor(n)?.maxRows ?? 0,
      (n) => sheetFor(n)?.maxColumns ?? 0,
    );
    const sheet = ref && sheetFor(ref.sheetName);
    if (!ref || !sheet) throw this.env.exec.error('Range not found');
    return new RangeImpl(this.env, sheet, ref.row, ref.column, ref.numRows, ref.numColumns) as unknown as GRange;
  }

  addDeveloperMetadata(key: string, a?: any, b?: any): GSpreadsheet {
    addMetadata(this.env, { type: 'SPREADSHEET' }, key, a, b);
    return this as unknown as GSpreadsheet;
  }

  createDeveloperMetadataFinder(): GoogleAppsScript.Spreadsheet.DeveloperMetadataFinder {
    return new DeveloperMetadataFinderImpl(this.env, { type: 'SPREADSHEET' }) as unknown as GoogleAppsScript.Spreadsheet.DeveloperMetadataFinder;
  }

  getDeveloperMetadata(): GoogleAppsScript.Spreadsheet.DeveloperMetadata[] {
    return metadataOf(this.env, { type: 'SPREADSHEET' });
  }

  /** Moves the active sheet to position `pos` (1-based) among the tabs. */
  moveActiveSheet(pos: number): void {
    const sheet = this.model.activeSheet();
    if (!Number.isInteger(pos) || pos < 1 || pos > this.model.sheets.length) throw this.env.exec.error('Those sheets are out of bounds.');
    this.model.sheets = this.model.sheets.filter((s) => s !== sheet);
    this.model.sheets.splice(pos - 1, 0, sheet);
  }

  toast(msg: string, title?: string, timeoutSeconds?: number | null): void {
    this.model.toasts.push({ message: String(msg), title: title ?? '', timeoutSeconds: timeoutSeconds ?? 5 });
  }
}

type AppMethods =
  | 'flush'
  | 'getActive'
  | 'getActiveRange'
  | 'getActiveRangeList'
  | 'getActiveSheet'
  | 'getActiveSpreadsheet'
  | 'getSelection'
  | 'getUi'
  | 'newDataValidation'
  | 'newFilterCriteria'
  | 'newRichTextValue'
  | 'openById'
  | 'setActiveSheet';

/**
 * Which documents an execution can reach: the active one (menus, sidebars, a
 * trigger run in the document's context) and others by id, which needs the
 * full `spreadsheets` scope in the manifest (`spreadsheets.currentonly` does
 * not allow it) and the document shared with the user.
 */
export interface DocumentAccess {
  /** The active document's id; null in an execution without a document. */
  activeId: string | null;
  openById: boolean;
  /** Null when the running user may open the document, else Apps Script's message. */
  refusal(id: string): string | null;
  /** The execution's own copy of a document (see office.ts). */
  working(id: string): SpreadsheetModel;
  /** Makes the execution's writes everyone's. */
  flush(): void;
}

export class SpreadsheetAppImpl extends GasObject implements Pick<GApp, AppMethods> {
  readonly gasName = 'SpreadsheetApp';
  private readonly opened = new Map<string, { env: SheetsEnv; spreadsheet: SpreadsheetImpl }>();
  readonly DataValidationCriteria = { VALUE_IN_LIST: 'VALUE_IN_LIST' };
  readonly DeveloperMetadataLocationType = LOCATION_TYPES;
  readonly DeveloperMetadataVisibility = VISIBILITIES;
  readonly ProtectionType = { RANGE: 'RANGE', SHEET: 'SHEET' };
  readonly PivotTableSummarizeFunction = SUMMARIZE_ENUM;

  constructor(
    private readonly exec: Execution,
    private readonly ui: UiState,
    private readonly document: DocumentAccess,
  ) {
    super();
  }

  /** One Spreadsheet object per document per execution, so `===` works in scripts. */
  private documentObject(id: string): { env: SheetsEnv; spreadsheet: SpreadsheetImpl } {
    const known = this.opened.get(id);
    if (known) return known;
    const exec = this.exec;
    const sheets = new Map<SheetModel, SheetImpl>();
    const env: SheetsEnv = {
      exec,
      model: this.document.working(id),
      newArray: (items) => exec.realm.array(items),
      sheetObject: (sheet) => {
        let s = sheets.get(sheet);
        if (!s) sheets.set(sheet, (s = new SheetImpl(env, sheet)));
        return s;
      },
      spreadsheetObject: () => spreadsheet,
      range: (sheet, row, column, numRows, numColumns) => new RangeImpl(env, sheet, row, column, numRows, numColumns),
      rangeList: (ranges) => new RangeListImpl(ranges as RangeImpl[], env),
    };
    const spreadsheet = new SpreadsheetImpl(env);
    this.opened.set(id, { env, spreadsheet });
    return { env, spreadsheet };
  }

  private get active(): SpreadsheetImpl | null {
    return this.document.activeId === null ? null : this.documentObject(this.document.activeId).spreadsheet;
  }

  getActiveSpreadsheet(): GSpreadsheet {
    // Typed non-null, but null in an execution without a document (a script's time-driven trigger).
    return this.active as unknown as GSpreadsheet;
  }
  openById(id: string): GSpreadsheet {
    if (!this.document.openById) {
      throw this.exec.error('You do not have permission to call SpreadsheetApp.openById. Required permissions: https://www.googleapis.com/auth/spreadsheets');
    }
    const refusal = this.document.refusal(String(id));
    if (refusal) throw this.exec.error(refusal);
    // Another document is loaded the first time the execution opens it; the active one, or one opened already, is at hand.
    if (String(id) !== this.document.activeId && !this.opened.has(String(id))) this.exec.charge(this.exec.costs.openByIdMs);
    return this.documentObject(String(id)).spreadsheet as unknown as GSpreadsheet;
  }
  getActive(): GSpreadsheet {
    return this.getActiveSpreadsheet();
  }
  getActiveSheet(): GSheet {
    return (this.active?.getActiveSheet() ?? null) as unknown as GSheet;
  }
  setActiveSheet(sheet: GSheet, restoreSelection?: boolean): GSheet {
    if (!this.active) throw this.exec.error('Invalid argument: sheet');
    return this.active.setActiveSheet(sheet, restoreSelection);
  }
  // Typed non-null in @types, but null in triggers, where nobody has a selection.
  getActiveRange(): GRange {
    return (this.active?.getActiveRange() ?? null) as GRange;
  }
  getActiveRangeList(): GRangeList {
    return (this.active?.getActiveRangeList() ?? null) as GRangeList;
  }
  getSelection(): GSelection {
    return (this.active?.getSelection() ?? null) as GSelection;
  }
  flush(): void {
    this.exec.charge(this.exec.costs.flushMs);
    this.exec.cellsAtFlush = this.exec.counters.cellsWritten;
    this.document.flush();
  }
  newDataValidation(): GoogleAppsScript.Spreadsheet.DataValidationBuilder {
    return new DataValidationBuilderImpl((items) => this.exec.realm.array(items)) as unknown as GoogleAppsScript.Spreadsheet.DataValidationBuilder;
  }
  newRichTextValue(): GoogleAppsScript.Spreadsheet.RichTextValueBuilder {
    return new RichTextValueBuilderImpl(
      (items) => this.exec.realm.array(items),
      (message) => this.exec.error(message),
    ) as unknown as GoogleAppsScript.Spreadsheet.RichTextValueBuilder;
  }
  newFilterCriteria(): GoogleAppsScript.Spreadsheet.FilterCriteriaBuilder {
    return new FilterCriteriaBuilderImpl((items) => this.exec.realm.array(items)) as unknown as GoogleAppsScript.Spreadsheet.FilterCriteriaBuilder;
  }
  getUi(): GoogleAppsScript.Base.Ui {
    // Time-driven triggers have no user interface to talk to.
    if (this.exec.kind === 'trigger') throw this.exec.error('Cannot call SpreadsheetApp.getUi() from this context.');
    return new UiImpl(this.ui, this.exec) as unknown as GoogleAppsScript.Base.Ui;
  }
}
