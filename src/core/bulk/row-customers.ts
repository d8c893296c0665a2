/**
 * Rows that name their customer by CPF/CNPJ: each distinct value is looked up
 * once per run (the job keeps what it found), and a row whose customer is not
 * found, not alone, inactive, or not the one its "ID do cliente" says is an
 * error like any other, never sent.
 */
import type { BillingClient } from '../../api/client';
import { STATUS } from './definitions';
import { formatCpfCnpj } from '../../api/filters';
import { type CustomerFound, findCustomers } from './customers';
import { type BuiltRow, cellIssue, issueText, type RowIssue } from './rows';
import { type RowResult, writeColumn, writeColumnNotes } from './sheet-io';
import { columnLetter } from './headers';
import type { Span } from './row-plan';
import type { Item } from './batch';
import type { Context } from './context';
import type { BulkJob } from './state';

/** Customers the job keeps between steps, at most this many (a run past it looks the rest up again each step). */
const REMEMBERED_CUSTOMERS = 2_000;

/** Each row's customer found gives its idCliente; one not found, or not the typed one, makes the row invalid. */
export function resolveCustomers(
  client: BillingClient,
  ctx: Context,
  items: readonly Item[],
  invalid: Map<number, RowResult>,
  faults: RowIssue[],
  now: number,
): void {
  for (const { item, issue, id } of customerIssues(client, ctx, items)) {
    if (issue === null) {
      const field = (item.built.find as NonNullable<BuiltRow['find']>).field;
      if (item.built.body[field] === undefined) item.built.body[field] = id;
    } else if (item.reason !== 'pendente') {
      // A PENDENTE row may already be in the service: it is still looked up, never turned into an error here.
      invalid.set(item.row, { status: STATUS.erro, mensagem: issueText([issue]), processadoEm: new Date(now) });
      faults.push(issue);
    }
  }
}

/**
 * Keeps the customers found so far in the job, so the next step of the same run
 * does not look them up again. What was not found is not kept: that row is an
 * error already, and a failed lookup is to be tried again.
 */
export function rememberCustomers(job: BulkJob, ctx: Context): void {
  const found: Record<string, number> = { ...job.customers };
  let size = Object.keys(found).length;
  for (const [value, result] of ctx.customers ?? []) {
    if (size >= REMEMBERED_CUSTOMERS) break;
    if (result.ok && found[value] === undefined) {
      found[value] = result.id;
      size++;
    }
  }
  if (size > 0) job.customers = found;
}

/** The customers a job found in earlier steps, as this execution's own. */
export function knownCustomers(job: BulkJob): Map<string, CustomerFound> {
  return new Map(Object.entries(job.customers ?? {}).map(([value, id]): [string, CustomerFound] => [value, { ok: true, id }]));
}

/**
 * At Validar and at a run's start: a customer not found, not alone, inactive or not the typed ID is the row's issue, like any other.
 * Gives the customer found for each row whose "ID do cliente" is blank, by row.
 */
export function checkCustomers(client: BillingClient, ctx: Context, rows: ReadonlyArray<{ row: number; built: BuiltRow }>): Map<number, number> {
  const found = new Map<number, number>();
  for (const { item, issue, id } of customerIssues(client, ctx, rows)) {
    if (issue) item.built.issues.push(issue);
    else if (item.built.body[(item.built.find as NonNullable<BuiltRow['find']>).field] === undefined) found.set(item.row, id as number);
  }
  return found;
}

/**
 * Writes each customer found by CPF/CNPJ into its row's "ID do cliente" cell, with a note saying where it came from,
 * so the sheet shows which customer each row went to (a sheet without that column keeps only the CPF/CNPJ).
 */
export function fillCustomers(ctx: Context, span: Span, found: ReadonlyMap<number, number>): void {
  const column = ctx.layout.inputs.idCliente;
  const cpf = ctx.op.columns.find((c) => c.finds === 'idCliente');
  if (column === undefined || cpf === undefined || found.size === 0) return;
  const where = columnLetter(ctx.layout.inputs[cpf.field]);
  const notes = new Map<number, string>();
  for (const [r, id] of found) {
    const row = span.values[r - span.first];
    row[column - 1] = id;
    const value = String(row[ctx.layout.inputs[cpf.field] - 1] ?? '').replace(/\D/g, '');
    notes.set(r, `Preenchido pelo complemento: cliente achado pelo CPF/CNPJ ${formatCpfCnpj(value)} (coluna ${where}, "${cpf.label}").`);
  }
  writeColumn(ctx.sheet, column, found);
  writeColumnNotes(ctx.sheet, column, notes);
}

/** Looks up each distinct CPF/CNPJ of `items` once in this execution; what each row's lookup says (null: the customer is found and agrees). */
function customerIssues<T extends { row: number; built: BuiltRow }>(
  client: BillingClient,
  ctx: Context,
  items: readonly T[],
): Array<{ item: T; issue: RowIssue | null; id: number | null }> {
  ctx.customers ??= new Map();
  const wanted = items.filter((i) => i.built.find);
  findCustomers(
    client,
    wanted.map((i) => (i.built.find as NonNullable<BuiltRow['find']>).value),
    ctx.customers,
  );
  return wanted.map((item) => {
    const find = item.built.find as NonNullable<BuiltRow['find']>;
    const found = (ctx.customers as Map<string, CustomerFound>).get(find.value) as CustomerFound;
    const typed = item.built.body[find.field];
    const problem = !found.ok
      ? found.message
      : typed !== undefined && typed !== found.id
        ? `o CPF/CNPJ ${formatCpfCnpj(find.value)} é do cliente ID ${found.id}, mas a coluna "ID do cliente" diz ${String(typed)}: corrija uma das duas ou deixe só uma preenchida`
        : null;
    return { item, issue: problem === null ? null : cellIssue(ctx.name, item.row, find.column, find.label, `${problem}.`), id: found.ok ? found.id : null };
  });
}
