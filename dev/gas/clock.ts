/**
 * Virtual time for one execution. Apps Script kills a run at 6 minutes without
 * notice; tests need that to happen at a reproducible point, so virtual time is
 * advanced by fixed costs per service call (plus, optionally, real elapsed time)
 * and the kill is raised at the first service call at or after the deadline.
 */

export interface CallCosts {
  /** Each call on SpreadsheetApp/Spreadsheet/Sheet/Range objects. */
  spreadsheetCallMs: number;
  /** Each UrlFetchApp.fetch, and each fetchAll as a whole (its requests run concurrently). */
  urlFetchCallMs: number;
  /** Overhead added to every Utilities.sleep on top of the slept time. */
  sleepOverheadMs: number;
  /** Every other service call (properties, cache, lock, ...). */
  otherCallMs: number;
}

export const DEFAULT_COSTS: CallCosts = {
  spreadsheetCallMs: 5,
  urlFetchCallMs: 100,
  sleepOverheadMs: 0,
  otherCallMs: 1,
};

export const DEFAULT_BUDGET_MS = 6 * 60 * 1000;

export interface ClockOptions {
  startMs: number;
  budgetMs: number;
  /** Add real elapsed time to virtual time (default true). Turn off for fully deterministic kills. */
  countRealTime: boolean;
}

export class ExecutionClock {
  private virtualMs = 0;
  private lastReal = performance.now();

  constructor(readonly options: ClockOptions) {}

  private sync(): void {
    if (!this.options.countRealTime) return;
    const real = performance.now();
    this.virtualMs += real - this.lastReal;
    this.lastReal = real;
  }

  /** Virtual wall-clock time, epoch ms. */
  now(): number {
    this.sync();
    return this.options.startMs + this.virtualMs;
  }

  elapsed(): number {
    this.sync();
    return this.virtualMs;
  }

  get deadline(): number {
    return this.options.startMs + this.options.budgetMs;
  }

  pastDeadline(): boolean {
    return this.now() >= this.deadline;
  }

  advance(ms: number): void {
    this.sync();
    this.virtualMs += Math.max(0, ms);
  }
}
