/**
 * The Fechamento's sheet: its conference lists go below the figures, so a
 * long list pushes the next ones past a new sheet's 1,000 rows; the sheet
 * grows before anything is written there (Sheets refuses a range outside its
 * grid). And the three reports must read the same organizations: charges of
 * another company would leave every invoice without its charge.
 */
import { lastAsked } from '../../../src/core/runs/plan-pull';
import { describe, expect, it } from 'vitest';
import { intlZone } from '../../../src/api/calendar';
import { refreshDashboard } from '../../../src/core/dashboards/refresh';
import type { ChartOrder, DashboardBookPort, DashboardSheetPort, PivotOrder } from '../../../src/core/dashboards/port';
import { DashboardStore } from '../../../src/core/dashboards/store';
import { type Report, ReportStore } from '../../../src/core/reports/reports';
import type { CellValue } from '../../../src/core/sheets/table';
import { MemoryStore, trusted } from '../bulk/fixtures';
import { MemoryBook, MemorySheet } from '../bulk/memory-book';

const zone = intlZone('America/Sao_Paulo');
const NOW = zone.instant({ year: 2026, month: 11, day: 22, hour: 14, minute: 30 }).getTime();

/** A sheet with a grid, as Sheets has: 1,000 rows until it is grown, and no write outside it. */
class GridSheet extends MemorySheet implements DashboardSheetPort {
  readonly columnsByKey = new Map<string, number>();
  rows = 1_000;
  override columnTags() {
    return new Map(this.columnsByKey);
  }
  override ensureSize(rows = 0) {
    this.rows = Math.max(this.rows, rows);
  }
  override write(row: number, column: number, values: CellValue[][]) {
    if (row + values.length - 1 > this.rows) throw new Error('The coordinates of the range are outside the dimensions of the sheet.');
    super.write(row, column, values);
  }
  reset() {
    this.grid = [];
  }
  setBold() {}
  writeLinks(row: number, column: number, cells: ReadonlyArray<{ text: string }>) {
    this.write(
      row,
      column,
      cells.map((c) => [c.text]),
    );
  }
  chartIds() {
    return [];
  }
  putChart(_id: number | null, _order: ChartOrder) {
    return 1;
  }
  removeChart() {}
  removePivots() {}
  addPivot(_order: PivotOrder) {}
}

class GridBook extends MemoryBook implements DashboardBookPort {
  override sheets: GridSheet[] = [];
  private next = 500;
  override create(name: string) {
    const s = new GridSheet(this.next++, name);
    this.sheets.push(s);
    return s;
  }
  override byId(id: number) {
    return this.sheets.find((s) => s.id === id) ?? null;
  }
  override tagged(key: string, value?: string) {
    return this.sheets
      .filter((s) => s.tags.has(key) && (value === undefined || s.tags.get(key) === value))
      .map((sheet) => ({ sheet, value: sheet.tags.get(key) ?? '' }));
  }
}

const owner = { id: 'u1', email: 'dona@example.com' };

function source(book: GridBook, name: string, keys: string[], rows: CellValue[][]): GridSheet {
  const sheet = book.create(name);
  sheet.ensureSize(rows.length + 1);
  sheet.write(1, 1, [keys]);
  if (rows.length) sheet.write(2, 1, rows);
  keys.forEach((k, i) => sheet.columnsByKey.set(k, i + 1));
  return sheet;
}

/** The three reports of a Fechamento of 10/2026 over `invoices` (no notes, no charges), and the dashboard on them. */
function world(invoices: CellValue[][]) {
  const doc = new MemoryStore();
  let n = 0;
  const book = new GridBook();
  const deps = {
    dashboards: new DashboardStore(trusted(doc), () => `painel${++n}xx`),
    reports: new ReportStore(trusted(doc), () => `rel${++n}xxxx`),
    book,
    asked: (r: Report) => lastAsked(r, NOW, zone),
    zone,
    now: () => NOW,
  };
  const sheets = {
    faturas: source(book, 'Faturas', ['idFatura', 'numero', 'idCliente', 'competencia', 'valorTotal', 'statusFatura', 'tipoFatura'], invoices),
    nfse: source(book, 'Notas', ['idFatura', 'competencia', 'valorServico'], []),
    cobrancas: source(book, 'Cobranças', ['idCobranca', 'idCliente', 'competencia', 'valor'], []),
  };
  const reports = {} as Record<keyof typeof sheets, Report>;
  for (const listing of ['faturas', 'nfse', 'cobrancas'] as const)
    reports[listing] = deps.reports.save({
      id: listing,
      name: listing,
      listing,
      connection: 'Escritório',
      owner,
      filters: {},
      sheetName: sheets[listing].name(),
      sheetId: sheets[listing].id,
      incremental: false,
      schedule: null,
      notifyByEmail: false,
      createdAt: 0,
    } as Report);
  const d = deps.dashboards.create(
    {
      kind: 'fechamento',
      reportId: reports.faturas.id,
      secondReportId: reports.nfse.id,
      chargesReportId: reports.cobrancas.id,
      competencia: '10/2026',
      owner,
      sheetName: '',
    },
    0,
  );
  return { deps, book, reports, d };
}

describe('the Fechamento sheet', () => {
  it('grows its grid for conference lists that end past row 1,000 before writing them', () => {
    // 1,200 invoices of 10/2026 with neither a note nor a charge: two lists of 1,200 rows each.
    const invoices = Array.from({ length: 1_200 }, (_, i): CellValue[] => [i + 1, i + 1, 7, '10/2026', 10, 'FATURADA', 'AVULSA']);
    const { deps, book, d } = world(invoices);
    const saved = refreshDashboard(deps, d);
    expect(saved.lastRefresh).toMatchObject({ ok: true });
    const panel = book.sheets.find((s) => s.id === saved.sheetId)!;
    const lines = panel.read(1, 1, panel.lastRow(), 1).map((r) => String(r[0]));
    expect(lines.filter((l) => /^Faturas sem (NFS-e|cobrança): 1\.200 linhas/.test(l))).toHaveLength(2);
    expect(panel.lastRow()).toBeGreaterThan(2_400);
  });

  it('refuses charges of another organization than the invoices; the same organizations in another order are closed', () => {
    const { deps, reports, d } = world([[1, 1, 7, '10/2026', 10, 'FATURADA', 'AVULSA']]);
    const org = (key: string) => ({ key, name: key, document: '', own: true });
    deps.reports.save({ ...reports.faturas, organizations: [org('a'), org('b')] });
    deps.reports.save({ ...reports.cobrancas, organizations: [org('a'), org('c')] });
    expect(refreshDashboard(deps, d).lastRefresh).toMatchObject({
      ok: false,
      message:
        'Os relatórios de faturas "faturas" e de cobranças "cobrancas" são de organizações diferentes: escolha relatórios da mesma empresa (ou das mesmas empresas).',
    });
    deps.reports.save({ ...reports.cobrancas, organizations: [org('b'), org('a'), org('b')] });
    expect(refreshDashboard(deps, d).lastRefresh).toMatchObject({ ok: true });
  });
});
