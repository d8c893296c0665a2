/**
 * Refreshing a dashboard through its ports, without the emulator: its own sheet
 * found by tag (never a user's sheet by name), what the head of the sheet says,
 * the chart kept in place across refreshes, the pivot over the report's sheet,
 * and what a dashboard says when its report is gone, partial or out of time.
 */
import { lastAsked } from '../../../src/core/runs/plan-pull';
import { describe, expect, it } from 'vitest';
import { intlZone } from '../../../src/api/calendar';
import { CHILD_TAG } from '../../../src/core/sheets/child-sheet';
import { afterReportRun } from '../../../src/core/dashboards/after-run';
import { TABLE_ROW } from '../../../src/core/dashboards/page';
import { invoicesToIssue, prepareIssue, refreshDashboard, reportDeleted } from '../../../src/core/dashboards/refresh';
import { type Dashboard, DashboardStore } from '../../../src/core/dashboards/store';
import { type Report, ReportStore } from '../../../src/core/reports/reports';
import { SHEET_TAG } from '../../../src/core/sheets/sheet-layout';
import { MemoryStore, trusted } from '../bulk/fixtures';
import { DashBook, DashSheet } from './book';

const zone = intlZone('America/Sao_Paulo');
/** 22/11/2026 14:30 in São Paulo. */
const NOW = zone.instant({ year: 2026, month: 11, day: 22, hour: 14, minute: 30 }).getTime();

const owner = { id: 'u1', email: 'dona@example.com' };
const month = (m: number, year: number) => zone.instant({ year, month: m, day: 1 });

function world() {
  const doc = new MemoryStore();
  let n = 0;
  const book = new DashBook();
  const deps = {
    dashboards: new DashboardStore(trusted(doc), () => `painel${++n}xx`),
    reports: new ReportStore(trusted(doc), () => `rel${++n}xxxx`),
    book,
    asked: (r: Report) => lastAsked(r, NOW, zone),
    zone,
    now: () => NOW,
  };
  // The invoices report's sheet: our columns by metadata, after a column of the user's.
  const source = book.sheet(
    'Minhas faturas',
    ['Notas', 'Competência', 'Mês da competência', 'Valor total', 'Status'],
    [
      ['', '11/2026', month(11, 2026), 100, 'FATURADA'],
      ['', '10/2026', month(10, 2026), 50.5, 'CANCELADA'],
      ['', '10/2026', month(10, 2026), 20, 'FATURADA'],
    ],
  ) as DashSheet;
  source.columnsByKey.set('competencia', 2).set('$mesCompetencia', 3).set('valorTotal', 4).set('statusFatura', 5);
  const report = deps.reports.save({
    id: 'r1',
    name: 'Faturas do mês',
    listing: 'faturas',
    connection: 'Escritório',
    owner,
    filters: { competencia: '11/2026', isListarItens: true },
    sheetName: 'Minhas faturas',
    sheetId: source.id,
    incremental: false,
    schedule: null,
    notifyByEmail: false,
    createdAt: 0,
  } as Report);
  const dashboard = deps.dashboards.create({ kind: 'faturamento', reportId: report.id, owner, sheetName: '' }, 0);
  return { deps, book, source, report, dashboard };
}

const dashSheet = (book: DashBook, d: Dashboard) => book.sheets.find((s) => s.tags.get(SHEET_TAG) === `painel:${d.id}`)!;

describe('refreshing a dashboard', () => {
  it('makes its own sheet under a name no sheet has, and writes what it shows, where from, with which filters and when', () => {
    const { deps, book, dashboard } = world();
    book.create('painel · faturamento por competência');
    const saved = refreshDashboard(deps, dashboard);
    const sheet = dashSheet(book, saved);
    expect(sheet.name()).toBe('Painel · Faturamento por competência (2)');
    expect([1, 2, 3, 4, 5].map((r) => sheet.text(r))).toEqual([
      'Faturamento por competência',
      'Fonte: relatório "Faturas do mês" (aba "Minhas faturas")',
      'Filtros do relatório: Competência: 11/2026. O painel conta: valor total das faturas não canceladas, nas últimas 12 competências (a atual inclusive).',
      'Atualizado em 22/11/2026 14:30 · 2 registros considerados · atualiza sozinho a cada atualização do relatório.',
      '',
    ]);
    expect(sheet.text(TABLE_ROW)).toBe('Faturado por competência');
    expect(sheet.read(TABLE_ROW + 1, 1, 1, 3)[0]).toEqual(['Competência', 'Faturado', 'Faturas']);
    expect(sheet.read(TABLE_ROW + 12, 1, 2, 3)).toEqual([
      ['10/2026', 20, 1],
      ['11/2026', 100, 1],
    ]);
    expect(sheet.text(TABLE_ROW + 14)).toBe('Total');
    expect(sheet.formats.get(`${TABLE_ROW + 2}:2`)).toBe('#,##0.00');
    expect(sheet.bold).toEqual(expect.arrayContaining(['1:1+1', `${TABLE_ROW}:1+1`, `${TABLE_ROW + 1}:1+3`]));
    expect(saved).toMatchObject({ sheetId: sheet.id, sheetName: sheet.name(), chartIds: [1], lastRefresh: { at: NOW, ok: true, counted: 2 } });
    expect(saved.lastRefresh?.message).toBeUndefined();
  });

  it('draws its chart from the table and puts a pivot over the report’s own columns below it', () => {
    const { deps, book, source, dashboard } = world();
    const sheet = dashSheet(book, refreshDashboard(deps, dashboard));
    expect(sheet.charts.get(1)).toEqual({
      type: 'COLUMN',
      range: { row: TABLE_ROW + 1, column: 1, numRows: 13, numColumns: 2 },
      at: { row: TABLE_ROW, column: 5 },
      options: { title: 'Faturamento por competência (últimos 12 meses)', 'legend.position': 'none' },
    });
    const below = TABLE_ROW + 2 + 13 + 2;
    expect(sheet.text(below)).toMatch(/^Tabela dinâmica: valor total por competência e status/);
    expect(sheet.pivots).toEqual([
      {
        sourceSheetId: source.id,
        source: { row: 1, column: 1, numRows: 4, numColumns: 5 },
        // By the competência as a date, which sorts by time.
        rowColumn: 3,
        columnColumn: 5,
        valueColumn: 4,
        valueName: 'Valor total',
        visible: { column: 3, values: expect.arrayContaining(['12/2025', '11/2026']) },
        anchor: { row: below + 1, column: 1 },
      },
    ]);
  });

  it('counts no row whose "Recebido em" is blank (kept for the user’s notes after its record left); a sheet without the column counts every row', () => {
    const { deps, source, dashboard } = world();
    const total = () => {
      const d = refreshDashboard(deps, dashboard);
      return { counted: d.lastRefresh?.counted };
    };
    expect(total()).toEqual({ counted: 2 });
    source.write(1, 6, [['Recebido em'], [new Date(NOW)], [''], ['']]);
    source.columnsByKey.set('$recebidoEm', 6);
    expect(total()).toEqual({ counted: 1 });
    source.write(4, 6, [[new Date(NOW)]]);
    expect(total()).toEqual({ counted: 2 });
  });

  it('refreshes on the same sheet, renamed or not, keeping the chart the user moved and dropping extra ones', () => {
    const { deps, book, dashboard } = world();
    const first = refreshDashboard(deps, dashboard);
    const sheet = dashSheet(book, first);
    sheet.putChart(null, sheet.charts.get(1)!);
    const second = refreshDashboard(deps, { ...first, chartIds: [1, 2, 99] });
    expect(dashSheet(book, second)).toBe(sheet);
    expect(book.sheets.filter((s) => s instanceof DashSheet && s.tags.has(SHEET_TAG))).toHaveLength(1);
    expect(second.chartIds).toEqual([1]);
    expect(sheet.chartIds()).toEqual([1]);
    expect(sheet.pivots).toHaveLength(1);
  });

  it('without the report’s columns for it, makes no pivot', () => {
    const { deps, book, source, dashboard } = world();
    source.columnsByKey.delete('valorTotal');
    const saved = refreshDashboard(deps, dashboard);
    expect(dashSheet(book, saved).pivots).toEqual([]);
    expect(dashSheet(book, saved).text(5)).toBe('A coluna "Valor total" não está na aba do relatório: refaça a importação para ter esta coluna.');
  });

  it('after a partial run of its report, says its figures hold the failed company’s last good rows', () => {
    const { deps, book, report, dashboard } = world();
    deps.reports.save({ ...report, lastRun: { result: 'parcial', message: 'Empresa C falhou.' } } as Report);
    const saved = refreshDashboard(deps, dashboard);
    const said =
      '⚠ A última atualização do relatório "Faturas do mês" foi parcial: Empresa C falhou. Os números dessas empresas são os da última atualização boa.';
    expect(dashSheet(book, saved).text(5)).toBe(said);
    expect(saved.lastRefresh).toEqual({ at: NOW, ok: true, counted: 2, message: said });
  });

  it('when its report’s sheet is gone, keeps the last figures and says why, with when', () => {
    const { deps, book, source, dashboard } = world();
    const first = refreshDashboard(deps, dashboard);
    book.sheets = book.sheets.filter((s) => s !== source);
    const second = refreshDashboard(deps, first);
    const sheet = dashSheet(book, second);
    expect(sheet.text(TABLE_ROW)).toBe('Faturado por competência');
    expect(sheet.text(6)).toBe(
      '⚠ Não atualizado em 22/11/2026 14:30: A aba do relatório de origem "Faturas do mês" não existe: atualize o relatório em Relatórios e o painel é refeito.',
    );
    expect(second.lastRefresh).toMatchObject({ at: NOW, ok: false, counted: 0 });
  });
});

describe('refreshing, more cases', () => {
  it('says each kind of filter in words, an unknown one by its name; an option (Incluir itens) is no filter', () => {
    const { deps, book, report, dashboard } = world();
    deps.reports.save({ ...report, filters: { competencia: { rel: 'mes', meses: -1 }, idCliente: [1, 2], isListarItens: false, antigo: 7 } } as never);
    const sheet = dashSheet(book, refreshDashboard(deps, dashboard));
    expect(sheet.text(3)).toMatch(/^Filtros do relatório: Competência: mês atual − 1; ID do cliente: 1, 2; antigo: 7\. O painel conta:/);
  });

  it('each dashboard keeps its own sheet, and a third one takes the next free name', () => {
    const { deps, book, report, dashboard } = world();
    book.create('Painel · Faturamento por competência (2)');
    const one = refreshDashboard(deps, dashboard);
    const two = refreshDashboard(deps, deps.dashboards.create({ kind: 'faturamento', reportId: report.id, owner, sheetName: '' }, 1));
    expect([dashSheet(book, one).name(), dashSheet(book, two).name()]).toEqual([
      'Painel · Faturamento por competência',
      'Painel · Faturamento por competência (3)',
    ]);
    expect(refreshDashboard(deps, one).sheetId).toBe(one.sheetId);
  });

  it('draws a new chart when the user deleted the one it had', () => {
    const { deps, book, dashboard } = world();
    const first = refreshDashboard(deps, dashboard);
    const sheet = dashSheet(book, first);
    sheet.removeChart(1);
    const second = refreshDashboard(deps, first);
    expect(second.chartIds).toEqual([2]);
    expect(sheet.chartIds()).toEqual([2]);
  });

  it('a kind without a pivot table makes none', () => {
    const { deps, book, report } = world();
    const d = deps.dashboards.create({ kind: 'vencimentos', reportId: report.id, owner, sheetName: '' }, 1);
    const saved = refreshDashboard(deps, d);
    expect(saved.lastRefresh?.ok).toBe(true);
    expect(dashSheet(book, saved).pivots).toEqual([]);
  });

  it('a dashboard whose report was deleted says so when refreshed', () => {
    const { deps, book, report, dashboard } = world();
    deps.reports.delete(report.id);
    const saved = refreshDashboard(deps, dashboard);
    expect(saved.lastRefresh).toMatchObject({ ok: false, message: 'O relatório de origem deste painel foi excluído: exclua o painel ou crie outro.' });
    expect(dashSheet(book, saved).text(6)).toMatch(/foi excluído/);
  });

  it('Faturas sem NFS-e names both sources; a partial run and a missing column are both said', () => {
    const { deps, book, report } = world();
    const notes = book.sheet('Minhas notas', ['ID da fatura'], [[1]]) as DashSheet;
    const nfse = deps.reports.save({
      ...report,
      id: 'r2',
      name: 'Notas',
      listing: 'nfse',
      sheetName: 'Minhas notas',
      sheetId: notes.id,
      lastRun: { result: 'parcial' },
    } as Report);
    const d = deps.dashboards.create({ kind: 'sem-nfse', reportId: report.id, secondReportId: nfse.id, owner, sheetName: '' }, 1);
    const sheet = dashSheet(book, refreshDashboard(deps, d));
    expect(sheet.text(2)).toBe('Fonte: relatório "Faturas do mês" (aba "Minhas faturas") comparado com o relatório "Notas" (aba "Minhas notas")');
    expect(sheet.text(5)).toMatch(
      /foi parcial: uma empresa falhou\. Os números dessas empresas são os da última atualização boa\. A coluna "ID da fatura" não está/,
    );
  });
});

describe('a deleted report', () => {
  it('each dashboard on it says so, on its sheet when it has one; others are untouched', () => {
    const { deps, book, report, dashboard } = world();
    const built = refreshDashboard(deps, dashboard);
    const noSheet = deps.dashboards.create({ kind: 'sem-nfse', reportId: 'outro', secondReportId: report.id, owner, sheetName: '' }, 1);
    const unrelated = deps.dashboards.create({ kind: 'faturamento', reportId: 'outro', owner, sheetName: '' }, 2);
    reportDeleted(deps, report.id);
    expect(dashSheet(book, built).text(6)).toMatch(/O relatório de origem deste painel foi excluído: exclua o painel ou crie outro\.$/);
    expect(deps.dashboards.get(built.id).lastRefresh).toMatchObject({
      ok: false,
      message: 'O relatório de origem deste painel foi excluído: exclua o painel ou crie outro.',
    });
    expect(deps.dashboards.get(noSheet.id).lastRefresh).toEqual({
      at: NOW,
      ok: false,
      counted: 0,
      message: 'O relatório de NFS-e deste painel foi excluído: exclua o painel ou crie outro.',
    });
    expect(deps.dashboards.get(unrelated.id).lastRefresh).toBeUndefined();
    expect(book.sheets.filter((s) => s.tags.has(SHEET_TAG))).toHaveLength(1);
  });
});

describe('after a report run', () => {
  it('refreshes the runner’s dashboards on that report up to the very limit, and nobody else’s', () => {
    const { deps, report, dashboard } = world();
    const someone = deps.dashboards.create({ kind: 'faturamento', reportId: report.id, owner: { id: 'u2', email: 'x@y' }, sheetName: '' }, 1);
    const unowned = deps.dashboards.save({
      ...deps.dashboards.create({ kind: 'faturamento', reportId: report.id, owner, sheetName: '' }, 2),
      owner: undefined as never,
    });
    const elsewhere = deps.dashboards.create({ kind: 'faturamento', reportId: 'outro', owner, sheetName: '' }, 3);
    afterReportRun(deps, report.id, 'u1', NOW);
    expect(deps.dashboards.get(dashboard.id).lastRefresh).toMatchObject({ ok: true, counted: 2 });
    for (const d of [someone, unowned, elsewhere]) expect(deps.dashboards.get(d.id).lastRefresh).toBeUndefined();
  });
});

describe('refreshing, other kinds and sources', () => {
  /** A transactions report's sheet (columns by metadata) and, optionally, its account plans' child sheet laid out by header notes only. */
  function cashWorld(childNotes: string[] | null) {
    const { deps, book, report } = world();
    const paid = (iso: string) => new Date(`${iso}T12:00:00Z`);
    const source = book.sheet(
      'Transações',
      ['ID', 'Tipo', 'Operação', 'Valor', 'Pago em', 'Quitada'],
      [
        [1, 'R', 'C', 100, paid('2026-11-10'), true],
        [2, 'R', 'D', 40, paid('2026-10-05'), true],
        [3, 'T', 'C', 999, paid('2026-10-05'), true],
      ],
    ) as DashSheet;
    ['idTransacao', 'tipoTransacao', 'tipoOperacao', 'valor', 'dataPagamento', 'isQuitado'].forEach((k, i) => source.columnsByKey.set(k, i + 1));
    const tx = deps.reports.save({
      ...report,
      id: 'tx',
      name: 'Transações',
      listing: 'transacoes',
      filters: {},
      sheetName: 'Transações',
      sheetId: source.id,
    } as Report);
    if (childNotes) {
      const plans = book.sheet(
        'Minhas contas',
        ['a', 'b', 'c', 'd', 'e'],
        [
          [1, 'Minha nota', 'Vendas', 100, 'C'],
          [2, '', 'Aluguel', 40, 'D'],
          [3, '', 'Transferência', 999, 'C'],
        ],
      ) as DashSheet;
      plans.notes = [childNotes];
      plans.setSheetTag(CHILD_TAG, `${source.id}:planosConta`);
    }
    const d = deps.dashboards.create({ kind: 'fluxo-caixa', reportId: tx.id, owner, sheetName: '' }, 1);
    return { deps, book, d };
  }

  it('cash flow splits by plano de contas from a child sheet whose columns only its header notes name', () => {
    const { deps, book, d } = cashWorld(['idTransacao', 'nota do usuário', 'planoConta', 'valor', 'tipoOperacao\nC = crédito']);
    const saved = refreshDashboard(deps, d);
    expect(saved.lastRefresh).toMatchObject({ ok: true, counted: 2 });
    const sheet = dashSheet(book, saved);
    const texts = sheet.grid.map((r) => String(r?.[0] ?? ''));
    const at = texts.indexOf('Por plano de contas (mesmos meses)') + 1;
    expect(at).toBeGreaterThan(TABLE_ROW);
    expect(sheet.read(at + 2, 1, 3, 4)).toEqual([
      ['Aluguel', 0, 40, -40],
      ['Vendas', 100, 0, 100],
      ['', '', '', ''],
    ]);
    expect(sheet.text(5)).toBe('');
  });

  it("cash flow covers the months of its report's date filters, as its last run resolved them: 90 days back shows four months", () => {
    const { deps, book, d } = cashWorld(null);
    const ninety = { dataPagamentoInicial: { rel: 'hoje', dias: -90 } };
    const months = () => {
      const sheet = dashSheet(book, refreshDashboard(deps, d));
      return sheet.read(TABLE_ROW + 2, 1, 6, 1).map((r) => r[0]);
    };
    deps.reports.save({ ...deps.reports.find('tx')!, filters: ninety } as Report);
    expect(months()).toEqual(['08/2026', '09/2026', '10/2026', '11/2026', 'Total', '']);
    // Run on 05/10: from 07/07 to that day, then November's payment.
    const lastRun = { startedAt: zone.instant({ year: 2026, month: 10, day: 5 }).getTime(), origin: 'manual', rows: 3, durationMs: 1, result: 'ok' };
    deps.reports.save({ ...deps.reports.find('tx')!, lastRun } as Report);
    expect(months()).toEqual(['07/2026', '08/2026', '09/2026', '10/2026', '11/2026', 'Total']);
    deps.reports.save({ ...deps.reports.find('tx')!, filters: { dataVencimentoFinal: '2026-09-30' } } as Report);
    expect(months()).toEqual(['09/2026', '10/2026', '11/2026', 'Total', '', '']);
    deps.reports.save({ ...deps.reports.find('tx')!, filters: { dataVencimentoFinal: 'amanhã' } } as Report);
    expect(months()).toEqual(['10/2026', '11/2026', 'Total', '', '', '']);
  });

  it('cash flow without the child sheet says where the detail will come from', () => {
    const { deps, book, d } = cashWorld(null);
    const sheet = dashSheet(book, refreshDashboard(deps, d));
    expect(sheet.text(5)).toMatch(/A aba de planos de conta das transações não foi encontrada/);
    expect(sheet.grid.some((r) => r?.[0] === 'Por plano de contas (mesmos meses)')).toBe(false);
  });

  it('a child sheet of notes where one key repeats keeps its first column', () => {
    const { deps, book, d } = cashWorld(['idTransacao', 'planoConta', 'planoConta', 'valor', 'tipoOperacao']);
    const sheet = dashSheet(book, refreshDashboard(deps, d));
    const at = sheet.grid.findIndex((r) => r?.[0] === 'Por plano de contas (mesmos meses)') + 1;
    // Column 2 holds the user's notes, not plans: every plan reads as that text.
    expect(sheet.read(at + 2, 1, 1, 1)[0][0]).toBe('(sem plano de contas)');
  });

  it('overdue by client reads the charges report', () => {
    const { deps, book, report } = world();
    const charges = book.sheet('Cobranças', ['Cliente', 'Valor', 'Vencimento', 'Quitada'], [['Ana', 50, new Date('2026-10-01T12:00:00Z'), false]]) as DashSheet;
    ['razaoSocial', 'valor', 'dataVencimento', 'isQuitado'].forEach((k, i) => charges.columnsByKey.set(k, i + 1));
    const r = deps.reports.save({ ...report, id: 'cb', name: 'Cobranças', listing: 'cobrancas', filters: {}, sheetId: charges.id } as Report);
    const saved = refreshDashboard(deps, deps.dashboards.create({ kind: 'inadimplencia', reportId: r.id, owner, sheetName: '' }, 1));
    expect(saved.lastRefresh?.ok).toBe(true);
    expect(dashSheet(book, saved).text(1)).toBe('Inadimplência por cliente');
  });

  it('relative filters in words: today and months either way; none at all says so; sheet filters follow', () => {
    const { deps, book, report, dashboard } = world();
    deps.reports.save({
      ...report,
      filters: {
        dataInicial: { rel: 'hoje', dias: -30 },
        dataFinal: { rel: 'hoje', dias: 0 },
        outra: { rel: 'hoje', dias: 5 },
        competencia: { rel: 'mes', meses: 2 },
        mes: { rel: 'mes', meses: 0 },
      },
      sheetFilters: [{ field: 'statusFatura', op: 'igual', values: ['ABERTA'] }],
    } as never);
    const sheet = dashSheet(book, refreshDashboard(deps, dashboard));
    expect(sheet.text(3)).toMatch(
      /^Filtros do relatório: .*: hoje − 30 dias; .*: hoje; outra: hoje \+ 5 dias; Competência: mês atual \+ 2; mes: mês atual; Status é igual a ABERTA\. /,
    );
    deps.reports.save({ ...report, filters: {} } as never);
    expect(dashSheet(book, refreshDashboard(deps, dashboard)).text(3)).toMatch(/^Filtros do relatório: nenhum\. /);
  });

  it('a report whose sheet was never made: the dashboard says to update the report', () => {
    const { deps, report, dashboard } = world();
    deps.reports.save({ ...report, sheetId: undefined } as never);
    expect(refreshDashboard(deps, dashboard).lastRefresh?.message).toBe(
      'A aba do relatório de origem "Faturas do mês" não existe: atualize o relatório em Relatórios e o painel é refeito.',
    );
  });

  it('the invoices to issue come only from Faturas sem NFS-e, from the sheets as they are now', () => {
    const { deps, book, report, source, dashboard } = world();
    source.columnsByKey.set('idFatura', 1);
    source.write(2, 1, [[11], [12], [13]]);
    // 11 and 13 have no note; 12 has one (and is cancelled besides).
    const notes = book.sheet('Notas', ['ID da fatura'], [[12], [99]]) as DashSheet;
    notes.columnsByKey.set('idFatura', 1);
    const nfse = deps.reports.save({ ...report, id: 'nf', name: 'Notas', listing: 'nfse', sheetId: notes.id } as Report);
    const d = deps.dashboards.create({ kind: 'sem-nfse', reportId: report.id, secondReportId: nfse.id, owner, sheetName: '' }, 1);
    const { sheet, ids } = invoicesToIssue(deps, d);
    expect(sheet).toBe(source);
    expect(ids.map((i) => i.id)).toEqual([11, 13]);
    expect(() => invoicesToIssue(deps, dashboard)).toThrow('Só o painel "Faturas sem NFS-e" prepara a emissão de notas.');
  });

  it('Emitir NFS-e destas faturas says, on the panel, which report brings the issued notes, until that report runs after the selection', () => {
    const { deps, book, report, source, dashboard } = world();
    source.columnsByKey.set('idFatura', 1);
    source.write(2, 1, [[11], [12], [13]]);
    const notes = book.sheet('Notas', ['ID da fatura'], [[12]]) as DashSheet;
    notes.columnsByKey.set('idFatura', 1);
    const nfse = deps.reports.save({ ...report, id: 'nf', name: 'Notas do mês', listing: 'nfse', sheetId: notes.id } as Report);
    const d = refreshDashboard(deps, deps.dashboards.create({ kind: 'sem-nfse', reportId: report.id, secondReportId: nfse.id, owner, sheetName: '' }, 1));
    const said =
      '⚠ As faturas sem NFS-e deste painel foram selecionadas para emissão em 22/11/2026 14:30: as notas emitidas desde então só aparecem aqui depois que o relatório de NFS-e "Notas do mês" for atualizado (Relatórios › Atualizar); o painel se atualiza em seguida.';
    const head = () => String(dashSheet(book, d).grid[4]?.[0] ?? '');
    expect(head()).not.toContain('selecionadas para emissão');
    const { sheet, ids } = prepareIssue(deps, d);
    expect(sheet).toBe(source);
    expect(ids.map((i) => i.id)).toEqual([11, 13]);
    expect(head().startsWith(said)).toBe(true);
    const marked = deps.dashboards.get(d.id);
    expect(marked).toMatchObject({ issueAt: NOW, lastRefresh: { ok: true, message: said } });
    // A refresh before the NFS-e report ran again still says it; one after its run (started after the selection) does not.
    refreshDashboard(deps, marked);
    expect(head().startsWith(said)).toBe(true);
    deps.reports.save({ ...nfse, lastRun: { startedAt: NOW, origin: 'manual', rows: 1, durationMs: 1, result: 'ok' } } as Report);
    refreshDashboard(deps, marked);
    expect(head().startsWith(said)).toBe(true);
    deps.reports.save({ ...nfse, lastRun: { startedAt: NOW + 1, origin: 'manual', rows: 1, durationMs: 1, result: 'ok' } } as Report);
    expect(refreshDashboard(deps, marked).lastRefresh).toEqual({ at: NOW, ok: true, counted: 2 });
    expect(head()).not.toContain('selecionadas para emissão');
    // Nothing to issue marks nothing; a panel of another kind refuses.
    notes.write(2, 1, [[11], [12], [13]]);
    const none = refreshDashboard(deps, deps.dashboards.create({ kind: 'sem-nfse', reportId: report.id, secondReportId: 'nf', owner, sheetName: '' }, 1));
    expect(prepareIssue(deps, none).ids).toEqual([]);
    expect(deps.dashboards.get(none.id).issueAt).toBeUndefined();
    expect(() => prepareIssue(deps, dashboard)).toThrow('Só o painel "Faturas sem NFS-e" prepara a emissão de notas.');
    // A kind without an NFS-e report is never told to refresh one.
    expect(refreshDashboard(deps, { ...dashboard, issueAt: 0 }).lastRefresh?.message).toBeUndefined();
  });

  it('reports of two organizations are never compared: the refresh and the issue refuse, naming both; the same organization (or an unknown one) is compared', () => {
    const { deps, book, report, source } = world();
    source.columnsByKey.set('idFatura', 1);
    source.write(2, 1, [[11], [12]]);
    const notes = book.sheet('Notas', ['ID da fatura'], [[12]]) as DashSheet;
    notes.columnsByKey.set('idFatura', 1);
    const aurora = { key: '10001003:11444777000161', name: 'Aurora Contabilidade Ltda', document: '11444777000161', own: true };
    const ipe = { key: '20001002:04252011000110', name: 'Ipê Assessoria Contábil S/S', document: '04252011000110', own: true };
    deps.reports.save({ ...report, organizations: [aurora] });
    const nfse = deps.reports.save({ ...report, id: 'nf', name: 'Notas', listing: 'nfse', sheetId: notes.id, organizations: [ipe] } as Report);
    const d = deps.dashboards.create({ kind: 'sem-nfse', reportId: report.id, secondReportId: nfse.id, owner, sheetName: '' }, 1);
    const refused = refreshDashboard(deps, d).lastRefresh;
    expect(refused).toMatchObject({ ok: false, counted: 0 });
    expect(refused?.message).toBe(
      'Os dois relatórios são de organizações diferentes: as faturas de "Faturas do mês" vêm de "Aurora Contabilidade Ltda" (CNPJ 11.444.777/0001-61) e as NFS-e de "Notas" vêm de "Ipê Assessoria Contábil S/S" (CNPJ 04.252.011/0001-10). Compará-los diria que nenhuma fatura tem nota: escolha um relatório de NFS-e da mesma empresa das faturas.',
    );
    expect(() => invoicesToIssue(deps, d)).toThrow(/organizações diferentes/);
    deps.reports.save({ ...nfse, organizations: [{ ...aurora, name: 'outro nome do mesmo cadastro' }] });
    expect(invoicesToIssue(deps, d).ids.map((i) => i.id)).toEqual([11]);
    deps.reports.save({ ...nfse, organizations: undefined });
    expect(refreshDashboard(deps, d).lastRefresh?.ok).toBe(true);
  });

  it('after a run of the NFS-e report, the dashboards comparing with it are refreshed too', () => {
    const { deps, report } = world();
    const nfse = deps.reports.save({ ...report, id: 'nf', name: 'Notas', listing: 'nfse' } as Report);
    const d = deps.dashboards.create({ kind: 'sem-nfse', reportId: report.id, secondReportId: nfse.id, owner, sheetName: '' }, 1);
    afterReportRun(deps, nfse.id, 'u1');
    expect(deps.dashboards.get(d.id).lastRefresh?.ok).toBe(true);
  });
});

describe('how a dashboard is written', () => {
  it('its head and table headers as text, its figures in their number formats', () => {
    const { deps, book, dashboard } = world();
    const sheet = dashSheet(book, refreshDashboard(deps, dashboard));
    for (const row of [1, 2, 3, 4, 5]) expect(sheet.formats.get(`${row}:1`), `row ${row}`).toBe('@');
    expect(sheet.formats.get(`${TABLE_ROW + 1}:1`)).toBe('@');
    expect(sheet.formats.get(`${TABLE_ROW + 1}:2`)).toBe('@');
    expect(sheet.formats.get(`${TABLE_ROW + 2}:2`)).toBe('#,##0.00');
    expect(sheet.formats.get(`${TABLE_ROW + 14}:2`)).toBe('#,##0.00');
  });

  it('both sources partial: both said, one after the other', () => {
    const { deps, book, report } = world();
    const notes = book.sheet('Minhas notas', ['ID da fatura'], [[1]]) as DashSheet;
    notes.columnsByKey.set('idFatura', 1);
    deps.reports.save({ ...report, lastRun: { result: 'parcial', message: 'A falhou.' } } as Report);
    const nfse = deps.reports.save({
      ...report,
      id: 'r2',
      name: 'Notas',
      listing: 'nfse',
      sheetId: notes.id,
      lastRun: { result: 'parcial', message: 'B falhou.' },
    } as Report);
    const d = deps.dashboards.create({ kind: 'sem-nfse', reportId: report.id, secondReportId: nfse.id, owner, sheetName: '' }, 1);
    const saved = refreshDashboard(deps, d);
    expect(saved.lastRefresh?.message).toMatch(
      /foi parcial: A falhou\. Os números .* boa\. ⚠ A última atualização do relatório "Notas" foi parcial: B falhou\./,
    );
  });
});
