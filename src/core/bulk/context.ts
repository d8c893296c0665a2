/**
 * What a step works with, read once per execution: the sheet, its columns, the
 * kind of run, the discounts and the template's example row. A kind of run
 * says how a row becomes its request, which result on a row is its own, and
 * what follows rows that are done: rows of the sheet's own operation here,
 * edits pushed from an imported sheet in edit-push.ts.
 */
import { isDate, type Zone } from '../../api/calendar';
import type { MarkupSheetPort } from '../sheets/sheet-port';
import type { CellValue } from '../sheets/table';
import type { BulkOperation } from './definitions';
import { loadDiscounts } from './discounts';
import { ensureLayout, type Layout } from './headers';
import type { CustomerFound } from './customers';
import type { Merge } from './reconcile';
import { type BuiltRow, buildRow, type Discounts } from './rows';
import { expandRuns, runsOf } from './sheet-io';
import { type BulkDeps, BulkError, type BulkJob, type BulkRequest, MAX_RUNS } from './state';
import { EXAMPLE_TAG } from './template';
import { plural } from '../../api/words';

/** A row as its request, and the operation it goes under (edits: the update of its record's type). */
export interface RowRequest {
  op: BulkOperation;
  built: BuiltRow;
  /** An edit pushed from an imported sheet: read the record first, and send what this makes of it. */
  merge?: Merge;
}

/** A row of a batch as read: its number and its cells. */
export interface ReadRow {
  r: number;
  row: readonly CellValue[];
}

/** A row a batch sent OK, with what was sent. */
export interface SentRow extends ReadRow {
  op: BulkOperation;
  body: Readonly<Record<string, unknown>>;
}

/** How a kind of run treats its rows: the sheet's own operation (below), or edits pushed from an imported sheet (edit-push.ts). */
export interface OperationKind {
  /** What the stored job keeps of its kind, so that a later step makes it again. */
  readonly stored: Pick<BulkJob, 'edits'>;
  build(ctx: Context, row: readonly CellValue[], r: number): RowRequest;
  /** Whether a row marked done (OK, JÁ EXISTE, JÁ EMITIDA) holds its own result, not one an earlier run left. */
  ownsResult(ctx: Context, row: readonly CellValue[]): boolean;
  /** After a batch's results are written: the rows it sent OK and those it found done. */
  settle(ctx: Context, sent: readonly SentRow[], done: readonly ReadRow[]): void;
  /** What a row changed since the owner confirmed it is told (after "Linha N: "). */
  readonly changedSince: string;
}

export interface Context {
  kind: OperationKind;
  /** The operation rows are counted and reported under. */
  op: BulkOperation;
  sheet: MarkupSheetPort;
  /** Read once: every sheet.name() is a Spreadsheet call. */
  name: string;
  layout: Layout;
  zone: Zone;
  discounts?: Discounts;
  /** The template's example row, by field (sheet metadata): never sent, even with its Status column gone. */
  example: Record<string, string> | null;
  /** Customers found by CPF/CNPJ in this execution. */
  customers?: Map<string, CustomerFound>;
  warnings: string[];
}

export const cellAt = (row: readonly CellValue[], column: number | undefined): CellValue => (column === undefined ? '' : row[column - 1]);

/** A date cell's time, whatever realm the date comes from. */
export const timeOf = (cell: CellValue): number | undefined => (isDate(cell) ? cell.getTime() : undefined);

/** The first `max` values, quoted unless `plain`, for a message ("…" when there are more). */
export const firstFew = (values: ReadonlyArray<string | number>, max: number, plain = false): string =>
  values
    .slice(0, max)
    .map((v) => (plain ? String(v) : `"${v}"`))
    .join(', ') + (values.length > max ? '…' : '');

export const firstFive = (values: readonly string[]): string => firstFew(values, 5);

/** Whether a date cell says a time at or after `t` (a cell that is no date never does). */
export const writtenSince = (cell: CellValue, t: number): boolean => (timeOf(cell) ?? Number.NEGATIVE_INFINITY) >= t;

export function sheetOf(deps: BulkDeps, name: string): MarkupSheetPort {
  const sheet = deps.book.byName(name);
  if (!sheet) throw new BulkError(`A aba "${name}" não existe nesta planilha.`);
  return sheet;
}

/** The rows a run covers: all data rows, or those of the selection on that sheet. */
export function scopeRows(deps: BulkDeps, sheet: MarkupSheetPort, scope: BulkRequest['scope']): Array<[number, number]> {
  const last = sheet.lastRow();
  if (last < 2) throw new BulkError(`A aba "${sheet.name()}" não tem linhas abaixo do cabeçalho.`);
  if (scope === 'all') return [[2, last]];
  const sel = deps.book.selection();
  if (sel.sheetId !== sheet.id) throw new BulkError(`Selecione as linhas na aba "${sheet.name()}" (a seleção atual está na aba "${sel.sheetName}").`);
  const rows = expandRuns(sel.rows.map(([a, b]) => [Math.max(a, 2), Math.min(b, last)] as [number, number]));
  if (rows.length === 0) throw new BulkError('Nenhuma linha de dados selecionada: selecione as linhas (abaixo do cabeçalho) e tente de novo.');
  const runs = runsOf(rows);
  if (runs.length > MAX_RUNS)
    throw new BulkError(
      `A seleção tem ${plural(runs.length, 'intervalo separado', 'intervalos separados')}; use no máximo ${MAX_RUNS} (ou ordene as linhas para juntá-las).`,
    );
  return runs;
}

function exampleOf(sheet: MarkupSheetPort): Record<string, string> | null {
  const raw = sheet.sheetTag(EXAMPLE_TAG);
  try {
    if (raw) return JSON.parse(raw) as Record<string, string>;
  } catch {
    // A damaged mark marks nothing.
  }
  return null;
}

/** Rows of the sheet's own operation: the row's columns are its request, and a done row is done for good. */
const sheetRows: OperationKind = {
  stored: {},
  build: (ctx, row, r) => ({ op: ctx.op, built: buildRow(ctx.op, ctx.layout, row, r, ctx.name, ctx.zone, ctx.discounts) }),
  // Only NFS-e rows say which invoice their result is for: an imported Faturas sheet pulled again since may hold another invoice there.
  ownsResult: (ctx, row) => String(cellAt(row, ctx.layout.results.chave)) === String(cellAt(row, ctx.layout.inputs.idFatura)),
  settle: () => {},
  changedSince: 'mudou depois de "Confirmar envio" e não foi enviada. Confira a linha, clique em Validar e depois em Executar para confirmar o envio de novo.',
};

export function sheetContext(deps: BulkDeps, op: BulkOperation, sheet: MarkupSheetPort): Context {
  const layout = ensureLayout(sheet, op);
  const ctx: Context = { kind: sheetRows, op, sheet, name: sheet.name(), layout, zone: deps.zone, warnings: [], example: exampleOf(sheet) };
  if (!op.discounts) return ctx;
  const discounts = loadDiscounts(deps.book, deps.zone);
  if (discounts.unlinked.length)
    ctx.warnings.push(
      `Aba "Descontos": as linhas ${discounts.unlinked.join(', ')} não dizem a que assinatura pertencem (coluna "ID de integração da assinatura") e foram ignoradas.`,
    );
  return { ...ctx, discounts };
}
