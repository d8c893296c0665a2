/**
 * Draws the active sheet's embedded charts as SVG from their spec (type,
 * ranges' data, options), floating over the grid at their anchor cell as in
 * Sheets, and outlines pivot tables (their cells are in the grid already).
 */
import type { ChartView, EmbeddedView } from '../view';
import { byId, h } from './dom';

const SVG = 'http://www.w3.org/2000/svg';
const W = 460;
const H = 260;
const PAD = { left: 70, right: 12, top: 12, bottom: 46 };
const COLORS = ['#4285f4', '#ea4335', '#fbbc04', '#34a853', '#ff6d01', '#46bdc6', '#7baaf7', '#f07b72'];

function el(tag: string, attrs: Record<string, string | number>, text?: string): SVGElement {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

const short = (n: number) =>
  Math.abs(n) >= 1e6
    ? `${(n / 1e6).toFixed(1)} mi`
    : Math.abs(n) >= 1e3
      ? `${(n / 1e3).toFixed(1)} mil`
      : n.toLocaleString('pt-BR', { maximumFractionDigits: 2 });

function scale(chart: ChartView): { min: number; max: number } {
  const values = chart.stacked
    ? chart.categories.map((_, i) => chart.series.reduce((t, s) => t + Math.max(0, s.values[i] ?? 0), 0))
    : chart.series.flatMap((s) => s.values);
  return { min: Math.min(0, ...values), max: Math.max(1, ...values) };
}

/** Column, bar and line charts share axes: categories along one side, values along the other. */
function axes(svg: SVGElement, chart: ChartView, horizontal: boolean): void {
  const { min, max } = scale(chart);
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const n = Math.max(1, chart.categories.length);
  const value = (v: number) => (horizontal ? PAD.left + ((v - min) / (max - min)) * plotW : PAD.top + plotH - ((v - min) / (max - min)) * plotH);
  for (let i = 0; i <= 4; i++) {
    const v = min + ((max - min) * i) / 4;
    const p = value(v);
    if (horizontal) {
      svg.append(el('line', { x1: p, x2: p, y1: PAD.top, y2: PAD.top + plotH, stroke: '#e0e0e0' }));
      svg.append(el('text', { x: p, y: H - PAD.bottom + 14, 'font-size': 9, 'text-anchor': 'middle', fill: '#5f6368' }, short(v)));
    } else {
      svg.append(el('line', { x1: PAD.left, x2: W - PAD.right, y1: p, y2: p, stroke: '#e0e0e0' }));
      svg.append(el('text', { x: PAD.left - 4, y: p + 3, 'font-size': 9, 'text-anchor': 'end', fill: '#5f6368' }, short(v)));
    }
  }
  const band = (horizontal ? plotH : plotW) / n;
  chart.categories.forEach((label, i) => {
    const mid = (horizontal ? PAD.top : PAD.left) + band * (i + 0.5);
    const text = label.length > 14 ? `${label.slice(0, 13)}…` : label;
    if (horizontal) svg.append(el('text', { x: PAD.left - 4, y: mid + 3, 'font-size': 9, 'text-anchor': 'end', fill: '#3c4043' }, text));
    else svg.append(el('text', { x: mid, y: H - PAD.bottom + 14, 'font-size': 9, 'text-anchor': 'middle', fill: '#3c4043' }, text));
  });
  if (chart.type === 'LINE') {
    chart.series.forEach((s, k) => {
      const points = s.values.map((v, i) => `${PAD.left + band * (i + 0.5)},${value(v)}`).join(' ');
      svg.append(el('polyline', { points, fill: 'none', stroke: COLORS[k % COLORS.length], 'stroke-width': 2 }));
    });
    return;
  }
  const groups = chart.stacked ? 1 : Math.max(1, chart.series.length);
  const thick = (band * 0.7) / groups;
  chart.categories.forEach((_, i) => {
    let base = 0;
    chart.series.forEach((s, k) => {
      const v = s.values[i] ?? 0;
      const from = chart.stacked ? base : 0;
      const to = from + v;
      base = chart.stacked ? to : base;
      const start = (horizontal ? PAD.top : PAD.left) + band * i + band * 0.15 + (chart.stacked ? 0 : thick * k);
      const a = value(Math.min(from, to));
      const b = value(Math.max(from, to));
      const rect = horizontal ? { x: a, y: start, width: Math.max(0, b - a), height: thick } : { x: start, y: b, width: thick, height: Math.max(0, a - b) };
      const bar = el('rect', { ...rect, fill: COLORS[k % COLORS.length] });
      bar.append(el('title', {}, `${chart.categories[i]} · ${s.name}: ${short(v)}`));
      svg.append(bar);
    });
  });
}

function pie(svg: SVGElement, chart: ChartView): void {
  const values = (chart.series[0]?.values ?? []).map((v) => Math.max(0, v));
  const total = values.reduce((a, b) => a + b, 0) || 1;
  const cx = W / 2 - 60;
  const cy = H / 2;
  const r = Math.min(W, H) / 2 - 20;
  let angle = -Math.PI / 2;
  values.forEach((v, i) => {
    const next = angle + (v / total) * Math.PI * 2;
    const large = next - angle > Math.PI ? 1 : 0;
    const d = `M${cx},${cy} L${cx + r * Math.cos(angle)},${cy + r * Math.sin(angle)} A${r},${r} 0 ${large} 1 ${cx + r * Math.cos(next)},${cy + r * Math.sin(next)} Z`;
    svg.append(el('path', { d, fill: COLORS[i % COLORS.length] }));
    svg.append(el('text', { x: W - 150, y: 20 + i * 14, 'font-size': 10, fill: COLORS[i % COLORS.length] }, `■ ${chart.categories[i] ?? ''}`));
    angle = next;
  });
}

function legend(svg: SVGElement, chart: ChartView): void {
  chart.series.forEach((s, k) => svg.append(el('text', { x: PAD.left + k * 110, y: H - 8, 'font-size': 10, fill: COLORS[k % COLORS.length] }, `■ ${s.name}`)));
}

function chartBox(chart: ChartView): HTMLElement {
  const box = h('figure', { class: 'pg-chart', 'data-chart-type': chart.type, 'aria-label': `Gráfico: ${chart.title}` });
  box.style.cssText =
    'position:absolute;z-index:3;margin:0;background:#fff;border:1px solid #dadce0;border-radius:4px;box-shadow:0 1px 3px rgba(60,64,67,.3);padding:6px;';
  box.append(h('figcaption', {}, chart.title));
  (box.lastChild as HTMLElement).style.cssText = 'font:500 13px Arial,sans-serif;color:#202124;margin:0 0 4px 4px;';
  if (chart.type === 'TABLE') {
    const rows = chart.table.slice(0, 12);
    const table = h('table', {}, ...rows.map((r, i) => h('tr', {}, ...r.map((c) => h(i === 0 ? 'th' : 'td', {}, c)))));
    table.style.cssText = 'font:11px Arial,sans-serif;border-collapse:collapse;max-width:460px;';
    if (chart.table.length > rows.length) box.append(table, h('div', {}, `… e mais ${chart.table.length - rows.length} linhas`));
    else box.append(table);
    return box;
  }
  const svg = el('svg', { width: W, height: H, viewBox: `0 0 ${W} ${H}`, role: 'img' });
  svg.append(el('title', {}, chart.title));
  if (chart.type === 'PIE') pie(svg, chart);
  else {
    axes(svg, chart, chart.type === 'BAR');
    if (chart.series.length > 1) legend(svg, chart);
  }
  box.append(svg);
  return box;
}

/** The top-left pixel of a cell in the grid, or null when the page does not draw that cell. */
function cellAt(row: number, column: number): { top: number; left: number; bottom: number; right: number } | null {
  const td = document.querySelector<HTMLElement>(`#grid td[data-r="${row}"][data-c="${column}"]`);
  return td ? { top: td.offsetTop, left: td.offsetLeft, bottom: td.offsetTop + td.offsetHeight, right: td.offsetLeft + td.offsetWidth } : null;
}

export function renderEmbedded(view: EmbeddedView | undefined): void {
  const inner = byId('grid-inner');
  for (const old of inner.querySelectorAll('.pg-chart, .pg-pivot')) old.remove();
  if (!view) return;
  for (const p of view.pivots) {
    const a = cellAt(p.row, p.column);
    const b = cellAt(p.row + p.numRows - 1, p.column + p.numColumns - 1);
    if (!a || !b) continue;
    const box = h('div', { class: 'pg-pivot', title: `Tabela dinâmica (${p.a1})`, 'aria-label': `Tabela dinâmica em ${p.a1}` });
    box.style.cssText = `position:absolute;z-index:1;pointer-events:none;border:2px solid #0f9d58;top:${a.top}px;left:${a.left}px;width:${b.right - a.left}px;height:${b.bottom - a.top}px;`;
    inner.append(box);
  }
  for (const chart of view.charts) {
    const at = cellAt(chart.row, chart.column);
    if (!at) continue;
    const box = chartBox(chart);
    box.style.top = `${at.top + chart.offsetY}px`;
    box.style.left = `${at.left + chart.offsetX}px`;
    inner.append(box);
  }
}
