/**
 * Trigger upkeep and stored work from before owners: the add-on removes its
 * own stale triggers, never stays blocked by one, reports upkeep trouble as a
 * warning of an action that succeeded, and runs no report saved before
 * owners until someone takes it over.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { nextRunAfter } from '../../dev/gas/script-app';
import { type SandboxHandle, borrowSandbox } from '../../dev/sandbox/harness';
import type { Rec } from '../core/bulk/fixtures';
import { connect, emulator, importAll, SP } from './helpers';

let sb: SandboxHandle;
beforeAll(async () => {
  sb = await borrowSandbox({ seed: 3, size: 'small' });
});
afterAll(async () => {
  await sb?.stop();
});
beforeEach(async () => {
  await sb.reset();
});

const USER = 'contador@example.com.br';

function plantTrigger(emu: ReturnType<typeof emulator>, handler: string, documentId: string | null = emu.spreadsheet.id): void {
  const spec = { everyHours: 1, timeZone: 'America/Sao_Paulo' };
  emu.triggers.triggers.push({
    id: emu.triggers.nextId(),
    handler,
    owner: USER,
    documentId,
    spec,
    createdAt: emu.now,
    nextRun: nextRunAfter(spec, emu.now),
    oneShot: false,
  });
}

function scheduledReport(emu: ReturnType<typeof emulator>): string {
  importAll(emu, { listing: 'clientes', sheetName: 'Clientes', name: 'R' });
  return (emu.run('listReports') as Rec[])[0].id;
}

describe('trigger upkeep', () => {
  it('a trigger the add-on left behind in the document does not block the new one', () => {
    const emu = emulator();
    connect(emu, sb);
    const id = scheduledReport(emu);
    // A trigger of an older version with a handler name nobody knows any more, in this document.
    plantTrigger(emu, 'atualizarRelatoriosAntigo');
    const out = emu.run('setReportSchedule', [id, { kind: 'hourly' }, false]) as Rec;
    expect(out.ok).toBe(true);
    expect(out.value.warning).toBeUndefined();
    expect(emu.triggers.triggers.map((t) => t.handler)).toEqual(['runScheduledReports']);
  });

  it('duplicates go, one stays; with nothing left to run, none stays', () => {
    const emu = emulator();
    connect(emu, sb);
    const id = scheduledReport(emu);
    emu.run('setReportSchedule', [id, { kind: 'hourly' }, false]);
    plantTrigger(emu, 'runScheduledReports');
    emu.run('setReportSchedule', [id, { kind: 'daily', hour: 6 }, false]);
    expect(emu.triggers.triggers).toHaveLength(1);
    plantTrigger(emu, 'runScheduledReports');
    emu.run('setReportSchedule', [id, null, false]);
    expect(emu.triggers.triggers).toHaveLength(0);
  });

  it('upkeep trouble is a warning with what to do, and the action it followed stands', () => {
    const emu = emulator();
    connect(emu, sb);
    const id = scheduledReport(emu);
    // The user's 20 triggers are used up by this script elsewhere (other documents).
    for (let i = 0; i < 20; i++) plantTrigger(emu, 'runScheduledReports', `outro-doc-${i}`);
    const out = emu.run('setReportSchedule', [id, { kind: 'hourly' }, false]) as Rec;
    expect(out.ok).toBe(true);
    expect(out.value.schedule).toEqual({ kind: 'hourly' });
    expect(out.value.warning).toMatch(/Feito, mas a execução automática.*Acionadores/);
    expect((emu.run('listReports') as Rec[])[0].schedule).toEqual({ kind: 'hourly' });
    // The other documents' triggers are not this document's to delete.
    expect(emu.triggers.triggers.filter((t) => t.documentId !== emu.spreadsheet.id)).toHaveLength(20);
  });
});

describe('reports saved before owners', () => {
  it('move to the work sheet, show without an owner, run for nobody, and run with the new owner once taken over', async () => {
    const emu = emulator();
    connect(emu, sb, 'Empresa', 0);
    // As the add-on stored them before: in DocumentProperties, the connection by name, no owner, scheduled hourly.
    const legacy = {
      id: 'antigo01',
      name: 'Antigo',
      listing: 'clientes',
      connection: 'Empresa',
      filters: {},
      sheetName: 'Clientes antigos',
      incremental: false,
      schedule: { kind: 'hourly' },
      notifyByEmail: true,
      scheduleSince: emu.now,
      createdAt: emu.now,
    };
    emu.properties.documentStore(emu.spreadsheet.id).set('faturamento.relatorio.antigo01', JSON.stringify(legacy));
    plantTrigger(emu, 'runScheduledReports');

    await sb.clearLog();
    emu.runDueTriggers(SP('2026-11-22T11:30:00'));
    expect(await sb.requestLog()).toEqual([]);
    expect(emu.mail).toEqual([]);
    // Nothing of its owner's left to run: the old trigger is gone.
    expect(emu.triggers.triggers).toHaveLength(0);
    expect([...emu.properties.documentStore(emu.spreadsheet.id).keys()]).toEqual([]);
    const [view] = emu.run('listReports') as Rec[];
    expect(view).toMatchObject({ id: 'antigo01', owner: null, mine: false });
    expect(emu.execute('runReport', ['antigo01']).error?.message).toMatch(/Assumir/);

    const [conn] = emu.run('listConnections') as Rec[];
    expect(emu.run('takeOverReport', ['antigo01', conn.id])).toMatchObject({ ok: true, value: { owner: USER, mine: true } });
    expect(emu.triggers.triggers).toHaveLength(1);
    emu.runDueTriggers(SP('2026-11-22T13:30:00'));
    const log = await sb.requestLog();
    expect(log.length).toBeGreaterThan(0);
    expect(new Set(log.map((e) => e.org))).toEqual(new Set([sb.orgs[0].name]));
    expect((emu.run('listReports') as Rec[])[0].lastRun).toMatchObject({ origin: 'agendado', result: 'ok' });
  });
});
