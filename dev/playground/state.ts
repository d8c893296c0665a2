/** The emulator's state as the page draws it (PlaygroundView): plain JSON, display values only. */
import { columnLetters, parseA1, toA1 } from '../gas/a1';
import type { ExecutionReport, GasEmulator } from '../gas/runner';
import { shownFormula } from '../gas/formula-locale';
import { DEFAULT_COLUMN_WIDTH } from '../gas/sheet';
import type { SheetModel } from '../gas/spreadsheet-model';
import { isFormula } from '../gas/values';
import { embeddedOf } from './embedded';
import { describeSpec, formatInZone, formatShort } from './time';
import type { Surfaces } from './surfaces';
import type { CellView, GridView, PlaygroundView, RectView, TriggerRunView, TriggerView } from './view';

/** The page draws at most this many rows of a sheet; a bigger import says how many it left out. */
export const MAX_SHOWN_ROWS = 2000;
/** Empty rows/columns drawn past the data, as an empty sheet shows some. */
const MIN_ROWS = 60;
const MIN_COLUMNS = 26;
const SPARE_ROWS = 20;
const SPARE_COLUMNS = 3;

export interface ViewContext {
  emulator: GasEmulator;
  surfaces: Surfaces;
  version: number;
  demo: PlaygroundView['demo'];
  users: PlaygroundView['users'];
  triggerRuns: ExecutionReport[];
}

function gridOf(emulator: GasEmulator, sheet: SheetModel): GridView {
  const lastRow = sheet.lastRow();
  const lastColumn = sheet.lastColumn();
  const wantRows = Math.min(sheet.maxRows, Math.max(MIN_ROWS, lastRow + SPARE_ROWS));
  const rows = Math.min(wantRows, MAX_SHOWN_ROWS);
  const columns = Math.min(sheet.maxColumns, Math.max(MIN_COLUMNS, lastColumn + SPARE_COLUMNS));
  const display = emulator.displayValues(sheet.name, `A1:${columnLetters(columns)}${rows}`);
  const out: CellView[][] = display.map((line, r) =>
    line.map((t, c) => {
      const cell = sheet.cell(r + 1, c + 1);
      const view: CellView = { t };
      if (!cell) return view;
      if (isFormula(cell.value)) view.f = shownFormula(cell.value.formula, emulator.spreadsheet.locale);
      if (typeof cell.value === 'number') view.a = 'r';
      else if (typeof cell.value === 'boolean') view.a = 'c';
      if (cell.note) view.n = cell.note;
      if (cell.background) view.bg = cell.background;
      if (cell.fontWeight === 'bold') view.b = 1;
      if (cell.validation?.showDropdown) view.dd = 1;
      return view;
    }),
  );
  return {
    sheetId: sheet.id,
    name: sheet.name,
    frozenRows: sheet.frozenRows,
    frozenColumns: sheet.frozenColumns,
    maxRows: sheet.maxRows,
    maxColumns: sheet.maxColumns,
    lastRow,
    lastColumn,
    columnWidths: Array.from({ length: columns }, (_, c) => sheet.columnWidths.get(c + 1) ?? DEFAULT_COLUMN_WIDTH),
    rows: out,
    rowsNotShown: Math.max(0, lastRow - rows),
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
    grid: gridOf(emulator, active),
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
