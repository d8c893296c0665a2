/**
 * An office with many client documents, each with an id of Google's length
 * (44 characters). The owner's agenda keeps one entry per document with
 * something scheduled, in one user property, and a property holds at most
 * 9 KB. A schedule the sidebar answers with ok must run when it is due,
 * however many documents the owner has.
 */
import { describe, expect, it } from 'vitest';
import type { Rec } from '../../core/bulk/fixtures';
import { emulator, importAll, SP } from '../helpers';
import { connectEmpresa, sandbox } from './setup';

const sandboxOf = sandbox(23, { size: { faturas: 10, clientes: 5, cobrancas: 10, transacoes: 10, assinaturas: 10 } });

const ANA = 'ana@escritorio.com.br';
const DOCUMENTS = 140;

describe('an owner with many documents, ids of Google’s length', () => {
  it(`a schedule answered ok in the ${DOCUMENTS}th document runs when it is due`, () => {
    const emu = emulator({ user: ANA });
    connectEmpresa(emu, sandboxOf());
    const schedule = (documentId: string, hour: number): Rec => {
      importAll(emu, { listing: 'clientes', sheetName: 'Clientes', name: 'Clientes', connection: 'Empresa' }, { documentId });
      const report = (emu.run('listReports', [], { documentId }) as Rec[])[0];
      return emu.run('setReportSchedule', [report.id, { kind: 'daily', hour }, false], { documentId }) as Rec;
    };
    // Every document of the office has a daily report, due at 3 in the morning: none is due this afternoon.
    const ids = Array.from({ length: DOCUMENTS }, (_, i) => emu.addSpreadsheet({ name: `Cliente ${i + 1}` }).id);
    for (const id of ids.slice(0, -1)) schedule(id, 3);
    expect(ids.every((id) => id.length === 44)).toBe(true);
    // The last one's report is scheduled for 15h, and the sidebar answers ok.
    const answer = schedule(ids[ids.length - 1], 15);
    expect(answer.ok).toBe(true);
    for (const hour of ['15:59', '16:59', '17:59']) emu.runDueTriggers(SP(`2026-11-22T${hour}:00`));
    const lastRun = (emu.run('listReports', [], { documentId: ids[ids.length - 1] }) as Rec[])[0].lastRun as Rec | null;
    const agenda = JSON.parse(emu.properties.userStore(ANA).get('faturamento.agenda') ?? '{}') as Rec;
    const seen = `the answer: ${JSON.stringify(answer.value && (answer.value as Rec).warning)}; the agenda: ${Object.keys(agenda).length} documents, ${JSON.stringify(agenda).length} bytes`;
    expect(lastRun?.origin, seen).toBe('agendado');
  });
});
