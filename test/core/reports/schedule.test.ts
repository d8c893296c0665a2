import { describe, expect, it } from 'vitest';
import { intlZone } from '../../../src/api/calendar';
import { describeSchedule, isDue, nextRun, scheduleProblems } from '../../../src/core/reports/schedule';

const zone = intlZone('America/Sao_Paulo');
// São Paulo is UTC-3 all year since 2019.
const sp = (iso: string) => new Date(`${iso}-03:00`);

describe('schedules in the spreadsheet time zone', () => {
  it('hourly and every N hours count from the top of the hour of the last run', () => {
    expect(nextRun({ kind: 'hourly' }, sp('2026-11-22T09:37:00'), zone)).toEqual(sp('2026-11-22T10:00:00'));
    expect(nextRun({ kind: 'everyHours', hours: 6 }, sp('2026-11-22T21:10:00'), zone)).toEqual(sp('2026-11-23T03:00:00'));
  });

  it('daily runs at the hour, today if still ahead', () => {
    expect(nextRun({ kind: 'daily', hour: 7 }, sp('2026-11-22T06:59:00'), zone)).toEqual(sp('2026-11-22T07:00:00'));
    expect(nextRun({ kind: 'daily', hour: 7 }, sp('2026-11-22T07:00:00'), zone)).toEqual(sp('2026-11-23T07:00:00'));
  });

  it('weekly runs on the weekday (22/11/2026 is a Sunday)', () => {
    expect(nextRun({ kind: 'weekly', weekday: 1, hour: 8 }, sp('2026-11-22T10:00:00'), zone)).toEqual(sp('2026-11-23T08:00:00'));
    expect(nextRun({ kind: 'weekly', weekday: 0, hour: 8 }, sp('2026-11-22T10:00:00'), zone)).toEqual(sp('2026-11-29T08:00:00'));
  });

  it('monthly on day 31 falls on the last day of shorter months', () => {
    expect(nextRun({ kind: 'monthly', day: 31, hour: 6 }, sp('2026-11-01T00:00:00'), zone)).toEqual(sp('2026-11-30T06:00:00'));
    expect(nextRun({ kind: 'monthly', day: 31, hour: 6 }, sp('2027-02-01T00:00:00'), zone)).toEqual(sp('2027-02-28T06:00:00'));
    expect(nextRun({ kind: 'monthly', day: 5, hour: 6 }, sp('2026-11-05T07:00:00'), zone)).toEqual(sp('2026-12-05T06:00:00'));
  });

  it('is due once the planned run has come, whatever the jitter of the trigger', () => {
    const since = sp('2026-11-21T07:40:00');
    expect(isDue({ kind: 'daily', hour: 7 }, since, sp('2026-11-22T06:59:00'), zone)).toBe(false);
    expect(isDue({ kind: 'daily', hour: 7 }, since, sp('2026-11-22T07:48:00'), zone)).toBe(true);
  });

  it('describes and validates in Portuguese', () => {
    expect(describeSchedule({ kind: 'weekly', weekday: 1, hour: 8 })).toBe('toda segunda-feira às 08h');
    expect(scheduleProblems({ kind: 'daily', hour: 24 })).toEqual(['A hora vai de 0 a 23.']);
    expect(scheduleProblems({ kind: 'everyHours', hours: 0 })).toHaveLength(1);
    expect(scheduleProblems({ kind: 'monthly', day: 10, hour: 3 })).toEqual([]);
  });
});
