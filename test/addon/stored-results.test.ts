/**
 * Reports keep their last run's result in the document, in the words they were
 * stored with (core/run-state.ts): a report saved by an earlier version, or
 * edited by hand in the work sheet, reads the same on its card and where its
 * run stands.
 */
import { describe, expect, it } from 'vitest';
import { emulator } from './helpers';

type Rec = Record<string, any>;

const WORK_SHEET = 'Faturamento · dados';
const STORED = { ok: 'OK', parcial: 'PARCIAL', erro: 'ERRO', cancelado: 'CANCELADO', 'em andamento': 'EM ANDAMENTO' } as const;

function storedReport(result: string, now: number): Rec {
  return {
    id: `r-${result.replace(' ', '-')}`,
    name: `Último ${result}`,
    listing: 'clientes',
    connection: 'Demo',
    filters: {},
    sheetName: 'Clientes',
    incremental: false,
    schedule: null,
    notifyByEmail: false,
    createdAt: now,
    lastRun: { startedAt: now - 60_000, finishedAt: now, origin: 'manual', rows: 7, durationMs: 60_000, result, message: 'Mensagem da execução.' },
  };
}

describe('a stored last run', () => {
  it('reads with its result, its label and its status, whichever word it holds', () => {
    const emu = emulator();
    const saved = emu.run('saveConnection', [{ name: 'Demo', baseUrl: 'https://api.faturamento.example.com.br', apiKey: 'k' }]) as Rec;
    const reports = Object.keys(STORED).map((result) => storedReport(result, emu.now));
    // The work sheet as the add-on keeps it: its mark, then one row per key.
    emu.withServices((s) => {
      const sheet = s.SpreadsheetApp.getActiveSpreadsheet().insertSheet(WORK_SHEET);
      sheet.appendRow(['faturamento:dados', 'Dados do complemento Faturamento: não edite.']);
      for (const r of reports) sheet.appendRow([`faturamento.relatorio.${r.id}`, JSON.stringify(r)]);
    });

    const listed = emu.run('listReports') as Rec[];
    expect(listed.map((r) => [r.lastRun.result, r.lastRun.label, r.lastRun.rows])).toEqual(Object.entries(STORED).map(([result, label]) => [result, label, 7]));

    // Where each run stands once its report is the viewer's (no job left: the stored result says).
    const status = reports.map((r) => {
      expect(emu.run('takeOverReport', [r.id, saved.connection.id])).toMatchObject({ ok: true, value: { lastRun: { result: r.lastRun.result } } });
      const p = emu.run('continueReportRun', [r.id]) as Rec;
      expect(p).toMatchObject({ done: true, rows: 7 });
      return p.status;
    });
    expect(status).toEqual(['done', 'done', 'failed', 'cancelled', 'done']);
  });
});
