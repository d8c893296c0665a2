/**
 * getDisplayValues(): a cell's value rendered through its number format, the
 * way the Sheets UI shows it (pt_BR: decimal comma, dot grouping). Supports the
 * formats the add-on writes: General, "@", 0, 0.00, #,##0.00, currency with a
 * quoted or [$..] symbol, percentages, and date/time patterns.
 */
import { localeRules } from './locale';
import { isDateFormat, splitSections } from './format-sections';
import { FORMULA_PLACEHOLDER, isFormula, serialParts, type Stored } from './values';

export { isDateFormat };

type DatePart = { kind: 'lit'; text: string } | { kind: 'tok'; letter: string; count: number };

function dateTokens(format: string): DatePart[] {
  const parts: DatePart[] = [];
  for (let i = 0; i < format.length; ) {
    const ch = format[i];
    if (ch === '"') {
      const end = format.indexOf('"', i + 1);
      parts.push({ kind: 'lit', text: format.slice(i + 1, end < 0 ? undefined : end) });
      i = end < 0 ? format.length : end + 1;
    } else if (ch === '\\') {
      parts.push({ kind: 'lit', text: format[i + 1] ?? '' });
      i += 2;
    } else if (ch === '[') {
      const end = format.indexOf(']', i);
      i = end < 0 ? format.length : end + 1;
    } else if (/^(AM\/PM|A\/P)/i.test(format.slice(i))) {
      const len = /^AM\/PM/i.test(format.slice(i)) ? 5 : 3;
      parts.push({ kind: 'tok', letter: 'ampm', count: len });
      i += len;
    } else if (/[dDmMyYhHsS]/.test(ch)) {
      let j = i;
      while (j < format.length && format[j].toLowerCase() === ch.toLowerCase()) j++;
      parts.push({ kind: 'tok', letter: ch.toLowerCase(), count: j - i });
      i = j;
    } else {
      parts.push({ kind: 'lit', text: ch });
      i++;
    }
  }
  // "m"/"mm" are minutes next to hours or seconds, months elsewhere.
  const toks = parts.filter((p): p is Extract<DatePart, { kind: 'tok' }> => p.kind === 'tok');
  toks.forEach((t, k) => {
    if (t.letter !== 'm' || t.count > 2) return;
    if (toks[k - 1]?.letter === 'h' || toks[k + 1]?.letter === 's') t.letter = 'min';
  });
  return parts;
}

const pad = (n: number, w: number): string => String(n).padStart(w, '0');

function monthName(month: number, long: boolean, locale: string): string {
  return new Intl.DateTimeFormat(locale.replace('_', '-'), { month: long ? 'long' : 'short', timeZone: 'UTC' }).format(new Date(Date.UTC(2000, month - 1, 1)));
}

function weekdayName(weekday: number, long: boolean, locale: string): string {
  return new Intl.DateTimeFormat(locale.replace('_', '-'), { weekday: long ? 'long' : 'short', timeZone: 'UTC' }).format(
    new Date(Date.UTC(2000, 0, 2 + weekday)),
  );
}

function formatDateSerial(serial: number, format: string, locale: string): string {
  const p = serialParts(serial);
  const parts = dateTokens(splitSections(format)[0].raw);
  const twelve = parts.some((t) => t.kind === 'tok' && t.letter === 'ampm');
  let out = '';
  for (const t of parts) {
    if (t.kind === 'lit') {
      out += t.text;
      continue;
    }
    switch (t.letter) {
      case 'y':
        out += t.count <= 2 ? pad(p.year % 100, 2) : String(p.year);
        break;
      case 'm':
        out += t.count >= 4 ? monthName(p.month, true, locale) : t.count === 3 ? monthName(p.month, false, locale) : pad(p.month, t.count);
        break;
      case 'min':
        out += pad(p.minute, t.count);
        break;
      case 'd':
        out += t.count >= 4 ? weekdayName(p.weekday, true, locale) : t.count === 3 ? weekdayName(p.weekday, false, locale) : pad(p.day, t.count);
        break;
      case 'h': {
        const h = twelve ? (p.hour % 12 === 0 ? 12 : p.hour % 12) : p.hour;
        out += pad(h, t.count);
        break;
      }
      case 's':
        out += pad(p.second, t.count);
        break;
      case 'ampm':
        out += t.count === 5 ? (p.hour < 12 ? 'AM' : 'PM') : p.hour < 12 ? 'A' : 'P';
        break;
    }
  }
  return out;
}

function groupDigits(int: string, sep: string): string {
  return int.replace(/\B(?=(\d{3})+(?!\d))/g, sep);
}

function formatGeneral(n: number, locale: string): string {
  const r = localeRules(locale);
  if (Number.isInteger(n) && Math.abs(n) < 1e15) return String(n);
  if (Math.abs(n) >= 1e15 || (n !== 0 && Math.abs(n) < 1e-9))
    return n
      .toExponential(5)
      .replace(/\.?0+e/, 'e')
      .replace('e', 'E')
      .replace('.', r.decimal);
  return String(Number(n.toPrecision(10))).replace('.', r.decimal);
}

function formatNumberSection(n: number, section: string, locale: string, withSign: boolean): string {
  const r = localeRules(locale);
  // Split into literal prefix, the digit pattern, and literal suffix.
  let prefix = '';
  let suffix = '';
  let pattern = '';
  let percent = false;
  let inPattern = false;
  let done = false;
  for (let i = 0; i < section.length; i++) {
    const ch = section[i];
    let lit: string | null = null;
    if (ch === '"') {
      const end = section.indexOf('"', i + 1);
      lit = section.slice(i + 1, end < 0 ? undefined : end);
      i = end < 0 ? section.length : end;
    } else if (ch === '\\') {
      lit = section[++i] ?? '';
    } else if (ch === '[') {
      const end = section.indexOf(']', i);
      const inside = section.slice(i + 1, end < 0 ? undefined : end);
      lit = inside.startsWith('$') ? inside.slice(1).split('-')[0] : '';
      i = end < 0 ? section.length : end;
    } else if (ch === '_') {
      lit = ' ';
      i++;
    } else if (ch === '*') {
      lit = '';
      i++;
    } else if (!done && /[0#?.,]/.test(ch)) {
      inPattern = true;
      pattern += ch;
      continue;
    } else {
      if (ch === '%') percent = true;
      lit = ch;
    }
    if (inPattern) done = true;
    if (done) suffix += lit;
    else prefix += lit;
  }
  const [intPat, fracPat = ''] = pattern.split('.');
  const decimals = (fracPat.match(/[0#?]/g) ?? []).length;
  const minDecimals = (fracPat.match(/0/g) ?? []).length;
  const minInt = (intPat.match(/0/g) ?? []).length;
  const grouping = intPat.includes(',') && /[0#?],+[0#?]/.test(intPat);
  const value = Math.abs(n) * (percent ? 100 : 1);
  let [int, frac = ''] = value.toFixed(decimals).split('.');
  while (frac.length > minDecimals && frac.endsWith('0')) frac = frac.slice(0, -1);
  if (minInt === 0 && int === '0') int = '';
  else int = int.padStart(minInt, '0');
  if (grouping) int = groupDigits(int, r.group);
  const sign = withSign && n < 0 && Number(value.toFixed(decimals)) !== 0 ? '-' : '';
  return `${sign}${prefix}${int}${frac ? r.decimal + frac : ''}${suffix}`;
}

export function formatNumber(n: number, format: string | undefined, locale: string): string {
  if (!format || format === '@' || format.toLowerCase() === 'general') return formatGeneral(n, locale);
  if (isDateFormat(format)) return formatDateSerial(n, format, locale);
  const sections = splitSections(format).map((s) => s.raw);
  if (n < 0 && sections.length >= 2) return formatNumberSection(n, sections[1], locale, false);
  if (n === 0 && sections.length >= 3) return formatNumberSection(n, sections[2], locale, false);
  return formatNumberSection(n, sections[0], locale, true);
}

export function displayValue(value: Stored, format: string | undefined, locale: string): string {
  if (value === null) return '';
  if (isFormula(value)) return FORMULA_PLACEHOLDER;
  if (typeof value === 'boolean') {
    const r = localeRules(locale);
    return value ? r.trueWord : r.falseWord;
  }
  if (typeof value === 'string') return value;
  return formatNumber(value, format, locale);
}
