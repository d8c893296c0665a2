/**
 * The grid: display values with Sheets' alignment, column widths, sticky
 * frozen rows/columns, notes as tooltips, and mouse selection (click,
 * shift-click, drag, ctrl-click for another range) sent to the emulator.
 */
import type { GridView, PlaygroundView, RectView } from '../view';
import { a1, byId, columnLetters, h } from './dom';

interface Cell {
  r: number;
  c: number;
}
type Rect = Pick<RectView, 'row' | 'column' | 'numRows' | 'numColumns'>;

const table = byId<HTMLTableElement>('grid');
const wrap = byId('grid-wrap');
const rangeBox = byId('sel-range');
const activeBox = byId('sel-active');
const nameBox = byId('namebox');
const cellContent = byId('cell-content');
const notShown = byId('rows-not-shown');

let grid: GridView | null = null;
let gridJson = '';
let ranges: Rect[] = [];
let anchor: Cell | null = null;
let dragging = false;
let notePop: HTMLElement | null = null;
let onSelect: (sheet: string, ranges: string[]) => void = () => {};
let onEdit: (edit: GridEdit) => void = () => {};
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

function td(r: number, c: number): HTMLTableCellElement | null {
  return table.tBodies[0]?.rows[r - 1]?.cells[c] ?? null;
}

function build(g: GridView): void {
  const colgroup = h('colgroup', {}, h('col', { style: 'width:46px' }), ...g.columnWidths.map((w) => h('col', { style: `width:${w}px` })));
  const head = h('tr', {}, h('th', { class: 'corner' }), ...g.columnWidths.map((_, c) => h('th', { 'data-col': c + 1 }, columnLetters(c + 1))));
  const body = h('tbody');
  g.rows.forEach((line, r) => {
    const tr = h('tr', {}, h('th', { 'data-row': r + 1 }, String(r + 1)));
    line.forEach((cell, c) => {
      const cls = [cell.a, cell.b ? 'b' : '', cell.n ? 'note' : '', cell.dd ? 'dd' : ''].filter(Boolean).join(' ');
      const el = h('td', { 'data-r': r + 1, 'data-c': c + 1, class: cls || undefined, title: cell.n }, cell.t);
      if (cell.bg) el.style.backgroundColor = cell.bg;
      tr.append(el);
    });
    body.append(tr);
  });
  table.replaceChildren(colgroup, h('thead', {}, head), body);
  table.style.width = `${46 + g.columnWidths.reduce((a, b) => a + b, 0)}px`;
  freeze(g);
  notShown.hidden = g.rowsNotShown === 0;
  notShown.textContent = `O playground mostra as primeiras ${g.rows.length} linhas; ${g.rowsNotShown} linhas com dados não aparecem aqui (estão na planilha do emulador).`;
}

/** Frozen rows and columns stay in place while the grid scrolls, as in Sheets. */
function freeze(g: GridView): void {
  const body = table.tBodies[0];
  const headRow = table.tHead?.rows[0];
  if (!body || !headRow) return;
  for (let r = 1; r <= Math.min(g.frozenRows, body.rows.length); r++) {
    const tr = body.rows[r - 1];
    const top = tr.offsetTop;
    for (const cell of Array.from(tr.cells)) {
      cell.style.top = `${top}px`;
      if (cell.tagName === 'TD') cell.classList.add('frozen-r');
      else cell.style.zIndex = '4';
      if (r === g.frozenRows && cell.tagName === 'TD') cell.classList.add('frozen-edge-r');
    }
  }
  for (let c = 1; c <= Math.min(g.frozenColumns, g.columnWidths.length); c++) {
    const left = headRow.cells[c].offsetLeft;
    headRow.cells[c].style.left = `${left}px`;
    headRow.cells[c].style.zIndex = '4';
    for (const tr of Array.from(body.rows)) {
      const cell = tr.cells[c];
      cell.style.left = `${left}px`;
      cell.classList.add('frozen-c');
      if (c === g.frozenColumns) cell.classList.add('frozen-edge-c');
    }
  }
}

function place(box: HTMLElement, rect: Rect | null): void {
  if (!grid || !rect) {
    box.hidden = true;
    return;
  }
  const lastRow = Math.min(rect.row + rect.numRows - 1, grid.rows.length);
  const lastCol = Math.min(rect.column + rect.numColumns - 1, grid.columnWidths.length);
  const first = td(rect.row, rect.column);
  const last = td(lastRow, lastCol);
  if (!first || !last) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  box.style.left = `${first.offsetLeft - 1}px`;
  box.style.top = `${first.offsetTop - 1}px`;
  box.style.width = `${last.offsetLeft + last.offsetWidth - first.offsetLeft + 1}px`;
  box.style.height = `${last.offsetTop + last.offsetHeight - first.offsetTop + 1}px`;
}

function drawSelection(): void {
  table.querySelectorAll('.in-sel, th.hl').forEach((el) => el.classList.remove('in-sel', 'hl'));
  const active = ranges[ranges.length - 1] ?? null;
  for (const rect of ranges) {
    const multi = rect.numRows > 1 || rect.numColumns > 1;
    for (let r = rect.row; r < rect.row + rect.numRows && r <= (grid?.rows.length ?? 0); r++) {
      table.tBodies[0]?.rows[r - 1]?.cells[0]?.classList.add('hl');
      if (!multi) continue;
      for (let c = rect.column; c < rect.column + rect.numColumns; c++) td(r, c)?.classList.add('in-sel');
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
  onSelect(
    grid.name,
    ranges.map((r) => a1(r.row, r.column, r.numRows, r.numColumns)),
  );
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
  const view = grid?.rows[cell.r - 1]?.[cell.c - 1];
  return view?.f ?? view?.t ?? '';
}

function activeCell(): Cell | null {
  const r = ranges[ranges.length - 1];
  return r ? { r: r.row, c: r.column } : null;
}

function moveTo(cell: Cell): void {
  anchor = cell;
  ranges = [rectOf(cell, cell)];
  drawSelection();
  commit();
}

/** An input over the active cell, as Sheets opens one when you type or double-click. */
function openEditor(initial: string, original = initial): void {
  const cell = activeCell();
  const at = cell && td(cell.r, cell.c);
  if (!grid || !cell || !at) return;
  closeEditor();
  const input = h('input', { type: 'text', class: 'cell-editor', 'aria-label': `Editar ${a1(cell.r, cell.c, 1, 1)}` }) as HTMLInputElement;
  input.value = initial;
  input.style.left = `${at.offsetLeft}px`;
  input.style.top = `${at.offsetTop}px`;
  input.style.width = `${Math.max(at.offsetWidth, 80)}px`;
  input.style.height = `${at.offsetHeight}px`;
  byId('grid-inner').append(input);
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

export function initGrid(select: (sheet: string, ranges: string[]) => void, edit: (e: GridEdit) => void): void {
  onSelect = select;
  onEdit = edit;
  table.addEventListener('dblclick', (ev) => {
    const cell = cellAt(ev.target);
    if (!cell || !grid) return;
    moveTo(cell);
    openEditor(contentOf(cell));
  });
  document.addEventListener('keydown', (ev) => {
    if (!gridHasKeys(ev) || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const cell = activeCell()!;
    if (ev.key === 'Delete' || ev.key === 'Backspace') {
      ev.preventDefault();
      onEdit({ sheet: grid!.name, clear: ranges.map((r) => a1(r.row, r.column, r.numRows, r.numColumns)) });
    } else if (ev.key === 'Enter' || ev.key === 'F2') {
      ev.preventDefault();
      openEditor(contentOf(cell));
    } else if (ev.key.startsWith('Arrow')) {
      ev.preventDefault();
      const d = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] }[ev.key] ?? [0, 0];
      moveTo({ r: Math.max(1, cell.r + d[0]), c: Math.max(1, cell.c + d[1]) });
    } else if (ev.key.length === 1) {
      ev.preventDefault();
      openEditor(ev.key, contentOf(cell));
    }
  });
  // A block copied from a spreadsheet or a text editor: lines and tabs become rows and columns from the active cell.
  document.addEventListener('paste', (ev) => {
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
  });
  table.addEventListener('mousedown', (ev) => {
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
  });
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
  });
}

export function renderGrid(view: PlaygroundView): void {
  const json = JSON.stringify(view.grid);
  const sheetChanged = grid?.sheetId !== view.grid.sheetId;
  if (json !== gridJson) {
    grid = view.grid;
    gridJson = json;
    build(view.grid);
    if (sheetChanged) wrap.scrollTo(0, 0);
  }
  if (!dragging) {
    ranges = view.selection ? view.selection.ranges.map((r) => ({ row: r.row, column: r.column, numRows: r.numRows, numColumns: r.numColumns })) : [];
    const active = view.selection?.active;
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
}
