/**
 * The Descontos sheet: one row per discount, linked to its plan subscription
 * by the subscription row's ID de integração. A problem in a discount row is
 * reported on the subscription row it belongs to, which is then not sent.
 */
import type { Zone } from '../../api/calendar';
import { discountFields, discountRules } from '../../api/writes';
import type { BookPort } from '../sheets/sheet-port';
import { DISCOUNT_SHEET, discountColumns } from './definitions';
import { LayoutError, matchColumns } from './headers';
import { type Discounts, isBlankRow, readFields } from './rows';

export interface LoadedDiscounts extends Discounts {
  /** Discount rows whose subscription key is blank. */
  unlinked: number[];
}

export function loadDiscounts(book: BookPort, zone: Zone): LoadedDiscounts {
  const out: LoadedDiscounts = { byKey: new Map(), unlinked: [] };
  const sheet = book.byName(DISCOUNT_SHEET);
  if (!sheet || sheet.lastRow() < 2) return out;
  const width = Math.max(sheet.lastColumn(), 1);
  const labels = sheet.read(1, 1, 1, width)[0].map((v) => String(v ?? ''));
  const matched = matchColumns(discountColumns, [], labels, sheet.readNotes(1, 1, width), DISCOUNT_SHEET);
  if (matched.problems.length) throw new LayoutError(matched.problems.join(' '));
  const rows = sheet.read(2, 1, sheet.lastRow() - 1, width);
  const seen = new Map<string, number>();
  rows.forEach((row, i) => {
    const rowNumber = i + 2;
    if (isBlankRow(matched.inputs, row)) return;
    const { values, issues } = readFields(discountColumns, matched.inputs, row, rowNumber, DISCOUNT_SHEET, zone, discountRules);
    const key = values.assinatura as string | undefined;
    if (key === undefined) {
      out.unlinked.push(rowNumber);
      return;
    }
    const n = (seen.get(key) ?? 0) + 1;
    seen.set(key, n);
    const entry = out.byKey.get(key) ?? { bodies: [], issues: [] };
    entry.issues.push(...issues.map((i) => ({ ...i, message: `Aba "${DISCOUNT_SHEET}": ${i.message}` })));
    const body: Record<string, unknown> = {};
    for (const field of Object.keys(discountFields)) body[field] = values[field];
    body.idIntegracao ??= `${key}-D${n}`;
    entry.bodies.push(body);
    out.byKey.set(key, entry);
  });
  return out;
}
