/**
 * Pausing a company's schedules from the Central: a set in the user's
 * properties, refused when it would not fit, and the hourly run that skips
 * the scheduled starts of the paused company's reports (one Histórico line
 * each, no run, no e-mail) while the other companies' reports run.
 */
import { describe, expect, it } from 'vitest';
import { dispatch, type StoredWork } from '../../../src/core/hourly/dispatch';
import { isPaused, PausedFullError, pauseCompany, pausedCompanies, pausedReport, reportCompanies } from '../../../src/core/hourly/paused';
import type { Report } from '../../../src/core/reports/reports';
import type { BulkDeps } from '../../../src/core/bulk/state';
import { MemoryStore } from '../bulk/fixtures';
import { customers } from '../fake-service';
import { HOUR, T0, world } from '../runs/run-world';

const MINUTE = 60_000;
const KEY = 'faturamento.pausadas';
const CONNECTIONS = [
  { id: 'k1', name: 'Empresa k1' },
  { id: 'k2', name: 'Empresa k2' },
];

describe('the paused companies', () => {
  it('are kept in one property, written only when they change, and gone when none is paused', () => {
    const store = new MemoryStore();
    pauseCompany(store, 'k2', true);
    pauseCompany(store, 'k1', true);
    expect(store.map.get(KEY)).toBe('["k1","k2"]');
    expect([isPaused(store, 'k1'), isPaused(store, 'k3')]).toEqual([true, false]);
    store.frozen = true;
    // Pausing again what is paused writes nothing (a frozen store throws on any write).
    pauseCompany(store, 'k1', true);
    pauseCompany(store, 'k3', false);
    store.frozen = false;
    pauseCompany(store, 'k1', false);
    expect([...pausedCompanies(store)]).toEqual(['k2']);
    pauseCompany(store, 'k2', false);
    expect(store.map.has(KEY)).toBe(false);
  });

  it('refuses a pause the property cannot hold, keeping what was paused', () => {
    const store = new MemoryStore();
    const id = (i: number) => `${String(i).padStart(8, '0')}-0000-4000-8000-000000000000`;
    let i = 0;
    expect(() => {
      for (; i < 1_000; i++) pauseCompany(store, id(i), true);
    }).toThrow(PausedFullError);
    expect(() => pauseCompany(store, id(i), true)).toThrow(/pausadas demais/);
    expect(i).toBeGreaterThan(200);
    expect(pausedCompanies(store).size).toBe(i);
    expect(isPaused(store, id(i))).toBe(false);
  });

  it('reads a stored value that is not a list of ids as none paused', () => {
    const store = new MemoryStore();
    store.set(KEY, '{"k1":true}');
    expect(pausedCompanies(store).size).toBe(0);
    store.set(KEY, '["k1",2]');
    expect([...pausedCompanies(store)]).toEqual(['k1']);
  });

  it("knows a report's companies: its connection, a consolidated report's, all of them, or by name for an old report", () => {
    const r = (fields: Partial<Report>) => ({ name: 'r', connection: 'Empresa k2', ...fields }) as Report;
    expect(reportCompanies(r({ connectionId: 'k1' }), CONNECTIONS)).toEqual(['k1']);
    expect(reportCompanies(r({ companies: { all: false, ids: ['k2', 'k9'] } }), CONNECTIONS)).toEqual(['k2', 'k9']);
    expect(reportCompanies(r({ companies: { all: true, ids: [] } }), CONNECTIONS)).toEqual(['k1', 'k2']);
    expect(reportCompanies(r({}), CONNECTIONS)).toEqual(['k2']);
    expect(reportCompanies(r({ connection: 'Outra' }), CONNECTIONS)).toEqual([]);
    // A consolidated report is skipped only when every company of it is paused.
    const both = r({ companies: { all: false, ids: ['k1', 'k2'] } });
    expect(pausedReport(both, new Set(['k1']), CONNECTIONS)).toBe(false);
    expect(pausedReport(both, new Set(['k1', 'k2']), CONNECTIONS)).toBe(true);
    expect(pausedReport(r({ connection: 'Outra' }), new Set(['k1', 'k2']), CONNECTIONS)).toBe(false);
  });
});

describe('the hourly run with a company paused', () => {
  const noBulk = {} as BulkDeps;
  it("skips the paused company's due report with a line in Histórico, runs the other's, and runs it again once resumed", () => {
    const w = world({ k1: customers(1, 7), k2: customers(2, 5) });
    const paused = w.report({ name: 'Pausado', sheetName: 'P', schedule: { kind: 'hourly' }, scheduleSince: T0 - HOUR });
    const running = w.report({
      name: 'Outro',
      sheetName: 'O',
      connection: 'Empresa k2',
      connectionId: 'k2',
      schedule: { kind: 'hourly' },
      scheduleSince: T0 - HOUR,
    });
    const stored = (): StoredWork => ({ reports: w.reports.list(), pulls: w.deps.jobs.list(), bulk: [] });
    const result = dispatch({ runs: w.deps, bulk: noBulk }, stored(), w.now() + 5 * MINUTE, { paused: new Set(['k1']) });
    expect(result).toEqual({ continued: [], started: [running.id], bulk: [], left: [], paused: [paused.id] });
    const skipped = w.reports.get(paused.id);
    expect(skipped.lastRun).toBeUndefined();
    // The schedule counts from the skipped start: due again in an hour, not at once.
    expect(skipped.scheduleSince).toBe(T0);
    expect(w.notified).toEqual([]);
    expect(w.book.byName('P')).toBeNull();
    expect(w.history().map((h) => [h.Relatório, h.Origem, h.Linhas, h.Resultado, h.Mensagem])).toEqual([
      ['Pausado', 'Agendado', 0, 'PAUSADO', 'Agendamento pausado na Central'],
      ['Outro', 'Agendado', 5, 'OK', ''],
    ]);
    const lines = () => w.history().filter((h) => h.Resultado === 'PAUSADO').length;
    // Still paused an hour later: skipped again, the schedule moved on, and Histórico is not told twice.
    w.tick(HOUR);
    const hourLater = w.now();
    const again = dispatch({ runs: w.deps, bulk: noBulk }, stored(), w.now() + 5 * MINUTE, { paused: new Set(['k1']) });
    expect(again.paused).toEqual([paused.id]);
    expect(w.reports.get(paused.id).scheduleSince).toBe(hourLater);
    expect(lines()).toBe(1);
    w.tick(HOUR);
    const resumed = dispatch({ runs: w.deps, bulk: noBulk }, stored(), w.now() + 5 * MINUTE, { paused: new Set() });
    expect(resumed.started.sort()).toEqual([paused.id, running.id].sort());
    expect(resumed.paused).toBeUndefined();
    expect(w.reports.get(paused.id).lastRun).toMatchObject({ result: 'ok', rows: 7 });
    expect(w.reports.get(paused.id).pauseNoted).toBeUndefined();
    // Paused again after a run: Histórico says so again.
    w.tick(HOUR);
    dispatch({ runs: w.deps, bulk: noBulk }, stored(), w.now() + 5 * MINUTE, { paused: new Set(['k1']) });
    expect(lines()).toBe(2);
  });
});
