import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CODE_PATH, GasEmulator } from '../../dev/gas/runner';

const entry = JSON.parse(readFileSync(join(DEFAULT_CODE_PATH, '../entrypoints.json'), 'utf8')) as { namespace: string; functions: string[] };

/**
 * Runtime writes zod makes to globalThis when its module initialises. They are
 * objects, not functions, so google.script.run cannot call them; they are
 * listed by name so that any other leak fails this test.
 */
const KNOWN_RUNTIME_LEAKS = ['__zod_globalConfig', '__zod_globalRegistry'];

describe('the real bundle (dist/Code.js)', () => {
  const emu = new GasEmulator();
  const { added, types } = emu.loadedGlobals();

  it('defines exactly the entry points and the namespace as globals', () => {
    const leaks = added.filter((n) => !KNOWN_RUNTIME_LEAKS.includes(n));
    expect([...leaks].sort()).toEqual([...entry.functions, entry.namespace].sort());
  });

  it('exposes every entry point as a callable top-level function and nothing else callable', () => {
    const callable = added.filter((name) => types[name] === 'function');
    expect(callable.sort()).toEqual([...entry.functions].sort());
    expect(types[entry.namespace]).toBe('object');
  });

  it('loads fresh per execution: state set on globalThis by one run is gone in the next', () => {
    const probe = new GasEmulator({ code: 'var counter = 0; function bump() { counter += 1; return counter; }', countRealTime: false });
    expect(probe.run('bump')).toBe(1);
    expect(probe.run('bump')).toBe(1);
  });
});
