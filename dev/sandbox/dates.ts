/** Date helpers on plain strings (Brazil local time, no zone): the service never shows offsets. */

export const TODAY = '2026-11-22';

const DAY_MS = 86_400_000;
const EPOCH_2025 = Date.UTC(2025, 0, 1);

export function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

/** Day number (0 = 2025-01-01) to YYYY-MM-DD. */
export function dayToDate(day: number): string {
  return new Date(EPOCH_2025 + day * DAY_MS).toISOString().slice(0, 10);
}

export function dateToDay(date: string): number {
  return Math.round((Date.parse(date + 'T00:00:00Z') - EPOCH_2025) / DAY_MS);
}

export function addDays(date: string, days: number): string {
  return dayToDate(dateToDay(date) + days);
}

export const TODAY_DAY = dateToDay(TODAY);

export function datetime(date: string, minuteOfDay: number, second = 0): string {
  return `${date}T${pad(Math.floor(minuteOfDay / 60))}:${pad(minuteOfDay % 60)}:${pad(second)}`;
}

/** YYYY-MM-DD → MM/YYYY */
export function competenciaOf(date: string): string {
  return `${date.slice(5, 7)}/${date.slice(0, 4)}`;
}

/** MM/YYYY → YYYYMM as a number, for ordering and ranges. */
export function competenciaKey(comp: string): number {
  return Number(comp.slice(3, 7)) * 100 + Number(comp.slice(0, 2));
}

export function nowLocalDatetime(): string {
  // The service clock is Brazil local time (UTC-3, no daylight saving since 2019).
  return new Date(Date.now() - 3 * 3_600_000).toISOString().slice(0, 19);
}

export function isRealDate(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1 || y < 1900 || y > 2999) return false;
  const dt = new Date(Date.UTC(y, m - 1, d));
  return dt.getUTCFullYear() === y && dt.getUTCMonth() === m - 1 && dt.getUTCDate() === d;
}

/** Body date YYYY-MM-DD, a real calendar day. */
export function parseBodyDate(s: unknown): string | null {
  if (typeof s !== 'string') return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m || !isRealDate(+m[1], +m[2], +m[3])) return null;
  return s;
}

/** MM/YYYY with a real month. */
export function parseCompetencia(s: unknown): string | null {
  if (typeof s !== 'string') return null;
  const m = /^(\d{2})\/(\d{4})$/.exec(s);
  if (!m || +m[1] < 1 || +m[1] > 12 || +m[2] < 1900) return null;
  return s;
}
