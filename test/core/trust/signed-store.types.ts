/**
 * Checked by `npm run typecheck`, never run: everything that decides what is
 * sent, where or with whose key reads the document's work store through a
 * `SignedStore`, which only seal.ts makes and which always checks what it
 * reads. A plain store, or a wrapper that copies a signed store's functions
 * (and so could leave its checks out), does not compile where one is required.
 * Each `@ts-expect-error` fails the type-check if its line ever compiles.
 */
import { bulkJobStore } from '../../../src/core/bulk/stored-job';
import type { BulkDeps, BulkJob } from '../../../src/core/bulk/state';
import { SnapshotStore } from '../../../src/core/bulk/snapshot';
import { DashboardStore } from '../../../src/core/dashboards/store';
import { JobStore } from '../../../src/core/trust/job-store';
import type { OwnerStore } from '../../../src/core/trust/owners';
import type { KeyValueStore } from '../../../src/core/ports';
import { type PullJob, pullJobStore, type RunDeps } from '../../../src/core/runs/deps';
import { ReportStore } from '../../../src/core/reports/reports';
import { type Seal, SignedStore } from '../../../src/core/trust/seal';

const newId = () => 'abcdefgh';

/** What a reader accepts: a store made by seal.ts over any view of the values, with the running user's seal. */
export function accepted(view: KeyValueStore, owners: OwnerStore, me: Parameters<OwnerStore['seal']>[0]): RunDeps['reports'] {
  const signed = SignedStore.over(view, owners.seal(me, 'doc'));
  new SnapshotStore(signed);
  new DashboardStore(signed, newId);
  bulkJobStore(signed);
  pullJobStore(signed);
  return new ReportStore(signed, newId);
}

/** A plain store: it signs nothing and checks nothing. */
export function plainStores(plain: KeyValueStore, seal: Seal): void {
  // @ts-expect-error a plain store is not a signed one
  new ReportStore(plain, newId);
  // @ts-expect-error a plain store is not a signed one
  new DashboardStore(plain, newId);
  // @ts-expect-error a plain store is not a signed one
  new JobStore<PullJob>(plain, 'faturamento.job.');
  // @ts-expect-error a plain store is not a signed one
  pullJobStore(plain);
  // @ts-expect-error a plain store is not a signed one
  bulkJobStore(plain);
  // @ts-expect-error a plain store is not a signed one
  new SnapshotStore(plain);
  // @ts-expect-error only SignedStore.over makes one
  new SignedStore(plain, seal);
}

/** A wrapper that copies every function of a signed store, as a view that re-reads before each save once did. */
export function wrappers(signed: SignedStore): void {
  const copied = {
    ...signed,
    get: (key: string) => signed.get(key),
    set: (key: string, value: string) => signed.set(key, value),
    delete: (key: string) => signed.delete(key),
    keys: () => signed.keys(),
    readJson: <T>(key: string) => signed.readJson<T>(key),
    writeJson: <T>(key: string, item: T) => signed.writeJson(key, item),
    saved: <T>(item: T) => signed.saved(item),
    reading: () => signed.reading(),
  };
  // @ts-expect-error a copy is not the signed store
  new ReportStore(copied, newId);
  // @ts-expect-error a copy is not the signed store
  pullJobStore(copied);
  // @ts-expect-error a copy is not the signed store
  bulkJobStore({ ...signed });
  // @ts-expect-error a copy is not the signed store
  new SnapshotStore({ ...signed });
}

/** The stores the readers take are themselves only what their classes make: a look-alike object is refused too. */
export function lookAlikes(reports: ReportStore, jobs: JobStore<BulkJob>): void {
  const sameReports: Pick<ReportStore, keyof ReportStore> = {
    prefix: reports.prefix,
    list: () => reports.list(),
    find: (id) => reports.find(id),
    get: (id) => reports.get(id),
    save: (r) => reports.save(r),
    draft: (fields, now) => reports.draft(fields, now),
    create: (fields, now) => reports.create(fields, now),
    update: (id, change) => reports.update(id, change),
    delete: (id) => reports.delete(id),
  };
  // @ts-expect-error the report runs take a ReportStore, which only a signed store makes
  const runs: Pick<RunDeps, 'reports'> = { reports: sameReports };
  const sameJobs: Pick<JobStore<BulkJob>, keyof JobStore<BulkJob>> = {
    prefix: jobs.prefix,
    get: (id) => jobs.get(id),
    has: (id) => jobs.has(id),
    list: () => jobs.list(),
    put: (id, j) => jobs.put(id, j),
    delete: (id) => jobs.delete(id),
  };
  // @ts-expect-error the bulk runs take a JobStore, which only a signed store makes
  const bulk: Pick<BulkDeps, 'jobs'> = { jobs: sameJobs };
  void [runs, bulk];
}
