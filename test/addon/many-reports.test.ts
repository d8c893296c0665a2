/**
 * A spreadsheet that holds many reports, under the pessimistic cost model:
 * what a sidebar step spends finding its sheet and columns grows with the
 * sheets, and every step must still move its run forward.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { COST_MODELS } from '../../dev/gas/clock';
import { type SandboxHandle, borrowSandbox } from '../../dev/sandbox/harness';
import { connect, emulator, ok, type Progress } from './helpers';

let sb: SandboxHandle;

beforeAll(async () => {
  sb = await borrowSandbox({ seed: 5, size: 'small' });
});
afterAll(async () => {
  await sb?.stop();
});
beforeEach(async () => {
  await sb.reset({ size: { faturas: 10, clientes: 12, cobrancas: 5, transacoes: 5, assinaturas: 5 } });
});

describe('a spreadsheet with many reports', () => {
  it('each sidebar step of the tenth import brings its rows, under the pessimistic costs', () => {
    const emu = emulator({ costs: COST_MODELS.pessimistic, latency: { ms: 300 } });
    connect(emu, sb);
    for (let r = 1; r <= 10; r++) {
      let p = ok<Progress>(
        emu.run('startImportRun', [{ connection: 'Demo', listing: 'clientes', sheetName: `Clientes ${r}`, name: `Clientes ${r}`, filters: {} }]),
      );
      // 12 records are one page: the first step fetches them, the second at the latest ends the run.
      for (let step = 0; step < 2 && !p.done; step++) p = emu.run('continueReportRun', [p.reportId]) as Progress;
      expect({ report: r, done: p.done, rows: p.rows, message: p.message }).toEqual({ report: r, done: true, rows: 12, message: undefined });
      expect(emu.values(`Clientes ${r}`)).toHaveLength(13);
    }
  });
});
