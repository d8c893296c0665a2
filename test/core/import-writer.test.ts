/**
 * What a pull's writer tells the user about the sheet and the data while it
 * writes: texts cut to the cell limit (the first few named, the rest counted
 * across steps), a report sheet deleted between two steps, and a merge that
 * updates the rows it finds by id.
 */
import { describe, expect, it } from 'vitest';
import { MemoryBook, type MemorySheet } from '../bulk/memory-book';
import { customers, PAGE_ROWS } from './fake-service';
import { pullRun, pullToEnd, T0 } from './pull';

const long = (n: number) => customers(1, n).map((c) => ({ ...c, razaoSocial: 'x'.repeat(60_000) }));

describe('texts over the cell limit', () => {
  it('names the first five cuts and counts the others, adding up across the steps of the run', () => {
    const book = new MemoryBook();
    const done = pullToEnd(book, long(5 * PAGE_ROWS));
    expect(done.steps).toBeGreaterThan(1);
    const named = done.warnings.filter((w) => w.startsWith('O campo "'));
    expect(named).toHaveLength(5);
    expect(done.warnings.filter((w) => w.startsWith('Além desses, '))).toEqual([
      `Além desses, ${5 * PAGE_ROWS - 5} campos também passaram de 50.000 caracteres e foram cortados.`,
    ]);
  });
});

describe('the report sheet deleted during a pull', () => {
  it('fails the run telling the user to run the report again', () => {
    const book = new MemoryBook();
    const { state, step } = pullRun(book, customers(1, 30));
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
    const first = pullToEnd(book, customers(1, 4));
    const sheet = book.byId(first.sheetId) as MemorySheet;
    const merged = pullToEnd(book, customers(3, 4, 'Novo'), 'merge', T0 + 3_600_000);
    expect(merged).toMatchObject({ status: 'done', merged: 4, rows: 6 });
    const name = sheet.grid[0].findIndex((h) => String(h).endsWith('Razão social') || String(h).endsWith('Razao social'));
    expect(sheet.grid.slice(1, sheet.lastRow()).map((r) => r[name])).toEqual(['Cliente 1', 'Cliente 2', 'Novo 3', 'Novo 4', 'Novo 5', 'Novo 6']);
  });
});
