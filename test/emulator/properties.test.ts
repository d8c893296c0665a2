import { describe, expect, it } from 'vitest';
import { fixture } from './helpers';

const CODE = `
function set(store, key, value) { store === 'user' ? PropertiesService.getUserProperties().setProperty(key, value) : PropertiesService.getDocumentProperties().setProperty(key, value); }
function setMany(obj, replace) { PropertiesService.getScriptProperties().setProperties(obj, replace); }
function read() {
  var p = PropertiesService.getScriptProperties();
  return { all: p.getProperties(), keys: p.getKeys().sort(), one: p.getProperty('n'), missing: p.getProperty('nope') };
}
function del(key) { var p = PropertiesService.getScriptProperties(); key ? p.deleteProperty(key) : p.deleteAllProperties(); }
function mine() { return PropertiesService.getUserProperties().getProperty('apiKey'); }
`;

describe('PropertiesService', () => {
  it('stores strings only', () => {
    const emu = fixture(CODE);
    emu.run('setMany', [{ n: 42, b: true, o: { x: 1 } }]);
    expect(emu.run('read')).toEqual({ all: { n: '42', b: 'true', o: '[object Object]' }, keys: ['b', 'n', 'o'], one: '42', missing: null });
  });

  it('refuses a value over 9 KB', () => {
    const emu = fixture(CODE);
    expect(emu.execute('set', ['document', 'big', 'x'.repeat(9 * 1024)]).status).toBe('ok');
    expect(emu.execute('set', ['document', 'big', 'x'.repeat(9 * 1024 + 1)]).error?.message).toBe('Argument too large: value');
    // Multi-byte characters count as bytes.
    expect(emu.execute('set', ['document', 'acentos', 'ç'.repeat(5000)]).error?.message).toBe('Argument too large: value');
  });

  it('refuses to grow a store past 500 KB and leaves it unchanged', () => {
    const emu = fixture(CODE);
    // 500 KB = 512,000 bytes of keys and values: 56 entries of ~9,003 bytes fit, the 57th does not.
    for (let i = 0; i < 56; i++) expect(emu.execute('set', ['user', `k${i}`, 'x'.repeat(9000)]).status).toBe('ok');
    const over = emu.execute('set', ['user', 'k56', 'x'.repeat(9000)]);
    expect(over.error?.message).toBe('You have exceeded the property storage quota. Please remove some properties and try again.');
    expect(emu.properties.userStore('contador@example.com.br').has('k56')).toBe(false);
    expect(emu.properties.userStore('contador@example.com.br').size).toBe(56);
    // Replacing an existing value with one of the same size still fits.
    expect(emu.execute('set', ['user', 'k0', 'y'.repeat(9000)]).status).toBe('ok');
  });

  it('setProperties with deleteAllOthers replaces, deleteProperty/deleteAllProperties remove', () => {
    const emu = fixture(CODE);
    emu.run('setMany', [{ a: '1', b: '2' }]);
    emu.run('setMany', [{ c: '3' }, true]);
    expect((emu.run('read') as { keys: string[] }).keys).toEqual(['c']);
    emu.run('setMany', [{ d: '4' }]);
    emu.run('del', ['c']);
    expect((emu.run('read') as { keys: string[] }).keys).toEqual(['d']);
    emu.run('del', [null]);
    expect((emu.run('read') as { keys: string[] }).keys).toEqual([]);
  });

  it('user properties are private to each user; reads and writes are counted', () => {
    const emu = fixture(CODE);
    const report = emu.execute('set', ['user', 'apiKey', 'segredo']);
    expect(report.counters.propertyWrites).toBe(1);
    expect(emu.run('mine')).toBe('segredo');
    expect(emu.run('mine', [], { user: 'outro@example.com.br' })).toBeNull();
    expect(emu.history.at(-1)?.counters.propertyReads).toBe(1);
  });

  it('enforces the daily read/write quota', () => {
    const emu = fixture(CODE, { quotas: { propertyOpsPerDay: 3 } });
    emu.run('set', ['user', 'a', '1']);
    emu.run('set', ['user', 'a', '2']);
    emu.run('set', ['user', 'a', '3']);
    expect(emu.execute('set', ['user', 'a', '4']).error?.message).toBe('Service invoked too many times for one day: properties.');
  });
});
