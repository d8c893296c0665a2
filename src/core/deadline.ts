/**
 * Planning a step against Apps Script's clock. A step has a soft deadline (a
 * sidebar wants an answer every few seconds; the hourly run shares its
 * minutes) and a hard limit (the execution is killed at 6 minutes). Nothing is
 * started that could not end before the hard limit at the platform's worst: a
 * round trip may last WORST_ROUND_TRIP_MS, and Sheets writes cost per cell
 * (docs/limits.md has the figures and where they come from).
 */
import { WORST_ROUND_TRIP_MS } from '../api/http';

export { WORST_ROUND_TRIP_MS };

/** A cell written with its number format, at the pessimistic end of the public figures (150 µs a value, 75 µs a format). */
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

export interface StepTimes {
  /** Epoch ms after which the step starts no new wave (a sidebar's step, a share of the hourly run). */
  deadline: number;
  /** Epoch ms the execution must never pass (its kill, less a margin); undefined: no hard limit. */
  limit?: number;
}

/**
 * One step's time, shared by the pull, the consolidated pull and the bulk run:
 * a wave starts only while one as slow as the slowest so far still leaves room
 * for another before the deadline, and only if, with all its round trips
 * timing out and then its writes, it ends before the limit.
 */
export class StepBudget {
  private slowest = 0;
  private started = false;

  constructor(
    private readonly now: () => number,
    readonly times: StepTimes,
  ) {}

  get deadline(): number {
    return this.times.deadline;
  }

  get limit(): number | undefined {
    return this.times.limit;
  }

  /**
   * Whether a wave may start now: `reserveMs` is what must follow it at its
   * worst (writing what it brings), `trips` the round trips it may wait on.
   * Returns the time it started, or null when it must not. A step's first
   * wave starts even past the soft deadline (when it fits the limit): finding
   * the sheets of a spreadsheet with many may take a sidebar's whole step, and
   * a step that fetches nothing would leave the run where it was forever.
   */
  startWave(reserveMs: number, trips = 1): number | null {
    const began = this.now();
    if (this.started && began + this.slowest * 2 > this.times.deadline) return null;
    return this.fits(trips * WORST_ROUND_TRIP_MS + reserveMs, began) ? began : null;
  }

  /** A wave started at `began` has ended: the next one is planned as slow as the slowest. */
  waveEnded(began: number): void {
    this.started = true;
    this.slowest = Math.max(this.slowest, this.now() - began);
  }

  /** Whether work of `costMs` started now (or at `at`) ends by the limit. */
  fits(costMs: number, at = this.now()): boolean {
    return fits(at, costMs, this.times.limit);
  }

  /** The time by which requests must end so that `reserveMs` of work still fits after them: their retries stop there. */
  requestLimit(reserveMs = 0): number | undefined {
    return this.times.limit === undefined ? undefined : this.times.limit - reserveMs;
  }

  /** Whether the soft deadline has come. */
  pastDeadline(): boolean {
    return this.now() >= this.times.deadline;
  }
}
