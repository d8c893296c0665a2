import { describe, expect, it } from 'vitest';
import { GasEmulator } from '../../dev/gas/runner';

describe('script globals in the emulator', () => {
  it('loads fresh per execution: state set on globalThis by one run is gone in the next', () => {
    const probe = new GasEmulator({ code: 'var counter = 0; function bump() { counter += 1; return counter; }', countRealTime: false });
    expect(probe.run('bump')).toBe(1);
    expect(probe.run('bump')).toBe(1);
  });
});
