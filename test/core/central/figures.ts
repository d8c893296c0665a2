/** A company's month as the Central keeps it, for tests that change one figure at a time. */
import type { MonthFigures } from '../../../src/core/central/month';

export const zero = { count: 0, cents: 0 };
export const figures = (o: Partial<MonthFigures> = {}): MonthFigures => ({
  competencia: '10/2026',
  invoices: { count: 4, cents: 40_000 },
  notesIssued: { count: 4, cents: 40_000 },
  notesMissing: zero,
  issRetidoCents: 0,
  issDueCents: 800,
  chargesOpen: zero,
  chargesOverdue: zero,
  divergences: 0,
  empty: false,
  notes: [],
  ...o,
});
