/**
 * Wall-clock values in a named time zone, and every date, datetime and
 * competência format the add-on reads or writes. The service speaks local
 * Brazilian dates without a zone, and the sheet shows Dates in the
 * spreadsheet's zone, so every conversion goes through one of these, never
 * through the host's zone, and no other module builds a date string by hand.
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
  return makeZone(
    timeZone,
    hourlyCachedReader((instant) => {
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
    }),
  );
}

export const pad2 = (n: number): string => (n < 10 ? `0${n}` : String(n));
export const pad4 = (n: number): string => String(n).padStart(4, '0');

export interface Day {
  year: number;
  month: number;
  day: number;
}

export interface Month {
  year: number;
  month: number;
}

/** The wire formats of the spec's Formats table. */
export const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
// Seconds and a fraction are tolerated: the spec shows YYYY-MM-DDTHH:MM:SS, real services add milliseconds.
export const DATETIME_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/;
export const COMPETENCIA_PATTERN = /^(0[1-9]|1[0-2])\/\d{4}$/;
export const TIME_PATTERN = /^\d{2}:\d{2}(:\d{2})?$/;

/** AAAA-MM-DD: dates in bodies and records. */
export const isoDate = (d: Day): string => `${pad4(d.year)}-${pad2(d.month)}-${pad2(d.day)}`;
/** DD/MM/AAAA: dates in query parameters and in messages. */
export const brDate = (d: Day): string => `${pad2(d.day)}/${pad2(d.month)}/${pad4(d.year)}`;
/** DD/MM/AAAA HH:MM: datetimes in query parameters. */
export const brDateTime = (w: Day & { hour: number; minute: number }): string => `${brDate(w)} ${pad2(w.hour)}:${pad2(w.minute)}`;
/** MM/AAAA. */
export const competencia = (m: Month): string => `${pad2(m.month)}/${pad4(m.year)}`;

export function isDate(v: unknown): v is Date {
  return v instanceof Date || Object.prototype.toString.call(v) === '[object Date]';
}

export function isValidDay(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return day <= days;
}

/** A parse that failed says why: the text has another shape, or names a day that does not exist. */
export type Parsed<T> = { ok: true; value: T } | { ok: false; reason: 'format' | 'invalid'; message: string };

export const checkDay = (d: Day): Parsed<Day> =>
  isValidDay(d.year, d.month, d.day) ? { ok: true, value: d } : { ok: false, reason: 'invalid', message: `a data ${brDate(d)} não existe` };

/** "01/10/2026" (one-digit day and month too) or "2026-10-01" as typed by a person. */
export function parseDay(text: string): Parsed<Day> {
  const s = text.trim();
  let m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(s);
  if (m) return checkDay({ year: Number(m[3]), month: Number(m[2]), day: Number(m[1]) });
  m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (m) return checkDay({ year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) });
  return { ok: false, reason: 'format', message: 'use o formato DD/MM/AAAA' };
}

/** "2026-10-01" → its parts, or null when it is not a real calendar day. */
export function parseIsoDate(text: string): Day | null {
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

/** "01/10/2026 08:30" or "2026-10-01T08:30" (a space instead of the T, seconds optional), as typed by a person. */
export function parseDayTime(text: string): Parsed<Day & { hour: number; minute: number }> {
  const s = text.trim();
  let w: (Day & { hour: number; minute: number }) | null = null;
  let m = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::\d{2}(?:\.\d+)?)?$/.exec(s);
  if (m) w = { year: +m[1], month: +m[2], day: +m[3], hour: +m[4], minute: +m[5] };
  m = /^(\d{2})\/(\d{2})\/(\d{4}) (\d{2}):(\d{2})$/.exec(s);
  if (m) w = { year: +m[3], month: +m[2], day: +m[1], hour: +m[4], minute: +m[5] };
  if (!w) return { ok: false, reason: 'format', message: 'use o formato DD/MM/AAAA HH:MM' };
  const day = checkDay(w);
  if (!day.ok) return day;
  if (w.hour > 23 || w.minute > 59) return { ok: false, reason: 'invalid', message: 'hora inválida' };
  return { ok: true, value: w };
}

/** A competência as a person types it: "10/2026", "1/2026" or "2026-10". */
export function parseCompetencia(text: string): Parsed<Month> {
  const s = text.trim();
  const mmYyyy = /^(\d{1,2})\/(\d{4})$/.exec(s);
  const yyyyMm = /^(\d{4})-(\d{1,2})$/.exec(s);
  if (!mmYyyy && !yyyyMm) return { ok: false, reason: 'format', message: 'use o formato MM/AAAA' };
  return checkMonth({ month: Number(mmYyyy ? mmYyyy[1] : yyyyMm![2]), year: Number(mmYyyy ? mmYyyy[2] : yyyyMm![1]) });
}

export function checkMonth(m: Month): Parsed<Month> {
  if (!Number.isInteger(m.month) || m.month < 1 || m.month > 12) return { ok: false, reason: 'invalid', message: 'o mês da competência vai de 01 a 12' };
  if (!Number.isInteger(m.year) || m.year < 1900 || m.year > 9999) return { ok: false, reason: 'invalid', message: 'ano da competência inválido' };
  return { ok: true, value: m };
}

/** Months since year 0: competências compare and subtract as numbers. */
export function monthIndex(competenciaText: string): number {
  const [month, year] = competenciaText.split('/').map(Number);
  return year * 12 + month - 1;
}

export function addDays(d: Day, days: number): Day {
  const t = new Date(Date.UTC(d.year, d.month - 1, d.day + days));
  return { year: t.getUTCFullYear(), month: t.getUTCMonth() + 1, day: t.getUTCDate() };
}

export function addMonths(c: Month, months: number): Month {
  const idx = c.year * 12 + (c.month - 1) + months;
  return { year: Math.floor(idx / 12), month: (idx % 12) + 1 };
}
