/**
 * The interface tables are built on first use: listing their keys builds
 * nothing, the first entry read builds the whole table once, and a table whose
 * keys drift from its declared order is refused when built.
 */
import { describe, expect, it } from 'vitest';
import { lazyTable } from '../../src/api/lazy-table';

describe('lazyTable', () => {
  it('lists its keys without building, then builds once on first use, in the declared order', () => {
    let builds = 0;
    const table = lazyTable(['b', 'a'] as const, () => {
      builds++;
      return { b: { n: 2 }, a: { n: 1 } };
    });
    expect(Object.keys(table)).toEqual(['b', 'a']);
    expect(builds).toBe(0);
    expect(table.a).toEqual({ n: 1 });
    expect(table.b).toEqual({ n: 2 });
    expect(Object.values(table)).toEqual([{ n: 2 }, { n: 1 }]);
    expect(table.a).toBe(table.a);
    expect(builds).toBe(1);
  });

  it('refuses a table whose keys are not the declared ones, in order', () => {
    const reordered = lazyTable(['a', 'b'] as const, () => ({ b: 2, a: 1 }));
    expect(() => reordered.a).toThrow('lazyTable: keys b,a differ from a,b');
    const missing = lazyTable(['a', 'b'] as const, () => ({ a: 1 }) as { a: number; b: number });
    expect(() => missing.b).toThrow('lazyTable: keys a differ from a,b');
    // A table refused once is not kept: every use says so.
    expect(() => missing.a).toThrow(/differ/);
  });
});
