/**
 * Planning a step against Apps Script's clock. A step has a soft deadline (a
 * sidebar wants an answer every 25 s; the hourly run shares its minutes) and a
 * hard limit (the execution is killed at 6 minutes). Nothing is started that
 * could not end before the hard limit at the platform's worst: a round trip
 * may last WORST_ROUND_TRIP_MS, and Sheets writes cost per cell.
 */
import { WORST_ROUND_TRIP_MS } from '../api/http';

export { WORST_ROUND_TRIP_MS };

/**
 * A cell written with its number format at the pessimistic end of the public
 * figures (150 µs a value, 75 µs a format; /work/shared/platform.md).
 */
export const CELL_WRITE_MS = 0.225;
/** A cell read at the pessimistic end (about a third of a write). */
export const CELL_READ_MS = 0.05;
/** One Sheets or properties call at the pessimistic end (a property write is 30–60 ms). */
export const CALL_MS = 60;

/** What writing `rows` rows of `columns` cells may cost, with `calls` calls around them (formats, notes, checkpoint). */
export function writeCostMs(rows: number, columns: number, calls = 8): number {
  return rows * columns * CELL_WRITE_MS + calls * CALL_MS;
}

/** Whether work of `costMs` started now ends by `limit`. */
export function fits(now: number, costMs: number, limit: number | undefined): boolean {
  return limit === undefined || now + costMs <= limit;
}
