/**
 * What a pull's writer tells the user about the sheet and the data while it
 * writes: texts cut to the cell limit (the first few named, the rest counted
 * across steps), a report sheet deleted between two steps, and a merge that
 * updates the rows it finds by id.
 */
import { describe, expect, it } from 'vitest';
import { type ImportDeps, type ImportState, type ImportSpec, startImport, stepImport } from '../../src/core/import-job';
import { MemoryBook, type MemorySheet } from '../bulk/memory-book';
import { customers, FakeService, PAGE_ROWS, zone } from './fake-service';

const T0 = Date.UTC(2026, 10, 22, 15);

function run(book: MemoryBook, records: Array<Record<string, unknown>>, mode: ImportSpec['mode'] = 'replace', start = T0) {
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

const long = (n: number) => customers(1, n).map((c) => ({ ...c, razaoSocial: 'x'.repeat(60_000) }));

function finish(step: (s: ImportState) => ImportState, state: ImportState): ImportState {
  let s = state;
  for (let i = 0; i < 30 && s.status === 'running'; i++) s = step(s);
  return s;
}

describe('texts over the cell limit', () => {
  it('names the first five cuts and counts the others, adding up across the steps of the run', () => {
    const book = new MemoryBook();
    const { state, step } = run(book, long(3 * PAGE_ROWS));
    const first = step(state);
    expect(first.status).toBe('running');
    const done = finish(step, first);
    expect(done.status).toBe('done');
    const named = done.warnings.filter((w) => w.startsWith('O campo "'));
    expect(named).toHaveLength(5);
    expect(done.warnings.filter((w) => w.startsWith('Além desses, '))).toEqual([
      `Além desses, ${3 * PAGE_ROWS - 5} campos também passaram de 50.000 caracteres e foram cortados.`,
    ]);
  });
});

describe('the report sheet deleted during a pull', () => {
  it('fails the run telling the user to run the report again', () => {
    const book = new MemoryBook();
    const { state, step } = run(book, customers(1, 30));
    const first = step(state);
    expect(first.status).toBe('running');
    book.sheets = book.sheets.filter((s) => s.id !== first.sheetId);
    const next = step(first);
    expect(next.status).toBe('failed');
    expect(next.message).toContain('A aba "Clientes" foi apagada durante a importação. Rode o relatório de novo.');
  });
});

describe('a merge into the sheet an earlier pull wrote', () => {
  it('updates the rows it finds by id, adds the new ids below, and counts what it merged', () => {
    const book = new MemoryBook();
    const earlier = run(book, customers(1, 4));
    const first = finish(earlier.step, earlier.state);
    expect(first.status).toBe('done');
    const sheet = book.byId(first.sheetId) as MemorySheet;
    const { state, step } = run(book, customers(3, 4, 'Novo'), 'merge', T0 + 3_600_000);
    const merged = finish(step, state);
    expect(merged).toMatchObject({ status: 'done', merged: 4, rows: 6 });
    const name = sheet.grid[0].findIndex((h) => String(h).endsWith('Razão social') || String(h).endsWith('Razao social'));
    expect(sheet.grid.slice(1, sheet.lastRow()).map((r) => r[name])).toEqual(['Cliente 1', 'Cliente 2', 'Novo 3', 'Novo 4', 'Novo 5', 'Novo 6']);
  });
});
