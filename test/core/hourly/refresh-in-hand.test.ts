/**
 * A due refresh whose check found the sheet changed: when the check read the
 * listing to its end and can tell it is whole, the usual run goes on from
 * what it read, asks the service for none of it again, and writes and settles
 * it with no checkpoint between. A listing the check cannot tell whole (not
 * counted by the service, whose page numbering may have changed since the
 * last walk) is walked again by the run.
 */
import { describe, expect, it } from 'vitest';
import type { HttpOutcome } from '../../../src/api/transport';
import { dispatch } from '../../../src/core/hourly/dispatch';
import { checkRefresh } from '../../../src/core/hourly/unchanged-run';
import { beginRun } from '../../../src/core/runs/begin';
import { stepRun } from '../../../src/core/runs/step';
import { trusted } from '../bulk/fixtures';
import { bulkJobStore } from '../../../src/core/bulk/stored-job';
import { type Asked, customers, PAGE_ROWS, refused, zone } from '../fake-service';
import { CALL_MS } from '../../../src/core/deadline';
import { FINISH_CALLS, type InHand } from '../../../src/core/pull/state';
import { HOUR, refresh, runToEnd, savesOf, type TaggedSheet, type World, world } from '../runs/run-world';

/** A scheduled report of `records` pulled to its end an hour ago, whose listing is now `now`. */
function changed(records: Array<Record<string, unknown>>, now: Array<Record<string, unknown>>, setUp: (w: World) => void = () => {}) {
  const w = world({ k1: records });
  setUp(w);
  const r = w.report({ schedule: { kind: 'hourly' } });
  refresh(w.deps, r.id, 'manual');
  expect(runToEnd(w, r.id).status).toBe('done');
  w.tick(HOUR);
  w.service.companies.k1 = now;
  const ids = () => (w.book.byName('Clientes') as TaggedSheet).grid.slice(1).map((row) => row[0]);
  return { w, r, ids };
}

/** The refresh the hourly run makes of `id`: the check, then the run from what it handed on, in one step. */
function refreshed(w: World, id: string) {
  const checked = checkRefresh(w.deps, w.reports.get(id));
  expect(checked.unchanged).toBeNull();
  const began = beginRun(w.deps, w.reports.get(id), 'agendado', null);
  return { checked, began, step: () => stepRun(w.deps, began.report, began.job, w.now() + 600_000, checked.inHand) };
}

/** A service that numbers its pages from `base` and does not count its listing (no totals, no page size). */
function uncounted(w: World, base: () => 0 | 1) {
  return ({ key, page }: Asked): HttpOutcome => {
    const records = w.service.companies[key];
    const at = page - base();
    const data = at < 0 ? [] : records.slice(at * PAGE_ROWS, (at + 1) * PAGE_ROWS);
    return { kind: 'response', status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ status: '200', message: [], data }) };
  };
}

describe('the run after a check that found the sheet changed', () => {
  it('asks the service for nothing the check read, and writes the listing as the check read it', () => {
    const { w, r, ids } = changed(customers(1, 7), customers(2, 8));
    const walked = w.reports.get(r.id).lastWalk;
    const { checked, step } = refreshed(w, r.id);
    expect(checked.inHand?.pages.flatMap((p) => p.records).map((c) => c.idCliente)).toEqual([2, 3, 4, 5, 6, 7, 8, 9]);
    const asked = w.service.asked.length;
    expect(step().progress.status).toBe('done');
    expect(w.service.asked.length).toBe(asked);
    expect(ids()).toEqual([2, 3, 4, 5, 6, 7, 8, 9]);
    expect(w.reports.get(r.id)).toMatchObject({ lastRun: { result: 'ok', rows: 8, origin: 'agendado' }, lastWalk: walked });
    expect(w.history().length).toBe(2);
  });

  it('saves its job where it began and nowhere after: no checkpoint and no flush until the run ends, its job then gone', () => {
    const { w, r } = changed(customers(1, 7), customers(1, 8));
    const { step } = refreshed(w, r.id);
    const events = savesOf(w);
    expect(step().progress.status).toBe('done');
    expect(events).toEqual([]);
    expect(w.deps.jobs.get(r.id)).toBeNull();
  });

  it('takes what it was handed when its write, at its worst, ends before the execution must stop', () => {
    const { w, r, ids } = changed(customers(1, 7), customers(2, 8));
    const { step } = refreshed(w, r.id);
    w.deps.limit = w.now() + 60_000;
    const asked = w.service.asked.length;
    expect(step().progress.status).toBe('done');
    expect(w.service.asked.length).toBe(asked);
    expect(ids()).toEqual([2, 3, 4, 5, 6, 7, 8, 9]);
    // The write of eight rows, not only its calls, must fit.
    const tight = changed(customers(1, 7), customers(2, 8));
    const again = refreshed(tight.w, tight.r.id);
    tight.w.deps.limit = tight.w.now() + FINISH_CALLS * CALL_MS + 1;
    expect(again.step().progress.status).toBe('running');
    expect(tight.ids()).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('leaves what it was handed when its write would not end before the execution must stop: the run goes on as any other, in a later step', () => {
    const { w, r, ids } = changed(customers(1, 7), customers(2, 8));
    const { began, step } = refreshed(w, r.id);
    w.deps.limit = w.now() + 100;
    expect(step().progress.status).toBe('running');
    expect(ids()).toEqual([1, 2, 3, 4, 5, 6, 7]);
    w.deps.limit = undefined;
    const asked = w.service.asked.length;
    const job = w.deps.jobs.get(r.id);
    expect(job?.state).toMatchObject({ pager: null, rows: 0 });
    expect(stepRun(w.deps, began.report, job as NonNullable<typeof job>, w.now() + 600_000).progress.status).toBe('done');
    expect(w.service.asked.length).toBeGreaterThan(asked);
    expect(ids()).toEqual([2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('walks the listing itself when what it was handed was read for another listing or other filters', () => {
    for (const other of [{ filters: { nome: 'Cliente' } }, { listing: 'faturas' as const }]) {
      const { w, r, ids } = changed(customers(1, 7), customers(2, 8));
      const { checked, began } = refreshed(w, r.id);
      const asked = w.service.asked.length;
      const handed = { ...(checked.inHand as InHand), ...other };
      expect(stepRun(w.deps, began.report, began.job, w.now() + 600_000, handed).progress.status).toBe('done');
      expect(w.service.asked.length).toBeGreaterThan(asked);
      expect(ids()).toEqual([2, 3, 4, 5, 6, 7, 8, 9]);
    }
  });

  it('refuses up front, as a walk would, a listing in hand the spreadsheet cannot take', () => {
    const { w, r, ids } = changed(customers(1, 7), customers(2, 8));
    const { checked, began } = refreshed(w, r.id);
    const inHand = checked.inHand as InHand;
    const huge = { ...inHand, pager: { ...inHand.pager, totalRows: 1_000_000 } };
    const run = stepRun(w.deps, began.report, began.job, w.now() + 600_000, huge);
    expect(run.progress.status).toBe('failed');
    expect(run.progress.message).toMatch(/células/);
    expect(ids()).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('is handed nothing by a check that did not read the listing to its end, and walks it itself', () => {
    const { w, r, ids } = changed(customers(1, 7), customers(1, 3 * 25));
    const { checked, step } = refreshed(w, r.id);
    expect(checked.inHand).toBeUndefined();
    expect(step().progress.status).toBe('done');
    expect(ids()).toHaveLength(75);
  });

  it('from the hourly run: the due report is refreshed from what its check read, in the round trip of the check', () => {
    const { w, r, ids } = changed(customers(1, 7), customers(1, 8));
    const trips = w.service.trips;
    const stored = { reports: w.reports.list(), pulls: w.deps.jobs.list(), bulk: [] };
    const bulk = { book: w.book, jobs: bulkJobStore(trusted()), zone, now: w.now, sleep: () => {}, newId: () => 'id', clientFor: w.deps.clientFor };
    const result = dispatch({ runs: w.deps, bulk }, stored, w.now() + 5 * 60_000);
    expect(result.started).toEqual([r.id]);
    expect(w.service.trips - trips).toBe(1);
    expect(ids()).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(w.reports.get(r.id).lastRun).toMatchObject({ result: 'ok', rows: 8, origin: 'agendado' });
  });
});

describe('a listing the service counts', () => {
  it('numbered from 1: what the check read is whole by the count, and no page 0 is asked', () => {
    const { w, r, ids } = changed(customers(1, 7), customers(1, 8), (w) => {
      w.service.fault = ({ key, page }) => (page === 0 ? refused(404, 'Página inexistente') : w.service.page(key, page - 1));
    });
    expect(w.reports.get(r.id).lastWalk?.base).toBe(1);
    const before = w.service.asked.length;
    const { checked, step } = refreshed(w, r.id);
    expect(checked.inHand).toBeDefined();
    expect(w.service.asked.slice(before).map((a) => a.page)).not.toContain(0);
    const asked = w.service.asked.length;
    expect(step().progress.status).toBe('done');
    expect(w.service.asked.length).toBe(asked);
    expect(ids()).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });
});

describe('a listing the service does not count', () => {
  it('numbered from 1 as at the last walk: page 0 alone is asked, and the run asks for nothing more', () => {
    const { w, r, ids } = changed(customers(1, 7), customers(1, 8), (w) => {
      w.service.fault = uncounted(w, () => 1);
    });
    expect(w.reports.get(r.id).lastWalk).toEqual({ base: 1, pages: 3 });
    const before = w.service.asked.length;
    const { checked, step } = refreshed(w, r.id);
    // The check's walk (the last walk's three pages and one more, in one round trip), then page 0 in a round trip of its own.
    const asked = w.service.asked.slice(before);
    expect(asked.map((a) => a.page)).toEqual([1, 2, 3, 4, 0]);
    expect(asked[4].trip).toBe(asked[3].trip + 1);
    expect(checked.inHand).toBeDefined();
    const after = w.service.asked.length;
    expect(step().progress.status).toBe('done');
    expect(w.service.asked.length).toBe(after);
    expect(ids()).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('numbered from 0 as at the last walk: handed on, with no page asked again', () => {
    const { w, r, ids } = changed(customers(1, 7), customers(1, 8), (w) => {
      w.service.fault = uncounted(w, () => 0);
    });
    expect(w.reports.get(r.id).lastWalk?.base).toBe(0);
    const before = w.service.asked.length;
    const { checked, step } = refreshed(w, r.id);
    expect(checked.inHand).toBeDefined();
    const pages = w.service.asked.slice(before).map((a) => a.page);
    expect(new Set(pages).size).toBe(pages.length);
    expect(step().progress.status).toBe('done');
    expect(w.service.asked.length - before).toBe(pages.length);
    expect(ids()).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('read by a check that told the numbering itself (no last walk): page 0 is not asked again', () => {
    // Four records: the check's two round trips read them all from the start (pages 0 and 1, then 2).
    const { w, r } = changed(customers(1, 3), customers(1, 4), (w) => {
      w.service.fault = uncounted(w, () => 1);
    });
    const before = w.service.asked.length;
    const checked = checkRefresh(w.deps, { ...w.reports.get(r.id), lastWalk: undefined });
    expect(checked.inHand).toBeDefined();
    const pages = w.service.asked.slice(before).map((a) => a.page);
    expect(pages.filter((p) => p === 0)).toEqual([0]);
  });

  it('now numbered from 1 where the last walk found 0, page 0 empty: the check read nothing, hands on nothing, and the run walks every record', () => {
    let base: 0 | 1 = 0;
    const { w, r, ids } = changed(customers(1, 7), customers(1, 8), (w) => {
      w.service.fault = uncounted(w, () => base);
    });
    expect(w.reports.get(r.id).lastWalk?.base).toBe(0);
    base = 1;
    const { checked, step } = refreshed(w, r.id);
    expect(checked.inHand).toBeUndefined();
    expect(step().progress.status).toBe('done');
    expect(ids()).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('now numbered from 0 where the last walk found 1: the check misses the first page, hands on nothing, and the run walks every record', () => {
    let base: 0 | 1 = 1;
    const { w, r, ids } = changed(customers(1, 7), customers(1, 8), (w) => {
      w.service.fault = uncounted(w, () => base);
    });
    base = 0;
    const { checked, step } = refreshed(w, r.id);
    expect(checked.inHand).toBeUndefined();
    expect(step().progress.status).toBe('done');
    expect(ids()).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(w.reports.get(r.id).lastWalk?.base).toBe(0);
  });

  it('whose page 0 fails: nothing is handed on, and the run meets the service itself', () => {
    const { w, r, ids } = changed(customers(1, 7), customers(1, 8), (w) => {
      w.service.fault = uncounted(w, () => 1);
    });
    const serve = w.service.fault;
    w.service.fault = (asked) => (asked.page === 0 ? { kind: 'network-error', message: 'ECONNRESET' } : serve(asked));
    const { checked, step } = refreshed(w, r.id);
    expect(checked.inHand).toBeUndefined();
    expect(step().progress.status).toBe('failed');
    expect(ids()).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });
});

describe('a run whose walk has begun', () => {
  it('goes on from where it stands, whatever listing in hand it is given', () => {
    const { w, r, ids } = changed(customers(1, 7), customers(2, 12));
    const { checked, began } = refreshed(w, r.id);
    const first = stepRun(w.deps, began.report, began.job, w.now() + 1_500);
    expect(first.job.state.pager).not.toBeNull();
    const asked = w.service.asked.length;
    expect(stepRun(w.deps, first.report, first.job, w.now() + 600_000, checked.inHand).progress.status).toBe('done');
    expect(w.service.asked.length).toBeGreaterThan(asked);
    expect(ids()).toEqual(Array.from({ length: 12 }, (_, i) => i + 2));
  });
});
