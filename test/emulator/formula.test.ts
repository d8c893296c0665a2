import { describe, expect, it } from 'vitest';
import { shownFormula, typeInto } from '../../dev/gas/formula-locale';
import { fixture } from './helpers';

const SCRIPT = `
function sheet() { return SpreadsheetApp.getActiveSheet(); }
function put(a1, values) { sheet().getRange(a1).setValues(values); }
function putFormulas(a1, formulas) { sheet().getRange(a1).setFormulas(formulas); }
function putFormula(a1, formula) { sheet().getRange(a1).setFormula(formula); }
function values(a1) { return sheet().getRange(a1).getValues(); }
function value(a1) { return sheet().getRange(a1).getValue(); }
function shown(a1) { return sheet().getRange(a1).getDisplayValues(); }
function formulas(a1) { return sheet().getRange(a1).getFormulas(); }
function copy(from, to) { var r = sheet().getRange(from); sheet().getRange(to).setValues(r.getValues()); }
function insertRowBefore(row) { sheet().insertRows(row, 1); }
function deleteRow(row) { sheet().deleteRow(row); }
function sortBy(a1, column, asc) { sheet().getRange(a1).sort({ column: column, ascending: asc }); }
`;

/** One formula in A1 over B1:D3 as given; returns what getValues shows. */
function evaluate(formula: string, cells: unknown[][] = [[10, 20, 30]]): unknown {
  const emu = fixture(SCRIPT);
  emu.run('put', [`B1:${String.fromCharCode(65 + cells[0].length)}${cells.length}`, cells]);
  emu.run('putFormula', ['A1', formula]);
  return emu.run('value', ['A1']);
}

describe('formulas are evaluated on read, as Sheets returns them', () => {
  it.each([
    ['=1+2*3', 7],
    ['=(1+2)*3', 9],
    ['=2^3^2', 64],
    ['=-2^2', 4],
    ['=-B1+5', -5],
    ['=10%', 0.1],
    ['=B1/4', 2.5],
    ['=ROUND(B1*1.0462,2)', 10.46],
    ['=ROUND(2.675,2)', 2.68],
    ['=ROUND(1.005,2)', 1.01],
    ['=ROUND(-2.5)', -3],
    ['=ROUND(1234.5,-2)', 1200],
    ['=ROUNDUP(10.001,2)', 10.01],
    ['=ROUNDDOWN(10.009,2)', 10],
    ['=ROUNDUP(-1.21,1)', -1.3],
    ['=SUM(B1:D1)', 60],
    ['=SUM(B1:D1,5,$B$1)', 75],
    ['=IF(B1>15,"caro","barato")', 'barato'],
    ['=IF(C1>=20,C1*2)', 40],
    ['=IF(B1<>10,1)', false],
    ['=B1&"-"&C1', '10-20'],
    ['=Z99', 0],
    ['=max(B1:D1)-min(B1:D1)', 20],
    ['=ABS(-3)', 3],
  ])('%s → %s', (formula, expected) => {
    expect(evaluate(formula)).toBe(expected);
  });

  it.each([
    ['=B1/0', '#DIV/0!'],
    ['=B1/(C1-20)', '#DIV/0!'],
    ['=SOMA(B1:D1)', '#NAME?'],
    ['=reajuste*2', '#NAME?'],
    ['=B1*"abc"', '#VALUE!'],
    ['=ROUND(E1*2,2)', '#VALUE!'],
    ['=A1+1', '#REF!'],
    ['=ZZZ1', '#REF!'],
    ['=1+', '#ERROR!'],
    ['=ROUND(B1/0,2)+1', '#DIV/0!'],
    ['=ROUND()', '#N/A'],
  ])('%s shows %s', (formula, expected) => {
    expect(evaluate(formula, [[10, 20, 30, 'abc']])).toBe(expected);
  });

  it('refuses to pretend about references to other sheets', () => {
    expect(() => evaluate("='Outra aba'!B1*2")).toThrow(/other sheets are not emulated/);
  });

  it('text that reads as a number counts in arithmetic, not in a SUM over a range', () => {
    const emu = fixture(SCRIPT);
    emu.run('put', ['B1:C1', [['3', 4]]]);
    // setValues reads "3" as typed input: a number. A text cell needs the apostrophe.
    emu.run('put', ['D1', [["'5"]]]);
    emu.run('putFormulas', ['A1:A2', [['=D1*2'], ['=SUM(B1:D1)']]]);
    expect(emu.run('values', ['A1:A2'])).toEqual([[10], [7]]);
  });

  it('recomputes on every read, follows chains and reports a cycle as #REF!', () => {
    const emu = fixture(SCRIPT);
    emu.run('put', ['B1', [[100]]]);
    emu.run('putFormulas', ['A1:A3', [['=B1*2'], ['=A1+1'], ['=A3+1']]]);
    expect(emu.run('values', ['A1:A3'])).toEqual([[200], [201], ['#REF!']]);
    emu.run('put', ['B1', [[1]]]);
    expect(emu.run('values', ['A1:A2'])).toEqual([[2], [3]]);
    expect(emu.run('formulas', ['A1:A2'])).toEqual([['=B1*2'], ['=A1+1']]);
  });

  it('shows the result with the cell number format; an error stays as it is', () => {
    const emu = fixture(SCRIPT);
    emu.run('put', ['B1', [[1234.5]]]);
    emu.run('putFormulas', ['A1:A2', [['=B1*2'], ['=B1/0']]]);
    expect(emu.displayValues('Página1', 'A1:A2')).toEqual([['2469'], ['#DIV/0!']]);
    expect(emu.values('Página1', 'A1:A2')).toEqual([[2469], ['#DIV/0!']]);
  });

  it('a formula is set whatever the number format; cells copied with setValues keep values, not formulas', () => {
    const emu = fixture(`${SCRIPT}
      function textColumn() { sheet().getRange('A1:A2').setNumberFormat('@'); }`);
    emu.run('textColumn', []);
    emu.run('put', ['B1', [[50]]]);
    emu.run('putFormula', ['A1', '=B1+1']);
    expect(emu.run('value', ['A1'])).toBe(51);
    emu.run('copy', ['A1', 'C1']);
    expect(emu.run('formulas', ['C1'])).toEqual([['']]);
    expect(emu.run('value', ['C1'])).toBe(51);
    emu.run('put', ['B1', [[60]]]);
    expect(emu.run('values', ['A1:C1'])).toEqual([[61, 60, 51]]);
  });

  it('references follow inserted and deleted rows, absolute or relative; a deleted target is #REF!', () => {
    const emu = fixture(SCRIPT);
    emu.run('put', ['B1:B3', [[1], [2], [3]]]);
    emu.run('putFormulas', ['A3', [['=B2+$B$3']]]);
    emu.run('insertRowBefore', [1]);
    expect(emu.run('formulas', ['A4'])).toEqual([['=B3+$B$4']]);
    expect(emu.run('value', ['A4'])).toBe(5);
    emu.run('deleteRow', [3]);
    expect(emu.run('formulas', ['A3'])).toEqual([['=#REF!+$B$3']]);
    expect(emu.run('value', ['A3'])).toBe('#REF!');
  });

  it('sorting moves a formula with its row: its relative references read the same row', () => {
    const emu = fixture(SCRIPT);
    emu.run('put', ['B1:B3', [[30], [10], [20]]]);
    emu.run('putFormulas', ['C1:C3', [['=ROUND(B1*1.1,2)'], ['=ROUND(B2*1.1,2)'], ['=ROUND(B3*1.1,2)']]]);
    emu.run('sortBy', ['B1:C3', 2, true]);
    expect(emu.run('values', ['B1:C3'])).toEqual([
      [10, 11],
      [20, 22],
      [30, 33],
    ]);
    expect(emu.run('formulas', ['C1'])).toEqual([['=ROUND(B1*1.1,2)']]);
  });

  it('sorting by a formula column orders by the results', () => {
    const emu = fixture(SCRIPT);
    emu.run('put', ['B1:B3', [[3], [1], [2]]]);
    emu.run('putFormulas', ['C1:C3', [['=B1*-1'], ['=B2*-1'], ['=B3*-1']]]);
    emu.run('sortBy', ['B1:C3', 3, true]);
    expect(emu.run('values', ['B1:C3'])).toEqual([
      [3, -3],
      [2, -2],
      [1, -1],
    ]);
  });
});

describe("formulas typed in the spreadsheet's locale", () => {
  /** What a person types into A1 of a sheet in `locale`, with B1:D1 = 10, 20, 30: the value shown and the formula Apps Script reads. */
  function typed(text: string, locale = 'pt_BR'): { value: unknown; formula: string } {
    const emu = fixture(SCRIPT, { spreadsheet: { locale } });
    emu.run('put', ['B1:D1', [[10, 20, 30]]]);
    typeInto(emu, 'Página1', 'A1', [[text]]);
    return { value: emu.values('Página1', 'A1')[0][0], formula: emu.formulas('Página1', 'A1')[0][0] };
  }

  it.each([
    ['=B1*1,0462', 10.462, '=B1*1.0462'],
    ['=ARRED(B1*1,0462;2)', 10.46, '=ROUND(B1*1.0462,2)'],
    ['=arred(B1*1,0462; 2)', 10.46, '=ROUND(B1*1.0462, 2)'],
    ['=ROUND(B1*1.0462,2)', 10.46, '=ROUND(B1*1.0462,2)'],
    ['=ROUND(B1*1,0462;2)', 10.46, '=ROUND(B1*1.0462,2)'],
    ['=ARREDONDAR.PARA.CIMA(B1*1,0001;1)', 10.1, '=ROUNDUP(B1*1.0001,1)'],
    ['=ARREDONDAR.PARA.BAIXO(C1/3;1)', 6.6, '=ROUNDDOWN(C1/3,1)'],
    ['=SOMA(B1:D1;0,5)', 60.5, '=SUM(B1:D1,0.5)'],
    ['=MÉDIA(B1:D1)', 20, '=AVERAGE(B1:D1)'],
    ['=MÍNIMO(B1:D1)+MÁXIMO(B1:D1)', 40, '=MIN(B1:D1)+MAX(B1:D1)'],
    ['=SE(B1>5;"caro";"barato")', 'caro', '=IF(B1>5,"caro","barato")'],
    ['=SEERRO(B1/0;0)', 0, '=IFERROR(B1/0,0)'],
    ['=TRUNCAR(-C1/3;1)', -6.6, '=TRUNC(-C1/3,1)'],
    ['=SE(VERDADEIRO;"1,5";2)', '1,5', '=IF(TRUE,"1,5",2)'],
  ])('pt_BR: %s shows %s and is kept as %s', (text, value, formula) => {
    expect(typed(text)).toEqual({ value, formula });
  });

  it('en_US reads commas and English names only, as before', () => {
    expect(typed('=ROUND(B1*1.0462,2)', 'en_US')).toEqual({ value: 10.46, formula: '=ROUND(B1*1.0462,2)' });
    expect(typed('=ARRED(B1*1,0462;2)', 'en_US').value).toBe('#ERROR!');
    expect(typed('=SOMA(B1:D1)', 'en_US').value).toBe('#NAME?');
  });

  it('a formula that reads in neither syntax is a parse error, kept as typed', () => {
    expect(typed('=ARRED(B1*1,0462,2')).toEqual({ value: '#ERROR!', formula: '=ARRED(B1*1,0462,2' });
  });

  it("the formula bar shows the stored formula in the locale's syntax", () => {
    expect(shownFormula('=ROUND(B1*1.0462,2)+SUM(C1:D1)', 'pt_BR')).toBe('=ARRED(B1*1,0462;2)+SOMA(C1:D1)');
    expect(shownFormula('=ROUND(B1*1.0462,2)', 'en_US')).toBe('=ROUND(B1*1.0462,2)');
  });
});
