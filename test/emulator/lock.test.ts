import { describe, expect, it } from 'vitest';
import type { ServiceCall } from '../../dev/gas/execution';
import { fixture } from './helpers';

const CODE = `
function guarded(name) {
  var lock = LockService.getDocumentLock();
  if (!lock.tryLock(0)) return name + ':busy';
  try {
    var p = PropertiesService.getDocumentProperties();
    p.setProperty('holder', name);
    return name + ':ran';
  } finally { lock.releaseLock(); }
}
function waiting(ms) {
  var lock = LockService.getScriptLock();
  var before = Date.now();
  lock.waitLock(ms);
  var waited = Date.now() - before;
  var has = lock.hasLock();
  lock.releaseLock();
  return [waited, has, lock.hasLock()];
}
function forgetful() { LockService.getUserLock().waitLock(1000); return 'left it locked'; }
function userLockFree() { return LockService.getUserLock().tryLock(0); }
`;

describe('LockService contention', () => {
  it('a second execution overlapping the first cannot take the document lock', () => {
    const emu = fixture(CODE);
    let inner: unknown;
    const onServiceCall = (call: ServiceCall): void => {
      // While the first run holds the lock and writes, a second run starts.
      if (call.object === 'Properties' && call.method === 'setProperty' && inner === undefined) {
        inner = emu.run('guarded', ['second']);
      }
    };
    expect(emu.run('guarded', ['first'], { onServiceCall })).toBe('first:ran');
    expect(inner).toBe('second:busy');
    expect(emu.properties.documentStore(emu.spreadsheet.id).get('holder')).toBe('first');
    // Released at the end: a later run gets it.
    expect(emu.run('guarded', ['third'])).toBe('third:ran');
  });

  it('waitLock waits (virtually) for a simulated holder that lets go in time', () => {
    const emu = fixture(CODE, { costs: { otherCallMs: 0, startupMs: 0 } });
    emu.holdLock('script', new Date(emu.now + 5000));
    expect(emu.run('waiting', [10_000])).toEqual([5000, true, false]);
  });

  it('waitLock throws after its time-out when the holder keeps the lock', () => {
    const emu = fixture(CODE);
    emu.holdLock('script', new Date(emu.now + 60_000));
    const report = emu.execute('waiting', [10_000]);
    expect(report.status).toBe('error');
    expect(report.error?.message).toBe('Lock timeout: another process was holding the lock for too long.');
    expect(report.counters.virtualMs).toBeGreaterThanOrEqual(10_000);
  });

  it('locks are released when an execution ends', () => {
    const emu = fixture(CODE);
    emu.run('forgetful');
    expect(emu.run('userLockFree')).toBe(true);
  });
});
