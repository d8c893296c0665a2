/**
 * A small formula evaluator: what accountants type for a price adjustment, and
 * no more. Sheets returns a formula's computed value from getValues() and the
 * formula from getFormulas(); values are recomputed on every read (nothing is
 * cached that an edit could leave stale). English syntax, as Apps Script's
 * setFormula takes it (commas between arguments).
 *
 * Covered: numbers, "text", TRUE/FALSE, + - * / ^ & and comparisons, unary
 * minus and plus (tighter than ^, as in Sheets: =-2^2 is 4), postfix %,
 * parentheses, same-sheet A1 references and ranges (relative or absolute),
 * ROUND, ROUNDUP, ROUNDDOWN, TRUNC, SUM, AVERAGE, IF, IFERROR, MIN, MAX, ABS
 * (and their pt_BR names when typed: formula-locale.ts). Errors as Sheets shows
 * them: #REF! (outside the grid, a deleted row or column, a circular
 * dependency), #DIV/0!, #NAME? (an unknown function or name), #VALUE! (text
 * where a number is needed), #ERROR! (a formula that does not parse), #N/A.
 * A reference to another sheet is not emulated and throws, rather than giving
 * a value Sheets would not.
 *
 * Structural edits move references as Sheets does: inserting or deleting rows
 * and columns rewrites every reference (a deleted target becomes #REF!);
 * sorting moves a formula like a cut-and-paste of its row, so its relative
 * references keep pointing at the same relative cells.
 */
import { columnLetters } from './a1';
import type { SheetModel } from './spreadsheet-model';
import { isFormula, type Stored } from './values';

export type Computed = null | number | string | boolean;

export const ERRORS = ['#REF!', '#DIV/0!', '#NAME?', '#VALUE!', '#ERROR!', '#N/A', '#NUM!'] as const;
export type ErrorCode = (typeof ERRORS)[number];

class FormulaError {
  constructor(readonly code: ErrorCode) {}
}

interface RangeValue {
  kind: 'range';
  cells: Array<Array<Computed | FormulaError>>;
}

type Value = Computed | FormulaError | RangeValue;

const isRange = (v: Value): v is RangeValue => typeof v === 'object' && v !== null && 'kind' in v;

// ---------------------------------------------------------------- tokens

export type Token =
  | { t: 'num'; v: number; s: string }
  | { t: 'str'; v: string; s: string }
  | { t: 'ref'; s: string; row: number; col: number; absRow: boolean; absCol: boolean }
  | { t: 'name'; v: string; s: string }
  | { t: 'op'; v: string; s: string }
  | { t: 'ws'; s: string };

const REF = /^(\$?)([A-Za-z]{1,3})(\$?)(\d+)(?![\p{L}0-9_(.])/u;
// Letters beyond ASCII: the names a pt_BR sheet offers (MÉDIA, MÍNIMO) are words like any other.
const NAME = /^[\p{L}_][\p{L}0-9_.]*/u;

/** How a formula is written: Apps Script's English syntax, or as typed in a comma-decimal locale. */
export interface FormulaSyntax {
  decimal: '.' | ',';
  separator: ',' | ';';
}
const SCRIPT_SYNTAX: FormulaSyntax = { decimal: '.', separator: ',' };

const NUMBERS = { '.': /^(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?/, ',': /^(\d+,?\d*|,\d+)([eE][+-]?\d+)?/ };

function columnNumber(letters: string): number {
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n;
}

/** Null when the text cannot be read as a formula at all (Sheets: "Formula parse error"). */
export function tokenize(body: string, syntax: FormulaSyntax = SCRIPT_SYNTAX): Token[] | null {
  const NUMBER = NUMBERS[syntax.decimal];
  const OP = syntax.separator === ';' ? /^(<>|<=|>=|[-+*/^&=<>%();:])/ : /^(<>|<=|>=|[-+*/^&=<>%(),:])/;
  const out: Token[] = [];
  let i = 0;
  while (i < body.length) {
    const rest = body.slice(i);
    const ch = body[i];
    let m: RegExpExecArray | null;
    if (/\s/.test(ch)) {
      const ws = /^\s+/.exec(rest)![0];
      out.push({ t: 'ws', s: ws });
      i += ws.length;
    } else if (ch === '"') {
      let j = i + 1;
      let text = '';
      for (;;) {
        if (j >= body.length) return null;
        if (body[j] === '"') {
          if (body[j + 1] === '"') {
            text += '"';
            j += 2;
            continue;
          }
          break;
        }
        text += body[j++];
      }
      out.push({ t: 'str', v: text, s: body.slice(i, j + 1) });
      i = j + 1;
    } else if (ch === "'" || /^[A-Za-z_][A-Za-z0-9_.]*!/.test(rest)) {
      throw new Error(`Emulator: references to other sheets are not emulated (formula "=${body}").`);
    } else if ((m = REF.exec(rest))) {
      out.push({ t: 'ref', s: m[0], absCol: m[1] === '$', col: columnNumber(m[2]), absRow: m[3] === '$', row: Number(m[4]) });
      i += m[0].length;
    } else if ((m = NUMBER.exec(rest))) {
      out.push({ t: 'num', v: Number(m[0].replace(',', '.')), s: m[0] });
      i += m[0].length;
    } else if ((m = NAME.exec(rest))) {
      out.push({ t: 'name', v: m[0].toUpperCase(), s: m[0] });
      i += m[0].length;
    } else if ((m = OP.exec(rest))) {
      out.push({ t: 'op', v: m[0], s: m[0] });
      i += m[0].length;
    } else if (rest.startsWith('#REF!')) {
      // What a reference becomes when its row or column is deleted.
      out.push({ t: 'name', v: '#REF!', s: '#REF!' });
      i += 5;
    } else return null;
  }
  return out;
}

// ---------------------------------------------------------------- parser

type Node =
  | { k: 'lit'; v: Computed | FormulaError }
  | { k: 'ref'; row: number; col: number }
  | { k: 'range'; row: number; col: number; row2: number; col2: number }
  | { k: 'un'; op: string; a: Node }
  | { k: 'pct'; a: Node }
  | { k: 'bin'; op: string; a: Node; b: Node }
  | { k: 'call'; name: string; args: Node[] };

class ParseError extends Error {}

/** Whether English-syntax tokens make a formula (Sheets would not refuse it as a parse error). */
export function parses(tokens: Token[]): boolean {
  try {
    parse(tokens);
    return true;
  } catch (err) {
    if (err instanceof ParseError) return false;
    throw err;
  }
}

function parse(tokens: Token[]): Node {
  const ts = tokens.filter((t) => t.t !== 'ws');
  let p = 0;
  const peek = (): Token | undefined => ts[p];
  const isOp = (v: string): boolean => {
    const t = ts[p];
    return t !== undefined && t.t === 'op' && t.v === v;
  };
  const expect = (v: string): void => {
    if (!isOp(v)) throw new ParseError(v);
    p++;
  };
  const binary = (ops: readonly string[], next: () => Node) => (): Node => {
    let a = next();
    while (p < ts.length && ts[p].t === 'op' && ops.includes((ts[p] as { v: string }).v)) {
      const op = (ts[p++] as { v: string }).v;
      a = { k: 'bin', op, a, b: next() };
    }
    return a;
  };
  const primary = (): Node => {
    const t = peek();
    if (!t) throw new ParseError('end');
    p++;
    if (t.t === 'num') return { k: 'lit', v: t.v };
    if (t.t === 'str') return { k: 'lit', v: t.v };
    if (t.t === 'ref') {
      if (isOp(':')) {
        p++;
        const u = ts[p++];
        if (u?.t !== 'ref') throw new ParseError('range');
        return { k: 'range', row: Math.min(t.row, u.row), col: Math.min(t.col, u.col), row2: Math.max(t.row, u.row), col2: Math.max(t.col, u.col) };
      }
      return { k: 'ref', row: t.row, col: t.col };
    }
    if (t.t === 'name') {
      if (isOp('(')) {
        p++;
        const args: Node[] = [];
        if (!isOp(')')) {
          for (;;) {
            args.push(comparison());
            if (isOp(',')) {
              p++;
              continue;
            }
            break;
          }
        }
        expect(')');
        return { k: 'call', name: t.v, args };
      }
      if (t.v === 'TRUE') return { k: 'lit', v: true };
      if (t.v === 'FALSE') return { k: 'lit', v: false };
      if (t.v === '#REF!') return { k: 'lit', v: new FormulaError('#REF!') };
      return { k: 'lit', v: new FormulaError('#NAME?') };
    }
    if (t.t === 'op' && t.v === '(') {
      const inner = comparison();
      expect(')');
      return inner;
    }
    throw new ParseError(t.s);
  };
  const postfix = (): Node => {
    let a = primary();
    while (isOp('%')) {
      p++;
      a = { k: 'pct', a };
    }
    return a;
  };
  const unary = (): Node => {
    if (isOp('-') || isOp('+')) {
      const op = (ts[p++] as { v: string }).v;
      return { k: 'un', op, a: unary() };
    }
    return postfix();
  };
  const power = binary(['^'], unary);
  const product = binary(['*', '/'], power);
  const sum = binary(['+', '-'], product);
  const concat = binary(['&'], sum);
  const comparison: () => Node = binary(['=', '<>', '<', '>', '<=', '>='], concat);
  const root = comparison();
  if (p !== ts.length) throw new ParseError(ts[p].s);
  return root;
}

// ---------------------------------------------------------------- evaluation

const isError = (v: unknown): v is FormulaError => v instanceof FormulaError;

function toNumber(v: Value): number | FormulaError {
  if (isError(v)) return v;
  if (isRange(v)) return v.cells.length === 1 && v.cells[0].length === 1 ? toNumber(v.cells[0][0]) : new FormulaError('#VALUE!');
  if (v === null || v === '') return 0;
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  const n = Number(v.trim());
  return v.trim() !== '' && Number.isFinite(n) ? n : new FormulaError('#VALUE!');
}

function toText(v: Value): string | FormulaError {
  if (isError(v)) return v;
  if (isRange(v)) return v.cells.length === 1 && v.cells[0].length === 1 ? toText(v.cells[0][0]) : new FormulaError('#VALUE!');
  if (v === null) return '';
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  return String(v);
}

function single(v: Value | FormulaError): Computed | FormulaError {
  if (!isRange(v)) return v;
  return v.cells.length === 1 && v.cells[0].length === 1 ? v.cells[0][0] : new FormulaError('#VALUE!');
}

function toBoolean(v: Value): boolean | FormulaError {
  const s = single(v);
  if (isError(s)) return s;
  if (typeof s === 'boolean') return s;
  if (s === null || s === '') return false;
  if (typeof s === 'number') return s !== 0;
  const upper = s.toUpperCase();
  if (upper === 'TRUE') return true;
  if (upper === 'FALSE') return false;
  return new FormulaError('#VALUE!');
}

/** Sheets' order across types: numbers < text < booleans; a blank takes the other side's type. */
function compare(a: Computed, b: Computed): number {
  const blankOf = (other: Computed): Computed => (typeof other === 'string' ? '' : typeof other === 'boolean' ? false : 0);
  const x = a === null ? blankOf(b) : a;
  const y = b === null ? blankOf(a) : b;
  const rank = (v: Computed) => (typeof v === 'number' ? 0 : typeof v === 'string' ? 1 : 2);
  if (rank(x) !== rank(y)) return rank(x) - rank(y);
  if (typeof x === 'string' && typeof y === 'string') {
    const [p, q] = [x.toLowerCase(), y.toLowerCase()];
    return p < q ? -1 : p > q ? 1 : 0;
  }
  return Number(x) - Number(y);
}

/** Decimal rounding as Sheets does it: on the number as 15 significant digits, half away from zero. */
function roundTo(x: number, digits: number, how: 'half' | 'up' | 'down'): number {
  const d = Math.trunc(digits);
  const sign = x < 0 ? -1 : 1;
  const scaled = Number((Math.abs(x) * 10 ** d).toPrecision(15));
  const whole = how === 'half' ? Math.floor(scaled + 0.5) : how === 'up' ? Math.ceil(scaled) : Math.floor(scaled);
  const out = d >= 0 ? whole / 10 ** d : whole * 10 ** -d;
  return sign * Number(out.toPrecision(15)) || 0;
}

type Cells = (row: number, col: number) => Computed | FormulaError;

function numbersOf(args: Value[]): number[] | FormulaError {
  const out: number[] = [];
  for (const a of args) {
    if (isError(a)) return a;
    if (isRange(a)) {
      // Inside a range only numbers count: text, booleans and blanks are skipped; an error stops the sum.
      for (const row of a.cells)
        for (const c of row) {
          if (isError(c)) return c;
          if (typeof c === 'number') out.push(c);
        }
      continue;
    }
    const n = toNumber(a);
    if (isError(n)) return n;
    out.push(n);
  }
  return out;
}

function call(name: string, args: Node[], ev: (n: Node) => Value): Value {
  const arity = (min: number, max: number): FormulaError | null => (args.length < min || args.length > max ? new FormulaError('#N/A') : null);
  switch (name) {
    case 'ROUND':
    case 'ROUNDUP':
    case 'ROUNDDOWN':
    case 'TRUNC': {
      const bad = arity(1, 2);
      if (bad) return bad;
      const x = toNumber(ev(args[0]));
      const d = args[1] ? toNumber(ev(args[1])) : 0;
      if (isError(x)) return x;
      if (isError(d)) return d;
      return roundTo(x, d, name === 'ROUND' ? 'half' : name === 'ROUNDUP' ? 'up' : 'down');
    }
    case 'SUM':
    case 'MIN':
    case 'MAX': {
      const ns = numbersOf(args.map(ev));
      if (isError(ns)) return ns;
      if (name === 'SUM') return ns.reduce((s, n) => s + n, 0);
      if (ns.length === 0) return 0;
      return name === 'MIN' ? Math.min(...ns) : Math.max(...ns);
    }
    case 'AVERAGE': {
      const ns = numbersOf(args.map(ev));
      if (isError(ns)) return ns;
      return ns.length === 0 ? new FormulaError('#DIV/0!') : ns.reduce((s, n) => s + n, 0) / ns.length;
    }
    case 'IFERROR': {
      const bad = arity(1, 2);
      if (bad) return bad;
      const v = single(ev(args[0]));
      if (!isError(v)) return v;
      return args[1] ? single(ev(args[1])) : '';
    }
    case 'ABS': {
      const bad = arity(1, 1);
      if (bad) return bad;
      const x = toNumber(ev(args[0]));
      return isError(x) ? x : Math.abs(x);
    }
    case 'IF': {
      const bad = arity(2, 3);
      if (bad) return bad;
      const c = toBoolean(ev(args[0]));
      if (isError(c)) return c;
      if (c) return single(ev(args[1]));
      return args[2] ? single(ev(args[2])) : false;
    }
    default:
      return new FormulaError('#NAME?');
  }
}

function evaluate(node: Node, cells: Cells, maxRows: number, maxColumns: number): Value {
  const ev = (n: Node): Value => evaluate(n, cells, maxRows, maxColumns);
  switch (node.k) {
    case 'lit':
      return node.v;
    case 'ref':
      if (node.row > maxRows || node.col > maxColumns) return new FormulaError('#REF!');
      return cells(node.row, node.col);
    case 'range': {
      if (node.row2 > maxRows || node.col2 > maxColumns) return new FormulaError('#REF!');
      const out: Array<Array<Computed | FormulaError>> = [];
      for (let r = node.row; r <= node.row2; r++) {
        const row: Array<Computed | FormulaError> = [];
        for (let c = node.col; c <= node.col2; c++) row.push(cells(r, c));
        out.push(row);
      }
      return { kind: 'range', cells: out };
    }
    case 'un': {
      const x = toNumber(ev(node.a));
      if (isError(x)) return x;
      return node.op === '-' ? -x : x;
    }
    case 'pct': {
      const x = toNumber(ev(node.a));
      return isError(x) ? x : x / 100;
    }
    case 'call':
      return call(node.name, node.args, ev);
    case 'bin': {
      const a = ev(node.a);
      const b = ev(node.b);
      if (node.op === '&') {
        const x = toText(a);
        const y = toText(b);
        if (isError(x)) return x;
        if (isError(y)) return y;
        return x + y;
      }
      if (['=', '<>', '<', '>', '<=', '>='].includes(node.op)) {
        const x = single(a);
        const y = single(b);
        if (isError(x)) return x;
        if (isError(y)) return y;
        const d = compare(x, y);
        return { '=': d === 0, '<>': d !== 0, '<': d < 0, '>': d > 0, '<=': d <= 0, '>=': d >= 0 }[node.op] as boolean;
      }
      const x = toNumber(a);
      const y = toNumber(b);
      if (isError(x)) return x;
      if (isError(y)) return y;
      switch (node.op) {
        case '+':
          return x + y;
        case '-':
          return x - y;
        case '*':
          return x * y;
        case '/':
          return y === 0 ? new FormulaError('#DIV/0!') : x / y;
        default: {
          const r = x ** y;
          return Number.isFinite(r) ? r : new FormulaError('#NUM!');
        }
      }
    }
  }
}

const parsed = new Map<string, Node | null>();

function compile(formula: string): Node | null {
  let node = parsed.get(formula);
  if (node === undefined) {
    const tokens = tokenize(formula.replace(/^=/, ''));
    try {
      node = tokens ? parse(tokens) : null;
    } catch (err) {
      if (!(err instanceof ParseError)) throw err;
      node = null;
    }
    if (parsed.size > 5_000) parsed.clear();
    parsed.set(formula, node);
  }
  return node;
}

/**
 * The value a cell shows: a formula's result (recomputed now, from the cells
 * it reads), or the stored value itself. Errors come back as their text, as
 * getValues() returns them.
 */
export function computedValue(sheet: SheetModel, row: number, column: number): Computed {
  const out = computeIn(sheet, row, column, new Set());
  return isError(out) ? out.code : out;
}

function computeIn(sheet: SheetModel, row: number, column: number, visiting: Set<string>): Computed | FormulaError {
  const stored: Stored = sheet.cell(row, column)?.value ?? null;
  if (!isFormula(stored)) return stored;
  const key = `${row}:${column}`;
  // A circular dependency: Sheets shows #REF! on the cells of the cycle.
  if (visiting.has(key)) return new FormulaError('#REF!');
  const node = compile(stored.formula);
  if (!node) return new FormulaError('#ERROR!');
  visiting.add(key);
  try {
    const cells: Cells = (r, c) => computeIn(sheet, r, c, visiting);
    const v = evaluate(node, cells, sheet.maxRows, sheet.maxColumns);
    const s = single(v);
    // A formula that reads an empty cell shows 0, not a blank.
    return s === null ? 0 : s;
  } finally {
    visiting.delete(key);
  }
}

// ---------------------------------------------------------------- moving references

/** Rewrites each reference's row and column; null for one whose row or column was deleted (#REF!). */
function rewrite(formula: string, move: (t: Extract<Token, { t: 'ref' }>) => { row: number; col: number } | null): string {
  const tokens = tokenize(formula.replace(/^=/, ''));
  if (!tokens) return formula;
  const text = tokens.map((t) => {
    if (t.t !== 'ref') return t.s;
    const to = move(t);
    if (!to) return '#REF!';
    return `${t.absCol ? '$' : ''}${columnLetters(to.col)}${t.absRow ? '$' : ''}${to.row}`;
  });
  return `=${text.join('')}`;
}

/** After rows or columns were inserted, deleted or moved: every reference follows its target, absolute or not. */
export function followMove(formula: string, rows: (row: number) => number | null, columns: (column: number) => number | null): string {
  return rewrite(formula, (t) => {
    const row = rows(t.row);
    const col = columns(t.col);
    return row === null || col === null ? null : { row, col };
  });
}

/** A formula moved by `dRows` rows (a sort): relative references move with it, absolute ones stay. */
export function shiftRelative(formula: string, dRows: number): string {
  return rewrite(formula, (t) => {
    const row = t.absRow ? t.row : t.row + dRows;
    return row < 1 ? null : { row, col: t.col };
  });
}
