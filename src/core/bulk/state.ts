/**
 * A bulk run as it is kept between executions. The sheet is the durable record
 * of every row (Status beside it); the job, in the document's work store (the
 * hidden sheet "Faturamento · dados"), only keeps its place, its counts and
 * each row's key. A step checkpoints after each batch, so a 6-minute kill loses
 * nothing already written, and rows it caught in flight are PENDENTE: looked
 * up, never blindly resent, by the next step.
 */
import type { BillingClient } from '../../api/client';
import type { Zone } from '../../api/calendar';
import { UserError } from '../../api/user-error';
import type { WriteKey } from '../../api/writes';
import type { JobStore } from '../trust/job-store';
import type { Owner } from '../trust/owners';
import type { RunStatus } from '../run-state';
import type { SelectionBookPort } from '../sheets/sheet-port';
import { bulkOperation } from './definitions';
import { EDIT_LABEL } from './edits';
import type { SnapshotStore } from './snapshot';

export interface BulkDeps {
  book: SelectionBookPort;
  /** Where jobs live between executions (the document's work store). */
  jobs: JobStore<BulkJob>;
  zone: Zone;
  now: () => number;
  /** Blocking wait (Utilities.sleep). */
  sleep: (ms: number) => void;
  /** A fresh unique id for generated idIntegracao values. */
  newId: () => string;
  /** The running user's client for one of their connections, by id. */
  clientFor: (connectionId: string) => BillingClient;
  /** Told about a job just created, before anything is sent: its owner vouches for it. */
  vouch?: (job: BulkJob) => void;
  /** Epoch ms this execution must never pass: no batch starts that could not end before it at its worst. */
  limit?: number;
  /** How long after an unknown outcome a row may be sent again when the service still has nothing (default 10 min). */
  safeResendMs?: number;
  /** What imports last pulled of editable fields (edits pushed from an imported sheet). */
  snapshots?: SnapshotStore;
}

export interface BulkRequest {
  operation: WriteKey;
  sheetName: string;
  /** The connection's name, for people to read. */
  connection: string;
  /** The running user's connection, by id; the server sets it with the owner. */
  connectionId?: string;
  owner?: Owner;
  scope: 'all' | 'selected';
  /** Rows sent concurrently per wave. */
  batchSize?: number;
}

export interface BulkCounts {
  /** Created, updated or emitted by this run. */
  ok: number;
  /** Already in the service (JÁ EXISTE, JÁ EMITIDA): nothing sent. */
  existing: number;
  /** OK before this run started. */
  skipped: number;
  failed: number;
  pending: number;
}

export interface BulkJob {
  id: string;
  operation: WriteKey;
  sheetId: number;
  sheetName: string;
  connection: string;
  /** The owner's connection id; absent in runs started before owners. */
  connectionId?: string;
  /** Who started it: only their trigger or their sidebar continues it. */
  owner?: Owner;
  /** Rows of the current pass, as [first, last] runs. */
  ranges: Array<[number, number]>;
  /** Rows left PENDENTE during this pass, for the next. */
  retry: Array<[number, number]>;
  /**
   * The key of each row of `ranges` (in row order): how a later execution finds
   * each row wherever it is now. '' for a row without one (invalid), '-' for a
   * blank or example row. Absent for jobs too large to keep them.
   */
  keys?: string[];
  /** A lot too large to keep its keys: the tag its rows still to go carry in the sheet (lot-marks.ts). Absent in lots started before (row numbers then). */
  mark?: string;
  /** The keys of `retry`, in row order. */
  retryKeys?: string[];
  /**
   * What every key this run generated starts with, and no key typed in its rows does: a row under such a key
   * with no Status was never sent (a row is marked PENDENTE before it is), so a later step sends it without
   * looking it up first. Absent when the run generated none, or in runs started before.
   */
  keyPrefix?: string;
  /** Edits pushed from an imported sheet: each row is an update of its record's type, told from the snapshot. */
  edits?: boolean;
  pass: number;
  cursor: number;
  total: number;
  counts: BulkCounts;
  batchSize: number;
  maxBatch: number;
  status: RunStatus;
  message?: string;
  warnings: string[];
  startedAt: number;
  updatedAt: number;
  steps: number;
  /**
   * Each row's key → a digest of the values the owner confirmed it with
   * (confirmed.ts): a row that differs when its turn comes is not sent.
   * Absent in runs started before confirmations were kept.
   */
  confirmed?: Confirmed;
  /** Customers found by CPF/CNPJ in earlier steps of this run (digits → idCliente): each value is looked up once per run. */
  customers?: Record<string, number>;
}

/** Row key → digest of the values it was confirmed with. */
export type Confirmed = Record<string, string>;

export interface BulkProgress {
  jobId: string;
  /** The e-mail of who started it (null before owners). */
  owner: string | null;
  operation: WriteKey;
  label: string;
  sheetName: string;
  status: RunStatus;
  done: boolean;
  total: number;
  processed: number;
  counts: BulkCounts;
  message?: string;
  warnings: string[];
}

/** Thrown when a bulk run or an edit push cannot start or go on for this person: its operation, connection, sheet, rows, preview, comparison base or job is missing, altered or someone else's. */
export class BulkError extends UserError {
  override name = 'BulkError';
}

export const DEFAULT_BATCH = 10;
export const MAX_BATCH = 50;
export const MAX_PASSES = 3;
/** Rows scanned per batch when most are skipped (already OK, blank): bounds one read-and-write round. */
export const MAX_WINDOW = 500;
/** A selection's runs are kept below one stored part of a job (9 KB). */
export const MAX_RUNS = 300;
/** Keys kept in a job at most: the job is saved whole after every batch. */
export const MAX_KEYS_CHARS = 60_000;

export const emptyCounts = (): BulkCounts => ({ ok: 0, existing: 0, skipped: 0, failed: 0, pending: 0 });

export function saveJob(deps: BulkDeps, job: BulkJob): void {
  deps.jobs.put(job.id, job);
}

export function progressOf(job: BulkJob): BulkProgress {
  const c = job.counts;
  return {
    jobId: job.id,
    owner: job.owner?.email ?? null,
    operation: job.operation,
    label: job.edits ? EDIT_LABEL : bulkOperation(job.operation).label,
    sheetName: job.sheetName,
    status: job.status,
    done: job.status !== 'running',
    total: job.total,
    processed: Math.min(job.total, c.ok + c.existing + c.skipped + c.failed + c.pending),
    counts: { ...c },
    message: job.message,
    warnings: job.warnings,
  };
}
