/**
 * One company's whole pull of Clientes into a memory book, stepped one wave of
 * pages at a time on a clock that moves with the network: for tests of what a
 * run leaves in the sheets. `start` is the run's clock, hence its "Recebido em".
 */
import { expect } from 'vitest';
import { type ImportDeps, type ImportSpec, type ImportState, startImport, stepImport } from '../../src/core/import-job';
import type { MemoryBook } from '../bulk/memory-book';
import { FakeService, zone } from './fake-service';

export const T0 = Date.UTC(2026, 10, 22, 15);

export function pullRun(book: MemoryBook, records: Array<Record<string, unknown>>, mode: ImportSpec['mode'] = 'replace', start = T0) {
  const service = new FakeService({ k: records });
  let clock = start;
  service.onTrip = () => {
    clock += 1_000;
  };
  const now = () => clock;
  const deps: ImportDeps = { client: service.client('k', now), book, zone, now };
  const state = startImport({ listing: 'clientes', filters: {}, sheetName: 'Clientes', mode }, deps);
  /** One step that fetches at most one wave of pages. */
  const step = (s: ImportState) => stepImport(s, deps, { deadline: clock + 1_500 });
  return { state, step };
}

/** The run stepped until it is no longer running; it must end done. */
export function pullToEnd(book: MemoryBook, records: Array<Record<string, unknown>>, mode: ImportSpec['mode'] = 'replace', start = T0): ImportState {
  const { state, step } = pullRun(book, records, mode, start);
  let s = state;
  for (let i = 0; i < 30 && s.status === 'running'; i++) s = step(s);
  expect(s.status).toBe('done');
  return s;
}
