/**
 * Server side of the google.script.run bridge: the sidebar's calls arrive as
 * JSON, values JSON cannot carry come as markers (a Date becomes a real Date
 * again so the emulator refuses it as Apps Script does), and the bundle runs
 * in the emulator with google.script.run's serialization rules.
 */
import type { GasEmulator } from '../gas/runner';
import { SPECIAL, type RpcReply } from './view';

export interface RpcRequest {
  functionName: string;
  args: unknown[];
}

class BridgeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ScriptError';
  }
}

/** Turns the bridge's markers back into what the page passed (only Dates survive as values). */
export function revive(value: unknown, path = 'argument'): unknown {
  if (Array.isArray(value)) return value.map((v, i) => revive(v, `${path}[${i}]`));
  if (value === null || typeof value !== 'object') return value;
  const obj = value as Record<string, unknown>;
  if (typeof obj[SPECIAL] === 'string') {
    if (obj[SPECIAL] === 'Date') return new Date(Number(obj.ms));
    throw new BridgeError(`Failed due to illegal value in property: ${path} (${String(obj[SPECIAL])})`);
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) out[k] = revive(v, path === 'argument' ? k : `${path}.${k}`);
  return out;
}

export function parseRpcRequest(body: unknown): RpcRequest {
  const b = body as Partial<RpcRequest> | null;
  if (!b || typeof b.functionName !== 'string' || !Array.isArray(b.args)) throw new BridgeError('bad google.script.run request');
  return { functionName: b.functionName, args: b.args };
}

/** Runs one google.script.run call; never throws. */
export function runScriptCall(emulator: GasEmulator, req: RpcRequest, version: () => number, user?: string): RpcReply {
  try {
    const args = req.args.map((a, i) => revive(a, `argument[${i}]`));
    if (!/^[A-Za-z_$][\w$]*$/.test(req.functionName) || req.functionName.endsWith('_')) {
      throw new BridgeError(`Script function not found: ${req.functionName}`);
    }
    const report = emulator.execute(req.functionName, args, { kind: 'ui', authMode: 'FULL', user });
    if (report.status === 'ok') return { ok: true, value: report.value, version: version() };
    return { ok: false, error: { name: report.error?.name ?? 'Error', message: report.error?.message ?? 'Erro desconhecido' }, version: version() };
  } catch (err) {
    const e = err as Error;
    return { ok: false, error: { name: e?.name ?? 'Error', message: e?.message ?? String(err) }, version: version() };
  }
}

/** Functions google.script.run exposes: the bundle's top-level functions, minus private ones ending in "_". */
export function callableFunctions(emulator: GasEmulator): string[] {
  const { added, types } = emulator.loadedGlobals();
  return added.filter((n) => types[n] === 'function' && !n.endsWith('_')).sort();
}

const escapeScript = (json: string) => json.replace(/</g, '\\u003c');

/**
 * The bundle's HTML with the bridge loaded first, before any of its own
 * scripts: the HTML itself stays as the bundle produced it.
 */
export function injectBridge(html: string, surfaceId: number, functions: string[]): string {
  const config = escapeScript(JSON.stringify({ surface: surfaceId, functions }));
  const tags = `<script>window.__playground = ${config};</script><script src="/bridge.js"></script>`;
  const head = /<head[^>]*>/i.exec(html);
  if (head) return html.slice(0, head.index + head[0].length) + tags + html.slice(head.index + head[0].length);
  const doctype = /<!doctype[^>]*>/i.exec(html);
  if (doctype) return html.slice(0, doctype.index + doctype[0].length) + tags + html.slice(doctype.index + doctype[0].length);
  return tags + html;
}
