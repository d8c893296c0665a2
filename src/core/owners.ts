/**
 * Who owns what in a shared document, and what a trigger may run.
 *
 * Every editor has a stable id and a secret in their own UserProperties,
 * where no one else can read or write. Reports and bulk runs stored in the
 * document name their owner and their owner's connection id, but anything in
 * the document can be written by any editor (a sheet, or any add-on function
 * called with any arguments). So the owner's UserProperties keep a ledger per
 * document: for each item they own, a signature of what they agreed to run
 * (connection, listing, filters, sheet, schedule…) made with their secret. A
 * trigger runs an item only when the item names the trigger's user as owner
 * and that user's ledger holds a matching signature: a report claiming to be
 * someone else's, or someone's report changed behind their back, runs nothing.
 *
 * The ledger's list of documents is also how an owner's trigger finds its
 * work without the document being open (each is opened by id).
 */
import type { KeyValueStore } from './ports';
import { readJson, writeJson } from './ports';

export interface Owner {
  id: string;
  /** For people to read; never used to decide anything. */
  email: string;
}

/** What a report's signature covers (see reportTerms): any item of this shape, whatever else it holds. */
export interface ReportTerms {
  id: string;
  owner?: Owner;
  connectionId?: string;
  listing: string;
  filters: unknown;
  incremental?: unknown;
  schedule?: unknown;
  notifyByEmail?: unknown;
  cardData?: unknown;
  companies?: unknown;
}

/** What a bulk run's signature covers (see bulkTerms). */
export interface BulkTerms {
  id: string;
  owner?: Owner;
  connectionId?: string;
  operation: string;
  sheetId: number;
  startedAt: number;
}

export interface Identity extends Owner {
  secret: string;
}

/** What one owner vouches for in one document: item id → signature. */
export interface Ledger {
  reports: Record<string, string>;
  bulk: Record<string, string>;
}

const IDENTITY = 'faturamento.usuario';
const LEDGER_PREFIX = 'faturamento.meus.';

/** Signs text with the owner's secret (HMAC-SHA256 in Apps Script). */
export type Signer = (text: string, secret: string) => string;

export class OwnerStore {
  constructor(
    private readonly user: KeyValueStore,
    private readonly newId: () => string,
    private readonly sign: Signer,
  ) {}

  /** The running user's identity, created at first use. The e-mail is refreshed when it is known. */
  identity(email: string): Identity {
    const saved = readJson<Identity | null>(this.user, IDENTITY, null);
    if (saved?.id && saved.secret) {
      if (email && saved.email !== email) writeJson(this.user, IDENTITY, { ...saved, email });
      return { ...saved, email: email || saved.email };
    }
    const created: Identity = { id: this.newId(), secret: `${this.newId()}${this.newId()}`, email };
    writeJson(this.user, IDENTITY, created);
    return created;
  }

  /** Documents in which this user owns something. */
  documents(): string[] {
    return this.user
      .keys()
      .filter((k) => k.startsWith(LEDGER_PREFIX))
      .map((k) => k.slice(LEDGER_PREFIX.length));
  }

  ledger(documentId: string): Ledger {
    const l = readJson<Partial<Ledger>>(this.user, LEDGER_PREFIX + documentId, {});
    return { reports: { ...l.reports }, bulk: { ...l.bulk } };
  }

  private saveLedger(documentId: string, ledger: Ledger): void {
    if (Object.keys(ledger.reports).length === 0 && Object.keys(ledger.bulk).length === 0) this.user.delete(LEDGER_PREFIX + documentId);
    else writeJson(this.user, LEDGER_PREFIX + documentId, ledger);
  }

  /** Records that `me` agrees to run the report as it is now. */
  vouchReport(me: Identity, documentId: string, report: ReportTerms): void {
    const ledger = this.ledger(documentId);
    ledger.reports[report.id] = this.sign(reportTerms(report), me.secret);
    this.saveLedger(documentId, ledger);
  }

  vouchBulk(me: Identity, documentId: string, job: BulkTerms): void {
    const ledger = this.ledger(documentId);
    ledger.bulk[job.id] = this.sign(bulkTerms(job), me.secret);
    this.saveLedger(documentId, ledger);
  }

  /** Drops items from the ledger (deleted, taken over by someone else, finished). */
  forget(documentId: string, items: { reports?: string[]; bulk?: string[] }): void {
    const ledger = this.ledger(documentId);
    const reports = new Set(items.reports);
    const bulk = new Set(items.bulk);
    let changed = false;
    for (const id of Object.keys(ledger.reports)) if (reports.has(id)) changed = delete ledger.reports[id];
    for (const id of Object.keys(ledger.bulk)) if (bulk.has(id)) changed = delete ledger.bulk[id];
    // Forgetting what the ledger does not hold writes nothing.
    if (changed) this.saveLedger(documentId, ledger);
  }

  /** A checker of items against this user's ledger for one document, read once. */
  checker(me: Identity, documentId: string): OwnershipCheck {
    const ledger = this.ledger(documentId);
    return {
      me: me.id,
      report: (r) => r.owner?.id === me.id && Boolean(r.connectionId) && ledger.reports[r.id] === this.sign(reportTerms(r), me.secret),
      bulk: (j) => j.owner?.id === me.id && Boolean(j.connectionId) && ledger.bulk[j.id] === this.sign(bulkTerms(j), me.secret),
      ledger,
    };
  }
}

export interface OwnershipCheck {
  /** The running user's id. */
  me: string;
  /** The report is the user's and they vouched for it as it is. */
  report<R extends ReportTerms>(r: R): boolean;
  bulk<J extends BulkTerms>(j: J): boolean;
  ledger: Ledger;
}

/**
 * What an owner agrees to when they save or schedule a report: anything that decides what is pulled, with whose key,
 * and when. Not the tab: it lands in this document whichever tab it is, the tab is found by its id and its name
 * follows the person's renames.
 */
function reportTerms(r: ReportTerms): string {
  // Card data and a consolidated report's companies join the terms only when present, so reports vouched for before
  // stay vouched for.
  const terms = ['r', r.id, r.owner?.id, r.connectionId, r.listing, r.filters, r.incremental, r.schedule, r.notifyByEmail];
  return JSON.stringify([...terms, ...(r.cardData ? ['cartao'] : []), ...(r.companies ? [r.companies] : [])]);
}

/** What an owner agrees to when they start a bulk run: which rows go where, with whose key. */
function bulkTerms(j: BulkTerms): string {
  return JSON.stringify(['b', j.id, j.owner?.id, j.connectionId, j.operation, j.sheetId, j.startedAt]);
}

/** The message for someone acting on an item they do not own. */
export function notYours(what: string, owner: Owner | undefined): string {
  return owner
    ? `${what} é de ${owner.email || 'outro editor'}: só quem o criou pode executá-lo, com a própria conexão. Para usá-lo com uma conexão sua, clique em "Assumir".`
    : `${what} foi salvo antes de os relatórios terem dono e não é executado por ninguém. Clique em "Assumir" para escolher uma conexão sua.`;
}
