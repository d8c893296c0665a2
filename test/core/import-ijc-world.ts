/**
 * A document for the import tests of IJ-C's range: the Clientes report pulled
 * into a book whose sheets are as strict as Google's about ranges (reading or
 * writing no rows or no columns, or past the grid's last row, throws), from a small fake service of one or
 * more companies, on a clock each round trip moves by a second — or to a set
 * time, for a service that took most of an execution.
 */
import { stepConsolidated } from '../../src/core/consolidated-job';
import { CHILD_TAG, childTagValue } from '../../src/core/child-sheet';
import { type ImportDeps, type ImportSpec, type ImportState, type StepOptions, startImport, stepImport } from '../../src/core/import-job';
import type { CellValue } from '../../src/core/table';
import { MemoryBook, MemorySheet } from '../bulk/memory-book';
import { customers, FakeService, zone } from './fake-service';

/** 22/11/2026 12:00 in São Paulo. */
export const T0 = Date.UTC(2026, 10, 22, 15);
export const HOUR = 3_600_000;

export class StrictSheet extends MemorySheet {
  /** Each write as [row, column, rows, columns], to see which cells a run rewrote. */
  readonly written: Array<[number, number, number, number]> = [];
  /** Rows of the grid: a new sheet's 1,000, grown by ensureSize, fewer once rows are deleted (or the user trims them). */
  gridRows = 1_000;
  private check(row: number, rows: number, columns: number) {
    if (!(rows >= 1 && columns >= 1)) throw new Error(`intervalo vazio (${rows} × ${columns})`);
    if (row + rows - 1 > this.gridRows) throw new Error(`intervalo fora da grade (linha ${row + rows - 1} de ${this.gridRows})`);
  }
  override ensureSize(rows = 0) {
    this.gridRows = Math.max(this.gridRows, rows);
  }
  override deleteRows(row: number, count: number) {
    super.deleteRows(row, count);
    this.gridRows -= count;
  }
  override read(row: number, column: number, rows: number, columns: number) {
    this.check(row, rows, columns);
    return super.read(row, column, rows, columns);
  }
  override readNotes(row: number, column: number, columns: number) {
    this.check(row, 1, columns);
    return super.readNotes(row, column, columns);
  }
  override write(row: number, column: number, values: CellValue[][]) {
    this.check(row, values.length, values[0]?.length ?? 0);
    this.written.push([row, column, values.length, values[0]?.length ?? 0]);
    super.write(row, column, values);
  }
}

class StrictBook extends MemoryBook {
  private next = 500;
  override create(name: string) {
    const s = new StrictSheet(this.next++, name);
    this.sheets.push(s);
    return s;
  }
}

type Records = Array<Record<string, unknown>>;

/** Customers `from`…`from + n - 1`, each with the phones `phones(id)` gives (the open child list "Telefones"). */
export const withPhones = (from: number, n: number, phones = (id: number): Records => [{ numero: `11${id}` }]): Records =>
  customers(from, n).map((c) => ({ ...c, telefones: phones(Number(c.idCliente)) }));

/** Values under the header whose label ends with `label` (the first one carries the incomplete mark while a run is not done). */
export function column(sheet: MemorySheet, label: string): CellValue[] {
  const at = sheet.grid[0].findIndex((h) => String(h).endsWith(label));
  if (at < 0) throw new Error(`no column ${label}`);
  return sheet.grid.slice(1, sheet.lastRow()).map((r) => r[at]);
}

/** `companies`: each API key's customers; the first key is the one-company runs' connection. */
export function world(companies: Record<string, Records>) {
  const service = new FakeService(companies);
  const book = new StrictBook();
  let clock = T0;
  let arrival: number | undefined;
  service.onTrip = () => {
    clock = arrival ?? clock + 1_000;
  };
  const now = () => clock;
  const saved: ImportState[] = [];
  const deps: ImportDeps = {
    client: service.client(Object.keys(companies)[0] ?? 'k', now),
    clientFor: (id) => service.client(id, now),
    book,
    zone,
    now,
    checkpoint: (s) => saved.push(structuredClone(s)),
  };
  let sheetId: number | undefined;
  /** A run of the Clientes report into the document's report sheet (the first run makes it). */
  const start = (spec: Partial<ImportSpec> = {}) => {
    const state = startImport({ listing: 'clientes', filters: {}, sheetName: 'Clientes', sheetId, mode: 'replace', ...spec }, deps);
    sheetId = state.sheetId;
    return state;
  };
  /** One step, consolidated when the run is. */
  const step = (state: ImportState, options: StepOptions = { deadline: clock + 600_000 }) =>
    state.spec.companies ? stepConsolidated(state, deps, options) : stepImport(state, deps, options);
  /** A whole run an hour after the last, stepped until it is no longer running. */
  const run = (spec: Partial<ImportSpec> = {}) => {
    clock += HOUR;
    let state = step(start(spec));
    for (let i = 0; i < 10 && state.status === 'running'; i++) state = step(state);
    return state;
  };
  const sheet = () => book.byId(sheetId as number) as StrictSheet;
  /** The report's child sheet of `field`, found by its metadata. */
  const child = (field = 'telefones') => book.sheets.find((s) => s.sheetTag(CHILD_TAG) === childTagValue(sheetId as number, field)) as StrictSheet;
  return {
    service,
    book,
    deps,
    saved,
    start,
    step,
    run,
    sheet,
    child,
    now,
    tick: (ms: number) => (clock += ms),
    /** Round trips end at `at` (a slow service) until set back to undefined. */
    arriveAt: (at: number | undefined) => {
      arrival = at;
    },
  };
}
