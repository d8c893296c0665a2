/**
 * What the playground page is sent: a plain-JSON picture of the emulator's
 * state (types only, shared by the server and the page's script).
 */
import type { MenuEntry } from '../gas/ui';

export type { MenuEntry };

export interface CellView {
  /** Display value, number format applied (emulator.displayValues). */
  t: string;
  /** A formula, as the formula bar of the spreadsheet's locale shows it. */
  f?: string;
  /** Horizontal alignment Sheets gives the value: r(ight) for numbers and dates, c(entre) for booleans. */
  a?: 'r' | 'c';
  /** Note (header notes hold the API field names). */
  n?: string;
  /** Background colour. */
  bg?: string;
  /** Bold. */
  b?: 1;
  /** Has a dropdown (data validation list): its choices are GridView.lists[dd]. */
  dd?: number;
  /** Links over parts of the text (rich text): [start, end, url]. */
  l?: Array<[number, number, string]>;
}

export interface RectView {
  a1: string;
  row: number;
  column: number;
  numRows: number;
  numColumns: number;
}

export interface GridView {
  sheetId: number;
  name: string;
  frozenRows: number;
  frozenColumns: number;
  maxRows: number;
  maxColumns: number;
  lastRow: number;
  lastColumn: number;
  /** Pixel width of each shown column (Sheets' default 100). */
  columnWidths: number[];
  /** The frozen rows, always sent: frozen[r][c] is row r+1, column c+1. */
  frozen: CellView[][];
  /**
   * The rows the page asked for (the ones in view and around them): rows[r][c] is row rowsFrom+r,
   * column c+1. The page scrolls over all maxRows rows and asks for others as it scrolls.
   */
  rowsFrom: number;
  rows: CellView[][];
  /** The choices of the dropdowns in these rows. */
  lists: string[][];
}

export interface TabView {
  id: number;
  name: string;
  tabColor: string | null;
}

export interface MenuView {
  caption: string;
  /** createAddonMenu(): lives under Extensões. */
  addon: boolean;
  items: MenuEntry[];
}

/** A sidebar or dialog the bundle showed, served at /surface/<id>. */
export interface SurfaceView {
  id: number;
  kind: 'sidebar' | 'modal' | 'modeless';
  title: string;
  width: number;
  height: number;
}

export interface ToastView {
  seq: number;
  title: string;
  message: string;
  timeoutSeconds: number;
}

export interface TriggerView {
  handler: string;
  owner: string;
  /** ISO time, or null once a one-shot trigger has fired. */
  nextRun: string | null;
  every: string;
}

export interface TriggerRunView {
  functionName: string;
  status: 'ok' | 'error' | 'killed';
  at: string;
  message?: string;
}

/** An embedded chart as the page draws it: its spec and the data its ranges hold now. */
export interface ChartView {
  id: number;
  type: string;
  title: string;
  /** Anchor cell and pixel offsets, as setPosition gave them. */
  row: number;
  column: number;
  offsetX: number;
  offsetY: number;
  stacked: boolean;
  /** Where the legend goes (its legend.position option): bottom unless the chart says top, right or none. */
  legend: 'bottom' | 'top' | 'right' | 'none';
  categories: string[];
  series: Array<{ name: string; values: number[] }>;
  /** The cells drawn, display values (a TABLE chart shows them as they are). */
  table: string[][];
}

export interface EmbeddedView {
  charts: ChartView[];
  /** Pivot tables' output areas (their cells are in the grid). */
  pivots: RectView[];
}

export interface PlaygroundView {
  /** Bumped by every change the server makes; the page redraws when it moves. */
  version: number;
  spreadsheet: { name: string; timeZone: string; locale: string };
  demo: { org: string; size: string; baseUrl: string };
  /** Who uses the spreadsheet now, and the other editors the page can switch to (a shared document). */
  users: { current: string; all: string[] };
  tabs: TabView[];
  grid: GridView;
  selection: { ranges: RectView[]; active: RectView } | null;
  /** Charts and pivot tables on the shown sheet. */
  embedded: EmbeddedView;
  menus: MenuView[];
  sidebar: SurfaceView | null;
  dialogs: SurfaceView[];
  toasts: ToastView[];
  /** Virtual time of the emulator, ISO, and as the spreadsheet shows it. */
  clock: { iso: string; local: string };
  triggers: TriggerView[];
  triggerRuns: TriggerRunView[];
  /** E-mails the add-on sent (MailApp records them; nothing leaves the machine), newest first. */
  outbox: Array<{ to: string; subject: string; body: string; at: string }>;
}

/** Outcome of a google.script.run call through the bridge. */
export type RpcReply = { ok: true; value?: unknown; version: number } | { ok: false; error: { name: string; message: string }; version: number };

/** Marker the bridge puts in place of values JSON cannot carry (a Date, a Map...). */
export const SPECIAL = '\u0000gas';
