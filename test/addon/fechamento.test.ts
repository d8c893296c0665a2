/**
 * Issue 25's "done when": the Fechamento da competência closes 10/2026 for one
 * company and for three companies consolidated, and every figure equals, to
 * the cent, what this test computes from the sandbox's own records (its dump)
 * of each organization, never from the add-on's code. The sandbox is seeded
 * to hold, in 10/2026, a note without a number, an ISS retido note, an
 * invoice without a charge and a note whose value differs from its invoice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GasEmulator } from '../../dev/gas/runner';
import { type SandboxHandle, borrowSandbox } from '../../dev/sandbox/harness';
import { bulkToEnd, emulator, finishRun, ok, type Progress } from './helpers';

type Rec = Record<string, any>;
let sb: SandboxHandle;

beforeAll(async () => {
  sb = await borrowSandbox({ seed: 61, size: 'small' });
});
afterAll(async () => {
  await sb?.stop();
});

const COMP = '10/2026';
const TODAY = '2026-11-22';
const COMPANIES = ['Empresa A', 'Empresa B', 'Empresa C'];
const cents = (n: number) => Math.round(n * 100);
const pct = (a: number) => `${a.toFixed(2).replace('.', ',')}%`;

interface Dump {
  clientes: Rec[];
  faturas: Rec[];
  nfse: Rec[];
  cobrancas: Rec[];
}

async function dumpOf(org: number): Promise<Dump> {
  const name = sb.orgs[org].name;
  return {
    clientes: await sb.dump(name, 'clientes'),
    faturas: await sb.dump(name, 'faturas'),
    nfse: await sb.dump(name, 'nfse'),
    cobrancas: await sb.dump(name, 'cobrancas'),
  };
}

type T = [number, number];
const tally = (list: Rec[], value: (r: Rec) => number): T => [list.length, list.reduce((t, r) => t + value(r), 0)];

/** The statuses the interface names for a note: only these are issued notes; any other stays out of the totals. */
const ISSUED = ['AUTORIZADA', 'EMITIDA'];

/** The conference's record lists of one organization, computed from its dump. */
function checksOf(d: Dump) {
  const live = d.faturas.filter((f) => f.competencia === COMP && f.statusFatura !== 'CANCELADA');
  const ofMonth = d.nfse.filter((n) => n.competencia === COMP);
  const notes = ofMonth.filter((n) => ISSUED.includes(n.statusNotaFiscalServico));
  const noted = new Set(d.nfse.filter((n) => ISSUED.includes(n.statusNotaFiscalServico)).map((n) => n.idFatura));
  const invoice = new Map(d.faturas.map((f) => [f.idFatura, f]));
  const charges = d.cobrancas.filter((c) => c.competencia === COMP && !['CANCELADA', 'BAIXA_POR_PERDA'].includes(c.situacao));
  // Each charge covers one invoice of its client: one of equal value first, then any.
  const pool = new Map<number, Rec[]>();
  for (const c of charges) pool.set(c.idCliente, [...(pool.get(c.idCliente) ?? []), c]);
  const take = (f: Rec, exact: boolean) => {
    const list = pool.get(f.idCliente) ?? [];
    const at = exact ? list.findIndex((c) => cents(c.valor) === cents(f.valorTotal)) : list.length ? 0 : -1;
    if (at >= 0) list.splice(at, 1);
    return at >= 0;
  };
  const noCharge = live.filter((f) => !take(f, true)).filter((f) => !take(f, false));
  const open = charges.filter((c) => !c.isQuitado);
  return {
    live,
    notes,
    ofMonth,
    'sem-nfse': live.filter((f) => !noted.has(f.idFatura)),
    'valor-diferente': notes.filter((n) => invoice.has(n.idFatura) && cents(n.valorServico) !== cents(invoice.get(n.idFatura)!.valorTotal)),
    'sem-numero': notes.filter((n) => !n.numeroNotaFiscalServico),
    'sem-cobranca': noCharge,
    'sem-fatura': charges.filter((c) => [...pool.values()].some((left) => left.includes(c))),
    pagas: charges.filter((c) => c.isQuitado),
    'a-vencer': open.filter((c) => c.dataVencimento >= TODAY),
    vencidas: open.filter((c) => c.dataVencimento < TODAY),
    invoice,
  };
}

/** The panel's table as this test expects it: each line's label and, per company, count and cents. */
function expectedLines(dumps: Dump[]): Array<[string, ...T[]]> {
  const each = dumps.map(checksOf);
  const rates = [...new Set(each.flatMap((c) => c.notes.map((n) => n.aliquota as number)))].sort((a, b) => a - b);
  const others = [...new Set(each.flatMap((c) => c.ofMonth.map((n) => n.statusNotaFiscalServico as string)))].filter((s) => !ISSUED.includes(s)).sort();
  const line = (label: string, pick: (c: ReturnType<typeof checksOf>) => T): [string, ...T[]] => [label, ...each.map(pick)];
  const invoices = (list: (c: ReturnType<typeof checksOf>) => Rec[]) => (c: ReturnType<typeof checksOf>) => tally(list(c), (f) => cents(f.valorTotal));
  const notes =
    (keep: (n: Rec) => boolean, key = 'valorServico') =>
    (c: ReturnType<typeof checksOf>) =>
      tally(c.notes.filter(keep), (n) => cents(n[key]));
  const charges = (k: 'sem-fatura' | 'pagas' | 'a-vencer' | 'vencidas') => (c: ReturnType<typeof checksOf>) => tally(c[k], (x) => cents(x.valor));
  const section = (title: string): [string, ...T[]] => [title, ...each.map((): T => [Number.NaN, Number.NaN])];
  return [
    section('Faturamento'),
    line(
      'Faturas da competência (sem as canceladas)',
      invoices((c) => c.live),
    ),
    line(
      'Recorrentes',
      invoices((c) => c.live.filter((f) => f.tipoFatura === 'RECORRENTE')),
    ),
    line(
      'Avulsas',
      invoices((c) => c.live.filter((f) => f.tipoFatura === 'AVULSA')),
    ),
    line(
      'Em aberto (ABERTA: ainda não faturadas, incluídas no total)',
      invoices((c) => c.live.filter((f) => f.statusFatura === 'ABERTA')),
    ),
    line('Canceladas (fora do total)', (c) =>
      tally(
        dumps[each.indexOf(c)].faturas.filter((f) => f.competencia === COMP && f.statusFatura === 'CANCELADA'),
        (f) => cents(f.valorTotal),
      ),
    ),
    section('NFS-e'),
    line(
      'Notas emitidas da competência (AUTORIZADA e EMITIDA) · valor dos serviços',
      notes(() => true),
    ),
    line(
      'AUTORIZADA',
      notes((n) => n.statusNotaFiscalServico === 'AUTORIZADA'),
    ),
    line(
      'EMITIDA com número',
      notes((n) => n.statusNotaFiscalServico === 'EMITIDA' && !!n.numeroNotaFiscalServico),
    ),
    line(
      'EMITIDA sem número',
      notes((n) => n.statusNotaFiscalServico === 'EMITIDA' && !n.numeroNotaFiscalServico),
    ),
    ...others.map((status) =>
      line(`${status} (não é emitida: fora dos totais)`, (c) =>
        tally(
          c.ofMonth.filter((n) => n.statusNotaFiscalServico === status),
          (n) => cents(n.valorServico),
        ),
      ),
    ),
    line(
      'ISS retido pelo tomador',
      notes((n) => n.issRetido === 2, 'valorIss'),
    ),
    ...rates.map((a) =>
      line(
        `   retido à alíquota de ${pct(a)}`,
        notes((n) => n.issRetido === 2 && n.aliquota === a, 'valorIss'),
      ),
    ),
    line(
      'ISS a recolher',
      notes((n) => n.issRetido !== 2, 'valorIss'),
    ),
    ...rates.map((a) =>
      line(
        `   a recolher à alíquota de ${pct(a)}`,
        notes((n) => n.issRetido !== 2 && n.aliquota === a, 'valorIss'),
      ),
    ),
    line(
      'Valor líquido',
      notes(() => true, 'valorLiquidoNfse'),
    ),
    section('Conferência'),
    line(
      'Faturas sem NFS-e',
      invoices((c) => c['sem-nfse']),
    ),
    line('NFS-e com valor diferente da fatura (diferença: nota − fatura)', (c) =>
      tally(c['valor-diferente'], (n) => cents(n.valorServico) - cents(c.invoice.get(n.idFatura)!.valorTotal)),
    ),
    line('Notas ainda sem número', (c) => tally(c['sem-numero'], (n) => cents(n.valorServico))),
    line(
      'Faturas sem cobrança',
      invoices((c) => c['sem-cobranca']),
    ),
    line('Cobranças da competência sem fatura', charges('sem-fatura')),
    line('Cobranças da competência pagas', charges('pagas')),
    line('Cobranças da competência em aberto, a vencer', charges('a-vencer')),
    line('Cobranças da competência vencidas', charges('vencidas')),
  ];
}

/** The panel's figures table (header on row 9, to the first blank row) as label and per block count and cents; section rows as NaN. */
function shownLines(emu: GasEmulator, sheetName: string, blocks: number): { header: unknown[]; lines: Array<[string, ...T[]]>; values: unknown[][] } {
  const values = emu.withServices((s) => s.SpreadsheetApp.getActiveSpreadsheet().getSheetByName(sheetName)!.getDataRange().getValues() as unknown[][]);
  const rows: unknown[][] = [];
  for (let r = 9; r < values.length && values[r][0] !== ''; r++) rows.push(values[r]);
  const lines = rows.map((row): [string, ...T[]] => [
    String(row[0]),
    ...Array.from(
      { length: blocks },
      (_, b): T => (row[1 + 2 * b] === '' ? [Number.NaN, Number.NaN] : [row[1 + 2 * b] as number, cents(row[2 + 2 * b] as number)]),
    ),
  ]);
  return { header: values[8], lines, values };
}

function importReport(emu: GasEmulator, listing: string, name: string, connection: string, all: boolean): string {
  const filters = listing === 'cobrancas' ? { isExibeCanceladas: true } : {};
  const started = ok<Progress>(
    emu.run('startImportRun', [{ connection, ...(all ? { companies: { all: true } } : {}), listing, filters, sheetName: name, name, incremental: false }]),
  );
  expect(finishRun(emu, started.reportId).status).toBe('done');
  return started.reportId;
}

function build(emu: GasEmulator, all: boolean, connection = ''): { id: string; sheetName: string; reports: Record<string, string> } {
  const reports = {
    faturas: importReport(emu, 'faturas', 'Faturas', connection, all),
    nfse: importReport(emu, 'nfse', 'Notas', connection, all),
    cobrancas: importReport(emu, 'cobrancas', 'Cobranças', connection, all),
  };
  // No competência typed: last month in the spreadsheet's zone (today is 22/11/2026).
  const built = ok<{ id: string; sheetName: string; competencia: string }>(
    emu.run('createDashboard', [{ kind: 'fechamento', reportId: reports.faturas, secondReportId: reports.nfse, chargesReportId: reports.cobrancas }]),
  );
  expect(built.competencia).toBe(COMP);
  return { ...built, reports };
}

/** The ids in one column of the rows Ver linhas selected on its report's sheet. */
function selectedIds(emu: GasEmulator, id: string, key: string, field: string): number[] {
  const shown = ok<{ rows: number; sheetName: string }>(emu.run('showClosingRows', [id, key]));
  return emu.withServices((s) => {
    const ss = s.SpreadsheetApp.getActiveSpreadsheet();
    const sheet = ss.getActiveSheet();
    expect(sheet.getName()).toBe(shown.sheetName);
    const notes = sheet
      .getRange(1, 1, 1, sheet.getLastColumn())
      .getNotes()[0]
      .map((n: string) => String(n).split('\n')[0]);
    const column = notes.indexOf(field) + 1;
    return ss
      .getActiveRangeList()!
      .getRanges()
      .flatMap((r: any) =>
        sheet
          .getRange(r.getRow(), column, r.getNumRows(), 1)
          .getValues()
          .map((v: unknown[]) => v[0] as number),
      );
  });
}

describe('Fechamento da competência', () => {
  it('closes 10/2026 for one company: every figure to the cent from the dump, the seeded cases found, each conference line selecting its rows', async () => {
    const emu = emulator();
    ok(emu.run('saveConnection', [{ name: 'Demo', baseUrl: sb.baseUrl, apiKey: sb.orgs[0].apiKey, isDefault: true }]));
    const panel = build(emu, false, 'Demo');
    const dump = await dumpOf(0);
    const expected = expectedLines([dump]);
    const shown = shownLines(emu, panel.sheetName, 1);
    expect(shown.header.slice(0, 4)).toEqual(['Item', 'Quantidade', 'Valor', 'Linhas']);
    expect(shown.lines).toEqual(expected);
    const text = shown.values
      .slice(0, 6)
      .map((r) => r[0])
      .join('\n');
    expect(text).toContain('Fechamento da competência 10/2026');
    // The company it closes, in its title and its tab.
    const company = dump.clientes.reduce((a, b) => (a.idCliente < b.idCliente ? a : b));
    expect(company.razaoSocial).toBe(sb.orgs[0].name);
    expect(shown.values[0][0]).toBe(
      `Fechamento da competência 10/2026 · ${company.razaoSocial} (CNPJ ${company.cpfCnpj.replace(/^(\d{2})(\d{3})(\d{3})(\d{4})(\d{2})$/, '$1.$2.$3/$4-$5')})`,
    );
    expect(panel.sheetName).toBe(`Painel · Fechamento da competência 10-2026 · ${company.razaoSocial}`);
    expect(text).toMatch(/Fontes: faturas: relatório "Faturas" \(aba "Faturas"\); NFS-e: relatório "Notas" \(aba "Notas"\); cobranças: relatório "Cobranças"/);
    expect(text).toMatch(/Atualizado em 22\/11\/2026 10:/);
    expect(text).toContain('mesmo cliente (ID do cliente) e da mesma competência');

    // The seeded cases are there, each on its line.
    const checks = checksOf(dump);
    const seeded = (n: number) => dump.faturas.find((f) => f.idIntegracao === `FAT-2026-F0000${n}`)!;
    expect(checks['sem-numero'].map((n) => n.idFatura)).toContain(seeded(2).idFatura);
    expect(checks['valor-diferente'].map((n) => n.idFatura)).toContain(seeded(3).idFatura);
    expect(checks['sem-cobranca'].map((f) => f.idFatura)).toContain(seeded(4).idFatura);
    // An invoice whose only note was cancelled has no NFS-e; the cancelled note is on a line of its own, out of the totals.
    expect(dump.nfse.filter((n) => n.idFatura === seeded(6).idFatura).map((n) => n.statusNotaFiscalServico)).toEqual(['CANCELADA']);
    expect(checks['sem-nfse'].map((f) => f.idFatura)).toContain(seeded(6).idFatura);
    expect(shown.lines.map(([label]) => label)).toContain('CANCELADA (não é emitida: fora dos totais)');
    // The open invoice without a note is said to be open, where the list offers it for NFS-e.
    expect(seeded(5).statusFatura).toBe('ABERTA');
    const open = checks['sem-nfse'].filter((f) => f.statusFatura === 'ABERTA');
    const ids = `${open
      .slice(0, 10)
      .map((f) => f.idFatura)
      .join(', ')}${open.length > 10 ? '…' : ''}`;
    expect(text).toContain(
      `Em aberto (ABERTA), ainda sem faturamento: ${open.length === 1 ? '1 fatura sem NFS-e' : `${open.length} faturas sem NFS-e`} (IDs ${ids}). "Emitir NFS-e destas faturas" seleciona também estas: confira antes de emitir.`,
    );
    expect(checks['sem-fatura'].length).toBeGreaterThan(0);
    expect(checks.notes.some((n) => n.idFatura === seeded(1).idFatura && n.issRetido === 2)).toBe(true);
    for (const k of ['pagas', 'a-vencer', 'vencidas'] as const) expect(checks[k].length).toBeGreaterThan(0);

    // Ver linhas selects exactly the rows behind each line, on its own report's sheet.
    const sorted = (list: number[]) => [...list].sort((a, b) => a - b);
    expect(sorted(selectedIds(emu, panel.id, 'sem-cobranca', 'idFatura'))).toEqual(sorted(checks['sem-cobranca'].map((f) => f.idFatura)));
    expect(sorted(selectedIds(emu, panel.id, 'valor-diferente', 'idNotaFiscalServico'))).toEqual(
      sorted(checks['valor-diferente'].map((n) => n.idNotaFiscalServico)),
    );
    expect(sorted(selectedIds(emu, panel.id, 'vencidas', 'idCobranca'))).toEqual(sorted(checks.vencidas.map((c) => c.idCobranca)));
    expect(sorted(selectedIds(emu, panel.id, 'sem-fatura', 'idCobranca'))).toEqual(sorted(checks['sem-fatura'].map((c) => c.idCobranca)));

    // Faturas sem NFS-e → Lançamentos em lote: exactly those invoices are selected.
    const issue = ok<{ invoices: number }>(emu.run('prepareNfseIssue', [panel.id]));
    expect(issue.invoices).toBe(checks['sem-nfse'].length);
  });

  it('closes 10/2026 for three companies consolidated, one column block per organization and the total', async () => {
    const emu = emulator();
    COMPANIES.forEach((name, org) => ok(emu.run('saveConnection', [{ name, baseUrl: sb.baseUrl, apiKey: sb.orgs[org].apiKey, isDefault: org === 0 }])));
    const panel = build(emu, true);
    const dumps = await Promise.all(COMPANIES.map((_, org) => dumpOf(org)));
    const expected = expectedLines(dumps).map(([label, ...t]): [string, ...T[]] => [
      label,
      ...t,
      Number.isNaN(t[0][0]) ? [Number.NaN, Number.NaN] : t.reduce((s, x): T => [s[0] + x[0], s[1] + x[1]], [0, 0]),
    ]);
    const shown = shownLines(emu, panel.sheetName, 4);
    expect(shown.header).toEqual(['Item', ...[...COMPANIES, 'Total'].flatMap((n) => [`${n} · qtde.`, `${n} · valor`]), 'Linhas']);
    expect(shown.lines).toEqual(expected);
    // Each organization with notes has its seeded cases; the one without city-hall integration has every invoice without a note.
    const byLabel = Object.fromEntries(shown.lines.map(([label, ...t]) => [label, t]));
    for (const org of [0, 1]) {
      expect(byLabel['EMITIDA sem número'][org][0]).toBeGreaterThan(0);
      expect(byLabel['ISS retido pelo tomador'][org][0]).toBeGreaterThan(0);
      expect(byLabel['NFS-e com valor diferente da fatura (diferença: nota − fatura)'][org][0]).toBeGreaterThan(0);
    }
    expect(byLabel['Faturas sem NFS-e'][2]).toEqual(byLabel['Faturas da competência (sem as canceladas)'][2]);
    for (const org of [0, 1, 2]) expect(byLabel['Faturas sem cobrança'][org][0]).toBeGreaterThan(0);
  });

  it('says plainly that its sources hold nothing for the competência: one report filtered to another month, or none with a record of it', async () => {
    const emu = emulator();
    ok(emu.run('saveConnection', [{ name: 'Demo', baseUrl: sb.baseUrl, apiKey: sb.orgs[0].apiKey, isDefault: true }]));
    const dump = await dumpOf(0);
    const run = (listing: string, name: string, filters: Rec) => {
      const started = ok<Progress>(emu.run('startImportRun', [{ connection: 'Demo', listing, filters, sheetName: name, name, incremental: false }]));
      expect(finishRun(emu, started.reportId).status).toBe('done');
      return started.reportId;
    };
    const reports = {
      reportId: run('faturas', 'Faturas de setembro', { competencia: '09/2026' }),
      secondReportId: run('nfse', 'Notas', {}),
      chargesReportId: run('cobrancas', 'Cobranças', { isExibeCanceladas: true }),
    };
    const head = (competencia: string) => {
      const built = ok<{ sheetName: string }>(emu.run('createDashboard', [{ kind: 'fechamento', ...reports, competencia }]));
      return emu.values(built.sheetName)[5][0] as string;
    };
    // The company has invoices of 10/2026; the invoices report holds only September's.
    expect(dump.faturas.some((f) => f.competencia === COMP)).toBe(true);
    expect(head(COMP)).toMatch(
      /^O relatório de faturas não tem nenhuma fatura da competência 10\/2026: as linhas que dependem dele mostram zero por isso, não porque esteja em ordem\./,
    );
    // No record of any listing is of 01/2030.
    for (const list of Object.values(dump)) expect(list.some((r: Rec) => r.competencia === '01/2030')).toBe(false);
    expect(head('01/2030')).toMatch(/^Os três relatórios não têm nenhum registro da competência 01\/2030 \(nenhuma fatura, NFS-e ou cobrança\)/);
  });

  it('after Emitir NFS-e destas faturas, says which report to refresh until it runs; then the issued invoices leave Faturas sem NFS-e, to the cent', async () => {
    const emu = emulator();
    ok(emu.run('saveConnection', [{ name: 'Demo', baseUrl: sb.baseUrl, apiKey: sb.orgs[0].apiKey, isDefault: true }]));
    const panel = build(emu, false, 'Demo');
    const head = () =>
      (emu.values(panel.sheetName) as unknown[][])
        .slice(0, 6)
        .map((r) => String(r[0]))
        .join('\n');
    const refresh = /as notas emitidas desde então só aparecem aqui depois que o relatório de NFS-e "Notas" for atualizado \(Relatórios › Atualizar\)/;
    expect(head()).not.toMatch(refresh);
    const before = checksOf(await dumpOf(0))['sem-nfse'];
    const issue = ok<{ invoices: number }>(emu.run('prepareNfseIssue', [panel.id]));
    expect(issue.invoices).toBe(before.length);
    bulkToEnd(emu, ok(emu.run('startBulkRun', [{ connection: 'Demo', operation: 'emitirNfse', sheetName: 'Faturas', scope: 'selected' }])));
    const after = await dumpOf(0);
    expect(checksOf(after)['sem-nfse'].length).toBeLessThan(before.length);
    // The panel has not read the new notes yet, and says which report brings them.
    expect(head()).toMatch(refresh);
    emu.run('runReport', [panel.reports.nfse, true]);
    expect(finishRun(emu, panel.reports.nfse).status).toBe('done');
    expect(head()).not.toMatch(refresh);
    expect(shownLines(emu, panel.sheetName, 1).lines).toEqual(expectedLines([after]));
  });

  it('refreshes after a run of any of its three reports: the charges report run over new records changes the charges lines', async () => {
    const emu = emulator();
    ok(emu.run('saveConnection', [{ name: 'Demo', baseUrl: sb.baseUrl, apiKey: sb.orgs[0].apiKey, isDefault: true }]));
    const panel = build(emu, false, 'Demo');
    // The charges' own lines (sem fatura pairs them with the invoices, which this run leaves as they were).
    const chargeLines = (lines: Array<[string, ...T[]]>) =>
      lines.filter(([label]) => label.startsWith('Cobranças da competência') && label !== 'Cobranças da competência sem fatura');
    const before = chargeLines(shownLines(emu, panel.sheetName, 1).lines);
    // Another seed: the organization's charges of 10/2026 are others now; only the charges report runs.
    await sb.reset({ seed: 62, size: 'small' });
    const fresh = await dumpOf(0);
    const expected = chargeLines(expectedLines([fresh]));
    expect(expected).not.toEqual(before);
    emu.run('runReport', [panel.reports.cobrancas, true]);
    finishRun(emu, panel.reports.cobrancas);
    expect(chargeLines(shownLines(emu, panel.sheetName, 1).lines)).toEqual(expected);
  });

  it('refuses at the form, beside the report that does not fit, the sources it could not close: no tab, no panel kept', async () => {
    const emu = emulator();
    ok(emu.run('saveConnection', [{ name: 'Demo', baseUrl: sb.baseUrl, apiKey: sb.orgs[0].apiKey, isDefault: true }]));
    ok(emu.run('saveConnection', [{ name: 'Outra', baseUrl: sb.baseUrl, apiKey: sb.orgs[1].apiKey }]));
    const faturas = importReport(emu, 'faturas', 'Faturas', 'Demo', false);
    const nfse = importReport(emu, 'nfse', 'Notas', 'Demo', false);
    const alheias = importReport(emu, 'cobrancas', 'Cobranças da Outra', 'Outra', false);
    const todas = importReport(emu, 'nfse', 'Notas de todas', 'Demo', true);
    const tabs = () =>
      emu.withServices((s) =>
        s.SpreadsheetApp.getActiveSpreadsheet()
          .getSheets()
          .map((t: any) => t.getName() as string),
      );
    const before = tabs();
    const create = (secondReportId: string, chargesReportId: string) =>
      emu.run('createDashboard', [{ kind: 'fechamento', reportId: faturas, secondReportId, chargesReportId }]);

    expect(create(nfse, alheias)).toEqual({
      ok: false,
      field: 'chargesReportId',
      message:
        'Os relatórios de faturas "Faturas" e de cobranças "Cobranças da Outra" são de organizações diferentes: escolha relatórios da mesma empresa (ou das mesmas empresas).',
    });
    expect(tabs()).toEqual(before);
    const cobrancas = importReport(emu, 'cobrancas', 'Cobranças', 'Demo', false);
    const after = tabs();
    expect(create(todas, cobrancas)).toEqual({
      ok: false,
      field: 'secondReportId',
      message:
        'Os três relatórios do fechamento precisam ser todos de uma empresa ou todos consolidados (com a coluna Empresa): escolha relatórios do mesmo tipo.',
    });
    expect(tabs()).toEqual(after);
    expect((emu.run('getDashboards') as { dashboards: unknown[] }).dashboards).toEqual([]);
  });
});
