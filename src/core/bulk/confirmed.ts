/**
 * What the owner confirmed is what is sent. At Confirmar envio (for edits
 * pushed from an imported sheet: from the preview the owner saw) a run records
 * each row's key and a digest of the values that make its body; when the row's
 * turn comes, a row whose values differ is not sent: someone, or a formula,
 * changed it after the owner looked.
 */
import type { CellValue } from '../sheets/table';
import type { Context, RowRequest } from './context';
import { digest } from './digest';
import { keyAt, standing } from './row-plan';
import type { RowIssue } from './rows';
import type { Confirmed } from './state';

/** The values that make a row's body, as a digest. */
export function rowDigest({ op, built }: RowRequest): string {
  const body = { ...built.body };
  // A customer found by its CPF/CNPJ may be written beside the row later: the CPF/CNPJ confirmed is what counts.
  if (built.find) delete body[built.find.field];
  return digest({ op: op.key, path: built.pathId, body, find: built.find?.value });
}

/**
 * The rows of a run as the owner confirms them: each valid row about to be
 * sent (built by the validation that just ran) and each PENDENTE row (its
 * outcome is settled before any resend). A row invalid now is not confirmed.
 */
export function confirmRows(
  ctx: Context,
  rows: readonly number[],
  read: { first: number; values: CellValue[][]; built: ReadonlyMap<number, RowRequest> },
): Confirmed {
  const out = new Map<string, string>();
  for (const r of rows) {
    const row = read.values[r - read.first];
    const made = read.built.get(r) ?? (standing(ctx, row) === 'pending' ? ctx.kind.build(ctx, row, r) : undefined);
    const key = keyAt(ctx, row);
    if (made && made.built.issues.length === 0 && key && key !== '-') out.set(key, rowDigest(made));
  }
  return Object.fromEntries(out);
}

/** Whether a row about to be sent holds the values it was confirmed with (a run from before confirmations: always). */
export function asConfirmed(confirmed: Confirmed | undefined, ctx: Context, row: readonly CellValue[], made: RowRequest): boolean {
  // A digest is hex: no key inherited by a plain object ever equals one.
  return !confirmed || confirmed[keyAt(ctx, row)] === rowDigest(made);
}

/** The problem of a row changed since it was confirmed, in the words of its kind of run. */
export function changedIssue(ctx: Context, r: number): RowIssue {
  return { sheet: ctx.name, row: r, message: `Linha ${r}: ${ctx.kind.changedSince}` };
}
