/**
 * Stored dashboards: which kind, from which report(s), on which sheet (by id),
 * whose they are and how the last refresh went. Kept in the document's work
 * store under their own prefix, beside the reports.
 */
import { ItemStore } from '../trust/item-store';
import type { Owner } from '../trust/owners';
import type { SignedStore } from '../trust/seal';
import type { DashboardKind } from './kinds';

export interface DashboardRefresh {
  at: number;
  ok: boolean;
  counted: number;
  message?: string;
}

export interface Dashboard {
  id: string;
  kind: DashboardKind;
  reportId: string;
  /** Faturas sem NFS-e: the NFS-e report compared against. */
  secondReportId?: string;
  /** Fechamento: the charges report (its invoices are `reportId`, its notes `secondReportId`). */
  chargesReportId?: string;
  /** Fechamento: the competência closed (MM/YYYY). */
  competencia?: string;
  /** Who built it, set on the server from the running user; only their runs refresh it. */
  owner: Owner;
  /** The dashboard sheet by id (it also carries SHEET_TAG `painel:<id>`): renaming or moving it changes nothing. */
  sheetId?: number;
  sheetName: string;
  /** The dashboard's charts, updated in place so a chart the user moved stays where they put it. */
  chartIds?: number[];
  createdAt: number;
  /** When its invoices were last selected for Lançamentos em lote to issue their NFS-e. */
  issueAt?: number;
  lastRefresh?: DashboardRefresh;
}

/** Where a dashboard is kept in the document's work store, by its id. */
const PREFIX = 'faturamento.painel.';

/** Whether the dashboard reads that report (as its source, its NFS-e or its charges). */
export const readsReport = (d: Dashboard, reportId: string): boolean => [d.reportId, d.secondReportId, d.chargesReportId].includes(reportId);

export const dashboardTag = (id: string): string => `painel:${id}`;

export class DashboardStore extends ItemStore<Dashboard> {
  constructor(doc: SignedStore, newId: () => string) {
    super(doc, PREFIX, newId, 'Este painel não existe mais. Atualize a lista de painéis.');
  }
}
