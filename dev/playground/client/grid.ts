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
  cellContent.textContent = active ? (grid?.rows[active.row - 1]?.[active.column - 1]?.t ?? '') : '';
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

export function initGrid(select: (sheet: string, ranges: string[]) => void): void {
  onSelect = select;
  table.addEventListener('mousedown', (ev) => {
    const cell = cellAt(ev.target);
    if (!cell || ev.button !== 0) return;
    ev.preventDefault();
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
