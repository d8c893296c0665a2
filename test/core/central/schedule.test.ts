/** When the hourly run next refreshes a Central that refreshes itself, and what the document keeps of it. */
import { describe, expect, it } from 'vitest';
import { COLLEAGUE_REFRESH_MS, CentralScheduleStore, centralNextAt, colleagueRefreshing } from '../../../src/core/central/schedule';
import { JOB_ID, JOB_PREFIX } from '../../../src/core/central/refresh';
import type { CentralJob } from '../../../src/core/central/store';
import { JobStore } from '../../../src/core/trust/job-store';
import { MemoryStore, trusted } from '../bulk/fixtures';

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 10, 22, 13, 0);
const owner = { id: 'u1', email: 'contadora@example.com' };
const schedule = { owner, competencia: '10/2026', since: T0 };
const job = (fields: Partial<CentralJob> = {}): CentralJob => ({
  id: 'j',
  owner,
  competencia: '10/2026',
  onlyChanged: false,
  startedAt: T0 + 10 * 60_000,
  finishedAt: T0 + 12 * 60_000,
  companies: [],
  skipped: [],
  unchanged: [],
  ...fields,
});

describe('the Central refreshing itself', () => {
  it('is next due an hour after its last refresh began, at once while that refresh is unfinished', () => {
    expect(centralNextAt(schedule, job())).toBe(T0 + 10 * 60_000 + HOUR);
    expect(centralNextAt(schedule, job({ finishedAt: undefined }))).toBe(T0 + 10 * 60_000);
  });

  it('is due at once when the last refresh is of another competência, or there is none', () => {
    expect(centralNextAt(schedule, null)).toBe(T0);
    expect(centralNextAt(schedule, job({ competencia: '09/2026' }))).toBe(T0);
  });

  it("counts an hour from a colleague's refresh too, and leaves their unfinished one to them for a while", () => {
    const colleague = { id: 'u2', email: 'x@y' };
    expect(centralNextAt(schedule, job({ owner: colleague }))).toBe(T0 + 10 * 60_000 + HOUR);
    expect(centralNextAt(schedule, job({ owner: colleague, finishedAt: undefined }))).toBe(T0 + 10 * 60_000 + COLLEAGUE_REFRESH_MS);
    const going = job({ owner: colleague, finishedAt: undefined });
    expect(colleagueRefreshing(going, owner, going.startedAt + COLLEAGUE_REFRESH_MS - 1)).toBe(going);
    // Left halfway: no longer theirs to go on with.
    expect(colleagueRefreshing(going, owner, going.startedAt + COLLEAGUE_REFRESH_MS)).toBeNull();
    // Finished, or the user's own: nothing to leave alone.
    expect(colleagueRefreshing(job({ owner: colleague }), owner, T0)).toBeNull();
    expect(colleagueRefreshing(job({ finishedAt: undefined }), owner, T0)).toBeNull();
  });

  it('keeps the schedule apart from the refresh, which it reads back', () => {
    const doc = new MemoryStore();
    const store = new CentralScheduleStore(trusted(doc));
    expect(store.get()).toBeNull();
    store.set(schedule);
    expect(store.get()).toEqual(schedule);
    expect(store.job()).toBeNull();
    // The refresh as refresh.ts keeps it.
    new JobStore<CentralJob>(trusted(doc), JOB_PREFIX).put(JOB_ID, job());
    expect(store.job()).toEqual(job());
    expect(store.get()).toEqual(schedule);
    store.clear();
    expect(store.get()).toBeNull();
    expect(store.job()).toEqual(job());
    // Clearing nothing is fine.
    store.clear();
    expect(doc.keys().filter((k) => k.startsWith('faturamento.agenda-central.'))).toEqual([]);
  });
});
