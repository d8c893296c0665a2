import { describe, expect, it } from 'vitest';
import { ADDON_FREQUENCY_MESSAGE, ADDON_TRIGGER_LIMIT_MESSAGE } from '../../dev/gas/script-app';
import { fixture } from './helpers';

const CODE = `
function schedule(kind, n) {
  var b = ScriptApp.newTrigger('tick').timeBased();
  if (kind === 'hours') b.everyHours(n);
  if (kind === 'minutes') b.everyMinutes(n);
  if (kind === 'days') b.everyDays(n).atHour(9).nearMinute(0);
  if (kind === 'after') b.after(n);
  var t = b.create();
  return [t.getHandlerFunction(), t.getUniqueId(), String(t.getEventType()), String(t.getTriggerSource())];
}
function list() {
  return ScriptApp.getUserTriggers(SpreadsheetApp.getActiveSpreadsheet()).map(function (t) { return t.getHandlerFunction(); });
}
function clear() { ScriptApp.getProjectTriggers().forEach(function (t) { ScriptApp.deleteTrigger(t); }); }
function tick(e) {
  var p = PropertiesService.getScriptProperties();
  p.setProperty('ticks', String(Number(p.getProperty('ticks') || 0) + 1));
  p.setProperty('lastEvent', JSON.stringify({ authMode: String(e.authMode), uid: e.triggerUid, hour: e.hour, at: new Date().toISOString() }));
  try { SpreadsheetApp.getUi(); } catch (err) { p.setProperty('ui', err.message); }
}
`;

describe('time-driven triggers under the editor add-on rules', () => {
  it('allows one time-driven trigger per user per document', () => {
    const emu = fixture(CODE);
    expect(emu.run('schedule', ['hours', 1])).toEqual(['tick', expect.any(String), 'CLOCK', 'CLOCK']);
    const second = emu.execute('schedule', ['after', 60_000]);
    expect(second.error?.message).toBe(ADDON_TRIGGER_LIMIT_MESSAGE);
    // Another user of the same document has their own allowance.
    expect(emu.execute('schedule', ['days', 1], { user: 'socio@example.com.br' }).status).toBe('ok');
    expect(emu.run('list')).toEqual(['tick']);
    emu.run('clear');
    expect(emu.run('list')).toEqual([]);
    expect(emu.execute('schedule', ['after', 60_000]).status).toBe('ok');
  });

  it('refuses triggers more frequent than hourly', () => {
    const emu = fixture(CODE);
    expect(emu.execute('schedule', ['minutes', 30]).error?.message).toBe(ADDON_FREQUENCY_MESSAGE);
    expect(emu.execute('schedule', ['hours', 3]).error?.message).toMatch(/everyHours must be 1, 2, 4, 6, 8 or 12/);
  });

  it('outside add-on mode, everyMinutes and several triggers are allowed', () => {
    const emu = fixture(CODE, { addon: false });
    expect(emu.execute('schedule', ['minutes', 5]).status).toBe('ok');
    expect(emu.execute('schedule', ['hours', 1]).status).toBe('ok');
  });

  it('fires due triggers with an event, in FULL mode, without a UI, and reschedules them', () => {
    const emu = fixture(CODE);
    const start = emu.now;
    emu.run('schedule', ['hours', 1]);
    expect(emu.runDueTriggers(new Date(start + 30 * 60_000))).toEqual([]);
    const reports = emu.runDueTriggers(new Date(start + 61 * 60_000));
    expect(reports.map((r) => [r.functionName, r.status, r.kind, r.authMode])).toEqual([['tick', 'ok', 'trigger', 'FULL']]);
    const event = JSON.parse(emu.properties.script.get('lastEvent')!);
    expect(event.authMode).toBe('FULL');
    expect(event.uid).toBe(emu.triggers.triggers[0].id);
    expect(new Date(event.at).getTime()).toBeGreaterThanOrEqual(start + 60 * 60_000);
    expect(emu.properties.script.get('ui')).toBe('Cannot call SpreadsheetApp.getUi() from this context.');
    // Five hours later it fires once, not once per missed hour.
    expect(emu.runDueTriggers(new Date(start + 6 * 3_600_000))).toHaveLength(1);
    expect(emu.properties.script.get('ticks')).toBe('2');
  });

  it('a fired one-shot trigger stays listed and keeps blocking the add-on slot until deleted', () => {
    const emu = fixture(CODE);
    emu.run('schedule', ['after', 60_000]);
    expect(emu.runDueTriggers(new Date(emu.now + 120_000))).toHaveLength(1);
    expect(emu.runDueTriggers(new Date(emu.now + 3_600_000))).toHaveLength(0);
    expect(emu.run('list')).toEqual(['tick']);
    expect(emu.execute('schedule', ['hours', 1]).error?.message).toBe(ADDON_TRIGGER_LIMIT_MESSAGE);
  });

  it('everyDays().atHour(9) fires at 9:00 in the script time zone', () => {
    const emu = fixture(CODE, { startAt: new Date('2026-03-02T10:00:00-03:00') });
    emu.run('schedule', ['days', 1]);
    expect(new Date(emu.triggers.triggers[0].nextRun).toISOString()).toBe('2026-03-03T12:00:00.000Z');
  });
});

describe('trigger schedules', () => {
  const tz = 'America/Sao_Paulo';
  // Monday 2 March 2026, 10:00 in São Paulo.
  const from = Date.parse('2026-03-02T10:00:00-03:00');

  it.each([
    [{ everyHours: 2, timeZone: tz }, '2026-03-02T15:00:00.000Z'],
    [{ everyHours: 1, nearMinute: 30, timeZone: tz }, '2026-03-02T14:30:00.000Z'],
    [{ everyDays: 1, atHour: 6, timeZone: tz }, '2026-03-03T09:00:00.000Z'],
    [{ everyDays: 1, atHour: 18, timeZone: tz }, '2026-03-02T21:00:00.000Z'],
    [{ onWeekDay: 5, everyWeeks: 1, atHour: 8, timeZone: tz }, '2026-03-06T11:00:00.000Z'],
    [{ onMonthDay: 1, atHour: 7, timeZone: tz }, '2026-04-01T10:00:00.000Z'],
    [{ afterMs: 90_000, timeZone: tz }, '2026-03-02T13:01:30.000Z'],
  ])('%j next runs at %s', async (spec, expected) => {
    const { nextRunAfter } = await import('../../dev/gas/script-app');
    expect(new Date(nextRunAfter(spec, from)).toISOString()).toBe(expected);
  });
});
