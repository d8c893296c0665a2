/**
 * What an execution costs beyond its calls: the start-up every execution pays
 * before its first line (a time-driven trigger's event tells when it fired,
 * before that), and opening another spreadsheet by id, charged the first time
 * an execution opens it. And the quotas of the kind of account.
 */
import { describe, expect, it } from 'vitest';
import { COST_MODELS } from '../../dev/gas/clock';
import { ACCOUNT_QUOTAS, GasEmulator } from '../../dev/gas/runner';
import { fixture } from './helpers';

const CODE = `
var FIRST_LINE = Date.now();
function nothing() {}
function install() { ScriptApp.newTrigger('fired').timeBased().everyHours(1).create(); }
function fired(e) {
  var at = Date.UTC(e.year, e.month - 1, e['day-of-month'], e.hour, e.minute, e.second);
  Logger.log(JSON.stringify({ zone: e.timezone, fired: at, firstLine: FIRST_LINE }));
}
function open(ids) { for (var i = 0; i < ids.length; i++) SpreadsheetApp.openById(ids[i]).getName(); }
function mailLeft() { return MailApp.getRemainingDailyQuota(); }
`;

/** Every call free: what is left is what an execution pays beyond its calls. */
const free = { spreadsheetCallMs: 0, cellWriteMs: 0, cellReadMs: 0, formatCellMs: 0, flushMs: 0, urlFetchCallMs: 0, propertyCallMs: 0, otherCallMs: 0 };

describe('what an execution pays beyond its calls', () => {
  it('every execution pays the start-up before its first line, whatever it then does', () => {
    const emu = fixture(CODE, { costs: { ...free, startupMs: 1_234, openByIdMs: 0 } });
    const report = emu.execute('nothing');
    expect(report.counters.virtualMs).toBe(1_234);
    expect(report.counters.serviceCalls).toBe(0);
    expect(COST_MODELS.pessimistic.startupMs).toBeGreaterThanOrEqual(1_000);
    expect(COST_MODELS.optimistic.startupMs).toBeGreaterThan(0);
  });

  it('a time-driven trigger’s event tells when it fired, to the second, before the start-up: the first line comes that much later', () => {
    const emu = fixture(CODE, { costs: { ...free, startupMs: 700, openByIdMs: 0 }, startAt: new Date('2026-03-02T10:00:00.250Z') });
    emu.run('install');
    const [report] = emu.runDueTriggers(new Date('2026-03-02T11:30:00Z'));
    expect(report.status).toBe('ok');
    const seen = JSON.parse(String(report.logs[0].message)) as { zone: string; fired: number; firstLine: number };
    expect(seen.zone).toBe('UTC');
    expect(seen.fired).toBe(report.startedAt.getTime() - (report.startedAt.getTime() % 1000));
    expect(seen.firstLine - report.startedAt.getTime()).toBe(700);
    // The whole execution, start-up included, counts against the day's trigger time.
    expect(report.counters.virtualMs).toBe(700);
    expect(emu.triggerMsToday('contador@example.com.br')).toBe(700);
  });

  it('opening another spreadsheet by id costs its load the first time an execution opens it; the active one is at hand', () => {
    const emu = fixture(CODE, { costs: { ...free, startupMs: 0, openByIdMs: 2_000 } });
    const other = emu.addSpreadsheet({ name: 'Cliente' }).id;
    expect(emu.execute('open', [[emu.spreadsheet.id]]).counters.virtualMs).toBe(0);
    expect(emu.execute('open', [[other]]).counters.virtualMs).toBe(2_000);
    expect(emu.execute('open', [[other, other, emu.spreadsheet.id]]).counters.virtualMs).toBe(2_000);
    expect(COST_MODELS.pessimistic.openByIdMs).toBeGreaterThanOrEqual(2_000);
  });
});

describe('the kind of account', () => {
  it('sets the daily quotas: a Workspace account has 6 hours of triggers and 1,500 e-mail recipients, a consumer one 90 minutes and 100', () => {
    expect(ACCOUNT_QUOTAS).toEqual({
      consumer: { urlFetchPerDay: 20_000, propertyOpsPerDay: 50_000, emailsPerDay: 100, triggerMinutesPerDay: 90 },
      workspace: { urlFetchPerDay: 100_000, propertyOpsPerDay: 500_000, emailsPerDay: 1_500, triggerMinutesPerDay: 360 },
    });
    expect(fixture(CODE).run('mailLeft')).toBe(100);
    const workspace = fixture(CODE, { account: 'workspace' });
    expect(workspace.run('mailLeft')).toBe(1_500);
    expect(workspace.triggerQuota.limit).toBe(360 * 60_000);
    expect(new GasEmulator({ code: CODE, account: 'workspace', quotas: { triggerMinutesPerDay: 5 } }).triggerQuota.limit).toBe(5 * 60_000);
  });
});
