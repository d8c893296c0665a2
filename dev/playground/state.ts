/** The emulator's state as the page draws it (PlaygroundView): plain JSON, display values only. */
import { columnLetters, parseA1, toA1 } from '../gas/a1';
import type { ExecutionReport, GasEmulator } from '../gas/runner';
import { computedValue } from '../gas/formula';
import { shownFormula } from '../gas/formula-locale';
import { DEFAULT_COLUMN_WIDTH } from '../gas/sheet';
import type { SheetModel } from '../gas/spreadsheet-model';
import { isFormula } from '../gas/values';
import { embeddedOf } from './embedded';
import { describeSpec, formatInZone, formatShort } from './time';
import type { Surfaces } from './surfaces';
import type { CellView, GridView, PlaygroundView, RectView, TriggerRunView, TriggerView } from './view';

/** Empty columns drawn past the data, as an empty sheet shows some. */
const MIN_COLUMNS = 26;
const SPARE_COLUMNS = 3;

/**
 * The rows of the tab the page asks for: the ones in view and some around them. The page scrolls
 * over every row the tab has and asks for another window as it scrolls, as Sheets draws its grid.
 */
export interface RowWindow {
  from: number;
  count: number;
}
export const DEFAULT_WINDOW: RowWindow = { from: 1, count: 200 };
/** More than a tall screen needs: a window never costs the server the whole of a big tab. */
export const MAX_WINDOW_ROWS = 1000;

/** A window as the page asked for it in the query string, within bounds. */
export function windowOf(query: URLSearchParams): RowWindow {
  const from = Math.floor(Number(query.get('from') ?? DEFAULT_WINDOW.from));
  const count = Math.floor(Number(query.get('count') ?? DEFAULT_WINDOW.count));
  return {
    from: Number.isFinite(from) && from >= 1 ? from : DEFAULT_WINDOW.from,
    count: Number.isFinite(count) && count >= 1 ? Math.min(count, MAX_WINDOW_ROWS) : DEFAULT_WINDOW.count,
  };
}

export interface ViewContext {
  emulator: GasEmulator;
  surfaces: Surfaces;
  version: number;
  demo: PlaygroundView['demo'];
  users: PlaygroundView['users'];
  triggerRuns: ExecutionReport[];
  window?: RowWindow;
}

/** Dropdown lists are sent once per window and named by their place, not repeated in every cell. */
class Lists {
  readonly all: string[][] = [];
  private readonly index = new Map<string, number>();
  of(values: string[]): number {
    const key = JSON.stringify(values);
    let at = this.index.get(key);
    if (at === undefined) {
      at = this.all.push([...values]) - 1;
      this.index.set(key, at);
    }
    return at;
  }
}

/** Sheets' alignment when none is set: numbers (a formula's too) to the right, booleans centred, text to the left. */
function alignmentOf(sheet: SheetModel, row: number, column: number): CellView['a'] {
  const value = computedValue(sheet, row, column);
  if (typeof value === 'number') return 'r';
  if (typeof value === 'boolean') return 'c';
  return undefined;
}

function rowsOf(emulator: GasEmulator, sheet: SheetModel, from: number, count: number, columns: number, lists: Lists): CellView[][] {
  if (count < 1) return [];
  const display = emulator.displayValues(sheet.name, `A${from}:${columnLetters(columns)}${from + count - 1}`);
  return display.map((line, r) =>
    line.map((t, c) => {
      const cell = sheet.cell(from + r, c + 1);
      const view: CellView = { t };
      if (!cell) return view;
      if (isFormula(cell.value)) view.f = shownFormula(cell.value.formula, emulator.spreadsheet.locale);
      const align = cell.value === null ? undefined : alignmentOf(sheet, from + r, c + 1);
      if (align) view.a = align;
      if (cell.note) view.n = cell.note;
      if (cell.links?.length) view.l = cell.links.map((k) => [k.start, k.end, k.url]);
      if (cell.background) view.bg = cell.background;
      if (cell.fontWeight === 'bold') view.b = 1;
      if (cell.validation?.showDropdown) view.dd = lists.of(cell.validation.values);
      return view;
    }),
  );
}

function gridOf(emulator: GasEmulator, sheet: SheetModel, window: RowWindow): GridView {
  const lastColumn = sheet.lastColumn();
  const columns = Math.min(sheet.maxColumns, Math.max(MIN_COLUMNS, lastColumn + SPARE_COLUMNS));
  const frozen = Math.min(sheet.frozenRows, sheet.maxRows);
  // The frozen rows are always drawn; the window covers rows below them.
  const from = Math.min(Math.max(window.from, frozen + 1), sheet.maxRows + 1);
  const to = Math.min(window.from + window.count - 1, sheet.maxRows);
  const lists = new Lists();
  return {
    sheetId: sheet.id,
    name: sheet.name,
    frozenRows: sheet.frozenRows,
    frozenColumns: sheet.frozenColumns,
    maxRows: sheet.maxRows,
    maxColumns: sheet.maxColumns,
    lastRow: sheet.lastRow(),
    lastColumn,
    columnWidths: Array.from({ length: columns }, (_, c) => sheet.columnWidths.get(c + 1) ?? DEFAULT_COLUMN_WIDTH),
    frozen: rowsOf(emulator, sheet, 1, frozen, columns, lists),
    rowsFrom: from,
    rows: rowsOf(emulator, sheet, from, to - from + 1, columns, lists),
    lists: lists.all,
  };
}

function rect(a1: string, sheet: SheetModel): RectView | null {
  const ref = parseA1(
    a1,
    () => sheet.maxRows,
    () => sheet.maxColumns,
  );
  return ref
    ? { a1: toA1(ref.row, ref.column, ref.numRows, ref.numColumns), row: ref.row, column: ref.column, numRows: ref.numRows, numColumns: ref.numColumns }
    : null;
}

function selectionOf(emulator: GasEmulator, sheet: SheetModel): PlaygroundView['selection'] {
  const sel = emulator.spreadsheet.selection;
  if (!sel || sel.sheetId !== sheet.id) return null;
  const ranges = sel.ranges.map((a1) => rect(a1, sheet)).filter((r): r is RectView => r !== null);
  if (ranges.length === 0) return null;
  return { ranges, active: ranges[ranges.length - 1] };
}

function triggersOf(emulator: GasEmulator, tz: string): TriggerView[] {
  return emulator.triggers.triggers.map((t) => ({
    handler: t.handler,
    owner: t.owner,
    nextRun: Number.isFinite(t.nextRun) ? formatShort(t.nextRun, tz) : null,
    every: describeSpec(t.spec),
  }));
}

function runsOf(reports: ExecutionReport[], tz: string): TriggerRunView[] {
  return reports.slice(-8).map((r) => ({
    functionName: r.functionName,
    status: r.status,
    at: formatInZone(r.startedAt.getTime(), tz),
    message: r.error?.message,
  }));
}

export function buildView(ctx: ViewContext): PlaygroundView {
  const { emulator, surfaces } = ctx;
  const ss = emulator.spreadsheet;
  surfaces.sync();
  const visible = ss.sheets.filter((s) => !s.hidden);
  const active = ss.activeSheet().hidden ? visible[0] : ss.activeSheet();
  return {
    version: ctx.version,
    spreadsheet: { name: ss.name, timeZone: ss.timeZone, locale: ss.locale },
    demo: ctx.demo,
    users: ctx.users,
    outbox: ctx.emulator.mail
      .slice(-20)
      .reverse()
      .map((m) => ({ to: m.to, subject: m.subject, body: m.body.slice(0, 2000), at: formatShort(m.at, ctx.emulator.spreadsheet.timeZone) })),
    tabs: visible.map((s) => ({ id: s.id, name: s.name, tabColor: s.tabColor })),
    grid: gridOf(emulator, active, ctx.window ?? DEFAULT_WINDOW),
    selection: selectionOf(emulator, active),
    embedded: embeddedOf(ss, active),
    menus: emulator.ui.menus.map((m) => ({ caption: m.caption, addon: m.addon, items: m.items })),
    sidebar: surfaces.sidebar(),
    dialogs: surfaces.dialogs(),
    toasts: ss.toasts.map((t, seq) => ({ seq, title: t.title, message: t.message, timeoutSeconds: t.timeoutSeconds })),
    clock: { iso: new Date(emulator.now).toISOString(), local: formatInZone(emulator.now, ss.timeZone) },
    triggers: triggersOf(emulator, ss.timeZone),
    triggerRuns: runsOf(ctx.triggerRuns, ss.timeZone),
  };
}
