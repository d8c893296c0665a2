/**
 * The owner's agenda: for each document in which they own a schedule or an
 * unfinished run, when something there is next due. It lives in the owner's
 * UserProperties as one small record, so the hourly run decides what to open
 * from one property read: a document with nothing due is never opened, however
 * many reports it holds. Each action on the work (a schedule set, a run
 * started or finished) writes its document's entry again from what is stored
 * there, and the hourly run does the same after it served a document.
 *
 * A document that cannot be opened any longer (deleted, or no longer shared
 * with the owner) is tried a few times, then dropped with a line to its owner.
 */
import { type KeyValueStore, readJson, writeJson } from '../ports';

const KEY = 'faturamento.agenda';
/** Hourly runs in a row that could not open a document before it leaves the agenda. */
export const MISSES_BEFORE_DROP = 3;

/** When the document's work is next due (epoch ms), and how many runs in a row could not open it. */
export interface AgendaEntry {
  at: number;
  misses?: number;
}

export type Agenda = Record<string, AgendaEntry>;

export class AgendaStore {
  constructor(private readonly user: KeyValueStore) {}

  /** Null before the agenda was ever kept: the owner's documents are not known from it yet. */
  read(): Agenda | null {
    return readJson<Agenda | null>(this.user, KEY, null);
  }

  private write(agenda: Agenda): void {
    writeJson(this.user, KEY, agenda);
  }

  /** The document's work is next due at `at`, or (null) it holds nothing due or unfinished of this owner. Writes only when it changes. */
  set(documentId: string, at: number | null): void {
    const stored = this.read();
    const agenda = stored ?? {};
    const known = agenda[documentId];
    // Written once even when empty: from then on the agenda, not the ledger, says what to open.
    if (stored && (at === null ? known === undefined : known?.at === at && !known.misses)) return;
    if (at === null) delete agenda[documentId];
    else agenda[documentId] = { at };
    this.write(agenda);
  }

  /** The run could not open the document: true when that was once too often and it left the agenda. */
  missed(documentId: string): boolean {
    const agenda = this.read() ?? {};
    const entry = agenda[documentId];
    if (!entry) return false;
    const misses = (entry.misses ?? 0) + 1;
    if (misses >= MISSES_BEFORE_DROP) delete agenda[documentId];
    else agenda[documentId] = { ...entry, misses };
    this.write(agenda);
    return misses >= MISSES_BEFORE_DROP;
  }
}

/** Documents with something due at `now`, soonest first. */
export function dueDocuments(agenda: Agenda, now: number): string[] {
  return Object.entries(agenda)
    .filter(([, e]) => e.at <= now)
    .sort(([a, x], [b, y]) => x.at - y.at || a.localeCompare(b))
    .map(([id]) => id);
}
