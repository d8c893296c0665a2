/**
 * A dashboard's chart is known by its id, and a new chart's id is found by
 * what the add-on gave it, not by its place in getCharts(), whose order Google
 * does not document (the emulator answers newest first). A chart the person
 * put on the dashboard's sheet is never taken for the dashboard's own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SandboxHandle, borrowSandbox } from '../../dev/sandbox/harness';
import { connect, emulator, importAll, ok } from './helpers';

let sb: SandboxHandle;

beforeAll(async () => {
  sb = await borrowSandbox({ seed: 41, size: 'small' });
});
afterAll(async () => {
  await sb?.stop();
});

describe('a dashboard’s chart', () => {
  it('is found again after the person removed it and put a chart of their own on the sheet', () => {
    const emu = emulator();
    connect(emu, sb);
    const report = importAll(emu, { listing: 'cobrancas', sheetName: 'Cobranças', name: 'Cobranças', incremental: false });
    const d = ok<{ id: string; sheetName: string }>(emu.run('createDashboard', [{ kind: 'inadimplencia', reportId: report.reportId }]));
    const charts = () =>
      emu.withServices((s) =>
        s.SpreadsheetApp.getActiveSpreadsheet()
          .getSheetByName(d.sheetName)!
          .getCharts()
          .map((c) => [String(c.modify().getChartType()), c.getOptions().get('title')])
          .sort(),
      );
    // The person deletes the dashboard's chart and draws their own pie, far below.
    emu.withServices((s) => {
      const sh = s.SpreadsheetApp.getActiveSpreadsheet().getSheetByName(d.sheetName)!;
      for (const c of sh.getCharts()) sh.removeChart(c);
      const mine = sh
        .newChart()
        .setChartType(s.Charts.ChartType.PIE)
        .addRange(sh.getRange('A9:B12'))
        .setOption('title', 'Meu gráfico')
        .setPosition(40, 1, 0, 0);
      sh.insertChart(mine.build());
    });
    const own = ['BAR', 'Inadimplência por cliente (maiores valores vencidos)'];
    for (let i = 0; i < 2; i++) {
      ok(emu.run('refreshDashboardNow', [d.id]));
      expect(charts()).toEqual([own, ['PIE', 'Meu gráfico']].sort());
    }
  });
});
