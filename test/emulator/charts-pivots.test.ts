/** The emulator's embedded charts and pivot tables: what a script builds is what it reads back, and a pivot's cells are its source's totals. */
import { describe, expect, it } from 'vitest';
import { fixture } from './helpers';

const CODE = `
function sheet() { return SpreadsheetApp.getActiveSpreadsheet().getSheets()[0]; }
function fill() {
  sheet().getRange('A1:A7').setNumberFormat('@');
  sheet().getRange(1, 1, 7, 3).setValues([
    ['Mês', 'Status', 'Valor'],
    ['02/2026', 'PAGA', 10],
    ['01/2026', 'ABERTA', 5.5],
    ['02/2026', 'ABERTA', 4],
    ['01/2026', 'PAGA', 100],
    ['03/2026', 'CANCELADA', 7],
    ['01/2026', 'PAGA', 1],
  ]);
}
function chart() {
  var s = sheet();
  var built = s.newChart().setChartType(Charts.ChartType.COLUMN).addRange(s.getRange('A1:A7')).addRange(s.getRange('C1:C7'))
    .setOption('title', 'Faturamento').setPosition(2, 5, 10, 0).build();
  var before = built.getChartId();
  s.insertChart(built);
  var c = s.getCharts()[0];
  return [before, typeof c.getChartId(), c.getRanges().map(function (r) { return r.getA1Notation(); }), c.getOptions().get('title'),
    c.getContainerInfo().getAnchorRow(), c.getContainerInfo().getAnchorColumn(), String(c.modify().getChartType())];
}
function modify() {
  var s = sheet();
  var c = s.getCharts()[0];
  var id = c.getChartId();
  s.updateChart(c.modify().setChartType(Charts.ChartType.PIE).clearRanges().addRange(s.getRange('B1:C7')).setOption('title', 'Outro').build());
  var after = s.getCharts();
  return [after.length, after[0].getChartId() === id, String(after[0].modify().getChartType()), after[0].getRanges()[0].getA1Notation(), after[0].getOptions().get('title')];
}
function removeChart() { var s = sheet(); s.removeChart(s.getCharts()[0]); return s.getCharts().length; }
function order() {
  var s = sheet();
  ['first', 'second'].forEach(function (t) { s.insertChart(s.newChart().setChartType(Charts.ChartType.BAR).addRange(s.getRange('A1:C7')).setOption('title', t).build()); });
  return s.getCharts().map(function (c) { return c.getOptions().get('title'); });
}
function noType() { var s = sheet(); s.insertChart(s.newChart().addRange(s.getRange('A1:B2')).build()); }
function pivot() {
  var s = sheet();
  var p = s.getRange('F1').createPivotTable(s.getRange('A1:C7'));
  p.addRowGroup(1);
  p.addPivotValue(3, SpreadsheetApp.PivotTableSummarizeFunction.SUM).setDisplayName('Total');
  p.addFilter(2, SpreadsheetApp.newFilterCriteria().setHiddenValues(['CANCELADA']).build());
  return s.getRange(1, 6, 5, 2).getValues();
}
function crossed() {
  var s = sheet();
  var p = s.getPivotTables()[0];
  p.addColumnGroup(2);
  return [s.getRange(1, 6, 6, 4).getValues(), p.getAnchorCell().getA1Notation(), p.getRowGroups()[0].getSourceDataColumn()];
}
function sourceChanges() { var s = sheet(); s.getRange(2, 3).setValue(1000); return s.getRange(4, 6, 1, 4).getValues(); }
function overwrite() { var s = sheet(); s.getRange('F12').setValue('meu'); var p = s.getRange('F10').createPivotTable(s.getRange('A1:C7')); p.addRowGroup(1); return s.getRange('F10').getValue(); }
function removePivots() { var s = sheet(); s.getPivotTables().forEach(function (p) { p.remove(); }); return [s.getPivotTables().length, s.getRange('F1:I6').isBlank()]; }
function outside() { var s = sheet(); s.getRange('F20').createPivotTable(s.getRange('A1:C7')).addRowGroup(4); }
`;

describe('embedded charts', () => {
  it('are built with a type, ranges, options and a position; an id once inserted; updated by modify and updateChart; removed', () => {
    const emu = fixture(CODE);
    emu.run('fill');
    expect(emu.run('chart')).toEqual([null, 'number', ['A1:A7', 'C1:C7'], 'Faturamento', 2, 5, 'COLUMN']);
    expect(emu.run('modify')).toEqual([1, true, 'PIE', 'B1:C7', 'Outro']);
    expect(emu.run('removeChart')).toBe(0);
    expect(() => emu.run('noType')).toThrow(/Chart type/);
  });

  it('come back from getCharts() in an order Google does not promise: the newest is not last', () => {
    const emu = fixture(CODE);
    emu.run('fill');
    expect(emu.run('order')).toEqual(['second', 'first']);
  });
});

describe('pivot tables', () => {
  it('compute their cells from the source: groups sorted, filtered rows left out, totals; follow the source; never overwrite other cells', () => {
    const emu = fixture(CODE);
    emu.run('fill');
    expect(emu.run('pivot')).toEqual([
      ['Mês', 'Total'],
      ['01/2026', 106.5],
      ['02/2026', 14],
      ['Total geral', 120.5],
      ['', ''],
    ]);
    const [grid, anchor, column] = emu.run('crossed') as unknown[];
    expect(grid).toEqual([
      ['Total', 'Status', '', ''],
      ['Mês', 'ABERTA', 'PAGA', 'Total geral'],
      ['01/2026', 5.5, 101, 106.5],
      ['02/2026', 4, 10, 14],
      ['Total geral', 9.5, 111, 120.5],
      ['', '', '', ''],
    ]);
    expect([anchor, column]).toEqual(['F1', 1]);
    expect(emu.run('sourceChanges')).toEqual([['02/2026', 4, 1000, 1004]]);
    expect(emu.run('overwrite')).toBe('#REF!');
    expect(emu.run('removePivots')).toEqual([0, true]);
    expect(() => emu.run('outside')).toThrow(/outside/);
  });
});
