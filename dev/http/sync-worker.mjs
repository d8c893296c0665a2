// Runs inside synckit's worker thread. Plain JS because Node 20 cannot start a
// TypeScript worker. The main thread is blocked on Atomics.wait while this runs,
// so every request carries its own deadline: nothing else can interrupt it.
import { runAsWorker } from 'synckit';

const DEFAULT_TIMEOUT_MS = 30_000;

function describe(err) {
  // undici hides the useful part (ECONNREFUSED, ENOTFOUND, ...) in `cause`.
  const cause = err?.cause;
  const parts = [err?.message ? err.message : String(err)];
  if (cause) parts.push(cause.code ? `${cause.code}: ${cause.message}` : String(cause.message || cause));
  return parts.join(' - ');
}

async function one(req) {
  const timeoutMs = req.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  try {
    const hasBody = req.body !== undefined && req.method !== 'GET';
    // The deadline covers the body too: a server that sends headers and then stalls must not hang us.
    const res = await fetch(req.url, {
      method: req.method,
      headers: req.headers,
      body: hasBody ? req.body : undefined,
      signal: controller.signal,
      redirect: 'follow',
    });
    const body = await res.text();
    const headers = {};
    // Headers iterates with lower-cased names and joins repeated ones, which is what we want.
    for (const [name, value] of res.headers) headers[name.toLowerCase()] = value;
    return { kind: 'response', status: res.status, headers, body };
  } catch (err) {
    if (timedOut) return { kind: 'network-error', message: `Timeout after ${timeoutMs} ms: ${req.url}`, timedOut: true };
    return { kind: 'network-error', message: `${describe(err)} (${req.url})` };
  } finally {
    clearTimeout(timer);
  }
}

runAsWorker(async (requests) => Promise.all(requests.map(one)));
