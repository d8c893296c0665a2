/**
 * Time-driven triggers as Google runs them: sometimes late (in the next hour)
 * or not at all in an hour; one user's executions overlapping, a trigger
 * starting while another of theirs still runs; at most 30 of a user's
 * executions at once. Kinder before: every run on time, one after another,
 * however many.
 */
import { describe, expect, it } from 'vitest';
import type { ExecutionReport } from '../../dev/gas/runner';
import { MAX_SIMULTANEOUS_EXECUTIONS, TOO_MANY_SCRIPTS_MESSAGE } from '../../dev/gas/runner';
import { fixture } from './helpers';

const CODE = `
function install() { ScriptApp.newTrigger('tick').timeBased().everyHours(1).create(); }
function tick() {
  var p = PropertiesService.getUserProperties();
  var runs = JSON.parse(p.getProperty('runs') || '[]');
  runs.push(new Date().toISOString());
  p.setProperty('runs', JSON.stringify(runs));
}
function longTick() {
  var id = SpreadsheetApp.getActiveSpreadsheet().getId();
  var p = PropertiesService.getUserProperties();
  var got = LockService.getUserLock().tryLock(60000);
  p.setProperty('start:' + id, new Date().toISOString() + ' ' + got);
  for (var i = 0; i < 3; i++) Utilities.sleep(60000);
  p.setProperty('end:' + id, new Date().toISOString());
}
function installLong() { ScriptApp.newTrigger('longTick').timeBased().everyHours(1).create(); }
function touch() { return PropertiesService.getScriptProperties().getProperty('x'); }
`;

const HOUR = 3_600_000;
const USER = 'ana@example.com.br';
const START = new Date('2026-03-02T10:00:00-03:00');

/** The hours (São Paulo, "HH") of each run a day of hourly calls of runDueTriggers saw. */
function aDay(options: Parameters<typeof fixture>[1]): string[] {
  const emu = fixture(CODE, { user: USER, startAt: START, ...options });
  emu.run('install');
  for (let h = 1; h <= 24; h++) emu.runDueTriggers(new Date(START.getTime() + h * HOUR + 59 * 60_000));
  const runs = JSON.parse(emu.properties.userStore(USER).get('runs') ?? '[]') as string[];
  return runs.map((iso) => new Date(new Date(iso).getTime() - 3 * HOUR).toISOString().slice(11, 13));
}

describe('late and skipped runs', () => {
  it('a late run comes in the next hour, at a minute of its own', () => {
    const emu = fixture(CODE, { user: USER, startAt: START, triggerFaults: { late: 1 } });
    emu.run('install');
    // Due at 11:00: nothing in the 11 o'clock hour, then the run comes during the 12 o'clock one.
    expect(emu.runDueTriggers(new Date('2026-03-02T11:59:00-03:00'))).toEqual([]);
    const [late] = emu.runDueTriggers(new Date('2026-03-02T12:59:59-03:00'));
    expect(late.status).toBe('ok');
    expect(late.startedAt.getTime()).toBeGreaterThanOrEqual(Date.parse('2026-03-02T12:00:00-03:00'));
  });

  it('some hours have no run, the same ones for the same seed; the schedule goes on after them', () => {
    const onTime = aDay({});
    expect(onTime).toHaveLength(24);
    const skipping = aDay({ triggerFaults: { skipped: 0.25, seed: 3 } });
    expect(skipping.length).toBeGreaterThan(12);
    expect(skipping.length).toBeLessThan(24);
    expect(aDay({ triggerFaults: { skipped: 0.25, seed: 3 } })).toEqual(skipping);
    // Hours with no run at all.
    expect(onTime.filter((h) => !skipping.includes(h)).length).toBeGreaterThan(0);
  });
});

describe('one user’s executions overlap', () => {
  it('a trigger due while another of the same user runs starts inside it, and meets its lock', () => {
    const emu = fixture(CODE, { user: USER, startAt: START });
    emu.addSpreadsheet({ id: 'cliente-a', name: 'A' });
    emu.addSpreadsheet({ id: 'cliente-b', name: 'B' });
    emu.run('installLong', [], { documentId: 'cliente-a' });
    emu.now += 2 * 60_000;
    emu.run('installLong', [], { documentId: 'cliente-b' });
    const reports = emu.runDueTriggers(new Date(START.getTime() + HOUR + 30 * 60_000));
    expect(reports.map((r) => r.status)).toEqual(['ok', 'ok']);
    const [a, b] = reports;
    // B's time (2 minutes after A's) came while A slept for 3 minutes: it started then, not after A.
    expect(b.startedAt.getTime()).toBeLessThan(a.endedAt.getTime());
    const started = (id: string) => (emu.properties.userStore(USER).get(`start:${id}`) ?? '').split(' ')[1];
    expect(started('cliente-a')).toBe('true');
    // A held the user lock: B waited its 60 s for it and gave up.
    expect(started('cliente-b')).toBe('false');
  });

  it('can be turned off: then each runs after the one before', () => {
    const emu = fixture(CODE, { user: USER, startAt: START, overlappingTriggers: false });
    emu.addSpreadsheet({ id: 'cliente-a', name: 'A' });
    emu.addSpreadsheet({ id: 'cliente-b', name: 'B' });
    emu.run('installLong', [], { documentId: 'cliente-a' });
    emu.now += 2 * 60_000;
    emu.run('installLong', [], { documentId: 'cliente-b' });
    const [a, b] = emu.runDueTriggers(new Date(START.getTime() + HOUR + 30 * 60_000));
    expect(b.startedAt.getTime()).toBeGreaterThanOrEqual(a.endedAt.getTime());
  });

  it(`at most ${MAX_SIMULTANEOUS_EXECUTIONS} at once per user: the next fails with Google’s words, another user’s runs`, () => {
    const emu = fixture(CODE, { user: USER });
    const reports: ExecutionReport[] = [];
    let started = 0;
    const start = (user: string) => {
      started++;
      const onServiceCall = () => {
        if (started <= MAX_SIMULTANEOUS_EXECUTIONS) start(USER);
      };
      reports.push(emu.execute('touch', [], { user, onServiceCall }));
    };
    start(USER);
    expect(started).toBe(MAX_SIMULTANEOUS_EXECUTIONS + 1);
    const failed = reports.filter((r) => r.status !== 'ok');
    expect(failed.map((r) => r.error?.message)).toEqual([TOO_MANY_SCRIPTS_MESSAGE]);
    // With thirty of Ana's running, another user's execution goes through.
    let other: ExecutionReport | undefined;
    let depth = 0;
    const deeper = () => {
      depth++;
      emu.execute('touch', [], {
        onServiceCall: () => {
          if (depth < MAX_SIMULTANEOUS_EXECUTIONS) deeper();
          else if (!other) other = emu.execute('touch', [], { user: 'bia@example.com.br' });
        },
      });
    };
    deeper();
    expect(other?.status).toBe('ok');
    // Once they ended, Ana runs again.
    expect(emu.execute('touch').status).toBe('ok');
  });
});
