/**
 * The grid: display values with Sheets' alignment, column widths, sticky
 * frozen rows/columns, notes as tooltips, dropdowns, and mouse selection (click,
 * shift-click, drag, ctrl-click for another range) sent to the emulator.
 *
 * Every row the tab has takes its place in the scroll, as in Sheets; only the
 * rows in view and some around them are drawn (the server sends those), and
 * the page asks for others as it scrolls.
 */
import type { CellView, GridView, PlaygroundView, RectView } from '../view';
import { a1, byId, columnLetters, h } from './dom';
import { closeDropdown, openDropdown } from './dropdown';

interface Cell {
  r: number;
  c: number;
}
type Rect = Pick<RectView, 'row' | 'column' | 'numRows' | 'numColumns'>;

/** Rows drawn above and below the ones in view: a short scroll needs no new rows from the server. */
const OVERSCAN = 150;
/** Width of the row numbers' column; a row's height is the page's --row-h. */
const ROW_HEAD_W = 46;
const ROW_H = 21;

const table = byId<HTMLTableElement>('grid');
const wrap = byId('grid-wrap');
const inner = byId('grid-inner');
const rangeBox = byId('sel-range');
const activeBox = byId('sel-active');
const nameBox = byId('namebox');
const cellContent = byId('cell-content');

let grid: GridView | null = null;
let gridJson = '';
/** The drawn rows by row number. */
let rowEls = new Map<number, HTMLTableRowElement>();
let ranges: Rect[] = [];
let anchor: Cell | null = null;
let dragging = false;
let notePop: HTMLElement | null = null;
let onSelect: (sheet: string, ranges: string[]) => Promise<unknown> = async () => {};
/** A selection sent and not yet seen back: a redraw from an older state must not move the cursor back under the keys. */
let sentSelection: string | null = null;
/** The last selection drawn or made here (its tab and ranges): one that differs came from a script, and the grid goes to it. */
let knownSelection = '';
let onEdit: (edit: GridEdit) => void = () => {};
let onNeedRows: () => void = () => {};
let editor: HTMLInputElement | null = null;

/** What the user changed in the grid; the page sends it to the one edit entry point of the session. */
export type GridEdit = { sheet: string; at: string; rows: string[][] } | { sheet: string; clear: string[] };

function rectOf(a: Cell, b: Cell): Rect {
  const row = Math.min(a.r, b.r);
  const column = Math.min(a.c, b.c);
  return { row, column, numRows: Math.abs(a.r - b.r) + 1, numColumns: Math.abs(a.c - b.c) + 1 };
}

function cellAt(target: EventTarget | null): Cell | null {
  const td = (target as HTMLElement | null)?.closest?.('td[data-r]') as HTMLElement | null;
  return td ? { r: Number(td.dataset.r), c: Number(td.dataset.c) } : null;
}

// ---- geometry: every row has its place whether drawn or not ----

function frozenCount(): number {
  return grid?.frozen.length ?? 0;
}

/** Where the rows below the frozen ones start, in the table's own coordinates. */
function bodyTop(): number {
  const last = rowEls.get(frozenCount());
  return last ? last.offsetTop + last.offsetHeight : (table.tHead?.offsetHeight ?? 0);
}

function rowTop(r: number): number {
  const drawn = r <= frozenCount() ? rowEls.get(r) : undefined;
  return drawn ? drawn.offsetTop : bodyTop() + (r - frozenCount() - 1) * ROW_H;
}

function rowHeight(r: number): number {
  return (r <= frozenCount() ? rowEls.get(r)?.offsetHeight : undefined) ?? ROW_H;
}

function colLeft(c: number): number {
  let left = ROW_HEAD_W;
  for (let k = 1; k < c; k++) left += grid?.columnWidths[k - 1] ?? 0;
  return left;
}

/** A cell's box in the grid (charts and pivot tables are placed by it), or null past the drawn columns. */
export function cellBox(row: number, column: number): { top: number; left: number; bottom: number; right: number } | null {
  if (!grid || row < 1 || row > grid.maxRows || column < 1 || column > grid.columnWidths.length) return null;
  const top = rowTop(row);
  const left = colLeft(column);
  return { top, left, bottom: top + rowHeight(row), right: left + grid.columnWidths[column - 1] };
}

/** The rows below the frozen ones that the scroll shows now. */
function inView(): { first: number; last: number } {
  const below = frozenCount() + 1;
  return {
    first: below + Math.floor(wrap.scrollTop / ROW_H),
    last: Math.min(grid?.maxRows ?? 0, below + Math.floor((wrap.scrollTop + wrap.clientHeight - bodyTop()) / ROW_H)),
  };
}

/** The rows the page wants from the server: the ones in view and some around them. */
export function rowWindow(): { from: number; count: number } {
  if (!grid) return { from: 1, count: Math.ceil((wrap.clientHeight || 900) / ROW_H) + OVERSCAN };
  const { first, last } = inView();
  const from = Math.max(frozenCount() + 1, first - OVERSCAN);
  return { from, count: Math.max(1, last + OVERSCAN - from + 1) };
}

function covered(): boolean {
  if (!grid) return false;
  const { first, last } = inView();
  if (first > last) return true;
  return first >= grid.rowsFrom && last <= grid.rowsFrom + grid.rows.length - 1;
}

function viewAt(cell: Cell): CellView | undefined {
  if (!grid) return undefined;
  return cell.r <= grid.frozen.length ? grid.frozen[cell.r - 1]?.[cell.c - 1] : grid.rows[cell.r - grid.rowsFrom]?.[cell.c - 1];
}

// ---- drawing ----

/** The cell's text, its linked parts as links that open in a new tab, as Sheets shows a link when it is clicked. */
function linked(cell: CellView): Array<Node | string> {
  if (!cell.l?.length) return [cell.t];
  const out: Array<Node | string> = [];
  let at = 0;
  for (const [start, end, url] of cell.l) {
    if (start > at) out.push(cell.t.slice(at, start));
    out.push(h('a', { href: url, target: '_blank', rel: 'noopener' }, cell.t.slice(start, end)));
    at = end;
  }
  if (at < cell.t.length) out.push(cell.t.slice(at));
  return out;
}

function rowEl(r: number, line: CellView[]): HTMLTableRowElement {
  const tr = h('tr', {}, h('th', { 'data-row': r }, String(r)));
  line.forEach((cell, c) => {
    const cls = [cell.a, cell.b ? 'b' : '', cell.n ? 'note' : '', cell.dd !== undefined ? 'dd' : ''].filter(Boolean).join(' ');
    const el = h('td', { 'data-r': r, 'data-c': c + 1, class: cls || undefined, title: cell.n }, ...linked(cell));
    // The arrow Sheets shows on a cell with a dropdown; its glyph is drawn by the stylesheet, so the cell's text stays its value.
    if (cell.dd !== undefined) el.prepend(h('span', { class: 'dd-arrow', role: 'button', 'aria-label': 'Mostrar opções' }));
    if (cell.bg) el.style.backgroundColor = cell.bg;
    tr.append(el);
  });
  return tr;
}

/** The place of rows not drawn now: the scroll keeps its length whatever part of the tab is drawn. */
function spacer(rows: number, columns: number): HTMLTableRowElement {
  const tr = h('tr', { class: 'spacer', 'aria-hidden': 'true' }, h('td', { colspan: columns + 1 }));
  tr.style.height = `${rows * ROW_H}px`;
  return tr;
}

function build(g: GridView): void {
  const colgroup = h('colgroup', {}, h('col', { style: `width:${ROW_HEAD_W}px` }), ...g.columnWidths.map((w) => h('col', { style: `width:${w}px` })));
  const head = h('tr', {}, h('th', { class: 'corner' }), ...g.columnWidths.map((_, c) => h('th', { 'data-col': c + 1 }, columnLetters(c + 1))));
  const body = h('tbody');
  rowEls = new Map();
  const add = (r: number, line: CellView[]) => {
    const tr = rowEl(r, line);
    rowEls.set(r, tr);
    body.append(tr);
  };
  g.frozen.forEach((line, i) => add(i + 1, line));
  const last = g.rows.length ? g.rowsFrom + g.rows.length - 1 : g.frozen.length;
  if (g.rows.length && g.rowsFrom > g.frozen.length + 1) body.append(spacer(g.rowsFrom - g.frozen.length - 1, g.columnWidths.length));
  g.rows.forEach((line, i) => add(g.rowsFrom + i, line));
  if (g.maxRows > last) body.append(spacer(g.maxRows - last, g.columnWidths.length));
  table.replaceChildren(colgroup, h('thead', {}, head), body);
  table.style.width = `${ROW_HEAD_W + g.columnWidths.reduce((a, b) => a + b, 0)}px`;
  freeze(g);
}

/** Frozen rows and columns stay in place while the grid scrolls, as in Sheets. */
function freeze(g: GridView): void {
  const headRow = table.tHead?.rows[0];
  if (!headRow) return;
  for (let r = 1; r <= g.frozen.length; r++) {
    const tr = rowEls.get(r)!;
    const top = tr.offsetTop;
    for (const cell of Array.from(tr.cells)) {
      cell.style.top = `${top}px`;
      if (cell.tagName === 'TD') cell.classList.add('frozen-r');
      else cell.style.zIndex = '4';
      if (r === g.frozen.length && r === g.frozenRows && cell.tagName === 'TD') cell.classList.add('frozen-edge-r');
    }
  }
  for (let c = 1; c <= Math.min(g.frozenColumns, g.columnWidths.length); c++) {
    const left = colLeft(c);
    headRow.cells[c].style.left = `${left}px`;
    headRow.cells[c].style.zIndex = '4';
    for (const tr of rowEls.values()) {
      const cell = tr.cells[c];
      cell.style.left = `${left}px`;
      cell.classList.add('frozen-c');
      if (c === g.frozenColumns) cell.classList.add('frozen-edge-c');
    }
  }
}

function place(box: HTMLElement, rect: Rect | null): void {
  const first = rect && cellBox(rect.row, rect.column);
  if (!grid || !rect || !first) {
    box.hidden = true;
    return;
  }
  const last = cellBox(Math.min(rect.row + rect.numRows - 1, grid.maxRows), Math.min(rect.column + rect.numColumns - 1, grid.columnWidths.length))!;
  box.hidden = false;
  box.style.left = `${first.left - 1}px`;
  box.style.top = `${first.top - 1}px`;
  box.style.width = `${last.right - first.left + 1}px`;
  box.style.height = `${last.bottom - first.top + 1}px`;
}

function drawSelection(): void {
  table.querySelectorAll('.in-sel, th.hl').forEach((el) => el.classList.remove('in-sel', 'hl'));
  const active = ranges[ranges.length - 1] ?? null;
  for (const rect of ranges) {
    const multi = rect.numRows > 1 || rect.numColumns > 1;
    for (const [r, tr] of rowEls) {
      if (r < rect.row || r >= rect.row + rect.numRows) continue;
      tr.cells[0]?.classList.add('hl');
      if (!multi) continue;
      for (let c = rect.column; c < rect.column + rect.numColumns; c++) tr.cells[c]?.classList.add('in-sel');
    }
    for (let c = rect.column; c < rect.column + rect.numColumns; c++) table.tHead?.rows[0]?.cells[c]?.classList.add('hl');
  }
  place(rangeBox, active && (active.numRows > 1 || active.numColumns > 1) ? active : null);
  place(activeBox, active ? { row: active.row, column: active.column, numRows: 1, numColumns: 1 } : null);
  nameBox.textContent = active ? a1(active.row, active.column, active.numRows, active.numColumns) : '';
  cellContent.textContent = active ? contentOf({ r: active.row, c: active.column }) : '';
}

function commit(): void {
  if (!grid || ranges.length === 0) return;
  const sent = ranges.map((r) => a1(r.row, r.column, r.numRows, r.numColumns));
  const key = JSON.stringify(sent);
  sentSelection = key;
  knownSelection = JSON.stringify([grid.sheetId, sent]);
  void onSelect(grid.name, sent).finally(() => {
    if (sentSelection === key) sentSelection = null;
  });
}

function showNote(ev: MouseEvent): void {
  const el = (ev.target as HTMLElement).closest('td.note') as HTMLElement | null;
  notePop?.remove();
  notePop = null;
  if (!el || dragging) return;
  const box = el.getBoundingClientRect();
  notePop = h('div', { class: 'note-pop', role: 'tooltip' }, el.title);
  notePop.style.left = `${box.right + 2}px`;
  notePop.style.top = `${box.top}px`;
  document.body.append(notePop);
}

/** What the formula bar and the cell editor show: a formula as typed, else the value. */
function contentOf(cell: Cell): string {
  const view = viewAt(cell);
  return view?.f ?? view?.t ?? '';
}

function activeCell(): Cell | null {
  const r = ranges[ranges.length - 1];
  return r ? { r: r.row, c: r.column } : null;
}

/** Scrolls so the cell is in view and not under the frozen rows or columns, as Sheets follows the keys. */
function scrollToCell(cell: Cell): void {
  const box = cellBox(cell.r, cell.c);
  if (!grid || !box) return;
  if (cell.r > frozenCount()) {
    const hidden = bodyTop();
    if (box.top - hidden < wrap.scrollTop) wrap.scrollTop = box.top - hidden;
    else if (box.bottom > wrap.scrollTop + wrap.clientHeight) wrap.scrollTop = box.bottom - wrap.clientHeight;
  }
  if (cell.c > grid.frozenColumns) {
    const hidden = colLeft(grid.frozenColumns + 1);
    if (box.left - hidden < wrap.scrollLeft) wrap.scrollLeft = box.left - hidden;
    else if (box.right > wrap.scrollLeft + wrap.clientWidth) wrap.scrollLeft = box.right - wrap.clientWidth;
  }
}

/** Brings a cell out of view to the top of the rows below the frozen ones, as Sheets shows a range a script activates. */
function revealCell(cell: Cell): void {
  const box = cellBox(cell.r, cell.c);
  if (!box) return;
  const hidden = bodyTop();
  if (cell.r > frozenCount() && (box.top - hidden < wrap.scrollTop || box.bottom > wrap.scrollTop + wrap.clientHeight)) wrap.scrollTop = box.top - hidden;
  scrollToCell(cell);
}

function moveTo(cell: Cell): void {
  const to = { r: Math.min(Math.max(1, cell.r), grid?.maxRows ?? 1), c: Math.min(Math.max(1, cell.c), grid?.columnWidths.length ?? 1) };
  anchor = to;
  ranges = [rectOf(to, to)];
  scrollToCell(to);
  drawSelection();
  commit();
}

/** An input over the active cell, as Sheets opens one when you type or double-click. */
function openEditor(initial: string, original = initial): void {
  const cell = activeCell();
  const box = cell && cellBox(cell.r, cell.c);
  if (!grid || !cell || !box) return;
  closeEditor();
  const input = h('input', { type: 'text', class: 'cell-editor', 'aria-label': `Editar ${a1(cell.r, cell.c, 1, 1)}` }) as HTMLInputElement;
  input.value = initial;
  input.style.left = `${box.left}px`;
  input.style.top = `${box.top}px`;
  input.style.width = `${Math.max(box.right - box.left, 80)}px`;
  input.style.height = `${box.bottom - box.top}px`;
  inner.append(input);
  editor = input;
  input.focus();
  const sheet = grid.name;
  input.addEventListener('keydown', (ev) => {
    if (ev.key === 'Escape') {
      ev.preventDefault();
      closeEditor();
    } else if (ev.key === 'Enter' || ev.key === 'Tab') {
      ev.preventDefault();
      const text = input.value;
      closeEditor();
      onEdit({ sheet, at: a1(cell.r, cell.c, 1, 1), rows: [[text]] });
      moveTo(ev.key === 'Enter' ? { r: cell.r + 1, c: cell.c } : { r: cell.r, c: cell.c + 1 });
    }
  });
  input.addEventListener('blur', () => {
    if (editor !== input) return;
    const text = input.value;
    closeEditor();
    if (text !== original) onEdit({ sheet, at: a1(cell.r, cell.c, 1, 1), rows: [[text]] });
  });
}

function closeEditor(): void {
  const e = editor;
  editor = null;
  e?.remove();
}

/** The list of a cell's dropdown, under the cell; the pick is typed into the cell like any input. */
function showChoices(cell: Cell): void {
  const view = viewAt(cell);
  const box = cellBox(cell.r, cell.c);
  if (!grid || !box || view?.dd === undefined) return;
  const sheet = grid.name;
  const at = a1(cell.r, cell.c, 1, 1);
  openDropdown({ parent: inner, left: box.left, top: box.bottom, width: box.right - box.left }, at, grid.lists[view.dd] ?? [], view.t, (value) => {
    takeKeys();
    onEdit({ sheet, at, rows: [[value]] });
  });
}

/** Keys and paste reach the grid only when nothing else (a sidebar, a field) has the focus. */
function gridHasKeys(ev: Event): boolean {
  const target = ev.target as HTMLElement | null;
  return !!grid && ranges.length > 0 && !editor && !(target && /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName)) && !target?.isContentEditable;
}

function takeKeys(): void {
  const focused = document.activeElement;
  if (focused instanceof HTMLElement && focused !== document.body) focused.blur();
  if (!document.hasFocus()) window.focus();
}

function onKey(ev: KeyboardEvent): void {
  if (!gridHasKeys(ev) || ev.ctrlKey || ev.metaKey) return;
  const cell = activeCell()!;
  if (ev.altKey) {
    // Alt+↓ opens the dropdown of the cell, as in Sheets.
    if (ev.key === 'ArrowDown') {
      ev.preventDefault();
      showChoices(cell);
    }
    return;
  }
  if (ev.key === 'Delete' || ev.key === 'Backspace') {
    ev.preventDefault();
    onEdit({ sheet: grid!.name, clear: ranges.map((r) => a1(r.row, r.column, r.numRows, r.numColumns)) });
  } else if (ev.key === 'Enter' || ev.key === 'F2') {
    ev.preventDefault();
    openEditor(contentOf(cell));
  } else if (ev.key.startsWith('Arrow')) {
    ev.preventDefault();
    const d = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] }[ev.key] ?? [0, 0];
    moveTo({ r: cell.r + d[0], c: cell.c + d[1] });
  } else if (ev.key.length === 1) {
    ev.preventDefault();
    openEditor(ev.key, contentOf(cell));
  }
}

/** A block copied from a spreadsheet or a text editor: lines and tabs become rows and columns from the active cell. */
function onPaste(ev: ClipboardEvent): void {
  if (!gridHasKeys(ev)) return;
  const text = ev.clipboardData?.getData('text/plain') ?? '';
  if (!text) return;
  ev.preventDefault();
  const rows = text
    .replace(/\r\n?/g, '\n')
    .replace(/\n$/, '')
    .split('\n')
    .map((line) => line.split('\t'));
  const cell = activeCell()!;
  onEdit({ sheet: grid!.name, at: a1(cell.r, cell.c, 1, 1), rows });
}

function onMouseDown(ev: MouseEvent): void {
  const cell = cellAt(ev.target);
  if (!cell || ev.button !== 0) return;
  ev.preventDefault();
  // preventDefault (no text selection while dragging) also keeps the focus where it was, often
  // in the sidebar; a click on the grid takes the keys, as in Sheets.
  takeKeys();
  if (ev.shiftKey && anchor) {
    ranges[ranges.length - 1] = rectOf(anchor, cell);
  } else if (ev.ctrlKey || ev.metaKey) {
    anchor = cell;
    ranges.push(rectOf(cell, cell));
  } else {
    anchor = cell;
    ranges = [rectOf(cell, cell)];
  }
  dragging = true;
  drawSelection();
}

export function initGrid(select: (sheet: string, ranges: string[]) => Promise<unknown>, edit: (e: GridEdit) => void, needRows: () => void): void {
  onSelect = select;
  onEdit = edit;
  onNeedRows = needRows;
  table.addEventListener('dblclick', (ev) => {
    const cell = cellAt(ev.target);
    if (!cell || !grid) return;
    moveTo(cell);
    openEditor(contentOf(cell));
  });
  table.addEventListener('click', (ev) => {
    const cell = (ev.target as HTMLElement).closest('.dd-arrow') ? cellAt(ev.target) : null;
    if (cell) showChoices(cell);
  });
  document.addEventListener('keydown', onKey);
  document.addEventListener('paste', onPaste);
  table.addEventListener('mousedown', onMouseDown);
  table.addEventListener('mouseover', (ev) => {
    if (dragging && anchor) {
      const cell = cellAt(ev.target);
      if (cell) {
        ranges[ranges.length - 1] = rectOf(anchor, cell);
        drawSelection();
      }
    }
    showNote(ev);
  });
  table.addEventListener('mouseleave', () => {
    notePop?.remove();
    notePop = null;
  });
  document.addEventListener('mouseup', () => {
    if (!dragging) return;
    dragging = false;
    commit();
  });
  wrap.addEventListener('scroll', () => {
    notePop?.remove();
    notePop = null;
    if (grid && !covered()) onNeedRows();
  });
}

export function renderGrid(view: PlaygroundView): void {
  const json = JSON.stringify(view.grid);
  const sheetChanged = grid?.sheetId !== view.grid.sheetId;
  if (json !== gridJson) {
    grid = view.grid;
    gridJson = json;
    build(view.grid);
    if (sheetChanged) {
      closeDropdown();
      wrap.scrollTo(0, 0);
    }
  }
  const shown = JSON.stringify(view.selection?.ranges.map((r) => r.a1) ?? []);
  if (shown === sentSelection) sentSelection = null;
  if (!dragging && (sentSelection === null || sheetChanged)) {
    ranges = view.selection ? view.selection.ranges.map((r) => ({ row: r.row, column: r.column, numRows: r.numRows, numColumns: r.numColumns })) : [];
    const active = view.selection?.active;
    const selection = JSON.stringify([view.grid.sheetId, view.selection?.ranges.map((r) => r.a1) ?? []]);
    if (active && selection !== knownSelection) revealCell({ r: active.row, c: active.column });
    knownSelection = selection;
    if (
      active &&
      (!anchor ||
        sheetChanged ||
        !ranges.some((r) => anchor!.r >= r.row && anchor!.r < r.row + r.numRows && anchor!.c >= r.column && anchor!.c < r.column + r.numColumns))
    ) {
      anchor = { r: active.row, c: active.column };
    }
  }
  drawSelection();
  // Scrolled while these rows were on their way (or to another tab): ask for the ones in view now.
  if (!covered()) onNeedRows();
}
