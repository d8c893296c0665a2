/**
 * The work index: for each spreadsheet where the user owns reports, per
 * company (connection), the spreadsheet's name, its reports' names, their
 * schedules' last run and next run, and the failures waiting for the user.
 * The Central do escritório shows it beside each company's month, from any
 * spreadsheet, without opening the others (two seconds each): so it lives in
 * the user's properties, and is written at the moments the agenda is, from the
 * same read of the document's work (a schedule set, a run started or finished,
 * the hourly run after serving the document).
 *
 * It is kept in parts of at most PART_BYTES, like the agenda, and at most
 * MAX_PARTS of them. When they are full it refuses nothing the user asked: the
 * oldest-written documents lose their detail (report names, messages; the
 * counts and times stay), then, past that, the oldest documents go, and the
 * index says so (`trimmed`, `dropped`), so the Central never shows a document
 * as complete when it is not.
 */
import type { Agenda, AgendaEntry } from './agenda';
import { QUIET_NOTE } from './quiet-mark';
import { quietReportNext } from './quiet-check';
import type { Zone } from '../../api/calendar';
import { type KeyValueStore, parseJson } from '../ports';
import type { Report } from '../reports/reports';
import type { RunDeps } from '../runs/deps';
import { utf8Bytes } from '../trust/job-store';
import { reportNextAt } from './dispatch';
import { pausedCompanies, reportCompanies } from './paused';

const KEY = 'faturamento.trabalho';
/** In the first part: how many parts there are, and how many documents were left out for room. */
const PARTS = '#';
const DROPPED = '-';
/** A part's size: under Google's 9 KB a value, with room for the key. */
export const PART_BYTES = 8 * 1024;
/** Parts at most: 64 KB of the user's 500 KB, which the agenda, signatures and connections share. */
export const MAX_PARTS = 8;
/** Room in the first part for the count and the documents left out. */
const HEAD_BYTES = 64;
/** A failure's message is kept this long: the Central shows a line, the report's card the rest. */
export const MESSAGE_CHARS = 160;

/** A run as the Central shows it: when it ended, whether it went well, and why not. */
export interface RunSeen {
  at: number;
  ok: boolean;
  message?: string;
}

/** One company's work in one spreadsheet. */
export interface ConnectionWork {
  reports: string[];
  lastRun?: RunSeen;
  next?: number;
  /** Reports whose last run failed for this company: they wait for the user. */
  failures: number;
}

/** One spreadsheet's work, per connection id. */
export interface DocumentWork {
  name: string;
  /** When it was written: the oldest lose their detail first. */
  writtenAt: number;
  /** Its report names and messages were dropped for room. */
  trimmed: boolean;
  connections: Record<string, ConnectionWork>;
}

export interface WorkIndex {
  documents: Record<string, DocumentWork>;
  /** Documents left out for room, the oldest written. */
  dropped: number;
  /** The companies whose schedules the user paused (paused.ts). */
  paused: ReadonlySet<string>;
}

/** What the Central shows of one company's work. */
export interface CompanyWork {
  /** The spreadsheets where the company has reports, with their names. */
  links: Array<{ name: string; url: string; reports: string[] }>;
  lastRun?: RunSeen;
  next?: number;
  failures: number;
  paused: boolean;
  /** Some of the index was trimmed or left out for room: what is shown may be missing names, messages or spreadsheets. */
  incomplete: boolean;
}

/** As stored: `l` is [when, 1 ok / 0 not, message?]. */
interface StoredConnection {
  r?: string[];
  l?: [number, 0 | 1, string?];
  x?: number;
  f?: number;
}
interface StoredDocument {
  n: string;
  w: number;
  t?: 1;
  c: Record<string, StoredConnection>;
}
type Part = Record<string, StoredDocument | number>;

export function documentUrl(documentId: string): string {
  return `https://docs.google.com/spreadsheets/d/${documentId}/edit`;
}

/** A report's last finished run as one company saw it; undefined while none has finished. */
function runSeen(report: Report, connectionName: string | undefined): { seen: RunSeen; failed: boolean } | undefined {
  const run = report.lastRun;
  if (!run || run.result === 'em andamento') return undefined;
  const own = run.failedCompanies?.find((c) => c.name === connectionName);
  const failed = run.result === 'erro' || (run.result === 'parcial' && (own !== undefined || !report.companies));
  const message = failed ? (own?.message ?? run.message) : run.result === 'cancelado' ? (run.message ?? 'Cancelado') : undefined;
  const seen: RunSeen = { at: run.finishedAt ?? run.startedAt, ok: !failed && run.result !== 'cancelado' };
  if (message) seen.message = message.slice(0, MESSAGE_CHARS);
  return { seen, failed };
}

/**
 * The document's work from its stored reports (the user's own, as the agenda
 * reads them): null when none is of any company.
 */
export function documentWork(
  reports: readonly Report[],
  p: { name: string; now: number; zone: RunDeps['zone']; connections: ReadonlyArray<{ id: string; name: string }> },
): DocumentWork | null {
  const connections: Record<string, ConnectionWork> = {};
  const names = new Map(p.connections.map((c) => [c.id, c.name]));
  for (const report of reports) {
    for (const id of reportCompanies(report, p.connections)) {
      const work = (connections[id] ??= { reports: [], failures: 0 });
      work.reports.push(report.name);
      const run = runSeen(report, names.get(id));
      if (run && (!work.lastRun || run.seen.at > work.lastRun.at)) work.lastRun = run.seen;
      if (run?.failed) work.failures += 1;
      if (report.schedule) work.next = Math.min(work.next ?? Number.POSITIVE_INFINITY, reportNextAt(report, p.zone));
    }
  }
  return Object.keys(connections).length ? { name: p.name, writtenAt: p.now, trimmed: false, connections } : null;
}

function storedOf(d: DocumentWork): StoredDocument {
  const c: Record<string, StoredConnection> = {};
  for (const [id, w] of Object.entries(d.connections)) {
    const s: StoredConnection = {};
    if (!d.trimmed) s.r = w.reports;
    if (w.lastRun) s.l = w.lastRun.message && !d.trimmed ? [w.lastRun.at, w.lastRun.ok ? 1 : 0, w.lastRun.message] : [w.lastRun.at, w.lastRun.ok ? 1 : 0];
    if (w.next !== undefined) s.x = w.next;
    if (w.failures) s.f = w.failures;
    c[id] = s;
  }
  return { n: d.name, w: d.writtenAt, ...(d.trimmed ? { t: 1 as const } : {}), c };
}

function workOfStored(s: StoredDocument): DocumentWork {
  const connections: Record<string, ConnectionWork> = {};
  for (const [id, c] of Object.entries(s.c ?? {})) {
    const w: ConnectionWork = { reports: Array.isArray(c.r) ? c.r.map(String) : [], failures: Number(c.f) || 0 };
    if (Array.isArray(c.l)) w.lastRun = { at: Number(c.l[0]), ok: c.l[1] === 1, ...(typeof c.l[2] === 'string' ? { message: c.l[2] } : {}) };
    if (typeof c.x === 'number') w.next = c.x;
    connections[id] = w;
  }
  return { name: String(s.n ?? ''), writtenAt: Number(s.w) || 0, trimmed: s.t === 1, connections };
}

/** The same work, whenever each was written. */
const sameWork = (a: StoredDocument, b: StoredDocument): boolean => JSON.stringify({ ...a, w: 0 }) === JSON.stringify({ ...b, w: 0 });

const isDocument = (v: Part[string] | undefined): v is StoredDocument => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What a save kept of the document: all of it, or its counts and times only (the index was full). */
export type IndexSave = 'saved' | 'trimmed' | 'dropped' | 'removed';

export class WorkIndexStore {
  /** `guard` runs each change (read, then write) alone among the user's executions: their user lock. */
  constructor(
    private readonly user: KeyValueStore,
    private readonly guard: <T>(change: () => T) => T = (change) => change(),
  ) {}

  /** Where part `i` after the first is kept (the first is at KEY). */
  private key(i: number): string {
    return `${KEY}.${i}`;
  }

  /** The parts as stored, their texts kept to write only those that change. */
  private stored(): { texts: string[]; parts: Part[] } {
    const first = this.user.get(KEY);
    if (!first) return { texts: [], parts: [] };
    const head = parseJson<Part>(first, {});
    const texts = [first];
    const parts = [head];
    for (let i = 1; i < Number(head[PARTS]); i++) {
      const text = this.user.get(this.key(i)) ?? '';
      texts.push(text);
      parts.push(parseJson<Part>(text, {}));
    }
    return { texts, parts };
  }

  read(): Omit<WorkIndex, 'paused'> {
    const { parts } = this.stored();
    const documents: Record<string, DocumentWork> = {};
    for (const part of parts) for (const [id, v] of Object.entries(part)) if (isDocument(v)) documents[id] = workOfStored(v);
    return { documents, dropped: Number(parts[0]?.[DROPPED]) || 0 };
  }

  /**
   * Writes the document's work (null: it has none of the user's any more).
   * Never refuses for room: older documents lose their detail, then go.
   * Says what was kept of this one.
   */
  set(documentId: string, work: DocumentWork | null): IndexSave {
    return this.guard(() => {
      const { texts, parts } = this.stored();
      const docs = new Map<string, StoredDocument>();
      for (const part of parts) for (const [id, v] of Object.entries(part)) if (isDocument(v)) docs.set(id, v);
      const before = docs.get(documentId);
      const entry = work && storedOf(work);
      // Unchanged but for when it was written: it stays as it is, and keeps its place among the oldest written.
      if (before && entry && sameWork(before, entry)) return 'saved';
      docs.delete(documentId);
      if (entry) docs.set(documentId, entry);
      else if (!before) return 'removed';
      const dropped = Number(parts[0]?.[DROPPED]) || 0;
      const packed = fitted(docs, dropped);
      this.write(texts, packed);
      if (!work) return 'removed';
      const kept = packed.find((p) => isDocument(p[documentId]))?.[documentId] as StoredDocument | undefined;
      if (!kept) return 'dropped';
      return kept.t === 1 ? 'trimmed' : 'saved';
    });
  }

  /** The parts that changed, the first (which names how many there are) last; parts no longer needed go. */
  private write(before: string[], parts: Part[]): void {
    const texts = parts.map((p) => JSON.stringify(p));
    for (let i = 1; i < texts.length; i++) if (texts[i] !== before[i]) this.user.set(this.key(i), texts[i]);
    for (let i = texts.length; i < before.length; i++) this.user.delete(this.key(i));
    if (texts[0] !== before[0]) this.user.set(KEY, texts[0]);
  }
}

const pieceBytes = (id: string, d: StoredDocument): number => utf8Bytes(JSON.stringify(id)) + utf8Bytes(JSON.stringify(d)) + 2;

const trimmedOf = (d: StoredDocument): StoredDocument => storedOf({ ...workOfStored(d), trimmed: true });

/** Room for one document in a part, beside the first part's head. */
const PIECE_MAX = PART_BYTES - HEAD_BYTES;

/**
 * The documents in parts, newest first. When they do not fit, the oldest lose
 * their detail one by one up to the newest, then the oldest go (counted in the
 * first part). A document too large for a part even without its detail (over
 * a hundred companies in one spreadsheet) goes at once.
 */
function fitted(docs: Map<string, StoredDocument>, dropped: number): Part[] {
  let left = dropped;
  const order: Array<[string, StoredDocument]> = [];
  for (const [id, d] of [...docs.entries()].sort(([a, x], [b, y]) => y.w - x.w || a.localeCompare(b))) {
    const fits = pieceBytes(id, d) <= PIECE_MAX ? d : trimmedOf(d);
    if (pieceBytes(id, fits) <= PIECE_MAX) order.push([id, fits]);
    else left += 1;
  }
  const sizes = order.map(([id, d]) => pieceBytes(id, d));
  for (let next = order.length - 1; ; ) {
    const parts = packed(order, sizes, left);
    if (parts) return parts;
    while (next >= 0 && order[next][1].t === 1) next -= 1;
    if (next >= 0) {
      const [id, d] = order[next];
      order[next] = [id, trimmedOf(d)];
      sizes[next] = pieceBytes(id, order[next][1]);
    } else {
      order.pop();
      sizes.pop();
      left += 1;
    }
  }
}

/** The documents placed in order, a new part when one is full; null past MAX_PARTS. */
function packed(order: ReadonlyArray<[string, StoredDocument]>, sizes: readonly number[], dropped: number): Part[] | null {
  const parts: Part[] = [{}];
  let used = HEAD_BYTES;
  order.forEach(([id, d], i) => {
    if (used + sizes[i] > PART_BYTES) {
      parts.push({});
      used = 2;
    }
    parts[parts.length - 1][id] = d;
    used += sizes[i];
  });
  if (parts.length > MAX_PARTS) return null;
  if (parts.length > 1) parts[0][PARTS] = parts.length;
  if (dropped) parts[0][DROPPED] = dropped;
  return parts;
}

/** The user's work index, with their paused companies: one read of a few properties, from any spreadsheet. */
export function readWorkIndex(store: KeyValueStore): WorkIndex {
  return { ...new WorkIndexStore(store).read(), paused: pausedCompanies(store) };
}

/** The user's spreadsheets (by id, with their names) where a company has reports: where its reports are run from the Central. */
export function spreadsheetsOf(index: WorkIndex, connectionId: string): Array<{ id: string; name: string }> {
  return Object.entries(index.documents)
    .filter(([, doc]) => doc.connections[connectionId])
    .map(([id, doc]) => ({ id, name: doc.name }))
    .sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
}

/**
 * What the owner's agenda says of the company's reports in one spreadsheet since the index was written: the last
 * hour its quiet reports were found as they were without opening it (quiet-check.ts), and when they next come.
 */
function quietSince(entry: AgendaEntry | undefined, connectionId: string, zoneOf: (name: string) => Zone): { lastRun: RunSeen; next: number } | null {
  const quiet = entry?.quiet;
  const checkedAt = quiet?.checkedAt;
  const reports = quiet?.reports.filter((q) => q.connectionId === connectionId) ?? [];
  if (!quiet || checkedAt === undefined || reports.length === 0) return null;
  const zone = zoneOf(quiet.zone);
  return { lastRun: { at: checkedAt, ok: true, message: QUIET_NOTE }, next: Math.min(...reports.map((q) => quietReportNext(q, checkedAt, zone))) };
}

/**
 * One company's work across the user's spreadsheets, for its row of the Central; `agenda`, the owner's, adds the hours
 * settled since, unless a run of the company there failed (that stays what is shown), each in its zone (`zoneOf`).
 */
export function workOf(index: WorkIndex, connectionId: string, agenda: Agenda = {}, zoneOf?: (name: string) => Zone): CompanyWork {
  const out: CompanyWork = { links: [], failures: 0, paused: index.paused.has(connectionId), incomplete: index.dropped > 0 };
  const docs = Object.entries(index.documents).sort(([a, x], [b, y]) => x.name.localeCompare(y.name) || a.localeCompare(b));
  for (const [id, doc] of docs) {
    const w = doc.connections[connectionId];
    if (!w) continue;
    out.links.push({ name: doc.name, url: documentUrl(id), reports: w.reports });
    out.incomplete ||= doc.trimmed;
    out.failures += w.failures;
    const quiet = zoneOf && (!w.lastRun || w.lastRun.ok) ? quietSince(agenda[id], connectionId, zoneOf) : null;
    const lastRun = quiet && (!w.lastRun || quiet.lastRun.at > w.lastRun.at) ? quiet.lastRun : w.lastRun;
    if (lastRun && (!out.lastRun || lastRun.at > out.lastRun.at)) out.lastRun = lastRun;
    const next = quiet && lastRun === quiet.lastRun ? quiet.next : w.next;
    if (next !== undefined) out.next = Math.min(out.next ?? Number.POSITIVE_INFINITY, next);
  }
  return out;
}
