/**
 * Virtual time for one execution. Apps Script kills a run at 6 minutes without
 * notice; tests need that to happen at a reproducible point, so virtual time is
 * advanced by what each service call costs on the real platform (plus,
 * optionally, real elapsed time) and the kill is raised at the first service
 * call at or after the deadline.
 *
 * The costs are platform constants with their sources. Google publishes none of
 * them; the figures are public measurements, given as a range, and tests that
 * prove a deadline hold choose the pessimistic end (COST_MODELS.pessimistic).
 */

export interface CallCosts {
  /** Each call on SpreadsheetApp/Spreadsheet/Sheet/Range objects (the round trip, whatever its size). */
  spreadsheetCallMs: number;
  /** Each cell written by setValues/setValue/clear (on top of the call). */
  cellWriteMs: number;
  /** Each cell read by getValues/getDisplayValues/getNotes... */
  cellReadMs: number;
  /** Each cell given a number format by setNumberFormats/setNumberFormat. */
  formatCellMs: number;
  /** SpreadsheetApp.flush(): applies every pending change. */
  flushMs: number;
  /** Each UrlFetchApp round trip (fetch, or each concurrent batch of a fetchAll) on top of the server's own time. */
  urlFetchCallMs: number;
  /** Each PropertiesService read or write (getProperty, setProperties, getKeys...). */
  propertyCallMs: number;
  /** Overhead added to every Utilities.sleep on top of the slept time. */
  sleepOverheadMs: number;
  /** Every other service call (cache, lock, session, ...). */
  otherCallMs: number;
  /** Each execution's start-up: Google loads the project and runs its top level before the function called. */
  startupMs: number;
  /**
   * SpreadsheetApp.openById of a document other than the active one, the first
   * time in an execution, with its first read (on top of the call).
   */
  openByIdMs: number;
}

/**
 * Public figures (docs/limits.md, "What the platform costs", gives the sources):
 * - a Spreadsheet round trip: 5–50 ms per call (Google's "best practices" page
 *   on batching; community timings of getRange/getValue loops);
 * - a cell written: 12.5–150 µs (community benchmarks of setValues on 10⁴–10⁶
 *   cells, e.g. tanaikech's "Benchmark: Reading and Writing Spreadsheet"),
 *   a cell read about a third of that, a number format about half;
 * - flush(): "hundreds of ms" (100–500 ms);
 * - a property read or write: 30–60 ms on average (community measurements of
 *   PropertiesService; CacheService is faster);
 * - a UrlFetch round trip adds 50–300 ms to the server's time;
 * - an execution's start-up, before the first line of the script: 0.3–1 s
 *   (community reports of the Executions page: a function that does nothing
 *   is listed at a few hundred ms to over a second; no Google figure);
 * - opening another spreadsheet by id, with its first read: 0.5–2 s
 *   (community timings of openById; no Google figure).
 * The last two are planning figures until a real install's Diagnóstico
 * measures them (an idle hourly run, and a second spreadsheet opened).
 */
export const COST_MODELS = {
  optimistic: {
    spreadsheetCallMs: 5,
    cellWriteMs: 0.0125,
    cellReadMs: 0.004,
    formatCellMs: 0.006,
    flushMs: 100,
    urlFetchCallMs: 50,
    propertyCallMs: 30,
    sleepOverheadMs: 0,
    otherCallMs: 1,
    startupMs: 300,
    openByIdMs: 500,
  },
  pessimistic: {
    spreadsheetCallMs: 50,
    cellWriteMs: 0.15,
    cellReadMs: 0.05,
    formatCellMs: 0.075,
    flushMs: 500,
    urlFetchCallMs: 300,
    propertyCallMs: 60,
    sleepOverheadMs: 10,
    otherCallMs: 10,
    startupMs: 1_000,
    openByIdMs: 2_000,
  },
} satisfies Record<string, CallCosts>;

/** The default is the optimistic end: every cost is charged, none is zero. */
export const DEFAULT_COSTS: CallCosts = COST_MODELS.optimistic;

export const DEFAULT_BUDGET_MS = 6 * 60 * 1000;

/**
 * UrlFetchApp takes no time-out option: a request whose server never answers
 * ends after about 60 s with "Timeout: <url>" (community figure, e.g. the
 * issue tracker's "UrlFetchApp timeout is 60 seconds"; not in the quota table).
 */
export const URL_FETCH_DEADLINE_MS = 60_000;

/**
 * fetchAll's concurrency is not documented (no cap is published, and Google
 * throttles per user). The emulator assumes the harsh reading: at most this
 * many requests in flight, the rest queued in groups, one group after
 * another. On a deployment the Diagnóstico times a fetchAll of 10 beside one
 * fetch, which shows whether the 10 went out together.
 */
export const FETCH_ALL_CONCURRENCY = 10;

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
