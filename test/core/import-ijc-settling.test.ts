/**
 * The settling of a full pull (stale rows, each child sheet's orphans, the
 * marks) when the step that wrote the last page has little time left: the
 * parts that fit are done, the next steps go on, the first part at least in a
 * step that did nothing else, and the sheets stay marked incomplete until the
 * last part.
 */
import { describe, expect, it } from 'vitest';
import { CALL_MS, CELL_READ_MS } from '../../src/core/deadline';
import { FINISH_CALLS, type ImportState } from '../../src/core/import-job';
import { PARTIAL_MARK } from '../../src/core/sheet-names';
import { column, world as document, HOUR, withPhones } from './import-ijc-world';

const GOES_ON = 'Todas as páginas foram gravadas; a conferência final das linhas continua na próxima etapa.';

/**
 * A document pulled once in full; `again` starts a second full pull of `records` whose round trips end `left` ms
 * before the step's limit (a slow service that took most of the execution).
 */
function world(first: Array<Record<string, unknown>>) {
  const w = document({ k: first });
  expect(w.run().status).toBe('done');
  const sheet = w.sheet();
  const phones = w.child('telefones');
  const again = (records: Array<Record<string, unknown>>, left: number) => {
    w.tick(HOUR);
    w.service.companies.k = records;
    const limit = w.now() + 1_000_000;
    w.arriveAt(limit - left);
    const state = w.step(w.start(), { deadline: w.now() + 600_000, limit });
    w.arriveAt(undefined);
    return state;
  };
  /** A step of the settling with `left` ms before its limit. */
  const settle = (s: ImportState, left: number) => w.step(s, { deadline: w.now() + 600_000, limit: w.now() + left });
  return {
    saved: w.saved,
    again,
    settle,
    customers: () => column(sheet, 'ID do cliente'),
    phoneParents: () => column(phones, 'ID do cliente'),
    marked: () => [sheet, phones].map((s) => String(s.grid[0][0]).startsWith(PARTIAL_MARK)),
  };
}

describe('a settling that does not fit the step that wrote the last page', () => {
  it('is done part by part in the next steps, the first part at least each time, the sheets marked until the last', () => {
    const w = world(withPhones(1, 6));
    // Customers 2 and 5 left the service.
    const pulled = w.again(
      withPhones(1, 6).filter((c) => c.idCliente !== 2 && c.idCliente !== 5),
      100,
    );
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

    const done = w.settle(orphans, 0);
    expect(done).toMatchObject({ status: 'done', settled: ['sweep', 'child:telefones', 'marks'] });
    expect(done.message).toBeUndefined();
    expect(w.marked()).toEqual([false, false]);
  });

  it('with room for every part, ends done in that step', () => {
    const w = world(withPhones(1, 6));
    const done = w.again(withPhones(1, 3), 60_000);
    expect(done).toMatchObject({ status: 'done', settled: ['sweep', 'child:telefones', 'marks'] });
    expect(w.customers()).toEqual([1, 2, 3]);
    expect(w.phoneParents()).toEqual([1, 2, 3]);
    expect(w.marked()).toEqual([false, false]);
  });

  it('a listing that came back empty wrote nothing: its step does the first part even without time for it', () => {
    const w = world(withPhones(1, 6));
    const swept = w.again([], 100);
    expect(swept).toMatchObject({ status: 'running', message: GOES_ON, rows: 0, settled: ['sweep'] });
    expect(w.customers()).toEqual([]);
    expect(w.phoneParents()).toEqual([1, 2, 3, 4, 5, 6]);
  });
});

describe('what each part of the settling is planned to cost', () => {
  // Six customers with two phones each; the second run brings the same six: 6 report rows, 12 item rows.
  const twoPhones = () => withPhones(1, 6, (id) => [{ numero: `11${id}` }, { numero: `12${id}` }]);
  const settledWith = (left: number) => {
    const w = world(twoPhones());
    return w.again(twoPhones(), left).settled;
  };
  // The sweep reads the key and "Recebido em" of each row; a child's orphans, the parent keys and each item's parent; both then
  // make the finishing calls. Lifting the marks is calls only: the finishing ones and two per child list.
  const sweep = 6 * 2 * CELL_READ_MS + FINISH_CALLS * CALL_MS;
  const orphans = (6 + 12) * CELL_READ_MS + FINISH_CALLS * CALL_MS;
  const marks = (FINISH_CALLS + 2 * 2) * CALL_MS;

  it('a part starts only when its reads and calls fit before the limit', () => {
    expect(settledWith(sweep - 0.03)).toEqual([]);
    expect(settledWith(sweep + 0.03)).toEqual(['sweep']);
    expect(settledWith(orphans - 0.03)).toEqual(['sweep']);
    expect(settledWith(orphans + 0.03)).toEqual(['sweep', 'child:telefones']);
    expect(settledWith(marks - 0.03)).toEqual(['sweep', 'child:telefones']);
    expect(settledWith(marks + 0.03)).toEqual(['sweep', 'child:telefones', 'marks']);
  });
});
