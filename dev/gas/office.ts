/**
 * An office's spreadsheets: any number of documents, each with its editors,
 * and what every execution has written but not yet flushed.
 *
 * Sheets batches writes until `SpreadsheetApp.flush()` or the end of the
 * execution. So an execution works on its own copy of each document it
 * touches: it sees its own writes at once, other executions see them only
 * once it flushes or ends, and a killed execution leaves some prefix of its
 * unflushed writes, as its `landing` says (torn-writes.ts). A commit carries
 * only what the execution changed (cell by cell, sheet by sheet), so two
 * executions writing different cells both keep theirs. An execution sees what
 * others committed at its next Spreadsheet call.
 */
import type { Execution } from './execution';
import { hashed, seeded } from './random';
import { type Cell, SheetModel, SpreadsheetModel } from './spreadsheet-model';
import { isSheetWrite, WriteLog } from './torn-writes';

/** Google's words when a user opens by id a document that is not shared with them. */
export const NO_ACCESS_MESSAGE = 'You do not have permission to access the requested document.';
/** What openById says of an id that names no document (never existed, or deleted). */
export const NO_DOCUMENT_MESSAGE = 'Unexpected error while getting the method or property openById on object SpreadsheetApp.';

/** One execution's copy of one document. */
interface Session {
  exec: Execution;
  documentId: string;
  /** What the execution reads and writes. */
  work: SpreadsheetModel;
  /** The committed document as it was when `work` was last in step with it; null while it still is (version unchanged). */
  base: SpreadsheetModel | null;
  version: number;
}

/** A deep copy of plain data; sheets referenced from charts and pivots are kept by reference (relinked after). */
function copy<T>(v: T): T {
  if (v === null || typeof v !== 'object' || v instanceof SheetModel) return v;
  if (v instanceof Map) return new Map([...v].map(([k, x]) => [k, copy(x)])) as T;
  if (v instanceof Set) return new Set(v) as T;
  if (Array.isArray(v)) return v.map(copy) as T;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) out[k] = copy(x);
  return out as T;
}

/** Cells are most of a document: copied field by field, not through the generic walk. */
const copyCell = (c: Cell): Cell => {
  const out = { ...c };
  if (c.value !== null && typeof c.value === 'object') out.value = { ...c.value };
  if (c.validation) out.validation = { ...c.validation, values: [...c.validation.values] };
  return out;
};

function copyRows(rows: SheetModel['rows']): SheetModel['rows'] {
  const out: SheetModel['rows'] = new Map();
  for (const [r, cols] of rows) {
    const row = new Map<number, Cell>();
    for (const [c, cell] of cols) row.set(c, copyCell(cell));
    out.set(r, row);
  }
  return out;
}

function copySheet(s: SheetModel): SheetModel {
  const out = Object.create(SheetModel.prototype) as SheetModel;
  for (const [k, x] of Object.entries(s)) (out as unknown as Record<string, unknown>)[k] = k === 'rows' ? copyRows(x as SheetModel['rows']) : copy(x);
  out.beforeWrite = null;
  return out;
}

/** What an execution's copy of a sheet has done: rows it wrote (null: rows moved, any may differ), row maps still the document's. */
interface SheetWrites {
  changed: Set<number> | null;
  shared: Set<Map<number, Cell>>;
}

const writesOf = new WeakMap<SheetModel, SheetWrites>();

/**
 * Watches an execution's copy of a sheet: a row still shared with the
 * document is copied before its first write, and every written row is
 * remembered, so a commit compares only those.
 */
function watch(sheet: SheetModel, writes: SheetWrites): void {
  writesOf.set(sheet, writes);
  const own = (row: number) => {
    const r = sheet.rows.get(row);
    if (!r || !writes.shared.has(r)) return;
    writes.shared.delete(r);
    sheet.rows.set(row, new Map([...r].map(([c, cell]) => [c, copyCell(cell)])));
  };
  sheet.beforeWrite = (row) => {
    if (row !== null) {
      writes.changed?.add(row);
      own(row);
      return;
    }
    writes.changed = null;
    for (const r of [...sheet.rows.keys()]) own(r);
  };
}

/** An execution's copy of a document: every part its own, except the rows, shared until written. */
function workingCopy(m: SpreadsheetModel): SpreadsheetModel {
  const out = Object.create(SpreadsheetModel.prototype) as SpreadsheetModel;
  for (const [k, x] of Object.entries(m)) {
    if (SHARED_FIELDS.has(k)) (out as unknown as Record<string, unknown>)[k] = x;
    else if (k !== 'sheets') (out as unknown as Record<string, unknown>)[k] = copy(x);
  }
  out.sheets = m.sheets.map((s) => {
    const sheet = Object.create(SheetModel.prototype) as SheetModel;
    for (const [k, x] of Object.entries(s)) (sheet as unknown as Record<string, unknown>)[k] = k === 'rows' ? new Map(s.rows) : copy(x);
    watch(sheet, { changed: new Set(), shared: new Set(s.rows.values()) });
    return sheet;
  });
  relink(out);
  return out;
}

/** Charts and pivots point at sheets: after a copy they must point at the copy's sheets of the same id. */
function relink(model: SpreadsheetModel): void {
  const walk = (v: unknown): unknown => {
    if (v instanceof SheetModel) return model.byId(v.id) ?? v;
    if (v && typeof v === 'object' && !(v instanceof Map) && !(v instanceof Set)) {
      for (const [k, x] of Object.entries(v)) (v as Record<string, unknown>)[k] = walk(x);
    }
    return v;
  };
  for (const s of model.sheets) {
    walk(s.charts);
    walk(s.pivots);
  }
}

/** Toasts and the id counters are the document's own, never a copy's: they are shared by reference. */
const SHARED_FIELDS = new Set(['toasts', 'ids']);

export function copySpreadsheet(m: SpreadsheetModel): SpreadsheetModel {
  const out = Object.create(SpreadsheetModel.prototype) as SpreadsheetModel;
  for (const [k, x] of Object.entries(m)) {
    (out as unknown as Record<string, unknown>)[k] = SHARED_FIELDS.has(k) ? x : k === 'sheets' ? m.sheets.map(copySheet) : copy(x);
  }
  relink(out);
  return out;
}

/** A stable text of plain data, sheets named by id: what "changed" compares. */
function text(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) => {
    if (x instanceof SheetModel) return `sheet:${x.id}`;
    if (x instanceof Map) return [...x];
    if (x instanceof Set) return [...x];
    return x;
  });
}

const sameValue = (a: Cell['value'], b: Cell['value']): boolean =>
  a === b || (a !== null && b !== null && typeof a === 'object' && typeof b === 'object' && text(a) === text(b));

function sameCell(a: Cell | undefined, b: Cell | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined) return false;
  if (!sameValue(a.value, b.value) || Object.keys(a).length !== Object.keys(b).length) return false;
  for (const k of Object.keys(a) as (keyof Cell)[]) if (k !== 'value' && a[k] !== b[k] && text(a[k]) !== text(b[k])) return false;
  return true;
}

const SHEET_SCALARS = ['name', 'hidden', 'tabColor', 'frozenRows', 'frozenColumns', 'maxRows', 'maxColumns'] as const;
const SHEET_WHOLES = ['sheetMeta', 'filter', 'charts', 'pivots', 'protections'] as const;
const SHEET_MAPS = ['columnWidths', 'rowMeta', 'columnMeta'] as const;
const SHEET_SETS = ['hiddenRows', 'filteredRows'] as const;
/** Every field of a sheet an execution's changes are merged by (the cells apart): a field missing here would be lost at the end of a run. */
export const MERGED_SHEET_FIELDS: readonly string[] = ['rows', ...SHEET_SCALARS, ...SHEET_WHOLES, ...SHEET_MAPS, ...SHEET_SETS];

/** Into `target`, whatever `changed` holds differently from `base`, key by key. */
function mergeMap<T>(target: Map<number, T>, base: Map<number, T>, changed: Map<number, T>): void {
  for (const k of new Set([...base.keys(), ...changed.keys()])) {
    const [b, c] = [base.get(k), changed.get(k)];
    if (text(b) === text(c)) continue;
    if (c === undefined) target.delete(k);
    else target.set(k, copy(c));
  }
}

function mergeCells(target: SheetModel, base: SheetModel, changed: SheetModel): void {
  // Only rows the execution wrote can differ, unless rows moved.
  const written = writesOf.get(changed);
  const rows = written?.changed ?? new Set([...base.rows.keys(), ...changed.rows.keys()]);
  for (const r of [...rows]) {
    const [b, c] = [base.rows.get(r), changed.rows.get(r)];
    for (const col of new Set([...(b?.keys() ?? []), ...(c?.keys() ?? [])])) {
      const cell = c?.get(col);
      if (sameCell(b?.get(col), cell)) continue;
      if (cell) target.ensure(r, col);
      const row = target.rows.get(r);
      if (!row) continue;
      if (cell) row.set(col, copyCell(cell));
      else row.delete(col);
    }
  }
}

function mergeSheet(target: SheetModel, base: SheetModel, changed: SheetModel): void {
  for (const k of SHEET_SCALARS) if (changed[k] !== base[k]) (target as unknown as Record<string, unknown>)[k] = changed[k];
  for (const k of SHEET_WHOLES) if (text(changed[k]) !== text(base[k])) (target as unknown as Record<string, unknown>)[k] = copy(changed[k]);
  for (const k of SHEET_MAPS) mergeMap(target[k] as Map<number, unknown>, base[k] as Map<number, unknown>, changed[k] as Map<number, unknown>);
  for (const k of SHEET_SETS) {
    for (const r of changed[k]) if (!base[k].has(r)) target[k].add(r);
    for (const r of base[k]) if (!changed[k].has(r)) target[k].delete(r);
  }
  mergeCells(target, base, changed);
}

/** Applies to `target` what `changed` did since `base`: sheets added, deleted, moved and edited, the document's own fields. */
export function mergeInto(target: SpreadsheetModel, base: SpreadsheetModel, changed: SpreadsheetModel): void {
  for (const k of ['name', 'timeZone', 'locale', 'activeSheetId'] as const)
    if (changed[k] !== base[k]) (target as unknown as Record<string, unknown>)[k] = changed[k];
  for (const k of ['selection', 'meta'] as const) if (text(changed[k]) !== text(base[k])) (target as unknown as Record<string, unknown>)[k] = copy(changed[k]);
  const inBase = new Set(base.sheets.map((s) => s.id));
  const inChanged = new Set(changed.sheets.map((s) => s.id));
  target.sheets = target.sheets.filter((s) => !(inBase.has(s.id) && !inChanged.has(s.id)));
  let added = false;
  for (const s of changed.sheets) {
    const [b, t] = [base.byId(s.id), target.byId(s.id)];
    if (!b && !t) {
      target.sheets.push(copySheet(s));
      added = true;
    } else if (b && t) mergeSheet(t, b, s);
  }
  const order = (m: SpreadsheetModel) => m.sheets.filter((s) => inBase.has(s.id) && inChanged.has(s.id)).map((s) => s.id);
  if (added || text(order(base)) !== text(order(changed))) {
    const rank = new Map(changed.sheets.map((s, i) => [s.id, i]));
    target.sheets.sort((a, b) => (rank.get(a.id) ?? Number.MAX_SAFE_INTEGER) - (rank.get(b.id) ?? Number.MAX_SAFE_INTEGER));
  }
  relink(target);
}

/** Makes `work` hold `fresh`'s content while keeping its sheet objects, which the execution's service objects point at. */
function transplant(work: SpreadsheetModel, fresh: SpreadsheetModel): void {
  const sheets = fresh.sheets.map((s) => {
    const mine = work.byId(s.id);
    if (!mine) return s;
    for (const k of Object.keys(mine)) delete (mine as unknown as Record<string, unknown>)[k];
    return Object.assign(mine, s);
  });
  for (const [k, x] of Object.entries(fresh)) if (!SHARED_FIELDS.has(k)) (work as unknown as Record<string, unknown>)[k] = k === 'sheets' ? sheets : x;
  relink(work);
}

export class Office {
  /** The committed documents, by id. */
  readonly documents = new Map<string, SpreadsheetModel>();
  /** Who may open each document (null: anyone, as the single document of older tests). */
  readonly editors = new Map<string, Set<string> | null>();
  /** Users a document open to anyone was taken away from. */
  private readonly removed = new Map<string, Set<string>>();
  private readonly versions = new Map<string, number>();
  private readonly sessions = new Map<Execution, Map<string, Session>>();
  /** Each execution's sheet writes since its last flush (from its first write). */
  private readonly logs = new Map<Execution, WriteLog<Landing>>();

  add(model: SpreadsheetModel, editors: readonly string[] | null = null): SpreadsheetModel {
    this.documents.set(model.id, model);
    this.editors.set(model.id, editors ? new Set(editors) : null);
    this.versions.set(model.id, 0);
    return model;
  }

  /** Whether `user` may open `id`: null when they may, else Apps Script's message. */
  refusal(id: string, user: string): string | null {
    if (!this.documents.has(id)) return NO_DOCUMENT_MESSAGE;
    const editors = this.editors.get(id);
    return (editors && !editors.has(user)) || this.removed.get(id)?.has(user) ? NO_ACCESS_MESSAGE : null;
  }

  /** Shares `id` with `user`, or (false) takes it away from them; a document open to anyone stays open to the others. */
  share(id: string, user: string, shared: boolean): void {
    const editors = this.editors.get(id);
    const removed = this.removed.get(id) ?? new Set<string>();
    this.removed.set(id, removed);
    if (shared) {
      editors?.add(user);
      removed.delete(user);
    } else {
      editors?.delete(user);
      removed.add(user);
    }
  }

  /** The execution's copy of the document, made at its first touch. */
  working(exec: Execution, id: string): SpreadsheetModel {
    let mine = this.sessions.get(exec);
    if (!mine) this.sessions.set(exec, (mine = new Map()));
    let s = mine.get(id);
    if (!s) {
      const committed = this.documents.get(id);
      if (!committed) throw new Error(`emulator: no document ${id}`);
      s = { exec, documentId: id, work: workingCopy(committed), base: null, version: this.versions.get(id) ?? 0 };
      mine.set(id, s);
    }
    return s.work;
  }

  /** Before each Spreadsheet call: what other executions committed since shows, under this execution's own pending writes. */
  catchUp(exec: Execution): void {
    for (const s of this.sessions.get(exec)?.values() ?? []) {
      const committed = this.documents.get(s.documentId);
      if (!committed || s.version === this.versions.get(s.documentId)) continue;
      const fresh = copySpreadsheet(committed);
      if (s.base) mergeInto(fresh, s.base, s.work);
      const changed = new Map(s.work.sheets.map((sheet) => [sheet.id, writesOf.get(sheet)?.changed ?? null]));
      transplant(s.work, fresh);
      // Its own writes are still pending: the rows they touched stay the ones a commit compares.
      for (const sheet of s.work.sheets) watch(sheet, { changed: changed.has(sheet.id) ? (changed.get(sheet.id) ?? null) : null, shared: new Set() });
      s.base = null;
      s.version = this.versions.get(s.documentId) ?? 0;
    }
  }

  /** flush(), or the execution's end: its writes become everyone's. */
  commit(exec: Execution): void {
    this.catchUp(exec);
    for (const s of this.sessions.get(exec)?.values() ?? []) {
      // The committed document is its own base here: each part is compared before it is written.
      const version = this.apply(exec, s.documentId, null, s.work);
      if (version === null) continue;
      // Rows it never wrote are still the document's own maps: they stay shared, copied before a write.
      for (const sheet of s.work.sheets) watch(sheet, { changed: new Set(), shared: writesOf.get(sheet)?.shared ?? new Set() });
      s.version = version;
    }
    this.logs.get(exec)?.flushed();
  }

  /** Merges into a committed document what `work` changed since `base` (null: the document itself); its new version. */
  private apply(exec: Execution, id: string, base: SpreadsheetModel | null, work: SpreadsheetModel): number | null {
    const committed = this.documents.get(id);
    if (!committed) return null;
    // Others in step with the document keep the state they started from, to merge their own writes later.
    for (const [other, theirs] of this.sessions) {
      const t = theirs.get(id);
      if (other !== exec && t && !t.base && t.version === this.versions.get(id)) t.base = copySpreadsheet(committed);
    }
    mergeInto(committed, base ?? committed, work);
    const version = (this.versions.get(id) ?? 0) + 1;
    this.versions.set(id, version);
    return version;
  }

  /** Before each service call of an execution: counts its sheet writes, for what a kill would land. */
  beforeCall(exec: Execution, object: string, method: string): void {
    let log = this.logs.get(exec);
    if (!log) {
      if (!isSheetWrite(object, method)) return;
      this.logs.set(exec, (log = new WriteLog(exec.landing.landed, exec.landing.random, () => this.snapshot(exec))));
    }
    log.beforeCall(object, method);
  }

  /** Each document the execution touched as it stands now, with the committed state its copy was last in step with. */
  private snapshot(exec: Execution): Landing {
    const out: Landing = new Map();
    for (const s of this.sessions.get(exec)?.values() ?? []) {
      const committed = this.documents.get(s.documentId);
      if (!committed) continue;
      out.set(s.documentId, { work: copySpreadsheet(s.work), base: s.base ?? copySpreadsheet(committed) });
    }
    return out;
  }

  /**
   * The execution is over: committed when it ended; when it was killed, what its
   * landing says of its writes since the last flush (all, none, or a prefix).
   */
  end(exec: Execution, killed: boolean): void {
    const landing = killed ? (this.logs.get(exec)?.atKill() ?? { kind: 'none' }) : { kind: 'all' as const };
    if (landing.kind === 'all') this.commit(exec);
    if (landing.kind === 'prefix') for (const [id, { base, work }] of landing.state) this.apply(exec, id, base, work);
    this.sessions.delete(exec);
    this.logs.delete(exec);
  }
}

/** An execution's documents at one point: their copies and the committed states they were in step with. */
type Landing = Map<string, { work: SpreadsheetModel; base: SpreadsheetModel }>;

const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/**
 * A spreadsheet id of Google's length (44 characters of [A-Za-z0-9_-], the
 * first a 1 as in today's ids; developers.google.com/sheets/api/guides/concepts),
 * the same for the same seed: what the agenda and the signatures store per
 * document is as long as on Google.
 */
export function spreadsheetId(seed: string | number): string {
  const random = seeded(hashed(0, String(seed)) % 2 ** 31);
  let id = '1';
  while (id.length < 44) id += ID_ALPHABET[Math.floor(random() * 64)];
  return id;
}
