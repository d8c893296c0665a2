/**
 * Writes a service accepted and committed only after it had already failed the
 * request (a queue behind a gateway that timed out): each waits for a number of
 * later /v2 requests or a number of milliseconds, whichever comes first.
 */
import type { RequestLogEntry } from './types.js';

interface Pending {
  entry: RequestLogEntry;
  requestsLeft: number | null;
  timer: ReturnType<typeof setTimeout> | null;
  commit: () => number;
}

export class LateCommits {
  private pending: Pending[] = [];

  /** `commit` runs the operation and returns the status it would have answered. */
  add(entry: RequestLogEntry, afterRequests: number | undefined, afterMs: number | undefined, commit: () => number): void {
    const p: Pending = { entry, requestsLeft: afterRequests ?? (afterMs === undefined ? 3 : null), timer: null, commit };
    entry.lateCommit = { committed: false, atSeq: null, status: null };
    if (afterMs !== undefined) p.timer = setTimeout(() => this.run(p, null), afterMs);
    this.pending.push(p);
  }

  /** Called when a /v2 request arrives, before it is handled: a commit due now is visible to it. */
  onRequest(seq: number): void {
    for (const p of [...this.pending]) {
      if (p.requestsLeft === null) continue;
      p.requestsLeft -= 1;
      if (p.requestsLeft <= 0) this.run(p, seq);
    }
  }

  get size(): number {
    return this.pending.length;
  }

  clear(): void {
    for (const p of this.pending) if (p.timer) clearTimeout(p.timer);
    this.pending = [];
  }

  private run(p: Pending, seq: number | null): void {
    if (!this.pending.includes(p)) return;
    this.pending = this.pending.filter((x) => x !== p);
    if (p.timer) clearTimeout(p.timer);
    const status = p.commit();
    p.entry.lateCommit = { committed: true, atSeq: seq, status };
  }
}
