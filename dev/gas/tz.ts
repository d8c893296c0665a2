/** Wall-clock parts in an IANA time zone, via Intl (Node ships full ICU). */

export interface WallClock {
  year: number;
  month: number; // 1-12
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
  /** 0 = Sunday */
  weekday: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      weekday: 'short',
      era: 'short',
    });
    formatters.set(tz, f);
  }
  return f;
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

export function isValidTimeZone(tz: string): boolean {
  try {
    formatter(tz);
    return true;
  } catch {
    return false;
  }
}

/** Instants already read, per zone: a sheet's dates repeat, and Intl is slow enough to dominate long runs. */
const known = new Map<string, Map<number, Readonly<WallClock>>>();
const KNOWN_PER_ZONE = 50_000;

export function wallClock(ms: number, tz: string): Readonly<WallClock> {
  let zone = known.get(tz);
  if (!zone) known.set(tz, (zone = new Map()));
  let w = zone.get(ms);
  if (!w) {
    w = Object.freeze(readWallClock(ms, tz));
    if (zone.size >= KNOWN_PER_ZONE) zone.clear();
    zone.set(ms, w);
  }
  return w;
}

function readWallClock(ms: number, tz: string): WallClock {
  const parts: Record<string, string> = {};
  for (const p of formatter(tz).formatToParts(new Date(ms))) parts[p.type] = p.value;
  const year = parts.era === 'BC' ? 1 - Number(parts.year) : Number(parts.year);
  return {
    year,
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
    millisecond: ((ms % 1000) + 1000) % 1000,
    weekday: WEEKDAYS.indexOf(parts.weekday),
  };
}

/** Offset of `tz` from UTC at instant `ms`, in ms (São Paulo today: -3 h; in 1899: -3:06:28). */
export function offsetAt(ms: number, tz: string): number {
  const w = wallClock(ms, tz);
  return utcOf(w.year, w.month, w.day, w.hour, w.minute, w.second, w.millisecond) - ms;
}

/** The instant whose wall clock in `tz` reads the given parts (earlier instant on DST overlaps). */
export function fromWallClock(tz: string, year: number, month: number, day: number, hour = 0, minute = 0, second = 0, millisecond = 0): number {
  const guess = utcOf(year, month, day, hour, minute, second, millisecond);
  let result = guess - offsetAt(guess, tz);
  const second2 = guess - offsetAt(result, tz);
  if (second2 !== result) result = Math.min(result, second2);
  return result;
}

/** Date.UTC without its two-digit-year quirk; months and days may overflow. */
export function utcOf(year: number, month: number, day: number, hour = 0, minute = 0, second = 0, millisecond = 0): number {
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  d.setUTCHours(hour, minute, second, millisecond);
  return d.getTime();
}
