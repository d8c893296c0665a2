/**
 * A pull whose Continuar Google kills twice in a row, first at one of its
 * getRange calls, then at the last getMaxRows of the next, each kill leaving
 * some prefix of the step's unflushed writes. Nobody edited the hidden sheet:
 * the Continuar after must go on from the checkpoint (or start over), never
 * refuse the pull as altered outside the add-on.
 */
import { describe, expect, it } from 'vitest';
import type { ServiceCall } from '../../../dev/gas/execution';
import type { GasEmulator } from '../../../dev/gas/runner';
import { connect, emulator, ok } from '../helpers';
import { sandbox } from './setup';

const sandboxOf = sandbox(23, { size: { faturas: 1_000, clientes: 20, cobrancas: 10, transacoes: 10, assinaturas: 10 } });

/** A pull of 1,000 invoices started from Importar: its first step leaves most of it to Continuar. */
function started(): { emu: GasEmulator; reportId: string } {
  const emu = emulator();
  connect(emu, sandboxOf());
  const p = ok(emu.run('startImportRun', [{ connection: 'Demo', listing: 'faturas', sheetName: 'Faturas', filters: {}, name: 'Faturas' }]));
  expect(p.done).toBe(false);
  return { emu, reportId: p.reportId as string };
}

/** The indexes of the calls to `method` one Continuar makes. */
function callsTo(method: string, run: (onServiceCall: (c: ServiceCall) => void) => void): number[] {
  const found: number[] = [];
  run((c) => {
    if (`${c.object}.${c.method}` === method) found.push(c.index);
  });
  return found;
}

describe('a pull killed at a getRange and then at a getMaxRows, with torn writes', () => {
  it('is never refused at the next Continuar as altered outside the add-on', () => {
    const probe = started();
    const getRanges = callsTo('Sheet.getRange', (onServiceCall) => probe.emu.execute('continueReportRun', [probe.reportId], { onServiceCall }));
    expect(getRanges.length).toBeGreaterThan(5);
    const refused: string[] = [];
    for (const first of getRanges) {
      // The same pull, the same first kill: the calls of the Continuar after it, to aim the second kill.
      const again = started();
      again.emu.execute('continueReportRun', [again.reportId], { kill: { atCall: first } });
      const maxRows = callsTo('Sheet.getMaxRows', (onServiceCall) => again.emu.execute('continueReportRun', [again.reportId], { onServiceCall }));
      if (maxRows.length === 0) continue;
      const { emu, reportId } = started();
      expect(emu.execute('continueReportRun', [reportId], { kill: { atCall: first } }).status).toBe('killed');
      expect(emu.execute('continueReportRun', [reportId], { kill: { atCall: maxRows[maxRows.length - 1] } }).status).toBe('killed');
      const next = emu.execute('continueReportRun', [reportId]);
      if (/alterado fora do complemento/.test(next.error?.message ?? '')) refused.push(`getRange #${first}, then getMaxRows #${maxRows[maxRows.length - 1]}`);
    }
    expect(refused).toEqual([]);
  });
});
