/**
 * Who owns what in a shared document, and what a trigger may run.
 *
 * Every editor has a stable id and a secret in their own UserProperties,
 * where no one else can read or write. Reports and bulk runs stored in the
 * document name their owner and their owner's connection id, but anything in
 * the document can be written by any editor (a sheet, or any add-on function
 * called with any arguments). So every value an editor's executions save in
 * the document's work store is signed whole with their secret, and the latest
 * signature of each is kept in their UserProperties (seal.ts): a trigger runs
 * an item only when the item names the trigger's user as owner and was read
 * exactly as that user last saved it. A report claiming to be someone else's,
 * someone's report changed behind their back, or an older copy of it put
 * back, runs nothing.
 *
 * The signatures' list of documents is also how an owner's trigger finds its
 * work without the document being open (each is opened by id).
 */
import type { KeyValueStore } from '../ports';
import { readJson, writeJson } from '../ports';
import { type BulkTerms, bulkVouched, documentSeal, isSealed, type ReportTerms, reportVouched, type Seal, type Signer } from './seal';

export interface Owner {
  id: string;
  /** For people to read; never used to decide anything. */
  email: string;
}

export interface Identity extends Owner {
  secret: string;
}

/** What an owner vouched for in one document before items were signed whole: item id → signature of its terms. */
export interface Ledger {
  reports: Record<string, string>;
  bulk: Record<string, string>;
}

const IDENTITY = 'faturamento.usuario';
const LEDGER_PREFIX = 'faturamento.meus.';
/** One property per value the user saved in a document: `faturamento.selo.<document>|<key>` → its signature. */
const SEAL_PREFIX = 'faturamento.selo.';
/** Per document and key, the alteration last told to the owner: `faturamento.aviso.<document>|<key>`. */
const NOTICE_PREFIX = 'faturamento.aviso.';
/** Per document and key, when the owner was last e-mailed about it: `faturamento.avisado.<document>|<key>`. */
const MAILED_PREFIX = 'faturamento.avisado.';
const DAY_MS = 24 * 3_600_000;
const REPORT_KEY = 'faturamento.relatorio.';
const BULK_KEY = 'faturamento.lote.';

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
    const ids = new Set<string>();
    for (const k of this.user.keys()) {
      if (k.startsWith(SEAL_PREFIX)) ids.add(k.slice(SEAL_PREFIX.length, k.indexOf('|')));
      else if (k.startsWith(LEDGER_PREFIX)) ids.add(k.slice(LEDGER_PREFIX.length));
    }
    return [...ids];
  }

  /** Per document, the keys of its work store this user saved last, with their signatures: read once, kept as they are written. */
  private readonly signed = new Map<string, Map<string, string>>();

  private seals(documentId: string): Map<string, string> {
    let found = this.signed.get(documentId);
    if (found) return found;
    const prefix = `${SEAL_PREFIX}${documentId}|`;
    const all = this.user.all ? this.user.all() : Object.fromEntries(this.user.keys().map((k) => [k, this.user.get(k) ?? '']));
    found = new Map(
      Object.entries(all)
        .filter(([k]) => k.startsWith(prefix))
        .map(([k, v]) => [k.slice(prefix.length), v]),
    );
    this.signed.set(documentId, found);
    this.legacy.set(documentId, all[LEDGER_PREFIX + documentId] ?? null);
    return found;
  }

  /** Per document, the old ledger's text as read with the signatures (null: none): no second read. */
  private readonly legacy = new Map<string, string | null>();

  /** Keeps `text` as the user's signatures of `key` in the document (undefined: none), in their properties and in what was read of them. */
  private keepSignature(documentId: string, key: string, text: string | undefined): void {
    const property = `${SEAL_PREFIX}${documentId}|${key}`;
    if (text === undefined) {
      this.user.delete(property);
      this.seals(documentId).delete(key);
    } else {
      this.user.set(property, text);
      this.seals(documentId).set(key, text);
    }
  }

  /** The running user's signatures in one document, read once: what the document's work store signs with and checks against. */
  seal(me: Identity, documentId: string): Seal {
    return documentSeal(this.sign, me.secret, documentId, {
      get: (key) => this.seals(documentId).get(key),
      put: (key, text) => this.keepSignature(documentId, key, text),
    });
  }

  /** Whether `text`, found altered under `key`, is news to the user: remembered, so the same alteration is told once. */
  firstNotice(me: Identity, documentId: string, key: string, text: string): boolean {
    const property = `${NOTICE_PREFIX}${documentId}|${key}`;
    const mark = this.sign(text, me.secret);
    if (this.user.get(property) === mark) return false;
    this.user.set(property, mark);
    return true;
  }

  /** Whether the user may be e-mailed about `key` at `now`: at most once a day per item, remembered. */
  mayMail(documentId: string, key: string, now: number): boolean {
    const property = `${MAILED_PREFIX}${documentId}|${key}`;
    const last = this.user.get(property);
    if (last !== null && now - Number(last) < DAY_MS) return false;
    this.user.set(property, String(now));
    return true;
  }

  /** The keys of the document's work store in the user's name: those they saved last, and those their old ledger vouches for. */
  inTheirName(documentId: string): string[] {
    // Signatures first: their one read brings the old ledger too.
    const seals = this.seals(documentId);
    const ledger = this.ledger(documentId);
    const legacy = [...Object.keys(ledger.reports).map((id) => REPORT_KEY + id), ...Object.keys(ledger.bulk).map((id) => BULK_KEY + id)];
    return [...new Set([...seals.keys(), ...legacy])];
  }

  /** The item under `key` is in someone else's name now: the user neither signs nor vouches for it any longer. */
  letGo(documentId: string, key: string): void {
    this.keepSignature(documentId, key, undefined);
    const { reports, bulk } = this.ledger(documentId);
    const under = (prefix: string) => (id: string) => prefix + id === key;
    this.forget(documentId, { reports: Object.keys(reports).filter(under(REPORT_KEY)), bulk: Object.keys(bulk).filter(under(BULK_KEY)) });
  }

  /** The ledger of an owner from before items were signed whole (empty once nothing is left to accept from it). */
  ledger(documentId: string): Ledger {
    const known = this.legacy.get(documentId);
    let l: Partial<Ledger> = {};
    try {
      l = known === undefined ? readJson<Partial<Ledger>>(this.user, LEDGER_PREFIX + documentId, {}) : known ? (JSON.parse(known) as Partial<Ledger>) : {};
    } catch {
      // Unreadable: it vouches for nothing.
    }
    return { reports: { ...l.reports }, bulk: { ...l.bulk } };
  }

  /**
   * Drops the signatures of stored keys that are gone (another editor deleted
   * the item) and what the old ledger vouched for that has been signed whole
   * since, or is gone.
   */
  forgetMissing(documentId: string, stored: ReadonlySet<string>): void {
    const seals = this.seals(documentId);
    for (const key of [...seals.keys()]) if (!stored.has(key)) this.keepSignature(documentId, key, undefined);
    const ledger = this.ledger(documentId);
    const keep = (prefix: string) => (id: string) => stored.has(prefix + id) && !seals.has(prefix + id);
    const reports = Object.keys(ledger.reports).filter((id) => !keep(REPORT_KEY)(id));
    const bulk = Object.keys(ledger.bulk).filter((id) => !keep(BULK_KEY)(id));
    this.forget(documentId, { reports, bulk });
  }

  /** Drops items from the old ledger (deleted, taken over by someone else, finished). */
  forget(documentId: string, items: { reports?: string[]; bulk?: string[] }): void {
    const ledger = this.ledger(documentId);
    const reports = new Set(items.reports);
    const bulk = new Set(items.bulk);
    let changed = false;
    for (const id of Object.keys(ledger.reports)) if (reports.has(id)) changed = delete ledger.reports[id];
    for (const id of Object.keys(ledger.bulk)) if (bulk.has(id)) changed = delete ledger.bulk[id];
    // Forgetting what the ledger does not hold writes nothing.
    if (!changed) return;
    this.legacy.delete(documentId);
    if (Object.keys(ledger.reports).length === 0 && Object.keys(ledger.bulk).length === 0) this.user.delete(LEDGER_PREFIX + documentId);
    else writeJson(this.user, LEDGER_PREFIX + documentId, ledger);
  }

  /** A checker of items read from this document's work store, for the running user. */
  checker(me: Identity, documentId: string): OwnershipCheck {
    // Signatures first: their one read of every property brings the old ledger too, which would otherwise cost a read of its own.
    const seals = this.seals(documentId);
    const ledger = this.ledger(documentId);
    // Vouched for before items were signed whole, and never saved by this user since: accepted as it was then, until the next save signs it.
    // Kept, not retired: reports scheduled and bulk runs left unfinished under the previous version are still in people's
    // documents, and refusing them all would stop every such schedule and tell its owner of an alteration nobody made.
    // Nor can they be signed whole unseen: only this comparison tells the owner's terms from a colleague's edit of them,
    // so an item changed in what its owner vouched for is refused and told like any other alteration.
    const report = (r: ReportTerms) => isSealed(r) || (!seals.has(REPORT_KEY + r.id) && reportVouched(this.sign, me.secret, ledger.reports[r.id], r));
    const bulk = (j: BulkTerms) => isSealed(j) || (!seals.has(BULK_KEY + j.id) && bulkVouched(this.sign, me.secret, ledger.bulk[j.id], j));
    return {
      me: me.id,
      report: (r) => r.owner?.id === me.id && Boolean(r.connectionId) && report(r),
      bulk: (j) => j.owner?.id === me.id && Boolean(j.connectionId) && bulk(j),
      sealed: (item) => isSealed(item),
      altered: (item) =>
        item.owner?.id === me.id && !isSealed(item) && !('listing' in item ? report(item as ReportTerms) : 'operation' in item && bulk(item as BulkTerms)),
    };
  }
}

export interface OwnershipCheck {
  /** The running user's id. */
  me: string;
  /** The report is the user's and was read exactly as they saved it. */
  report<R extends ReportTerms>(r: R): boolean;
  bulk<J extends BulkTerms>(j: J): boolean;
  /** Any other item (an unfinished pull, a dashboard, a snapshot) was read exactly as the user saved it. */
  sealed(item: object): boolean;
  /** The item names the user as its owner, but they did not save it as it is: someone changed it (or put back an older copy). */
  altered(item: { owner?: Owner }): boolean;
}

/** The message for someone acting on an item they do not own. */
export function notYours(what: string, owner: Owner | undefined): string {
  return owner
    ? `${what} é de ${owner.email || 'outro editor'}: só quem o criou pode executá-lo, com a própria conexão. Para usá-lo com uma conexão sua, clique em "Assumir".`
    : `${what} foi salvo antes de os relatórios terem dono e não é executado por ninguém. Clique em "Assumir" para escolher uma conexão sua.`;
}
