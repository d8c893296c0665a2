/**
 * The work store in the hidden sheet as a bulk run saves its job after each
 * batch: a job split into parts appends new parts and blanks the old ones,
 * and the rows of the keys the store appended are found again in one reading
 * of the sheet's keys, not one reading per key written again.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type SandboxHandle, borrowSandbox } from '../../dev/sandbox/harness';
import { catalog } from '../core/bulk/fixtures';
import { connect, emulator, ok, subscriptionSheet } from './helpers';
import { stored } from './hidden-sheet';

let sb: SandboxHandle;

beforeAll(async () => {
  sb = await borrowSandbox({ seed: 47, size: 'small' });
});
afterAll(async () => {
  await sb?.stop();
});
beforeEach(async () => {
  await sb.reset();
});

describe('the work store under a bulk run of many batches', () => {
  it('finds the rows of every key it appended in one reading of the keys', async () => {
    const cat = await catalog(sb);
    const emu = emulator();
    connect(emu, sb);
    const sheet = subscriptionSheet(emu, cat, 400, 'W');
    let keyReads = 0;
    const done = ok(
      emu.run(
        'startBulkRun',
        [{ operation: 'criarAssinaturaPersonalizada', sheetName: sheet, connection: 'Demo', scope: 'all', batchSize: 5, stepSeconds: 270 }],
        {
          onServiceCall: ({ object, method, args }) => {
            // The hidden sheet's keys, its first column from the first row.
            if (object === 'Sheet' && method === 'getRange' && args.length === 4 && args[0] === 1 && args[1] === 1 && args[3] === 1) keyReads++;
          },
        },
      ),
    );
    expect(done).toMatchObject({ status: 'done', counts: { ok: 400 } });
    // The job went in parts, each a row the store appended and wrote again or blanked after a later batch.
    const parts = [...stored(emu).keys()].filter((k) => /^faturamento\.lote\..*#[ab]\d+$/.test(k));
    expect(parts.length).toBeGreaterThanOrEqual(2);
    expect(keyReads).toBe(1);
  });
});
