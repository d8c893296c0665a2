/**
 * A pull's saved state and what a step is given: the listing, filters and
 * sheet of a run (one company, or several into one sheet), where each company
 * stands, and the ports a step works through. A step returns a new state that
 * the next execution continues from.
 */
import type { BillingClient } from '../../api/client';
import type { ApiRecord } from '../../api/envelopes';
import { NetworkError, RateLimitedError } from '../../api/errors';
import type { FilterValues } from '../../api/filters';
import type { ListingKey } from '../../api/operations';
import type { PageResult, PagerState } from '../../api/paging';
import type { Zone } from '../../api/calendar';
import { UserError } from '../../api/user-error';
import type { RunStatus } from '../run-state';
import type { SheetCondition } from '../sheets/sheet-filters';
import type { BookPort } from '../sheets/sheet-port';
import type { Column } from '../sheets/table';
import { plural } from '../../api/words';

export interface ImportSpec {
  listing: ListingKey;
  /** Absolute filter values (relative ones already resolved). */
  filters: FilterValues;
  sheetName: string;
  /** The report's sheet, found by id whatever the user renamed it to; its name is only for creating it. */
  sheetId?: number;
  /** The report the sheet belongs to (sheet metadata), so no other report writes it. */
  reportId?: string;
  /**
   * Both modes write each record on the row where its id is now, so the user's
   * cells beside it stay with it. 'merge' (incremental refresh) writes only the
   * records received; 'replace' (a full pull) then deals with rows whose
   * record did not come (see settling.ts).
   */
  mode: 'replace' | 'merge';
  /** "Filtros na planilha", resolved for this run: records that fail them are not written. */
  sheetFilters?: SheetCondition[];
  /** "Incluir dados de cartão": without it, card columns are not written (and an earlier run's are cleared). */
  cardData?: boolean;
  /** A consolidated pull: the same listing from each of these companies into one sheet (see consolidated.ts). */
  companies?: CompanySpec[];
}

/** One company of a consolidated pull: the owner's connection, by id; its name is what the Empresa column shows. */
export interface CompanySpec {
  id: string;
  name: string;
  /** This company's filters (its own update stamp in an incremental run). */
  filters: FilterValues;
  /** 'merge' when this company's rows are refreshed incrementally, 'replace' when fully. */
  mode: 'replace' | 'merge';
}

/** Where one company of a consolidated pull stands: the job keeps one per company, so each resumes on its own. */
export interface CompanyState {
  id: string;
  pager: PagerState | null;
  status: 'running' | 'done' | 'failed';
  /** Rows written for this company in this run. */
  rows: number;
  pages: number;
  message?: string;
  retryable?: boolean;
  totalRows?: number;
  transientFailures?: number;
}

export interface ImportState {
  spec: ImportSpec;
  sheetId: number;
  pager: PagerState | null;
  rows: number;
  /** Rows touched in merge mode (updated or added). */
  merged: number;
  children: Record<string, ChildEntry>;
  pages: number;
  warnings: string[];
  startedAt: number;
  updatedAt: number;
  status: RunStatus;
  message?: string;
  /** A failure that continuing can get past (network, 5xx, 429): the form offers "Continuar" only then. */
  retryable?: boolean;
  /** Rows the service said the listing holds, once its first page told. */
  totalRows?: number;
  /** This run created the target sheet: a first run that fails can take it away again. */
  createdSheet?: boolean;
  steps: number;
  /** Epoch ms before which the service asked not to be called again (a Retry-After longer than a step had left). */
  notBefore?: number;
  /** Steps in a row that ended on a service that did not answer, without a page written. */
  transientFailures?: number;
  /** A consolidated pull's companies, in the spec's order. */
  companies?: CompanyState[];
  /** A consolidated pull that ended with some companies failed: what failed, in words. The sheet stays marked. */
  partial?: string;
  /** Parts of the final settling already done (see settling.ts): a settling longer than a step goes on from here. */
  settled?: string[];
}

export interface ChildEntry {
  sheetId: number;
  rows: number;
  /** An open child's columns as discovered so far (the spec does not give its shape). */
  columns?: Column[];
}

export interface ImportDeps {
  client: BillingClient;
  /** A consolidated pull's client for each company's connection. */
  clientFor?: (connectionId: string) => BillingClient;
  book: BookPort;
  zone: Zone;
  now: () => number;
  /** Rows buffered before a write: bounds Spreadsheet calls per rows written. */
  flushRows?: number;
  /**
   * Persists the state after each write, so a killed execution resumes after what it wrote; `durable` false: the
   * save may wait for the next flush (what it follows is cheap to redo).
   */
  checkpoint?: (state: ImportState, durable?: boolean) => void;
  /** Asked between waves: a cancel requested while a step runs stops it there, not at the step's end. */
  cancelRequested?: () => boolean;
  /** Told about the records each block wrote into the sheet (after "Filtros na planilha"). */
  pulled?: (sheetId: number, records: readonly ApiRecord[]) => void;
}

export interface StepOptions {
  /** Epoch ms after which the step starts no new wave (a sidebar's step, a share of the hourly run). */
  deadline: number;
  /**
   * Epoch ms the execution must never pass (its 6-minute kill, less a margin).
   * A wave starts only if, at its worst (a 60 s time-out, then the write of
   * everything buffered), it ends before this. Undefined: no hard limit.
   */
  limit?: number;
  base?: 0 | 1;
  /** The whole listing, fetched already for this run's listing and filters (see InHand): the step asks the service for none of it again. */
  inHand?: InHand;
}

/**
 * A listing read to its end just before the run began (the hourly check of an
 * unchanged sheet), with the filters it was read for: its pages, and the walk's
 * state after the last. No page was missed: the service counted the listing and
 * every record counted came, or the walk's page numbering was told afresh.
 */
export interface InHand {
  listing: ListingKey;
  filters: FilterValues;
  pages: PageResult[];
  pager: PagerState;
}

/** Thrown when a pull cannot start or go on: its sheet's name is missing or refused, its sheet was deleted mid-run, or it would pass the cell limit. */
export class ImportError extends UserError {
  override name = 'ImportError';
}

export const DEFAULT_FLUSH_ROWS = 5000;
/** Steps in a row the service may fail to answer before the run is reported failed. */
export const MAX_TRANSIENT_FAILURES = 3;
/** Rows a page is assumed to hold before the first page tells. */
export const ASSUMED_PAGE_ROWS = 100;
/** The calls that end a run: stale rows cleared, marks lifted, the Histórico row, the job saved. */
export const FINISH_CALLS = 12;
/** A run whose pages are all written but whose settling (see settling.ts) goes on in the next step. */
export const SETTLING_GOES_ON = 'Todas as páginas foram gravadas; a conferência final das linhas continua na próxima etapa.';

/** Failures that a later attempt can get past; the others need the user to change something first. */
const RETRYABLE_CODES = new Set(['network', 'server-error', 'rate-limited', 'unexpected-response']);

export function isRetryable(err: unknown): boolean {
  return RETRYABLE_CODES.has(String((err as { code?: unknown } | null)?.code));
}

/**
 * The service did not answer in time (a time-out, whose retries the deadline
 * cut short) or asked for a pause longer than the step had: worth going on
 * in a later step. A 5xx or a refused connection already had the client's
 * retries and fails the run as before ("Continuar" resumes it).
 */
export function transient(err: unknown): err is NetworkError | RateLimitedError {
  return (err instanceof NetworkError && err.timedOut) || err instanceof RateLimitedError;
}

/** A failed or cancelled job continues from its last written page (a consolidated one, each failed company from its own). */
export function retryImport(state: ImportState): ImportState {
  if (state.status !== 'failed' && state.status !== 'cancelled') return state;
  const companies = state.companies?.map((c) => (c.status === 'failed' ? { ...c, status: 'running' as const, message: undefined, retryable: undefined } : c));
  return { ...state, status: 'running', message: undefined, retryable: undefined, ...(companies ? { companies } : {}) };
}

export function cancelImport(state: ImportState): ImportState {
  if (state.status !== 'running') return state;
  const rows = importedRows(state);
  return {
    ...state,
    status: 'cancelled',
    message: `Importação cancelada com ${plural(rows, 'linha gravada', 'linhas gravadas')}: a aba ficou marcada como incompleta.`,
  };
}

/** Rows the sheet holds after the job (replace) or rows updated/added (merge). */
export function importedRows(state: ImportState): number {
  return state.spec.mode === 'merge' && !state.companies ? state.merged : state.rows;
}
