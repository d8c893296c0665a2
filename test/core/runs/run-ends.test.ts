/**
 * How a report's run ends, and what it says on its way: a run refused before
 * it began, a pull that goes on into a sheet no longer its report's, a cancel
 * that comes after the failure, what an ended run keeps (how it walked the
 * listing, each company's stamp) and whom it tells, each block reaching the
 * document with its checkpoint, and the progress of a report with no job.
 */
import { describe, expect, it } from 'vitest';
import { MESSAGE_MAX } from '../../../src/core/bounds';
import { lookAtSheet } from '../../../src/core/pull/start';
import { beginFromForm, beginRun } from '../../../src/core/runs/begin';
import { cancelRun, continueRun, stepRun } from '../../../src/core/runs/step';
import { SHEET_TAG } from '../../../src/core/sheets/sheet-layout';
import { customers, invoices, refused } from '../fake-service';
import { refresh, runToEnd, savesOf, T0, type TaggedSheet, world } from './run-world';

const PAUSED = 'O agendamento foi pausado, pois tentar de novo não resolve este erro';

describe('a run refused before it began', () => {
  it('its sheet names another report: nothing is asked or written, the card, Histórico and the owner are told, no job is left', () => {
    const w = world({ k1: customers(1, 7) });
    const r = w.report({ schedule: { kind: 'hourly' } });
    refresh(w.deps, r.id, 'manual');
    runToEnd(w, r.id);
    // A run that failed and could be continued leaves its job.
    w.service.fault = () => refused(500, 'Erro interno');
    refresh(w.deps, r.id, 'manual');
    expect(runToEnd(w, r.id).status).toBe('failed');
    expect(w.deps.jobs.get(r.id)).not.toBeNull();
    const sheet = w.book.byName('Clientes') as TaggedSheet;
    sheet.setSheetTag(SHEET_TAG, 'relatorio:outro');
    const cells = structuredClone(sheet.grid);
    w.service.asked.length = 0;
    const begun = beginRun(w.deps, w.reports.get(r.id), 'agendado', null);
    expect(begun.started).toBe(false);
    expect(begun.progress).toMatchObject({
      status: 'failed',
      done: true,
      rows: 0,
      pages: 0,
      warnings: [],
      canContinue: false,
      incremental: false,
      sheetName: 'Clientes',
    });
    expect(begun.progress.message).toMatch(/^A aba "Clientes" não é a aba do relatório "Clientes ativos"/);
    expect(w.reports.get(r.id).lastRun).toMatchObject({ result: 'erro', origin: 'agendado', rows: 0, incremental: false, message: begun.progress.message });
    expect(w.history().at(-1)).toMatchObject({ Resultado: 'ERRO', Origem: 'Agendado' });
    expect(w.notified.at(-1)?.run.message).toBe(begun.progress.message);
    expect(w.deps.jobs.get(r.id)).toBeNull();
    expect(w.service.asked).toEqual([]);
    expect(sheet.grid).toEqual(cells);
  });
});

describe('a pull that goes on into a sheet no longer its report', () => {
  it('fails for good writing nothing more, continuing it asks and tells nothing again, and a long report name never pushes the schedule note out', () => {
    const w = world({ k1: customers(1, 40) });
    const r = w.report({ name: `Relatório ${'R'.repeat(3_000)}`, schedule: { kind: 'hourly' } });
    const begun = beginRun(w.deps, r, 'agendado', null);
    const first = stepRun(w.deps, begun.report, begun.job, w.now() + 1_500);
    expect(first.progress).toMatchObject({ status: 'running', rows: 6 });
    const sheet = w.book.byName('Clientes') as TaggedSheet;
    sheet.setSheetTag(SHEET_TAG, 'relatorio:outro');
    const asked = w.service.asked.length;
    const ended = stepRun(w.deps, first.report, first.job, w.now() + 600_000);
    expect(ended.progress).toMatchObject({ status: 'failed', done: true, canContinue: false, rows: 6 });
    expect(ended.job.state.retryable).toBe(false);
    expect(ended.progress.message).toMatch(/^A aba "Clientes" não é a aba do relatório "Relatório R/);
    expect(w.service.asked.length).toBe(asked);
    expect(sheet.lastRow()).toBe(7);
    const message = w.reports.get(r.id).lastRun?.message ?? '';
    expect(message.length).toBeLessThanOrEqual(MESSAGE_MAX);
    expect(message).toMatch(/…/);
    expect(message).toContain(PAUSED);
    expect(message.endsWith('o agendamento volta a valer.')).toBe(true);
    expect(w.history()).toHaveLength(1);
    const again = stepRun(w.deps, ended.report, ended.job, w.now() + 600_000);
    expect(again.progress).toMatchObject({ status: 'failed', message: ended.progress.message });
    expect(again.job).toBe(ended.job);
    expect(w.service.asked.length).toBe(asked);
    expect(w.history()).toHaveLength(1);
    expect(w.notified).toHaveLength(1);
  });
});

describe('a pull whose sheet the user deleted while it ran', () => {
  it('fails saying so, and that running the report again makes it anew', () => {
    const w = world({ k1: customers(1, 40) });
    const r = w.report();
    const begun = beginRun(w.deps, r, 'manual', null);
    const first = stepRun(w.deps, begun.report, begun.job, w.now() + 1_500);
    w.book.sheets = w.book.sheets.filter((s) => s.name() !== 'Clientes');
    const ended = stepRun(w.deps, first.report, first.job, w.now() + 600_000);
    expect(ended.progress).toMatchObject({
      status: 'failed',
      canContinue: false,
      message: 'A aba "Clientes" foi apagada durante a importação. Rode o relatório de novo.',
    });
    expect(w.book.byName('Clientes')).toBeNull();
  });
});

describe('a cancel', () => {
  it('that comes after the run failed says it failed, and "Continuar" is still offered', () => {
    const w = world({ k1: customers(1, 7) });
    w.service.fault = () => refused(500, 'Erro interno');
    const r = w.report();
    const begun = refresh(w.deps, r.id, 'manual');
    expect(runToEnd(w, r.id)).toMatchObject({ status: 'failed', canContinue: true });
    expect(cancelRun(w.deps, r.id, begun.runId)).toMatchObject({ status: 'failed', canContinue: true, cancelLate: true, runId: begun.runId });
    expect(w.deps.jobs.get(r.id)?.state.status).toBe('failed');
  });

  it('of a consolidated run moves no stamp, not even that of a company that had finished', () => {
    const w = world({ k1: customers(1, 3), k2: customers(1, 30) });
    const r = w.report({ companies: { all: false, ids: ['k1', 'k2'] }, companyStamps: { k1: T0 - 1, k2: T0 - 1 } });
    const begun = beginRun(w.deps, r, 'manual', null);
    const step = stepRun(w.deps, begun.report, begun.job, w.now() + 1_500);
    expect(step.job.state.companies?.map((c) => c.status)).toEqual(['done', 'running']);
    cancelRun(w.deps, r.id, begun.progress.runId);
    expect(w.reports.get(r.id).companyStamps).toEqual({ k1: T0 - 1, k2: T0 - 1 });
  });
});

describe('what an ended run keeps, and whom it tells', () => {
  it('a run that ended well keeps how it walked the listing; one that failed or was cancelled keeps the last good walk', () => {
    const w = world({ k1: customers(1, 7) });
    const r = w.report();
    refresh(w.deps, r.id, 'manual');
    runToEnd(w, r.id);
    const walked = w.reports.get(r.id).lastWalk;
    expect(walked).toEqual({ base: expect.any(Number), pages: 3 });
    w.service.companies.k1 = customers(1, 12);
    w.service.fault = (asked) => (asked.page > 1 ? refused(500, 'Erro interno') : undefined);
    refresh(w.deps, r.id, 'manual');
    expect(runToEnd(w, r.id).status).toBe('failed');
    expect(w.reports.get(r.id).lastWalk).toEqual(walked);
    w.service.fault = () => undefined;
    w.service.companies.k1 = customers(1, 60);
    const begun = beginRun(w.deps, w.reports.get(r.id), 'manual', null);
    const step = stepRun(w.deps, begun.report, begun.job, w.now() + 1_500);
    expect(step.job.state.pager?.base).toBeDefined();
    cancelRun(w.deps, r.id, begun.progress.runId);
    expect(w.reports.get(r.id).lastWalk).toEqual(walked);
  });

  it('a scheduled run that ended well tells nobody; with no one to tell or no dashboards to refresh, runs still end', () => {
    const w = world({ k1: customers(1, 7) });
    const r = w.report({ schedule: { kind: 'hourly' } });
    const begun = beginRun(w.deps, r, 'agendado', null);
    expect(stepRun(w.deps, begun.report, begun.job, w.now() + 600_000).progress.status).toBe('done');
    expect(w.notified).toEqual([]);
    w.deps.notifyFailure = undefined;
    w.deps.afterReportRun = undefined;
    w.service.fault = () => refused(401);
    const failing = beginRun(w.deps, w.reports.get(r.id), 'agendado', null);
    expect(stepRun(w.deps, failing.report, failing.job, w.now() + 600_000).progress.status).toBe('failed');
    w.service.fault = () => undefined;
    const good = beginRun(w.deps, w.reports.get(r.id), 'manual', null);
    expect(stepRun(w.deps, good.report, good.job, w.now() + 600_000).progress.status).toBe('done');
    expect(w.reports.get(r.id).lastRun?.result).toBe('ok');
  });
});

describe('each block of a step', () => {
  it('reaches the document with its checkpoint; the settling parts, cheap to redo, are saved without a flush of their own', () => {
    const w = world({ k1: customers(1, 7) });
    const r = w.report();
    const begun = beginRun(w.deps, r, 'manual', null);
    const events = savesOf(w);
    expect(stepRun(w.deps, begun.report, begun.job, w.now() + 600_000).progress.status).toBe('done');
    expect(events).toEqual(['checkpoint 7', 'flush', 'checkpoint 7', 'checkpoint 7']);
  });
});

describe('the progress of a run', () => {
  it('tells no time left while no row was written yet (the sheet filters let none through)', () => {
    const w = world({ k1: customers(1, 40) });
    const r = w.report({ sheetFilters: [{ field: 'razaoSocial', op: 'igual', values: ['ninguém'] }] });
    const begun = beginRun(w.deps, r, 'manual', null);
    const run = stepRun(w.deps, begun.report, begun.job, w.now() + 1_500);
    expect(run.progress).toMatchObject({ status: 'running', rows: 0, totalRows: 40 });
    expect(run.progress.etaSeconds).toBeUndefined();
  });

  it("of a report with no job names the report's last run, so a cancel names it too; a report never run names none", () => {
    const w = world({ k1: customers(1, 7) });
    const r = w.report();
    const never = continueRun(w.deps, r.id, w.now());
    expect(never).toMatchObject({ runId: '', firstRun: false, done: true });
    const begun = refresh(w.deps, r.id, 'manual');
    expect(begun.firstRun).toBe(true);
    runToEnd(w, r.id);
    expect(continueRun(w.deps, r.id, w.now())).toMatchObject({ runId: String(T0), firstRun: false, status: 'done', rows: 7 });
  });
});

describe('a run beginning', () => {
  it('of an incremental report says so on the card while it runs', () => {
    const w = world({ k1: invoices(1, 5) });
    const r = w.report({ listing: 'faturas', sheetName: 'Faturas', incremental: true });
    expect(refresh(w.deps, r.id, 'manual').incremental).toBe(false);
    expect(w.reports.get(r.id).lastRun).toMatchObject({ result: 'em andamento', incremental: false });
    runToEnd(w, r.id);
    expect(refresh(w.deps, r.id, 'manual').incremental).toBe(true);
    expect(w.reports.get(r.id).lastRun).toMatchObject({ result: 'em andamento', incremental: true });
  });

  it('of a consolidated report pointed at a sheet laid out for one company pulls every company whole', () => {
    const w = world({ k1: invoices(1, 3), k2: invoices(1, 2) });
    const one = w.report({ listing: 'faturas', sheetName: 'Faturas' });
    refresh(w.deps, one.id, 'manual');
    runToEnd(w, one.id);
    const sheetId = w.reports.get(one.id).sheetId;
    w.reports.delete(one.id);
    const consolidated = w.report({
      listing: 'faturas',
      sheetName: 'Faturas',
      sheetId,
      incremental: true,
      companies: { all: false, ids: ['k1', 'k2'] },
      companyStamps: { k1: T0, k2: T0 },
      lastSuccessStart: T0,
    });
    const begun = beginFromForm(w.deps, consolidated, null, lookAtSheet(w.deps.book, consolidated, { consolidated: true }));
    expect(begun.started).toBe(true);
    expect(begun.progress.incremental).toBe(false);
    expect(begun.job.state.spec.companies?.map((c) => c.mode)).toEqual(['replace', 'replace']);
  });
});
