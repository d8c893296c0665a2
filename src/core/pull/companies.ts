/**
 * Who a pull's records come from, as its writer, settling and stepper see
 * it: one company (the report's connection), or several into one sheet (a
 * consolidated pull, consolidated.ts). Each asks this one interface what
 * differs: the columns before a record's own, how a row is keyed, who is
 * walked and where each stands, and what a failure says.
 */
import type { BillingClient } from '../../api/client';
import type { ApiRecord } from '../../api/envelopes';
import { RateLimitedError } from '../../api/errors';
import type { FilterValues } from '../../api/filters';
import type { SheetPort } from '../sheets/sheet-port';
import type { CellValue, Column } from '../sheets/table';
import { failureMessage } from './cell-limit';
import { type CompanySpec, type CompanyState, type ImportDeps, type ImportState, transient } from './state';
import { plural } from '../../api/words';

/** The report sheet as the companies read it: the sheet, and where each of its columns is (lead columns first). */
export interface LeadSheet {
  readonly sheet: SheetPort;
  readonly positions: readonly number[];
}

/** Where a company of the run stands, as the job keeps it (a consolidated pull's company state, or the run's own). */
export type Place = Omit<CompanyState, 'id'>;

/** A data row of the report sheet: its key, and whether a full refresh leaves it as it is (its company's rows were not refreshed in full). */
export interface SheetRow {
  key: string;
  untouched: boolean;
}

/** Records of one company being written: the cells before their own, the key of each, and what writing them counts. */
export interface Writing {
  cells: CellValue[];
  key(id: unknown): string;
  /** `records` are on the sheet, which now holds `held` rows of records. */
  wrote(records: readonly ApiRecord[], held: number): void;
}

/** The company names brought up to date at the end of a run, and the cells that reads. */
interface Renaming {
  reads: number;
  run(): void;
}

/** A company of the run as a step walks it: where it stands (kept in the job), with which filters and client. */
export interface Walker {
  /** Undefined for a one-company pull: the report's own connection. */
  company: CompanySpec | undefined;
  place: Place;
  filters: FilterValues;
  client(): BillingClient;
}

export interface Companies {
  /** Columns before a record's own, on the report sheet and on each child sheet. */
  readonly lead: readonly Column[];
  /** Whether a step may walk now. */
  ready(): boolean;
  /** Columns a row's key is read from: the record's id, and the connection's when consolidated. */
  readonly keyColumns: number;
  /** The report sheet's first data rows, whose record ids (the cells of the id column) are `ids`; a row without an id has the key ''. */
  rows(report: LeadSheet, ids: readonly unknown[]): SheetRow[];
  /** Whether the first `rows` data rows hold a company the run does not name (one that left a consolidated report). */
  others?(report: LeadSheet, rows: number): boolean;
  writing(company: CompanySpec | undefined): Writing;
  /** `children`: the child sheets, found only by a run that renames. */
  renaming(report: LeadSheet, children: () => SheetPort[]): Renaming;
  /** The companies of the run, each once per step. */
  walkers(): Walker[];
  /** A walker the service did not answer (`text`: what it said) waits for the next step: in words, and until when. */
  rest(walker: Walker, err: unknown, text: string): void;
  /** Why a walker failed, after `failures` steps in a row without an answer (a time-out) or at once. */
  failure(err: unknown, failures: number, text: string): string;
  /** A warning of a walker's pages, as the run keeps it. */
  warning(walker: Walker, text: string): string;
  /** What the run says while some walkers are still walking. */
  waiting(running: readonly Walker[]): string | undefined;
  /** What failed, when every walker did (or, some of them, a partial run). */
  failed(failed: readonly Walker[]): string;
}

/**
 * The one company's place: where its walk stands and how often in a row its
 * service did not answer are the run's own, as a one-company job has always
 * kept them between steps.
 */
function runPlace(run: ImportState): Place {
  const place: Place = { status: 'running', rows: 0, pages: 0, pager: null };
  for (const key of ['pager', 'transientFailures'] as const) {
    Object.defineProperty(place, key, {
      get: () => run[key],
      set: (value) => {
        Object.assign(run, { [key]: value });
      },
    });
  }
  return place;
}

/** A pull of the report's own connection into a sheet of its records alone. */
export function oneCompany(state: ImportState, deps: ImportDeps): Companies {
  const walker: Walker = { company: undefined, place: runPlace(state), filters: state.spec.filters, client: () => deps.client };
  return {
    lead: [],
    // The service asked for a pause longer than the last step had: nothing is asked before it ends.
    ready: () => state.notBefore === undefined || deps.now() >= state.notBefore,
    keyColumns: 1,
    rows: (_report, ids) => ids.map((id) => ({ key: String(id), untouched: false })),
    writing: () => ({
      cells: [],
      key: (id) => String(id),
      wrote: (records, held) => {
        // What the pull wrote is what an edit of the sheet is told from (record ids are unique in a one-company sheet).
        deps.pulled?.(state.sheetId, records);
        if (state.spec.mode === 'replace') state.rows += records.length;
        else {
          state.merged += records.length;
          state.rows = held;
        }
      },
    }),
    renaming: () => ({ reads: 0, run: () => {} }),
    walkers: () => [walker],
    rest: (walker, err, text) => {
      const wait = err instanceof RateLimitedError ? err.retryAfterMs : undefined;
      if (wait) state.notBefore = deps.now() + wait;
      walker.place.message = wait
        ? `O serviço pediu uma pausa de ${Math.ceil(wait / 1000)} s. A importação continua depois dela, de onde parou.`
        : `O serviço não respondeu a tempo (${text}). A importação tenta de novo na próxima etapa, de onde parou.`;
    },
    failure: (err, failures, text) =>
      transient(err)
        ? `O serviço não respondeu em ${plural(failures, 'tentativa', 'tentativas seguidas')} (${text}). A importação parou depois da última página gravada; use Continuar quando o serviço voltar.`
        : failureMessage(err),
    warning: (_walker, text) => text,
    waiting: ([walker]) => walker.place.message,
    failed: ([walker]) => walker.place.message as string,
  };
}
