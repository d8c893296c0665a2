/**
 * The vocabulary every panel reads its reports with, at its edges: money in
 * text with its thousands and its sign, a date cell as text, days and months
 * counted in the spreadsheet's zone across months of other lengths.
 */
import { describe, expect, it } from 'vitest';
import { intlZone } from '../../../src/api/calendar';
import { dayNumber, dayOf, lastMonth, moneyText, monthOf, text, todayOf } from '../../../src/core/dashboards/sources';

const zone = intlZone('America/Sao_Paulo');

describe('the source vocabulary', () => {
  it('writes money as in Brazil: thousands by dots, two cents digits, a minus before the sign', () => {
    expect(moneyText(123_456_789)).toBe('R$ 1.234.567,89');
    expect(moneyText(12_345_600)).toBe('R$ 123.456,00');
    expect(moneyText(5)).toBe('R$ 0,05');
    expect(moneyText(0)).toBe('R$ 0,00');
    expect(moneyText(-50)).toBe('-R$ 0,50');
  });

  it('reads a date cell as its instant in text, and any other cell trimmed', () => {
    expect(text(new Date('2026-11-22T03:00:00Z'))).toBe('2026-11-22T03:00:00.000Z');
    expect(text(' Ana ')).toBe('Ana');
    expect(text(undefined)).toBe('');
  });

  it('counts days across months of 31 and 28 days', () => {
    expect(dayNumber({ year: 2026, month: 2, day: 15 }) - dayNumber({ year: 2026, month: 1, day: 15 })).toBe(31);
    expect(dayNumber({ year: 2026, month: 3, day: 15 }) - dayNumber({ year: 2026, month: 2, day: 15 })).toBe(28);
  });

  it('takes the day and month a date cell shows in the spreadsheet’s zone, none for another cell', () => {
    // 01/11 at 01:00 UTC is still 31/10 in São Paulo.
    const cell = new Date('2026-11-01T01:00:00Z');
    expect(monthOf(cell, zone)).toBe('10/2026');
    expect(dayOf(cell, zone)).toBe(dayNumber({ year: 2026, month: 10, day: 31 }));
    expect(monthOf('01/11/2026', zone)).toBeNull();
    expect(dayOf('', zone)).toBeNull();
  });

  it('the month before January is December of the year before', () => {
    const today = todayOf(zone, new Date('2026-01-01T12:00:00Z').getTime());
    expect(today.day).toEqual({ year: 2026, month: 1, day: 1 });
    expect(lastMonth(today)).toBe('12/2025');
    expect(lastMonth(todayOf(zone, new Date('2026-11-22T12:00:00Z').getTime()))).toBe('10/2026');
  });
});
