/**
 * How Sheets stores what a script writes. Strings are read as if typed into the
 * cell (numbers, dates, booleans, formulas) unless the cell's format is plain
 * text "@"; dates are day serials on the spreadsheet's wall clock, and only the
 * cell's number format makes getValues() hand them back as Dates.
 */
import { isDate } from './realm';
import { localeRules } from './locale';
import { fromWallClock, utcOf, wallClock } from './tz';
import { isDateFormat } from './format-sections';

export interface Formula {
  formula: string;
}
export type Stored = null | number | string | boolean | Formula;

export const isFormula = (v: Stored): v is Formula => v !== null && typeof v === 'object';

/** What a formula shows when it cannot be read (Sheets: "Formula parse error"); see formula.ts for the rest. */
export const FORMULA_PLACEHOLDER = '#ERROR!';

export const MAX_CELL_CHARS = 50_000;

const DAY_MS = 86_400_000;
const SERIAL_EPOCH = utcOf(1899, 12, 30);

export const DEFAULT_DATE_TIME_FORMAT = 'dd/MM/yyyy HH:mm:ss';

export function dateToSerial(ms: number, tz: string): number {
  const w = wallClock(ms, tz);
  return (utcOf(w.year, w.month, w.day, w.hour, w.minute, w.second, w.millisecond) - SERIAL_EPOCH) / DAY_MS;
}

export function serialToMs(serial: number, tz: string): number {
  const wallMs = Math.round(SERIAL_EPOCH + serial * DAY_MS);
  const d = new Date(wallMs);
  return fromWallClock(
    tz,
    d.getUTCFullYear(),
    d.getUTCMonth() + 1,
    d.getUTCDate(),
    d.getUTCHours(),
    d.getUTCMinutes(),
    d.getUTCSeconds(),
    d.getUTCMilliseconds(),
  );
}

/** Wall-clock parts of a serial, for display (no zone involved: the serial is already wall time). */
export function serialParts(serial: number): { year: number; month: number; day: number; hour: number; minute: number; second: number; weekday: number } {
  const d = new Date(Math.round(SERIAL_EPOCH + serial * DAY_MS));
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
    weekday: d.getUTCDay(),
  };
}

const wallSerial = (y: number, mo: number, d: number, h = 0, mi = 0, s = 0): number => (utcOf(y, mo, d, h, mi, s) - SERIAL_EPOCH) / DAY_MS;

function validDate(y: number, mo: number, d: number, h = 0, mi = 0, s = 0): boolean {
  if (mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || s > 59) return false;
  const dt = new Date(utcOf(y, mo, d));
  return dt.getUTCDate() === d && dt.getUTCMonth() === mo - 1;
}

export interface Parsed {
  value: Stored;
  /** The number format Sheets applies on its own when it recognises a date, a currency or a percentage. */
  format?: string;
}

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A string as Sheets reads it when typed into a cell whose format is not "@". */
export function parseTypedInput(raw: string, locale: string, currentYear: () => number): Parsed {
  if (raw === '') return { value: null };
  if (raw.startsWith("'")) return { value: raw.slice(1) };
  if (raw.startsWith('=') && raw.length > 1) return { value: { formula: raw } };
  const s = raw.trim();
  const rules = localeRules(locale);
  const upper = s.toUpperCase();
  if (upper === 'TRUE' || upper === rules.trueWord) return { value: true };
  if (upper === 'FALSE' || upper === rules.falseWord) return { value: false };

  const D = escapeRe(rules.decimal);
  const G = escapeRe(rules.group);
  const num = new RegExp(`^([+-])?\\s*(R\\$|\\$|€)?\\s*(\\d{1,3}(?:${G}\\d{3})+|\\d+)?(?:${D}(\\d+))?(?:[eE]([+-]?\\d+))?\\s*(%)?$`);
  const m = num.exec(s);
  if (m && (m[3] !== undefined || m[4] !== undefined)) {
    const intPart = (m[3] ?? '0').split(rules.group).join('');
    let n = Number(`${intPart}.${m[4] ?? '0'}${m[5] ? `e${m[5]}` : ''}`);
    if (m[1] === '-') n = -n;
    if (m[6]) return { value: n / 100, format: m[4] ? '0.00%' : '0%' };
    if (m[2]) return { value: n, format: `"${m[2]}" #,##0.00` };
    return { value: n };
  }

  const time = '(?:\\s+(\\d{1,2}):(\\d{2})(?::(\\d{2}))?)?';
  let d = new RegExp(`^(\\d{1,2})[/-](\\d{1,2})[/-](\\d{4}|\\d{2})${time}$`).exec(s);
  if (d) {
    const [a, b] = [Number(d[1]), Number(d[2])];
    const [day, month] = rules.dayFirst ? [a, b] : [b, a];
    let year = Number(d[3]);
    if (d[3].length === 2) year += year < 30 ? 2000 : 1900;
    const [h, mi, sec] = [Number(d[4] ?? 0), Number(d[5] ?? 0), Number(d[6] ?? 0)];
    if (validDate(year, month, day, h, mi, sec)) {
      return { value: wallSerial(year, month, day, h, mi, sec), format: d[4] ? DEFAULT_DATE_TIME_FORMAT : rules.dayFirst ? 'dd/MM/yyyy' : 'M/d/yyyy' };
    }
  }
  d = new RegExp(`^(\\d{4})-(\\d{1,2})-(\\d{1,2})${time}$`).exec(s);
  if (d && validDate(Number(d[1]), Number(d[2]), Number(d[3]), Number(d[4] ?? 0), Number(d[5] ?? 0), Number(d[6] ?? 0))) {
    return {
      value: wallSerial(Number(d[1]), Number(d[2]), Number(d[3]), Number(d[4] ?? 0), Number(d[5] ?? 0), Number(d[6] ?? 0)),
      format: d[4] ? 'yyyy-MM-dd HH:mm:ss' : 'yyyy-MM-dd',
    };
  }
  d = /^(\d{1,2})\/(\d{4})$/.exec(s);
  if (d && validDate(Number(d[2]), Number(d[1]), 1)) return { value: wallSerial(Number(d[2]), Number(d[1]), 1), format: 'MM/yyyy' };
  d = /^(\d{1,2})\/(\d{1,2})$/.exec(s);
  if (d) {
    const [day, month] = rules.dayFirst ? [Number(d[1]), Number(d[2])] : [Number(d[2]), Number(d[1])];
    const year = currentYear();
    if (validDate(year, month, day)) return { value: wallSerial(year, month, day), format: rules.dayFirst ? 'dd/MM' : 'M/d' };
  }
  d = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(s);
  if (d && Number(d[1]) < 24 && Number(d[2]) < 60 && Number(d[3] ?? 0) < 60) {
    return { value: (Number(d[1]) * 3600 + Number(d[2]) * 60 + Number(d[3] ?? 0)) / 86400, format: d[3] ? 'HH:mm:ss' : 'HH:mm' };
  }
  return { value: raw };
}

export interface WriteContext {
  format: string | undefined;
  locale: string;
  timeZone: string;
  /** Asked only when a day and month are typed without a year. */
  currentYear: () => number;
}

/** What a value written by setValue/setValues becomes; throws the message Apps Script would. */
export function fromScriptValue(v: unknown, ctx: WriteContext): Parsed {
  if (v === null || v === undefined) return { value: null };
  if (typeof v === 'number') return { value: Number.isFinite(v) ? v : String(v) };
  if (typeof v === 'boolean') return { value: v };
  if (isDate(v)) {
    const ms = v.getTime();
    if (Number.isNaN(ms)) return { value: 'Invalid Date' };
    const serial = dateToSerial(ms, ctx.timeZone);
    const keep = ctx.format !== undefined && (ctx.format === '@' || isDateFormat(ctx.format));
    return keep ? { value: serial } : { value: serial, format: DEFAULT_DATE_TIME_FORMAT };
  }
  const s = typeof v === 'string' ? v : String(v);
  if (s.length > MAX_CELL_CHARS) throw new Error(`Your input contains more than the maximum of ${MAX_CELL_CHARS} characters in a single cell.`);
  if (ctx.format === '@') return { value: s === '' ? null : s };
  return parseTypedInput(s, ctx.locale, ctx.currentYear);
}
