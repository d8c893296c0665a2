/**
 * What the Central keeps per company and competência in the document's
 * signed work store: the figures of its last full read (and when), its last
 * failure, and the marks the hourly check compares with. One item per
 * company, rewritten only when that company is read again, so a refresh of
 * the changed companies keeps the others' figures as they were.
 */
import type { Organization } from '../connections/organizations';
import type { Owner } from '../trust/owners';
import { ItemStore } from '../trust/item-store';
import type { SignedStore } from '../trust/seal';
import type { ChangeMarks } from './ask';
import type { MonthFigures } from './month';

export const COMPANY_PREFIX = 'faturamento.central.empresa.';

/** A company of the Central: one of the user's connections, each organization once. */
export interface CentralCompany {
  connectionId: string;
  /** The connection's name: the company as the office calls it. */
  name: string;
  organization?: Organization;
}

/** The company's key across connections and users: its organization's when known, else its connection's. */
export const companyKey = (c: CentralCompany): string => (c.organization ? `org:${c.organization.key}` : `conn:${c.connectionId}`);

/** One company's month as last refreshed. */
export interface CompanyMonth {
  /** `${competência}|${companyKey}`. */
  id: string;
  createdAt: number;
  competencia: string;
  company: CentralCompany;
  /** The refresh (job id) that wrote it last: a refresh resumed after a kill knows the companies it already did. */
  run: string;
  /** When its figures were read (the read's start); absent while it never was. */
  refreshedAt?: number;
  figures?: MonthFigures;
  marks?: ChangeMarks;
  /** The last refresh could not read it: why, in words, and when. */
  failure?: { at: number; message: string /** The service answered, but the listing came back short of pages. */; incomplete?: boolean };
  /** Why the last "conferida" mark was cleared, in words. */
  undone?: string;
}

/** A refresh as the work store keeps it between steps (refresh.ts). */
export interface CentralJob {
  id: string;
  owner: Owner;
  competencia: string;
  onlyChanged: boolean;
  startedAt: number;
  finishedAt?: number;
  companies: CentralCompany[];
  /** Connections left out because another of the same organization is read: each with the one read. */
  skipped: Array<{ name: string; used: string }>;
  /** Companies (keys) the hourly check found unchanged in this refresh: their items stay as they were. */
  unchanged: string[];
}

export const monthId = (competencia: string, key: string): string => `${competencia}|${key}`;

export class CentralStore {
  private readonly items: ItemStore<CompanyMonth>;

  constructor(doc: SignedStore) {
    this.items = new ItemStore<CompanyMonth>(doc, COMPANY_PREFIX, () => '', 'Esta empresa não está mais na Central: atualize a Central.');
  }

  find(competencia: string, company: CentralCompany): CompanyMonth | null {
    return this.items.find(monthId(competencia, companyKey(company)));
  }

  /** Every company kept for `competencia`, by key. */
  month(competencia: string): Map<string, CompanyMonth> {
    const out = new Map<string, CompanyMonth>();
    for (const item of this.items.list()) if (item.competencia === competencia) out.set(companyKey(item.company), item);
    return out;
  }

  save(item: CompanyMonth): CompanyMonth {
    return this.items.save(item);
  }

  /**
   * Keeps the figures of `current` and of the other competências refreshed most recently, `keep` in all, and lets
   * the older go: every step reads the items of one competência out of all of them, and an office of a hundred
   * companies closing month after month would otherwise read a year of them. A competência let go is read again
   * in full when someone refreshes it; its reviews are kept.
   */
  prune(current: string, keep = MONTHS_KEPT): void {
    const latest = new Map<string, number>();
    const items = this.items.list();
    for (const item of items) latest.set(item.competencia, Math.max(latest.get(item.competencia) ?? 0, item.refreshedAt ?? item.createdAt));
    const kept = new Set([
      current,
      ...[...latest.entries()]
        .filter(([c]) => c !== current)
        .sort((a, b) => b[1] - a[1])
        .slice(0, keep - 1)
        .map(([c]) => c),
    ]);
    for (const item of items) if (!kept.has(item.competencia)) this.items.delete(item.id);
  }
}

/** Competências whose figures the document keeps at once (the one refreshed and the two refreshed before it). */
export const MONTHS_KEPT = 3;
