/**
 * Saved reports: which listing, through which connection (by name, never the
 * key), with which filters, into which sheet, on which schedule. They live in
 * the document's work store because they belong to the spreadsheet, signed
 * whole (seal.ts); relative filters keep a saved report meaningful as time passes.
 */
import type { FilterValues } from '../../api/filters';
import type { ListingKey } from '../../api/operations';
import { ItemStore } from '../trust/item-store';
import type { SignedStore } from '../trust/seal';
import type { Owner } from '../trust/owners';
import type { RunResult } from '../run-state';
import type { Schedule } from './schedule';
import type { SheetFilter } from '../sheets/sheet-filters';
import type { Organization } from '../connections/organizations';

export type RelativeValue =
  /** A date filter: today plus `dias` (negative for the past). */
  | { rel: 'hoje'; dias: number }
  /** A competência filter: this month plus `meses` (0 current, -1 previous). */
  | { rel: 'mes'; meses: number };

export type SavedFilterValue = string | number | boolean | number[] | RelativeValue;

export type RunOrigin = 'manual' | 'agendado';

export interface RunSummary {
  startedAt: number;
  finishedAt?: number;
  origin: RunOrigin;
  rows: number;
  durationMs: number;
  result: RunResult;
  message?: string;
  warnings?: string[];
  incremental?: boolean;
  /** A consolidated run's companies that failed, each with why (a panel says them; a failure told once is not e-mailed again). */
  failedCompanies?: FailedCompany[];
}

export interface FailedCompany {
  name: string;
  message: string;
  /** Trying again may fix it (a time-out, a pause the service asked for). */
  retryable: boolean;
}

export interface Report {
  id: string;
  name: string;
  listing: ListingKey;
  /** The connection's name when it was chosen, for people to read; runs use `connectionId`. */
  connection: string;
  /** The owner's connection (an id in the owner's UserProperties): never anyone's key. Absent in reports saved before owners. */
  connectionId?: string;
  /**
   * A consolidated report: the same listing from several of the owner's
   * connections (by id), or from all of them as they are at each run. Absent:
   * one company, `connectionId`.
   */
  companies?: Companies;
  /** Per company (connection id): start of its last successful pull, the lower bound of its next incremental one. */
  companyStamps?: Record<string, number>;
  /** The lasting failure of companies of a consolidated report last e-mailed to its owner: the same one is not e-mailed again. */
  toldFailure?: string;
  /** The organizations its last run read, when each was known (see organizations.ts): panels never compare two reports of different ones. */
  organizations?: Organization[];
  /** Who runs it, set on the server from the running user. Absent in reports saved before owners: nobody runs those until someone takes them over. */
  owner?: Owner;
  filters: Record<string, SavedFilterValue>;
  /** "Filtros na planilha": applied by the add-on to what the service's filters brought. */
  sheetFilters?: SheetFilter[];
  /** "Incluir dados de cartão": card columns (holder's CPF, masked number…) go to the sheet only then. */
  cardData?: boolean;
  sheetName: string;
  /** The sheet's id once a run created or chose it: renaming or moving the tab changes nothing. */
  sheetId?: number;
  /** Fetch only what changed since the last successful run and merge by id. */
  incremental: boolean;
  schedule: Schedule | null;
  notifyByEmail: boolean;
  /** When the schedule's count starts: set when scheduled, moved on by each scheduled run. */
  scheduleSince?: number;
  lastRun?: RunSummary;
  /** Start of the last successful run: the lower bound of the next incremental one. */
  lastSuccessStart?: number;
  /** How the last good pull of one company walked the listing: its page numbering and the pages it read. */
  lastWalk?: { base: 0 | 1; pages: number; quiet?: QuietMark };
  /** Scheduled runs that failed in a row: each more waits longer before the schedule tries again. */
  failedRuns?: number;
  /** Epoch ms before which the schedule does not start the report again (the back-off after repeated failures, or for good after one that retrying cannot fix). */
  pausedUntil?: number;
  /** When a scheduled start was first skipped because the owner paused the company in the Central: Histórico says so once per pause, not every hour. */
  pauseNoted?: number;
  createdAt: number;
}

/**
 * What the day's check that found a report's sheet as its listing returned keeps on the report's walk: later hours of
 * that day may then be settled without opening the spreadsheet (core/hourly/quiet-check.ts).
 */
export interface QuietMark {
  /** The day of the check in the document's zone, YYYY-MM-DD: the filters it asked resolve by day. */
  day: string;
  /** The report's terms when checked (a digest): a report changed since is not settled from its old terms. */
  terms: string;
  /** The filters the check asked the service for. */
  filters: FilterValues;
  /** A digest of the records the listing returned. */
  records: string;
}

/** How a report of all the owner's connections names its companies, in the report and on its card. */
export const ALL_COMPANIES_LABEL = 'Todas as minhas conexões';

export interface Companies {
  /** "Todas as minhas conexões": resolved at each run to the owner's connections then. */
  all: boolean;
  ids: string[];
}

/** Where a report is kept in the document's work store, by its id. */
export const REPORT_PREFIX = 'faturamento.relatorio.';

/** The document's saved reports. A new report's first run saves it (`draft`) together with the run's start. */
export class ReportStore extends ItemStore<Report> {
  constructor(doc: SignedStore, newId: () => string) {
    super(doc, REPORT_PREFIX, newId, 'Este relatório não existe mais. Atualize a lista de relatórios.');
  }
}

/** The zone the service keeps its clock in, unless a connection says otherwise. */
export const SERVICE_TIME_ZONE = 'America/Sao_Paulo';

/** A report as the Relatórios sidebar shows it: plain data, times already formatted. */
export interface ReportView {
  id: string;
  name: string;
  listing: string;
  listingLabel: string;
  connection: string;
  /** A consolidated report's companies by name ("Todas as minhas conexões" for all), null for one company. */
  companies: string[] | null;
  /** The owner's e-mail, or null for a report saved before owners. */
  owner: string | null;
  /** The user looking at the list owns it (and vouched for it): they can run, edit and schedule it. */
  mine: boolean;
  /** It names the user looking as its owner, but is not as they saved it: someone else wrote or changed it (shown as altered, never run). */
  disowned: boolean;
  /** The action succeeded but the trigger upkeep did not: what to do about it. */
  warning?: string;
  sheetName: string;
  childSheets: string[];
  filters: Record<string, SavedFilterValue>;
  /** "Filtros na planilha", one line each, in words. */
  sheetFilters: string[];
  incremental: boolean;
  schedule: Schedule | null;
  scheduleText: string;
  nextRunAt: string | null;
  notifyByEmail: boolean;
  /** An interrupted or failed run that can resume from its last written page. */
  canContinue: boolean;
  /** Its connection no longer exists for this user (deleted or renamed): the card offers "Trocar conexão". */
  orphaned: boolean;
  /** The connections this user has, for "Trocar conexão". */
  connections: string[];
  lastRun: null | {
    at: string;
    origin: string;
    rows: number;
    seconds: number;
    result: RunResult;
    /** The result as Histórico writes it. */
    label: string;
    message: string;
  };
}
