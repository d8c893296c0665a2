/**
 * What a report's run works through (the document's reports, sheets and
 * jobs, the clock, the owner's connections) and what it keeps between
 * executions: the pull's job, under the key prefix pulls always had.
 */
import type { BillingClient } from '../../api/client';
import type { ApiRecord } from '../../api/envelopes';
import type { Zone } from '../../api/calendar';
import { editableListing, type SnapshotStore } from '../bulk/snapshot';
import { JobStore } from '../trust/job-store';
import type { Organization } from '../connections/organizations';
import type { SignedStore } from '../trust/seal';
import type { ImportState } from '../pull/state';
import type { Report, ReportStore, RunOrigin, RunSummary } from '../reports/reports';
import type { BookPort } from '../sheets/sheet-port';
import type { RunProgress } from './progress';

export interface RunDeps {
  reports: ReportStore;
  /** Where pulls keep their place between executions (DocumentProperties). */
  jobs: JobStore<PullJob>;
  book: BookPort;
  zone: Zone;
  /** The zone a connection's service reads date-times in; default America/Sao_Paulo. */
  serviceZone?: (connectionName: string) => Zone;
  now: () => number;
  /** The running user's client for one of their connections, by id. */
  clientFor: (connectionId: string) => BillingClient;
  /** The running user's connections now (ids and names): what "todas as minhas conexões" means at a run. */
  connections?: () => Array<{ id: string; name: string }>;
  /**
   * The organization a connection of the running user reaches: as its last test found it, or, when `identify`
   * and none is known, asked of the service once (one wave of customers); undefined when it cannot be told.
   */
  organizationOf?: (connectionId: string, identify: boolean) => Organization | undefined;
  /** Epoch ms this execution must never pass (see StepOptions.limit). */
  limit?: number;
  /** Whether someone asked to cancel the run `runId` of `reportId` while a step runs (read between waves): never another run's. */
  cancelRequested?: (reportId: string, runId: string) => boolean;
  /** Told about scheduled runs that failed (e-mail). */
  notifyFailure?: (report: Report, run: RunSummary) => void;
  /** Keeps what pulls of subscriptions wrote, the base for edits pushed back (core/bulk/snapshot.ts). */
  snapshots?: SnapshotStore;
  /** Called once when a run finishes with data (ok or partial): refreshes the dashboards built on the report (core/dashboards). */
  afterReportRun?: (report: Report) => void;
  /** Whether the report is still stored as this run read it (owner, not deleted): a run in a document opened by id holds no lock on it. */
  stillStored?: (report: Report) => boolean;
}

export interface PullJob {
  reportId: string;
  origin: RunOrigin;
  state: ImportState;
}

/** A run's report and job as one execution holds them: read once, written back at the start and at the end. */
export interface Run {
  report: Report;
  job: PullJob;
  progress: RunProgress;
}

/** Pulls under the key prefix they always had, so jobs stored before still continue. */
export function pullJobStore(store: SignedStore): JobStore<PullJob> {
  return new JobStore<PullJob>(store, 'faturamento.job.');
}

/** What the pull wing is given for a run of `report`; `run` when it steps: its id (for a cancel) and where it saves its place. */
export function importDeps(deps: RunDeps, report: Report, run?: { runId: string; checkpoint: (state: ImportState, durable?: boolean) => void }) {
  // The client is built lazily: starting a run must not need the network or the key.
  let client: BillingClient | undefined;
  const asked = deps.cancelRequested;
  return {
    checkpoint: run?.checkpoint,
    cancelRequested: asked && run ? () => asked(report.id, run.runId) : undefined,
    clientFor: deps.clientFor,
    get client() {
      client ??= deps.clientFor(report.connectionId ?? '');
      return client;
    },
    book: deps.book,
    zone: deps.zone,
    now: deps.now,
    // What the owner's pull wrote is what an edit of the sheet is told from.
    pulled:
      deps.snapshots && editableListing(report.listing)
        ? (sheetId: number, records: readonly ApiRecord[]) => deps.snapshots?.pulled(sheetId, report.owner, report.connectionId, records, deps.now())
        : undefined,
  };
}
