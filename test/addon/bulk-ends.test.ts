/**
 * The execution that ends a bulk run (its last step, or Cancelar) leaves the
 * owner's hourly trigger as their work now asks, from the work store as that
 * execution saved it: the store is read once and the writes flushed once.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type SandboxHandle, borrowSandbox } from '../../dev/sandbox/harness';
import { catalog } from '../core/bulk/fixtures';
import { connect, emulator, ok, subscriptionSheet } from './helpers';

let sb: SandboxHandle;

beforeAll(async () => {
  sb = await borrowSandbox({ seed: 43, size: 'small' });
});
afterAll(async () => {
  await sb?.stop();
});
beforeEach(async () => {
  await sb.reset();
});

describe('the execution that ends a bulk run', () => {
  it('removes the trigger the run needed, reading the work store once and flushing once', async () => {
    const cat = await catalog(sb);
    const emu = emulator();
    connect(emu, sb);
    const sheet = subscriptionSheet(emu, cat, 30, 'H');
    // A slow service and a short step: the run is left unfinished, and the hourly trigger would finish it.
    const started = ok(
      emu.run(
        'startBulkRun',
        [{ operation: 'criarAssinaturaPersonalizada', sheetName: sheet, connection: 'Demo', scope: 'all', batchSize: 5, stepSeconds: 5 }],
        { costs: { urlFetchCallMs: 3000 } },
      ),
    );
    expect(started.done).toBe(false);
    expect(emu.triggers.triggers).toHaveLength(1);

    const calls: string[] = [];
    const cancelled = ok(
      emu.run('cancelBulkRun', [started.jobId], {
        onServiceCall: ({ object, method, args }) => {
          // The work store is read whole as its two columns from the first row.
          if (object === 'Sheet' && method === 'getRange' && args.length === 4 && args[0] === 1 && args[1] === 1 && args[3] === 2) calls.push('store read');
          if (method === 'flush') calls.push('flush');
        },
      }),
    );
    expect(cancelled).toMatchObject({ status: 'cancelled', done: true });
    expect(emu.triggers.triggers).toHaveLength(0);
    expect(calls).toEqual(['store read', 'flush']);
  });
});
