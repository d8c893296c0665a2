/**
 * What the add-on's cost model assumes the platform costs, at both ends
 * (docs/limits.md, "What the platform costs"; the emulator charges the same
 * figures). The product keeps its own copy so that the Diagnóstico, on a real
 * install, writes what Google took beside what the model says: a real install
 * calibrates the model.
 */
export interface CostFigures {
  /** One call on a spreadsheet, a sheet or a range, whatever its size. */
  spreadsheetCallMs: number;
  /** Each cell written by setValues, on top of the call. */
  cellWriteMs: number;
  /** SpreadsheetApp.flush(), on top of the call. */
  flushMs: number;
  /** One UrlFetch round trip on top of the service's own time; a fetchAll of up to 10 is one round trip. */
  urlFetchCallMs: number;
  /** An execution's start-up, before its first line: every execution pays it. */
  startupMs: number;
  /** Opening another spreadsheet by id, with its first read, on top of the call. */
  openByIdMs: number;
}

export const COST_FIGURES: Readonly<Record<'optimistic' | 'pessimistic', CostFigures>> = {
  optimistic: { spreadsheetCallMs: 5, cellWriteMs: 0.0125, flushMs: 100, urlFetchCallMs: 50, startupMs: 300, openByIdMs: 500 },
  pessimistic: { spreadsheetCallMs: 50, cellWriteMs: 0.15, flushMs: 500, urlFetchCallMs: 300, startupMs: 1_000, openByIdMs: 2_000 },
};
