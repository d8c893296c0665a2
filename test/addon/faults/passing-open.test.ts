/**
 * openById failing for a moment, as Google's services do ("Service
 * Spreadsheets failed while accessing document with id …", "We're sorry, a
 * server error occurred"), three hourly runs in a row. The document is there
 * and shared all along: a passing error is not a lost document, so its
 * schedule must go on once the error passes, and its owner must not be told
 * the document is out of reach.
 */
import { describe, expect, it } from 'vitest';
import { spreadsheetId } from '../../../dev/gas/office';
import type { Rec } from '../../core/bulk/fixtures';
import { emulator, importAll, ok } from '../helpers';
import { connectEmpresa, sandbox } from './setup';

const sandboxOf = sandbox(23, { size: { faturas: 10, clientes: 30, cobrancas: 10, transacoes: 10, assinaturas: 10 } });

const ANA = 'ana@escritorio.com.br';
const CLIENTE = spreadsheetId('cliente-a');
const HOUR = 3_600_000;

describe('openById failing for a moment three hourly runs in a row', () => {
  it('does not drop the document from the agenda: its hourly report runs again once the error passes, and nobody is told it is gone', () => {
    const emu = emulator({ user: ANA });
    connectEmpresa(emu, sandboxOf());
    emu.addSpreadsheet({ id: CLIENTE, name: 'Cliente A', editors: [ANA] });
    importAll(emu, { listing: 'clientes', sheetName: 'Clientes', name: 'Clientes', connection: 'Empresa' }, { documentId: CLIENTE });
    const report = (emu.run('listReports', [], { documentId: CLIENTE }) as Rec[])[0];
    ok(emu.run('setReportSchedule', [report.id, { kind: 'hourly' }, false], { documentId: CLIENTE }));
    // The hourly runs come without the document, so each opens it by id; for three hours every openById fails for a moment.
    const passing = { rate: 1, services: ['openById' as const] };
    for (let h = 0; h < 3; h++) {
      const runs = emu.runDueTriggers(new Date(emu.now + HOUR), { documentContext: false, faults: passing });
      expect(runs).toHaveLength(1);
    }
    const lastRun = () => ((emu.run('listReports', [], { documentId: CLIENTE }) as Rec[])[0].lastRun ?? {}) as Rec;
    const before = lastRun().at;
    // The fourth hour, the error has passed.
    emu.runDueTriggers(new Date(emu.now + HOUR), { documentContext: false });
    const after = lastRun();
    const outcome = {
      ranInTheFourthHour: after.origin === 'agendado' && after.at !== before,
      toldItIsOutOfReach: emu.mail.filter((m) => /fora do alcance/.test(m.subject)).length,
      inTheAgenda: CLIENTE in JSON.parse(emu.properties.userStore(ANA).get('faturamento.agenda') ?? '{}'),
    };
    expect(outcome).toEqual({ ranInTheFourthHour: true, toldItIsOutOfReach: 0, inTheAgenda: true });
  });
});
