/**
 * Draws the active sheet's embedded charts as SVG from their spec (type,
 * ranges' data, options), floating over the grid at their anchor cell as in
 * Sheets, and outlines pivot tables (their cells are in the grid already).
 */
import type { ChartView, EmbeddedView } from '../view';
import { byId, h } from './dom';
import { cellBox } from './grid';

const SVG = 'http://www.w3.org/2000/svg';
const W = 460;
const H = 260;
const FONT = 'Arial, "Liberation Sans", sans-serif';
const COLORS = ['#4285f4', '#ea4335', '#fbbc04', '#34a853', '#ff6d01', '#46bdc6', '#7baaf7', '#f07b72'];
/** Font sizes of the category labels and of the legend, and the height of a legend line. */
const LABEL = 9;
const LEGEND = 10;
const LINE = 14;

function el(tag: string, attrs: Record<string, string | number>, text?: string): SVGElement {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

let ruler: CanvasRenderingContext2D | null | undefined;
/** The width a text takes in the chart's font, so labels and legend are laid out apart, as Sheets lays them out. */
function textWidth(text: string, size: number): number {
  ruler ??= document.createElement('canvas').getContext('2d');
  if (!ruler) return text.length * size * 0.6;
  ruler.font = `${size}px ${FONT}`;
  return ruler.measureText(text).width;
}

const short = (n: number) =>
  Math.abs(n) >= 1e6
    ? `${(n / 1e6).toFixed(1)} mi`
    : Math.abs(n) >= 1e3
      ? `${(n / 1e3).toFixed(1)} mil`
      : n.toLocaleString('pt-BR', { maximumFractionDigits: 2 });

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

function scale(chart: ChartView): { min: number; max: number } {
  const values = chart.stacked
    ? chart.categories.map((_, i) => chart.series.reduce((t, s) => t + Math.max(0, s.values[i] ?? 0), 0))
    : chart.series.flatMap((s) => s.values);
  return { min: Math.min(0, ...values), max: Math.max(1, ...values) };
}

interface Frame {
  left: number;
  right: number;
  top: number;
  bottom: number;
}
interface LegendItem {
  text: string;
  color: string;
  x: number;
  y: number;
}

/**
 * Where the plot sits and where each legend entry goes: the legend (of a chart with more than one
 * series, where its legend.position puts it, below by default) takes its own room beside the plot,
 * past the category labels, and wraps onto more lines rather than run off the chart.
 */
function layout(chart: ChartView): { pad: Frame; legend: LegendItem[] } {
  const pad: Frame = { left: 70, right: 12, top: 12, bottom: 24 };
  if (chart.series.length < 2 || chart.legend === 'none') return { pad, legend: [] };
  const items = chart.series.map((s, k) => ({ text: `■ ${clip(s.name, 24)}`, color: COLORS[k % COLORS.length] }));
  const widths = items.map((i) => textWidth(i.text, LEGEND));
  if (chart.legend === 'right') {
    const width = Math.min(150, Math.max(...widths) + 8);
    pad.right = width + 16;
    return { pad, legend: items.map((item, i) => ({ ...item, x: W - width - 4, y: pad.top + LEGEND + i * LINE })) };
  }
  const placed: Array<{ x: number; line: number }> = [];
  let x = pad.left;
  let line = 0;
  widths.forEach((w) => {
    if (x > pad.left && x + w > W - pad.right) {
      line += 1;
      x = pad.left;
    }
    placed.push({ x, line });
    x += w + 16;
  });
  const lines = line + 1;
  if (chart.legend === 'top') {
    pad.top += lines * LINE;
    return { pad, legend: items.map((item, i) => ({ ...item, x: placed[i].x, y: 12 + LEGEND + placed[i].line * LINE })) };
  }
  pad.bottom += lines * LINE + 6;
  const first = H - pad.bottom + 24 + LEGEND + 2;
  return { pad, legend: items.map((item, i) => ({ ...item, x: placed[i].x, y: first + placed[i].line * LINE })) };
}

/** Column, bar and line charts share axes: categories along one side, values along the other. */
function axes(svg: SVGElement, chart: ChartView, horizontal: boolean, pad: Frame): void {
  const { min, max } = scale(chart);
  const plotW = W - pad.left - pad.right;
  const plotH = H - pad.top - pad.bottom;
  const n = Math.max(1, chart.categories.length);
  const value = (v: number) => (horizontal ? pad.left + ((v - min) / (max - min)) * plotW : pad.top + plotH - ((v - min) / (max - min)) * plotH);
  for (let i = 0; i <= 4; i++) {
    const v = min + ((max - min) * i) / 4;
    const p = value(v);
    if (horizontal) {
      svg.append(el('line', { x1: p, x2: p, y1: pad.top, y2: pad.top + plotH, stroke: '#e0e0e0' }));
      svg.append(el('text', { x: p, y: H - pad.bottom + 14, 'font-size': LABEL, 'text-anchor': 'middle', fill: '#5f6368' }, short(v)));
    } else {
      svg.append(el('line', { x1: pad.left, x2: W - pad.right, y1: p, y2: p, stroke: '#e0e0e0' }));
      svg.append(el('text', { x: pad.left - 4, y: p + 3, 'font-size': LABEL, 'text-anchor': 'end', fill: '#5f6368' }, short(v)));
    }
  }
  const band = (horizontal ? plotH : plotW) / n;
  const labels = chart.categories.map((label) => clip(label, 14));
  // Labels that would run into each other are thinned out, one in every `step`, as Sheets skips them.
  const room = horizontal ? LABEL + 3 : Math.max(0, ...labels.map((l) => textWidth(l, LABEL))) + 6;
  const step = Math.max(1, Math.ceil(room / band));
  labels.forEach((text, i) => {
    if (i % step !== 0) return;
    const mid = (horizontal ? pad.top : pad.left) + band * (i + 0.5);
    if (horizontal) svg.append(el('text', { x: pad.left - 4, y: mid + 3, 'font-size': LABEL, 'text-anchor': 'end', fill: '#3c4043' }, text));
    else svg.append(el('text', { x: mid, y: H - pad.bottom + 14, 'font-size': LABEL, 'text-anchor': 'middle', fill: '#3c4043' }, text));
  });
  if (chart.type === 'LINE') {
    chart.series.forEach((s, k) => {
      const points = s.values.map((v, i) => `${pad.left + band * (i + 0.5)},${value(v)}`).join(' ');
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
      const start = (horizontal ? pad.top : pad.left) + band * i + band * 0.15 + (chart.stacked ? 0 : thick * k);
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

function legend(svg: SVGElement, items: LegendItem[]): void {
  for (const item of items) svg.append(el('text', { x: item.x, y: item.y, 'font-size': LEGEND, fill: item.color }, item.text));
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
  const svg = el('svg', { width: W, height: H, viewBox: `0 0 ${W} ${H}`, role: 'img', 'font-family': FONT });
  svg.append(el('title', {}, chart.title));
  if (chart.type === 'PIE') pie(svg, chart);
  else {
    const { pad, legend: items } = layout(chart);
    axes(svg, chart, chart.type === 'BAR', pad);
    legend(svg, items);
  }
  box.append(svg);
  return box;
}

export function renderEmbedded(view: EmbeddedView | undefined): void {
  const inner = byId('grid-inner');
  for (const old of inner.querySelectorAll('.pg-chart, .pg-pivot')) old.remove();
  if (!view) return;
  for (const p of view.pivots) {
    const a = cellBox(p.row, p.column);
    const b = cellBox(p.row + p.numRows - 1, p.column + p.numColumns - 1);
    if (!a || !b) continue;
    const box = h('div', { class: 'pg-pivot', title: `Tabela dinâmica (${p.a1})`, 'aria-label': `Tabela dinâmica em ${p.a1}` });
    box.style.cssText = `position:absolute;z-index:1;pointer-events:none;border:2px solid #0f9d58;top:${a.top}px;left:${a.left}px;width:${b.right - a.left}px;height:${b.bottom - a.top}px;`;
    inner.append(box);
  }
  for (const chart of view.charts) {
    const at = cellBox(chart.row, chart.column);
    if (!at) continue;
    const box = chartBox(chart);
    box.style.top = `${at.top + chart.offsetY}px`;
    box.style.left = `${at.left + chart.offsetX}px`;
    inner.append(box);
  }
}
