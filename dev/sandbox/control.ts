/**
 * /__sandbox/ endpoints, for tests and tools. Never logged, never faulted.
 *   GET    /__sandbox/orgs                     → { orgs }
 *   GET    /__sandbox/config                   → SandboxConfig
 *   POST   /__sandbox/config      ConfigPatch  → SandboxConfig | 400 { errors }
 *   GET    /__sandbox/log?method&pathPrefix&org&afterSeq → { entries }
 *   DELETE /__sandbox/log                      → { cleared }
 *   POST   /__sandbox/reset       ResetOptions → { orgs, seed, size }
 *   POST   /__sandbox/restart     SandboxOptions → { orgs, seed, size }  (as if just started with them)
 *   GET    /__sandbox/dump/{org name or key}/{resource} → { org, resource, count, data }
 *   POST   /__sandbox/touch       TouchRequest → TouchResult  (an office company's month changed)
 */
import type { Reply } from './envelopes.js';
import type { Cliente } from './records.js';
import { touchMonth } from './office.js';
import { publicOrg } from './orgs.js';
import { nowLocalDatetime } from './dates.js';
import type { SandboxState } from './state.js';
import type { ConfigPatch, DumpResource, RequestLogFilter, ResetOptions, SandboxOptions, TouchRequest, TouchResult } from './types.js';
import { isPlainObject } from './validation.js';

const DUMP_RESOURCES: readonly DumpResource[] = ['clientes', 'faturas', 'nfse', 'cobrancas', 'transacoes', 'assinaturas', 'planos', 'produtos'];

function ok(body: unknown): Reply {
  return { status: 200, body };
}
function fail(status: number, errors: string[]): Reply {
  return { status, body: { errors } };
}

/** The server as the control endpoints see it: what it serves now, and a way to start over. */
export interface Controlled {
  readonly state: SandboxState;
  restart(options: SandboxOptions): void;
}

export function handleControl(sandbox: Controlled, method: string, url: URL, body: unknown): Reply {
  const path = url.pathname.replace(/\/+$/, '');
  const { state } = sandbox;
  try {
    if (path === '/__sandbox/orgs' && method === 'GET') return ok({ orgs: state.defs.map(publicOrg) });
    if (path === '/__sandbox/config' && method === 'GET') return ok(state.config);
    if (path === '/__sandbox/config' && method === 'POST') {
      if (!isPlainObject(body)) return fail(400, ['body must be a JSON object']);
      const r = state.configure(body as ConfigPatch);
      return Array.isArray(r) ? fail(400, r) : ok(r);
    }
    if (path === '/__sandbox/log' && method === 'GET') {
      const p = url.searchParams;
      const filter: RequestLogFilter = {};
      if (p.has('method')) filter.method = p.get('method')!;
      if (p.has('pathPrefix')) filter.pathPrefix = p.get('pathPrefix')!;
      if (p.has('org')) filter.org = p.get('org')!;
      if (p.has('afterSeq')) filter.afterSeq = Number(p.get('afterSeq'));
      return ok({ entries: state.log.list(filter) });
    }
    if (path === '/__sandbox/log' && method === 'DELETE') return ok({ cleared: state.log.clear() });
    if (path === '/__sandbox/reset' && method === 'POST') {
      const opts = (isPlainObject(body) ? body : {}) as ResetOptions;
      state.reset(opts);
      return ok({ orgs: state.defs.map(publicOrg), seed: state.seed, size: state.size });
    }
    if (path === '/__sandbox/restart' && method === 'POST') {
      if (!isPlainObject(body)) return fail(400, ['body must be a JSON object']);
      sandbox.restart(body as SandboxOptions);
      return ok({ orgs: sandbox.state.defs.map(publicOrg), seed: sandbox.state.seed, size: sandbox.state.size });
    }
    if (path === '/__sandbox/touch' && method === 'POST') return touch(state, body);
    const dump = /^\/__sandbox\/dump\/([^/]+)\/([^/]+)$/.exec(path);
    if (dump && method === 'GET') {
      const def = state.orgByRef(decodeURIComponent(dump[1]));
      const resource = dump[2] as DumpResource;
      if (!def) return fail(404, [`unknown organization ${decodeURIComponent(dump[1])}`]);
      if (!DUMP_RESOURCES.includes(resource)) return fail(404, [`unknown resource ${resource}; one of ${DUMP_RESOURCES.join(', ')}`]);
      // Full records, nested arrays filled and hidden '_' columns included (e.g. _loteCheckout).
      const data = state.orgData(def)[resource] as unknown[];
      return ok({ org: def.name, resource, count: data.length, data });
    }
    return fail(404, [`no control endpoint ${method} ${path}`]);
  } catch (e) {
    return fail(400, [e instanceof Error ? e.message : String(e)]);
  }
}

const TOUCH_KINDS: readonly TouchRequest['kind'][] = ['addInvoice', 'alterInvoice', 'payCharge', 'cancelCharge', 'addNote', 'alterClient'];

/** Any organization's first customer edited as its people would (its website), so the customers' listing changes. */
function alterClient(clientes: Cliente[], org: string, at: string): TouchResult {
  const c = clientes[0];
  if (!c) throw new Error(`${org} has no customer`);
  c.website = `https://www.cliente-${c.idCliente}-${at.replace(/\D/g, '')}.com.br`;
  c.dataHoraAtualizacao = at;
  return { org, kind: 'alterClient', id: c.idCliente, at };
}

/** An office company's month changed as its people would change it, for tests of what changed since a refresh. */
function touch(state: SandboxState, body: unknown): Reply {
  const t = (isPlainObject(body) ? body : {}) as Partial<TouchRequest>;
  const def = typeof t.org === 'string' ? state.orgByRef(t.org) : undefined;
  if (t.kind === 'alterClient' && def) return ok(alterClient(state.orgData(def).clientes, def.name, t.at ?? nowLocalDatetime()));
  if (!def?.office) return fail(404, [`no office company ${String(t.org)}`]);
  if (!TOUCH_KINDS.includes(t.kind as TouchRequest['kind'])) return fail(400, [`kind must be one of ${TOUCH_KINDS.join(', ')}`]);
  if (t.at !== undefined && !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/.test(String(t.at))) return fail(400, ['at must be YYYY-MM-DDTHH:MM:SS']);
  return ok(touchMonth(state.orgData(def), t.kind as TouchRequest['kind'], t.at ?? nowLocalDatetime()));
}
