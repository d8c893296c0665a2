/**
 * Formulas as a person types them in the spreadsheet's locale. A pt_BR sheet
 * reads `;` between arguments, a decimal comma and, by default, Portuguese
 * function names (ARRED, SOMA, SE…); English names are still understood. Sheets
 * keeps the formula in its English form, which is what Apps Script's
 * getFormula returns and setFormula takes, so the typed text is translated once,
 * when it is entered; a formula written in the English syntax is also taken,
 * as the walk through the playground showed people do.
 */
import { localeRules } from './locale';
import { parses, type Token, tokenize } from './formula';
import type { GasEmulator } from './runner';

/** Sheets' pt_BR names of the functions the evaluator knows, and the two truth values. */
const PORTUGUESE: Record<string, string> = {
  ARRED: 'ROUND',
  'ARREDONDAR.PARA.CIMA': 'ROUNDUP',
  'ARREDONDAR.PARA.BAIXO': 'ROUNDDOWN',
  TRUNCAR: 'TRUNC',
  SOMA: 'SUM',
  MÉDIA: 'AVERAGE',
  SE: 'IF',
  SEERRO: 'IFERROR',
  MÍNIMO: 'MIN',
  MÁXIMO: 'MAX',
  ABS: 'ABS',
  VERDADEIRO: 'TRUE',
  FALSO: 'FALSE',
};

const ENGLISH = Object.fromEntries(Object.entries(PORTUGUESE).map(([pt, en]) => [en, pt]));

/** The English form of a formula typed in the locale's syntax, or null when it does not read in that syntax. */
function fromLocal(body: string): string | null {
  let tokens: Token[] | null;
  try {
    tokens = tokenize(body, { decimal: ',', separator: ';' });
  } catch {
    return null; // another sheet's reference: kept as typed, and refused when it is read
  }
  if (!tokens) return null;
  const english: Token[] = tokens.map((t) => {
    if (t.t === 'num') return { ...t, s: t.s.replace(',', '.') };
    if (t.t === 'op' && t.v === ';') return { t: 'op', v: ',', s: ',' };
    if (t.t === 'name' && PORTUGUESE[t.v]) return { t: 'name', v: PORTUGUESE[t.v], s: PORTUGUESE[t.v] };
    return t;
  });
  return parses(english) ? english.map((t) => t.s).join('') : null;
}

/**
 * What Sheets stores when a person types `raw` into a cell of a spreadsheet in
 * `locale`: a formula in the locale's syntax becomes its English form; anything
 * else is left as typed.
 */
export function typedFormula(raw: string, locale: string): string {
  if (!raw.startsWith('=') || raw.length < 2 || localeRules(locale).decimal !== ',') return raw;
  const english = fromLocal(raw.slice(1));
  return english === null ? raw : `=${english}`;
}

/** A stored (English) formula as the formula bar of a spreadsheet in `locale` shows it. */
export function shownFormula(formula: string, locale: string): string {
  if (localeRules(locale).decimal !== ',') return formula;
  let tokens: Token[] | null;
  try {
    tokens = tokenize(formula.replace(/^=/, ''));
  } catch {
    return formula;
  }
  if (!tokens) return formula;
  const local = tokens.map((t) => {
    if (t.t === 'num') return t.s.replace('.', ',');
    if (t.t === 'op' && t.v === ',') return ';';
    if (t.t === 'name' && ENGLISH[t.v]) return ENGLISH[t.v];
    return t.s;
  });
  return `=${local.join('')}`;
}

/**
 * A person typing (or pasting) a block of text into the grid from `at`, through
 * the Range API: formulas read in the spreadsheet's locale, everything else
 * parsed as typed input unless the cells are formatted as text.
 */
export function typeInto(emulator: GasEmulator, sheetName: string, at: string, rows: string[][]): void {
  const locale = emulator.spreadsheet.locale;
  const width = Math.max(...rows.map((r) => r.length));
  const block = rows.map((r) => [...r, ...Array<string>(width - r.length).fill('')].map((v) => typedFormula(v, locale)));
  emulator.withServices((s) => {
    const sheet = s.SpreadsheetApp.getActiveSpreadsheet().getSheetByName(sheetName);
    if (!sheet) throw new Error(`Aba "${sheetName}" não existe`);
    const start = sheet.getRange(at);
    sheet.getRange(start.getRow(), start.getColumn(), block.length, width).setValues(block);
  });
}
