/**
 * The dashboards' figures over a consolidated report (its `empresa` column,
 * i14a's contract): totals per company, records of two companies with the same
 * id kept apart, and a sheet without the column read as one company.
 */
import type { Report as SavedReport } from '../../../src/core/reports/reports';
import { lastAsked } from '../../../src/core/runs/plan-pull';
import { describe, expect, it } from 'vitest';
import { intlZone } from '../../../src/api/calendar';
import { invoicesWithoutNfse } from '../../../src/core/dashboards/kinds/sem-nfse';
import { receivablesByAge } from '../../../src/core/dashboards/kinds/vencimentos';
import type { SourceTable } from '../../../src/core/dashboards/sources';
import type { DashboardBookPort } from '../../../src/core/dashboards/port';
import { afterReportRun } from '../../../src/core/dashboards/after-run';
import { CLOSING_EXTRA_MS } from '../../../src/core/dashboards/kinds/fechamento';
import { DashboardStore } from '../../../src/core/dashboards/store';
import { ReportStore } from '../../../src/core/reports/reports';
import type { CellValue } from '../../../src/core/sheets/table';
import { altered, MemoryStore, trusted } from '../bulk/fixtures';

const zone = intlZone('America/Sao_Paulo');
const today = { day: { year: 2026, month: 11, day: 22 }, zone };
/** A date cell as the sheet gives it: midnight in the spreadsheet's zone. */
const day = (iso: string) => zone.instant({ year: +iso.slice(0, 4), month: +iso.slice(5, 7), day: +iso.slice(8, 10) });

function table(columns: Record<string, CellValue[]>): SourceTable {
  const rows = Math.max(...Object.values(columns).map((c) => c.length));
  return { rows, column: (key) => columns[key] };
}

/** Deps at 1_000 whose spreadsheet fails any touch. */
function sheetless(dashboards: DashboardStore, reports: ReportStore) {
  const book = new Proxy({} as DashboardBookPort, {
    get: () => {
      throw new Error('the sheet must not be touched');
    },
  });
  return { dashboards, reports, book, asked: (r: SavedReport) => lastAsked(r, 1_000, zone), zone, now: () => 1_000 };
}

describe('Contas a receber por faixa de vencimento', () => {
  const charges = {
    valor: [100, 50.1, 20, 7, 1000],
    dataVencimento: [day('2026-11-30'), day('2026-11-21'), day('2026-08-01'), day('2026-11-01'), day('2026-10-01')],
    isQuitado: [false, false, false, false, true],
    situacao: ['EMITIDA', 'EMITIDA', 'EMITIDA', 'CANCELADA', 'EMITIDA'],
  };

  it('totals each bucket per company when the sheet has the empresa column', () => {
    const f = receivablesByAge(table({ ...charges, empresa: ['Alfa', 'Beta', 'Alfa', 'Beta', 'Beta'] }), today);
    expect(f.table.header).toEqual(['Faixa', 'Alfa', 'Beta', 'Total']);
    expect(f.table.rows).toEqual([
      ['A vencer', 100, 0, 100],
      ['1–30 dias', 0, 50.1, 50.1],
      ['31–60 dias', 0, 0, 0],
      ['61–90 dias', 0, 0, 0],
      ['Mais de 90 dias', 20, 0, 20],
      ['Total', 120, 50.1, 170.1],
    ]);
    expect(f.chart).toMatchObject({ type: 'COLUMN', rows: 5, columns: 3, options: { isStacked: true } });
  });

  it('is one total with counts for a single company', () => {
    const f = receivablesByAge(table(charges), today);
    expect(f.table.rows.map((r) => r.slice(1))).toEqual([
      [100, 1],
      [50.1, 1],
      [0, 0],
      [0, 0],
      [20, 1],
      [170.1, 3],
    ]);
    expect(f.counted).toBe(3);
  });
});

describe('Faturas sem NFS-e', () => {
  it('matches invoices and notes within the same company: two companies’ invoice 17 are different invoices', () => {
    const invoices = table({
      empresa: ['Alfa', 'Beta', 'Beta'],
      idFatura: [17, 17, 18],
      numero: [1, 1, 2],
      nomeCliente: ['a', 'b', 'c'],
      competencia: ['11/2026', '11/2026', '10/2026'],
      valorTotal: [10, 20, 30],
      statusFatura: ['FATURADA', 'FATURADA', 'CANCELADA'],
    });
    const nfse = table({ empresa: ['Alfa'], idFatura: [17] });
    const f = invoicesWithoutNfse(invoices, nfse);
    expect(f.invoices).toEqual([{ empresa: 'Beta', id: 17 }]);
    expect(f.table.rows).toEqual([[17, 1, 'b', '11/2026', 20, 'Beta']]);
  });
});

describe('the refresh after a report run', () => {
  it('starts no dashboard past its time: the dashboard says it waits, and its sheet is not touched', () => {
    const doc = new MemoryStore();
    let n = 0;
    const dashboards = new DashboardStore(trusted(doc), () => `painel0${++n}`);
    const made = dashboards.create({ kind: 'vencimentos', reportId: 'r1', owner: { id: 'u1', email: 'a@b' }, sheetName: 'Painel' }, 0);
    const other = dashboards.create({ kind: 'vencimentos', reportId: 'r1', owner: { id: 'u2', email: 'c@d' }, sheetName: 'Outro' }, 0);
    const deps = sheetless(dashboards, new ReportStore(trusted(doc), () => 'x'));
    afterReportRun(deps, 'r1', 'u1', 999);
    expect(dashboards.get(made.id).lastRefresh).toMatchObject({ ok: false, message: expect.stringMatching(/próxima execução/) });
    // Someone else's dashboard on the same report is theirs to refresh.
    expect(dashboards.get(other.id).lastRefresh).toBeUndefined();
  });

  it('leaves alone a dashboard whose stored item fails its seal: someone else may have pointed it at any sheet', () => {
    // Every item reads as changed by someone else since the running user saved it.
    const doc = altered();
    const dashboards = new DashboardStore(doc, () => 'painel01');
    const made = dashboards.create({ kind: 'vencimentos', reportId: 'r1', owner: { id: 'u1', email: 'a@b' }, sheetName: 'Painel' }, 0);
    const deps = sheetless(dashboards, new ReportStore(doc, () => 'x'));
    // Out of time it is not even marked as waiting; in time it is not drawn.
    afterReportRun(deps, 'r1', 'u1', 999);
    afterReportRun(deps, 'r1', 'u1');
    expect(dashboards.get(made.id).lastRefresh).toBeUndefined();
  });

  it('starts no Fechamento without its longer time: it reads three reports', () => {
    const doc = new MemoryStore();
    const dashboards = new DashboardStore(trusted(doc), () => 'painel01');
    const made = dashboards.create({ kind: 'fechamento', reportId: 'r0', chargesReportId: 'r1', owner: { id: 'u1', email: 'a@b' }, sheetName: 'Painel' }, 0);
    const deps = sheetless(dashboards, new ReportStore(trusted(doc), () => 'x'));
    // A minute left past the other panels' reserve is not enough for it.
    afterReportRun(deps, 'r1', 'u1', 1_000 + CLOSING_EXTRA_MS - 1);
    expect(dashboards.get(made.id).lastRefresh).toMatchObject({ ok: false, message: expect.stringMatching(/próxima execução/) });
  });
});
