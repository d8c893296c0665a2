/**
 * The hourly dispatcher's choices through its ports, without the emulator:
 * which pulls it continues (and which it leaves to a sidebar), which reports
 * it starts, how it shares one execution between kinds of work, what it
 * leaves for the next hour, and when the document still needs the trigger.
 */
import { describe, expect, it } from 'vitest';
import type { BulkDeps, BulkJob } from '../../../src/core/bulk/state';
import { bulkJobStore } from '../../../src/core/bulk/stored-job';
import {
  bulkToContinue,
  dispatch,
  dueReports,
  IDLE_MS,
  nextDueAt,
  ownWork,
  pullsToContinue,
  type StoredWork,
  storedWork,
  wantsDispatcher,
  DISPATCHERS_PER_OWNER,
  triggerPlan,
} from '../../../src/core/hourly/dispatch';
import { beginRun } from '../../../src/core/runs/begin';
import type { PullJob } from '../../../src/core/runs/deps';
import type { Report } from '../../../src/core/reports/reports';
import { trusted } from '../bulk/fixtures';
import { customers, timedOut, zone } from '../fake-service';
import { HOUR, T0, type World, world } from '../runs/run-world';

const MINUTE = 60_000;

function bulkDeps(w: World): BulkDeps {
  return {
    book: w.book,
    jobs: bulkJobStore(trusted()),
    zone,
    now: w.now,
    sleep: () => {},
    newId: () => 'id',
    clientFor: w.deps.clientFor,
  };
}

/** A bulk run as stored, on a sheet that may no longer exist. */
const bulkJob = (id: string, fields: Partial<BulkJob> = {}): BulkJob =>
  ({
    id,
    operation: 'emitirNfse',
    sheetId: 999,
    sheetName: 'Notas',
    connection: 'Empresa k1',
    ranges: [[2, 3]],
    retry: [],
    pass: 0,
    cursor: 0,
    total: 2,
    counts: { ok: 0, existing: 0, skipped: 0, failed: 0, pending: 0 },
    batchSize: 10,
    maxBatch: 10,
    status: 'running',
    startedAt: T0,
    updatedAt: T0,
    steps: 0,
    ...fields,
  }) as BulkJob;

const pull = (reportId: string, fields: Partial<PullJob['state']> = {}, origin: PullJob['origin'] = 'manual'): PullJob =>
  ({ reportId, origin, state: { status: 'running', updatedAt: T0, spec: { listing: 'clientes', sheetName: 'Clientes' }, ...fields } }) as PullJob;

const report = (id: string, fields: Partial<Report> = {}): Report =>
  ({ id, name: id, listing: 'clientes', sheetName: 'Clientes', schedule: null, createdAt: T0, filters: {}, ...fields }) as Report;

describe('what the dispatcher picks', () => {
  it('continues running pulls a sidebar left idle, oldest first; a scheduled one at once; never a failed one or one asked to wait', () => {
    const now = T0 + IDLE_MS;
    const pulls = [
      pull('recent', { updatedAt: now - IDLE_MS + 1 }),
      pull('idle', { updatedAt: now - IDLE_MS }),
      pull('older', { updatedAt: now - IDLE_MS - 5 }),
      pull('scheduled', { updatedAt: now }, 'agendado'),
      pull('failed', { status: 'failed', updatedAt: T0 - HOUR }),
      pull('waiting', { updatedAt: T0 - HOUR, notBefore: now + 1 }),
      pull('waited', { updatedAt: T0 - HOUR, notBefore: now }),
    ];
    expect(pullsToContinue(pulls, now).map((p) => p.reportId)).toEqual(['waited', 'older', 'idle', 'scheduled']);
    expect(pullsToContinue(pulls, now, 0).map((p) => p.reportId)).toEqual(['waited', 'older', 'idle', 'recent', 'scheduled']);
  });

  it('continues running bulk runs left idle, oldest first', () => {
    const now = T0 + IDLE_MS;
    const jobs = [
      bulkJob('b', { updatedAt: T0 }),
      bulkJob('a', { updatedAt: T0 - 1 }),
      bulkJob('new', { updatedAt: now - 1 }),
      bulkJob('done', { status: 'done', updatedAt: 0 }),
    ];
    expect(bulkToContinue(jobs, now).map((j) => j.id)).toEqual(['a', 'b']);
  });

  it('starts scheduled reports once their next run has come, unless paused or still running', () => {
    const at = new Date(T0);
    const hourly = { kind: 'hourly' } as const;
    const work: StoredWork = {
      reports: [
        report('due', { schedule: hourly, scheduleSince: T0 - HOUR }),
        report('not yet', { schedule: hourly, scheduleSince: T0 }),
        report('just due', { schedule: hourly, scheduleSince: T0 - 1 }),
        report('never scheduled'),
        report('paused', { schedule: hourly, scheduleSince: T0 - HOUR, pausedUntil: T0 + 1 }),
        report('pause over', { schedule: hourly, scheduleSince: T0 - HOUR, pausedUntil: T0 }),
        report('running', { schedule: hourly, scheduleSince: T0 - HOUR }),
        report('failed before', { schedule: hourly, scheduleSince: T0 - HOUR }),
        report('from creation', { schedule: hourly, createdAt: T0 - 2 * HOUR }),
      ],
      pulls: [pull('running'), pull('failed before', { status: 'failed' })],
      bulk: [],
    };
    expect(dueReports(work, at, zone).map((r) => r.id)).toEqual(['due', 'just due', 'pause over', 'failed before', 'from creation']);
  });

  it('keeps the trigger exactly while a report is scheduled or a pull or bulk run is unfinished', () => {
    const none: StoredWork = { reports: [report('a')], pulls: [pull('a', { status: 'failed' })], bulk: [bulkJob('b', { status: 'done' })] };
    expect(wantsDispatcher(none)).toBe(false);
    expect(wantsDispatcher({ ...none, reports: [report('a', { schedule: { kind: 'hourly' } })] })).toBe(true);
    expect(wantsDispatcher({ ...none, pulls: [pull('a')] })).toBe(true);
    expect(wantsDispatcher({ ...none, bulk: [bulkJob('b')] })).toBe(true);
    // One of several is enough.
    expect(wantsDispatcher({ ...none, reports: [report('a'), report('b', { schedule: { kind: 'hourly' } })] })).toBe(true);
    expect(wantsDispatcher({ ...none, pulls: [pull('a', { status: 'done' }), pull('b')] })).toBe(true);
    expect(wantsDispatcher({ ...none, bulk: [bulkJob('a', { status: 'failed' }), bulkJob('b')] })).toBe(true);
    // A Central that refreshes itself every hour.
    expect(wantsDispatcher({ ...none, central: { owner: 'u1', next: T0, schedule: {} } })).toBe(true);
  });

  it("counts the Central's next refresh among the document's next work", () => {
    const none: StoredWork = { reports: [], pulls: [], bulk: [] };
    expect(nextDueAt(none, zone)).toBeNull();
    expect(nextDueAt({ ...none, central: { owner: 'u1', next: T0 + 5 * MINUTE, schedule: {} } }, zone)).toBe(T0 + 5 * MINUTE);
    const scheduled = report('a', { schedule: { kind: 'hourly' }, scheduleSince: T0 });
    const reportAt = nextDueAt({ ...none, reports: [scheduled] }, zone)!;
    expect(nextDueAt({ ...none, reports: [scheduled], central: { owner: 'u1', next: reportAt + MINUTE, schedule: {} } }, zone)).toBe(reportAt);
    expect(nextDueAt({ ...none, reports: [scheduled], central: { owner: 'u1', next: reportAt - MINUTE, schedule: {} } }, zone)).toBe(reportAt - MINUTE);
  });
});

describe('whose work a trigger runs', () => {
  const me = { id: 'u1', email: 'eu@example.com' };
  const other = { id: 'u2', email: 'outra@example.com' };

  it("only the running user's vouched work, and a pull only while it still writes what its report says", () => {
    const work: StoredWork = {
      reports: [report('mine', { owner: me }), report('theirs', { owner: other }), report('moved', { owner: me, sheetName: 'Outra aba' })],
      pulls: [pull('mine'), pull('theirs'), pull('moved'), pull('gone')],
      bulk: [bulkJob('b1', { owner: me }), bulkJob('b2', { owner: other })],
    };
    const own = ownWork(
      { ...work, central: { owner: other.id, next: 0, schedule: {} } },
      { me: me.id, report: (r) => r.owner?.id === me.id, bulk: (j) => j.owner?.id === me.id, sealed: () => true },
    );
    expect(own.reports.map((r) => r.id)).toEqual(['mine', 'moved']);
    // A colleague's Central schedule is theirs to run.
    expect(own.central).toBeUndefined();
    const mine = { owner: me.id, next: 5, schedule: {} };
    expect(ownWork({ ...work, central: mine }, { me: me.id, report: () => true, bulk: () => true, sealed: () => true }).central).toEqual(mine);
    // One changed by someone else in the hidden sheet is not run.
    expect(ownWork({ ...work, central: mine }, { me: me.id, report: () => true, bulk: () => true, sealed: () => false }).central).toBeUndefined();
    expect(own.pulls.map((p) => p.reportId)).toEqual(['mine']);
    expect(own.bulk.map((j) => j.id)).toEqual(['b1']);
    const otherListing = ownWork(
      { ...work, pulls: [pull('mine', { spec: { listing: 'faturas', sheetName: 'Clientes' } as PullJob['state']['spec'] })] },
      {
        me: me.id,
        report: () => true,
        bulk: () => true,
        sealed: () => true,
      },
    );
    expect(otherListing.pulls).toEqual([]);
  });

  it('reads the stored work in one go', () => {
    const w = world();
    const r = w.report();
    beginRun(w.deps, r, 'manual', null);
    const jobs = bulkJobStore(trusted());
    jobs.put('b1', bulkJob('b1'));
    const work = storedWork(w.reports, w.deps.jobs, jobs);
    expect(work.reports.map((x) => x.id)).toEqual([r.id]);
    expect(work.pulls.map((p) => p.reportId)).toEqual([r.id]);
    expect(work.bulk.map((j) => j.id)).toEqual(['b1']);
  });
});

describe('the hourly run', () => {
  const stored = (w: World, bulk: BulkJob[] = []): StoredWork => ({ reports: w.reports.list(), pulls: w.deps.jobs.list(), bulk });

  it('finishes an idle pull and starts a due report, each saying how it went', () => {
    const w = world({ k1: customers(1, 7) });
    const idle = w.report({ name: 'Parado' });
    beginRun(w.deps, idle, 'manual', null);
    const due = w.report({ name: 'Agendado', sheetName: 'Agendados', schedule: { kind: 'hourly' }, scheduleSince: T0 - HOUR });
    w.tick(IDLE_MS);
    const result = dispatch({ runs: w.deps, bulk: bulkDeps(w) }, stored(w), w.now() + 5 * MINUTE);
    expect(result).toEqual({ continued: [idle.id], started: [due.id], bulk: [], left: [] });
    expect(w.reports.get(idle.id).lastRun).toMatchObject({ result: 'ok', origin: 'manual', rows: 7 });
    const ran = w.reports.get(due.id);
    expect(ran.lastRun).toMatchObject({ result: 'ok', origin: 'agendado', rows: 7 });
    // The schedule counts from this run on.
    expect(ran.scheduleSince).toBe(T0 + IDLE_MS);
    expect(w.deps.jobs.list()).toEqual([]);
  });

  it('runs now the reports of a company a person asked for, as theirs, without counting it as the schedule’s turn', () => {
    const w = world({ k1: customers(1, 7), k2: customers(2, 3) });
    const scheduled = w.report({ name: 'Diário', schedule: { kind: 'daily', hour: 6 }, scheduleSince: T0 });
    const plain = w.report({ name: 'Avulso', sheetName: 'Avulso' });
    const other = w.report({ name: 'Outra empresa', sheetName: 'Outra', connectionId: 'k2' });
    const result = dispatch({ runs: w.deps, bulk: bulkDeps(w) }, stored(w), w.now() + 5 * MINUTE, { asked: new Set(['k1']) });
    expect(result.started.sort()).toEqual([scheduled.id, plain.id].sort());
    expect(w.reports.get(plain.id).lastRun).toMatchObject({ result: 'ok', origin: 'manual', rows: 7 });
    expect(w.reports.get(scheduled.id).scheduleSince).toBe(T0);
    expect(w.reports.get(other.id).lastRun).toBeUndefined();
    // Asked for nothing: nothing but what is due.
    const again = dispatch({ runs: w.deps, bulk: bulkDeps(w) }, stored(w), w.now() + 5 * MINUTE);
    expect(again.started).toEqual([]);
  });

  it("forgets the pull of a deleted report, and leaves a sidebar's recent pull to it", () => {
    const w = world();
    const gone = w.report();
    beginRun(w.deps, gone, 'manual', null);
    w.reports.delete(gone.id);
    w.tick(IDLE_MS);
    const recent = w.report({ sheetName: 'Recente' });
    beginRun(w.deps, recent, 'manual', null);
    const result = dispatch({ runs: w.deps, bulk: bulkDeps(w) }, stored(w), w.now() + 5 * MINUTE);
    expect(result).toEqual({ continued: [], started: [], bulk: [], left: [] });
    expect(w.deps.jobs.get(gone.id)).toBeNull();
    expect(w.deps.jobs.get(recent.id)?.state.status).toBe('running');
  });

  it('shares the execution: a long pull leaves time for a due report, and goes on next hour', () => {
    const w = world({ k1: customers(1, 600) });
    const long = w.report({ name: 'Longo' });
    beginRun(w.deps, long, 'manual', null);
    w.tick(IDLE_MS);
    const due = w.report({ name: 'Agendado', sheetName: 'Agendados', schedule: { kind: 'hourly' }, scheduleSince: T0 - HOUR });
    w.service.companies.k1 = customers(1, 600);
    // 200 pages of 3 rows, ten pages a second: the pull alone needs 20 s; the run has 12 s (less a tenth for the end).
    const result = dispatch({ runs: w.deps, bulk: bulkDeps(w) }, stored(w), w.now() + 12_000);
    expect(result.started).toEqual([]);
    expect(result.left).toEqual([long.id, due.id]);
    const pulled = w.deps.jobs.get(long.id)?.state.rows ?? 0;
    expect(pulled).toBeGreaterThan(0);
    expect(w.deps.jobs.get(due.id)?.state.status).toBe('running');
    expect(w.reports.get(due.id).lastRun).toMatchObject({ result: 'em andamento', origin: 'agendado' });
  });

  it('a due report gets its share even when an unfinished pull could use the whole execution', () => {
    const w = world({ k1: customers(1, 600) });
    const long = w.report({ name: 'Longo' });
    beginRun(w.deps, long, 'manual', null);
    w.tick(IDLE_MS);
    const small = w.report({ name: 'Pequeno', sheetName: 'Pequeno', schedule: { kind: 'hourly' }, scheduleSince: T0 - HOUR, connectionId: 'k2' });
    // Three round trips (a second each) of its own: more than a pull that took the whole run would leave it.
    w.service.companies.k2 = customers(1, 60);
    const result = dispatch({ runs: w.deps, bulk: bulkDeps(w) }, stored(w), w.now() + 12_000);
    expect(result.started).toEqual([small.id]);
    expect(result.left).toEqual([long.id]);
  });

  it("gives the Central's refresh its share beside a long pull, and stops asking it once it is done", () => {
    const w = world({ k1: customers(1, 600) });
    const long = w.report({ name: 'Longo' });
    beginRun(w.deps, long, 'manual', null);
    w.tick(IDLE_MS);
    const shares: number[] = [];
    let left = 3;
    const central = {
      pending: () => left > 0,
      step(until: number) {
        shares.push(until - w.now());
        w.tick(1_000);
        left -= 1;
        return true;
      },
    };
    const result = dispatch({ runs: w.deps, bulk: bulkDeps(w), central }, stored(w), w.now() + 12_000);
    expect(left).toBe(0);
    // Its first turn: the time left shared with the pull still waiting.
    expect(shares[0]).toBeGreaterThan(0);
    expect(shares[0]).toBeLessThan(12_000 * 0.9);
    expect(result.left).toEqual([long.id]);
  });

  it('a pull that cannot move (its service does not answer) is left for the next hour without spinning', () => {
    const w = world({ k1: customers(1, 30) });
    const r = w.report();
    beginRun(w.deps, r, 'agendado', null);
    w.service.fault = () => timedOut;
    const result = dispatch({ runs: w.deps, bulk: bulkDeps(w) }, stored(w), w.now() + 5 * MINUTE);
    expect(result).toEqual({ continued: [], started: [], bulk: [], left: [r.id] });
    expect(w.service.trips).toBe(1);
  });

  it('finishes an idle bulk run (one whose sheet was deleted ends failed) alongside the pulls', () => {
    const w = world();
    const deps = bulkDeps(w);
    const job = bulkJob('b1', { updatedAt: T0 - IDLE_MS });
    const result = dispatch({ runs: w.deps, bulk: deps }, stored(w, [job]), w.now() + 5 * MINUTE);
    expect(result).toEqual({ continued: [], started: [], bulk: ['b1'], left: [] });
    expect(deps.jobs.get('b1')?.status).toBe('failed');
  });

  it('leaves the last tenth of the execution for the final writes, Histórico and the trigger upkeep', () => {
    const w = world({ k1: customers(1, 3_000) });
    const r = w.report();
    beginRun(w.deps, r, 'agendado', null);
    const start = w.now();
    const result = dispatch({ runs: w.deps, bulk: bulkDeps(w) }, stored(w), start + 20_000);
    expect(result.left).toEqual([r.id]);
    // Waves of a second each, none started unless another could follow before 18 s.
    expect(w.now() - start).toBeGreaterThanOrEqual(16_000);
    expect(w.now() - start).toBeLessThanOrEqual(18_000);
  });

  it('with no time left, starts nothing and leaves everything for the next hour', () => {
    const w = world();
    const r = w.report({ schedule: { kind: 'hourly' }, scheduleSince: T0 - HOUR });
    const job = bulkJob('b1', { updatedAt: T0 - IDLE_MS });
    const result = dispatch({ runs: w.deps, bulk: bulkDeps(w) }, stored(w, [job]), w.now());
    expect(result).toEqual({ continued: [], started: [], bulk: [], left: ['b1', r.id] });
    expect(w.service.asked).toEqual([]);
  });
});

describe('which of the owner’s documents carry their hourly trigger', () => {
  const ids = (n: number) => Array.from({ length: n }, (_, i) => `t${i}`);

  it('a document with work of its own gets one while the owner has fewer than the few they keep', () => {
    expect(triggerPlan({ ownWork: true, workElsewhere: false, here: null, all: ids(DISPATCHERS_PER_OWNER - 1) })).toBe('create');
    expect(triggerPlan({ ownWork: true, workElsewhere: true, here: null, all: ids(DISPATCHERS_PER_OWNER) })).toBe('none');
    expect(triggerPlan({ ownWork: false, workElsewhere: true, here: null, all: [] })).toBe('none');
  });

  it('one keeps its trigger while there is work here or elsewhere, and it is among the first few by id', () => {
    const all = ['t5', 't1', 't9', 't3', 't7', 't2'];
    // Sorted: t1 t2 t3 t5 | t7 t9.
    for (const here of ['t1', 't2', 't3', 't5']) {
      expect(triggerPlan({ ownWork: true, workElsewhere: false, here, all })).toBe('keep');
      expect(triggerPlan({ ownWork: false, workElsewhere: true, here, all })).toBe('keep');
      expect(triggerPlan({ ownWork: false, workElsewhere: false, here, all })).toBe('none');
    }
    for (const here of ['t7', 't9']) expect(triggerPlan({ ownWork: true, workElsewhere: true, here, all })).toBe('none');
    expect(DISPATCHERS_PER_OWNER).toBe(4);
  });
});
