/**
 * Every date, datetime and competência format the add-on reads or writes, and
 * wall clocks in named zones (São Paulo without daylight saving, New York
 * with both of its jumps).
 */
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import {
  addDays,
  addMonths,
  brDate,
  brDateTime,
  COMPETENCIA_PATTERN,
  checkMonth,
  competencia,
  DATE_PATTERN,
  DATETIME_PATTERN,
  hourlyCachedReader,
  intlZone,
  isDate,
  isoDate,
  isValidDay,
  makeZone,
  monthIndex,
  pad2,
  pad4,
  parseCompetencia,
  parseDay,
  parseDayTime,
  parseIsoDate,
  parseIsoDateTime,
  TIME_PATTERN,
  type ZoneReader,
} from '../../src/api/calendar';

const saoPaulo = intlZone('America/Sao_Paulo');
const newYork = intlZone('America/New_York');

describe('wall clocks in a zone', () => {
  it('reads an instant as the zone shows it', () => {
    expect(saoPaulo.timeZone).toBe('America/Sao_Paulo');
    expect(saoPaulo.wall(new Date('2026-10-01T02:03:04Z'))).toEqual({ year: 2026, month: 9, day: 30, hour: 23, minute: 3, second: 4 });
    expect(saoPaulo.wall(new Date('2026-12-31T23:59:59Z'))).toEqual({ year: 2026, month: 12, day: 31, hour: 20, minute: 59, second: 59 });
    expect(newYork.wall(new Date('2026-07-01T04:00:00Z'))).toEqual({ year: 2026, month: 7, day: 1, hour: 0, minute: 0, second: 0 });
  });

  it('finds the instant of a wall time, hours and seconds optional', () => {
    expect(saoPaulo.instant({ year: 2026, month: 10, day: 1 }).toISOString()).toBe('2026-10-01T03:00:00.000Z');
    expect(saoPaulo.instant({ year: 2026, month: 10, day: 1, hour: 8, minute: 30, second: 15 }).toISOString()).toBe('2026-10-01T11:30:15.000Z');
    expect(newYork.instant({ year: 2026, month: 1, day: 15, hour: 12 }).toISOString()).toBe('2026-01-15T17:00:00.000Z');
    expect(newYork.instant({ year: 2026, month: 7, day: 15, hour: 12 }).toISOString()).toBe('2026-07-15T16:00:00.000Z');
  });

  it('across daylight saving: the earlier instant of an hour that repeats, a real instant for one that is skipped', () => {
    // 1 Nov 2026, 01:30 happens twice in New York (EDT, then EST).
    expect(newYork.instant({ year: 2026, month: 11, day: 1, hour: 1, minute: 30 }).toISOString()).toBe('2026-11-01T05:30:00.000Z');
    // 8 Mar 2026, 02:30 never happens in New York: some instant next to the gap, never a wrong day.
    const skipped = newYork.instant({ year: 2026, month: 3, day: 8, hour: 2, minute: 30 });
    expect(['2026-03-08T06:30:00.000Z', '2026-03-08T07:30:00.000Z']).toContain(skipped.toISOString());
  });

  it('a cached reader asks the slow reader once per hour of time and gives the same wall clock', () => {
    let calls = 0;
    const slow: ZoneReader = (d) => {
      calls++;
      return newYork.wall(d);
    };
    const cached = hourlyCachedReader(slow);
    const instants = [
      '2026-03-08T06:59:59Z',
      '2026-03-08T06:00:00Z',
      '2026-03-08T07:00:00Z',
      '2026-03-08T07:45:30Z',
      '2026-11-01T05:30:00Z',
      '2026-11-01T06:30:00Z',
    ];
    for (const iso of instants) expect(cached(new Date(iso))).toEqual(newYork.wall(new Date(iso)));
    expect(calls).toBe(4);
    cached(new Date('2026-03-08T07:10:00Z'));
    expect(calls).toBe(4);
  });

  it('a zone can be made from any reader', () => {
    const utc = makeZone('UTC', (d) => ({
      year: d.getUTCFullYear(),
      month: d.getUTCMonth() + 1,
      day: d.getUTCDate(),
      hour: d.getUTCHours(),
      minute: d.getUTCMinutes(),
      second: d.getUTCSeconds(),
    }));
    expect(utc.instant({ year: 2026, month: 2, day: 28, hour: 23, minute: 59, second: 59 }).toISOString()).toBe('2026-02-28T23:59:59.000Z');
  });
});

describe('formats', () => {
  it('pads and writes each wire format', () => {
    expect([pad2(0), pad2(9), pad2(10), pad2(31)]).toEqual(['00', '09', '10', '31']);
    expect([pad4(7), pad4(999), pad4(2026)]).toEqual(['0007', '0999', '2026']);
    const d = { year: 2026, month: 3, day: 9 };
    expect(isoDate(d)).toBe('2026-03-09');
    expect(brDate(d)).toBe('09/03/2026');
    expect(brDateTime({ ...d, hour: 7, minute: 5 })).toBe('09/03/2026 07:05');
    expect(brDateTime({ ...d, hour: 23, minute: 59 })).toBe('09/03/2026 23:59');
    expect(competencia({ year: 2026, month: 3 })).toBe('03/2026');
    expect(competencia({ year: 2026, month: 11 })).toBe('11/2026');
  });

  it('the wire patterns accept exactly the spec formats', () => {
    expect(['2026-10-01', ' 2026-10-01', '2026-10-01x', '2026-1-01'].map((s) => DATE_PATTERN.test(s))).toEqual([true, false, false, false]);
    expect(
      [
        '2026-10-01T08:30',
        '2026-10-01T08:30:15',
        '2026-10-01T08:30:15.123',
        '2026-10-01 08:30',
        '2026-10-01T08:30:1',
        'x2026-10-01T08:30',
        '2026-10-01T08:30Z',
      ].map((s) => DATETIME_PATTERN.test(s)),
    ).toEqual([true, true, true, false, false, false, false]);
    expect(['01/2026', '12/2026', '00/2026', '13/2026', '1/2026', '10/2026 ', 'x10/2026'].map((s) => COMPETENCIA_PATTERN.test(s))).toEqual([
      true,
      true,
      false,
      false,
      false,
      false,
      false,
    ]);
    expect(['08:30', '08:30:15', '8:30', '08:30:1', ' 08:30', '08:30 '].map((s) => TIME_PATTERN.test(s))).toEqual([true, true, false, false, false, false]);
  });

  it('recognises Dates, also from another realm (Apps Script hands over such Dates)', () => {
    expect(isDate(new Date())).toBe(true);
    expect(isDate(runInNewContext('new Date()'))).toBe(true);
    expect(isDate('2026-10-01')).toBe(false);
    expect(isDate(1_700_000_000_000)).toBe(false);
    expect(isDate({ getTime: () => 0 })).toBe(false);
  });
});

describe('calendar days', () => {
  it.each([
    [2026, 2, 28, true],
    [2026, 2, 29, false],
    [2024, 2, 29, true],
    [1900, 2, 29, false],
    [2000, 2, 29, true],
    [2026, 4, 30, true],
    [2026, 4, 31, false],
    [2026, 12, 31, true],
    [2026, 1, 1, true],
    [2026, 0, 10, false],
    [2026, 13, 1, false],
    [2026, 1, 0, false],
    [2026, 1, 32, false],
  ])('%i-%i-%i exists: %s', (year, month, day, valid) => {
    expect(isValidDay(year, month, day)).toBe(valid);
  });

  it.each([
    ['01/10/2026', { year: 2026, month: 10, day: 1 }],
    [' 1/2/2026 ', { year: 2026, month: 2, day: 1 }],
    ['2026-10-01', { year: 2026, month: 10, day: 1 }],
    [' 2026-12-31 ', { year: 2026, month: 12, day: 31 }],
  ])('a person types %j', (text, day) => {
    expect(parseDay(text)).toEqual({ ok: true, value: day });
  });

  it.each([
    ['31/04/2026', { ok: false, reason: 'invalid', message: 'a data 31/04/2026 não existe' }],
    ['2026-02-30', { ok: false, reason: 'invalid', message: 'a data 30/02/2026 não existe' }],
    ['001/10/2026', { ok: false, reason: 'format', message: 'use o formato DD/MM/AAAA' }],
    ['01/10/26', { ok: false, reason: 'format', message: 'use o formato DD/MM/AAAA' }],
    ['01/10/2026x', { ok: false, reason: 'format', message: 'use o formato DD/MM/AAAA' }],
    ['x01/10/2026', { ok: false, reason: 'format', message: 'use o formato DD/MM/AAAA' }],
    ['2026-1-01', { ok: false, reason: 'format', message: 'use o formato DD/MM/AAAA' }],
    ['2026-10-01x', { ok: false, reason: 'format', message: 'use o formato DD/MM/AAAA' }],
    ['x2026-10-01', { ok: false, reason: 'format', message: 'use o formato DD/MM/AAAA' }],
    ['2026-10-001', { ok: false, reason: 'format', message: 'use o formato DD/MM/AAAA' }],
  ])('a person types %j: refused', (text, result) => {
    expect(parseDay(text)).toEqual(result);
  });

  it('reads the wire formats of records strictly', () => {
    expect(parseIsoDate('2026-10-01')).toEqual({ year: 2026, month: 10, day: 1 });
    expect(['2026-02-29', ' 2026-10-01', '2026-10-01 ', '01/10/2026', 'x2026-10-01', '2026-10-01x'].map(parseIsoDate)).toEqual([
      null,
      null,
      null,
      null,
      null,
      null,
    ]);
    expect(parseIsoDateTime('2026-10-01T08:30')).toEqual({ year: 2026, month: 10, day: 1, hour: 8, minute: 30, second: 0 });
    expect(parseIsoDateTime('2026-10-01T23:59:59.999')).toEqual({ year: 2026, month: 10, day: 1, hour: 23, minute: 59, second: 59 });
    expect(parseIsoDateTime('2026-10-01T00:00:07')).toEqual({ year: 2026, month: 10, day: 1, hour: 0, minute: 0, second: 7 });
    expect(
      [
        '2026-10-01T24:00',
        '2026-10-01T08:60',
        '2026-10-01T08:30:60',
        '2026-02-29T08:30',
        '2026-10-01 08:30',
        'x2026-10-01T08:30',
        '2026-10-01T08:30x',
        '2026-10-01T08:30:15.',
      ].map(parseIsoDateTime),
    ).toEqual([null, null, null, null, null, null, null, null]);
  });

  it.each([
    ['01/10/2026 08:30', { year: 2026, month: 10, day: 1, hour: 8, minute: 30 }],
    [' 2026-10-01T23:59 ', { year: 2026, month: 10, day: 1, hour: 23, minute: 59 }],
    ['2026-10-01 00:00:59', { year: 2026, month: 10, day: 1, hour: 0, minute: 0 }],
    ['2026-10-01T08:30:59.5', { year: 2026, month: 10, day: 1, hour: 8, minute: 30 }],
  ])('a person types the date-time %j', (text, value) => {
    expect(parseDayTime(text)).toEqual({ ok: true, value });
  });

  it.each([
    ['01/10/2026 24:00', 'invalid', 'hora inválida'],
    ['01/10/2026 23:60', 'invalid', 'hora inválida'],
    ['2026-10-01T24:00', 'invalid', 'hora inválida'],
    ['31/09/2026 10:00', 'invalid', 'a data 31/09/2026 não existe'],
    ['2026-09-31T10:00', 'invalid', 'a data 31/09/2026 não existe'],
    ['01/10/2026', 'format', 'use o formato DD/MM/AAAA HH:MM'],
    ['1/10/2026 08:30', 'format', 'use o formato DD/MM/AAAA HH:MM'],
    ['01/10/2026 08:30:00', 'format', 'use o formato DD/MM/AAAA HH:MM'],
    ['x01/10/2026 08:30', 'format', 'use o formato DD/MM/AAAA HH:MM'],
    ['x2026-10-01T08:30', 'format', 'use o formato DD/MM/AAAA HH:MM'],
    ['2026-10-01T08:30x', 'format', 'use o formato DD/MM/AAAA HH:MM'],
    ['2026-10-01T08:30:5', 'format', 'use o formato DD/MM/AAAA HH:MM'],
    ['2026-10-01T8:30', 'format', 'use o formato DD/MM/AAAA HH:MM'],
  ])('the date-time %j is refused (%s)', (text, reason, message) => {
    expect(parseDayTime(text)).toEqual({ ok: false, reason, message });
  });
});

describe('competências', () => {
  it.each([
    ['10/2026', { month: 10, year: 2026 }],
    [' 1/2026 ', { month: 1, year: 2026 }],
    ['2026-10', { month: 10, year: 2026 }],
    ['2026-3', { month: 3, year: 2026 }],
    ['12/1900', { month: 12, year: 1900 }],
    ['01/9999', { month: 1, year: 9999 }],
  ])('%j', (text, value) => {
    expect(parseCompetencia(text)).toEqual({ ok: true, value });
  });

  it.each([
    ['out/2026', 'format', 'use o formato MM/AAAA'],
    ['10/26', 'format', 'use o formato MM/AAAA'],
    ['x10/2026', 'format', 'use o formato MM/AAAA'],
    ['10/2026x', 'format', 'use o formato MM/AAAA'],
    ['2026-10x', 'format', 'use o formato MM/AAAA'],
    ['x2026-10', 'format', 'use o formato MM/AAAA'],
    ['100/2026', 'format', 'use o formato MM/AAAA'],
    ['2026-100', 'format', 'use o formato MM/AAAA'],
    ['00/2026', 'invalid', 'o mês da competência vai de 01 a 12'],
    ['13/2026', 'invalid', 'o mês da competência vai de 01 a 12'],
    ['2026-13', 'invalid', 'o mês da competência vai de 01 a 12'],
    ['10/1899', 'invalid', 'ano da competência inválido'],
  ])('%j is refused (%s)', (text, reason, message) => {
    expect(parseCompetencia(text)).toEqual({ ok: false, reason, message });
  });

  it('checks months given as numbers', () => {
    expect(checkMonth({ year: 2026, month: 12 })).toEqual({ ok: true, value: { year: 2026, month: 12 } });
    expect(checkMonth({ year: 2026, month: 1.5 })).toMatchObject({ ok: false, message: 'o mês da competência vai de 01 a 12' });
    expect(checkMonth({ year: 2026.5, month: 1 })).toMatchObject({ ok: false, message: 'ano da competência inválido' });
    expect(checkMonth({ year: 10000, month: 1 })).toMatchObject({ ok: false, message: 'ano da competência inválido' });
  });

  it('counts and moves months and days across year ends', () => {
    expect(monthIndex('01/2026') - monthIndex('12/2025')).toBe(1);
    expect(monthIndex('03/2026')).toBe(2026 * 12 + 2);
    expect(addMonths({ year: 2026, month: 11 }, 2)).toEqual({ year: 2027, month: 1 });
    expect(addMonths({ year: 2026, month: 1 }, -1)).toEqual({ year: 2025, month: 12 });
    expect(addMonths({ year: 2026, month: 12 }, 0)).toEqual({ year: 2026, month: 12 });
    expect(addDays({ year: 2026, month: 12, day: 31 }, 1)).toEqual({ year: 2027, month: 1, day: 1 });
    expect(addDays({ year: 2024, month: 3, day: 1 }, -1)).toEqual({ year: 2024, month: 2, day: 29 });
  });
});
