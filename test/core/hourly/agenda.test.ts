/**
 * The owner's agenda: when each document's work is next due, agreeing with
 * what the dispatcher would pick at that moment, and the record in the owner's
 * properties that says which documents an hourly run opens.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AgendaStore, dueDocuments, MISSES_BEFORE_DROP } from '../../../src/core/hourly/agenda';
import type { BulkJob } from '../../../src/core/bulk/state';
import { bulkToContinue, dueReports, nextDueAt, pullsToContinue, type StoredWork } from '../../../src/core/hourly/dispatch';
import type { PullJob } from '../../../src/core/runs/deps';
import type { Report } from '../../../src/core/reports/reports';
import type { Schedule } from '../../../src/core/reports/schedule';
import { MemoryStore } from '../bulk/fixtures';
import { zone } from '../fake-service';
import { HOUR, T0 } from '../runs/run-world';

const MINUTE = 60_000;

const report = (id: string, schedule: Schedule | null, fields: Partial<Report> = {}): Report =>
  ({ id, name: id, listing: 'clientes', sheetName: 'Clientes', schedule, createdAt: T0, filters: {}, ...fields }) as Report;
const pull = (reportId: string, fields: Partial<PullJob['state']>, origin: PullJob['origin'] = 'manual'): PullJob =>
  ({ reportId, origin, state: { status: 'running', updatedAt: T0, spec: { listing: 'clientes', sheetName: 'Clientes' }, ...fields } }) as PullJob;
const bulk = (id: string, status: BulkJob['status'], updatedAt: number): BulkJob => ({ id, status, updatedAt }) as BulkJob;

/** Whether the dispatcher would find anything to do in `work` at `at`. */
const anythingDue = (work: StoredWork, at: number) =>
  dueReports(work, new Date(at), zone).length > 0 || pullsToContinue(work.pulls, at).length > 0 || bulkToContinue(work.bulk, at).length > 0;

const schedules: fc.Arbitrary<Schedule | null> = fc.oneof(
  fc.constant(null),
  fc.constant({ kind: 'hourly' as const }),
  fc.integer({ min: 2, max: 24 }).map((hours) => ({ kind: 'everyHours' as const, hours })),
  fc.integer({ min: 0, max: 23 }).map((hour) => ({ kind: 'daily' as const, hour })),
  fc.record({ weekday: fc.integer({ min: 0, max: 6 }), hour: fc.integer({ min: 0, max: 23 }) }).map((w) => ({ kind: 'weekly' as const, ...w })),
  fc.record({ day: fc.integer({ min: 1, max: 31 }), hour: fc.integer({ min: 0, max: 23 }) }).map((m) => ({ kind: 'monthly' as const, ...m })),
);

const works: fc.Arbitrary<StoredWork> = fc
  .record({
    reports: fc.array(fc.tuple(schedules, fc.integer({ min: 0, max: 40 * 24 }), fc.option(fc.integer({ min: 0, max: 48 }), { nil: undefined })), {
      maxLength: 4,
    }),
    pulls: fc.array(
      fc.tuple(
        fc.integer({ min: 0, max: 3 }),
        fc.constantFrom('running', 'failed'),
        fc.constantFrom('manual', 'agendado'),
        fc.integer({ min: 0, max: 30 }),
        // A pull told to wait (a pause the service asked for), up to two hours from now.
        fc.option(fc.integer({ min: -30, max: 120 }), { nil: undefined }),
      ),
      {
        maxLength: 3,
      },
    ),
    bulk: fc.array(fc.tuple(fc.constantFrom('running', 'done'), fc.integer({ min: 0, max: 30 })), { maxLength: 2 }),
  })
  .map(({ reports, pulls, bulk: jobs }) => ({
    reports: reports.map(([schedule, sinceHours, pausedHours], i) =>
      report(`r${i}`, schedule, { scheduleSince: T0 - sinceHours * HOUR, pausedUntil: pausedHours === undefined ? undefined : T0 + pausedHours * HOUR }),
    ),
    pulls: pulls.map(([i, status, origin, minutes, waitMinutes]) =>
      pull(
        `r${i}`,
        { status: status as 'running', updatedAt: T0 - minutes * MINUTE, ...(waitMinutes === undefined ? {} : { notBefore: T0 + waitMinutes * MINUTE }) },
        origin as PullJob['origin'],
      ),
    ),
    bulk: jobs.map(([status, minutes], i) => bulk(`b${i}`, status as BulkJob['status'], T0 - minutes * MINUTE)),
  }));

describe('when a document is next due', () => {
  it('is never for work without a schedule or an unfinished run', () => {
    expect(nextDueAt({ reports: [report('a', null)], pulls: [pull('a', { status: 'failed' })], bulk: [bulk('b', 'done', T0)] }, zone)).toBeNull();
  });

  it('is the first moment the dispatcher finds something to do there, and nothing is due a minute before', () => {
    fc.assert(
      fc.property(works, (work) => {
        const at = nextDueAt(work, zone);
        if (at === null) {
          expect(anythingDue(work, T0 + 60 * 24 * HOUR)).toBe(false);
          return;
        }
        expect(anythingDue(work, Math.max(at, 0))).toBe(true);
        expect(anythingDue(work, at - MINUTE)).toBe(false);
      }),
    );
  });
});

describe('the agenda in the owner’s properties', () => {
  it('keeps only documents with something coming, writes only on change, and drops one that could not be opened a few times', () => {
    const user = new MemoryStore();
    const agenda = new AgendaStore(user);
    expect(agenda.read()).toBeNull();
    agenda.set('nada', null);
    // Kept from now on, even empty: the ledger is no longer walked.
    expect(agenda.read()).toEqual({});
    agenda.set('a', T0 + HOUR);
    agenda.set('b', T0 - HOUR);
    agenda.set('c', T0);
    expect(dueDocuments(agenda.read() ?? {}, T0)).toEqual(['b', 'c']);
    agenda.set('b', null);
    expect(Object.keys(agenda.read() ?? {})).toEqual(['a', 'c']);
    for (let i = 1; i < MISSES_BEFORE_DROP; i++) expect(agenda.missed('c')).toBe(false);
    expect(agenda.missed('c')).toBe(true);
    expect(Object.keys(agenda.read() ?? {})).toEqual(['a']);
    expect(agenda.missed('nunca')).toBe(false);
  });
});
