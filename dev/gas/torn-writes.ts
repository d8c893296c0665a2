/**
 * What a kill leaves of an execution's unflushed sheet writes. Sheets keeps
 * them in a write cache and empties it into the document whenever the script
 * reads ("Every time you do a read, we must first empty (commit) the write
 * cache", googleappsscript.blogspot.com/2010/06/optimizing-spreadsheet-operations.html)
 * or Google batches them; only `SpreadsheetApp.flush()` promises they are
 * applied. So a script killed between two flushes leaves some prefix of its
 * writes since the last flush in the document, in the order it made them, and
 * it cannot know how long: none, some, or all. Property writes land at once,
 * on their own, whatever happens to the sheet writes around them.
 *
 * A write is a call on a Sheets object that is not a read (`get…`, `is…`,
 * `has…`, `find…`, `can…`); it counts once it has returned. The prefix that
 * lands is chosen as the writes are made, so a copy of the document is kept
 * only at the write that may end the prefix: with `random`, the k-th write
 * replaces the kept copy with chance 1/(k+1) (reservoir sampling), which makes
 * every length from none to all equally likely at the cost of about ln(n)
 * copies for n writes.
 */

/** How much of an execution's unflushed sheet writes a kill lands: none, all, the first n, or a seeded draw. */
export type Landed = 'none' | 'all' | 'random' | number;

/** Objects whose calls reach the document itself: what can write it, and what a passing Sheets error can fail. */
export const DOCUMENT_OBJECTS: ReadonlySet<string> = new Set([
  'Spreadsheet',
  'Sheet',
  'Range',
  'RangeList',
  'Filter',
  'EmbeddedChart',
  'PivotTable',
  'PivotGroup',
  'PivotValue',
  'PivotFilter',
  'Protection',
  'DeveloperMetadata',
]);
const READ = /^(get|is|has|find|can)/;

/** Whether a call may change the document. */
export function isSheetWrite(object: string, method: string): boolean {
  return DOCUMENT_OBJECTS.has(object) && !READ.test(method);
}

/** What a kill lands: everything, nothing, or the documents as they were after the chosen write. */
export type KillLanding<T> = { kind: 'all' } | { kind: 'none' } | { kind: 'prefix'; state: T; writes: number };

/** An execution's writes since its last flush, and the copy of its documents a kill would land. */
export class WriteLog<T> {
  private writes = 0;
  private writing = false;
  private kept: { state: T; writes: number } | null = null;

  constructor(
    private readonly landed: Landed,
    private readonly random: () => number,
    /** The execution's documents as they are now. */
    private readonly snapshot: () => T,
  ) {}

  /** Before each service call: the previous one, if it wrote, has returned. */
  beforeCall(object: string, method: string): void {
    this.settle();
    this.writing = isSheetWrite(object, method);
  }

  private settle(): void {
    if (!this.writing) return;
    this.writing = false;
    this.writes += 1;
    const keep = this.landed === 'random' ? this.random() * (this.writes + 1) < 1 : this.landed === this.writes;
    if (keep) this.kept = { state: this.snapshot(), writes: this.writes };
  }

  /** Everything written so far is in the document. */
  flushed(): void {
    this.writes = 0;
    this.writing = false;
    this.kept = null;
  }

  /** The execution is killed: what of its writes since the last flush reaches the document. */
  atKill(): KillLanding<T> {
    this.settle();
    if (this.writes === 0 || this.landed === 'none' || this.landed === 0) return { kind: 'none' };
    if (this.landed === 'all' || (typeof this.landed === 'number' && this.landed >= this.writes)) return { kind: 'all' };
    if (this.kept === null) return { kind: 'none' };
    return this.kept.writes === this.writes ? { kind: 'all' } : { kind: 'prefix', ...this.kept };
  }
}
