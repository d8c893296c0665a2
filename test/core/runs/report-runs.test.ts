/**
 * Running saved reports through their ports, without the emulator: a run
 * started, stepped and finished into the report's last run, Histórico and
 * the job store; failures kept for "Continuar", scheduled failures backing
 * off, incremental runs asking only what changed, consolidated runs moving
 * each company's own stamp. The service is a small fake (fake-service.ts).
 */
import { describe, expect, it } from 'vitest';
import { intlZone } from '../../../src/api/calendar';
import { beginRun } from '../../../src/core/runs/begin';
import { INCREMENTAL_MARGIN_MS } from '../../../src/core/runs/plan-pull';
import { cancelRun, continueRun, stepRun } from '../../../src/core/runs/step';
import type { MemorySheet } from '../bulk/memory-book';
import { customers, invoices, refused, timedOut, zone } from '../fake-service';
import { HOUR, refresh, runToEnd, T0, type TaggedSheet, type World, world } from './run-world';

describe('a run of a report', () => {
  it('starts: the report is saved with its sheet and a run under way, the job stored, nothing asked yet', () => {
    const w = world();
    const r = w.report();
    const p = refresh(w.deps, r.id, 'manual');
    expect(p).toMatchObject({ reportId: r.id, reportName: 'Clientes ativos', sheetName: 'Clientes', status: 'running', done: false, rows: 0, firstRun: true });
    expect(p.canContinue).toBe(false);
    const saved = w.reports.get(r.id);
    expect(saved.sheetId).toBe(w.book.byName('Clientes')?.id);
    expect(saved.lastRun).toMatchObject({ result: 'em andamento', origin: 'manual', rows: 0, startedAt: T0 });
    expect(w.deps.jobs.get(r.id)?.state.status).toBe('running');
    expect(w.service.asked).toEqual([]);
  });

  it('runs to its end: rows in the sheet, the last run OK, Histórico told, the job gone, the dashboards refreshed once', () => {
    const w = world();
    const r = w.report();
    refresh(w.deps, r.id, 'manual');
    w.tick(5_000);
    const p = runToEnd(w, r.id);
    expect(p).toMatchObject({ status: 'done', done: true, rows: 7, canContinue: false });
    const saved = w.reports.get(r.id);
    expect(saved.lastRun).toMatchObject({ result: 'ok', rows: 7, origin: 'manual', startedAt: T0, incremental: false });
    expect(saved.lastRun?.durationMs).toBe((saved.lastRun?.finishedAt ?? 0) - T0);
    expect(saved.lastRun?.durationMs).toBeGreaterThanOrEqual(5_000);
    expect(saved.lastSuccessStart).toBe(T0);
    expect(saved.failedRuns).toBe(0);
    expect(w.deps.jobs.get(r.id)).toBeNull();
    expect(w.history()).toEqual([expect.objectContaining({ Relatório: 'Clientes ativos', Origem: 'Manual', Linhas: 7, Resultado: 'OK' })]);
    expect(w.after.map((a) => a.id)).toEqual([r.id]);
    expect(w.notified).toEqual([]);
    // With no job left, the report says how its last run went.
    expect(continueRun(w.deps, r.id, w.now() + 1_000)).toMatchObject({ status: 'done', done: true, rows: 7, canContinue: false, pages: 0 });
  });

  it('a run already going on is continued, not started again', () => {
    const w = world();
    const r = w.report();
    const first = beginRun(w.deps, r, 'manual', null);
    expect(first.started).toBe(true);
    const again = beginRun(w.deps, first.report, 'agendado', first.job);
    expect(again.started).toBe(false);
    expect(again.job).toBe(first.job);
    // A failed job is not continued by a new start: the run starts afresh.
    const failed = { ...first.job, state: { ...first.job.state, status: 'failed' as const } };
    const fresh = beginRun(w.deps, first.report, 'manual', failed);
    expect(fresh.started).toBe(true);
    expect(fresh.job).not.toBe(failed);
  });

  it('says the total and how long is left once the service told, and it is not a first run once one succeeded', () => {
    const w = world({ k1: customers(1, 40) });
    const r = w.report();
    const begun = beginRun(w.deps, r, 'manual', null);
    // One wave only (a second each): 6 of 40 rows.
    const run = stepRun(w.deps, begun.report, begun.job, w.now() + 1_500);
    expect(run.progress).toMatchObject({ status: 'running', rows: 6, totalRows: 40, pages: 2 });
    // 1 s for 6 rows, 34 left.
    expect(run.progress.etaSeconds).toBe(Math.ceil((((w.now() - T0) / 6) * 34) / 1000));
    runToEnd(w, r.id);
    const second = refresh(w.deps, r.id, 'manual');
    expect(second.firstRun).toBe(false);
    expect(runToEnd(w, r.id).etaSeconds).toBeUndefined();
    // Its sheet deleted since: the run makes it again, but the report had runs before, so it is no first run.
    w.book.sheets = w.book.sheets.filter((x) => x.name() !== 'Clientes');
    expect(refresh(w.deps, r.id, 'manual').firstRun).toBe(false);
  });
});

describe('a run that fails', () => {
  it('a refused key: the last run says so, the job stays, Continuar is not offered, the schedule is not told of a manual run', () => {
    const w = world({});
    const r = w.report();
    refresh(w.deps, r.id, 'manual');
    const p = runToEnd(w, r.id);
    expect(p).toMatchObject({ status: 'failed', done: true, canContinue: false });
    const saved = w.reports.get(r.id);
    expect(saved.lastRun?.result).toBe('erro');
    expect(saved.lastRun?.message).toBeTruthy();
    expect(saved.lastSuccessStart).toBeUndefined();
    expect(saved.failedRuns).toBeUndefined();
    expect(w.deps.jobs.get(r.id)?.state.status).toBe('failed');
    expect(w.history()[0]).toMatchObject({ Resultado: 'ERRO' });
    expect(w.after).toEqual([]);
    expect(w.notified).toEqual([]);
  });

  it('a scheduled run that fails in a way retrying cannot fix (a refused key) pauses the schedule at once: one e-mail, until a run succeeds', () => {
    const w = world({});
    const r = w.report({ schedule: { kind: 'hourly' } });
    const begun = beginRun(w.deps, w.reports.get(r.id), 'agendado', null);
    stepRun(w.deps, begun.report, begun.job, w.now() + 600_000);
    const paused = w.reports.get(r.id);
    expect(paused.lastRun?.result).toBe('erro');
    expect(paused.pausedUntil).toBe(Number.MAX_SAFE_INTEGER);
    expect(paused.lastRun?.message).toMatch(
      / O agendamento foi pausado, pois tentar de novo não resolve este erro: corrija-o e clique em "Atualizar" em Relatórios/,
    );
    expect(w.notified).toHaveLength(1);
    // The key is put right and the report updated by hand: the schedule counts again.
    w.service.companies.k1 = customers(1, 2);
    const manual = beginRun(w.deps, w.reports.get(r.id), 'manual', null);
    stepRun(w.deps, manual.report, manual.job, w.now() + 600_000);
    const resumed = w.reports.get(r.id);
    expect(resumed.lastRun?.result).toBe('ok');
    expect(resumed.failedRuns).toBe(0);
    expect(resumed.pausedUntil).toBeUndefined();
  });

  it('a scheduled run that fails for good before writing a row leaves the sheet as the last good run left it, not INCOMPLETO, and says so', () => {
    const w = world({ k1: customers(1, 7) });
    const r = w.report({ schedule: { kind: 'hourly' } });
    refresh(w.deps, r.id, 'manual');
    runToEnd(w, r.id);
    const good = w.reports.get(r.id).lastSuccessStart!;
    w.tick(HOUR);
    delete w.service.companies.k1;
    const begun = beginRun(w.deps, w.reports.get(r.id), 'agendado', null);
    stepRun(w.deps, begun.report, begun.job, w.now() + 600_000);
    const sheet = w.book.byName('Clientes') as TaggedSheet;
    expect(sheet.read(1, 1, 1, 1)[0][0]).toBe('ID do cliente');
    expect(sheet.tab).toBeNull();
    expect(sheet.lastRow()).toBe(8);
    const run = w.reports.get(r.id).lastRun!;
    expect(run.result).toBe('erro');
    const kept = `A aba "Clientes" continua com os dados da última atualização bem-sucedida, de ${new Date(good).toLocaleString('pt-BR', { timeZone: 'America/Sao_Paulo', dateStyle: 'short', timeStyle: 'short' }).replace(',', '')}.`;
    expect(run.message).toContain(` ${kept} O agendamento foi pausado`);
    expect(w.history().at(-1)?.Mensagem).toContain(kept);
    expect(w.notified.at(-1)?.run.message).toContain(kept);
  });

  it('a run that wrote some of its rows before failing for good keeps the sheet marked INCOMPLETO; so does a first run, with no good data', () => {
    const w = world({ k1: customers(1, 30) });
    const r = w.report({ schedule: { kind: 'hourly' } });
    refresh(w.deps, r.id, 'manual');
    runToEnd(w, r.id);
    // Its first step writes two pages, then the service fails; the run continued, it is refused for good.
    w.service.fault = (asked) => (asked.page > 1 ? refused(500, 'Erro interno') : undefined);
    const begun = beginRun(w.deps, w.reports.get(r.id), 'agendado', null);
    const resting = stepRun(w.deps, begun.report, begun.job, w.now() + 600_000);
    expect(resting.job.state).toMatchObject({ status: 'failed', retryable: true, pages: 2 });
    w.service.fault = (asked) => (asked.page > 1 ? refused(401) : undefined);
    stepRun(w.deps, resting.report, resting.job, w.now() + 600_000);
    const sheet = w.book.byName('Clientes') as TaggedSheet;
    expect(w.reports.get(r.id).lastRun?.result).toBe('erro');
    expect(String(sheet.read(1, 1, 1, 1)[0][0])).toMatch(/^⚠ INCOMPLETO/);
    expect(w.reports.get(r.id).lastRun?.message).not.toMatch(/última atualização bem-sucedida/);
    const first = world({});
    const never = first.report({ schedule: { kind: 'hourly' } });
    const started = beginRun(first.deps, first.reports.get(never.id), 'agendado', null);
    stepRun(first.deps, started.report, started.job, first.now() + 600_000);
    expect(String(first.book.byName('Clientes')!.read(1, 1, 1, 1)[0][0])).toMatch(/^⚠ INCOMPLETO/);
  });

  it('a server error can be continued, and continuing resumes the same job to its end', () => {
    const w = world({ k1: customers(1, 7) });
    w.service.fault = () => refused(500, 'Erro interno');
    const r = w.report();
    refresh(w.deps, r.id, 'manual');
    const failed = runToEnd(w, r.id);
    expect(failed).toMatchObject({ status: 'failed', canContinue: true });
    w.service.fault = () => undefined;
    const done = continueRun(w.deps, r.id, w.now() + 600_000);
    expect(done).toMatchObject({ status: 'done', rows: 7 });
    expect(w.reports.get(r.id).lastRun?.result).toBe('ok');
  });

  it('a scheduled run that fails tells the owner; after the second in a row the schedule waits 2 h, then 4 h, never more than a day', () => {
    // A service error: trying again may well work.
    const w = world({ k1: customers(1, 2) });
    w.service.fault = () => refused(500, 'Erro interno');
    const r = w.report({ schedule: { kind: 'hourly' } });
    const fail = () => {
      const begun = beginRun(w.deps, w.reports.get(r.id), 'agendado', null);
      stepRun(w.deps, begun.report, begun.job, w.now() + 600_000);
      return w.reports.get(r.id);
    };
    const first = fail();
    expect(first.failedRuns).toBe(1);
    expect(first.pausedUntil).toBeUndefined();
    expect(w.notified.length).toBe(1);
    expect(w.notified[0].run.result).toBe('erro');
    const second = fail();
    expect(second.failedRuns).toBe(2);
    expect(second.pausedUntil).toBe(w.now() + 2 * HOUR);
    expect(second.lastRun?.message).toMatch(
      / Falhou 2 vezes seguidas: a atualização agendada espera 2 h antes de tentar de novo \(ou atualize agora pela barra lateral\)\.$/,
    );
    const third = fail();
    expect(third.pausedUntil).toBe(w.now() + 4 * HOUR);
    w.reports.save({ ...third, failedRuns: 9 });
    const tenth = fail();
    expect(tenth.failedRuns).toBe(10);
    expect(tenth.pausedUntil).toBe(w.now() + 24 * HOUR);
    expect(tenth.lastRun?.message).toMatch(/espera 24 h/);
    // A manual failure leaves the count and the pause as they were; a success clears both.
    w.service.fault = () => undefined;
    const begun = beginRun(w.deps, w.reports.get(r.id), 'manual', null);
    stepRun(w.deps, begun.report, begun.job, w.now() + 600_000);
    const ok = w.reports.get(r.id);
    expect(ok.lastRun?.result).toBe('ok');
    expect(ok.failedRuns).toBe(0);
    expect(ok.pausedUntil).toBeUndefined();
  });

  it('a manual failure keeps the scheduled failures counted so far', () => {
    const w = world({});
    const r = w.report({ failedRuns: 3, pausedUntil: T0 + HOUR });
    refresh(w.deps, r.id, 'manual');
    runToEnd(w, r.id);
    expect(w.reports.get(r.id)).toMatchObject({ failedRuns: 3, pausedUntil: T0 + HOUR });
  });

  it("a failure with Histórico out of room still saves the report's last run", () => {
    const w = world({});
    const r = w.report();
    refresh(w.deps, r.id, 'manual');
    const create = w.book.create.bind(w.book);
    w.book.create = (name: string) => {
      if (name === 'Histórico') throw new Error('limite de células');
      return create(name);
    };
    const p = runToEnd(w, r.id);
    expect(p.status).toBe('failed');
    expect(w.reports.get(r.id).lastRun?.result).toBe('erro');
  });
});

describe('cancelling a run', () => {
  it('ends it cancelled: the job stays for "Continuar", the dashboards are not refreshed, Histórico says so', () => {
    const w = world({ k1: customers(1, 40) });
    const r = w.report();
    const begun = beginRun(w.deps, r, 'manual', null);
    stepRun(w.deps, begun.report, begun.job, w.now() + 1_500);
    const p = cancelRun(w.deps, r.id, begun.progress.runId);
    expect(p).toMatchObject({ status: 'cancelled', done: true, rows: 6, canContinue: true });
    expect(p.message).toMatch(/^Importação cancelada com 6 linhas gravadas/);
    expect(w.deps.jobs.get(r.id)?.state.status).toBe('cancelled');
    expect(w.reports.get(r.id).lastRun?.result).toBe('cancelado');
    expect(w.reports.get(r.id).lastSuccessStart).toBeUndefined();
    expect(w.history()[0]).toMatchObject({ Resultado: 'CANCELADO' });
    expect(w.after).toEqual([]);
    // Nothing left to cancel: the report says how the last run went, once in Histórico.
    expect(cancelRun(w.deps, r.id, begun.progress.runId)).toMatchObject({ status: 'cancelled', done: true, rows: 6, cancelLate: false });
    expect(w.history()).toHaveLength(1);
  });

  it('a cancel asked while a step runs stops it between waves', () => {
    const w = world({ k1: customers(1, 40) });
    const r = w.report();
    w.deps.cancelRequested = (id, run) => id === r.id && run === String(T0) && w.service.trips > 0;
    refresh(w.deps, r.id, 'manual');
    const p = continueRun(w.deps, r.id, w.now() + 600_000);
    expect(p.status).toBe('cancelled');
    expect(w.service.trips).toBe(1);
  });

  it('a cancel ends its own run only: a refresh after it starts clean and runs to the end', () => {
    const w = world({ k1: customers(1, 40) });
    const r = w.report();
    const asked = new Set<string>();
    w.deps.cancelRequested = (id, run) => id === r.id && asked.has(run);
    const first = refresh(w.deps, r.id, 'manual');
    asked.add(first.runId);
    expect(continueRun(w.deps, r.id, w.now() + 600_000)).toMatchObject({ status: 'cancelled', runId: first.runId });
    // The request for the first run is still there (a cache keeps it minutes): the next two runs do not see it.
    for (const round of [1, 2]) {
      w.tick(1_000);
      const next = refresh(w.deps, r.id, 'manual');
      expect(next.runId, `run ${round}`).not.toBe(first.runId);
      expect(runToEnd(w, r.id), `run ${round}`).toMatchObject({ status: 'done', rows: 40 });
    }
  });

  it('a cancel that comes after the run ended changes nothing and says it came too late', () => {
    const w = world({ k1: customers(1, 7) });
    const r = w.report();
    const begun = refresh(w.deps, r.id, 'manual');
    expect(runToEnd(w, r.id).status).toBe('done');
    expect(cancelRun(w.deps, r.id, begun.runId)).toMatchObject({ status: 'done', rows: 7, cancelLate: true });
    // Nor does a cancel of an older run touch the one going now.
    const now = refresh(w.deps, r.id, 'manual');
    expect(cancelRun(w.deps, r.id, begun.runId)).toMatchObject({ cancelLate: true });
    expect(w.deps.jobs.get(r.id)?.state.status).toBe('running');
    expect(runToEnd(w, r.id)).toMatchObject({ status: 'done', runId: now.runId, rows: 7 });
    expect(w.history().map((h) => h.Resultado)).toEqual(['OK', 'OK']);
  });

  it('"Continuar" after a cancel goes on from where it stopped; "Atualizar" starts over', () => {
    const w = world({ k1: customers(1, 40) });
    const r = w.report();
    const begun = beginRun(w.deps, r, 'manual', null);
    stepRun(w.deps, begun.report, begun.job, w.now() + 1_500);
    cancelRun(w.deps, r.id, begun.progress.runId);
    const asked = w.service.asked.length;
    expect(runToEnd(w, r.id)).toMatchObject({ status: 'done', rows: 40, runId: begun.progress.runId });
    // Only the pages not written before the cancel were asked again.
    expect(w.service.asked.length - asked).toBeLessThan(Math.ceil(40 / 3));
    const again = beginRun(w.deps, w.reports.get(r.id), 'manual', w.deps.jobs.get(r.id));
    expect(again.started).toBe(true);
  });

  it('a failed run with no job any more reads as failed, and a report never run as done with nothing', () => {
    const w = world();
    const r = w.report({ lastRun: { startedAt: T0, origin: 'manual', rows: 3, durationMs: 0, result: 'erro', message: 'Falhou.' } });
    expect(continueRun(w.deps, r.id, w.now())).toMatchObject({ status: 'failed', rows: 3, message: 'Falhou.', done: true, warnings: [] });
    const never = w.report();
    expect(continueRun(w.deps, never.id, w.now())).toMatchObject({ status: 'done', rows: 0, incremental: false });
  });
});

describe('incremental runs', () => {
  const incremental = (w: World) => w.report({ listing: 'faturas', sheetName: 'Faturas', incremental: true });

  it('the first run is full; the next asks only what changed since the last good start (less a margin) and merges', () => {
    const w = world({ k1: invoices(1, 5) });
    const r = incremental(w);
    refresh(w.deps, r.id, 'manual');
    expect(runToEnd(w, r.id)).toMatchObject({ incremental: false, rows: 5 });
    expect(w.service.asked.every((q) => !q.query.has('dataHoraAtualizacaoInicial'))).toBe(true);
    w.tick(HOUR);
    w.service.asked.length = 0;
    w.service.companies.k1 = [{ idFatura: 3 }, { idFatura: 6 }];
    const started = refresh(w.deps, r.id, 'manual');
    expect(started.incremental).toBe(true);
    const p = runToEnd(w, r.id);
    expect(p).toMatchObject({ status: 'done', incremental: true, rows: 2 });
    expect(p.totalRows).toBeUndefined();
    // 12:00 less the 10-minute margin, as the service's wall clock says it.
    expect(INCREMENTAL_MARGIN_MS).toBe(600_000);
    expect(w.service.asked[0].query.get('dataHoraAtualizacaoInicial')).toBe('22/11/2026 11:50');
    expect(w.reports.get(r.id).lastRun).toMatchObject({ incremental: true, rows: 2 });
    expect((w.book.byName('Faturas') as MemorySheet).lastRow()).toBe(7);
  });

  it('a sheet whose columns of ours were lost is pulled in full again', () => {
    const w = world({ k1: invoices(1, 5) });
    const r = incremental(w);
    refresh(w.deps, r.id, 'manual');
    runToEnd(w, r.id);
    (w.book.byName('Faturas') as TaggedSheet).columns.clear();
    expect(refresh(w.deps, r.id, 'manual').incremental).toBe(false);
  });
});

describe('a consolidated report', () => {
  it('pulls each connection of its owner; each company that finished moves its own stamp, a failed one keeps its last', () => {
    const w = world({ k1: customers(1, 3), k2: customers(1, 2) });
    const r = w.report({ companies: { all: true, ids: [] }, companyStamps: { k2: T0 - HOUR, gone: T0 - HOUR } });
    w.service.fault = ({ key }) => (key === 'k2' ? refused(401) : undefined);
    refresh(w.deps, r.id, 'agendado');
    const p = runToEnd(w, r.id);
    expect(p).toMatchObject({ status: 'done', rows: 3 });
    const saved = w.reports.get(r.id);
    expect(saved.lastRun?.result).toBe('parcial');
    expect(saved.lastSuccessStart).toBe(T0);
    expect(saved.companyStamps).toEqual({ k1: T0, k2: T0 - HOUR });
    expect(w.history()[0]).toMatchObject({ Resultado: 'PARCIAL' });
    // A partial scheduled run is told to the owner, and still refreshes the dashboards.
    expect(w.notified.map((n) => n.run.result)).toEqual(['parcial']);
    expect(w.after.length).toBe(1);
  });

  it('a cancelled consolidated run moves no stamp', () => {
    const w = world({ k1: customers(1, 30), k2: customers(1, 30) });
    const r = w.report({ companies: { all: false, ids: ['k1', 'k2'] }, companyStamps: { k1: T0 - HOUR } });
    const begun = beginRun(w.deps, r, 'manual', null);
    stepRun(w.deps, begun.report, begun.job, w.now() + 1_500);
    cancelRun(w.deps, r.id, begun.progress.runId);
    expect(w.reports.get(r.id).companyStamps).toEqual({ k1: T0 - HOUR });
  });

  it('a company that rests keeps the run going across steps', () => {
    const w = world({ k1: customers(1, 3), k2: customers(1, 3) });
    const r = w.report({ companies: { all: false, ids: ['k1', 'k2'] } });
    w.service.fault = ({ key }) => (key === 'k2' ? timedOut : undefined);
    refresh(w.deps, r.id, 'manual');
    const p = continueRun(w.deps, r.id, w.now() + 600_000);
    expect(p.status).toBe('running');
    expect(w.deps.jobs.get(r.id)?.state.companies?.[1].transientFailures).toBe(1);
  });
});

describe('what a run is given', () => {
  it('"Filtros na planilha": only the records that pass them are written', () => {
    const w = world({ k1: customers(1, 7) });
    const r = w.report({ sheetFilters: [{ field: 'razaoSocial', op: 'lista', values: ['Cliente 2', 'cliente 5'] }] });
    refresh(w.deps, r.id, 'manual');
    expect(runToEnd(w, r.id)).toMatchObject({ status: 'done', rows: 2 });
    expect((w.book.byName('Clientes') as MemorySheet).records().map((x) => x['ID do cliente'])).toEqual([2, 5]);
  });

  it("subscriptions pulled are told to the snapshot store, with the owner's connection, for edits pushed back later", () => {
    const w = world({ k1: [{ idAssinaturaContrato: 1 }, { idAssinaturaContrato: 2 }] });
    const told: Array<{ sheetId: number; connectionId?: string; ids: unknown[] }> = [];
    w.deps.snapshots = {
      pulled: (sheetId: number, _owner: unknown, connectionId: string | undefined, records: ReadonlyArray<Record<string, unknown>>) =>
        told.push({ sheetId, connectionId, ids: records.map((x) => x.idAssinaturaContrato) }),
    } as unknown as NonNullable<typeof w.deps.snapshots>;
    const r = w.report({ listing: 'assinaturas', sheetName: 'Assinaturas' });
    refresh(w.deps, r.id, 'manual');
    runToEnd(w, r.id);
    expect(told).toEqual([{ sheetId: w.book.byName('Assinaturas')?.id, connectionId: 'k1', ids: [1, 2] }]);
    // Customers are not edited from the sheet: nothing told.
    const c = w.report({ sheetName: 'Clientes' });
    refresh(w.deps, c.id, 'manual');
    runToEnd(w, c.id);
    expect(told.length).toBe(1);
  });

  it("an incremental stamp is read in the zone of the connection's service", () => {
    const w = world({ k1: invoices(1, 2) });
    w.deps.serviceZone = (name) => (name === 'Empresa k1' ? intlZone('Europe/Lisbon') : zone);
    const r = w.report({ listing: 'faturas', sheetName: 'Faturas', incremental: true });
    refresh(w.deps, r.id, 'manual');
    runToEnd(w, r.id);
    w.service.asked.length = 0;
    refresh(w.deps, r.id, 'manual');
    runToEnd(w, r.id);
    expect(w.service.asked[0].query.get('dataHoraAtualizacaoInicial')).toBe('22/11/2026 14:50');
  });

  it('a first run into a sheet the user already had is not a first run: a failure must not take the sheet away', () => {
    const w = world({});
    w.book.create('Clientes');
    const r = w.report();
    expect(refresh(w.deps, r.id, 'manual').firstRun).toBe(false);
  });

  it('a consolidated report refreshes each company from its own stamp, and in full when one has none', () => {
    const w = world({ k1: invoices(1, 3), k2: invoices(1, 2) });
    const r = w.report({ listing: 'faturas', sheetName: 'Faturas', incremental: true, companies: { all: false, ids: ['k1', 'k2'] } });
    refresh(w.deps, r.id, 'manual');
    expect(runToEnd(w, r.id)).toMatchObject({ status: 'done', rows: 5, incremental: false });
    expect(w.reports.get(r.id).companyStamps).toEqual({ k1: T0, k2: T0 });
    w.tick(HOUR);
    w.service.asked.length = 0;
    expect(refresh(w.deps, r.id, 'manual').incremental).toBe(true);
    runToEnd(w, r.id);
    const since = (key: string) => w.service.asked.find((q) => q.key === key)?.query.get('dataHoraAtualizacaoInicial');
    expect([since('k1'), since('k2')]).toEqual(['22/11/2026 11:50', '22/11/2026 11:50']);
    // A company added since has no stamp: it comes in full, and the run is no longer a merge.
    w.reports.save({ ...w.reports.get(r.id), companyStamps: { k1: T0 } });
    w.service.asked.length = 0;
    expect(refresh(w.deps, r.id, 'manual').incremental).toBe(false);
    runToEnd(w, r.id);
    expect([since('k1'), since('k2')]).toEqual(['22/11/2026 11:50', null]);
  });
});

describe('what a run keeps', () => {
  it('what the walk warned about stays with the last run and goes to Histórico', () => {
    const w = world({ k1: customers(1, 2) });
    // The service announces 5 customers and sends 2.
    w.service.fault = ({ key, page }) => {
      const answer = w.service.page(key, page);
      if (answer.kind !== 'response') return answer;
      const body = JSON.parse(answer.body);
      return { ...answer, body: JSON.stringify({ ...body, paging: { ...body.paging, totalRows: 5 } }) };
    };
    const r = w.report();
    refresh(w.deps, r.id, 'manual');
    const p = runToEnd(w, r.id);
    expect(p.warnings).toEqual(['O serviço anunciou 5 registros e chegaram 2: os dados mudaram durante a leitura.']);
    expect(w.reports.get(r.id).lastRun?.warnings).toEqual(p.warnings);
    expect(w.history()[0].Mensagem).toContain('O serviço anunciou 5 registros e chegaram 2');
    const clean = world();
    const c = clean.report();
    refresh(clean.deps, c.id, 'manual');
    runToEnd(clean, c.id);
    expect(clean.reports.get(c.id).lastRun?.warnings).toBeUndefined();
  });

  it('starting a run needs neither the network nor the key: a connection gone fails the first step, saying why', () => {
    const w = world();
    w.deps.clientFor = () => {
      throw new Error('A conexão deste relatório não existe mais.');
    };
    const r = w.report();
    expect(refresh(w.deps, r.id, 'manual').status).toBe('running');
    const p = continueRun(w.deps, r.id, w.now() + 60_000);
    expect(p.status).toBe('failed');
    expect(p.message).toContain('A conexão deste relatório não existe mais.');
  });
});
