/**
 * The owner's agenda: for each document in which they own a schedule or an
 * unfinished run, when something there is next due. It lives in the owner's
 * UserProperties, so the hourly run decides what to open from one property
 * read (a few for a large office): a document with nothing due is never
 * opened, however many reports it holds. Each action on the work (a schedule
 * set, a run started or finished) writes its document's entry again from what
 * is stored there, and the hourly run does the same after it served a document.
 *
 * A property value holds at most 9 KB, and a document id is 44 characters, so
 * the agenda is kept in parts, each under PART_BYTES: an office of 500
 * documents takes four. A document is found in the part that holds it, and a
 * new one goes to the first part with room.
 *
 * A document that cannot be opened leaves the agenda only when Google says it
 * is gone or no longer shared (lastingLoss), and says so again a day later
 * with no open in between: a passing error, or a loss put right within the
 * day, keeps it.
 */
import { UserError } from '../../api/user-error';
import { type KeyValueStore, readJson } from '../ports';
import { type QuietRecord, sameQuiet } from './quiet-check';

const KEY = 'faturamento.agenda';
/** In the first part: how many parts the agenda has, when more than one. */
const PARTS = '#';
/** A part's size: under Google's 9 KB a value, with room for the key should Google count it too. */
export const PART_BYTES = 8 * 1024;
/** Parts at most: about 2,000 documents, a quarter of the user's 500 KB store, which signatures and connections share. */
export const MAX_PARTS = 16;
/** A quiet record's size at most (a dozen reports or so): a document of more hourly reports is opened each hour. */
export const QUIET_BYTES = 2_048;
/** The parts quiet records may fill (half the agenda): past them a document's record is left out, its schedule kept. */
export const QUIET_PARTS = MAX_PARTS / 2;
/** How long a document must stay out of reach, seen at both ends, before it leaves the agenda. */
export const LOST_AFTER_MS = 24 * 3_600_000;
/**
 * A document out of reach is tried again this much later, not at every run: at the next hour's run, whose start
 * within its minute moves with what that run served before it (a few minutes short of an hour, so it is not missed).
 */
export const RETRY_LOST_MS = 50 * 60_000;

/** When the document's work is next due (epoch ms), and since when it is out of reach, if it is. */
export interface AgendaEntry {
  at: number;
  lost?: number;
  /** The document's hourly reports a later hour of the day may settle without opening it (quiet-check.ts). */
  quiet?: QuietRecord;
}

export type Agenda = Record<string, AgendaEntry>;

/** A part as stored: most entries are only their time; one out of reach says since when. Earlier versions kept `{ at, misses }`. */
type Part = Record<string, number | { at: number; lost?: number; quiet?: QuietRecord }>;

/** Saving a schedule is refused when the agenda cannot take its document: it would never run. */
export class AgendaFullError extends UserError {
  override name = 'AgendaFullError';
  constructor() {
    super(
      'O agendamento não foi salvo: a sua agenda de atualizações automáticas chegou ao limite que o Google dá às propriedades de cada usuário. Remova os agendamentos de planilhas que não usa mais (em Relatórios, em cada uma delas) e salve de novo.',
    );
  }
}

/** Google's words when a document is gone or no longer shared with the user; anything else may pass (docs/limits.md says where each comes from). */
const LASTING_LOSS = [
  /you do not have permission to access the requested document/i,
  /is missing \(perhaps it was deleted/i,
  /unexpected error while getting the method or property openById/i,
];

/** Whether openById's `message` says the document is gone or not shared, rather than a passing failure. */
export function lastingLoss(message: string): boolean {
  return LASTING_LOSS.some((words) => words.test(message));
}

function entryOf(stored: Part[string]): AgendaEntry {
  if (typeof stored === 'number') return { at: stored };
  return {
    at: stored.at,
    ...(stored.lost === undefined ? {} : { lost: stored.lost }),
    ...(stored.quiet === undefined ? {} : { quiet: stored.quiet }),
  };
}

const storedOf = (entry: AgendaEntry): Part[string] => (entry.lost === undefined && entry.quiet === undefined ? entry.at : entryOf(entry as Part[string]));

/**
 * The agenda the parts hold. A kill between the two writes of a move leaves a document in two parts, and nothing says
 * which copy is newer: the one due sooner counts, which at worst opens the document once more, and that visit writes
 * its entry again.
 */
function agendaOf(parts: readonly Part[]): Agenda {
  const agenda: Agenda = {};
  for (const part of parts)
    for (const [id, stored] of Object.entries(part)) {
      if (id === PARTS) continue;
      const entry = entryOf(stored);
      if (!agenda[id] || entry.at < agenda[id].at) agenda[id] = entry;
    }
  return agenda;
}

const fits = (part: Part): boolean => JSON.stringify(part).length <= PART_BYTES;

export class AgendaStore {
  /** `guard` runs each change (read, then write) alone among the owner's executions: their user lock. */
  constructor(
    private readonly user: KeyValueStore,
    private readonly guard: <T>(change: () => T) => T = (change) => change(),
  ) {}

  private key(i: number): string {
    return i === 0 ? KEY : `${KEY}.${i}`;
  }

  /** Null before the agenda was ever kept. */
  private parts(): Part[] | null {
    const first = readJson<Part | null>(this.user, KEY, null);
    if (!first) return null;
    const parts = [first];
    // A single part names no count (NaN: no further part).
    for (let i = 1; i < Number(first[PARTS]); i++) parts.push(readJson<Part>(this.user, this.key(i), {}));
    return parts;
  }

  /** Null before the agenda was ever kept: the owner's documents are not known from it yet. */
  read(): Agenda | null {
    const parts = this.parts();
    return parts && agendaOf(parts);
  }

  /**
   * Writes the document's entry as `change` makes it from the stored one
   * (undefined: none), only when it changes; the agenda is written even empty
   * the first time, since from then on it, not the ledger, says what to open.
   */
  private change(documentId: string, change: (entry: AgendaEntry | undefined) => AgendaEntry | undefined): Agenda {
    return this.guard(() => {
      const stored = this.parts();
      const parts = stored ?? [{}];
      // Every part that holds the document: more than one after a kill in the middle of a move.
      const holders = parts.flatMap((p, i) => (p[documentId] !== undefined ? [i] : []));
      const known = agendaOf(holders.map((i) => ({ [documentId]: parts[i][documentId] })))[documentId];
      const next = change(known);
      if (stored && holders.length <= 1 && JSON.stringify(next) === JSON.stringify(known)) return agendaOf(parts);
      const count = parts.length;
      for (const i of holders) delete parts[i][documentId];
      const placed = next ? this.place(parts, documentId, next) : -1;
      if (parts.length !== count) parts[0][PARTS] = parts.length;
      // The part that takes the entry first, then those it left (a kill between them leaves it twice, never nowhere),
      // and the first part, which names how many there are, last.
      const first = stored && parts.length === count ? -1 : 0;
      for (const i of new Set([placed, ...holders, first].filter((p) => p >= 0))) this.user.set(this.key(i), JSON.stringify(parts[i]));
      return agendaOf(parts);
    });
  }

  /**
   * Puts the entry in the first part with room, a new part if none has any; the part's index. Its quiet record rides
   * along only while small and within the first QUIET_PARTS parts: it never makes the agenda refuse a document
   * (without it the document is opened each hour, as before), nor takes the room the last parts keep for schedules.
   */
  private place(parts: Part[], documentId: string, entry: AgendaEntry): number {
    if (entry.quiet && JSON.stringify(entry.quiet).length <= QUIET_BYTES) {
      for (let i = 0; i < QUIET_PARTS; i++) {
        if (i === parts.length) parts.push({});
        parts[i][documentId] = storedOf(entry);
        if (fits(parts[i])) return i;
        delete parts[i][documentId];
      }
      // A part opened for nothing is not kept.
      while (parts.length > 1 && Object.keys(parts[parts.length - 1]).length === 0) parts.pop();
    }
    const stored = storedOf({ at: entry.at, ...(entry.lost === undefined ? {} : { lost: entry.lost }) });
    for (let i = 0; ; i++) {
      if (i === parts.length) {
        if (parts.length >= MAX_PARTS) throw new AgendaFullError();
        parts.push({});
      }
      parts[i][documentId] = stored;
      if (fits(parts[i])) return i;
      delete parts[i][documentId];
    }
  }

  /**
   * The document's work is next due at `at`, or (null) it holds nothing due or
   * unfinished of this owner. Writes only when it changes; the agenda as it is
   * then. Throws AgendaFullError when it has no room for one more document.
   */
  set(documentId: string, at: number | null, quiet?: QuietRecord): Agenda {
    return this.change(documentId, () => (at === null ? undefined : quiet ? { at, quiet } : { at }));
  }

  /** The run opened the document: whatever was seen out of reach before was passing. */
  reached(documentId: string): void {
    this.change(documentId, (entry) => entry && (entry.quiet ? { at: entry.at, quiet: entry.quiet } : { at: entry.at }));
  }

  /**
   * The document's quiet reports, as `checked` says them, were found as they were at `checkedAt`: it is next due at
   * `at`. An entry written again since the run read it (a sidebar's action, another run's visit) is left as it is.
   */
  settled(documentId: string, at: number, checkedAt: number, checked: QuietRecord): void {
    this.change(documentId, (entry) => (entry?.quiet && sameQuiet(entry.quiet, checked) ? { at, quiet: { ...entry.quiet, checkedAt } } : entry));
  }

  /**
   * The run could not open the document, with Google's `message`. A passing
   * failure changes nothing: the document stays due for the next run. A lasting
   * one is tried again an hour later; seen a day after the first with no open
   * in between, the document leaves the agenda. True only for the change that
   * removed it, so its owner is told once.
   */
  unreachable(documentId: string, message: string, now: number): boolean {
    if (!lastingLoss(message)) return false;
    let dropped = false;
    this.change(documentId, (entry) => {
      if (!entry) return undefined;
      const lost = entry.lost ?? now;
      dropped = now - lost >= LOST_AFTER_MS;
      return dropped ? undefined : { at: Math.max(entry.at, now + RETRY_LOST_MS), lost };
    });
    return dropped;
  }
}

/** Documents with something due at `now`, soonest first. */
export function dueDocuments(agenda: Agenda, now: number): string[] {
  return Object.entries(agenda)
    .filter(([, e]) => e.at <= now)
    .sort(([a, x], [b, y]) => x.at - y.at || a.localeCompare(b))
    .map(([id]) => id);
}
