/**
 * The settling of a full pull (stale rows, each child sheet's orphans, the
 * marks) when the step that wrote the last page has little time left: the
 * parts that fit are done, the next steps go on, the first part at least in a
 * step that did nothing else, and the sheets stay marked incomplete until the
 * last part. A consolidated pull settles the same way, its plan counting
 * every company's rows.
 */
import { describe, expect, it } from 'vitest';
import { CALL_MS, CELL_READ_MS } from '../../src/core/deadline';
import { type CompanySpec, FINISH_CALLS, type ImportState, SETTLING_GOES_ON as GOES_ON } from '../../src/core/import-job';
import { PARTIAL_MARK } from '../../src/core/sheet-names';
import { column, world as document, HOUR, withPhones } from './import-ijc-world';

type Records = Array<Record<string, unknown>>;

/**
 * A document pulled once in full, from company `k` or consolidated from `companies`; `again` starts a second full
 * pull, `data` replacing what companies hold, whose round trips end `left` ms before the step's limit (a slow
 * service that took most of the execution).
 */
function world(first: Record<string, Records>, companies?: CompanySpec[]) {
  const w = document(first);
  const spec = companies ? { companies, mode: 'replace' as const } : {};
  expect(w.run(spec).status).toBe('done');
  const sheet = w.sheet();
  const phones = w.child('telefones');
  const again = (data: Record<string, Records>, left: number) => {
    w.tick(HOUR);
    Object.assign(w.service.companies, data);
    const limit = w.now() + 1_000_000;
    w.arriveAt(limit - left);
    const state = w.step(w.start(spec), { deadline: w.now() + 600_000, limit });
    w.arriveAt(undefined);
    return state;
  };
  /** A step of the settling with `left` ms before its limit. */
  const settle = (s: ImportState, left: number) => w.step(s, { deadline: w.now() + 600_000, limit: w.now() + left });
  const marked = () => [sheet, phones].map((s) => String(s.grid[0][0]).startsWith(PARTIAL_MARK));
  /** The last part, with no time left: the run ends done, every mark lifted. */
  const lastPart = (s: ImportState) => {
    const done = settle(s, 0);
    expect(done).toMatchObject({ status: 'done', settled: ['sweep', 'child:telefones', 'marks'] });
    expect(done.message).toBeUndefined();
    expect(marked()).toEqual([false, false]);
  };
  return {
    saved: w.saved,
    again,
    settle,
    lastPart,
    customers: () => column(sheet, 'ID do cliente'),
    /** A consolidated sheet's rows as "connection|customer". */
    keys: () => column(sheet, 'ID da conexão').map((c, i) => `${c}|${column(sheet, 'ID do cliente')[i]}`),
    phoneParents: () => column(phones, 'ID do cliente'),
    marked,
  };
}

/** Six customers with two phones each. */
const twoPhones = () => withPhones(1, 6, (id) => [{ numero: `11${id}` }, { numero: `12${id}` }]);

/** Each part starts only when its planned cost (`costs`, in the parts' order) fits before the limit. */
function expectEachPartToFit(settledWith: (left: number) => string[] | undefined, costs: number[]) {
  const parts = ['sweep', 'child:telefones', 'marks'];
  costs.forEach((cost, i) => {
    expect(settledWith(cost - 0.03)).toEqual(parts.slice(0, i));
    expect(settledWith(cost + 0.03)).toEqual(parts.slice(0, i + 1));
  });
}

describe('a settling that does not fit the step that wrote the last page', () => {
  it('is done part by part in the next steps, the first part at least each time, the sheets marked until the last', () => {
    const w = world({ k: withPhones(1, 6) });
    // Customers 2 and 5 left the service.
    const pulled = w.again({ k: withPhones(1, 6).filter((c) => c.idCliente !== 2 && c.idCliente !== 5) }, 100);
    expect(pulled).toMatchObject({ status: 'running', message: GOES_ON, rows: 4, settled: [] });
    expect(w.customers()).toEqual([1, 2, 3, 4, 5, 6]);
    expect(w.marked()).toEqual([true, true]);

    // No time at all: the step still does the first part left, and only that one.
    const swept = w.settle(pulled, 0);
    expect(swept).toMatchObject({ status: 'running', message: GOES_ON, settled: ['sweep'], pages: pulled.pages });
    expect(w.customers()).toEqual([1, 3, 4, 6]);
    expect(w.phoneParents()).toEqual([1, 2, 3, 4, 5, 6]);
    expect(w.marked()).toEqual([true, true]);
    expect(w.saved.at(-1)?.settled).toEqual(['sweep']);

    const orphans = w.settle(swept, 0);
    expect(orphans).toMatchObject({ status: 'running', settled: ['sweep', 'child:telefones'] });
    expect(w.phoneParents()).toEqual([1, 3, 4, 6]);
    expect(orphans.children.telefones.rows).toBe(4);
    expect(w.marked()).toEqual([true, true]);

    w.lastPart(orphans);
  });

  it('with room for every part, ends done in that step', () => {
    const w = world({ k: withPhones(1, 6) });
    const done = w.again({ k: withPhones(1, 3) }, 60_000);
    expect(done).toMatchObject({ status: 'done', settled: ['sweep', 'child:telefones', 'marks'] });
    expect(w.customers()).toEqual([1, 2, 3]);
    expect(w.phoneParents()).toEqual([1, 2, 3]);
    expect(w.marked()).toEqual([false, false]);
  });

  it('a listing that came back empty wrote nothing: its step does the first part even without time for it', () => {
    const w = world({ k: withPhones(1, 6) });
    const swept = w.again({ k: [] }, 100);
    expect(swept).toMatchObject({ status: 'running', message: GOES_ON, rows: 0, settled: ['sweep'] });
    expect(w.customers()).toEqual([]);
    expect(w.phoneParents()).toEqual([1, 2, 3, 4, 5, 6]);
  });
});

describe('what each part of the settling is planned to cost', () => {
  // Six customers with two phones each; the second run brings the same six: 6 report rows, 12 item rows.
  // The sweep reads the key and "Recebido em" of each row; a child's orphans, the parent keys and each item's parent; both then
  // make the finishing calls. Lifting the marks is calls only: the finishing ones and two per child list.
  it('a part starts only when its reads and calls fit before the limit', () => {
    expectEachPartToFit(
      (left) => world({ k: twoPhones() }).again({}, left).settled,
      [6 * 2 * CELL_READ_MS + FINISH_CALLS * CALL_MS, (6 + 12) * CELL_READ_MS + FINISH_CALLS * CALL_MS, (FINISH_CALLS + 2 * 2) * CALL_MS],
    );
  });

  // Two companies bring the same six customers again: 12 report rows, 24 item rows. The sweep also reads the connection of each
  // row, a child's orphans the parent's connection and each item's; lifting the marks reads the connection and the name of every
  // row of both sheets (the company names brought up to date).
  it("consolidated, a part starts only when its reads of every company's rows and its calls fit", () => {
    expectEachPartToFit(
      (left) => world({ a: twoPhones(), b: twoPhones() }, both).again({}, left).settled,
      [
        12 * 3 * CELL_READ_MS + FINISH_CALLS * CALL_MS,
        (12 * 2 + 24 * 3) * CELL_READ_MS + FINISH_CALLS * CALL_MS,
        (12 + 24) * 2 * CELL_READ_MS + (FINISH_CALLS + 2 * 2) * CALL_MS,
      ],
    );
  });
});

const company = (id: string): CompanySpec => ({ id, name: `Empresa ${id}`, filters: {}, mode: 'replace' });
const both = [company('a'), company('b')];

describe('a consolidated settling that does not fit the step that wrote the last pages', () => {
  it('is done part by part in the next steps, the sheets marked until the last', () => {
    const w = world({ a: twoPhones(), b: twoPhones() }, both);
    // Company b's customers 2 to 6 left the service.
    const pulled = w.again({ b: twoPhones().slice(0, 1) }, 100);
    expect(pulled).toMatchObject({ status: 'running', message: GOES_ON, settled: [] });
    expect(pulled.companies?.map((c) => c.status)).toEqual(['done', 'done']);
    expect(w.customers()).toHaveLength(12);
    expect(w.marked()).toEqual([true, true]);

    // No time at all: each step still does the first part left, and only that one, leaving the state it was given as it was.
    const swept = w.settle(pulled, 0);
    expect(swept).toMatchObject({ status: 'running', message: GOES_ON, settled: ['sweep'], pages: pulled.pages });
    expect(pulled.settled).toEqual([]);
    expect(w.keys()).toEqual(['a|1', 'a|2', 'a|3', 'a|4', 'a|5', 'a|6', 'b|1']);
    expect(w.phoneParents()).toHaveLength(24);
    expect(w.marked()).toEqual([true, true]);

    const orphans = w.settle(swept, 0);
    expect(orphans).toMatchObject({ status: 'running', settled: ['sweep', 'child:telefones'] });
    expect(swept.settled).toEqual(['sweep']);
    expect(w.phoneParents()).toHaveLength(14);
    expect(w.marked()).toEqual([true, true]);

    w.lastPart(orphans);
  });

  it('with room for every part, ends done in that step', () => {
    const w = world({ a: twoPhones(), b: twoPhones() }, both);
    const done = w.again({ b: [] }, 60_000);
    expect(done).toMatchObject({ status: 'done', settled: ['sweep', 'child:telefones', 'marks'] });
    expect(w.keys()).toEqual(['a|1', 'a|2', 'a|3', 'a|4', 'a|5', 'a|6']);
    expect(w.marked()).toEqual([false, false]);
  });
});
