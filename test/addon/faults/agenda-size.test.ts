/**
 * An office with many client documents, each with an id of Google's length
 * (44 characters). The owner's agenda keeps one entry per document with
 * something scheduled, in one user property, and a property holds at most
 * 9 KB. A schedule the sidebar answers with ok must run when it is due,
 * however many documents the owner has.
 */
import { describe, expect, it } from 'vitest';
import type { Rec } from '../../core/bulk/fixtures';
import { MAX_PARTS, PART_BYTES } from '../../../src/core/hourly/agenda';
import { emulator, importAll, ok, SP } from '../helpers';
import { connectEmpresa, sandbox } from './setup';

const sandboxOf = sandbox(23, { size: { faturas: 10, clientes: 5, cobrancas: 10, transacoes: 10, assinaturas: 10 } });

const ANA = 'ana@escritorio.com.br';
const DOCUMENTS = 140;

describe('an owner with many documents, ids of Google’s length', () => {
  // A few hundred executions: longer than most tests.
  it(`a schedule answered ok in the ${DOCUMENTS}th document runs when it is due`, { timeout: 240_000 }, () => {
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

  it('with the owner’s properties full, saving a schedule is refused in Portuguese, nothing is saved and nothing runs', () => {
    const emu = emulator({ user: ANA });
    connectEmpresa(emu, sandboxOf());
    const id = emu.addSpreadsheet({ name: 'Cliente' }).id;
    importAll(emu, { listing: 'clientes', sheetName: 'Clientes', name: 'Clientes', connection: 'Empresa' }, { documentId: id });
    const report = (emu.run('listReports', [], { documentId: id }) as Rec[])[0];
    // The user's store (500 KB) filled by other data of theirs, to a few bytes of its end.
    const user = emu.properties.userStore(ANA);
    const used = () => [...user].reduce((n, [k, v]) => n + Buffer.byteLength(k) + Buffer.byteLength(v), 0);
    for (let i = 0; used() < 500 * 1024 - 9000; i++) user.set(`outro.${i}`, 'x'.repeat(8000));
    user.set('outro.fim', 'x'.repeat(500 * 1024 - used() - 'outro.fim'.length - 10));
    const answer = emu.run('setReportSchedule', [report.id, { kind: 'hourly' }, false], { documentId: id }) as Rec;
    expect(answer.ok).toBe(false);
    expect(answer.message).toMatch(/500 KB.*cheio/);
    expect((emu.run('listReports', [], { documentId: id }) as Rec[])[0].schedule).toBeNull();
    const runs = emu.runDueTriggers(new Date(emu.now + 3 * 3_600_000));
    expect(runs).toEqual([]);
  });

  it('with the agenda at its limit, a schedule in one more document is refused in Portuguese and not saved; one already in it is saved', () => {
    const emu = emulator({ user: ANA });
    connectEmpresa(emu, sandboxOf());
    const ids = [emu.addSpreadsheet({ name: 'Cliente' }).id, emu.addSpreadsheet({ name: 'Outro' }).id];
    for (const documentId of ids) importAll(emu, { listing: 'clientes', sheetName: 'Clientes', name: 'Clientes', connection: 'Empresa' }, { documentId });
    const reportIn = (documentId: string) => (emu.run('listReports', [], { documentId }) as Rec[])[0];
    ok(emu.run('setReportSchedule', [reportIn(ids[1]).id, { kind: 'daily', hour: 3 }, false], { documentId: ids[1] }));
    // The agenda's every part as full as the add-on fills it, with ids of other documents (a couple of thousand).
    const user = emu.properties.userStore(ANA);
    const kept = JSON.parse(user.get('faturamento.agenda') ?? '{}') as Record<string, number>;
    let n = 0;
    const other = () => `1${String(n++).padStart(8, '0')}${'y'.repeat(35)}`;
    for (let i = 0; i < MAX_PARTS; i++) {
      const part: Record<string, number> = i === 0 ? { ...kept, '#': MAX_PARTS } : {};
      for (let id = other(); JSON.stringify({ ...part, [id]: emu.now }).length <= PART_BYTES; id = other()) part[id] = emu.now;
      user.set(i === 0 ? 'faturamento.agenda' : `faturamento.agenda.${i}`, JSON.stringify(part));
    }
    const answer = emu.run('setReportSchedule', [reportIn(ids[0]).id, { kind: 'hourly' }, false], { documentId: ids[0] }) as Rec;
    expect(answer.ok).toBe(false);
    expect(answer.message).toMatch(/O agendamento não foi salvo/);
    expect(reportIn(ids[0]).schedule).toBeNull();
    // The document already in the agenda keeps its place: its schedule changes.
    ok(emu.run('setReportSchedule', [reportIn(ids[1]).id, { kind: 'hourly' }, false], { documentId: ids[1] }));
    expect(reportIn(ids[1]).schedule).toEqual({ kind: 'hourly' });
  });
});
