/**
 * The playground's HTTP server: the page and its assets, the emulator's state
 * as JSON, the bundle's sidebars with the bridge injected, and the actions a
 * user takes (menu clicks, google.script.run calls, selections, tabs, time).
 * Every handler answers; an error in the bundle or here never stops the server.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Assets } from './assets';
import type { Session } from './session';
import { windowOf } from './state';

const TYPES: Record<string, string> = {
  'page.html': 'text/html; charset=utf-8',
  'app.css': 'text/css; charset=utf-8',
  'app.js': 'text/javascript; charset=utf-8',
  'bridge.js': 'text/javascript; charset=utf-8',
};
const MAX_BODY = 5 * 1024 * 1024;

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function readBody(req: http.IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) reject(new HttpError(413, 'body too large'));
      else chunks.push(c);
    });
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      if (!text) return resolve({});
      try {
        resolve(JSON.parse(text));
      } catch {
        reject(new HttpError(400, 'body is not JSON'));
      }
    });
    req.on('error', reject);
  });
}

function send(res: http.ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
  res.end(body);
}

const json = (res: http.ServerResponse, value: unknown, status = 200) => send(res, status, 'application/json; charset=utf-8', JSON.stringify(value));

async function route(session: Session, assets: Assets, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://playground');
  const path = url.pathname;
  if (req.method === 'GET') {
    if (path === '/' || path === '/index.html') return send(res, 200, TYPES['page.html'], assets['page.html']);
    const file = path.slice(1) as keyof Assets;
    if (file in TYPES && file !== 'page.html') return send(res, 200, TYPES[file], assets[file]);
    if (path === '/state') return json(res, session.view(windowOf(url.searchParams)));
    if (path === '/version') return json(res, { version: session.currentVersion });
    // Asked only when the user opens "Chaves de demonstração": never part of the state the page polls.
    if (path === '/demo-keys') return json(res, { baseUrl: session.view().demo.baseUrl, orgs: session.demoKeys });
    const surface = /^\/surface\/(\d+)$/.exec(path);
    if (surface) {
      const html = session.surfaceHtml(Number(surface[1]));
      if (html === null) throw new HttpError(404, 'no such sidebar or dialog');
      return send(res, 200, TYPES['page.html'], html);
    }
    if (path === '/favicon.ico') return send(res, 204, 'text/plain', '');
    throw new HttpError(404, `not found: ${path}`);
  }
  if (req.method !== 'POST') throw new HttpError(405, 'method not allowed');
  const body = (await readBody(req)) as Record<string, unknown>;
  if (path === '/rpc') return json(res, session.scriptRun(body));
  if (path === '/menu') return json(res, session.menuClick(String(body.functionName ?? '')));
  if (path === '/select') return json(res, session.select(String(body.sheet ?? ''), (body.ranges as string[]) ?? []));
  if (path === '/activate') return json(res, session.activate(Number(body.sheetId)));
  if (path === '/user') return json(res, session.switchUser(String(body.user ?? '')));
  if (path === '/edit') return json(res, session.edit(body));
  if (path === '/structure') return json(res, session.structure(body));
  if (path === '/triggers/advance') return json(res, session.advance(Number(body.minutes ?? 60)));
  const close = /^\/surface\/(\d+)\/close$/.exec(path);
  if (close) return json(res, session.closeSurface(Number(close[1])));
  throw new HttpError(404, `not found: ${path}`);
}

export function createServer(session: Session, assets: Assets): http.Server {
  return http.createServer((req, res) => {
    route(session, assets, req, res).catch((err: unknown) => {
      const status = err instanceof HttpError ? err.status : 500;
      if (status === 500) console.error('playground:', err);
      if (!res.headersSent) json(res, { ok: false, error: { name: 'PlaygroundError', message: (err as Error)?.message ?? String(err) } }, status);
      else res.end();
    });
  });
}

/** Listens on 127.0.0.1:port, or on a free port when that one is taken (port 0 always picks a free one). */
export function listen(server: http.Server, port: number, host = '127.0.0.1'): Promise<number> {
  const attempt = (p: number) =>
    new Promise<number>((resolve, reject) => {
      const onError = (err: NodeJS.ErrnoException) => {
        server.off('listening', onListening);
        reject(err);
      };
      const onListening = () => {
        server.off('error', onError);
        resolve((server.address() as AddressInfo).port);
      };
      server.once('error', onError);
      server.once('listening', onListening);
      server.listen(p, host);
    });
  return attempt(port).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'EADDRINUSE' && err.code !== 'EACCES') throw err;
    return attempt(0);
  });
}
