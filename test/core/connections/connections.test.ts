/**
 * Connections as the Conexões form sees them: which base URLs are accepted,
 * which hosts a build allows, and how the list, the default and the keys behave
 * in the user's properties (the key never leaves them but for the client).
 */
import { describe, expect, it } from 'vitest';
import { ConnectionError, ConnectionStore, hostProblem, normaliseBaseUrl } from '../../../src/core/connections/connections';
import { MemoryStore } from '../bulk/fixtures';

function refusal(fn: () => unknown): { field: string; message: string } {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ConnectionError);
    const e = err as ConnectionError;
    expect(e.name).toBe('ConnectionError');
    return { field: e.field, message: e.message };
  }
  throw new Error('expected a ConnectionError');
}

function store(allowed: readonly string[] | null = null) {
  const user = new MemoryStore();
  let n = 0;
  return { user, connections: new ConnectionStore(user, () => `c${++n}`, allowed) };
}

describe('normaliseBaseUrl', () => {
  it('keeps scheme, host, port and path, without surrounding blanks or trailing slashes', () => {
    expect(normaliseBaseUrl('  https://api.exemplo.com.br///  ')).toBe('https://api.exemplo.com.br');
    expect(normaliseBaseUrl('https://api.exemplo.com.br:8443/base/')).toBe('https://api.exemplo.com.br:8443/base');
    expect(normaliseBaseUrl('HTTPS://Api.Exemplo.com.br')).toBe('HTTPS://Api.Exemplo.com.br');
  });

  it('refuses what is not a whole base URL, saying what to type', () => {
    for (const raw of [
      'api.exemplo.com.br',
      'ftp://api.exemplo.com.br',
      'https://',
      'https://api.exemplo.com.br?x=1',
      'https://api.exemplo.com.br#a',
      'xhttps://a.com',
      'https://a.com/x y?',
    ])
      expect(refusal(() => normaliseBaseUrl(raw))).toEqual({
        field: 'baseUrl',
        message: 'Informe o endereço base completo, por exemplo https://api.exemplo.com.br',
      });
    expect(refusal(() => normaliseBaseUrl('https://a.com:port')).field).toBe('baseUrl');
  });

  it('allows plain http only for the local sandbox', () => {
    expect(normaliseBaseUrl('http://localhost:8080')).toBe('http://localhost:8080');
    expect(normaliseBaseUrl('HTTP://LOCALHOST')).toBe('HTTP://LOCALHOST');
    expect(normaliseBaseUrl('http://127.0.0.1:3000/api')).toBe('http://127.0.0.1:3000/api');
    expect(normaliseBaseUrl('http://127.10.20.30')).toBe('http://127.10.20.30');
    for (const raw of [
      'http://api.exemplo.com.br',
      'http://localhost.exemplo.com',
      'http://meu-localhost',
      'http://127.0.0.1.exemplo.com',
      'http://127.0.0',
      'http://x127.0.0.1',
    ])
      expect(refusal(() => normaliseBaseUrl(raw))).toEqual({ field: 'baseUrl', message: 'O endereço base precisa começar com https://' });
  });

  it('refuses a base URL that already ends in /v2, which every path adds', () => {
    for (const raw of ['https://api.exemplo.com.br/v2', 'https://api.exemplo.com.br/V2/', 'http://localhost:8080/api/v2'])
      expect(refusal(() => normaliseBaseUrl(raw))).toEqual({
        field: 'baseUrl',
        message: 'Informe o endereço sem o /v2 no final (o complemento acrescenta /v2 a cada operação)',
      });
    expect(normaliseBaseUrl('https://api.exemplo.com.br/v2x')).toBe('https://api.exemplo.com.br/v2x');
    expect(normaliseBaseUrl('https://api.exemplo.com.br/v2/base')).toBe('https://api.exemplo.com.br/v2/base');
  });
});

describe('hostProblem', () => {
  const allowed = ['https://API.exemplo.com.br/base', 'https://outro.com.br'];

  it('allows anything when the build lists no host', () => {
    expect(hostProblem('https://qualquer.com', null)).toBeNull();
  });

  it('allows a listed origin whatever its path or letter case', () => {
    expect(hostProblem('https://api.exemplo.com.br/outra', allowed)).toBeNull();
    expect(hostProblem(' https://OUTRO.com.br', allowed)).toBeNull();
  });

  it('allows the local sandbox even with a list', () => {
    for (const url of ['http://localhost:8080', 'http://127.0.0.1', 'https://127.1.2.3:9443/x', 'http://127.10.20.30:8080', 'http://[::1]:80'])
      expect(hostProblem(url, allowed)).toBeNull();
    expect(hostProblem('http://localhost.exemplo.com', allowed)).not.toBeNull();
    expect(hostProblem('http://localhost:80x', allowed)).not.toBeNull();
    expect(hostProblem('http://meulocalhost', allowed)).not.toBeNull();
  });

  it('names the allowed origins and who adds another for any other host, port or scheme', () => {
    const message =
      'Este complemento só pode acessar https://api.exemplo.com.br, https://outro.com.br. Outro endereço precisa ser incluído pelo administrador do complemento na publicação (arquivo addon.config.json, "apiBaseUrls").';
    for (const url of [
      'https://api.exemplo.com.br.evil.com',
      'https://api.exemplo.com.br:8443',
      'http://api.exemplo.com.br',
      'https://evil.com/https://outro.com.br',
    ])
      expect(hostProblem(url, allowed)).toBe(message);
    // Text that does not start with an address is no address, whatever it holds further on.
    expect(hostProblem(' evil https://outro.com.br', allowed)).toBe(message);
  });
});

describe('ConnectionStore', () => {
  it('asks for a first connection before anything can use one', () => {
    const { connections } = store();
    expect(connections.list()).toEqual([]);
    expect(refusal(() => connections.get())).toEqual({
      field: 'id',
      message: 'Nenhuma conexão configurada: abra Faturamento › Conexões e adicione uma.',
    });
    expect(connections.secrets()).toEqual([]);
  });

  it('makes the first connection the default and keeps its key out of the list', () => {
    const { connections } = store();
    const saved = connections.upsert({ name: '  Escritório  ', baseUrl: 'https://api.exemplo.com.br/', apiKey: '  chave-1 ' });
    expect(saved).toEqual({ id: 'c1', name: 'Escritório', baseUrl: 'https://api.exemplo.com.br', isDefault: true, hasKey: true });
    expect(connections.list()).toEqual([saved]);
    expect(JSON.stringify(connections.list())).not.toContain('chave-1');
    expect(connections.apiKey('c1')).toBe('chave-1');
    expect(connections.secrets()).toEqual(['chave-1']);
  });

  it('finds a connection by id or name, else the default, and says when one is gone', () => {
    const { connections } = store();
    connections.upsert({ name: 'A', baseUrl: 'https://a.com', apiKey: 'ka' });
    connections.upsert({ name: 'B', baseUrl: 'https://b.com', apiKey: 'kb', isDefault: true });
    expect(connections.get().name).toBe('B');
    expect(connections.get(null).name).toBe('B');
    expect(connections.get('A').id).toBe('c1');
    expect(connections.get('c1').name).toBe('A');
    expect(refusal(() => connections.get('C'))).toEqual({ field: 'id', message: 'A conexão "C" não existe mais: escolha outra em Faturamento › Conexões.' });
    expect(connections.byId('c2').name).toBe('B');
    const gone = {
      field: 'id',
      message: 'A conexão escolhida para isto não existe mais nas suas Conexões: clique em "Trocar conexão" no relatório e escolha outra.',
    };
    expect(refusal(() => connections.byId('A'))).toEqual(gone);
    expect(refusal(() => connections.byId(''))).toEqual(gone);
  });

  it('falls back to the first connection when none is marked default', () => {
    const { user, connections } = store();
    user.set(
      'faturamento.conexoes',
      JSON.stringify([
        { id: 'x', name: 'X', baseUrl: 'https://x.com', isDefault: false },
        { id: 'y', name: 'Y', baseUrl: 'https://y.com', isDefault: false },
      ]),
    );
    expect(connections.get().id).toBe('x');
    expect(refusal(() => connections.byId('z')).field).toBe('id');
  });

  it('keeps one default: a second saved as default takes it, and removing the default hands it to the first left', () => {
    const { connections } = store();
    connections.upsert({ name: 'A', baseUrl: 'https://a.com', apiKey: 'ka' });
    const b = connections.upsert({ name: 'B', baseUrl: 'https://b.com', apiKey: 'kb' });
    expect(b.isDefault).toBe(false);
    connections.upsert({ name: 'C', baseUrl: 'https://c.com', apiKey: 'kc', isDefault: true });
    expect(connections.list().map((c) => [c.name, c.isDefault])).toEqual([
      ['A', false],
      ['B', false],
      ['C', true],
    ]);
    connections.remove('c3');
    expect(connections.list().map((c) => [c.name, c.isDefault])).toEqual([
      ['A', true],
      ['B', false],
    ]);
    expect(connections.secrets()).toEqual(['ka', 'kb']);
    expect(refusal(() => connections.apiKey('c3'))).toEqual({
      field: 'apiKey',
      message: 'Esta conexão não tem chave de API salva: edite-a em Faturamento › Conexões.',
    });
    connections.remove('c1');
    connections.remove('c2');
    expect(connections.list()).toEqual([]);
  });

  it('editing keeps the saved key when the key is left blank and replaces it when one is typed', () => {
    const { connections } = store();
    connections.upsert({ name: 'A', baseUrl: 'https://a.com', apiKey: 'ka' });
    const edited = connections.upsert({ id: 'c1', name: 'A2', baseUrl: 'https://a2.com', apiKey: '  ' });
    expect(edited).toEqual({ id: 'c1', name: 'A2', baseUrl: 'https://a2.com', isDefault: true, hasKey: true });
    expect(connections.apiKey('c1')).toBe('ka');
    connections.upsert({ id: 'c1', name: 'A2', baseUrl: 'https://a2.com' });
    expect(connections.apiKey('c1')).toBe('ka');
    connections.upsert({ id: 'c1', name: 'a2', baseUrl: 'https://a2.com', apiKey: 'nova' });
    expect(connections.apiKey('c1')).toBe('nova');
    expect(connections.list()).toHaveLength(1);
    expect(connections.list()[0].name).toBe('a2');
  });

  it('a connection saved without a key says so in the list', () => {
    const { user, connections } = store();
    connections.upsert({ name: 'A', baseUrl: 'https://a.com', apiKey: 'ka' });
    user.delete('faturamento.conexao.c1.chave');
    expect(connections.list()[0].hasKey).toBe(false);
    expect(connections.secrets()).toEqual([]);
    expect(connections.upsert({ id: 'c1', name: 'A', baseUrl: 'https://a.com' }).hasKey).toBe(false);
  });

  it('refuses a bad name, key or id naming the field to fix', () => {
    const { connections } = store();
    connections.upsert({ name: 'Escritório', baseUrl: 'https://a.com', apiKey: 'ka' });
    expect(refusal(() => connections.upsert({ name: '   ', baseUrl: 'https://a.com', apiKey: 'k' }))).toEqual({
      field: 'name',
      message: 'Dê um nome à conexão (por exemplo, o nome da empresa).',
    });
    expect(refusal(() => connections.upsert({ name: 'x'.repeat(81), baseUrl: 'https://a.com', apiKey: 'k' }))).toEqual({
      field: 'name',
      message: 'Use um nome de até 80 caracteres.',
    });
    expect(connections.upsert({ name: 'x'.repeat(80), baseUrl: 'https://a.com', apiKey: 'k' }).name).toHaveLength(80);
    expect(refusal(() => connections.upsert({ name: 'ESCRITÓRIO', baseUrl: 'https://b.com', apiKey: 'k' }))).toEqual({
      field: 'name',
      message: 'Já existe uma conexão chamada "ESCRITÓRIO".',
    });
    expect(refusal(() => connections.upsert({ name: 'Novo', baseUrl: 'https://b.com' }))).toEqual({ field: 'apiKey', message: 'Informe a chave de API.' });
    expect(refusal(() => connections.upsert({ name: 'Novo', baseUrl: 'https://b.com', apiKey: ' ' }))).toEqual({
      field: 'apiKey',
      message: 'Informe a chave de API.',
    });
    expect(refusal(() => connections.upsert({ name: 'Novo', baseUrl: 'https://b.com', apiKey: 'abc def' }))).toEqual({
      field: 'apiKey',
      message: 'A chave de API não pode ter espaços.',
    });
    expect(refusal(() => connections.upsert({ id: 'c9', name: 'Novo', baseUrl: 'https://b.com', apiKey: 'k' }))).toEqual({
      field: 'id',
      message: 'Esta conexão não existe mais.',
    });
    expect(refusal(() => connections.upsert({ name: 'Novo', baseUrl: 'http://b.com', apiKey: 'k' })).field).toBe('baseUrl');
    expect(connections.list().map((c) => c.name)).toEqual(['Escritório', 'x'.repeat(80)]);
  });

  it('refuses a host the build does not allow, before saving anything', () => {
    const { user, connections } = store(['https://api.permitida.com.br']);
    expect(refusal(() => connections.upsert({ name: 'A', baseUrl: 'https://outra.com.br', apiKey: 'k' }))).toEqual({
      field: 'baseUrl',
      message: hostProblem('https://outra.com.br', ['https://api.permitida.com.br']),
    });
    expect(user.keys()).toEqual([]);
    expect(connections.upsert({ name: 'A', baseUrl: 'https://api.permitida.com.br/x', apiKey: 'k' }).baseUrl).toBe('https://api.permitida.com.br/x');
    expect(connections.upsert({ name: 'Sandbox', baseUrl: 'http://localhost:8080', apiKey: 'k' }).baseUrl).toBe('http://localhost:8080');
  });
});
