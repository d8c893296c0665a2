/**
 * What the settling of a consolidated pull leaves in its sheets, run after
 * run: companies the report no longer names leave (also when every company
 * left is refreshed incrementally), companies refreshed incrementally or
 * failed keep their rows, renamed connections are renamed on the report
 * sheet and its child sheets, and a partial run leaves every sheet marked.
 */
import { describe, expect, it } from 'vitest';
import type { CompanySpec, ImportState } from '../../src/core/import-job';
import { PARTIAL_MARK } from '../../src/core/sheet-names';
import type { MemorySheet } from '../bulk/memory-book';
import { refused } from './fake-service';
import { world as document, withPhones as phoned } from './import-ijc-world';

/** Customers with two phones each. */
const withPhones = (from: number, n: number) => phoned(from, n, (id) => [{ numero: `11${id}1` }, { numero: `11${id}2` }]);

/** Consolidated runs of the Clientes report into one sheet: `run(companies, mode)`. */
function world(data: Record<string, Array<Record<string, unknown>>>) {
  const w = document(data);
  const run = (companies: CompanySpec[], mode: 'replace' | 'merge' = 'replace') => w.run({ companies, mode });
  return { ...w, run, phones: () => w.child('telefones') };
}

const company = (id: string, name = `Empresa ${id}`, mode: 'replace' | 'merge' = 'replace'): CompanySpec => ({ id, name, filters: {}, mode });

/** Data rows as "Empresa|connection|id" (report sheet) by the header labels, whatever mark the first one carries. */
function rowsOf(sheet: MemorySheet, id = 'ID do cliente'): string[] {
  const at = (label: string) => sheet.grid[0].findIndex((h) => String(h).endsWith(label));
  return sheet.grid.slice(1, sheet.lastRow()).map((r) => `${r[at('Empresa')]}|${r[at('ID da conexão')]}|${r[at(id)]}`);
}

/** A child sheet's rows as "Empresa|connection|parent id|phone". */
function phoneRows(sheet: MemorySheet): string[] {
  return sheet.grid.slice(1, sheet.lastRow()).map((r) => r.slice(0, 4).join('|'));
}

const marked = (sheet: MemorySheet) => String(sheet.grid[0][0]).startsWith(PARTIAL_MARK);

describe('a company the report no longer names', () => {
  it('leaves the sheet and its child sheet even when every company left is refreshed incrementally', () => {
    const w = world({ a: withPhones(1, 2), b: withPhones(1, 2) });
    const first = w.run([company('a'), company('b')]);
    expect(first.status).toBe('done');
    expect(phoneRows(w.phones())).toHaveLength(8);

    // b is dropped from the report; a is refreshed incrementally and brings one new customer.
    w.service.companies.a = withPhones(3, 1);
    const second = w.run([company('a', 'Empresa a', 'merge')], 'merge');
    expect(second.status).toBe('done');
    expect(rowsOf(w.sheet())).toEqual(['Empresa a|a|1', 'Empresa a|a|2', 'Empresa a|a|3']);
    expect(phoneRows(w.phones())).toEqual([
      'Empresa a|a|1|1111',
      'Empresa a|a|1|1112',
      'Empresa a|a|2|1121',
      'Empresa a|a|2|1122',
      'Empresa a|a|3|1131',
      'Empresa a|a|3|1132',
    ]);
    expect(marked(w.sheet())).toBe(false);
    expect(marked(w.phones())).toBe(false);
  });

  it('an incremental run of the same companies leaves every row, its items and a row the user typed without a connection', () => {
    const w = world({ a: withPhones(1, 2), b: withPhones(1, 2) });
    w.run([company('a'), company('b')]);
    const sheet = w.sheet();
    // A line the user typed below the data, in a column of their own.
    const width = sheet.lastColumn();
    sheet.grid[6] = [];
    sheet.grid[6][width + 1] = 'total conferido';
    // An item row whose customer is not on the report sheet (an orphan a full refresh would drop).
    const phones = w.phones();
    phones.grid[phones.lastRow()] = ['Empresa b', 'b', 99, '999'];

    Object.assign(w.service.companies, { a: [], b: [] });
    const before = sheet.written.length;
    const second = w.run([company('a', 'Empresa a', 'merge'), company('b', 'Empresa b', 'merge')], 'merge');
    expect(second.status).toBe('done');
    // Nothing came and no name changed: only the header is written (its row without a connection is not renamed).
    expect(sheet.written.slice(before).filter(([row]) => row > 1)).toEqual([]);
    expect(sheet.grid[6][width + 1]).toBe('total conferido');
    expect(sheet.notes[6]).toBeUndefined();
    expect(second.warnings.filter((x) => x.includes('linha(s)'))).toEqual([]);
    expect(phoneRows(phones)).toContain('Empresa b|b|99|999');
    expect(marked(sheet)).toBe(false);
  });
});

describe('an incremental run into a sheet with no rows', () => {
  it('the user having deleted every row of the report sheet, leaves the items on the child sheet alone', () => {
    const w = world({ a: withPhones(1, 2) });
    w.run([company('a')]);
    const sheet = w.sheet();
    sheet.grid = [sheet.grid[0]];
    Object.assign(w.service.companies, { a: [] });
    const second = w.run([company('a', 'Empresa a', 'merge')], 'merge');
    expect(second.status).toBe('done');
    expect(phoneRows(w.phones())).toHaveLength(4);
  });

  it('that brings nothing ends done, its header unmarked', () => {
    const w = world({ a: [], b: [] });
    const state = w.run([company('a', 'Empresa a', 'merge'), company('b', 'Empresa b', 'merge')], 'merge');
    expect(state.status).toBe('done');
    expect(w.sheet().lastRow()).toBe(1);
    expect(marked(w.sheet())).toBe(false);
  });
});

describe('a full refresh of some companies while others are refreshed incrementally', () => {
  it('keeps the rows of an incremental company that did not come again, and drops those of a full one', () => {
    const w = world({ a: withPhones(1, 3), b: withPhones(1, 3) });
    w.run([company('a'), company('b')]);
    // a: full refresh without customer 2; b: incremental, only customer 4 is new.
    Object.assign(w.service.companies, { a: withPhones(1, 3).filter((c) => c.idCliente !== 2), b: withPhones(4, 1) });
    const second = w.run([company('a'), company('b', 'Empresa b', 'merge')]);
    expect(second.status).toBe('done');
    expect(rowsOf(w.sheet()).sort()).toEqual(['Empresa a|a|1', 'Empresa a|a|3', 'Empresa b|b|1', 'Empresa b|b|2', 'Empresa b|b|3', 'Empresa b|b|4']);
    expect(phoneRows(w.phones()).filter((r) => r.startsWith('Empresa a|a|2'))).toEqual([]);
    expect(phoneRows(w.phones()).filter((r) => r.startsWith('Empresa b'))).toHaveLength(8);
  });
});

describe('a connection renamed since the last run', () => {
  it('has its rows renamed on the report sheet and on the child sheet, even when it failed this run, and only those rows', () => {
    const w = world({ a: withPhones(1, 2), b: withPhones(1, 2), c: withPhones(1, 1) });
    w.run([company('a'), company('b'), company('c')]);
    // Interleave the companies' rows, as a user sorting by customer would.
    const sheet = w.sheet();
    const header = sheet.grid[0];
    const body = sheet.grid.slice(1, sheet.lastRow());
    const idAt = header.findIndex((h) => String(h).endsWith('ID do cliente'));
    sheet.grid = [header, ...body.sort((x, y) => Number(x[idAt]) - Number(y[idAt]) || String(x[1]).localeCompare(String(y[1])))];

    w.service.fault = ({ key }) => (key === 'b' ? refused(401) : undefined);
    const second = w.run([company('a'), company('b', 'Beta Ltda'), company('c')]);
    expect(second.status).toBe('done');
    expect(second.partial).toContain('"Beta Ltda"');
    expect(rowsOf(sheet)).toEqual(['Empresa a|a|1', 'Beta Ltda|b|1', 'Empresa c|c|1', 'Empresa a|a|2', 'Beta Ltda|b|2']);
    const phones = phoneRows(w.phones());
    expect(phones.filter((r) => r.includes('|b|'))).toEqual(['Beta Ltda|b|1|1111', 'Beta Ltda|b|1|1112', 'Beta Ltda|b|2|1121', 'Beta Ltda|b|2|1122']);
    expect(phones.filter((r) => r.startsWith('Empresa b'))).toEqual([]);
  });
});

describe('a consolidated run that ends partial', () => {
  it('leaves the report sheet and its child sheet marked incomplete, the failed company keeping its rows and items', () => {
    const w = world({ a: withPhones(1, 2), b: withPhones(1, 2) });
    w.run([company('a'), company('b')]);
    w.service.fault = ({ key }) => (key === 'b' ? refused(500, 'Erro interno') : undefined);
    const second = w.run([company('a'), company('b')]);
    expect(second.status).toBe('done');
    expect(second.partial).toMatch(/^Uma empresa falhou — "Empresa b": /);
    expect(marked(w.sheet())).toBe(true);
    expect(marked(w.phones())).toBe(true);
    expect(phoneRows(w.phones()).filter((r) => r.startsWith('Empresa b'))).toHaveLength(4);

    // The next run that succeeds lifts both marks.
    w.service.fault = () => undefined;
    const third = w.run([company('a'), company('b')]);
    expect(third.partial).toBeUndefined();
    expect(marked(w.sheet())).toBe(false);
    expect(marked(w.phones())).toBe(false);
  });
});

describe('a settling cut short by a kill', () => {
  it('goes on from the part it reached: the child sheet still loses the items of a company no longer named', () => {
    const w = world({ a: withPhones(1, 2), b: withPhones(1, 2) });
    w.run([company('a'), company('b')]);
    const phones = w.phones();
    w.service.companies.a = [];
    // The execution is killed right after the sweep was saved.
    let killedAt: ImportState | undefined;
    w.deps.checkpoint = (s) => {
      if (!killedAt && s.settled?.includes('sweep')) {
        killedAt = structuredClone(s);
        throw new Error('execução encerrada');
      }
    };
    expect(() => w.run([company('a', 'Empresa a', 'merge')], 'merge')).toThrow('execução encerrada');
    expect(killedAt?.settled).toEqual(['sweep']);
    expect(rowsOf(w.sheet())).toEqual(['Empresa a|a|1', 'Empresa a|a|2']);
    expect(phoneRows(phones).filter((r) => r.startsWith('Empresa b'))).toHaveLength(4);

    // The next execution resumes from what was saved.
    w.deps.checkpoint = undefined;
    const resumed = w.step(killedAt as ImportState);
    expect(resumed.status).toBe('done');
    expect(resumed.settled).toEqual(['sweep', 'child:telefones', 'marks']);
    expect(phoneRows(phones).filter((r) => r.startsWith('Empresa b'))).toEqual([]);
    expect(marked(w.sheet())).toBe(false);
  });
});

describe('a consolidated sheet of a single row', () => {
  it('a company no longer named that had one row leaves', () => {
    const w = world({ a: [], b: withPhones(1, 1) });
    w.run([company('a'), company('b')]);
    expect(rowsOf(w.sheet())).toEqual(['Empresa b|b|1']);
    const second = w.run([company('a', 'Empresa a', 'merge')], 'merge');
    expect(second.status).toBe('done');
    expect(rowsOf(w.sheet())).toEqual([]);
    expect(phoneRows(w.phones())).toEqual([]);
  });

  it('a renamed connection whose one row (and one item) this run could not refresh is renamed on both sheets', () => {
    const w = world({ a: [], b: phoned(1, 1) });
    w.run([company('a'), company('b')]);
    w.service.fault = ({ key }) => (key === 'b' ? refused(500, 'Erro interno') : undefined);
    const second = w.run([company('a'), company('b', 'Beta Ltda')]);
    expect(second.partial).toMatch(/"Beta Ltda"/);
    expect(rowsOf(w.sheet())).toEqual(['Beta Ltda|b|1']);
    expect(phoneRows(w.phones())).toEqual(['Beta Ltda|b|1|111']);
  });
});

describe('a consolidated sheet the user trimmed to its data', () => {
  it('is read no further than its last row: an incremental run and the renames settle within the grid', () => {
    const w = world({ a: withPhones(1, 2), b: withPhones(1, 2) });
    w.run([company('a'), company('b')]);
    // The user deleted the empty rows below the data, on both sheets.
    w.sheet().gridRows = w.sheet().lastRow();
    w.phones().gridRows = w.phones().lastRow();
    Object.assign(w.service.companies, { a: [], b: [] });
    const second = w.run(
      [company('a', 'Alfa'), company('b', 'Empresa b', 'merge')].map((c) => ({ ...c, mode: 'merge' as const })),
      'merge',
    );
    expect(second.status).toBe('done');
    expect(rowsOf(w.sheet())).toEqual(['Alfa|a|1', 'Alfa|a|2', 'Empresa b|b|1', 'Empresa b|b|2']);
    expect(phoneRows(w.phones()).filter((r) => r.startsWith('Alfa'))).toHaveLength(4);
  });
});
