/**
 * Scheduled and long-running report refreshes through the real bundle: the one
 * hourly dispatcher trigger, exactly what is due at each simulated hour, and a
 * pull cut by the 6-minute kill that resumes without losing or repeating rows.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type SandboxHandle, borrowSandbox } from '../../dev/sandbox/harness';
import { columnsOf, connect, emulator as base, finishRun, importAll, type Progress, SP } from './helpers';

type Rec = Record<string, any>;
let sb: SandboxHandle;

beforeAll(async () => {
  sb = await borrowSandbox({ seed: 5, size: 'small' });
});
afterAll(async () => {
  await sb?.stop();
});
beforeEach(async () => {
  await sb.reset();
});

function reportId(emu: ReturnType<typeof base>, name: string): string {
  return (emu.run('listReports') as Rec[]).find((r) => r.name === name)!.id;
}

/**
 * Each report's scheduled runs as "name@dd HH", from its card after every hour: a run that found the sheet as the
 * service has it writes no Histórico row (unchanged-run.ts), and every run, that one too, is the report's last run.
 */
function scheduledRuns(emu: ReturnType<typeof base>, seen: Set<string>): void {
  for (const r of emu.run('listReports') as Rec[]) {
    if (r.lastRun?.origin === 'agendado') seen.add(`${r.name}@${String(r.lastRun.at).slice(0, 2)} ${String(r.lastRun.at).slice(11, 13)}`);
  }
}

// Whether Google runs the add-on's timed trigger with the document active is not settled: every test runs both ways.
for (const documentContext of [true, false]) {
  const emulator = (options: Parameters<typeof base>[0] = {}) => base({ triggerDocumentContext: documentContext, ...options });
  const way = documentContext ? 'with the document' : 'without the document';

  describe(`the hourly dispatcher (${way})`, () => {
    it('one trigger serves every schedule, and each report runs exactly when due', () => {
      const emu = emulator();
      connect(emu, sb);
      importAll(emu, { listing: 'clientes', sheetName: 'Clientes', name: 'Diário' });
      importAll(emu, { listing: 'nfse', sheetName: 'NFS-e', name: 'A cada 3h' });
      expect((emu.run('setReportSchedule', [reportId(emu, 'Diário'), { kind: 'daily', hour: 7 }, false]) as Rec).ok).toBe(true);
      expect((emu.run('setReportSchedule', [reportId(emu, 'A cada 3h'), { kind: 'everyHours', hours: 3 }, false]) as Rec).ok).toBe(true);
      expect(emu.triggers.triggers).toHaveLength(1);
      expect(emu.triggers.triggers[0].handler).toBe('runScheduledReports');
      // Walk the clock hour by hour; the trigger fires a few minutes into each hour.
      const seen = new Set<string>();
      for (let h = 11; h <= 32; h++) {
        const day = h < 24 ? 22 : 23;
        emu.runDueTriggers(SP(`2026-11-${day}T${String(h % 24).padStart(2, '0')}:05:00`));
        scheduledRuns(emu, seen);
      }
      expect([...seen].sort()).toEqual([
        'A cada 3h@22 13',
        'A cada 3h@22 16',
        'A cada 3h@22 19',
        'A cada 3h@22 22',
        'A cada 3h@23 01',
        'A cada 3h@23 04',
        'A cada 3h@23 07',
        'Diário@23 07',
      ]);
      const reports = emu.run('listReports') as Rec[];
      expect(reports.every((r) => r.lastRun.origin === 'agendado' && r.lastRun.result === 'ok')).toBe(true);
    });

    it('turning the last schedule off removes the trigger', () => {
      const emu = emulator();
      connect(emu, sb);
      importAll(emu, { listing: 'clientes', sheetName: 'Clientes', name: 'R' });
      const id = reportId(emu, 'R');
      emu.run('setReportSchedule', [id, { kind: 'hourly' }, false]);
      emu.run('setReportSchedule', [id, { kind: 'daily', hour: 6 }, false]);
      expect(emu.triggers.triggers).toHaveLength(1);
      emu.run('setReportSchedule', [id, null, false]);
      expect(emu.triggers.triggers).toHaveLength(0);
    });

    it('refuses an invalid schedule with a message', () => {
      const emu = emulator();
      connect(emu, sb);
      importAll(emu, { listing: 'clientes', sheetName: 'Clientes', name: 'R' });
      const r = emu.run('setReportSchedule', [reportId(emu, 'R'), { kind: 'daily', hour: 25 }, false]) as Rec;
      expect(r).toMatchObject({ ok: false, field: 'schedule' });
      expect(emu.triggers.triggers).toHaveLength(0);
    });

    it('a scheduled failure is recorded, shown in the report list and e-mailed when asked', async () => {
      const emu = emulator();
      connect(emu, sb);
      importAll(emu, { listing: 'clientes', sheetName: 'Clientes', name: 'Clientes' });
      emu.run('setReportSchedule', [reportId(emu, 'Clientes'), { kind: 'hourly' }, true]);
      await sb.configure({ addFaults: [{ kind: 'status', status: 503, pathPrefix: '/v2/clientes' }] });
      emu.runDueTriggers(SP('2026-11-22T11:05:00'));
      const report = (emu.run('listReports') as Rec[])[0];
      expect(report.lastRun).toMatchObject({ origin: 'agendado', result: 'erro' });
      expect(report.lastRun.message).toMatch(/Erro no serviço/);
      expect(emu.mail).toHaveLength(1);
      expect(emu.mail[0].subject).toMatch(/Clientes/);
      expect(JSON.stringify(emu.mail[0])).not.toContain(sb.orgs[0].apiKey);
      expect(emu.displayValues('Histórico').at(-1)!.slice(1, 3)).toEqual(['Clientes', 'Agendado']);
      expect(emu.displayValues('Histórico').at(-1)![5]).toBe('ERRO');
    });

    it('a schedule paused by a failure trying again cannot fix shows no "próxima", but that it is paused and what to do', async () => {
      const emu = emulator();
      connect(emu, sb);
      importAll(emu, { listing: 'clientes', sheetName: 'Clientes', name: 'Clientes' });
      emu.run('setReportSchedule', [reportId(emu, 'Clientes'), { kind: 'hourly' }, false]);
      const before = (emu.run('listReports') as Rec[])[0];
      expect(before.nextRunAt).toMatch(/^22\/11\/2026 \d\d:\d\d$/);
      await sb.configure({ addFaults: [{ kind: 'status', status: 401, pathPrefix: '/v2/clientes' }] });
      emu.runDueTriggers(SP('2026-11-22T11:05:00'));
      emu.now = SP('2026-11-23T09:00:00').getTime();
      const report = (emu.run('listReports') as Rec[])[0];
      expect(report.lastRun).toMatchObject({ origin: 'agendado', result: 'erro' });
      expect(report.nextRunAt).toBeNull();
      expect(report.scheduleText).toMatch(/ · pausado até uma atualização bem-sucedida: corrija o erro e clique em "Atualizar"$/);
    });
  });

  describe(`a pull longer than one execution (${way})`, () => {
    it('killed at 6 minutes mid-way, it continues from what it wrote and ends with every record exactly once', async () => {
      await sb.reset({ size: { faturas: 12_000, clientes: 100, cobrancas: 10, transacoes: 10, assinaturas: 10 } });
      const emu = emulator();
      connect(emu, sb);
      const started = emu.run('startImportRun', [{ connection: 'Demo', listing: 'faturas', sheetName: 'Faturas', filters: {} }]) as {
        ok: true;
        value: Progress;
      };
      const id = started.value.reportId;
      // Each wave of requests costs 0.1 s of the execution's time, and this execution has 3 s left, less than the
      // sidebar's 4 s step: killed after its first block of 5,000 rows was written. Cells cost nothing here: what is
      // tested is the kill, not the write's price.
      const killed = emu.execute('continueReportRun', [id], {
        budgetMs: 3_000,
        costs: { urlFetchCallMs: 100, cellWriteMs: 0, cellReadMs: 0, formatCellMs: 0, flushMs: 0 },
      });
      expect(killed.status).toBe('killed');
      const written = emu.values('Faturas').length - 1;
      expect(written).toBeGreaterThanOrEqual(5000);
      expect(written).toBeLessThan(12_000);
      expect(String(emu.values('Faturas')[0][0])).toMatch(/^⚠ INCOMPLETO/);
      await sb.clearLog();
      const done = finishRun(emu, id);
      expect(done.status).toBe('done');
      // The continuation did not fetch again the pages it had already written.
      const log = await sb.requestLog({ pathPrefix: '/v2/faturamento/faturas' });
      expect(log.length).toBeLessThan(240 - 100 + 20);
      const col = columnsOf(emu, 'Faturas');
      const values = emu.values('Faturas').slice(1);
      const ids = values.map((r) => r[col.idFatura]);
      expect(ids).toHaveLength(12_000);
      expect(new Set(ids).size).toBe(12_000);
      const dump = await sb.dump<Rec>(sb.orgs[0].name, 'faturas');
      expect(new Set(dump.map((f) => f.idFatura))).toEqual(new Set(ids));
      expect(String(emu.values('Faturas')[0][0])).toBe('ID da fatura');
    });

    it('a pull that failed part-way offers "Continuar" and resumes from its last written page', async () => {
      await sb.reset({ size: { faturas: 12_000, clientes: 100, cobrancas: 10, transacoes: 10, assinaturas: 10 } });
      const emu = emulator();
      connect(emu, sb);
      const started = emu.run('startImportRun', [{ connection: 'Demo', listing: 'faturas', sheetName: 'Faturas', filters: {} }]) as {
        ok: true;
        value: Progress;
      };
      const id = started.value.reportId;
      // Slow waves: the sidebar's 4 s step ends with part of the listing written.
      const partial = emu.run('continueReportRun', [id], { costs: { urlFetchCallMs: 2000 } }) as Progress;
      expect(partial.status).toBe('running');
      expect(partial.rows).toBeGreaterThan(0);
      await sb.configure({ addFaults: [{ kind: 'status', status: 500, pathPrefix: '/v2/faturamento' }] });
      const failed = emu.run('continueReportRun', [id]) as Progress;
      expect(failed.status).toBe('failed');
      expect(failed.message).toMatch(/Erro no serviço/);
      // A 5xx is worth continuing.
      expect(failed.canContinue).toBe(true);
      const listed = (emu.run('listReports') as Rec[])[0];
      expect(listed).toMatchObject({ canContinue: true, lastRun: { result: 'erro' } });
      await sb.configure({ faults: [] });
      const done = finishRun(emu, id);
      expect(done.status).toBe('done');
      const col = columnsOf(emu, 'Faturas');
      const ids = emu
        .values('Faturas')
        .slice(1)
        .map((r) => r[col.idFatura]);
      expect(ids).toHaveLength(12_000);
      expect(new Set(ids).size).toBe(12_000);
      expect((emu.run('listReports') as Rec[])[0]).toMatchObject({ canContinue: false, lastRun: { result: 'ok', rows: 12_000 } });
    });

    it('a pull abandoned with no schedule anywhere gets the dispatcher, which finishes it and then removes itself', () => {
      const emu = emulator();
      connect(emu, sb);
      emu.run('startImportRun', [{ connection: 'Demo', listing: 'nfse', sheetName: 'NFS-e', filters: {} }]);
      expect(emu.triggers.triggers.map((t) => t.handler)).toEqual(['runScheduledReports']);
      emu.runDueTriggers(SP('2026-11-22T11:05:00'));
      expect((emu.run('listReports') as Rec[])[0].lastRun.result).toBe('ok');
      expect(emu.triggers.triggers).toHaveLength(0);
    });

    it('an unfinished pull is finished by the next dispatcher run', async () => {
      await sb.reset({ size: { faturas: 3000, clientes: 50, cobrancas: 10, transacoes: 10, assinaturas: 10 } });
      const emu = emulator();
      connect(emu, sb);
      const started = emu.run('startImportRun', [{ connection: 'Demo', listing: 'faturas', sheetName: 'Faturas', filters: {}, name: 'Faturas' }]) as {
        ok: true;
        value: Progress;
      };
      // The user closed the sidebar after starting; a schedule elsewhere keeps the dispatcher alive.
      importAll(emu, { listing: 'clientes', sheetName: 'Clientes', name: 'Outro' });
      emu.run('setReportSchedule', [reportId(emu, 'Outro'), { kind: 'daily', hour: 3 }, false]);
      emu.runDueTriggers(SP('2026-11-22T11:05:00'));
      const report = (emu.run('listReports') as Rec[]).find((r) => r.id === started.value.reportId)!;
      expect(report.lastRun.result).toBe('ok');
      expect(report.lastRun.rows).toBe(3000);
      expect(emu.values('Faturas')).toHaveLength(3001);
    });
  });
}
