import { describe, expect, it } from 'vitest';
import { fixture } from './helpers';

const WRITE = `
function write(a1, values, format) {
  var range = SpreadsheetApp.getActiveSheet().getRange(a1);
  if (format) range.setNumberFormat(format);
  range.setValues(values);
  return range.getValues().map(function (row) { return row.map(function (v) { return [typeof v, v instanceof Date ? 'date' : String(v)]; }); });
}
function writeOne(a1, value) {
  SpreadsheetApp.getActiveSheet().getRange(a1).setValue(value);
}
function formulas(a1) { return SpreadsheetApp.getActiveSheet().getRange(a1).getFormulas(); }
`;

describe('setValues/setValue read strings as typed input', () => {
  it.each([
    ['01234567000189', 'number', '1234567000189'],
    ['1.234,56', 'number', '1234.56'],
    ['+5', 'number', '5'],
    ['-3', 'number', '-3'],
    ['TRUE', 'boolean', 'true'],
    ['FALSE', 'boolean', 'false'],
    ['10/2026', 'object', 'date'],
    ['01/10/2026', 'object', 'date'],
    ['texto qualquer', 'string', 'texto qualquer'],
  ])('%s becomes a %s', (input, type, shown) => {
    const emu = fixture(WRITE);
    expect(emu.run('write', ['A1', [[input]]])).toEqual([[[type, shown]]]);
  });

  it('reads "01/10/2026" day-first (pt_BR) as 1 October at midnight in the spreadsheet zone', () => {
    const emu = fixture(WRITE);
    emu.run('write', ['A1:B1', [['01/10/2026', '10/2026']]]);
    const [[d1, d2]] = emu.values('Página1', 'A1:B1') as Date[][];
    expect(d1.toISOString()).toBe('2026-10-01T03:00:00.000Z');
    expect(d2.toISOString()).toBe('2026-10-01T03:00:00.000Z');
    expect(emu.displayValues('Página1', 'A1')).toEqual([['01/10/2026']]);
  });

  it('keeps "=..." as a formula: getValues gives its result (#NAME? for a function Apps Script does not know in English), getFormulas the text', () => {
    const emu = fixture(WRITE);
    expect(emu.run('write', ['A1', [['=SOMA(B1:B3)']]])).toEqual([[['string', '#NAME?']]]);
    expect(emu.run('formulas', ['A1'])).toEqual([['=SOMA(B1:B3)']]);
    expect(emu.formulas('Página1', 'A1')).toEqual([['=SOMA(B1:B3)']]);
  });

  it('leaves strings alone in cells formatted "@"', () => {
    const emu = fixture(WRITE);
    const inputs = ['01234567000189', '01/10/2026', '10/2026', '=1+1', 'TRUE', '1.234,56', '+5'];
    const out = emu.run('write', ['A1:G1', [inputs], '@']) as string[][][];
    expect(out[0].map(([type, v]) => [type, v])).toEqual(inputs.map((v) => ['string', v]));
    expect(emu.formulas('Página1', 'A1:G1')[0].every((f) => f === '')).toBe(true);
  });

  it('stores numbers, booleans and Dates as themselves', () => {
    const emu = fixture(WRITE);
    const out = emu.run('write', ['A1:C1', [[1234567000189, false, 0.1]]]);
    expect(out).toEqual([
      [
        ['number', '1234567000189'],
        ['boolean', 'false'],
        ['number', '0.1'],
      ],
    ]);
    emu.run('writeOne', ['D1', 42]);
    expect(emu.values('Página1', 'D1')).toEqual([[42]]);
  });

  it('setValue parses too, and writes every cell of the range', () => {
    const emu = fixture(WRITE);
    emu.run('writeOne', ['A1:B2', '007']);
    expect(emu.values('Página1', 'A1:B2')).toEqual([
      [7, 7],
      [7, 7],
    ]);
  });
});
