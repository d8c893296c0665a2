/**
 * One sheet row → one request body, or the list of what is wrong with it.
 * Every problem names the row, the column (title and letter) and what to do;
 * the body is then checked against the write table's request check, the one
 * the client applies, so nothing reaches the client that it would refuse and
 * the client need not check it again.
 */
import { checkBody, ruleIssues, type Rule } from '../../api/writes';
import type { Zone } from '../../api/calendar';
import type { CellValue } from '../table';
import { readCell } from './cells';
import { type BulkOperation, type InputColumn, STATUS } from './definitions';
import { columnLetter, type Layout } from './headers';

export interface RowIssue {
  sheet: string;
  row: number;
  /** 1-based column, when the problem sits in one cell. */
  column?: number;
  message: string;
}

export interface BuiltRow {
  /** Checked (frozen) when the row is complete; a row still waiting for its generated key is checked by the client. */
  body: Record<string, unknown>;
  /** The path id of updates. */
  pathId?: number;
  /** idIntegracao (creates) or idFatura (emission): what an unknown outcome is settled by. */
  key?: string | number;
  /** A create row whose idIntegracao is blank: one is generated and written before sending. */
  needsKey: boolean;
  issues: RowIssue[];
}

export function cellIssue(sheet: string, row: number, column: number | undefined, label: string, detail: string): RowIssue {
  const where = column === undefined ? `coluna "${label}"` : `coluna "${label}" (${columnLetter(column)})`;
  return { sheet, row, column, message: `Linha ${row}, ${where}: ${detail}` };
}

const firstSentence = (note: string): string => note.split(/(?<=\.)\s/)[0];

/** Reads the columns of one row into typed values; blank optional cells take their blank value or are left out. */
export function readFields(
  columns: readonly InputColumn[],
  inputs: Record<string, number>,
  row: readonly CellValue[],
  rowNumber: number,
  sheet: string,
  zone: Zone,
  rules: readonly Rule[] = [],
): { values: Record<string, unknown>; issues: RowIssue[] } {
  const values: Record<string, unknown> = {};
  const issues: RowIssue[] = [];
  for (const col of columns) {
    const at = inputs[col.field];
    const raw = at === undefined ? '' : row[at - 1];
    const read = readCell(col, raw, zone);
    if (!read.ok) issues.push(cellIssue(sheet, rowNumber, at, col.label, `${read.message}.`));
    else if ('value' in read) values[col.field] = read.value;
    else if (col.required) issues.push(cellIssue(sheet, rowNumber, at, col.label, `está vazia. ${firstSentence(col.note)}`));
    else if (col.blank !== undefined) values[col.field] = col.blank;
  }
  for (const problem of ruleIssues(rules, values)) {
    const col = columns.find((c) => c.field === problem.field);
    issues.push(cellIssue(sheet, rowNumber, inputs[problem.field], col?.label ?? problem.field, `${problem.message}.`));
  }
  return { values, issues };
}

export function isBlankRow(inputs: Record<string, number>, row: readonly CellValue[]): boolean {
  return Object.values(inputs).every((c) => {
    const v = row[c - 1];
    return v === '' || v === null || v === undefined || (typeof v === 'string' && v.trim() === '');
  });
}

/** Status text as the sheet holds it, tolerant of case and accents typed by hand. */
export function statusOf(cell: unknown): string {
  return String(cell ?? '')
    .trim()
    .toUpperCase();
}

export const DONE_STATUSES: readonly string[] = [STATUS.ok, STATUS.jaExiste, STATUS.jaEmitida];

export interface Discounts {
  /** Discount bodies (or their problems) per subscription idIntegracao. */
  byKey: Map<string, { bodies: Record<string, unknown>[]; issues: RowIssue[] }>;
}

export function buildRow(
  op: BulkOperation,
  layout: Layout,
  row: readonly CellValue[],
  rowNumber: number,
  sheet: string,
  zone: Zone,
  discounts?: Discounts,
): BuiltRow {
  const { values, issues } = readFields(op.columns, layout.inputs, row, rowNumber, sheet, zone, op.rules);
  const out: BuiltRow = { body: {}, needsKey: false, issues };
  for (const col of op.columns) {
    if (col.in === 'path' || values[col.field] === undefined) continue;
    out.body[col.field] = col.sentWhen && values[col.sentWhen] === false ? col.blank : values[col.field];
  }
  if (op.pathId) out.pathId = values[op.pathId] as number | undefined;
  if (op.identity === 'idIntegracao') {
    out.key = values.idIntegracao as string | undefined;
    out.needsKey = out.key === undefined;
  }
  if (op.identity === 'idFatura') out.key = values.idFatura as number | undefined;
  if (op.discounts) {
    const linked = out.key === undefined ? undefined : discounts?.byKey.get(String(out.key));
    out.body[op.discounts] = linked?.bodies ?? [];
    if (linked) issues.push(...linked.issues);
  }
  if (issues.length === 0) {
    // Placeholder for a key generated later: the rest of the body must already be complete.
    const checked = checkBody(op.key, out.needsKey ? { ...out.body, idIntegracao: 'x' } : out.body);
    if (checked.ok && !out.needsKey) out.body = checked.body;
    if (!checked.ok) {
      for (const issue of checked.issues) {
        const field = issue.field.split('.')[0];
        const col = op.columns.find((c) => c.field === field);
        issues.push(cellIssue(sheet, rowNumber, col ? layout.inputs[field] : undefined, col?.label ?? issue.field, `${issue.message}.`));
      }
    }
  }
  return out;
}

/** Problems as one cell of text. */
export function issueText(issues: readonly RowIssue[]): string {
  const text = issues.map((i) => i.message).join(' · ');
  return text.length > 2000 ? `${text.slice(0, 2000)}…` : text;
}
