/**
 * Documents for the pull's tests: the Clientes report (or another listing)
 * pulled into a strict book (strict-book.ts) from a small fake service of one
 * or more companies (../fake-service.ts), on a clock each round trip moves by
 * a second — or to a set time, for a service that took most of an execution.
 * `world` steps whole runs; `pull` one run of given records; `started` a run's
 * writer, fed one batch of records at a time.
 */
import { expect } from 'vitest';
import type { ListingKey } from '../../../src/api/operations';
import { CHILD_TAG, childTagValue } from '../../../src/core/sheets/child-sheet';
import { settle } from '../../../src/core/pull/settling';
import { lookAtSheet, startImport } from '../../../src/core/pull/start';
import type { CompanySpec, ImportDeps, ImportSpec, ImportState, StepOptions } from '../../../src/core/pull/state';
import { stepImport } from '../../../src/core/pull/step';
import { Writer } from '../../../src/core/pull/writer';
import type { CellValue } from '../../../src/core/sheets/table';
import type { MemorySheet } from '../bulk/memory-book';
import { customers, FakeService, zone } from '../fake-service';
import { StrictBook, type StrictSheet } from './strict-book';

/** 22/11/2026 12:00 in São Paulo. */
export const T0 = Date.UTC(2026, 10, 22, 15);
export const HOUR = 3_600_000;

export type Records = Array<Record<string, unknown>>;

/** A company of a consolidated pull, named after its connection. */
export const company = (id: string, mode: CompanySpec['mode'] = 'replace', name = `Empresa ${id}`): CompanySpec => ({ id, name, filters: {}, mode });

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
export function world(companies: Record<string, Records>, book = new StrictBook()) {
  const service = new FakeService(companies);
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
    const state = startLooked({ listing: 'clientes', filters: {}, sheetName: 'Clientes', sheetId, mode: 'replace', ...spec }, deps);
    sheetId = state.sheetId;
    return state;
  };
  const step = (state: ImportState, options: StepOptions = { deadline: clock + 600_000 }) => stepImport(state, deps, options);
  /** A whole run an hour after the last, stepped until it is no longer running. */
  const run = (spec: Partial<ImportSpec> = {}) => {
    clock += HOUR;
    let state = step(start(spec));
    for (let i = 0; i < 10 && state.status === 'running'; i++) state = step(state);
    return state;
  };
  const sheet = () => book.watched(sheetId as number);
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

/** Ports for starting runs in `book`, at time 0, against a service that is never asked. */
/** A pull started as a run starts it: on its own look at the sheet, with the columns its spec asks for. */
export function startLooked(spec: ImportSpec, deps: ImportDeps): ImportState {
  return startImport(spec, deps, lookAtSheet(deps.book, spec, { consolidated: Boolean(spec.companies), cardData: spec.cardData }));
}

export function startDeps(book = new StrictBook()): ImportDeps & { book: StrictBook } {
  const service = new FakeService({ k: customers(1, 3) });
  return { client: service.client('k'), book, zone, now: () => 0 };
}

/** The Clientes report into "Clientes", in full, with `fields` changed. */
export const startSpec = (fields: Partial<ImportSpec> = {}): ImportSpec => ({
  listing: 'clientes',
  filters: {},
  sheetName: 'Clientes',
  mode: 'replace',
  ...fields,
});

/** A run of `spec` (Clientes of company `k` by default) serving `records`, stepped to whatever deadline the test gives. */
export function pulling(records: Records, spec: Partial<ImportSpec> = {}, book = new StrictBook(), start = T0) {
  const service = new FakeService({ k: records });
  let clock = start;
  service.onTrip = () => {
    clock += 1_000;
  };
  const now = () => clock;
  const deps: ImportDeps = { client: service.client('k', now), book, zone, now };
  const state = startLooked({ listing: 'clientes', filters: {}, sheetName: 'Clientes', mode: 'replace', ...spec }, deps);
  const step = (s: ImportState, deadline = clock + 600_000, limit?: number) => stepImport(s, deps, { deadline, limit });
  const toEnd = () => {
    let s = state;
    for (let i = 0; i < 30 && s.status === 'running'; i++) s = step(s);
    return s;
  };
  return { service, book, deps, state, step, toEnd, now, tick: (ms: number) => (clock += ms), sheet: () => book.watched(state.sheetId) };
}

/** One company's whole pull of Clientes into `book`, stepped one wave of pages at a time; `start` is the run's clock, hence its "Recebido em". */
export function pullRun(book: StrictBook, records: Records, mode: ImportSpec['mode'] = 'replace', start = T0) {
  const p = pulling(records, { mode }, book, start);
  /** One step that fetches at most one wave of pages. */
  return { state: p.state, step: (s: ImportState) => p.step(s, p.now() + 1_500) };
}

/** The run stepped until it is no longer running; it must end done. */
export function pullToEnd(book: StrictBook, records: Records, mode: ImportSpec['mode'] = 'replace', start = T0): ImportState {
  const { state, step } = pullRun(book, records, mode, start);
  let s = state;
  for (let i = 0; i < 30 && s.status === 'running'; i++) s = step(s);
  expect(s.status).toBe('done');
  return s;
}

export interface Started {
  book: StrictBook;
  deps: ImportDeps;
  state: ImportState;
  sheet: StrictSheet;
  writer: Writer;
  /** Another writer for the same run, as the next step of the job makes. */
  nextStep: () => Writer;
}

/** A run started on `book` (a new one by default), with its Writer; `clock` is the run's start ("Recebido em"). */
export function started(listing: ListingKey, spec: Partial<ImportSpec> = {}, book = new StrictBook(), clock = T0, deps: Partial<ImportDeps> = {}): Started {
  const service = new FakeService({});
  const full: ImportDeps = { client: service.client('k', () => clock), book, zone, now: () => clock, ...deps };
  const state = startLooked({ listing, filters: {}, sheetName: 'Relatório', mode: 'replace', ...spec }, full);
  return { book, deps: full, state, sheet: book.watched(state.sheetId), writer: new Writer(state, full), nextStep: () => new Writer(state, full) };
}

/** The run's settling, all of it, on what `writer` opened. */
export function finish(run: { state: ImportState; deps: ImportDeps; writer: Writer }): boolean {
  return settle(run.state, run.deps, run.writer);
}

/** A whole run written in one batch and settled: the sheet as a finished pull leaves it. */
export function settled(listing: ListingKey, records: Records, spec: Partial<ImportSpec> = {}, book = new StrictBook(), clock = T0): Started {
  const run = started(listing, spec, book, clock);
  run.writer.write(records);
  finish(run);
  return run;
}
