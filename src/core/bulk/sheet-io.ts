/**
 * Writing what a run learnt back beside the rows: one setValues per block of
 * consecutive rows (and per block of adjacent result columns), never cell by
 * cell, so a batch costs a fixed handful of Spreadsheet calls.
 */
import { bounded } from '../bounds';
import type { MarkupSheetPort, SheetPort } from '../sheets/sheet-port';
import type { CellValue } from '../sheets/table';
import type { BulkOperation, ResultKey } from './definitions';
import { columnLetter, type Layout } from './headers';
import type { RowIssue } from './rows';
import { plural } from '../../api/words';

export interface RowResult {
  status: string;
  mensagem: string;
  id?: number | string;
  numero?: string;
  chave?: number | string;
  processadoEm?: Date;
  /** The service refused the row's data (not a network or key problem): its cells are coloured. Never written. */
  refused?: boolean;
}

/** Consecutive numbers as inclusive [first, last] runs. */
export function runsOf(numbers: Iterable<number>): Array<[number, number]> {
  const sorted = [...new Set(numbers)].sort((a, b) => a - b);
  const runs: Array<[number, number]> = [];
  for (const n of sorted) {
    const last = runs[runs.length - 1];
    if (last && n === last[1] + 1) last[1] = n;
    else runs.push([n, n]);
  }
  return runs;
}

export function expandRuns(runs: ReadonlyArray<readonly [number, number]>): number[] {
  const out: number[] = [];
  for (const [a, b] of runs) for (let r = a; r <= b; r++) out.push(r);
  return out;
}

/** A row's message is cut well below the cell limit: a refusal of 60,000 characters must not stop the run. */
const ROW_MESSAGE_MAX = 5_000;

function resultCell(result: RowResult, key: ResultKey): CellValue {
  const v = result[key];
  if (typeof v === 'string' && v.length > ROW_MESSAGE_MAX)
    return bounded(v, ROW_MESSAGE_MAX, `mensagem do serviço cortada: tinha ${plural(v.length, 'caractere', 'caracteres')}`);
  return v === undefined || v === null ? '' : v;
}

export function writeResults(sheet: SheetPort, layout: Layout, op: BulkOperation, results: ReadonlyMap<number, RowResult>): void {
  if (results.size === 0) return;
  const columns = op.results.map((r) => ({ key: r.key, column: layout.results[r.key] })).sort((a, b) => a.column - b.column);
  const groups = runsOf(columns.map((c) => c.column));
  for (const [first, last] of runsOf(results.keys())) {
    for (const [c0, c1] of groups) {
      const keys = columns.filter((c) => c.column >= c0 && c.column <= c1).map((c) => c.key);
      const block: CellValue[][] = [];
      for (let row = first; row <= last; row++) block.push(keys.map((k) => resultCell(results.get(row)!, k)));
      sheet.write(first, c0, block);
    }
  }
}

/** Generated idIntegracao values, written into their cells before anything is sent. */
export function writeColumn(sheet: SheetPort, column: number, values: ReadonlyMap<number, CellValue>): void {
  for (const [first, last] of runsOf(values.keys())) {
    const block: CellValue[][] = [];
    for (let row = first; row <= last; row++) block.push([values.get(row)!]);
    sheet.write(first, column, block);
  }
}

/** Notes down one column, one call per block of consecutive rows. */
export function writeColumnNotes(sheet: MarkupSheetPort, column: number, notes: ReadonlyMap<number, string>): void {
  for (const [first, last] of runsOf(notes.keys())) {
    const block: string[] = [];
    for (let row = first; row <= last; row++) block.push(notes.get(row) as string);
    sheet.setNotesDown(first, column, block);
  }
}

export const FAULT_COLOR = '#f4c7c3';

/**
 * Colours the cells at fault and clears the colour this add-on left on cells
 * now fixed; other colours the user chose stay. One read and at most one
 * write for the whole span.
 */
export function highlight(
  sheet: MarkupSheetPort,
  layout: Layout,
  firstRow: number,
  lastRow: number,
  rows: ReadonlySet<number>,
  issues: readonly RowIssue[],
): void {
  const columns = Object.values(layout.inputs);
  if (columns.length === 0 || lastRow < firstRow) return;
  const c0 = Math.min(...columns);
  const c1 = Math.max(...columns);
  const inputs = new Set(columns);
  const colors: Array<Array<string | null>> = sheet.readBackgrounds(firstRow, c0, lastRow - firstRow + 1, c1 - c0 + 1);
  const faults = new Set(issues.filter((i) => i.column !== undefined && i.sheet === sheet.name()).map((i) => `${i.row}:${i.column}`));
  let changed = false;
  for (let r = firstRow; r <= lastRow; r++) {
    if (!rows.has(r)) continue;
    for (let c = c0; c <= c1; c++) {
      if (!inputs.has(c)) continue;
      const now = String(colors[r - firstRow][c - c0] ?? '').toLowerCase();
      const want = faults.has(`${r}:${c}`);
      if (want && now !== FAULT_COLOR) {
        colors[r - firstRow][c - c0] = FAULT_COLOR;
        changed = true;
      } else if (!want && now === FAULT_COLOR) {
        colors[r - firstRow][c - c0] = null;
        changed = true;
      }
    }
  }
  if (changed) sheet.setBackgrounds(firstRow, c0, colors);
}

/**
 * The cells a refusal points at: the input columns whose field or title the
 * service's message names, or the whole row's inputs when it names none.
 */
export function refusalIssues(sheet: string, layout: Layout, op: BulkOperation, row: number, message: string): RowIssue[] {
  const text = message.toLowerCase();
  const present = op.columns.filter((c) => layout.inputs[c.field] !== undefined);
  const named = present.filter((c) => text.includes(c.field.toLowerCase()) || text.includes(c.label.toLowerCase()));
  return (named.length ? named : present).map((c) => ({ sheet, row, column: layout.inputs[c.field], message }));
}

/** A1 ranges covering whole rows of the used width, for "ir para as linhas com erro". */
export function rowRangesA1(rows: Iterable<number>, lastColumn: number): string[] {
  const end = columnLetter(Math.max(lastColumn, 1));
  return runsOf(rows).map(([a, b]) => `A${a}:${end}${b}`);
}
