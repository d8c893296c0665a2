/**
 * Each platform constant of the emulator, shown biting: the fetch that hangs,
 * fetchAll's concurrency, the cost of cells, formats, flush and properties,
 * the daily quotas and the allow-list.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allowed, prefixProblem } from '../../dev/gas/allow-list';
import { COST_MODELS, FETCH_ALL_CONCURRENCY, URL_FETCH_DEADLINE_MS } from '../../dev/gas/clock';
import { GasEmulator, TRIGGER_QUOTA_MESSAGE } from '../../dev/gas/runner';
import type { Transport } from '../../src/api/transport';
import { fixture, startEchoServer } from './helpers';

const CODE = `
function get(url) { return UrlFetchApp.fetch(url, { muteHttpExceptions: true, timeout: 5 }).getResponseCode(); }
function many(urls) { return UrlFetchApp.fetchAll(urls).length; }
function loop(url, n) { for (var i = 0; i < n; i++) UrlFetchApp.fetch(url); return n; }
function write(rows, cols) {
  var sheet = SpreadsheetApp.getActiveSheet();
  sheet.insertRowsAfter(sheet.getMaxRows(), rows);
  sheet.insertColumnsAfter(sheet.getMaxColumns(), cols);
  var grid = [];
  for (var r = 0; r < rows; r++) { var row = []; for (var c = 0; c < cols; c++) row.push(r); grid.push(row); }
  sheet.getRange(1, 1, rows, cols).setValues(grid);
}
function formats(rows, cols) {
  var grid = [];
  for (var r = 0; r < rows; r++) { var row = []; for (var c = 0; c < cols; c++) row.push('@'); grid.push(row); }
  SpreadsheetApp.getActiveSheet().getRange(1, 1, rows, cols).setNumberFormats(grid);
}
function flush() { SpreadsheetApp.flush(); }
function props(n) { var p = PropertiesService.getUserProperties(); for (var i = 0; i < n; i++) p.setProperty('k' + i, 'v'); }
function install() { ScriptApp.newTrigger('work').timeBased().everyHours(1).create(); }
function work() { Utilities.sleep(5 * 60 * 1000); }
`;

let server: { base: string; stop: () => void };
beforeAll(async () => {
  server = await startEchoServer();
});
afterAll(() => server.stop());

const quiet = { costs: { ...COST_MODELS.pessimistic, urlFetchCallMs: 0, propertyCallMs: 0, otherCallMs: 0, spreadsheetCallMs: 0, startupMs: 0 } };

describe('UrlFetchApp as Apps Script has it', () => {
  it('takes no time-out option: a request that hangs costs 60 s and fails with "Timeout"', () => {
    const emu = fixture(CODE, { urlFetchTimeoutMs: 200, ...quiet });
    const report = emu.execute('get', [`${server.base}/hang`]);
    expect(report.error?.message).toBe(`Timeout: ${server.base}/hang`);
    expect(report.counters.virtualMs).toBeGreaterThanOrEqual(URL_FETCH_DEADLINE_MS);
    expect(report.counters.virtualMs).toBeLessThan(URL_FETCH_DEADLINE_MS + 1000);
  });

  it('fetchAll sends at most FETCH_ALL_CONCURRENCY requests at once: 25 requests are 3 round trips', () => {
    const emu = fixture(CODE, { costs: { urlFetchCallMs: 1000, otherCallMs: 0, startupMs: 0 } });
    const report = emu.execute('many', [Array.from({ length: 25 }, () => `${server.base}/echo`)]);
    expect(report.status).toBe('ok');
    expect(report.counters.virtualMs).toBe(Math.ceil(25 / FETCH_ALL_CONCURRENCY) * 1000);
  });

  it('adds seeded latency and jitter to every round trip', () => {
    const run = () =>
      fixture(CODE, { costs: { urlFetchCallMs: 0, otherCallMs: 0 }, latency: { ms: 300, jitterMs: 200, seed: 7 } }).execute('loop', [`${server.base}/echo`, 5]);
    const a = run();
    expect(a.counters.virtualMs).toBeGreaterThanOrEqual(5 * 300);
    expect(a.counters.virtualMs).toBeLessThan(5 * 500);
    expect(a.counters.virtualMs).not.toBe(5 * 300);
    expect(run().counters.virtualMs).toBe(a.counters.virtualMs);
  });

  it('the 20,001st fetch of the day fails with Apps Script’s message', () => {
    const transport: Transport = {
      fetch: () => ({ kind: 'response', status: 200, headers: {}, body: 'ok' }),
      fetchAll: (reqs) => reqs.map(() => ({ kind: 'response', status: 200, headers: {}, body: 'ok' })),
    };
    const emu = fixture(CODE, { transport, costs: { urlFetchCallMs: 0, otherCallMs: 0 }, urlFetchWhitelist: ['https://api.example.com/'] });
    expect(emu.execute('loop', ['https://api.example.com/x', 20_000]).status).toBe('ok');
    expect(emu.execute('loop', ['https://api.example.com/x', 1]).error?.message).toBe('Service invoked too many times for one day: urlfetch.');
  });
});

describe('the allow-list, with Google’s matching rules', () => {
  it('matches a prefix and its children only', () => {
    const list = ['https://api.example.com/v2', 'https://*.faturas.com.br/'];
    expect(allowed('https://api.example.com/v2', list)).toBe(true);
    expect(allowed('https://api.example.com/v2/clientes?x=1', list)).toBe(true);
    expect(allowed('https://API.example.com/v2?x', list)).toBe(true);
    expect(allowed('https://api.example.com/v2x', list)).toBe(false);
    expect(allowed('https://api.example.com/V2', list)).toBe(false);
    expect(allowed('http://api.example.com/v2', list)).toBe(false);
    expect(allowed('https://api.example.com:8443/v2', list)).toBe(false);
    expect(allowed('https://a.faturas.com.br/v2', list)).toBe(true);
    expect(allowed('https://faturas.com.br.evil.io/', list)).toBe(false);
    expect(prefixProblem('https://api.example.com')).toMatch(/non-empty path/);
    expect(prefixProblem('http://api.example.com/')).toMatch(/https/);
    expect(prefixProblem('https://*.example.com/')).toBeNull();
  });

  it('is enforced by default from the bundle’s manifest: a host it does not list is refused', () => {
    const emu = new GasEmulator({ countRealTime: false });
    const err = (() => {
      try {
        emu.withServices((s) => s.UrlFetchApp.fetch(`${server.base}/echo`));
      } catch (e) {
        return (e as Error).message;
      }
    })();
    expect(err).toMatch(/not in the urlFetchWhitelist/);
  });
});

describe('what Sheets calls cost', () => {
  it('a write of a quarter of a million cells costs what the model says (pessimistic: 150 µs a cell)', () => {
    const emu = fixture(CODE, quiet);
    const report = emu.execute('write', [500, 500]);
    expect(report.status).toBe('ok');
    expect(report.counters.cellsWritten).toBe(250_000);
    // The cells, and the flush that applies them when the execution ends.
    expect(report.counters.virtualMs).toBeCloseTo(250_000 * COST_MODELS.pessimistic.cellWriteMs + COST_MODELS.pessimistic.flushMs, -1);
  });

  it('setNumberFormats costs per cell, flush() hundreds of ms, a property call tens of ms', () => {
    const emu = fixture(CODE, quiet);
    expect(emu.execute('formats', [1000, 10]).counters.virtualMs).toBeCloseTo(10_000 * COST_MODELS.pessimistic.formatCellMs, 0);
    expect(emu.execute('flush').counters.virtualMs).toBe(COST_MODELS.pessimistic.flushMs);
    const props = fixture(CODE, { costs: { ...COST_MODELS.pessimistic, otherCallMs: 0, startupMs: 0 } }).execute('props', [10]);
    expect(props.counters.virtualMs).toBe(10 * COST_MODELS.pessimistic.propertyCallMs);
  });
});

describe('trigger runtime per day', () => {
  it('after 90 minutes of trigger runs in a quota day, the next run fails until 24 hours after that day’s first request (not midnight)', () => {
    const emu = fixture(CODE, { startAt: new Date('2026-03-02T00:10:00Z') });
    emu.run('install');
    const statuses: string[] = [];
    for (let h = 1; h <= 19; h++) {
      const [report] = emu.runDueTriggers(new Date(Date.UTC(2026, 2, 2, h, 30)));
      statuses.push(report.status === 'ok' ? 'ok' : (report.error?.message ?? report.status));
    }
    expect(statuses.slice(0, 18)).toEqual(Array(18).fill('ok'));
    expect(statuses[18]).toBe(TRIGGER_QUOTA_MESSAGE);
    // The quota day began with the first run, at 01:10 UTC: past midnight UTC it is still spent.
    emu.runDueTriggers(new Date(Date.UTC(2026, 2, 3, 0, 5)));
    const [pastMidnight] = emu.runDueTriggers(new Date(Date.UTC(2026, 2, 3, 1, 6)));
    expect(pastMidnight.error?.message).toBe(TRIGGER_QUOTA_MESSAGE);
    const [nextDay] = emu.runDueTriggers(new Date(Date.UTC(2026, 2, 3, 2, 10)));
    expect(nextDay.error?.message).toBeUndefined();
  });
});
