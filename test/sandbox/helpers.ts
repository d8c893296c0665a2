/** Shared helpers for the sandbox tests: plain async fetch against a harness-started server. */
import type { SandboxHandle } from '../../dev/sandbox/harness.js';

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export async function api<T = any>(
  sb: SandboxHandle,
  path: string,
  opts: { key?: string | null; method?: string; body?: unknown; query?: Record<string, string | number | boolean>; contentType?: string } = {},
): Promise<ApiResponse<T>> {
  const url = new URL(sb.baseUrl + path);
  for (const [k, v] of Object.entries(opts.query ?? {})) url.searchParams.set(k, String(v));
  const headers: Record<string, string> = {};
  const key = opts.key === undefined ? sb.orgs[0].apiKey : opts.key;
  if (key !== null) headers['x-api-key'] = key;
  let body: string | undefined;
  if (opts.body !== undefined) {
    body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
    headers['content-type'] = opts.contentType ?? 'application/json';
  }
  const res = await fetch(url, { method: opts.method ?? (body === undefined ? 'GET' : 'POST'), headers, body });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

/** Pages through a list-envelope listing until an empty page; returns every record. */
export async function listAll<T = any>(sb: SandboxHandle, path: string, query: Record<string, string | number> = {}, key?: string, base = 1): Promise<T[]> {
  const out: T[] = [];
  for (let page = base; ; page++) {
    const r = await api(sb, path, { key, query: { ...query, page } });
    if (r.status !== 200) throw new Error(`${path} page ${page}: ${r.status} ${JSON.stringify(r.body)}`);
    if (r.body.data.length === 0) return out;
    out.push(...r.body.data);
    if (page > 10_000) throw new Error('runaway paging');
  }
}
