/**
 * The Central's own schedule: "Atualizar sozinha a cada hora" keeps, in the
 * document's signed work store, who asked it and for which competência. The
 * owner's hourly run then refreshes it an hour after its last refresh began,
 * reading again only the companies whose data changed as far as the interface
 * shows (refresh.ts: a company not read in full today is read in full), and
 * goes on with a refresh left unfinished. This room is small on purpose: the
 * hourly run reads it for every document it visits.
 */
import { JobStore } from '../trust/job-store';
import type { Owner } from '../trust/owners';
import type { SignedStore } from '../trust/seal';
import type { CentralJob } from './store';

export interface CentralSchedule {
  owner: Owner;
  competencia: string;
  /** When it was asked (epoch ms). */
  since: number;
}

/** Apart from the refresh's own keys (`faturamento.central.`), so neither store's listing reads the other's. */
const PREFIX = 'faturamento.agenda-central.';
const ID = 'hora';
/** The refresh job's key (refresh.ts keeps it under JOB_PREFIX + JOB_ID). */
const JOB_KEY_PREFIX = 'faturamento.central.';
const JOB_ID = 'job';

const HOUR_MS = 3_600_000;

export class CentralScheduleStore {
  private readonly store: JobStore<CentralSchedule>;
  private readonly jobs: JobStore<CentralJob>;

  constructor(doc: SignedStore) {
    this.store = new JobStore<CentralSchedule>(doc, PREFIX);
    this.jobs = new JobStore<CentralJob>(doc, JOB_KEY_PREFIX);
  }

  get(): CentralSchedule | null {
    return this.store.get(ID);
  }

  set(schedule: CentralSchedule): void {
    this.store.put(ID, schedule);
  }

  clear(): void {
    if (this.store.has(ID)) this.store.delete(ID);
  }

  /** The Central's last refresh, whoever made it. */
  job(): CentralJob | null {
    return this.jobs.get(JOB_ID);
  }
}

/** How long a colleague's unfinished refresh is left to them: their sidebar steps it every few seconds; one older was left halfway. */
export const COLLEAGUE_REFRESH_MS = 10 * 60_000;

/**
 * A colleague's refresh going on now, which neither this user's sidebar nor their hourly run replaces (the colleague's
 * sidebar would find its refresh gone); null when there is none.
 */
export function colleagueRefreshing(job: CentralJob | null, user: Owner, now: number): CentralJob | null {
  return job && !job.finishedAt && job.owner.id !== user.id && now - job.startedAt < COLLEAGUE_REFRESH_MS ? job : null;
}

/**
 * When the hourly run next has the Central to refresh: the owner's unfinished refresh at once, a colleague's once it
 * is no longer theirs to go on with, else an hour after the last refresh of the schedule's competência began, whoever
 * made it (at once when there is none).
 */
export function centralNextAt(schedule: CentralSchedule, job: CentralJob | null): number {
  if (!job || job.competencia !== schedule.competencia) return schedule.since;
  if (job.finishedAt === undefined) return job.owner.id === schedule.owner.id ? job.startedAt : job.startedAt + COLLEAGUE_REFRESH_MS;
  return job.startedAt + HOUR_MS;
}
