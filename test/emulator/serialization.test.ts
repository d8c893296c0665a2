import { describe, expect, it } from 'vitest';
import { serializeForScriptRun } from '../../dev/gas/serialization';
import { fixture } from './helpers';

const CODE = `
function echo(x) { return x; }
function describeArg(x) { return { isArray: Array.isArray(x.list), proto: Object.getPrototypeOf(x) === Object.prototype, items: x.list }; }
function withDate() { return { when: new Date(), ok: true }; }
function withDateInArray() { return [1, [new Date()]]; }
function withJunk() { return { f: function () {}, u: undefined, list: [1, undefined, function () {}], n: null, nested: { s: 's' } }; }
`;

describe('google.script.run serialization', () => {
  it('refuses a Date in a return value, even nested', () => {
    const emu = fixture(CODE);
    expect(emu.execute('withDate').error?.message).toMatch(/illegal value in property: when.*Date/);
    expect(emu.execute('withDateInArray').error?.message).toMatch(/illegal value in property: \[1\]\[0\]/);
  });

  it('refuses a Date in an argument before the script runs', () => {
    const emu = fixture(CODE);
    expect(() => emu.run('echo', [{ at: new Date() }])).toThrow(/illegal value in property: \[0\]\.at/);
    expect(emu.history).toHaveLength(0);
  });

  it('drops functions and undefined properties; undefined in arrays becomes null', () => {
    const emu = fixture(CODE);
    expect(emu.run('withJunk')).toEqual({ list: [1, null, null], n: null, nested: { s: 's' } });
    expect(emu.run('echo', [[1, undefined, 'x']])).toEqual([1, null, 'x']);
  });

  it('hands arguments to the script as objects and arrays of its own realm', () => {
    const emu = fixture(CODE);
    expect(emu.run('describeArg', [{ list: [1, 2] }])).toEqual({ isArray: true, proto: true, items: [1, 2] });
  });

  it('returns plain host-realm values', () => {
    const emu = fixture(CODE);
    const value = emu.run('echo', [{ a: [1, { b: 'c' }] }]) as { a: unknown[] };
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(value.a).toBeInstanceOf(Array);
    expect(value).toStrictEqual({ a: [1, { b: 'c' }] });
  });

  it('refuses values that are not plain data', () => {
    expect(() => serializeForScriptRun(new Map(), 'argument')).toThrow(/illegal value.*Map/);
    expect(serializeForScriptRun(Number.NaN, 'argument')).toBeNull();
  });
});
