/**
 * The panel-kind contract: every kind the registry names is built, refreshed
 * at the end of a run and told of a deleted report by the one refresh, from
 * what its room declares; and a kind known only to this test (its own room,
 * nothing else edited) is served the same way, down to its time, its refusal,
 * its invoices and its lines.
 */
import { describe, expect, it } from 'vitest';
import { afterReportRun } from '../../../src/core/dashboards/after-run';
import { KINDS } from '../../../src/core/dashboards/kinds';
import { TABLE_ROW, writeHead, writeTable } from '../../../src/core/dashboards/page';
import type { PanelInput, PanelKind } from '../../../src/core/dashboards/panel';
import { invoicesToIssue, lineRows, refreshDashboard, reportDeleted } from '../../../src/core/dashboards/refresh';
import { cents, col, rowsOf } from '../../../src/core/dashboards/sources';
import type { Dashboard } from '../../../src/core/dashboards/store';
import type { Report } from '../../../src/core/reports/reports';
import { SHEET_TAG } from '../../../src/core/sheets/sheet-layout';
import { type DashBook, type DashSheet, NOW, owner, panelWorld } from './book';

const sheetOf = (book: DashBook, d: Dashboard) => book.sheets.find((s) => s.tags.get(SHEET_TAG) === `painel:${d.id}`);
const column = (sheet: DashSheet) => sheet.grid.map((r) => String(r?.[0] ?? ''));

describe('every kind of the registry', () => {
  const kinds = Object.entries(KINDS) as Array<[string, PanelKind]>;

  it('names six kinds, each reading a report of its listing first', () => {
    expect(kinds.map(([key]) => key)).toEqual(['vencimentos', 'faturamento', 'inadimplencia', 'sem-nfse', 'fluxo-caixa', 'fechamento']);
    expect(kinds.map(([, k]) => k.sources[0].field)).toEqual(Array(6).fill('reportId'));
  });

  it.each(kinds)('%s is built on its own sheet at the end of a run of any of its reports, naming each of them', (key, kind) => {
    for (const [i] of kind.sources.entries()) {
      const { deps, book, reports, d } = panelWorld(key, kind);
      afterReportRun(deps, reports[i].id, owner.id, NOW + (kind.extraMs ?? 0));
      const saved = deps.dashboards.get(d.id);
      expect(saved.lastRefresh).toMatchObject({ at: NOW, ok: true, counted: 0 });
      const sheet = sheetOf(book, saved)!;
      expect(sheet.name()).toBe(`Painel · ${kind.title}`);
      expect(saved.sheetId).toBe(sheet.id);
      expect(sheet.text(1).startsWith(kind.title)).toBe(true);
      for (const r of reports) expect(sheet.text(2)).toContain(`relatório "${r.name}" (aba "${book.byId(r.sheetId!)!.name()}")`);
      expect(sheet.text(4)).toMatch(/^Atualizado em 22\/11\/2026 14:30 · 0 registros considerados · /);
      expect(sheet.read(TABLE_ROW + 1, 1, 1, 1)[0][0]).not.toBe('');
    }
  });

  it.each(kinds)('%s waits for the next run when less than its time is left', (key, kind) => {
    const { deps, book, reports, d } = panelWorld(key, kind);
    afterReportRun(deps, reports[0].id, owner.id, NOW + (kind.extraMs ?? 0) - 1);
    expect(deps.dashboards.get(d.id).lastRefresh).toMatchObject({ ok: false, message: expect.stringMatching(/próxima execução/) });
    expect(sheetOf(book, d)).toBeUndefined();
  });

  it.each(kinds)('%s says which of its reports was deleted, by the role its room gives it', (key, kind) => {
    for (const [i, need] of kind.sources.entries()) {
      const { deps, reports, d } = panelWorld(key, kind);
      refreshDashboard(deps, d);
      deps.reports.delete(reports[i].id);
      reportDeleted(deps, reports[i].id);
      const message = `O relatório ${need.role} deste painel foi excluído: exclua o painel ou crie outro.`;
      expect(deps.dashboards.get(d.id).lastRefresh).toMatchObject({ ok: false, message });
      expect(refreshDashboard(deps, deps.dashboards.get(d.id)).lastRefresh).toMatchObject({ ok: false, message });
    }
  });
});

interface Sums {
  counted: number;
  cents: number;
  /** Rows of the second report whose value is 0. */
  zero: number[];
}

/** What the test kind was last given to compute from. */
let seen: PanelInput | undefined;

/** A kind of this test only: it sums an invoices report and lists the charges of value 0 of a charges report. */
const teste: PanelKind<Sums> = {
  title: 'Teste',
  counts: 'tudo',
  sources: [
    { field: 'reportId', listing: 'faturas', role: 'de faturas de teste', columns: ['idFatura', 'valorTotal'] },
    { field: 'chargesReportId', listing: 'cobrancas', role: 'de cobranças de teste', columns: ['valor'] },
  ],
  competencia: true,
  extraMs: 5_000,
  refuse: ([invoices]) => (invoices.filters.recusar ? `Recusado: ${invoices.name}` : undefined),
  compute(input) {
    seen = input;
    const [invoices, charges] = input.sources;
    const total = col(invoices.table, 'valorTotal');
    const valor = col(charges.table, 'valor');
    return {
      counted: invoices.table.rows,
      cents: rowsOf(invoices.table).reduce((t, r) => t + cents(total[r]), 0),
      zero: rowsOf(charges.table).filter((r) => cents(valor[r]) === 0),
    };
  },
  write({ sheet, stamp, partial, charts }, f) {
    writeHead(sheet, ['Teste', stamp, partial.join(' ')]);
    writeTable(sheet, TABLE_ROW, { title: 'Soma', header: ['Centavos'], rows: [[f.cents]], formats: ['0'] });
    return [
      sheet.putChart(charts[0] ?? null, {
        type: 'PIE',
        range: { row: TABLE_ROW + 1, column: 1, numRows: 2, numColumns: 1 },
        at: { row: 1, column: 3 },
        options: {},
      }),
    ];
  },
  invoices: (f) => [{ empresa: '', id: f.cents }],
  lines: [{ key: 'zero', label: 'Cobranças de valor zero' }],
  lineRows: (f, key) => (key === 'zero' ? { source: 1, rows: f.zero, title: 'Valor zero' } : undefined),
};

describe('a kind registered by a test alone', () => {
  const rows = {
    reportId: [
      [1, 10.5],
      [2, 20],
    ],
    chargesReportId: [[5], [0], [7], [0]],
  };
  const make = () => panelWorld('teste', teste, rows, { ...KINDS, teste });

  it('is built and refreshed by the one refresh: its sheet, its figures from its reports, its chart kept where it is', () => {
    const { deps, book, d } = make();
    const first = refreshDashboard(deps, d);
    const sheet = sheetOf(book, first)!;
    expect(sheet.name()).toBe('Painel · Teste');
    expect(column(sheet).slice(0, 2)).toEqual(['Teste', '22/11/2026 14:30']);
    expect(sheet.read(TABLE_ROW + 2, 1, 1, 1)).toEqual([[3050]]);
    expect(first).toMatchObject({ chartIds: [1], lastRefresh: { at: NOW, ok: true, counted: 2 } });
    const second = refreshDashboard(deps, first);
    expect(second.chartIds).toEqual([1]);
    expect(sheet.resets).toBe(2);
  });

  it('computes from what it asked for: its reports in its order, today, now and the competência chosen', () => {
    const { deps, reports, d } = make();
    refreshDashboard(deps, d);
    const input = seen!;
    expect(input.sources.map((s) => s.report.id)).toEqual(reports.map((r) => r.id));
    expect(input.sources[1].labels.valor).toBe('"Valor"');
    expect(input.sources[0].child).toBeUndefined();
    expect(input).toMatchObject({ today: { day: { year: 2026, month: 11, day: 22 } }, now: NOW, competencia: '10/2026' });
  });

  it('is started at the end of a run only with its own time left', () => {
    const { deps, reports, d } = make();
    afterReportRun(deps, reports[1].id, owner.id, NOW + 4_999);
    expect(deps.dashboards.get(d.id).lastRefresh).toMatchObject({ ok: false, message: expect.stringMatching(/^Não deu tempo/) });
    afterReportRun(deps, reports[1].id, owner.id, NOW + 5_000);
    expect(deps.dashboards.get(d.id).lastRefresh).toMatchObject({ ok: true, counted: 2 });
  });

  it('refuses its reports together as its room says, before reading a column', () => {
    const { deps, book, reports, d } = make();
    deps.reports.save({ ...reports[0], filters: { recusar: true } } as Report);
    const reads = () => reports.reduce((t, r) => t + book.byId(r.sheetId!)!.calls, 0);
    const before = reads();
    expect(refreshDashboard(deps, d).lastRefresh).toMatchObject({ ok: false, message: 'Recusado: Relatório 1' });
    expect(reads()).toBe(before);
    expect(() => invoicesToIssue(deps, d)).toThrow('Recusado: Relatório 1');
  });

  it('gives its invoices from its first report’s sheet, and its lines’ rows from the report its room names', () => {
    const { deps, book, reports, d } = make();
    expect(invoicesToIssue(deps, d)).toEqual({ sheet: book.byId(reports[0].sheetId!), ids: [{ empresa: '', id: 3050 }] });
    const zero = lineRows(deps, d, 'zero');
    expect(zero).toEqual({ sheet: book.byId(reports[1].sheetId!), rows: [3, 5], title: 'Valor zero' });
    expect(() => lineRows(deps, d, 'outra')).toThrow('Esta linha de conferência não existe: atualize a lista de painéis.');
  });

  it('is told of its deleted report by the role its room gives it', () => {
    const { deps, book, reports, d } = make();
    refreshDashboard(deps, d);
    reportDeleted(deps, reports[1].id);
    expect(deps.dashboards.get(d.id).lastRefresh?.message).toBe('O relatório de cobranças de teste deste painel foi excluído: exclua o painel ou crie outro.');
    expect(sheetOf(book, d)!.text(6)).toMatch(/de cobranças de teste deste painel foi excluído/);
  });

  it('a kind without invoices or lines refuses to give them', () => {
    const { deps, d } = panelWorld('vencimentos', KINDS.vencimentos);
    expect(() => invoicesToIssue(deps, d)).toThrow('Só o painel "Faturas sem NFS-e" prepara a emissão de notas.');
    expect(() => lineRows(deps, d, 'pagas')).toThrow('Só o painel "Fechamento da competência" tem linhas de conferência.');
  });
});
