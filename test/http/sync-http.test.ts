import { fork, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syncFetch, syncFetchAll } from '../../dev/http/sync-http';
import { nodeTransport } from '../../dev/http/node-transport';

let child: ChildProcess;
let base: string;

beforeAll(async () => {
  child = fork(new URL('./echo-server.mjs', import.meta.url), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (m) => resolve((m as { port: number }).port));
    child.once('error', reject);
  });
  base = `http://127.0.0.1:${port}`;
});

afterAll(() => {
  child.kill();
});

async function unusedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

function json(outcome: ReturnType<typeof syncFetch>): { method: string; headers: Record<string, string>; body: string } {
  if (outcome.kind !== 'response') throw new Error(`expected a response, got ${outcome.message}`);
  return JSON.parse(outcome.body);
}

describe('syncFetch', () => {
  it('GET sends headers and returns lower-cased response headers', () => {
    const out = syncFetch({ method: 'GET', url: `${base}/echo?a=1`, headers: { 'X-Token': 'abc' } });
    expect(out.kind).toBe('response');
    if (out.kind !== 'response') return;
    expect(out.status).toBe(200);
    expect(out.headers['x-echo-server']).toBe('yes');
    expect(Object.keys(out.headers).every((k) => k === k.toLowerCase())).toBe(true);
    const echoed = json(out);
    expect(echoed.method).toBe('GET');
    expect(echoed.headers['x-token']).toBe('abc');
  });

  it.each(['POST', 'PUT'] as const)('%s sends the body', (method) => {
    const body = JSON.stringify({ cnpj: '01234567000189', valor: 'R$ 1.234,56' });
    const echoed = json(syncFetch({ method, url: `${base}/echo`, headers: { 'Content-Type': 'application/json' }, body }));
    expect(echoed.method).toBe(method);
    expect(echoed.body).toBe(body);
    expect(echoed.headers['content-type']).toBe('application/json');
  });

  it.each([201, 204, 400, 401, 404, 429, 500, 503])('passes status %i through', (code) => {
    const out = syncFetch({ method: 'GET', url: `${base}/status/${code}`, headers: {} });
    expect(out).toMatchObject({ kind: 'response', status: code });
  });

  it('turns a time-out into a network-error', () => {
    const started = Date.now();
    const out = syncFetch({ method: 'GET', url: `${base}/hang`, headers: {}, timeoutMs: 300 });
    expect(out).toMatchObject({ kind: 'network-error', timedOut: true });
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('turns a refused connection into a network-error', async () => {
    const port = await unusedPort();
    const out = syncFetch({ method: 'GET', url: `http://127.0.0.1:${port}/`, headers: {}, timeoutMs: 5000 });
    expect(out.kind).toBe('network-error');
    if (out.kind !== 'network-error') return;
    expect(out.message).toMatch(/ECONNREFUSED/);
    expect(out.timedOut).toBeUndefined();
  });
});

describe('syncFetchAll', () => {
  it('runs requests concurrently and keeps request order', () => {
    const n = 6;
    const reqs = Array.from({ length: n }, () => ({ method: 'GET' as const, url: `${base}/barrier?n=${n}`, headers: {}, timeoutMs: 10_000 }));
    const outs = syncFetchAll(reqs);
    expect(outs.map((o) => (o.kind === 'response' ? o.body : o.message))).toEqual(Array(n).fill(String(n)));
  });

  it('returns outcomes in request order with mixed results', () => {
    const outs = syncFetchAll([
      { method: 'GET', url: `${base}/status/404`, headers: {} },
      { method: 'GET', url: `${base}/hang`, headers: {}, timeoutMs: 200 },
      { method: 'POST', url: `${base}/echo`, headers: {}, body: 'x' },
    ]);
    expect(outs[0]).toMatchObject({ kind: 'response', status: 404 });
    expect(outs[1]).toMatchObject({ kind: 'network-error', timedOut: true });
    expect(outs[2]).toMatchObject({ kind: 'response', status: 200 });
    expect(syncFetchAll([])).toEqual([]);
  });

  it('nodeTransport forwards to the same implementation', () => {
    expect(nodeTransport.fetch({ method: 'GET', url: `${base}/status/418`, headers: {} })).toMatchObject({ status: 418 });
    expect(nodeTransport.fetchAll([{ method: 'GET', url: `${base}/status/202`, headers: {} }])[0]).toMatchObject({ status: 202 });
  });
});
