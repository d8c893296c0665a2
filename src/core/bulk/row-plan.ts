/**
 * Reading rows: what each row of a run is (the example or blank, done, a note
 * awaiting its number, PENDENTE to look up, invalid, a typed key to look up
 * first, or to send), the key that finds it again wherever the user moves it,
 * and the same key on two rows.
 */
import type { MarkupSheetPort } from '../sheets/sheet-port';
import type { CellValue } from '../sheets/table';
import { type BulkOperation, type InputColumn, STATUS } from './definitions';
import type { Layout } from './headers';
import { type BuiltRow, DONE_STATUSES, isBlankRow, type RowIssue, statusOf } from './rows';
import type { RowResult } from './sheet-io';
import { type Context, cellAt, type RowRequest, timeOf } from './context';
import { exampleKey } from './template';

/** Rows read in one call: the first row's number and every row's cells. */
export interface Span {
  first: number;
  values: CellValue[][];
}

/**
 * The rows below the header from `from` on (every row, by default) in one
 * read: the rows a run works on, their keys and the keys repeated among them
 * all come from it, each read being a round trip. `through`: a row wanted even
 * if the sheet now ends before it (read blank).
 */
export function readSheet(sheet: MarkupSheetPort, layout: Layout, through = 0, from = 2): Span {
  const first = Math.max(from, 2);
  const last = Math.max(sheet.lastRow(), through);
  return { first, values: last < first ? [] : sheet.read(first, 1, last - first + 1, layout.lastColumn) };
}

/** A row's result cells as they were read: what a row whose wave never started goes back to. */
export function cellsOf(ctx: Context, row: readonly CellValue[]): RowResult {
  const cells: Record<string, CellValue> = {};
  for (const r of ctx.op.results) cells[r.key] = cellAt(row, ctx.layout.results[r.key]);
  return cells as unknown as RowResult;
}

/** The template's example row: marked EXEMPLO, or holding exactly the example's values in every column still there. */
function isExample(ctx: Context, row: readonly CellValue[]): boolean {
  if (statusOf(cellAt(row, ctx.layout.results.status)) === STATUS.exemplo) return true;
  const example = ctx.example;
  if (!example) return false;
  const fields = Object.keys(example).filter((f) => ctx.layout.inputs[f] !== undefined);
  return fields.length > 0 && fields.every((f) => exampleKey(cellAt(row, ctx.layout.inputs[f])) === example[f]);
}

const isBlank = (ctx: Context, row: readonly CellValue[]): boolean => isExample(ctx, row) || isBlankRow(ctx.layout.inputs, row);

/** Where a row stands before it is built: not the run's, PENDENTE, done (a note perhaps still awaiting its number), or open. */
type Standing = 'blank' | 'pending' | 'done' | 'awaits' | 'open';

export function standing(ctx: Context, row: readonly CellValue[]): Standing {
  if (isBlank(ctx, row)) return 'blank';
  const status = statusOf(cellAt(row, ctx.layout.results.status));
  if (status === STATUS.pendente) return 'pending';
  if (!DONE_STATUSES.includes(status) || !ctx.kind.ownsResult(ctx, row)) return 'open';
  return awaitsNumber(ctx, row) ? 'awaits' : 'done';
}

/** An NFS-e row done earlier whose note had no number yet (EMITIDA): each later run looks it up until the number exists. */
function awaitsNumber(ctx: Context, row: readonly CellValue[]): boolean {
  // Only NFS-e emission has a Número column.
  const numero = ctx.layout.results.numero;
  return numero !== undefined && String(cellAt(row, numero)).trim() === '';
}

/**
 * What a row is to a batch: not the run's (the example, a blank row), done, an
 * error of its own, to be looked up first (a done note awaiting its number, a
 * PENDENTE row, a key typed by the user), or to send.
 */
export type RowPlan =
  | { is: 'blank' }
  | { is: 'done' }
  | ({ is: 'invalid' } & RowRequest)
  | ({ is: 'send' } & RowRequest)
  /** `since`: when a PENDENTE row's outcome became unknown, if known; `was`: the status a done note keeps. */
  | ({ is: 'lookup'; reason: 'recheck' | 'pendente' | 'precheck'; since?: number; was?: string } & RowRequest);

/**
 * What a row is, from its cells; `known`: its request as a validation just
 * built it, the problem of a key another row also has, and what the keys its
 * run generated start with (BulkJob.keyPrefix).
 */
export function classifyRow(
  ctx: Context,
  row: readonly CellValue[],
  r: number,
  known: { made?: RowRequest; duplicate?: RowIssue; keyPrefix?: string } = {},
): RowPlan {
  const is = standing(ctx, row);
  if (is === 'blank' || is === 'done') return { is };
  const made = known.made ?? ctx.kind.build(ctx, row, r);
  const status = statusOf(cellAt(row, ctx.layout.results.status));
  if (is === 'awaits') return made.built.key === undefined ? { is: 'done' } : { is: 'lookup', reason: 'recheck', ...made, was: status };
  // A row with a key is looked up, an update too: re-reading the record tells whether the lost answer's write happened.
  if (is === 'pending' && made.built.key !== undefined)
    return { is: 'lookup', reason: 'pendente', ...made, since: timeOf(cellAt(row, ctx.layout.results.processadoEm)) };
  if (known.duplicate && is === 'open') made.built.issues.push(known.duplicate);
  if (made.built.issues.length) return { is: 'invalid', ...made };
  // A key typed by the user may exist in the service already. One this run generated was never sent while the row's
  // Status and Processado em are blank: a step marks a row PENDENTE, with the time, before sending it.
  const generated = made.built.generated || (known.keyPrefix !== undefined && String(made.built.key).startsWith(known.keyPrefix) && untouched(ctx, row));
  if (ctx.op.identity === 'idIntegracao' && !made.built.needsKey && !generated && status === '') return { is: 'lookup', reason: 'precheck', ...made };
  return { is: 'send', ...made };
}

/** No step of a run wrote the row's Processado em. */
const untouched = (ctx: Context, row: readonly CellValue[]): boolean => String(cellAt(row, ctx.layout.results.processadoEm)).trim() === '';

/** A row's generated key, in its body too: every later attempt carries the same key. */
export function giveKey(built: BuiltRow, key: string): void {
  built.key = key;
  built.body.idIntegracao = key;
  built.needsKey = false;
}

/** The field that tells a row's record: the integration id of a creation, the subscription of an update, the invoice of an NFS-e. */
export function keyField(op: BulkOperation): string {
  if (op.identity === 'idIntegracao') return 'idIntegracao';
  if (op.identity === 'idFatura') return 'idFatura';
  // Every update names its record in its path.
  return op.pathId as string;
}

/** The title of an operation's column. */
export const labelOf = (op: BulkOperation, field: string): string => (op.columns.find((c) => c.field === field) as InputColumn).label;

export const normKey = (v: CellValue): string => String(v).trim();

/** The key a job keeps for a row: '-' for the example or a blank row, '' for a row without one. */
export function keyAt(ctx: Context, row: readonly CellValue[]): string {
  return isBlank(ctx, row) ? '-' : normKey(cellAt(row, ctx.layout.inputs[keyField(ctx.op)]));
}

/**
 * The same key on two rows would create, update or emit twice: every row not
 * yet done whose key another row of the sheet also has is refused, naming the
 * other rows. `sheet`: the whole sheet as readSheet read it, whatever the scope.
 */
export function sheetDuplicates(ctx: Context, sheet: Span): Map<number, RowIssue> {
  const field = keyField(ctx.op);
  const out = new Map<number, RowIssue>();
  const column = ctx.layout.inputs[field];
  const rowsByKey = new Map<string, number[]>();
  sheet.values.forEach((row, i) => {
    const key = normKey(cellAt(row, column));
    if (key && !isExample(ctx, row)) rowsByKey.set(key, [...(rowsByKey.get(key) ?? []), i + sheet.first]);
  });
  const label = labelOf(ctx.op, field);
  for (const [key, rows] of rowsByKey) {
    if (rows.length < 2) continue;
    for (const r of rows) {
      const others = rows.filter((o) => o !== r);
      out.set(r, {
        sheet: ctx.name,
        row: r,
        column,
        message: `${label} "${key}" repetido: está também na${others.length > 1 ? 's linhas' : ' linha'} ${others.join(', ')}. Cada linha precisa de um valor próprio; apague ou corrija as repetidas.`,
      });
    }
  }
  return out;
}
