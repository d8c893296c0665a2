/**
 * What a dashboard's sheet holds and how its reports are read, through the one
 * refresh: a sheet the user shrank is grown before it is written, the head in
 * words (one record, a yes/no filter), the second table and the pivot where
 * they belong, columns found by metadata alone where the sheet has it, a
 * child sheet of an earlier version adopted by its name, and what a report
 * taken over by another company leaves on each dashboard.
 */
import { describe, expect, it } from 'vitest';
import { KINDS } from '../../../src/core/dashboards/kinds';
import { figuresKind } from '../../../src/core/dashboards/kinds/figures-page';
import { TABLE_ROW } from '../../../src/core/dashboards/page';
import { invoicesToIssue, lineRows, refreshDashboard, reportChangedCompany } from '../../../src/core/dashboards/refresh';
import type { Dashboard } from '../../../src/core/dashboards/store';
import { CHILD_TAG } from '../../../src/core/sheets/child-sheet';
import { SHEET_TAG } from '../../../src/core/sheets/sheet-layout';
import type { Report } from '../../../src/core/reports/reports';
import type { DashBook, DashSheet } from './book';
import { NOW, panelWorld, zone } from './book';

const sheetOf = (book: DashBook, d: Dashboard) => book.sheets.find((s) => s.tags.get(SHEET_TAG) === `painel:${d.id}`)!;
const sourceOf = (book: DashBook, report: Report) => book.byId(report.sheetId!)!;
const paid = (iso: string) => zone.instant({ year: +iso.slice(0, 4), month: +iso.slice(5, 7), day: +iso.slice(8, 10) });

describe('the dashboard’s sheet', () => {
  it('grows a sheet the user shrank before writing the head and each table', () => {
    const { deps, book, d } = panelWorld('faturamento', KINDS.faturamento, { reportId: [['11/2026', 100, 'FATURADA']] });
    const first = refreshDashboard(deps, d);
    const sheet = sheetOf(book, first);
    sheet.gridRows = 5;
    sheet.gridColumns = 1;
    expect(refreshDashboard(deps, first).lastRefresh).toMatchObject({ ok: true, counted: 1 });
    expect(sheet.read(TABLE_ROW, 1, 1, 1)).toEqual([['Faturado por competência']]);
    expect(sheet.read(TABLE_ROW + 14, 1, 1, 3)).toEqual([['Total', 100, 1]]);
  });

  it('fits its columns: labels wide, figures narrower; the Fechamento’s labels wider still', () => {
    const figures = panelWorld('faturamento', KINDS.faturamento);
    expect(sheetOf(figures.book, refreshDashboard(figures.deps, figures.d)).widths).toEqual([200, 130, 130]);
    const close = panelWorld('fechamento', KINDS.fechamento);
    expect(sheetOf(close.book, refreshDashboard(close.deps, close.d)).widths).toEqual([330, 120, 120, 120]);
  });

  it('says one record and one day in the singular, and a yes/no filter as Sim or Não', () => {
    const { deps, book, reports, d } = panelWorld('vencimentos', KINDS.vencimentos, { reportId: [[10, paid('2026-11-01'), false, 'EMITIDA']] });
    deps.reports.save({ ...reports[0], filters: { vencimentoInicial: { rel: 'hoje', dias: -1 }, isQuitado: false, isExibeCanceladas: true } } as Report);
    const sheet = sheetOf(book, refreshDashboard(deps, d));
    expect(sheet.text(3)).toMatch(/^Filtros do relatório: Vencimento a partir de: hoje − 1 dia; Quitada: Não; Exibir canceladas: Sim\. O painel conta: /);
    expect(sheet.text(4)).toBe('Atualizado em 22/11/2026 14:30 · 1 registro considerado · atualiza sozinho a cada atualização do relatório.');
  });

  it('a consolidated report without rows yet shows no company', () => {
    const { deps, book, reports, d } = panelWorld('vencimentos', KINDS.vencimentos);
    const source = sourceOf(book, reports[0]);
    source.write(1, 5, [['Empresa']]);
    source.columnsByKey.set('empresa', 5);
    const sheet = sheetOf(book, refreshDashboard(deps, d));
    expect(sheet.read(TABLE_ROW, 1, 2, 2)).toEqual([
      ['Valor em aberto por faixa e empresa', ''],
      ['Faixa', 'Total'],
    ]);
  });

  it('makes no pivot when the report sheet lacks the column it groups by', () => {
    const { deps, book, d } = panelWorld('faturamento', KINDS.faturamento, { reportId: [['11/2026', 100, 'FATURADA']] });
    const sheet = sheetOf(book, refreshDashboard(deps, d));
    expect(sheet.pivots).toEqual([]);
    expect(sheet.grid.some((r) => String(r?.[0] ?? '').startsWith('Tabela dinâmica'))).toBe(false);
  });

  it('draws a pivot of no column group and no filter, and one whose filter column the report lacks, unfiltered', () => {
    const base = KINDS.faturamento;
    const pivots = figuresKind({
      ...base,
      compute: (input) => ({
        ...base.compute(input),
        pivot: { title: 'Dinâmica', rowKey: 'statusFatura', valueKey: 'valorTotal', valueName: 'Soma', visible: { key: 'ausente', values: ['x'] } },
      }),
    });
    const kinds = { ...KINDS, pivots };
    const { deps, book, reports, d } = panelWorld('pivots', pivots, { reportId: [['11/2026', 100, 'FATURADA']] }, kinds);
    const sheet = sheetOf(book, refreshDashboard(deps, d));
    expect(sheet.pivots).toEqual([
      {
        sourceSheetId: reports[0].sheetId,
        source: { row: 1, column: 1, numRows: 2, numColumns: 3 },
        rowColumn: 3,
        columnColumn: undefined,
        valueColumn: 2,
        valueName: 'Soma',
        visible: undefined,
        anchor: { row: TABLE_ROW + 18, column: 1 },
      },
    ]);
    // Below the table of 12 months and the total, after two blank rows.
    expect(sheet.text(TABLE_ROW + 17)).toBe('Dinâmica');
    const plain = figuresKind({
      ...base,
      compute: (input) => ({ ...base.compute(input), pivot: { title: 'Dinâmica', rowKey: 'statusFatura', valueKey: 'valorTotal', valueName: 'Soma' } }),
    });
    const other = panelWorld('plain', plain, { reportId: [['11/2026', 100, 'FATURADA']] }, { ...KINDS, plain });
    expect(sheetOf(other.book, refreshDashboard(other.deps, other.d)).pivots).toMatchObject([{ rowColumn: 3, visible: undefined }]);
  });
});

describe('reading the reports', () => {
  it('a sheet with column metadata is read by it alone: its header notes name no column', () => {
    const { deps, book, reports, d } = panelWorld('faturamento', KINDS.faturamento, { reportId: [['11/2026', 100, 'FATURADA']] });
    const source = sourceOf(book, reports[0]);
    source.columnsByKey.delete('valorTotal');
    source.notes = [['competencia', 'valorTotal', 'statusFatura']];
    const saved = refreshDashboard(deps, d);
    const sheet = sheetOf(book, saved);
    expect(sheet.text(5)).toBe('A coluna "Valor total" não está na aba do relatório: refaça a importação para ter esta coluna.');
    expect(sheet.read(TABLE_ROW + 14, 1, 1, 3)).toEqual([['Total', 0, 1]]);
  });

  it('adopts a plano de contas sheet of an earlier version by its name, reads it by its header notes, and lays its table below the first', () => {
    const { deps, book, reports, d } = panelWorld('fluxo-caixa', KINDS['fluxo-caixa'], { reportId: [[1, 'R', 'C', 100, paid('2026-11-10'), true]] });
    const plans = book.sheet('Aba 1 · Planos de conta', ['a', 'b', 'c', 'd'], [[1, 'Vendas', 100, 'C']]) as DashSheet;
    plans.notes = [['idTransacao', 'planoConta', 'valor', 'tipoOperacao']];
    const sheet = sheetOf(book, refreshDashboard(deps, d));
    expect(plans.tags.get(CHILD_TAG)).toBe(`${reports[0].sheetId}:planosConta`);
    // The first table: its title, its header, one month and the total; then two blank rows.
    expect(sheet.read(TABLE_ROW + 4, 1, 4, 4)).toEqual([
      ['', '', '', ''],
      ['', '', '', ''],
      ['Por plano de contas (mesmos meses)', '', '', ''],
      ['Plano de contas', 'Recebimentos', 'Pagamentos', 'Saldo'],
    ]);
    expect(sheet.read(TABLE_ROW + 8, 1, 1, 4)).toEqual([['Vendas', 100, 0, 100]]);
  });

  it('an empty plano de contas sheet is read as no rows', () => {
    const { deps, book, reports, d } = panelWorld('fluxo-caixa', KINDS['fluxo-caixa'], { reportId: [[1, 'R', 'C', 100, paid('2026-11-10'), true]] });
    book.create('Contas').setSheetTag(CHILD_TAG, `${reports[0].sheetId}:planosConta`);
    const saved = refreshDashboard(deps, d);
    expect(saved.lastRefresh).toMatchObject({ ok: true, counted: 1 });
    expect(sheetOf(book, saved).read(TABLE_ROW + 6, 1, 3, 1)).toEqual([['Por plano de contas (mesmos meses)'], ['Plano de contas'], ['']]);
  });

  it('reports of several organizations each are named in full when they cannot be compared', () => {
    const { deps, reports, d } = panelWorld('sem-nfse', KINDS['sem-nfse']);
    const org = (name: string, document: string) => ({ key: `1:${document}`, name, document, own: true });
    deps.reports.save({ ...reports[0], organizations: [org('Alfa', '11444777000161'), org('Beta', '04252011000110')] });
    deps.reports.save({ ...reports[1], organizations: [org('Gama', '11222333000181')] });
    expect(refreshDashboard(deps, d).lastRefresh?.message).toMatch(
      /^Os dois relatórios são de organizações diferentes: as faturas de "Relatório 1" vêm de "Alfa" \(CNPJ 11\.444\.777\/0001-61\), "Beta" \(CNPJ 04\.252\.011\/0001-10\) e as NFS-e de "Relatório 2" vêm de "Gama" /,
    );
  });
});

describe('a report taken over by another company', () => {
  it('leaves each dashboard on it with its title and why, no figures, no chart, no pivot; a dashboard without a sheet or on another report is untouched', () => {
    const { deps, book, reports, d } = panelWorld('faturamento', KINDS.faturamento, { reportId: [['11/2026', 100, 'FATURADA']] });
    const built = refreshDashboard(deps, d);
    const sheet = sheetOf(book, built);
    sheet.pivots.push({} as never);
    const unbuilt = deps.dashboards.create({ kind: 'faturamento', reportId: reports[0].id, owner: built.owner, sheetName: '' }, 1);
    // Built on a report since deleted: it has a sheet, and says why it is not refreshed.
    const elsewhere = refreshDashboard(deps, deps.dashboards.create({ kind: 'faturamento', reportId: 'outro', owner: built.owner, sheetName: '' }, 2));
    const resets = sheet.resets;
    reportChangedCompany(deps, reports[0].id, 'Agora é outra empresa.');
    expect(sheet.resets).toBe(resets + 1);
    expect(sheet.chartIds()).toEqual([]);
    expect(sheet.pivots).toEqual([]);
    expect(Array.from(sheet.grid, (r) => String(r?.[0] ?? ''))).toEqual([
      'Faturamento por competência',
      '',
      '',
      '',
      '',
      '⚠ Não atualizado em 22/11/2026 14:30: Agora é outra empresa.',
    ]);
    expect(deps.dashboards.get(built.id)).toMatchObject({
      chartIds: [],
      lastRefresh: { at: NOW, ok: false, counted: 0, message: 'Agora é outra empresa.' },
    });
    expect(deps.dashboards.get(unbuilt.id).lastRefresh).toBeUndefined();
    expect(deps.dashboards.get(elsewhere.id).lastRefresh).toEqual(elsewhere.lastRefresh);
    expect(sheetOf(book, elsewhere).text(1)).toBe('');
    expect(book.sheets.filter((s) => s.tags.has(SHEET_TAG))).toHaveLength(2);
  });
});

describe('the Fechamento’s sheet', () => {
  const due = paid('2026-10-20');
  const rows = {
    reportId: [
      [1, 10, 'Ana', 7, '10/2026', 100, 'FATURADA', 'RECORRENTE'],
      [2, 11, 'Bia', 8, '10/2026', 50, 'FATURADA', 'AVULSA'],
      [3, 12, 'Caio', 9, '10/2026', 25, 'FATURADA', 'AVULSA'],
    ],
    secondReportId: [[900, 1, '10/2026', 'AUTORIZADA', '55', 'Ana', false, 2, 100, 2, 98]],
    chargesReportId: [[70, 7, 'Ana', '10/2026', 100, true, 'QUITADA', due]],
  };

  it('says its sources, filters and how it matches, then its figures with where each conference line’s rows are, then those rows; no chart', () => {
    const { deps, book, reports, d } = panelWorld('fechamento', KINDS.fechamento, rows);
    const first = refreshDashboard(deps, d);
    const sheet = sheetOf(book, first);
    sheet.putChart(null, {} as never);
    const saved = refreshDashboard(deps, first);
    expect(sheet.chartIds()).toEqual([]);
    expect(saved).toMatchObject({ chartIds: [], lastRefresh: { ok: true, counted: 5 } });
    const text = Array.from(sheet.grid, (r) => String(r?.[0] ?? ''));
    expect(text.slice(0, 6)).toEqual([
      'Fechamento da competência 10/2026 · Escritório',
      'Fontes: faturas: relatório "Relatório 1" (aba "Aba 1"); NFS-e: relatório "Relatório 2" (aba "Aba 2"); cobranças: relatório "Relatório 3" (aba "Aba 3").',
      'Filtros dos relatórios: faturas: nenhum; NFS-e: nenhum; cobranças: nenhum.',
      'Atualizado em 22/11/2026 14:30 · 5 registros considerados · atualiza sozinho a cada atualização de um dos três relatórios.',
      expect.stringMatching(/^Como casa: NFS-e com a fatura pelo ID da fatura \(da mesma empresa\); fatura e cobrança não têm ID em comum/),
      'Todas as notas da competência foram comparadas com a sua fatura.',
    ]);
    expect(sheet.read(TABLE_ROW, 1, 3, 4)).toEqual([
      ['Fechamento da competência 10/2026', '', '', ''],
      ['Item', 'Quantidade', 'Valor', 'Linhas'],
      ['Faturamento', '', '', ''],
    ]);
    const conference = text.indexOf('Conferência') + 1;
    expect(sheet.read(conference + 1, 1, 8, 4)).toEqual([
      ['Faturas sem NFS-e', 2, 75, 'linhas 39–40 desta aba'],
      ['NFS-e com valor diferente da fatura (diferença: nota − fatura)', 0, 0, 'nenhuma'],
      ['Notas ainda sem número', 0, 0, 'nenhuma'],
      ['Faturas sem cobrança', 2, 75, 'linhas 50–51 desta aba'],
      ['Cobranças da competência sem fatura', 0, 0, 'nenhuma'],
      ['Cobranças da competência pagas', 1, 100, 'linha 58 desta aba'],
      ['Cobranças da competência em aberto, a vencer', 0, 0, 'nenhuma'],
      ['Cobranças da competência vencidas', 0, 0, 'nenhuma'],
    ]);
    // Each section's title is bold.
    for (const title of ['Faturamento', 'NFS-e', 'Conferência']) expect(sheet.bold).toContain(`${text.indexOf(title) + 1}:1+1`);
    expect(sheet.read(37, 1, 4, 6)).toEqual([
      ['Faturas sem NFS-e: 2 linhas · R$ 75,00', '', '', '', '', ''],
      ['ID da fatura', 'Número', 'Cliente', 'Tipo', 'Status', 'Valor total'],
      [2, 11, 'Bia', 'AVULSA', 'FATURADA', 50],
      [3, 12, 'Caio', 'AVULSA', 'FATURADA', 25],
    ]);
    expect(sheet.read(56, 1, 3, 5)).toEqual([
      ['Cobranças pagas: 1 linha · R$ 100,00', '', '', '', ''],
      ['ID da cobrança', 'ID do cliente', 'Cliente', 'Vencimento', 'Valor'],
      [70, 7, 'Ana', due, 100],
    ]);
    expect(text[42 - 1]).toBe('NFS-e com valor diferente da fatura: 0 linhas · R$ 0,00');
    expect(text[53 - 1]).toBe('Cobranças sem fatura: 0 linhas · R$ 0,00');
    expect(lineRows(deps, saved, 'pagas')).toEqual({ sheet: sourceOf(book, reports[2]), rows: [2], title: 'Cobranças pagas' });
    expect(lineRows(deps, saved, 'sem-nfse')).toEqual({ sheet: sourceOf(book, reports[0]), rows: [3, 4], title: 'Faturas sem NFS-e' });
    expect(invoicesToIssue(deps, saved)).toEqual({
      sheet: sourceOf(book, reports[0]),
      ids: [
        { empresa: '', id: 2 },
        { empresa: '', id: 3 },
      ],
    });
  });

  it('refuses reports of one company beside consolidated ones', () => {
    const { deps, book, reports, d } = panelWorld('fechamento', KINDS.fechamento, rows);
    const invoices = sourceOf(book, reports[0]);
    invoices.write(1, 9, [['Empresa'], ['Alfa'], ['Alfa'], ['Alfa']]);
    invoices.columnsByKey.set('empresa', 9);
    expect(refreshDashboard(deps, d).lastRefresh).toMatchObject({
      ok: false,
      message:
        'Os três relatórios do fechamento precisam ser todos de uma empresa ou todos consolidados (com a coluna Empresa): escolha relatórios do mesmo tipo.',
    });
  });
});
