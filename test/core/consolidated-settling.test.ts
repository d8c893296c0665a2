/**
 * The settling of a consolidated pull (rows of companies that left, the
 * child sheet's orphans, names and marks) under the execution's limit, as a
 * single company's is: the parts that fit are done, the next steps go on (the
 * first part at least in a step that fetched nothing), every sheet stays
 * marked incomplete until the last part, and what is planned for each part
 * counts both companies' rows.
 */
import { describe, expect, it } from 'vitest';
import { CALL_MS, CELL_READ_MS } from '../../src/core/deadline';
import { type CompanySpec, FINISH_CALLS, type ImportState, SETTLING_GOES_ON } from '../../src/core/import-job';
import { PARTIAL_MARK } from '../../src/core/sheet-names';
import { world as document, HOUR, withPhones } from './import-ijc-world';

type Records = Array<Record<string, unknown>>;

const company = (id: string): CompanySpec => ({ id, name: `Empresa ${id}`, filters: {}, mode: 'replace' });
const both = [company('a'), company('b')];
/** Six customers with two phones each. */
const twoPhones = () => withPhones(1, 6, (id) => [{ numero: `11${id}` }, { numero: `12${id}` }]);

/** Both companies pulled once in full; `again` starts a second full pull whose round trips end `left` ms before the step's limit. */
function world() {
  const w = document({ a: twoPhones(), b: twoPhones() });
  expect(w.run({ companies: both, mode: 'replace' }).status).toBe('done');
  const sheet = w.sheet();
  const phones = w.child('telefones');
  const again = (data: Record<string, Records>, left: number) => {
    w.tick(HOUR);
    Object.assign(w.service.companies, data);
    const limit = w.now() + 1_000_000;
    w.arriveAt(limit - left);
    const state = w.step(w.start({ companies: both, mode: 'replace' }), { deadline: w.now() + 600_000, limit });
    w.arriveAt(undefined);
    return state;
  };
  /** A step of the settling with `left` ms before its limit. */
  const settle = (s: ImportState, left: number) => w.step(s, { deadline: w.now() + 600_000, limit: w.now() + left });
  const column = (label: string, of = sheet) => {
    const at = of.grid[0].findIndex((h) => String(h).endsWith(label));
    return of.grid.slice(1, of.lastRow()).map((r) => `${r[1]}|${r[at]}`);
  };
  return {
    again,
    settle,
    customers: () => column('ID do cliente'),
    phoneParents: () => column('ID do cliente', phones),
    marked: () => [sheet, phones].map((s) => String(s.grid[0][0]).startsWith(PARTIAL_MARK)),
  };
}

describe('a consolidated settling that does not fit the step that wrote the last pages', () => {
  it('is done part by part in the next steps, the sheets marked until the last', () => {
    const w = world();
    // Company b's customers 2 to 6 left the service.
    const pulled = w.again({ b: twoPhones().slice(0, 1) }, 100);
    expect(pulled).toMatchObject({ status: 'running', message: SETTLING_GOES_ON, settled: [] });
    expect(pulled.companies?.map((c) => c.status)).toEqual(['done', 'done']);
    expect(w.customers()).toHaveLength(12);
    expect(w.marked()).toEqual([true, true]);

    // No time at all: each step still does the first part left, and only that one.
    const swept = w.settle(pulled, 0);
    expect(swept).toMatchObject({ status: 'running', message: SETTLING_GOES_ON, settled: ['sweep'], pages: pulled.pages });
    expect(pulled.settled).toEqual([]);
    expect(w.customers()).toEqual(['a|1', 'a|2', 'a|3', 'a|4', 'a|5', 'a|6', 'b|1']);
    expect(w.phoneParents()).toHaveLength(24);
    expect(w.marked()).toEqual([true, true]);

    const orphans = w.settle(swept, 0);
    expect(orphans).toMatchObject({ status: 'running', settled: ['sweep', 'child:telefones'] });
    expect(swept.settled).toEqual(['sweep']);
    expect(w.phoneParents()).toHaveLength(14);
    expect(w.marked()).toEqual([true, true]);

    const done = w.settle(orphans, 0);
    expect(done).toMatchObject({ status: 'done', settled: ['sweep', 'child:telefones', 'marks'] });
    expect(done.message).toBeUndefined();
    expect(w.marked()).toEqual([false, false]);
  });

  it('with room for every part, ends done in that step', () => {
    const w = world();
    const done = w.again({ b: [] }, 60_000);
    expect(done).toMatchObject({ status: 'done', settled: ['sweep', 'child:telefones', 'marks'] });
    expect(w.customers()).toEqual(['a|1', 'a|2', 'a|3', 'a|4', 'a|5', 'a|6']);
    expect(w.marked()).toEqual([false, false]);
  });
});

describe('what each part of a consolidated settling is planned to cost', () => {
  // Both companies bring the same six customers again: 12 report rows, 24 phone rows.
  const settledWith = (left: number) => world().again({}, left).settled;
  // The sweep reads the connection, the key and "Recebido em" of each row; a child's orphans, the parent keys (connection and id)
  // and each item's connection and parent; lifting the marks reads the connection and the name of every row of both sheets.
  const sweep = 12 * 3 * CELL_READ_MS + FINISH_CALLS * CALL_MS;
  const orphans = (12 * 2 + 24 * 3) * CELL_READ_MS + FINISH_CALLS * CALL_MS;
  const marks = (12 + 24) * 2 * CELL_READ_MS + (FINISH_CALLS + 2 * 2) * CALL_MS;

  it('a part starts only when its reads and calls fit before the limit', () => {
    expect(settledWith(sweep - 0.03)).toEqual([]);
    expect(settledWith(sweep + 0.03)).toEqual(['sweep']);
    expect(settledWith(orphans - 0.03)).toEqual(['sweep']);
    expect(settledWith(orphans + 0.03)).toEqual(['sweep', 'child:telefones']);
    expect(settledWith(marks - 0.03)).toEqual(['sweep', 'child:telefones']);
    expect(settledWith(marks + 0.03)).toEqual(['sweep', 'child:telefones', 'marks']);
  });
});
