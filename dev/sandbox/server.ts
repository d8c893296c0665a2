/** The HTTP server: control endpoints, faults, authentication, routing, logging. */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { handleControl } from './control.js';
import { errorReply, type EnvelopeKind, type Reply, type Route } from './envelopes.js';
import { decideFaults } from './faults.js';
import { assinaturasListRoute } from './routes/assinaturas.js';
import { createPersonalizadoRoute, createPlanoRoute, updatePersonalizadoRoute, updatePlanoRoute } from './routes/assinaturasWrite.js';
import { clientesRoute } from './routes/clientes.js';
import { cobrancasRoute } from './routes/cobrancas.js';
import { emitirRoute } from './routes/emitir.js';
import { faturasRoute } from './routes/faturas.js';
import { nfseRoute } from './routes/nfse.js';
import { transacoesRoute } from './routes/transacoes.js';
import { SandboxState } from './state.js';
import type { SandboxOptions } from './types.js';

const ROUTES: readonly Route[] = [
  clientesRoute,
  faturasRoute,
  nfseRoute,
  cobrancasRoute,
  transacoesRoute,
  assinaturasListRoute,
  emitirRoute,
  createPlanoRoute,
  updatePlanoRoute,
  createPersonalizadoRoute,
  updatePersonalizadoRoute,
];

const MAX_BODY = 1_000_000;

export interface SandboxServer {
  server: http.Server;
  /** What it serves now: a restart replaces it. */
  readonly state: SandboxState;
  /** Serves from now on as if it had just started with `options` (same port). */
  restart(options: SandboxOptions): void;
  listen(port: number, host?: string): Promise<number>;
  close(): Promise<void>;
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) reject(new Error('body too large'));
      else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(res: http.ServerResponse, reply: Reply): void {
  if (res.destroyed) return;
  res.writeHead(reply.status, { 'content-type': 'application/json;charset=UTF-8', ...reply.headers });
  res.end(JSON.stringify(reply.body));
}

/** A TCP reset where the platform offers one, else a plain destroy. */
function resetSocket(socket: Socket): void {
  const s = socket as Socket & { resetAndDestroy?: () => void };
  if (typeof s.resetAndDestroy === 'function') s.resetAndDestroy();
  else s.destroy();
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

function findRoute(method: string, path: string): { route: Route; params: string[] } | { status: 404 | 405; kind: EnvelopeKind } {
  let pathMatched: Route | null = null;
  for (const route of ROUTES) {
    const m = route.pattern.exec(path);
    if (!m) continue;
    if (route.method === method) return { route, params: m.slice(1) };
    pathMatched ??= route;
  }
  return pathMatched ? { status: 405, kind: pathMatched.envelope } : { status: 404, kind: 'list' };
}

export function createSandboxServer(options: SandboxOptions = {}): SandboxServer {
  let current = new SandboxState(options);
  const hung = new Set<http.ServerResponse>();

  /** A request is served by the state it arrived in, even if a restart replaces it while it waits. */
  async function handleApi(state: SandboxState, req: http.IncomingMessage, res: http.ServerResponse, url: URL): Promise<void> {
    const method = (req.method ?? 'GET').toUpperCase();
    const log = state.log;
    const entry = log.begin(method, url.pathname, url.searchParams);
    state.lateCommits.onRequest(entry.seq);
    let ended = false;
    res.on('close', () => {
      if (ended) return;
      ended = true;
      hung.delete(res);
      log.end(entry);
      if (entry.outcome === 'pending') entry.outcome = 'response';
    });
    const text = await readBody(req).catch(() => '');
    if (text !== '') {
      try {
        entry.body = JSON.parse(text);
      } catch {
        entry.body = text;
      }
    }
    const found = findRoute(method, url.pathname);
    const kind: EnvelopeKind = 'route' in found ? found.route.envelope : found.kind;
    const sentKey = req.headers['x-api-key'];
    // A fault may be for one organization (a company whose service is down while the others answer).
    const decision = decideFaults(
      state.config,
      state.faultRng,
      method,
      url.pathname,
      state.orgByKey(Array.isArray(sentKey) ? sentKey[0] : sentKey)?.name ?? null,
    );
    entry.faults = decision.kinds;
    if (decision.latencyMs > 0) await sleep(decision.latencyMs);

    const finish = (reply: Reply) => {
      entry.status = reply.status;
      send(res, reply);
    };
    const t = decision.terminal;
    if (t?.kind === 'status') {
      const headers = t.retryAfterSeconds !== undefined ? { 'retry-after': String(t.retryAfterSeconds) } : undefined;
      return finish(errorReply(kind, t.status, [], headers));
    }
    if (t?.kind === 'echoKey') {
      const sent = req.headers['x-api-key'];
      return finish(errorReply(kind, t.status, [`Chave recusada pelo gateway: x-api-key=${Array.isArray(sent) ? sent[0] : (sent ?? '')}`]));
    }
    if (t?.kind === 'hang') {
      entry.outcome = 'hang';
      hung.add(res);
      return;
    }
    if (t?.kind === 'reset') {
      entry.outcome = 'reset';
      return resetSocket(req.socket);
    }

    const key = req.headers['x-api-key'];
    const def = state.orgByKey(Array.isArray(key) ? key[0] : key);
    entry.org = def?.name ?? null;
    if (!('route' in found)) return finish(errorReply(kind, found.status, [`${method} ${url.pathname}`]));
    if (!def) return finish(errorReply(kind, 401, ['Chave de API (x-api-key) ausente ou inválida']));
    // An office company whose key was revoked: known, logged under its name, refused like a wrong key.
    if (def.revoked) return finish(errorReply(kind, 401, ['Chave de API (x-api-key) revogada']));
    const route = found.route;
    let body: unknown;
    if (route.hasBody) {
      const ct = String(req.headers['content-type'] ?? '');
      if (!/^application\/json\b/i.test(ct)) return finish(errorReply(kind, 415, [`Content-Type '${ct}' não suportado; use application/json`]));
      try {
        body = JSON.parse(text);
      } catch {
        return finish(errorReply(kind, 400, ['body: JSON inválido ou ausente']));
      }
    }
    const run = (): Reply => {
      try {
        return route.handle({
          org: state.orgData(def),
          query: url.searchParams,
          body,
          params: found.params,
          config: state.config,
          ignorePage: decision.ignorePage,
        });
      } catch (e) {
        console.error('[sandbox] handler error', e);
        return errorReply(kind, 500, []);
      }
    };
    if (t?.kind === 'lateCommit') {
      state.lateCommits.add(entry, t.afterRequests, t.afterMs, () => run().status);
      if (t.failWith === 'hang') {
        entry.outcome = 'late-commit-hang';
        hung.add(res);
        return;
      }
      if (t.failWith === 'reset') {
        entry.outcome = 'late-commit-reset';
        return resetSocket(req.socket);
      }
      const status = t.failWith === 'status503' ? 503 : 500;
      entry.outcome = status === 503 ? 'late-commit-503' : 'late-commit-500';
      return finish(errorReply(kind, status, []));
    }
    const reply = run();
    if (t?.kind === 'commitThenFail') {
      if (t.failWith === 'reset') {
        entry.outcome = 'commit-then-reset';
        return resetSocket(req.socket);
      }
      entry.outcome = 'commit-then-500';
      return finish(errorReply(kind, 500, []));
    }
    finish(reply);
  }

  async function handleControlRequest(req: http.IncomingMessage, res: http.ServerResponse, url: URL): Promise<void> {
    const text = await readBody(req);
    let body: unknown;
    if (text !== '') {
      try {
        body = JSON.parse(text);
      } catch {
        return send(res, { status: 400, body: { errors: ['invalid JSON'] } });
      }
    }
    const reply = handleControl(self, (req.method ?? 'GET').toUpperCase(), url, body);
    // A reset or a restart also releases requests held by the hang fault.
    if (/^\/__sandbox\/(reset|restart)/.test(url.pathname)) for (const h of hung) h.destroy();
    send(res, reply);
  }

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://sandbox');
    const work = url.pathname.startsWith('/__sandbox/') ? handleControlRequest(req, res, url) : handleApi(current, req, res, url);
    work.catch((e) => {
      console.error('[sandbox] request failed', e);
      if (!res.headersSent) send(res, { status: 500, body: { errors: [String(e)] } });
    });
  });
  // Hung requests must not keep a test's client waiting on headers forever from the server side.
  server.requestTimeout = 0;
  server.headersTimeout = 60_000;

  const self: SandboxServer = {
    server,
    get state() {
      return current;
    },
    restart(options) {
      const next = new SandboxState(options);
      current.lateCommits.clear();
      current = next;
    },
    listen(port, host = '127.0.0.1') {
      return new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => resolve((server.address() as AddressInfo).port));
      });
    },
    close() {
      return new Promise((resolve) => {
        for (const h of hung) h.destroy();
        current.lateCommits.clear();
        server.closeAllConnections();
        server.close(() => resolve());
      });
    },
  };
  return self;
}
