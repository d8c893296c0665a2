import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CODE_PATH, GasEmulator } from '../../dev/gas/runner';

const entry = JSON.parse(readFileSync(join(DEFAULT_CODE_PATH, '../entrypoints.json'), 'utf8')) as { namespace: string; functions: string[] };

describe('the real bundle (dist/Code.js)', () => {
  const emu = new GasEmulator();
  const { added, types } = emu.loadedGlobals();

  it('defines exactly the entry points and the namespace as globals', () => {
    // zod parks singletons on globalThis; the build points it at a private object instead.
    expect([...added].sort()).toEqual([...entry.functions, entry.namespace].sort());
  });

  it('exposes every entry point as a callable top-level function and nothing else callable', () => {
    const callable = added.filter((name) => types[name] === 'function');
    expect(callable.sort()).toEqual([...entry.functions].sort());
    expect(types[entry.namespace]).toBe('object');
  });
});
