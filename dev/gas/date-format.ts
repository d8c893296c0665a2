/**
 * Utilities.formatDate / parseDate take Java SimpleDateFormat patterns and an
 * explicit time zone; a fake that ignores the zone shows São Paulo dates a day
 * off, which is exactly the bug we need to see.
 */
import { fromWallClock, offsetAt, wallClock } from './tz';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

type Token = { kind: 'field'; letter: string; count: number } | { kind: 'literal'; text: string };

export function tokenizeJavaPattern(pattern: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < pattern.length) {
    const ch = pattern[i];
    if (ch === "'") {
      if (pattern[i + 1] === "'") {
        tokens.push({ kind: 'literal', text: "'" });
        i += 2;
        continue;
      }
      let j = i + 1;
      let text = '';
      while (j < pattern.length) {
        if (pattern[j] === "'" && pattern[j + 1] === "'") {
          text += "'";
          j += 2;
        } else if (pattern[j] === "'") break;
        else text += pattern[j++];
      }
      tokens.push({ kind: 'literal', text });
      i = j + 1;
    } else if (/[A-Za-z]/.test(ch)) {
      let j = i;
      while (pattern[j] === ch) j++;
      if (!'GyYMLwWDdFEuaHkKhmsSzZX'.includes(ch)) throw new Error(`Illegal pattern character '${ch}'`);
      tokens.push({ kind: 'field', letter: ch, count: j - i });
      i = j;
    } else {
      tokens.push({ kind: 'literal', text: ch });
      i++;
    }
  }
  return tokens;
}

const pad = (n: number, width: number): string => String(Math.abs(n)).padStart(width, '0');

function formatOffset(offsetMs: number, style: 'Z' | 'X1' | 'X2' | 'X3'): string {
  const total = Math.round(offsetMs / 60000);
  if (style.startsWith('X') && total === 0) return 'Z';
  const sign = total < 0 ? '-' : '+';
  const h = pad(Math.floor(Math.abs(total) / 60), 2);
  const m = pad(Math.abs(total) % 60, 2);
  if (style === 'X1') return `${sign}${h}`;
  if (style === 'X3') return `${sign}${h}:${m}`;
  return `${sign}${h}${m}`;
}

function zoneName(ms: number, tz: string, long: boolean): string {
  const part = new Intl.DateTimeFormat('en-US', { timeZone: tz, timeZoneName: long ? 'long' : 'short' })
    .formatToParts(new Date(ms))
    .find((p) => p.type === 'timeZoneName');
  return part?.value ?? tz;
}

export function formatJavaDate(ms: number, tz: string, pattern: string): string {
  const w = wallClock(ms, tz);
  let out = '';
  for (const t of tokenizeJavaPattern(pattern)) {
    if (t.kind === 'literal') {
      out += t.text;
      continue;
    }
    const n = t.count;
    switch (t.letter) {
      case 'G':
        out += w.year > 0 ? 'AD' : 'BC';
        break;
      case 'y':
      case 'Y':
        out += n === 2 ? pad(w.year % 100, 2) : pad(w.year, n);
        break;
      case 'M':
      case 'L':
        out += n >= 4 ? MONTHS[w.month - 1] : n === 3 ? MONTHS[w.month - 1].slice(0, 3) : pad(w.month, n);
        break;
      case 'd':
        out += pad(w.day, n);
        break;
      case 'D': {
        const start = Date.UTC(w.year, 0, 1);
        out += pad(Math.round((Date.UTC(w.year, w.month - 1, w.day) - start) / 86400000) + 1, n);
        break;
      }
      case 'E':
        out += n >= 4 ? DAYS[w.weekday] : DAYS[w.weekday].slice(0, 3);
        break;
      case 'u':
        out += pad(w.weekday === 0 ? 7 : w.weekday, n);
        break;
      case 'F':
        out += pad(Math.floor((w.day - 1) / 7) + 1, n);
        break;
      case 'w':
      case 'W': {
        // ISO-ish week numbers are rarely used in our formats; kept simple on purpose.
        const first = new Date(Date.UTC(w.year, 0, 1)).getUTCDay();
        const doy = Math.round((Date.UTC(w.year, w.month - 1, w.day) - Date.UTC(w.year, 0, 1)) / 86400000);
        out += pad(
          t.letter === 'w' ? Math.floor((doy + first) / 7) + 1 : Math.floor((w.day - 1 + new Date(Date.UTC(w.year, w.month - 1, 1)).getUTCDay()) / 7) + 1,
          n,
        );
        break;
      }
      case 'a':
        out += w.hour < 12 ? 'AM' : 'PM';
        break;
      case 'H':
        out += pad(w.hour, n);
        break;
      case 'k':
        out += pad(w.hour === 0 ? 24 : w.hour, n);
        break;
      case 'K':
        out += pad(w.hour % 12, n);
        break;
      case 'h':
        out += pad(w.hour % 12 === 0 ? 12 : w.hour % 12, n);
        break;
      case 'm':
        out += pad(w.minute, n);
        break;
      case 's':
        out += pad(w.second, n);
        break;
      case 'S':
        out += pad(w.millisecond, Math.max(n, 3)).slice(0, Math.max(n, 3));
        break;
      case 'z':
        out += zoneName(ms, tz, n >= 4);
        break;
      case 'Z':
        out += formatOffset(offsetAt(ms, tz), 'Z');
        break;
      case 'X':
        out += formatOffset(offsetAt(ms, tz), n === 1 ? 'X1' : n === 2 ? 'X2' : 'X3');
        break;
    }
  }
  return out;
}

/** Java's SimpleDateFormat.parse (lenient about nothing): returns epoch ms or throws "Unparseable date". */
export function parseJavaDate(text: string, tz: string, pattern: string): number {
  const fail = (): never => {
    throw new Error(`Unparseable date: "${text}"`);
  };
  let pos = 0;
  let year = 1970;
  let month = 1;
  let day = 1;
  let hour = 0;
  let minute = 0;
  let second = 0;
  let milli = 0;
  let pm: boolean | undefined;
  let offset: number | undefined;
  const tokens = tokenizeJavaPattern(pattern);
  const readNumber = (maxLen: number): number => {
    const m = /^[+-]?\d+/.exec(text.slice(pos, pos + maxLen));
    if (!m) fail();
    pos += m![0].length;
    return Number(m![0]);
  };
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.kind === 'literal') {
      if (text.slice(pos, pos + t.text.length) !== t.text) fail();
      pos += t.text.length;
      continue;
    }
    // Adjacent numeric fields ("yyyyMMdd") need fixed widths.
    const next = tokens[i + 1];
    const width = next && next.kind === 'field' ? t.count : 20;
    switch (t.letter) {
      case 'y':
      case 'Y': {
        const start = pos;
        year = readNumber(width);
        if (pos - start <= 2 && t.count <= 2) year += year < 50 ? 2000 : 1900;
        break;
      }
      case 'M':
      case 'L':
        if (t.count >= 3) {
          const rest = text.slice(pos).toLowerCase();
          const idx = MONTHS.findIndex((m) => rest.startsWith(m.toLowerCase()));
          const idx3 = idx >= 0 ? idx : MONTHS.findIndex((m) => rest.startsWith(m.slice(0, 3).toLowerCase()));
          if (idx3 < 0) fail();
          pos += idx >= 0 ? MONTHS[idx].length : 3;
          month = idx3 + 1;
        } else month = readNumber(width);
        break;
      case 'd':
        day = readNumber(width);
        break;
      case 'H':
      case 'k':
        hour = readNumber(width);
        break;
      case 'h':
      case 'K':
        hour = readNumber(width);
        break;
      case 'm':
        minute = readNumber(width);
        break;
      case 's':
        second = readNumber(width);
        break;
      case 'S':
        milli = readNumber(width);
        break;
      case 'a': {
        const ap = text.slice(pos, pos + 2).toUpperCase();
        if (ap !== 'AM' && ap !== 'PM') fail();
        pm = ap === 'PM';
        pos += 2;
        break;
      }
      case 'E': {
        const rest = text.slice(pos).toLowerCase();
        const full = DAYS.find((d) => rest.startsWith(d.toLowerCase()));
        const short = DAYS.find((d) => rest.startsWith(d.slice(0, 3).toLowerCase()));
        if (!full && !short) fail();
        pos += full ? full.length : 3;
        break;
      }
      case 'Z':
      case 'X':
      case 'z': {
        const m = /^(Z)|^([+-])(\d{2}):?(\d{2})?/.exec(text.slice(pos));
        if (!m) fail();
        pos += m![0].length;
        offset = m![1] ? 0 : (m![2] === '-' ? -1 : 1) * (Number(m![3]) * 60 + Number(m![4] ?? 0)) * 60000;
        break;
      }
      default:
        readNumber(width);
    }
  }
  if (pm !== undefined) hour = (hour % 12) + (pm ? 12 : 0);
  if (offset !== undefined) {
    const d = new Date(0);
    d.setUTCFullYear(year, month - 1, day);
    d.setUTCHours(hour, minute, second, milli);
    return d.getTime() - offset;
  }
  // SimpleDateFormat is lenient by default: 31/02 rolls into March, as it does here.
  return fromWallClock(tz, year, month, day, hour, minute, second, milli);
}
