/**
 * Developer metadata with Google's semantics: stored on the spreadsheet, a
 * sheet, or one whole row or column; row and column metadata moves with its
 * row or column (the sheet model moves it) and is deleted with it. Objects
 * handed to scripts find their entry again by identity, so a location read
 * after the user inserted rows is where the row is now.
 */
import { GasObject } from './instrument';
import type { RangeImpl } from './range';
import type { SheetsEnv } from './sheets-env';
import type { MetaModel, SheetModel } from './spreadsheet-model';

type GMeta = GoogleAppsScript.Spreadsheet.DeveloperMetadata;
type GFinder = GoogleAppsScript.Spreadsheet.DeveloperMetadataFinder;
type GLocation = GoogleAppsScript.Spreadsheet.DeveloperMetadataLocation;
type GRange = GoogleAppsScript.Spreadsheet.Range;
type GSheet = GoogleAppsScript.Spreadsheet.Sheet;
type GSpreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;
type LocationType = GoogleAppsScript.Spreadsheet.DeveloperMetadataLocationType;
type Visibility = GoogleAppsScript.Spreadsheet.DeveloperMetadataVisibility;

export type MetaPlace = { type: 'SPREADSHEET' } | { type: 'SHEET'; sheet: SheetModel } | { type: 'ROW' | 'COLUMN'; sheet: SheetModel; index: number };

export interface Placed {
  meta: MetaModel;
  place: MetaPlace;
}

export const LOCATION_TYPES = { SPREADSHEET: 'SPREADSHEET', SHEET: 'SHEET', ROW: 'ROW', COLUMN: 'COLUMN' };
export const VISIBILITIES = { DOCUMENT: 'DOCUMENT', PROJECT: 'PROJECT' };

const KEY_MAX = 256;
const VALUE_MAX = 30_000;

/** Every entry of the spreadsheet with where it is now. */
export function allMetadata(env: SheetsEnv): Placed[] {
  const out: Placed[] = env.model.meta.map((meta) => ({ meta, place: { type: 'SPREADSHEET' } }));
  for (const sheet of env.model.sheets) {
    for (const { meta, type, index } of sheet.metadata()) {
      out.push({ meta, place: type === 'SHEET' ? { type, sheet } : { type, sheet, index } });
    }
  }
  return out;
}

function listAt(place: MetaPlace, env: SheetsEnv): MetaModel[] {
  if (place.type === 'SPREADSHEET') return env.model.meta;
  if (place.type === 'SHEET') return place.sheet.sheetMeta;
  const map = place.type === 'ROW' ? place.sheet.rowMeta : place.sheet.columnMeta;
  let list = map.get(place.index);
  if (!list) map.set(place.index, (list = []));
  return list;
}

function checkKey(env: SheetsEnv, key: unknown): string {
  if (typeof key !== 'string' || key.length === 0) throw env.exec.error('Invalid argument: key');
  if (key.length > KEY_MAX) throw env.exec.error(`Developer metadata keys are limited to ${KEY_MAX} characters.`);
  return key;
}

/** `add*DeveloperMetadata(key, [value], [visibility])`: the value and visibility overloads are told apart by type. */
export function addMetadata(env: SheetsEnv, place: MetaPlace, key: string, a?: unknown, b?: unknown): void {
  const isVisibility = (v: unknown) => v === 'DOCUMENT' || v === 'PROJECT';
  const value = a !== undefined && !isVisibility(a) ? String(a) : null;
  const visibility = (isVisibility(a) ? a : isVisibility(b) ? b : 'DOCUMENT') as MetaModel['visibility'];
  if (value !== null && value.length > VALUE_MAX) throw env.exec.error(`Developer metadata values are limited to ${VALUE_MAX} characters.`);
  listAt(place, env).push(env.model.newMeta(checkKey(env, key), value, visibility));
}

/** The place a range stands for: a whole row or a whole column; anything else is refused as Google does. */
export function rangePlace(env: SheetsEnv, range: RangeImpl): MetaPlace {
  const s = range.sheet;
  if (range.numRows === 1 && range.column === 1 && range.numColumns === s.maxColumns) return { type: 'ROW', sheet: s, index: range.row };
  if (range.numColumns === 1 && range.row === 1 && range.numRows === s.maxRows) return { type: 'COLUMN', sheet: s, index: range.column };
  throw env.exec.error(
    'Adding developer metadata to arbitrary ranges is not currently supported. Developer metadata may only be added to the top-level spreadsheet, an individual sheet, or an entire row or column.',
  );
}

function wholeRow(env: SheetsEnv, sheet: SheetModel, row: number): GRange {
  return env.range(sheet, row, 1, 1, sheet.maxColumns) as unknown as GRange;
}

function wholeColumn(env: SheetsEnv, sheet: SheetModel, column: number): GRange {
  return env.range(sheet, 1, column, sheet.maxRows, 1) as unknown as GRange;
}

class LocationImpl extends GasObject implements GLocation {
  readonly gasName = 'DeveloperMetadataLocation';
  constructor(
    private readonly env: SheetsEnv,
    private readonly place: MetaPlace,
  ) {
    super();
  }
  getLocationType(): LocationType {
    return this.place.type as unknown as LocationType;
  }
  getSpreadsheet(): GSpreadsheet | null {
    return this.place.type === 'SPREADSHEET' ? (this.env.spreadsheetObject() as GSpreadsheet) : null;
  }
  getSheet(): GSheet | null {
    return this.place.type === 'SHEET' ? (this.env.sheetObject(this.place.sheet) as unknown as GSheet) : null;
  }
  getRow(): GRange | null {
    return this.place.type === 'ROW' ? wholeRow(this.env, this.place.sheet, this.place.index) : null;
  }
  getColumn(): GRange | null {
    return this.place.type === 'COLUMN' ? wholeColumn(this.env, this.place.sheet, this.place.index) : null;
  }
}

export class DeveloperMetadataImpl extends GasObject implements GMeta {
  readonly gasName = 'DeveloperMetadata';
  constructor(
    private readonly env: SheetsEnv,
    public meta: MetaModel,
  ) {
    super();
  }

  private self(): GMeta {
    return this as unknown as GMeta;
  }

  /**
   * Where the entry is now; an entry whose row, column or sheet was deleted is gone. The execution's copy of the
   * document is made anew when it sees what others ended with: the same entry is then the one with its id.
   */
  private where(): Placed {
    const found = this.found();
    if (!found) throw this.env.exec.error('The developer metadata no longer exists.');
    return found;
  }

  private found(): Placed | undefined {
    const all = allMetadata(this.env);
    const found = all.find((p) => p.meta === this.meta) ?? all.find((p) => p.meta.id === this.meta.id);
    if (found) this.meta = found.meta;
    return found;
  }

  private moveTo(place: MetaPlace): GMeta {
    const { place: from } = this.where();
    const list = listAt(from, this.env);
    list.splice(list.indexOf(this.meta), 1);
    listAt(place, this.env).push(this.meta);
    return this.self();
  }

  getId(): number {
    return this.meta.id;
  }
  getKey(): string {
    return this.meta.key;
  }
  getValue(): string | null {
    return this.meta.value;
  }
  getVisibility(): Visibility {
    return this.meta.visibility as unknown as Visibility;
  }
  getLocation(): GLocation {
    return new LocationImpl(this.env, this.where().place) as unknown as GLocation;
  }
  setKey(key: string): GMeta {
    this.found();
    this.meta.key = checkKey(this.env, key);
    return this.self();
  }
  setValue(value: string): GMeta {
    this.found();
    this.meta.value = String(value);
    return this.self();
  }
  setVisibility(visibility: Visibility): GMeta {
    this.found();
    this.meta.visibility = String(visibility) as MetaModel['visibility'];
    return this.self();
  }
  remove(): void {
    const { place } = this.where();
    const list = listAt(place, this.env);
    list.splice(list.indexOf(this.meta), 1);
  }
  moveToColumn(column: GRange): GMeta {
    const place = rangePlace(this.env, column as unknown as RangeImpl);
    if (place.type !== 'COLUMN') throw this.env.exec.error('Invalid argument: column');
    return this.moveTo(place);
  }
  moveToRow(row: GRange): GMeta {
    const place = rangePlace(this.env, row as unknown as RangeImpl);
    if (place.type !== 'ROW') throw this.env.exec.error('Invalid argument: row');
    return this.moveTo(place);
  }
  moveToSheet(sheet: GSheet): GMeta {
    const model = (sheet as unknown as { model?: SheetModel }).model;
    if (!model || !this.env.model.sheets.includes(model)) throw this.env.exec.error('Invalid argument: sheet');
    return this.moveTo({ type: 'SHEET', sheet: model });
  }
  moveToSpreadsheet(): GMeta {
    return this.moveTo({ type: 'SPREADSHEET' });
  }
}

/** What a finder searches: the whole spreadsheet, one sheet (with its rows and columns), or one range's rows and columns. */
export type FinderScope = { type: 'SPREADSHEET' } | { type: 'SHEET'; sheet: SheetModel } | { type: 'RANGE'; range: RangeImpl };

export class DeveloperMetadataFinderImpl extends GasObject implements GFinder {
  readonly gasName = 'DeveloperMetadataFinder';
  private readonly tests: Array<(p: Placed) => boolean> = [];
  private intersecting = false;

  constructor(
    private readonly env: SheetsEnv,
    private readonly scope: FinderScope,
  ) {
    super();
  }

  private self(): GFinder {
    return this as unknown as GFinder;
  }

  private inScope(p: Placed): boolean {
    const { scope } = this;
    if (scope.type === 'SPREADSHEET') return true;
    if (p.place.type === 'SPREADSHEET') return false;
    if (scope.type === 'SHEET') return p.place.sheet === scope.sheet;
    const r = scope.range;
    if (p.place.sheet !== r.sheet || p.place.type === 'SHEET') return false;
    const { index } = p.place;
    const wholeRows = r.column === 1 && r.numColumns === r.sheet.maxColumns;
    const wholeColumns = r.row === 1 && r.numRows === r.sheet.maxRows;
    if (p.place.type === 'ROW') {
      const inside = index >= r.row && index <= r.getLastRow();
      return inside && (this.intersecting || wholeRows);
    }
    const inside = index >= r.column && index <= r.getLastColumn();
    return inside && (this.intersecting || wholeColumns);
  }

  find(): GMeta[] {
    const found = allMetadata(this.env)
      .filter((p) => this.inScope(p) && this.tests.every((t) => t(p)))
      .map((p) => new DeveloperMetadataImpl(this.env, p.meta));
    return this.env.newArray(found) as unknown as GMeta[];
  }
  onIntersectingLocations(): GFinder {
    this.intersecting = true;
    return this.self();
  }
  withId(id: number): GFinder {
    this.tests.push((p) => p.meta.id === id);
    return this.self();
  }
  withKey(key: string): GFinder {
    this.tests.push((p) => p.meta.key === key);
    return this.self();
  }
  withValue(value: string): GFinder {
    this.tests.push((p) => p.meta.value === value);
    return this.self();
  }
  withLocationType(locationType: LocationType): GFinder {
    this.tests.push((p) => p.place.type === String(locationType));
    return this.self();
  }
  withVisibility(visibility: Visibility): GFinder {
    this.tests.push((p) => p.meta.visibility === String(visibility));
    return this.self();
  }
}

/** `getDeveloperMetadata()` of a range: the entries on exactly the rows or columns it covers whole. */
export function metadataOf(env: SheetsEnv, scope: FinderScope): GMeta[] {
  if (scope.type === 'SPREADSHEET') return env.newArray(env.model.meta.map((m) => new DeveloperMetadataImpl(env, m))) as unknown as GMeta[];
  if (scope.type === 'SHEET') return env.newArray(scope.sheet.sheetMeta.map((m) => new DeveloperMetadataImpl(env, m))) as unknown as GMeta[];
  return new DeveloperMetadataFinderImpl(env, scope).find();
}
