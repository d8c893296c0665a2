/**
 * Wall-clock values in a named time zone. The service speaks local Brazilian
 * dates without a zone, and the sheet shows Dates in the spreadsheet's zone, so
 * every conversion goes through one of these, never through the host's zone.
 */
export interface WallTime {
  year: number;
  month: number; // 1-12
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** Reads the wall-clock parts of an instant in one time zone. */
export type ZoneReader = (instant: Date) => WallTime;

export interface Zone {
  readonly timeZone: string;
  wall(instant: Date): WallTime;
  /** The instant whose wall clock in this zone reads `wall` (the earlier one in a DST overlap). */
  instant(wall: Partial<WallTime> & Pick<WallTime, 'year' | 'month' | 'day'>): Date;
}

export function makeZone(timeZone: string, read: ZoneReader): Zone {
  return {
    timeZone,
    wall: read,
    instant(w) {
      const target = Date.UTC(w.year, w.month - 1, w.day, w.hour ?? 0, w.minute ?? 0, w.second ?? 0);
      // Offset search: two corrections settle every real zone (offsets change at most once near a wall time).
      let guess = target;
      for (let i = 0; i < 3; i++) {
        const seen = read(new Date(guess));
        const seenUtc = Date.UTC(seen.year, seen.month - 1, seen.day, seen.hour, seen.minute, seen.second);
        const delta = target - seenUtc;
        if (delta === 0) break;
        guess += delta;
      }
      return new Date(guess);
    },
  };
}

/**
 * Wraps a slow reader (a service call in Apps Script) so that each hour of
 * time costs one call: offsets only change on hour boundaries in practice.
 */
export function hourlyCachedReader(read: ZoneReader): ZoneReader {
  const offsets = new Map<number, number>();
  return (instant) => {
    const t = instant.getTime();
    const bucket = Math.floor(t / 3_600_000);
    let offset = offsets.get(bucket);
    if (offset === undefined) {
      const w = read(new Date(bucket * 3_600_000));
      offset = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - bucket * 3_600_000;
      offsets.set(bucket, offset);
    }
    const shifted = new Date(t + offset);
    return {
      year: shifted.getUTCFullYear(),
      month: shifted.getUTCMonth() + 1,
      day: shifted.getUTCDate(),
      hour: shifted.getUTCHours(),
      minute: shifted.getUTCMinutes(),
      second: shifted.getUTCSeconds(),
    };
  };
}

/** A Zone backed by Intl (Node, browsers and Apps Script's V8 all carry the tz database). */
export function intlZone(timeZone: string): Zone {
  const fmt = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
  return makeZone(timeZone, hourlyCachedReader((instant) => {
    const parts: Record<string, number> = {};
    for (const p of fmt.formatToParts(instant)) if (p.type !== 'literal') parts[p.type] = Number(p.value);
    return {
      year: parts.year,
      month: parts.month,
      day: parts.day,
      hour: parts.hour % 24,
      minute: parts.minute,
      second: parts.second,
    };
  }));
}

export const pad2 = (n: number): string => (n < 10 ? `0${n}` : String(n));
export const pad4 = (n: number): string => String(n).padStart(4, '0');

export function isValidDay(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return day <= days;
}

/** "2026-10-01" → its parts, or null when it is not a real calendar day. */
export function parseIsoDate(text: string): { year: number; month: number; day: number } | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return null;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return isValidDay(year, month, day) ? { year, month, day } : null;
}

/** "2026-10-01T08:30:00" (seconds and fraction optional) → its wall-clock parts. */
export function parseIsoDateTime(text: string): WallTime | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?$/.exec(text);
  if (!m) return null;
  const [year, month, day, hour, minute] = [1, 2, 3, 4, 5].map((i) => Number(m[i]));
  const second = m[6] ? Number(m[6]) : 0;
  if (!isValidDay(year, month, day) || hour > 23 || minute > 59 || second > 59) return null;
  return { year, month, day, hour, minute, second };
}

export function addDays(d: { year: number; month: number; day: number }, days: number) {
  const t = new Date(Date.UTC(d.year, d.month - 1, d.day + days));
  return { year: t.getUTCFullYear(), month: t.getUTCMonth() + 1, day: t.getUTCDate() };
}

export function addMonths(c: { year: number; month: number }, months: number) {
  const idx = c.year * 12 + (c.month - 1) + months;
  return { year: Math.floor(idx / 12), month: (idx % 12) + 1 };
}
