import { describe, expect, it } from 'vitest';
import { fixture } from './helpers';

const CODE = `
function roundTrip() {
  var sheet = SpreadsheetApp.getActiveSheet();
  sheet.getRange('A1').setValue(new Date(Date.UTC(2026, 9, 1)));
  sheet.getRange('A2').setValue(new Date(2026, 9, 1));
  var v = sheet.getRange('A1:A2').getValues();
  return {
    sameRealm: v[0][0] instanceof Date && Object.getPrototypeOf(v[0][0]) === Date.prototype,
    a1: v[0][0].getTime(),
    a2: v[1][0].getTime(),
    shown: sheet.getRange('A1:A2').getDisplayValues()
  };
}
function asNumber() {
  var r = SpreadsheetApp.getActiveSheet().getRange('A1');
  r.setValue(new Date(2026, 9, 1, 12, 0, 0));
  r.setNumberFormat('0.00');
  return [typeof r.getValue(), r.getDisplayValue()];
}
function formats(values, formats) {
  var r = SpreadsheetApp.getActiveSheet().getRange(1, 1, 1, values.length);
  r.setNumberFormats([formats]);
  r.setValues([values.map(function (v) { return typeof v === 'string' && v.charAt(0) === 'D' ? new Date(v.slice(1)) : v; })]);
  return r.getDisplayValues()[0];
}
function timeOnly() { return SpreadsheetApp.getActiveSheet().getRange('A1').setValue('12:30').getValue().getTime(); }
`;

describe('dates', () => {
  it('returns Dates built with the script realm, and shows a UTC midnight as the previous day in São Paulo', () => {
    const emu = fixture(CODE);
    const out = emu.run('roundTrip') as { sameRealm: boolean; a1: number; a2: number; shown: string[][] };
    expect(out.sameRealm).toBe(true);
    expect(out.a1).toBe(Date.UTC(2026, 9, 1));
    expect(out.a2).toBe(Date.UTC(2026, 9, 1, 3));
    expect(out.shown).toEqual([['30/09/2026 21:00:00'], ['01/10/2026 00:00:00']]);
  });

  it('follows the spreadsheet time zone, not the script one', () => {
    const emu = fixture(CODE, { spreadsheet: { timeZone: 'Europe/Lisbon' } });
    const out = emu.run('roundTrip') as { shown: string[][] };
    expect(out.shown[0]).toEqual(['01/10/2026 01:00:00']);
  });

  it('a date cell with a number format reads back as a serial number', () => {
    const emu = fixture(CODE);
    expect(emu.run('asNumber')).toEqual(['number', '46296,50']);
  });

  it('applies number formats in getDisplayValues with the pt_BR decimal comma', () => {
    const emu = fixture(CODE);
    const values = [
      1234.5,
      1234.5,
      0.5,
      1234.567,
      1234.5,
      'D2026-10-01T15:45:00-03:00',
      'D2026-10-01T15:45:00-03:00',
      'D2026-10-01T15:45:00-03:00',
      'texto',
      1234.5,
    ];
    const fmts = ['#,##0.00', '"R$" #,##0.00', '0', '0.00', '@', 'dd/MM/yyyy', 'dd/MM/yyyy HH:mm', 'HH:mm', '@', 'General'];
    expect(emu.run('formats', [values, fmts])).toEqual([
      '1.234,50',
      'R$ 1.234,50',
      '1',
      '1234,57',
      '1234,5',
      '01/10/2026',
      '01/10/2026 15:45',
      '15:45',
      'texto',
      '1234,5',
    ]);
  });

  it('a time-only value is a Date on 30/12/1899, with São Paulo historical offset', () => {
    const emu = fixture(CODE);
    expect(new Date(emu.run('timeOnly') as number).toISOString()).toBe('1899-12-30T15:36:28.000Z');
  });
});
