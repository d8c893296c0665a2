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

/**
 * When the hourly run next has the Central to refresh: an unfinished refresh of the schedule's owner at once, else an
 * hour after the last refresh of its competência began (at once when there is none).
 */
export function centralNextAt(schedule: CentralSchedule, job: CentralJob | null): number {
  const ours = job && job.competencia === schedule.competencia && job.owner.id === schedule.owner.id ? job : null;
  if (!ours) return schedule.since;
  if (ours.finishedAt === undefined) return ours.startedAt;
  return ours.startedAt + HOUR_MS;
}
