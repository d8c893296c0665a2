/**
 * What a kind of panel is: the reports it reads (and which of their columns),
 * how it computes its figures from them, and how it writes them on its own
 * sheet. One refresh serves every kind (refresh.ts); the registry (kinds.ts)
 * names them.
 */
import type { FilterValues } from '../../api/filters';
import type { ListingKey } from '../../api/operations';
import type { Report } from '../reports/reports';
import type { SheetPort } from '../sheets/sheet-port';
import type { DashboardSheetPort } from './port';
import type { SourceTable, Today } from './sources';

/** Where a dashboard keeps the id of each report it reads. */
export type SourceField = 'reportId' | 'secondReportId' | 'chargesReportId';

/** A report a kind reads. */
export interface SourceNeed {
  field: SourceField;
  /** The listing the report must hold. */
  listing: ListingKey;
  /** The report in words, after "relatório": "de origem", "de NFS-e". */
  role: string;
  /** The field keys read from its sheet (the company column comes with them). */
  columns: readonly string[];
  /** A child sheet of the report's sheet, joined by the kind (Fluxo de caixa: the planos de conta of each transaction). */
  child?: { field: string; columns: readonly string[] };
}

/** A report as the refresh read it. */
export interface Source {
  report: Report;
  sheet: SheetPort;
  table: SourceTable;
  /** The child sheet's columns, null when there is no such sheet; absent when the kind asks for none. */
  child?: SourceTable | null;
  /** The report's columns by field key, as their header says them in quotes (for a missing column's note). */
  labels: Record<string, string>;
  /** The filters the report's last run asked for, as it asked them (relative dates resolved on its day). */
  asked: FilterValues;
}

/** What a kind computes from: its reports in the order it named them, and the day. */
export interface PanelInput {
  sources: readonly Source[];
  today: Today;
  now: number;
  /** The competência the dashboard closes (MM/YYYY), when its kind asks for one. */
  competencia?: string;
}

/** The dashboard's sheet, cleared, and what its head says besides the figures. */
export interface Page {
  sheet: DashboardSheetPort;
  sources: readonly Source[];
  /** When it was refreshed, as the head says it. */
  stamp: string;
  /** What the figures leave out: a report's partial run, notes issued since the NFS-e report last ran. */
  partial: string[];
  /** The dashboard's charts still on the sheet: the first is updated where the user left it. */
  charts: number[];
}

/** Figures count the records they were computed from. */
export interface Counted {
  counted: number;
}

/** Invoices by company ('' for a single company) and id. */
export type InvoiceIds = Array<{ empresa: string; id: number }>;

/** A line whose records the user can select on their report's sheet (Ver linhas). */
export interface PanelLine {
  key: string;
  label: string;
}

export interface PanelKind<F extends Counted = Counted> {
  title: string;
  /** What the dashboard counts, in words (under "Filtros", and in the sidebar). */
  counts: string;
  /** Its reports, the first one its source. */
  sources: readonly SourceNeed[];
  /** The dashboard closes one competência, chosen when it is built. */
  competencia?: boolean;
  /** Time it needs at the end of a report run beyond any dashboard's. */
  extraMs?: number;
  /** Why its reports cannot be read together (other organizations), before their sheets are read; undefined when they can. */
  refuse?(reports: readonly Report[]): string | undefined;
  /** Its figures; a UserError says why they cannot be computed. */
  compute(input: PanelInput): F;
  /** Writes the figures on the cleared sheet; returns the ids of the charts it drew. */
  write(page: Page, figures: F): number[];
  /** The invoices Lançamentos em lote can issue a note for, in its first report's sheet. */
  invoices?(figures: F): InvoiceIds;
  lines?: readonly PanelLine[];
  /** A line's records: which of its sources holds them, their data rows (0-based) and what they are. */
  lineRows?(figures: F, key: string): { source: number; rows: number[]; title: string } | undefined;
}
