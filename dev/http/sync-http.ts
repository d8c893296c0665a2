/**
 * Synchronous HTTP for Node: UrlFetchApp is synchronous, so the emulator and the
 * Node transport block on a synckit worker that runs `fetch`. Errors never
 * throw; they come back as `network-error` outcomes like the Transport wants.
 */
import { createSyncFn } from 'synckit';
import type { HttpOutcome, HttpRequest } from '../../src/api/transport';

export const DEFAULT_TIMEOUT_MS = 30_000;

type WorkerFn = (requests: HttpRequest[]) => Promise<HttpOutcome[]>;

let worker: ((requests: HttpRequest[]) => HttpOutcome[]) | undefined;

function runner(): (requests: HttpRequest[]) => HttpOutcome[] {
  // Lazy: starting the worker costs ~150 ms, and many processes never fetch.
  worker ??= createSyncFn<WorkerFn>(new URL('./sync-worker.mjs', import.meta.url));
  return worker;
}

function normalise(req: HttpRequest): HttpRequest {
  return { ...req, headers: { ...req.headers }, timeoutMs: req.timeoutMs ?? DEFAULT_TIMEOUT_MS };
}

function run(requests: HttpRequest[]): HttpOutcome[] {
  if (requests.length === 0) return [];
  try {
    return runner()(requests.map(normalise));
  } catch (err) {
    // Only a broken worker lands here; report it per request rather than throw.
    const message = `sync-http worker failed: ${err instanceof Error ? err.message : String(err)}`;
    return requests.map(() => ({ kind: 'network-error', message }));
  }
}

export function syncFetch(req: HttpRequest): HttpOutcome {
  return run([req])[0];
}

/** All requests are in flight at once; outcomes come back in request order. */
export function syncFetchAll(reqs: HttpRequest[]): HttpOutcome[] {
  return run(reqs);
}
