/** The request log of /v2 traffic, with in-flight counting. */
import type { RequestLogEntry, RequestLogFilter } from './types.js';

export class RequestLog {
  private entries: RequestLogEntry[] = [];
  private seq = 0;
  inFlight = 0;

  begin(method: string, path: string, query: URLSearchParams): RequestLogEntry {
    this.inFlight += 1;
    const q: Record<string, string | string[]> = {};
    for (const key of new Set(query.keys())) {
      const all = query.getAll(key);
      q[key] = all.length === 1 ? all[0] : all;
    }
    const entry: RequestLogEntry = {
      seq: ++this.seq,
      method,
      path,
      query: q,
      body: null,
      org: null,
      status: null,
      outcome: 'pending',
      arrivedAt: Date.now(),
      arrivedAtMono: performance.now(),
      finishedAtMono: null,
      inFlight: this.inFlight,
      faults: [],
    };
    this.entries.push(entry);
    return entry;
  }

  /** Called once per request when its connection or response closes. */
  end(entry: RequestLogEntry): void {
    this.inFlight -= 1;
    entry.finishedAtMono = performance.now();
  }

  list(filter: RequestLogFilter = {}): RequestLogEntry[] {
    return this.entries.filter(
      (e) =>
        (filter.method === undefined || e.method === filter.method.toUpperCase()) &&
        (filter.pathPrefix === undefined || e.path.startsWith(filter.pathPrefix)) &&
        (filter.org === undefined || e.org === filter.org) &&
        (filter.afterSeq === undefined || e.seq > filter.afterSeq),
    );
  }

  clear(): number {
    const n = this.entries.length;
    this.entries = [];
    return n;
  }

  /** A reset also restarts the numbering. */
  reset(): void {
    this.entries = [];
    this.seq = 0;
  }
}
