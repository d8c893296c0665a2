/**
 * Painéis end to end: the real bundle in the emulator builds each dashboard
 * from a report's sheet; its figures are checked against totals computed here
 * from the sandbox's own records (its dump), not from the add-on's code. A
 * dashboard refreshes after each run of its report, and is found by id after
 * the user renamed and moved its sheet; a sheet of the user's is never taken.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GasEmulator } from '../../dev/gas/runner';
import { type SandboxHandle, borrowSandbox } from '../../dev/sandbox/harness';
import { connect, emulator, finishRun, importAll, ok, SP } from './helpers';

type Rec = Record<string, any>;
let sb: SandboxHandle;
let emu: GasEmulator;
const dump: Record<string, Rec[]> = {};
const reports: Record<string, string> = {};

/** Days from an ISO date to another (both calendar days). */
const days = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
const cents = (n: number) => Math.round(n * 100);
const sumCents = (list: Rec[], key: string) => list.reduce((t, r) => t + cents(r[key] ?? 0), 0);
const open = (c: Rec) => !c.isQuitado && !['CANCELADA', 'BAIXA_POR_PERDA'].includes(c.situacao);
const MONTHS = Array.from({ length: 12 }, (_, i) => {
  const m = 2026 * 12 + 10 - 11 + i;
  return `${String((m % 12) + 1).padStart(2, '0')}/${Math.floor(m / 12)}`;
});

beforeAll(async () => {
  sb = await borrowSandbox({ seed: 41, size: 'small' });
  for (const r of ['cobrancas', 'faturas', 'nfse', 'transacoes'] as const) dump[r] = await sb.dump<Rec>(sb.orgs[0].name, r);
  emu = emulator({ startAt: SP('2026-11-22T10:00:00') });
  connect(emu, sb);
  const sheets: Record<string, string> = { cobrancas: 'Cobranças', faturas: 'Faturas', nfse: 'Notas', transacoes: 'Transações' };
  for (const [listing, sheetName] of Object.entries(sheets)) {
    const filters = listing === 'cobrancas' ? { isExibeCanceladas: true } : {};
    const p = importAll(emu, { listing, sheetName, filters, name: sheetName, incremental: false });
    expect(p.status).toBe('done');
    reports[listing] = p.reportId;
  }
}, 120_000);
afterAll(async () => {
  await sb?.stop();
});

interface Built {
  id: string;
  sheetName: string;
  title: string;
}

function create(kind: string, reportId: string, secondReportId?: string): Built {
  return ok<Built>(emu.run('createDashboard', [{ kind, reportId, ...(secondReportId ? { secondReportId } : {}) }]));
}

function dashboards(): Array<Built & { lastRefresh: Rec; kind: string }> {
  return (emu.run('getDashboards') as Rec).dashboards;
}

/** The dashboard sheet's cells and its charts and pivot tables, by sheet name. */
function sheetOf(name: string) {
  return emu.withServices((s) => {
    const sh = s.SpreadsheetApp.getActiveSpreadsheet().getSheetByName(name)!;
    const charts = sh.getCharts().map((c: any) => ({
      id: c.getChartId(),
      type: String(c.modify().getChartType()),
      ranges: c.getRanges().map((r: any) => r.getA1Notation()),
      title: c.getOptions().get('title'),
    }));
    const pivots = sh.getPivotTables().map((p: any) => {
      const a = p.getAnchorCell();
      return sh.getRange(a.getRow(), a.getColumn(), 16, 8).getValues();
    });
    return { id: sh.getSheetId() as number, values: sh.getDataRange().getValues() as unknown[][], charts, pivots };
  });
}

/** The main table from its header (row 9) to the first blank row. */
function table(values: unknown[][]): unknown[][] {
  const out: unknown[][] = [];
  for (let r = 8; r < values.length && values[r][0] !== ''; r++) out.push(values[r]);
  return out;
}

describe('Painéis over one company', () => {
  it('Contas a receber por faixa de vencimento: open charges by days past due, a column chart over the buckets', () => {
    const d = create('vencimentos', reports.cobrancas);
    const { values, charts } = sheetOf(d.sheetName);
    expect(values[0][0]).toBe('Contas a receber por faixa de vencimento');
    expect(String(values[1][0])).toContain('relatório "Cobranças" (aba "Cobranças")');
    expect(String(values[2][0])).toContain('Exibir canceladas: Sim');
    expect(String(values[3][0])).toMatch(/^Atualizado em 22\/11\/2026 10:0\d/);
    const bucket = (c: Rec) => {
      const late = days(c.dataVencimento, '2026-11-22');
      return late <= 0 ? 0 : late <= 30 ? 1 : late <= 60 ? 2 : late <= 90 ? 3 : 4;
    };
    const openOnes = dump.cobrancas.filter(open);
    const expected = [0, 1, 2, 3, 4].map((b) => openOnes.filter((c) => bucket(c) === b));
    const rows = table(values);
    expect(rows.map((r) => r[0])).toEqual(['Faixa', 'A vencer', '1–30 dias', '31–60 dias', '61–90 dias', 'Mais de 90 dias', 'Total']);
    expected.forEach((list, b) => {
      expect(cents(rows[b + 1][1] as number)).toBe(sumCents(list, 'valor'));
      expect(rows[b + 1][2]).toBe(list.length);
    });
    expect(cents(rows[6][1] as number)).toBe(sumCents(openOnes, 'valor'));
    expect(openOnes.length).toBeGreaterThan(5);
    expect(charts).toEqual([{ id: expect.any(Number), type: 'COLUMN', ranges: ['A9:B14'], title: 'Contas a receber por faixa de vencimento' }]);
  });

  it('Faturamento por competência: the last 12 competências without cancelled invoices, and a pivot table by status', () => {
    const d = create('faturamento', reports.faturas);
    const { values, charts, pivots } = sheetOf(d.sheetName);
    const rows = table(values);
    const live = dump.faturas.filter((f) => f.statusFatura !== 'CANCELADA');
    expect(rows.slice(1, 13).map((r) => r[0])).toEqual(MONTHS);
    MONTHS.forEach((m, i) =>
      expect([m, cents(rows[i + 1][1] as number), rows[i + 1][2]]).toEqual([
        m,
        sumCents(
          live.filter((f) => f.competencia === m),
          'valorTotal',
        ),
        live.filter((f) => f.competencia === m).length,
      ]),
    );
    // The open invoices (ABERTA) it sums are said, per competência, to the cent.
    const money = (c: number) => `R$ ${String(Math.floor(c / 100)).replace(/\B(?=(\d{3})+$)/g, '.')},${String(c % 100).padStart(2, '0')}`;
    const open = MONTHS.flatMap((m) => {
      const of = live.filter((f) => f.competencia === m && f.statusFatura === 'ABERTA');
      return of.length ? [`${m}: ${of.length} fatura${of.length > 1 ? 's' : ''} · ${money(sumCents(of, 'valorTotal'))}`] : [];
    });
    expect(open.length).toBeGreaterThan(0);
    expect(String(values[4][0])).toContain(`Somadas no faturado, faturas em aberto (ABERTA), ainda sem faturamento: ${open.join('; ')}.`);
    expect(charts.map((c) => [c.type, c.ranges])).toEqual([['COLUMN', ['A9:B21']]]);
    // The pivot is Sheets' own: every invoice of the 12 competências by status, its grand total from the sandbox's records.
    expect(pivots).toHaveLength(1);
    const grid = pivots[0];
    expect(grid[0].slice(0, 2)).toEqual(['Valor total', 'Status']);
    const totalRow = grid.find((r) => r[0] === 'Total geral')!;
    const inMonths = dump.faturas.filter((f) => MONTHS.includes(f.competencia));
    const statuses = grid[1].slice(1).filter((s) => s !== '' && s !== 'Total geral');
    expect(statuses).toEqual([...new Set(inMonths.map((f) => f.statusFatura))].sort());
    expect(cents(totalRow[statuses.length + 1] as number)).toBe(sumCents(inMonths, 'valorTotal'));
    // Its competências in time order, shown as MM/AAAA: 12/2025 before 01/2026, never after 11/2026 as text would sort.
    const labels = emu.withServices((s) => {
      const p = s.SpreadsheetApp.getActiveSpreadsheet().getSheetByName(d.sheetName)!.getPivotTables()[0].getAnchorCell();
      return p
        .offset(2, 0, 14, 1)
        .getDisplayValues()
        .map((r: string[]) => r[0]) as string[];
    });
    const shown = labels.slice(0, labels.indexOf('Total geral'));
    expect(shown).toEqual(MONTHS.filter((m) => inMonths.some((f) => f.competencia === m)));
    expect(shown[0]).toBe('12/2025');
  });

  it('Inadimplência por cliente: the 20 largest overdue amounts, a bar chart', () => {
    const d = create('inadimplencia', reports.cobrancas);
    const { values, charts } = sheetOf(d.sheetName);
    const byClient = new Map<number, { name: string; c: number; n: number }>();
    for (const c of dump.cobrancas.filter((x) => open(x) && days(x.dataVencimento, '2026-11-22') > 0)) {
      const e = byClient.get(c.idCliente) ?? { name: c.nomeFantasia || c.razaoSocial, c: 0, n: 0 };
      e.c += cents(c.valor);
      e.n += 1;
      byClient.set(c.idCliente, e);
    }
    const top = [...byClient.values()].sort((a, b) => b.c - a.c).slice(0, 20);
    const rows = table(values).slice(1);
    expect(rows.map((r) => cents(r[1] as number))).toEqual(top.map((t) => t.c));
    expect(rows.map((r) => r[2])).toEqual(top.map((t) => t.n));
    expect(charts.map((c) => [c.type, c.ranges])).toEqual([['BAR', [`A9:B${9 + top.length}`]]]);
  });

  it('Faturas sem NFS-e: invoices the NFS-e report lacks, and a path that selects their rows for Lançamentos em lote', () => {
    const d = create('sem-nfse', reports.faturas, reports.nfse);
    const { values } = sheetOf(d.sheetName);
    // Only a note the interface names as issued is an invoice's note: the invoice whose only note was cancelled has none.
    const issued = new Set(dump.nfse.filter((n) => ['AUTORIZADA', 'EMITIDA'].includes(n.statusNotaFiscalServico)).map((n) => n.idFatura));
    const withoutNote = dump.faturas.filter((f) => f.statusFatura !== 'CANCELADA' && !issued.has(f.idFatura));
    const missing = withoutNote.map((f) => f.idFatura);
    expect(missing.length).toBeGreaterThan(0);
    const cancelled = dump.nfse.filter((n) => n.statusNotaFiscalServico === 'CANCELADA').map((n) => n.idFatura);
    expect(cancelled.length).toBeGreaterThan(0);
    for (const id of cancelled) expect(missing).toContain(id);
    // The open invoices among them are said, with their ids, above the list that Emitir NFS-e selects.
    const open = withoutNote.filter((f) => f.statusFatura === 'ABERTA').map((f) => f.idFatura);
    expect(open.length).toBeGreaterThan(1);
    expect(
      values
        .slice(0, 8)
        .map((r) => String(r[0]))
        .join(' '),
    ).toContain(
      `Em aberto (ABERTA), ainda sem faturamento: ${open.length} faturas da lista (IDs ${open.slice(0, 10).join(', ')}${open.length > 10 ? '…' : ''}). "Emitir NFS-e destas faturas" seleciona também estas: confira antes de emitir.`,
    );
    expect(
      table(values)
        .slice(1)
        .map((r) => r[0])
        .sort(),
    ).toEqual([...missing].sort());
    const prepared = ok<{ invoices: number; sheetName: string }>(emu.run('prepareNfseIssue', [d.id]));
    expect(prepared).toEqual({ invoices: missing.length, sheetName: 'Faturas' });
    // The selection is on the invoices sheet, on exactly those invoices' rows; the bulk sidebar is open.
    const selected = emu.withServices((s) => {
      const ss = s.SpreadsheetApp.getActiveSpreadsheet();
      const sh = ss.getActiveSheet();
      const notes = sh.getRange(1, 1, 1, sh.getLastColumn()).getNotes()[0] as string[];
      const idCol = notes.indexOf('idFatura') + 1;
      const rows: number[] = [];
      for (const r of ss.getActiveRangeList()!.getRanges()) for (let i = r.getRow(); i <= r.getLastRow(); i++) rows.push(i);
      return { name: sh.getName(), ids: rows.map((r) => sh.getRange(r, idCol).getValue()) };
    });
    expect(selected.name).toBe('Faturas');
    expect(selected.ids.sort()).toEqual([...missing].sort());
  });

  it('Fluxo de caixa por plano de contas: receipts and payments by month of payment, and by plano de contas', () => {
    const d = create('fluxo-caixa', reports.transacoes);
    const { values, charts } = sheetOf(d.sheetName);
    const paid = dump.transacoes.filter(
      (t) => t.isQuitado && t.tipoTransacao !== 'T' && t.dataPagamento && MONTHS.includes(`${t.dataPagamento.slice(5, 7)}/${t.dataPagamento.slice(0, 4)}`),
    );
    const month = (t: Rec) => `${t.dataPagamento.slice(5, 7)}/${t.dataPagamento.slice(0, 4)}`;
    const rows = table(values);
    MONTHS.forEach((m, i) => {
      const inMonth = paid.filter((t) => month(t) === m);
      expect([m, cents(rows[i + 1][1] as number), cents(rows[i + 1][2] as number)]).toEqual([
        m,
        sumCents(
          inMonth.filter((t) => t.tipoOperacao === 'C'),
          'valor',
        ),
        sumCents(
          inMonth.filter((t) => t.tipoOperacao === 'D'),
          'valor',
        ),
      ]);
    });
    expect(charts.map((c) => [c.type, c.ranges])).toEqual([['COLUMN', ['A9:C21']]]);
    // By plano de contas: the split of the same transactions.
    const plans = new Map<string, number>();
    for (const t of paid)
      for (const p of t.planosConta) plans.set(p.planoConta, (plans.get(p.planoConta) ?? 0) + cents(p.valor) * (p.tipoOperacao === 'C' ? 1 : -1));
    const start = values.findIndex((r) => r[0] === 'Plano de contas');
    const detail = new Map<string, number>();
    for (let r = start + 1; r < values.length && values[r][0] !== ''; r++) detail.set(String(values[r][0]), cents(values[r][3] as number));
    expect(detail).toEqual(plans);
  });

  it('offers its owner "Emitir NFS-e destas faturas" on a kind that lists invoices to issue, and on no other', () => {
    const issues = Object.fromEntries(dashboards().map((d) => [d.kind, (d as Rec).issues]));
    expect(issues).toMatchObject({ vencimentos: false, faturamento: false, inadimplencia: false, 'sem-nfse': true, 'fluxo-caixa': false });
  });
});

describe('a dashboard and its report', () => {
  it('refreshes after each run of its report; renamed and moved, its sheet is still the one updated; a sheet of the user is never taken', () => {
    // The user already has a sheet with the name a new dashboard would take.
    emu.withServices((s) => s.SpreadsheetApp.getActiveSpreadsheet().insertSheet('Painel · Inadimplência por cliente (2)').getRange('A1').setValue('meu'));
    const existing = emu.sheetNames();
    const d = create('inadimplencia', reports.cobrancas);
    expect(existing).not.toContain(d.sheetName);
    expect(d.sheetName).toMatch(/^Painel · Inadimplência por cliente \(\d\)$/);
    expect(emu.values('Painel · Inadimplência por cliente (2)')).toEqual([['meu']]);
    const before = sheetOf(d.sheetName);
    emu.withServices((s) => {
      const ss = s.SpreadsheetApp.getActiveSpreadsheet();
      const sh = ss.getSheetByName(d.sheetName)!;
      sh.setName('Meu painel');
      ss.setActiveSheet(sh);
      ss.moveActiveSheet(1);
    });
    const count = emu.withServices((s) => s.SpreadsheetApp.getActiveSpreadsheet().getSheets().length);
    emu.run('runReport', [reports.cobrancas], { at: SP('2027-01-06T10:00:00') });
    expect(finishRun(emu, reports.cobrancas).status).toBe('done');
    const after = sheetOf('Meu painel');
    expect(after.id).toBe(before.id);
    expect(emu.withServices((s) => s.SpreadsheetApp.getActiveSpreadsheet().getSheets().length)).toBe(count);
    expect(String(after.values[3][0])).toMatch(/^Atualizado em 06\/01\/2027/);
    // The same chart, updated in place; figures from the sandbox's records at the new date.
    expect(after.charts.map((c) => c.id)).toEqual(before.charts.map((c) => c.id));
    const overdue = dump.cobrancas.filter((c) => open(c) && days(c.dataVencimento, '2027-01-06') > 0);
    const byClient = new Map<number, number>();
    for (const c of overdue) byClient.set(c.idCliente, (byClient.get(c.idCliente) ?? 0) + cents(c.valor));
    const top = [...byClient.values()].sort((a, b) => b - a).slice(0, 20);
    expect(
      table(after.values)
        .slice(1)
        .map((r) => cents(r[1] as number)),
    ).toEqual(top);
    // A dashboard's sheet is never offered as a report's destination.
    expect((emu.run('getImportForm') as Rec).sheets).not.toContain('Meu painel');
    const listed = dashboards().find((x) => x.id === d.id)!;
    expect(listed.sheetName).toBe('Meu painel');
    expect(listed.lastRefresh).toMatchObject({ ok: true, at: expect.stringMatching(/^06\/01\/2027/) });
  });

  it('refreshes after a scheduled run of its report, in the owner’s hourly trigger', () => {
    const faturamento = dashboards().find((x) => x.kind === 'faturamento')!;
    expect((emu.run('setReportSchedule', [reports.faturas, { kind: 'hourly' }, false]) as Rec).ok).toBe(true);
    const runs = emu.runDueTriggers(SP('2027-01-06T13:30:00'));
    expect(runs.map((r) => r.status)).toContain('ok');
    const { values } = sheetOf(faturamento.sheetName);
    expect(String(values[3][0])).toMatch(/^Atualizado em 06\/01\/2027 1\d:/);
    // Twelve competências up to January 2027 now, from the sandbox's records.
    const rows = table(values);
    expect(rows[12][0]).toBe('01/2027');
    const live = dump.faturas.filter((f) => f.statusFatura !== 'CANCELADA' && f.competencia === '12/2026');
    expect(cents(rows[11][1] as number)).toBe(sumCents(live, 'valorTotal'));
    // A trigger without the document as its active spreadsheet (opened by id) refreshes it too: at the day's first hour,
    // since the later hours of a day whose listing stayed as it was leave the spreadsheet closed (quiet-check.ts).
    emu.runDueTriggers(SP('2027-01-06T23:59:00'));
    const lastOfDay = sheetOf(faturamento.sheetName).values[3][0];
    const later = emu.runDueTriggers(SP('2027-01-07T00:59:00'), { documentContext: false });
    expect(later.map((r) => r.status)).toContain('ok');
    const again = sheetOf(faturamento.sheetName).values[3][0];
    expect(again).not.toBe(lastOfDay);
    expect(String(again)).toMatch(/^Atualizado em 07\/01\/2027 00:/);
  });
});

describe('a deleted report', () => {
  it('its dashboards say so, on their sheets and in the list; their last figures stay', () => {
    const d = dashboards().find((x) => x.kind === 'sem-nfse')!;
    const before = sheetOf(d.sheetName).values;
    emu.run('deleteReport', [reports.nfse]);
    const after = sheetOf(d.sheetName).values;
    expect(String(after[5][0])).toMatch(/^⚠ Não atualizado em .*: O relatório de NFS-e deste painel foi excluído: exclua o painel ou crie outro\.$/);
    expect(table(after)).toEqual(table(before));
    const listed = (emu.run('getDashboards') as Rec).dashboards.find((x: Rec) => x.id === d.id);
    expect(listed).toMatchObject({ secondReportName: '(relatório excluído)', lastRefresh: { ok: false, message: expect.stringMatching(/excluído/) } });
    // A dashboard on another report is left as it was.
    expect(dashboards().find((x) => x.kind === 'faturamento')!.lastRefresh.ok).toBe(true);
  });
});
