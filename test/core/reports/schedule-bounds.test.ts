import { describe, expect, it } from 'vitest';
import { intlZone } from '../../../src/api/calendar';
import { describeSchedule, isDue, nextRun, type Schedule, scheduleProblems } from '../../../src/core/reports/schedule';

const zone = intlZone('America/Sao_Paulo');
const sp = (iso: string) => new Date(`${iso}-03:00`);

describe('schedules described and checked in Portuguese', () => {
  it('describes every kind, hours in two digits', () => {
    expect(describeSchedule({ kind: 'hourly' })).toBe('a cada hora');
    expect(describeSchedule({ kind: 'everyHours', hours: 6 })).toBe('a cada 6 horas');
    expect(describeSchedule({ kind: 'daily', hour: 7 })).toBe('todo dia às 07h');
    expect(describeSchedule({ kind: 'daily', hour: 17 })).toBe('todo dia às 17h');
    expect(describeSchedule({ kind: 'weekly', weekday: 3, hour: 0 })).toBe('toda quarta-feira às 00h');
    expect(describeSchedule({ kind: 'weekly', weekday: 5, hour: 23 })).toBe('toda sexta-feira às 23h');
    expect(describeSchedule({ kind: 'monthly', day: 31, hour: 6 })).toBe('todo dia 31 do mês às 06h');
  });

  it('names every weekday', () => {
    const names = [1, 2, 3, 4, 5].map((weekday) => describeSchedule({ kind: 'weekly', weekday, hour: 8 }));
    expect(names).toEqual([
      'toda segunda-feira às 08h',
      'toda terça-feira às 08h',
      'toda quarta-feira às 08h',
      'toda quinta-feira às 08h',
      'toda sexta-feira às 08h',
    ]);
    // Domingo and sábado are masculine.
    expect(describeSchedule({ kind: 'weekly', weekday: 0, hour: 8 })).toBe('todo domingo às 08h');
    expect(describeSchedule({ kind: 'weekly', weekday: 6, hour: 8 })).toBe('todo sábado às 08h');
  });

  const ok = (s: Schedule) => expect(scheduleProblems(s)).toEqual([]);
  const bad = (s: Schedule, message: string) => expect(scheduleProblems(s)).toEqual([message]);

  it('every N hours goes from 1 to 24, whole hours', () => {
    ok({ kind: 'everyHours', hours: 1 });
    ok({ kind: 'everyHours', hours: 24 });
    bad({ kind: 'everyHours', hours: 0 }, 'O intervalo vai de 1 a 24 horas.');
    bad({ kind: 'everyHours', hours: 25 }, 'O intervalo vai de 1 a 24 horas.');
    bad({ kind: 'everyHours', hours: 1.5 }, 'O intervalo vai de 1 a 24 horas.');
    ok({ kind: 'hourly' });
  });

  it('the hour goes from 0 to 23, whole, for daily, weekly and monthly', () => {
    ok({ kind: 'daily', hour: 0 });
    ok({ kind: 'daily', hour: 23 });
    bad({ kind: 'daily', hour: -1 }, 'A hora vai de 0 a 23.');
    bad({ kind: 'daily', hour: 7.5 }, 'A hora vai de 0 a 23.');
    bad({ kind: 'weekly', weekday: 1, hour: 24 }, 'A hora vai de 0 a 23.');
    bad({ kind: 'monthly', day: 1, hour: 24 }, 'A hora vai de 0 a 23.');
  });

  it('the weekday goes from 0 (domingo) to 6 (sábado), whole', () => {
    ok({ kind: 'weekly', weekday: 0, hour: 8 });
    ok({ kind: 'weekly', weekday: 6, hour: 8 });
    bad({ kind: 'weekly', weekday: -1, hour: 8 }, 'Escolha um dia da semana.');
    bad({ kind: 'weekly', weekday: 7, hour: 8 }, 'Escolha um dia da semana.');
    bad({ kind: 'weekly', weekday: 2.5, hour: 8 }, 'Escolha um dia da semana.');
  });

  it('the day of the month goes from 1 to 31, whole', () => {
    ok({ kind: 'monthly', day: 1, hour: 8 });
    ok({ kind: 'monthly', day: 31, hour: 8 });
    bad({ kind: 'monthly', day: 0, hour: 8 }, 'O dia do mês vai de 1 a 31.');
    bad({ kind: 'monthly', day: 32, hour: 8 }, 'O dia do mês vai de 1 a 31.');
    bad({ kind: 'monthly', day: 1.5, hour: 8 }, 'O dia do mês vai de 1 a 31.');
  });

  it('lists every problem at once', () => {
    expect(scheduleProblems({ kind: 'weekly', weekday: 9, hour: 30 })).toEqual(['A hora vai de 0 a 23.', 'Escolha um dia da semana.']);
    expect(scheduleProblems({ kind: 'monthly', day: 40, hour: 30 })).toEqual(['A hora vai de 0 a 23.', 'O dia do mês vai de 1 a 31.']);
  });
});

describe('next run, at the edges', () => {
  it('monthly runs on the day itself when the hour is still ahead, and in leap February on the 29th', () => {
    expect(nextRun({ kind: 'monthly', day: 5, hour: 6 }, sp('2026-11-05T05:00:00'), zone)).toEqual(sp('2026-11-05T06:00:00'));
    expect(nextRun({ kind: 'monthly', day: 31, hour: 6 }, sp('2028-02-01T00:00:00'), zone)).toEqual(sp('2028-02-29T06:00:00'));
    expect(nextRun({ kind: 'monthly', day: 30, hour: 6 }, sp('2026-12-01T00:00:00'), zone)).toEqual(sp('2026-12-30T06:00:00'));
  });

  it('the longest wait is 31 days: a day-31 schedule run on 28 February runs next on 31 March', () => {
    expect(nextRun({ kind: 'monthly', day: 31, hour: 6 }, sp('2027-02-28T06:00:00'), zone)).toEqual(sp('2027-03-31T06:00:00'));
  });

  it('weekly runs later the same day when the hour is ahead', () => {
    expect(nextRun({ kind: 'weekly', weekday: 0, hour: 18 }, sp('2026-11-22T10:00:00'), zone)).toEqual(sp('2026-11-22T18:00:00'));
  });

  it('every 24 hours is a day after the top of the hour', () => {
    expect(nextRun({ kind: 'everyHours', hours: 24 }, sp('2026-11-22T09:59:59'), zone)).toEqual(sp('2026-11-23T09:00:00'));
  });

  it('gives up, rather than looping, on a schedule that never comes', () => {
    expect(() => nextRun({ kind: 'weekly', weekday: 9, hour: 8 }, sp('2026-11-22T10:00:00'), zone)).toThrow(new Error('agenda sem próxima execução'));
  });

  it('is due at exactly the planned time', () => {
    const since = sp('2026-11-21T07:40:00');
    expect(isDue({ kind: 'daily', hour: 7 }, since, sp('2026-11-22T07:00:00'), zone)).toBe(true);
    expect(isDue({ kind: 'daily', hour: 7 }, since, sp('2026-11-22T06:59:59'), zone)).toBe(false);
  });
});
