/**
 * The owner's agenda: when each document's work is next due, agreeing with
 * what the dispatcher would pick at that moment, and the record in the owner's
 * properties that says which documents an hourly run opens.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AgendaFullError, AgendaStore, dueDocuments, LOST_AFTER_MS, lastingLoss, MAX_PARTS, PART_BYTES, RETRY_LOST_MS } from '../../../src/core/hourly/agenda';
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

/** A spreadsheet id of Google's length (44 characters), different for each `n`. */
const docId = (n: number) => `1${String(n).padStart(6, '0')}${'x'.repeat(37)}`;

/** The owner's properties, counting each write. */
class CountingStore extends MemoryStore {
  writes: string[] = [];
  override set(key: string, value: string) {
    this.writes.push(key);
    super.set(key, value);
  }
}

describe('the agenda in the owner’s properties', () => {
  it('keeps only documents with something coming, and writes only on change', () => {
    const user = new CountingStore();
    const agenda = new AgendaStore(user);
    expect(agenda.read()).toBeNull();
    agenda.set('nada', null);
    // Kept from now on, even empty: the ledger is no longer walked.
    expect(agenda.read()).toEqual({});
    expect(user.writes).toHaveLength(1);
    agenda.set('nada', null);
    expect(user.writes).toHaveLength(1);
    agenda.set('a', T0 + HOUR);
    agenda.set('b', T0 - HOUR);
    agenda.set('c', T0);
    expect(dueDocuments(agenda.read() ?? {}, T0)).toEqual(['b', 'c']);
    agenda.set('c', T0);
    expect(user.writes).toHaveLength(4);
    agenda.set('b', null);
    expect(agenda.read()).toStrictEqual({ a: { at: T0 + HOUR }, c: { at: T0 } });
    // Each document's entry, read as stored: the soonest first, ties by id.
    // The agenda as the change left it.
    expect(agenda.set('d', T0)).toEqual({ a: { at: T0 + HOUR }, c: { at: T0 }, d: { at: T0 } });
    expect(agenda.set('d', T0)).toEqual(agenda.read());
    expect(dueDocuments(agenda.read() ?? {}, T0 + HOUR)).toEqual(['c', 'd', 'a']);
  });

  it('reads what an earlier version kept, and each guarded change runs whole inside the guard', () => {
    const user = new MemoryStore();
    user.set('faturamento.agenda', JSON.stringify({ a: { at: T0, misses: 2 }, b: { at: T0 + HOUR } }));
    const guarded: string[] = [];
    const agenda = new AgendaStore(user, (change) => {
      guarded.push('in');
      const out = change();
      guarded.push('out');
      return out;
    });
    expect(agenda.read()).toStrictEqual({ a: { at: T0 }, b: { at: T0 + HOUR } });
    agenda.set('a', T0 + 2 * HOUR);
    expect(guarded).toEqual(['in', 'out']);
    expect(JSON.parse(user.get('faturamento.agenda') ?? '')).toEqual({ a: T0 + 2 * HOUR, b: { at: T0 + HOUR } });
  });

  it('holds an office of 500 documents with ids of Google’s length, in parts each within a property’s 9 KB', () => {
    const user = new CountingStore();
    const agenda = new AgendaStore(user);
    for (let i = 0; i < 500; i++) agenda.set(docId(i), T0 + i * MINUTE);
    const agendaKeys = user.keys().filter((k) => k.startsWith('faturamento.agenda'));
    expect(agendaKeys.length).toBeGreaterThan(1);
    for (const key of agendaKeys) expect(user.get(key)?.length).toBeLessThanOrEqual(PART_BYTES);
    // Each new part is written before the first part names it.
    const grew = user.writes.flatMap((key, i) => (key !== 'faturamento.agenda' && !user.writes.slice(0, i).includes(key) ? [user.writes.slice(i, i + 2)] : []));
    expect(grew).toEqual(agendaKeys.slice(1).map((key) => [key, 'faturamento.agenda']));
    const read = agenda.read() ?? {};
    expect(Object.keys(read)).toHaveLength(500);
    expect(read[docId(499)]).toEqual({ at: T0 + 499 * MINUTE });
    expect(dueDocuments(read, T0 + MINUTE)).toEqual([docId(0), docId(1)]);
    // A change to one document writes the part that holds it, and nothing else.
    user.writes = [];
    agenda.set(docId(499), T0);
    expect(user.writes).toEqual([agendaKeys[agendaKeys.length - 1]]);
    // One gone from the first part leaves room there for the next new one, without a new part.
    agenda.set(docId(0), null);
    user.writes = [];
    agenda.set('1novo', T0);
    expect(user.writes).toEqual(['faturamento.agenda']);
    expect(user.keys().filter((k) => k.startsWith('faturamento.agenda'))).toHaveLength(agendaKeys.length);
    expect(Object.keys(agenda.read() ?? {})).toHaveLength(500);
  });

  it('fills a part to its last byte, and moves an entry that grows past it to another part, written there before it leaves', () => {
    const user = new CountingStore();
    const agenda = new AgendaStore(user);
    let n = 0;
    while (JSON.stringify(JSON.parse(user.get('faturamento.agenda') ?? '{}')).length < PART_BYTES - 80) agenda.set(docId(n++), T0);
    // An id as long as the room left, so that the part is then exactly PART_BYTES long.
    const room = PART_BYTES - (user.get('faturamento.agenda') ?? '').length - `,"":${T0}`.length;
    const last = `1${'z'.repeat(room - 1)}`;
    agenda.set(last, T0);
    expect(user.get('faturamento.agenda')?.length).toBe(PART_BYTES);
    expect(user.keys().filter((k) => k.startsWith('faturamento.agenda'))).toEqual(['faturamento.agenda']);
    user.writes = [];
    agenda.unreachable(last, 'You do not have permission to access the requested document.', T0);
    expect(user.writes).toEqual(['faturamento.agenda.1', 'faturamento.agenda']);
    expect(agenda.read()?.[last]).toStrictEqual({ at: T0 + RETRY_LOST_MS, lost: T0 });
    expect(Object.keys(agenda.read() ?? {})).toHaveLength(n + 1);
  });

  it('after a kill in the middle of a move, counts the copy due sooner, and the next change leaves one', () => {
    for (const [inFirst, inSecond] of [
      [T0 + 2 * HOUR, T0 + HOUR],
      [T0 + HOUR, T0 + 2 * HOUR],
    ]) {
      const user = new MemoryStore();
      // The entry written to the second part, the kill before the first part let it go.
      user.set('faturamento.agenda', JSON.stringify({ '#': 2, a: inFirst, b: T0 }));
      user.set('faturamento.agenda.1', JSON.stringify({ a: inSecond, c: T0 }));
      const agenda = new AgendaStore(user);
      expect(agenda.read()).toEqual({ a: { at: T0 + HOUR }, b: { at: T0 }, c: { at: T0 } });
      // Written again as it reads: the copies become one.
      agenda.set('a', T0 + HOUR);
      const parts = [user.get('faturamento.agenda'), user.get('faturamento.agenda.1')].map((t) => JSON.parse(t ?? '{}') as Record<string, number>);
      expect(parts.filter((p) => 'a' in p)).toHaveLength(1);
      expect(agenda.read()).toEqual({ a: { at: T0 + HOUR }, b: { at: T0 }, c: { at: T0 } });
      agenda.set('a', null);
      expect(agenda.read()).toEqual({ b: { at: T0 }, c: { at: T0 } });
    }
  });

  it('refuses a document it has no room for, and keeps every one it had', () => {
    const user = new MemoryStore();
    // Every part as full as it gets, written as the agenda writes them.
    let n = 0;
    for (let i = 0; i < MAX_PARTS; i++) {
      const part: Record<string, number> = i === 0 ? { '#': MAX_PARTS } : {};
      while (JSON.stringify({ ...part, [docId(n)]: T0 }).length <= PART_BYTES) part[docId(n++)] = T0;
      user.set(i === 0 ? 'faturamento.agenda' : `faturamento.agenda.${i}`, JSON.stringify(part));
    }
    const agenda = new AgendaStore(user);
    expect(Object.keys(agenda.read() ?? {})).toHaveLength(n);
    expect(() => agenda.set(docId(n), T0)).toThrow(AgendaFullError);
    expect(() => agenda.set(docId(n), T0)).toThrow(expect.objectContaining({ name: 'AgendaFullError' }));
    expect(() => agenda.set(docId(n), T0)).toThrow(/não foi salvo/);
    const held = Object.keys(agenda.read() ?? {});
    expect(held).toHaveLength(n);
    expect(held).not.toContain(docId(n));
    // A document already in the agenda still changes.
    agenda.set(docId(0), T0 + HOUR);
    expect(agenda.read()?.[docId(0)]).toEqual({ at: T0 + HOUR });
    // With one gone, the next one fits.
    agenda.set(docId(5), null);
    agenda.set(docId(n), T0);
    expect(Object.keys(agenda.read() ?? {})).toHaveLength(n);
  });
});

describe('a document the hourly run could not open', () => {
  const GONE = 'You do not have permission to access the requested document.';

  it('tells Google’s words for a lost document from a passing failure', () => {
    expect(lastingLoss(GONE)).toBe(true);
    // Whatever the case Google writes it in.
    expect(lastingLoss(`Exception: ${GONE.toUpperCase()}`)).toBe(true);
    expect(lastingLoss("Exception: Document 1abc is missing (perhaps it was deleted, or you don't have read access?)")).toBe(true);
    expect(lastingLoss('Unexpected error while getting the method or property openById on object SpreadsheetApp.')).toBe(true);
    expect(lastingLoss('Service Spreadsheets failed while accessing document with id 1abc.')).toBe(false);
    expect(lastingLoss("We're sorry, a server error occurred. Please wait a bit and try again.")).toBe(false);
    expect(lastingLoss('Service invoked too many times in a short time: spreadsheets. Try Utilities.sleep(1000) between calls.')).toBe(false);
    expect(lastingLoss('You do not have permission to call SpreadsheetApp.openById. Required permissions: https://www.googleapis.com/auth/spreadsheets')).toBe(
      false,
    );
  });

  it('stays due after a passing failure, however many', () => {
    const user = new CountingStore();
    const agenda = new AgendaStore(user);
    agenda.set('a', T0);
    for (let h = 0; h < 48; h++) expect(agenda.unreachable('a', 'Service Spreadsheets failed while accessing document with id a.', T0 + h * HOUR)).toBe(false);
    expect(agenda.read()).toStrictEqual({ a: { at: T0 } });
    expect(user.writes).toHaveLength(1);
  });

  it('leaves the agenda only when it is still lost a day after it was first seen lost, and says so once', () => {
    const agenda = new AgendaStore(new MemoryStore());
    agenda.set('a', T0);
    agenda.set('b', T0);
    expect(agenda.unreachable('a', GONE, T0)).toBe(false);
    // Tried again an hour later, not at every run.
    expect(agenda.read()?.a).toEqual({ at: T0 + RETRY_LOST_MS, lost: T0 });
    expect(dueDocuments(agenda.read() ?? {}, T0 + RETRY_LOST_MS - 1)).toEqual(['b']);
    for (let h = 1; h < 24; h++) expect(agenda.unreachable('a', GONE, T0 + h * HOUR)).toBe(false);
    expect(agenda.read()?.a).toEqual({ at: T0 + 23 * HOUR + RETRY_LOST_MS, lost: T0 });
    expect(agenda.unreachable('a', GONE, T0 + LOST_AFTER_MS - 1)).toBe(false);
    expect(agenda.unreachable('a', GONE, T0 + LOST_AFTER_MS)).toBe(true);
    expect(agenda.read()).toEqual({ b: { at: T0 } });
    expect(agenda.unreachable('a', GONE, T0 + LOST_AFTER_MS + HOUR)).toBe(false);
    expect(agenda.unreachable('nunca', GONE, T0)).toBe(false);
    expect(agenda.read()).toEqual({ b: { at: T0 } });
  });

  it('starts the day over once the document opens again', () => {
    const agenda = new AgendaStore(new MemoryStore());
    agenda.set('a', T0);
    agenda.unreachable('a', GONE, T0);
    agenda.reached('a');
    expect(agenda.read()).toStrictEqual({ a: { at: T0 + RETRY_LOST_MS } });
    agenda.reached('nunca');
    expect(agenda.read()).toEqual({ a: { at: T0 + RETRY_LOST_MS } });
    expect(agenda.unreachable('a', GONE, T0 + LOST_AFTER_MS)).toBe(false);
    expect(agenda.read()?.a).toEqual({ at: T0 + LOST_AFTER_MS + RETRY_LOST_MS, lost: T0 + LOST_AFTER_MS });
    // A schedule written again clears the mark too.
    agenda.set('a', T0);
    expect(agenda.read()).toEqual({ a: { at: T0 } });
  });
});
