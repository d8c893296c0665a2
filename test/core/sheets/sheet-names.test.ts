/** Names Google accepts for the sheets a report writes, checked before the form is saved. */
import { describe, expect, it } from 'vitest';
import { listing } from '../../../src/api/operations';
import { childSheetName, PARTIAL_MARK, SHEET_NAME_MAX, sheetNameProblem } from '../../../src/core/sheets/sheet-names';
import { tableSpec } from '../../../src/core/sheets/table';

const REFUSAL = 'Use um nome de aba com até 100 caracteres, sem [ ] * ? : / \\';

describe('sheet names', () => {
  it('accepts any name Google takes, up to 100 characters', () => {
    expect(sheetNameProblem('Faturas de novembro (2026) · Empresa #1')).toBeNull();
    expect(sheetNameProblem('x'.repeat(SHEET_NAME_MAX))).toBeNull();
  });

  it('refuses a name one character too long, saying the limit and the characters to avoid', () => {
    expect(SHEET_NAME_MAX).toBe(100);
    expect(sheetNameProblem('x'.repeat(101))).toBe(REFUSAL);
  });

  it.each(['[', ']', '*', '?', ':', '/', '\\'])('refuses a short name with %s in it', (c) => {
    expect(sheetNameProblem(`Faturas ${c} 2026`)).toBe(REFUSAL);
  });

  it('names a child sheet after its report sheet and its label, cut to the limit', () => {
    const items = tableSpec(listing('faturas')).children[0];
    expect(childSheetName('Faturas', items)).toBe(`Faturas · ${items.label}`);
    const long = childSheetName('F'.repeat(95), items);
    expect(long).toBe(`${'F'.repeat(95)} · ${items.label}`.slice(0, SHEET_NAME_MAX));
    expect(long).toHaveLength(SHEET_NAME_MAX);
  });

  it('marks a partial sheet with words a person reads', () => {
    expect(PARTIAL_MARK).toBe('⚠ INCOMPLETO · ');
  });
});
