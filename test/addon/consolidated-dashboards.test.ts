/**
 * Issue 14's "done when": a consolidated, scheduled report of three companies
 * (the sandbox's three organizations, each its own key) refreshes in one
 * hourly run, and its dashboards' numbers equal totals computed here from
 * each organization's own records (the sandbox's dump), never from the
 * add-on's code. Then one company fails: the run is PARCIAL, the dashboard
 * keeps that company's last good figures and says the report was partial.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GasEmulator } from '../../dev/gas/runner';
import { type SandboxHandle, borrowSandbox } from '../../dev/sandbox/harness';
import { emulator, finishRun, ok, type Progress, SP } from './helpers';

type Rec = Record<string, any>;
let sb: SandboxHandle;

beforeAll(async () => {
  sb = await borrowSandbox({ seed: 51, size: 'small' });
});
afterAll(async () => {
  await sb?.stop();
});

const COMPANIES = ['Empresa A', 'Empresa B', 'Empresa C'];
const BUCKETS = ['A vencer', '1–30 dias', '31–60 dias', '61–90 dias', 'Mais de 90 dias'];
const cents = (n: number) => Math.round(n * 100);
const sumCents = (list: Rec[], key: string) => list.reduce((t, r) => t + cents(r[key] ?? 0), 0);
const days = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
const open = (c: Rec) => !c.isQuitado && !['CANCELADA', 'BAIXA_POR_PERDA'].includes(c.situacao);
const bucket = (c: Rec, today: string) => {
  const late = days(c.dataVencimento, today);
  return late <= 0 ? 0 : late <= 30 ? 1 : late <= 60 ? 2 : late <= 90 ? 3 : 4;
};
/** The 12 competências up to November 2026. */
const MONTHS = Array.from({ length: 12 }, (_, i) => `${String(((i + 11) % 12) + 1).padStart(2, '0')}/${i === 0 ? 2025 : 2026}`);

/** Each organization's records of a resource, by company name. */
async function dumps(resource: 'cobrancas' | 'faturas' | 'nfse'): Promise<Record<string, Rec[]>> {
  const out: Record<string, Rec[]> = {};
  for (const [org, name] of COMPANIES.entries()) out[name] = await sb.dump<Rec>(sb.orgs[org].name, resource);
  return out;
}

/** Open charges in cents per bucket, per company, from the sandbox's records. */
function aging(charges: Record<string, Rec[]>, today: string): Record<string, number[]> {
  return Object.fromEntries(
    Object.entries(charges).map(([name, list]) => [
      name,
      BUCKETS.map((_, b) =>
        sumCents(
          list.filter((c) => open(c) && bucket(c, today) === b),
          'valor',
        ),
      ),
    ]),
  );
}

function saveConnection(emu: GasEmulator, org: number, apiKey = sb.orgs[org].apiKey, id?: string): void {
  ok(emu.run('saveConnection', [{ ...(id ? { id } : {}), name: COMPANIES[org], baseUrl: sb.baseUrl, apiKey, isDefault: org === 0 }]));
}

function consolidated(emu: GasEmulator, listing: string, name: string, filters: Rec = {}): string {
  const started = ok<Progress>(emu.run('startImportRun', [{ connection: '', companies: { all: true }, listing, filters, sheetName: name, name }]));
  expect(finishRun(emu, started.reportId).status).toBe('done');
  return started.reportId;
}

function dashboard(emu: GasEmulator, kind: string, reportId: string, secondReportId?: string): { id: string; sheetName: string } {
  return ok(emu.run('createDashboard', [{ kind, reportId, ...(secondReportId ? { secondReportId } : {}) }]));
}

/** A dashboard sheet's values (found by the name it was given). */
function values(emu: GasEmulator, sheetName: string): unknown[][] {
  return emu.withServices((s) => s.SpreadsheetApp.getActiveSpreadsheet().getSheetByName(sheetName)!.getDataRange().getValues() as unknown[][]);
}

/** The main table, from its header (row 9) to the first blank row. */
function table(rows: unknown[][]): { header: unknown[]; body: unknown[][] } {
  const out: unknown[][] = [];
  for (let r = 8; r < rows.length && rows[r][0] !== ''; r++) out.push(rows[r]);
  return { header: out[0], body: out.slice(1) };
}

/** Aging per company as the dashboard shows it, in cents, by the header's company names. */
function shownAging(rows: unknown[][]): Record<string, number[]> {
  const { header, body } = table(rows);
  expect(body.map((r) => r[0])).toEqual([...BUCKETS, 'Total']);
  return Object.fromEntries(COMPANIES.map((name) => [name, BUCKETS.map((_, b) => cents(body[b][header.indexOf(name)] as number))]));
}

describe('a consolidated, scheduled report of three companies and its dashboards', () => {
  it('refreshes report and dashboards in one hourly run with the sandbox’s totals; a failing company is PARCIAL and keeps its last good figures', async () => {
    const emu = emulator();
    COMPANIES.forEach((_, org) => saveConnection(emu, org));
    const ids = Object.fromEntries((emu.run('listConnections') as Rec[]).map((c) => [c.name, c.id]));
    const charges = consolidated(emu, 'cobrancas', 'Cobranças', { isExibeCanceladas: true });
    const invoices = consolidated(emu, 'faturas', 'Faturas');
    const notes = consolidated(emu, 'nfse', 'Notas');
    const ageing = dashboard(emu, 'vencimentos', charges);
    const billing = dashboard(emu, 'faturamento', invoices);
    const withoutNfse = dashboard(emu, 'sem-nfse', invoices, notes);
    for (const r of [charges, invoices]) ok(emu.run('setReportSchedule', [r, { kind: 'hourly' }, true]));

    // The owner's hourly trigger: one execution runs both reports and refreshes their dashboards.
    const runs = emu.runDueTriggers(SP('2026-11-22T11:05:00'));
    expect(runs.map((r) => r.status)).toEqual(['ok']);
    const listed = emu.run('listReports') as Rec[];
    for (const r of [charges, invoices]) expect(listed.find((x) => x.id === r)!.lastRun).toMatchObject({ origin: 'agendado', result: 'ok' });
    const age = values(emu, ageing.sheetName);
    expect(String(age[3][0])).toMatch(/^Atualizado em 22\/11\/2026 11:/);
    const firstCharges = await dumps('cobrancas');
    const expectedAging = aging(firstCharges, '2026-11-22');
    expect(shownAging(age)).toEqual(expectedAging);
    // Every company has open charges in some bucket: the comparison is not of zeros.
    for (const name of COMPANIES) expect(expectedAging[name].some((c) => c > 0)).toBe(true);
    const { header: ageHeader, body: ageBody } = table(age);
    expect(ageHeader).toEqual(['Faixa', ...COMPANIES, 'Total']);
    expect(cents(ageBody[5][4] as number)).toBe(COMPANIES.reduce((t, n) => t + expectedAging[n].reduce((a, x) => a + x, 0), 0));

    // Faturamento por competência over the three companies' invoices.
    const bills = await dumps('faturas');
    const allBills = Object.values(bills).flat();
    const bill = values(emu, billing.sheetName);
    expect(String(bill[3][0])).toMatch(/^Atualizado em 22\/11\/2026 11:/);
    const billRows = table(bill).body;
    MONTHS.forEach((m, i) => {
      const live = allBills.filter((f) => f.competencia === m && f.statusFatura !== 'CANCELADA');
      expect([billRows[i][0], cents(billRows[i][1] as number), billRows[i][2]]).toEqual([m, sumCents(live, 'valorTotal'), live.length]);
    });

    // Faturas sem NFS-e: an invoice counts as issued only by an NFS-e of its own company (the sandbox numbers each
    // organization's ids apart, so two companies' same id is test/core/dashboards/dashboards.test.ts's case).
    const nfse = await dumps('nfse');
    const expectedMissing = COMPANIES.flatMap((name) => {
      const issued = new Set(nfse[name].filter((n) => ['AUTORIZADA', 'EMITIDA'].includes(n.statusNotaFiscalServico)).map((n) => n.idFatura));
      return bills[name].filter((f) => f.statusFatura !== 'CANCELADA' && !issued.has(f.idFatura)).map((f) => `${name}|${f.idFatura}`);
    });
    expect(expectedMissing.length).toBeGreaterThan(0);
    const missing = table(values(emu, withoutNfse.sheetName));
    const empresaAt = missing.header.indexOf('Empresa');
    expect(empresaAt).toBeGreaterThan(0);
    expect(missing.body.map((r) => `${r[empresaAt]}|${r[0]}`).sort()).toEqual(expectedMissing.sort());

    // The organizations' records change (another seed), and Empresa C's key is refused from now on.
    await sb.reset({ seed: 52, size: 'small' });
    saveConnection(emu, 2, 'sbx_live_chave_errada', ids['Empresa C']);
    const later = emu.runDueTriggers(SP('2026-11-22T12:05:00'));
    expect(later.map((r) => r.status)).toEqual(['ok']);
    const partial = (emu.run('listReports') as Rec[]).find((x) => x.id === charges)!;
    expect(partial.lastRun).toMatchObject({ origin: 'agendado', result: 'parcial' });
    expect(partial.lastRun.message).toMatch(/"Empresa C"/);
    expect(emu.displayValues('Histórico').at(-1)![5]).toBe('PARCIAL');
    const after = values(emu, ageing.sheetName);
    expect(String(after[3][0])).toMatch(/^Atualizado em 22\/11\/2026 12:/);
    const secondCharges = await dumps('cobrancas');
    const now = aging(secondCharges, '2026-11-22');
    // A and B from the sandbox's records now; C's last good figures, from its records before the failure.
    expect(now['Empresa A']).not.toEqual(expectedAging['Empresa A']);
    expect(shownAging(after)).toEqual({ 'Empresa A': now['Empresa A'], 'Empresa B': now['Empresa B'], 'Empresa C': expectedAging['Empresa C'] });
    expect(String(after[4][0])).toMatch(/^⚠ A última atualização do relatório "Cobranças" foi parcial: .*"Empresa C".*última atualização boa/);
    const listedDashboard = ((emu.run('getDashboards') as Rec).dashboards as Rec[]).find((d) => d.id === ageing.id)!;
    expect(listedDashboard.lastRefresh).toMatchObject({ ok: true, message: expect.stringMatching(/parcial/) });
    // The owner was told which company failed.
    expect(emu.mail.at(-1)!.body).toMatch(/Empresa C/);
  });
});

describe('a company whose key fails from the first run', () => {
  it('has a column that says it has no data, the Total says of which companies, and its schedule e-mails the failure once', async () => {
    await sb.reset({ seed: 51, size: 'small' });
    const emu = emulator();
    saveConnection(emu, 0);
    saveConnection(emu, 1);
    saveConnection(emu, 2, 'sbx_live_chave_errada');
    const pull = (listing: string, name: string, filters: Rec = {}) => {
      const started = ok<Progress>(emu.run('startImportRun', [{ connection: '', companies: { all: true }, listing, filters, sheetName: name, name }]));
      finishRun(emu, started.reportId);
      return started.reportId;
    };
    const charges = pull('cobrancas', 'Cobranças', { isExibeCanceladas: true });
    expect((emu.run('listReports') as Rec[]).find((x) => x.id === charges)!.lastRun).toMatchObject({ result: 'parcial' });

    // Contas a receber por faixa: A and B from their records, C a column without data, the Total of A and B.
    const ageing = dashboard(emu, 'vencimentos', charges);
    const rows = values(emu, ageing.sheetName);
    const { header, body } = table(rows);
    expect(header).toEqual(['Faixa', 'Empresa A', 'Empresa B', 'Empresa C (sem dados)', 'Total de Empresa A, Empresa B']);
    const expected = aging(await dumps('cobrancas'), '2026-11-22');
    expect(body.map((r) => r[3])).toEqual([...BUCKETS, 'Total'].map(() => 'sem dados'));
    BUCKETS.forEach((_, b) => expect(cents(body[b][4] as number)).toBe(expected['Empresa A'][b] + expected['Empresa B'][b]));
    const head = String(rows[4][0]);
    expect(head).toMatch(/^⚠ Sem dados de "Empresa C" \(.+\): a última atualização falhou nessa empresa e a aba do relatório não tem nenhuma linha dela\./);
    expect(head).not.toMatch(/última atualização boa/);

    // The Fechamento of the three companies consolidated: the same column and Total.
    const close = ok<{ sheetName: string }>(
      emu.run('createDashboard', [
        { kind: 'fechamento', reportId: pull('faturas', 'Faturas'), secondReportId: pull('nfse', 'Notas'), chargesReportId: charges, competencia: '10/2026' },
      ]),
    );
    const closeHeader = values(emu, close.sheetName)[8];
    expect(closeHeader).toEqual([
      'Item',
      'Empresa A · qtde.',
      'Empresa A · valor',
      'Empresa B · qtde.',
      'Empresa B · valor',
      'Empresa C (sem dados)',
      'Total de Empresa A, Empresa B · qtde.',
      'Total de Empresa A, Empresa B · valor',
      'Linhas',
    ]);
    expect(String(values(emu, close.sheetName)[5][0])).toMatch(/^⚠ Sem dados de "Empresa C"/);

    // Scheduled, it fails the same way every hour: the owner is e-mailed once, as a report of one company whose schedule pauses.
    ok(emu.run('setReportSchedule', [charges, { kind: 'hourly' }, true]));
    for (const at of ['2026-11-22T11:05:00', '2026-11-22T12:05:00', '2026-11-22T13:05:00']) emu.runDueTriggers(SP(at));
    const runs = emu.displayValues('Histórico').filter((r) => r[1] === 'Cobranças' && r[5] === 'PARCIAL');
    expect(runs.length).toBeGreaterThanOrEqual(3);
    expect(emu.mail.filter((m) => /Cobranças/.test(m.subject))).toHaveLength(1);
  });
});
