/** Connections through the real bundle: saving, the key's privacy, and "Testar conexão" against the sandbox. */
import net from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type SandboxHandle, borrowSandbox } from '../../dev/sandbox/harness';
import { emulator } from './helpers';

type Rec = Record<string, any>;
let sb: SandboxHandle;

beforeAll(async () => {
  sb = await borrowSandbox({ seed: 2, size: 'small' });
});
afterAll(async () => {
  await sb?.stop();
});
beforeEach(async () => {
  await sb.reset();
});

/** A local port nobody listens on. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

describe('connections', () => {
  it('saves a connection with its key only in the user properties, and never returns the key', () => {
    const emu = emulator();
    const key = sb.orgs[0].apiKey;
    const saved = emu.run('saveConnection', [{ name: 'Padaria', baseUrl: `${sb.baseUrl}/`, apiKey: key }]) as Rec;
    expect(saved).toMatchObject({ ok: true, connection: { name: 'Padaria', baseUrl: sb.baseUrl, isDefault: true, hasKey: true } });
    expect(JSON.stringify(saved)).not.toContain(key);
    expect(JSON.stringify(emu.run('listConnections'))).not.toContain(key);
    const user = emu.withServices((s) => s.PropertiesService.getUserProperties().getProperties());
    const doc = emu.withServices((s) => s.PropertiesService.getDocumentProperties().getProperties());
    expect(Object.values(user)).toContain(key);
    expect(JSON.stringify(doc)).not.toContain(key);
    expect(JSON.stringify(emu.logs)).not.toContain(key);
  });

  it('editing without a new key keeps the saved one; a second connection can become the default', () => {
    const emu = emulator();
    const first = (emu.run('saveConnection', [{ name: 'A', baseUrl: sb.baseUrl, apiKey: sb.orgs[0].apiKey }]) as Rec).connection;
    emu.run('saveConnection', [{ id: first.id, name: 'A renomeada', baseUrl: sb.baseUrl, apiKey: '' }]);
    emu.run('saveConnection', [{ name: 'B', baseUrl: sb.baseUrl, apiKey: sb.orgs[1].apiKey, isDefault: true }]);
    const list = emu.run('listConnections') as Rec[];
    expect(list.map((c) => [c.name, c.isDefault, c.hasKey])).toEqual([
      ['A renomeada', false, true],
      ['B', true, true],
    ]);
    expect((emu.run('testConnection', [{ id: first.id }]) as Rec).ok).toBe(true);
  });

  it.each([
    [{ name: '', baseUrl: 'https://api.exemplo.com.br', apiKey: 'k' }, 'name', /nome/],
    [{ name: 'X', baseUrl: 'api.exemplo.com.br', apiKey: 'k' }, 'baseUrl', /endereço base completo/],
    [{ name: 'X', baseUrl: 'http://api.exemplo.com.br', apiKey: 'k' }, 'baseUrl', /https/],
    [{ name: 'X', baseUrl: 'https://api.exemplo.com.br/v2', apiKey: 'k' }, 'baseUrl', /\/v2/],
    [{ name: 'X', baseUrl: 'https://api.exemplo.com.br', apiKey: '' }, 'apiKey', /chave/],
  ])('refuses %j naming the field', (input, field, message) => {
    const emu = emulator();
    const r = emu.run('saveConnection', [input]) as Rec;
    expect(r).toMatchObject({ ok: false, field });
    expect(r.message).toMatch(message);
  });

  it('Testar conexão reports the customer count with a good key', async () => {
    const emu = emulator();
    const r = emu.run('testConnection', [{ baseUrl: sb.baseUrl, apiKey: sb.orgs[0].apiKey }]) as Rec;
    const customers = await sb.dump(sb.orgs[0].name, 'clientes');
    expect(r).toMatchObject({ ok: true, code: 'ok', customers: customers.length });
    expect(r.message).toContain(`${customers.length} clientes`);
  });

  it('tells a wrong key (401) apart, without echoing it', () => {
    const emu = emulator();
    const r = emu.run('testConnection', [{ baseUrl: sb.baseUrl, apiKey: 'chave-que-nao-existe' }]) as Rec;
    expect(r).toMatchObject({ ok: false, code: 'unauthorized' });
    expect(r.message).toMatch(/401/);
    expect(r.message).not.toContain('chave-que-nao-existe');
  });

  it('tells an unreachable host apart', async () => {
    const emu = emulator();
    const r = emu.run('testConnection', [{ baseUrl: `http://127.0.0.1:${await closedPort()}`, apiKey: 'x' }]) as Rec;
    expect(r).toMatchObject({ ok: false, code: 'unreachable' });
  });

  it('tells a wrong base URL apart (404 or not the interface JSON)', () => {
    const emu = emulator();
    const r = emu.run('testConnection', [{ baseUrl: `${sb.baseUrl}/api`, apiKey: sb.orgs[0].apiKey }]) as Rec;
    expect(r).toMatchObject({ ok: false, code: 'wrong-url' });
  });

  it('tells a service that does not answer in time apart', async () => {
    await sb.configure({ addFaults: [{ kind: 'hang', pathPrefix: '/v2/clientes' }] });
    const emu = emulator({ urlFetchTimeoutMs: 300 });
    const r = emu.run('testConnection', [{ baseUrl: sb.baseUrl, apiKey: sb.orgs[0].apiKey }]) as Rec;
    expect(r).toMatchObject({ ok: false, code: 'timeout' });
  });

  it('offers the addresses the build allows and refuses any other at save and at test, saying who adds one', () => {
    const emu = emulator();
    const { baseUrls } = emu.run('getConnectionOptions') as { baseUrls: string[] };
    expect(baseUrls).toEqual(['https://api.faturamento.example.com.br']);
    const other = emu.run('saveConnection', [{ name: 'Outra', baseUrl: 'https://api.outra.com.br', apiKey: 'k' }]) as Rec;
    expect(other).toMatchObject({ ok: false, field: 'baseUrl' });
    expect(other.message).toMatch(/só pode acessar https:\/\/api\.faturamento\.example\.com\.br.*administrador.*addon\.config\.json/);
    expect((emu.run('testConnection', [{ baseUrl: 'https://api.outra.com.br', apiKey: 'k' }]) as Rec).message).toMatch(/addon\.config\.json/);
    expect(emu.run('saveConnection', [{ name: 'Permitida', baseUrl: 'https://api.faturamento.example.com.br/', apiKey: 'k' }])).toMatchObject({ ok: true });
    expect(emu.run('listConnections')).toHaveLength(1);
  });

  it('warns about a slow service that still answers', () => {
    const emu = emulator();
    const r = emu.run('testConnection', [{ baseUrl: sb.baseUrl, apiKey: sb.orgs[0].apiKey }], { costs: { urlFetchCallMs: 6000 } }) as Rec;
    expect(r).toMatchObject({ ok: true, code: 'slow' });
    expect(r.message).toMatch(/demorou/);
  });
});
