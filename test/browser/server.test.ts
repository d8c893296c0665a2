/**
 * The playground's server without a browser: it falls back to a free port,
 * serves the bundle's sidebar HTML unchanged but for the bridge, and answers
 * every bad request or failing call without going down.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SPECIAL } from '../../dev/playground/view';
import { startPlayground, type Playground } from './helpers';

let blocker: Server;
let takenPort: number;
let pg: Playground;

beforeAll(async () => {
  blocker = createServer();
  takenPort = await new Promise<number>((res) => blocker.listen(0, '127.0.0.1', () => res((blocker.address() as { port: number }).port)));
  pg = await startPlayground({ port: takenPort });
});

afterAll(async () => {
  await pg?.stop();
  await new Promise<void>((res) => (blocker ? blocker.close(() => res()) : res()));
});

const post = async (path: string, body: string) => {
  const res = await fetch(new URL(path, pg.url), { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  return { status: res.status, body: (await res.json()) as { ok: boolean; error?: { message: string } } };
};

describe('the playground server', () => {
  it('uses a free port when the one asked for is taken', async () => {
    expect(pg.port).not.toBe(takenPort);
    const res = await fetch(pg.url);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('Sandbox local com dados de demonstração');
  });

  it("serves the bundle's sidebar HTML unchanged, with only the bridge added first", async () => {
    const reply = await post('/menu', JSON.stringify({ functionName: 'showConnections' }));
    expect(reply.body.ok).toBe(true);
    const id = pg.session.surfaces.sidebar()!.id;
    const served = await (await fetch(new URL(`/surface/${id}`, pg.url))).text();
    const bridge = /<script>window\.__playground = [^<]*<\/script><script src="\/bridge\.js"><\/script>/;
    expect(served).toMatch(bridge);
    expect(served.indexOf('/bridge.js')).toBeLessThan(served.indexOf('<script>\n'));
    expect(served.replace(bridge, '')).toBe(readFileSync(join(import.meta.dirname, '../../dist/Conexoes.html'), 'utf8'));
  });

  it('answers bad requests and failing calls and keeps serving', async () => {
    expect((await post('/rpc', '{not json')).status).toBe(400);
    expect((await post('/rpc', JSON.stringify({ functionName: 'naoExiste', args: [] }))).body).toMatchObject({
      ok: false,
      error: { message: 'Script function not found: naoExiste' },
    });
    const withDate = await post('/rpc', JSON.stringify({ functionName: 'saveConnection', args: [{ name: 'x', at: { [SPECIAL]: 'Date', ms: 0 } }] }));
    expect(withDate.body.ok).toBe(false);
    expect(withDate.body.error?.message).toMatch(/illegal value in property: .*Date/);
    expect((await post('/menu', JSON.stringify({ functionName: 'onOpen' }))).body.ok).toBe(false);
    expect((await post('/select', JSON.stringify({ sheet: 'Não existe', ranges: ['A1'] }))).body.ok).toBe(false);
    expect((await fetch(new URL('/surface/999', pg.url))).status).toBe(404);
    const state = await fetch(new URL('/state', pg.url));
    expect(state.status).toBe(200);
    expect(((await state.json()) as { tabs: unknown[] }).tabs.length).toBeGreaterThan(0);
  });
});
