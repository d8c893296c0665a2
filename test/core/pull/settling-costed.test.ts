/**
 * The final settling of a full pull when it does not fit what a step has:
 * the core against the sandbox over HTTP, on a virtual clock that charges
 * every sheet call and cell at the pessimistic figures the core plans with.
 * The settling goes on part by part over several steps, and the sheet is
 * right (and marked incomplete) until the last.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BillingClient } from '../../../src/api/client';
import { WORST_ROUND_TRIP_MS } from '../../../src/api/http';
import { listing } from '../../../src/api/operations';
import type { Transport } from '../../../src/api/transport';
import { nodeTransport } from '../../../dev/http/node-transport';
import { type SandboxHandle, borrowSandbox } from '../../../dev/sandbox/harness';
import { CALL_MS, CELL_READ_MS, CELL_WRITE_MS, writeCostMs } from '../../../src/core/deadline';
import { FINISH_CALLS, type ImportDeps, type ImportState } from '../../../src/core/pull/state';
import { stepImport } from '../../../src/core/pull/step';
import { PARTIAL_MARK } from '../../../src/core/sheets/sheet-names';
import { tableSpec } from '../../../src/core/sheets/table';
import type { CellValue } from '../../../src/core/sheets/table';
import { zone } from '../fake-service';
import { StrictBook, type StrictSheet } from './strict-book';
import { startLooked } from './world';

let sb: SandboxHandle;

beforeAll(async () => {
  sb = await borrowSandbox({ seed: 16, size: 'small' });
  await sb.reset({ size: { faturas: 1_500, clientes: 40, cobrancas: 10, transacoes: 10, assinaturas: 10 } });
});
afterAll(async () => {
  await sb?.stop();
});

const PAGE_ROWS = 100;

/** A book whose sheet calls advance the clock as Google's would at its slowest. */
class CostedBook extends StrictBook {
  clock = Date.UTC(2026, 0, 5, 12);
  override create(name: string, columns?: number): StrictSheet {
    const sheet = super.create(name, columns);
    const read = sheet.read.bind(sheet);
    const write = sheet.write.bind(sheet);
    sheet.read = (row, column, rows, columns) => {
      this.clock += CALL_MS + rows * columns * CELL_READ_MS;
      return read(row, column, rows, columns);
    };
    sheet.write = (row: number, column: number, values: CellValue[][]) => {
      this.clock += CALL_MS + values.length * (values[0]?.length ?? 0) * CELL_WRITE_MS;
      write(row, column, values);
    };
    return sheet;
  }
}

function importDeps(book: CostedBook): ImportDeps {
  // Every wave of pages lasts the worst a round trip may, as the planner assumes.
  const transport: Transport = {
    fetch: (request) => {
      book.clock += WORST_ROUND_TRIP_MS;
      return nodeTransport.fetch(request);
    },
    fetchAll: (requests) => {
      book.clock += WORST_ROUND_TRIP_MS;
      return nodeTransport.fetchAll(requests);
    },
  };
  const client = new BillingClient({
    baseUrl: sb.baseUrl,
    apiKey: sb.orgs[0].apiKey,
    transport,
    sleep: () => {},
    zone,
    timeoutMs: 10_000,
    concurrency: 1,
    pageSize: PAGE_ROWS,
    now: () => book.clock,
  });
  return { client, book, zone, now: () => book.clock };
}

/** Runs a full pull of faturas to its end: `budget(state)` is what each step may use; returns every state after a step. */
function run(book: CostedBook, budget: (state: ImportState) => number, after: (state: ImportState) => void = () => {}): ImportState[] {
  const deps = importDeps(book);
  let state = startLooked({ listing: 'faturas', filters: { isListarItens: true }, sheetName: 'Faturas', mode: 'replace' }, deps);
  const states: ImportState[] = [];
  while (state.status === 'running' && states.length < 200) {
    const limit = book.clock + budget(state);
    // One wave a step: the soft deadline is a second away, a wave lasts a minute.
    state = stepImport(state, deps, { deadline: book.clock + 1_000, limit });
    expect(book.clock, `step ${state.steps} passed its limit`).toBeLessThanOrEqual(limit);
    states.push(state);
    after(state);
  }
  return states;
}

describe('the final settling of a full pull', () => {
  it('longer than a step: done part by part over several steps, with the right rows, and the mark lifted at the end', () => {
    const book = new CostedBook();
    const table = tableSpec(listing('faturas'));
    const child = table.children[0];
    expect(child, 'faturas has a child table').toBeDefined();
    const width = table.columns.length + table.children.reduce((n, c) => n + c.columns.length, 0);
    // A pulling step has room for one wave (the first asks two pages) and little more.
    const wave = WORST_ROUND_TRIP_MS + writeCostMs(2 * PAGE_ROWS, width, FINISH_CALLS) + 200;
    const firstRun = run(book, () => wave);
    const first = firstRun.at(-1) as ImportState;
    expect(first.status).toBe('done');

    const sheet = book.byId(first.sheetId) as StrictSheet;
    const items = book.byId(first.children[child.field].sheetId) as StrictSheet;
    const header = sheet.grid[0].map(String);
    const idAt = header.indexOf(String(sheet.grid[0][0]));
    const rows = sheet.lastRow();
    // Two rows of records the service no longer has: one bare, one with the user's note beside it; items of both.
    const userColumn = sheet.lastColumn() + 2;
    const stale = (id: number) => sheet.grid[1].map((v, c) => (c === idAt ? id : v));
    // Each sheet's grid grows by the rows added below its data, as it does when someone adds them.
    sheet.ensureSize(rows + 2, 0);
    sheet.grid[rows] = stale(990_001);
    sheet.grid[rows + 1] = stale(990_002);
    sheet.grid[rows + 1][userColumn - 1] = 'minha nota';
    const itemRows = items.lastRow();
    items.ensureSize(itemRows + 2, 0);
    items.grid[itemRows] = items.grid[1].map((v, c) => (c === 0 ? 990_001 : v));
    items.grid[itemRows + 1] = items.grid[1].map((v, c) => (c === 0 ? 990_002 : v));

    // A settling step has room for no part (the cheapest is the marks' calls) but the first, which it must do anyway.
    const settle = (FINISH_CALLS + 2 * table.children.length) * CALL_MS;
    const marked: boolean[] = [];
    const states = run(
      book,
      (s) => (s.pager?.done ? settle : wave),
      () => marked.push(String(sheet.grid[0][0]).startsWith(PARTIAL_MARK)),
    );
    const pulled = states.findIndex((s) => s.pager?.done);
    const settling = states.slice(pulled);
    expect(settling.length).toBeGreaterThanOrEqual(3);
    const last = settling.at(-1) as ImportState;
    expect(last.status).toBe('done');
    expect(last.settled).toEqual(['sweep', `child:${child.field}`, 'marks']);
    // Until the last part, the sheet says it is incomplete and the job goes on.
    for (const s of settling.slice(0, -1)) {
      expect(s.status).toBe('running');
      expect(s.message).toMatch(/conferência final das linhas continua/);
    }
    expect(marked.slice(0, -1).every(Boolean)).toBe(true);
    expect(marked.at(-1)).toBe(false);

    const ids = sheet.grid.slice(1, sheet.lastRow()).map((r) => r[idAt]);
    expect(ids).not.toContain(990_001);
    expect(ids.filter((id) => id === 990_002)).toHaveLength(1);
    expect(sheet.lastRow()).toBe(rows + 1);
    expect(sheet.notes[sheet.lastRow() - 1]?.[idAt]).toMatch(/não veio na atualização completa/);
    const parents = items.grid.slice(1, items.lastRow()).map((r) => r[0]);
    expect(parents).not.toContain(990_001);
    expect(parents).toContain(990_002);
    expect(items.lastRow()).toBe(itemRows + 1);
  });
});
