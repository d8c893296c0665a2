/**
 * Consolidated reports: one listing from three of the owner's companies (the
 * sandbox's three organizations, each its own key) into one sheet whose first
 * column is the company. Checked against the sandbox's own records. The real
 * bundle in the emulator, the sandbox over HTTP.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { GasEmulator } from '../../dev/gas/runner';
import { type SandboxHandle, borrowSandbox } from '../../dev/sandbox/harness';
import { emulator, finishRun, ok, type Progress, SP } from './helpers';

type Rec = Record<string, any>;
let sb: SandboxHandle;

beforeAll(async () => {
  sb = await borrowSandbox({ seed: 31, size: 'small' });
});
afterAll(async () => {
  await sb?.stop();
});
beforeEach(async () => {
  await sb.reset();
});

const COMPANIES = ['Empresa A', 'Empresa B', 'Empresa C'];

/** The owner's three connections, one per organization; returns their ids by name. */
function threeCompanies(emu: GasEmulator, user?: string): Record<string, string> {
  COMPANIES.forEach((name, org) => {
    const r = emu.run('saveConnection', [{ name, baseUrl: sb.baseUrl, apiKey: sb.orgs[org].apiKey, isDefault: org === 0 }], user ? { user } : {}) as Rec;
    if (!r.ok) throw new Error(JSON.stringify(r));
  });
  const list = emu.run('listConnections', [], user ? { user } : {}) as Rec[];
  return Object.fromEntries(list.map((c) => [c.name, c.id]));
}

function consolidated(emu: GasEmulator, form: Rec): Progress {
  const started = ok<Progress>(
    emu.run('startImportRun', [{ connection: '', companies: { all: true }, sheetName: 'Consolidado', name: 'Consolidado', ...form }]),
  );
  return finishRun(emu, started.reportId);
}

/** The sheet's rows as objects by field key (the header notes), with the sheet's header. */
function rowsByKey(emu: GasEmulator, sheet: string): { header: unknown[]; rows: Rec[] } {
  return emu.withServices((s) => {
    const sh = s.SpreadsheetApp.getActiveSpreadsheet().getSheetByName(sheet)!;
    const width = sh.getLastColumn();
    const notes = sh.getRange(1, 1, 1, width).getNotes()[0] as string[];
    const values = sh.getRange(1, 1, sh.getLastRow(), width).getValues() as unknown[][];
    // A note's first line is its field; what the column means may follow.
    return { header: values[0], rows: values.slice(1).map((r) => Object.fromEntries(notes.map((n, i) => [String(n).split('\n')[0], r[i]]))) };
  });
}

/** The value of the column tag (field key) of column 1: dashboards look for `empresa`. */
function firstColumnTag(emu: GasEmulator, sheet: string): string | null {
  return emu.withServices((s) => {
    const sh = s.SpreadsheetApp.getActiveSpreadsheet().getSheetByName(sheet)!;
    const found = sh
      .createDeveloperMetadataFinder()
      .withKey('faturamento.coluna')
      .withLocationType(s.SpreadsheetApp.DeveloperMetadataLocationType.COLUMN)
      .find();
    return found.find((m: any) => m.getLocation().getColumn().getColumn() === 1)?.getValue() ?? null;
  });
}

/** Each company's rows keyed by record id, from the sheet. */
function byCompany(rows: Rec[]): Record<string, Map<number, Rec>> {
  const out: Record<string, Map<number, Rec>> = {};
  for (const r of rows) (out[r.empresa] ??= new Map()).set(r.idFatura ?? r.idTransacao ?? r.idCliente, r);
  return out;
}

describe('a consolidated report of three companies', () => {
  it('pulls each company into one sheet, Empresa first; a failing company keeps its last good rows and the run says which and why', async () => {
    const emu = emulator();
    const ids = threeCompanies(emu);
    await sb.clearLog();
    const first = consolidated(emu, { listing: 'faturas', filters: { isListarItens: true }, incremental: true });
    expect(first.status).toBe('done');
    const { header, rows } = rowsByKey(emu, 'Consolidado');
    expect(header[0]).toBe('Empresa');
    expect(firstColumnTag(emu, 'Consolidado')).toBe('empresa');
    const got = byCompany(rows);
    for (const [org, name] of COMPANIES.entries()) {
      const dump = await sb.dump<Rec>(sb.orgs[org].name, 'faturas');
      expect([...got[name].keys()].sort((a, b) => a - b)).toEqual(dump.map((f) => f.idFatura).sort((a, b) => a - b));
      for (const f of dump) expect(got[name].get(f.idFatura)!.valorTotal ?? got[name].get(f.idFatura)!.valor).toBeDefined();
      expect(rows.filter((r) => r.empresa === name).every((r) => r.$conexao === ids[name])).toBe(true);
    }
    expect(rows).toHaveLength(Object.values(got).reduce((n, m) => n + m.size, 0));
    // The three companies' pages went out together: some round trips carried requests with different keys.
    const log = await sb.requestLog({ pathPrefix: '/v2/faturamento/faturas' });
    expect(new Set(log.map((e: Rec) => e.org)).size).toBe(3);
    // Child rows carry Empresa and the connection too, and each company's items are all there.
    const items = rowsByKey(emu, 'Consolidado · Itens');
    expect(items.header[0]).toBe('Empresa');
    for (const [org, name] of COMPANIES.entries()) {
      const dump = await sb.dump<Rec>(sb.orgs[org].name, 'faturas');
      const expected = dump.reduce((n, f) => n + (f.itens?.length ?? 0), 0);
      expect(items.rows.filter((r) => r.empresa === name && r.$conexao === ids[name])).toHaveLength(expected);
    }

    // Company C's key is refused from now on; its rows must stay as they were.
    const before = rowsByKey(emu, 'Consolidado').rows.filter((r) => r.empresa === 'Empresa C');
    const saved = emu.run('saveConnection', [
      { id: ids['Empresa C'], name: 'Empresa C', baseUrl: sb.baseUrl, apiKey: 'sbx_live_chave_errada', isDefault: false },
    ]) as Rec;
    expect(saved.ok).toBe(true);
    emu.now = SP('2026-11-22T12:00:00').getTime();
    await sb.clearLog();
    const reportId = (emu.run('listReports') as Rec[])[0].id;
    emu.run('runReport', [reportId]);
    const second = finishRun(emu, reportId);
    expect(second.status).toBe('done');
    const after = rowsByKey(emu, 'Consolidado');
    expect(String(after.header[0])).toMatch(/^⚠ INCOMPLETO/);
    expect(after.rows.filter((r) => r.empresa === 'Empresa C')).toEqual(before);
    // The others were refreshed by this run, each from its own last good pull.
    const refreshed = (await sb.requestLog({ pathPrefix: '/v2/faturamento/faturas' })).filter((e: Rec) => e.org === sb.orgs[0].name);
    expect(refreshed.at(-1)).toMatchObject({ status: 200, query: { dataHoraAtualizacaoInicial: expect.stringMatching(/^22\/11\/2026 09:5\d$/) } });
    expect(after.rows.filter((r) => r.empresa === 'Empresa A')).toHaveLength(got['Empresa A'].size);
    const report = (emu.run('listReports') as Rec[])[0];
    expect(report.lastRun.result).toBe('parcial');
    expect(report.lastRun.message).toMatch(/"Empresa C": .*(chave|401|autoriza)/i);
    expect(report.lastRun.message).not.toMatch(/Empresa A"/);
    expect(report.companies).toEqual(['Todas as minhas conexões']);
    const history = emu.displayValues('Histórico').at(-1)!;
    expect(history[5]).toBe('PARCIAL');
    expect(history[6]).toMatch(/Empresa C/);
    expect(JSON.stringify(history)).not.toContain('sbx_live_chave_errada');

    // C's key is right again: each company is refreshed from its own last good pull (C's is the first run's).
    ok(emu.run('saveConnection', [{ id: ids['Empresa C'], name: 'Empresa C', baseUrl: sb.baseUrl, apiKey: sb.orgs[2].apiKey, isDefault: false }]));
    emu.now = SP('2026-11-22T14:00:00').getTime();
    await sb.clearLog();
    emu.run('runReport', [reportId]);
    const third = finishRun(emu, reportId);
    expect(third).toMatchObject({ status: 'done', incremental: true });
    const since = Object.fromEntries(
      (await sb.requestLog({ pathPrefix: '/v2/faturamento/faturas' })).map((e: Rec) => [e.org, e.query.dataHoraAtualizacaoInicial]),
    );
    expect(since[sb.orgs[0].name]).toMatch(/^22\/11\/2026 11:5\d$/);
    expect(since[sb.orgs[2].name]).toMatch(/^22\/11\/2026 09:5\d$/);
    expect(String(rowsByKey(emu, 'Consolidado').header[0])).toBe('Empresa');
    expect((emu.run('listReports') as Rec[])[0].lastRun.result).toBe('ok');
  });

  it('a run cut by the 6-minute kill resumes per company, every record of each exactly once', async () => {
    await sb.reset({ size: { faturas: 4000, clientes: 50, cobrancas: 10, transacoes: 10, assinaturas: 10 } });
    const emu = emulator();
    threeCompanies(emu);
    const started = ok<Progress>(
      emu.run('startImportRun', [{ connection: '', companies: { all: true }, listing: 'faturas', filters: {}, sheetName: 'Consolidado', name: 'Consolidado' }]),
    );
    // This execution has 1.5 s left, less than the sidebar's 4 s step: killed after its first block of 5,000 rows was
    // written (cells cost nothing here: what is tested is the kill, not the write's price).
    const killed = emu.execute('continueReportRun', [started.reportId], {
      budgetMs: 1_500,
      costs: { urlFetchCallMs: 20, cellWriteMs: 0, cellReadMs: 0, formatCellMs: 0 },
    });
    expect(killed.status).toBe('killed');
    const written = emu.values('Consolidado').length - 1;
    expect(written).toBeGreaterThanOrEqual(5000);
    expect(written).toBeLessThan(12_000);
    await sb.clearLog();
    const done = finishRun(emu, started.reportId);
    expect(done.status).toBe('done');
    // The continuation did not fetch again what was written (each organization has 80 pages of 50).
    const log = await sb.requestLog({ pathPrefix: '/v2/faturamento/faturas' });
    expect(log.length).toBeLessThan(240 - 100 + 30);
    const got = byCompany(rowsByKey(emu, 'Consolidado').rows);
    for (const [org, name] of COMPANIES.entries()) {
      const dump = await sb.dump<Rec>(sb.orgs[org].name, 'faturas');
      expect(got[name].size).toBe(dump.length);
      expect([...got[name].keys()].sort((a, b) => a - b)).toEqual(dump.map((f) => f.idFatura).sort((a, b) => a - b));
    }
    expect(emu.values('Consolidado')).toHaveLength(12_001);
  });

  it('refreshes incrementally, each company from its own last good pull', async () => {
    const emu = emulator({ startAt: SP('2026-06-01T09:00:00') });
    const ids = threeCompanies(emu);
    const first = consolidated(emu, { listing: 'transacoes', filters: {}, incremental: true, companies: { ids: Object.values(ids) } });
    const dumps = await Promise.all(COMPANIES.map((_, org) => sb.dump<Rec>(sb.orgs[org].name, 'transacoes')));
    expect(first.rows).toBe(dumps.reduce((n, d) => n + d.length, 0));
    emu.now = SP('2026-11-22T10:00:00').getTime();
    await sb.clearLog();
    const reportId = (emu.run('listReports') as Rec[])[0].id;
    emu.run('runReport', [reportId]);
    const second = finishRun(emu, reportId);
    expect(second.incremental).toBe(true);
    const changed = dumps.map((d) => d.filter((t) => t.dataHoraAtualizacao >= '2026-06-01T08:50'));
    expect(second.rows).toBe(changed.reduce((n, c) => n + c.length, 0));
    const log = await sb.requestLog({ pathPrefix: '/v2/financeiro/transacoes' });
    expect(new Set(log.map((e: Rec) => e.org)).size).toBe(3);
    expect(log.every((e: Rec) => e.query.dataHoraAtualizacaoInicial === '01/06/2026 08:50')).toBe(true);
    const { rows } = rowsByKey(emu, 'Consolidado');
    const got = byCompany(rows);
    COMPANIES.forEach((name, org) => {
      expect(got[name].size).toBe(dumps[org].length);
      for (const t of changed[org]) expect(got[name].get(t.idTransacao)!.descricao).toBe(t.descricao);
    });
    expect(rows).toHaveLength(dumps.reduce((n, d) => n + d.length, 0));

    // Edited to two of the companies: the third one's rows leave the sheet, the others' stay merged. B was renamed:
    // its rows are found by its connection's id and show its name now.
    ok(emu.run('saveConnection', [{ id: ids['Empresa B'], name: 'Empresa B2', baseUrl: sb.baseUrl, apiKey: sb.orgs[1].apiKey, isDefault: false }]));
    emu.now = SP('2026-11-22T11:00:00').getTime();
    const edited = ok<Progress>(
      emu.run('startImportRun', [
        {
          id: reportId,
          connection: '',
          companies: { ids: [ids['Empresa A'], ids['Empresa B']] },
          listing: 'transacoes',
          filters: {},
          incremental: true,
          sheetName: 'Consolidado',
          name: 'Consolidado',
        },
      ]),
    );
    expect(finishRun(emu, edited.reportId)).toMatchObject({ status: 'done', incremental: true });
    const left = byCompany(rowsByKey(emu, 'Consolidado').rows);
    expect(Object.keys(left).sort()).toEqual(['Empresa A', 'Empresa B2']);
    expect(left['Empresa B2'].size).toBe(dumps[1].length);
    // The child sheet's rows follow the rename too, those of records this incremental run did not bring included.
    const child = emu.sheetNames().find((n) => n.startsWith('Consolidado · '))!;
    const items = rowsByKey(emu, child).rows;
    expect(items.filter((r) => r.$conexao === ids['Empresa B']).length).toBeGreaterThan(changed[1].length);
    expect(new Set(items.filter((r) => r.$conexao === ids['Empresa B']).map((r) => r.empresa))).toEqual(new Set(['Empresa B2']));
    expect(new Set(items.map((r) => r.empresa))).toEqual(new Set(['Empresa A', 'Empresa B2']));
    expect((emu.run('listReports') as Rec[])[0].companies).toEqual(['Empresa A', 'Empresa B2']);
  });

  it('a scheduled consolidated report, with Filtros na planilha, is refreshed by the hourly trigger in one run', async () => {
    const emu = emulator();
    threeCompanies(emu);
    const states = ['SP', 'MG'];
    consolidated(emu, { listing: 'clientes', filters: {}, sheetFilters: [{ field: 'estado', op: 'lista', values: states }] });
    const reportId = (emu.run('listReports') as Rec[])[0].id;
    expect(ok(emu.run('setReportSchedule', [reportId, { kind: 'hourly' }, false]))).toMatchObject({ companies: ['Todas as minhas conexões'] });
    await sb.clearLog();
    const runs = emu.runDueTriggers(SP('2026-11-22T11:05:00'));
    expect(runs).toHaveLength(1);
    expect(runs[0].status).toBe('ok');
    const report = (emu.run('listReports') as Rec[])[0];
    expect(report.lastRun).toMatchObject({ origin: 'agendado', result: 'ok' });
    expect(report.canContinue).toBe(false);
    const { header, rows } = rowsByKey(emu, 'Consolidado');
    expect(header[0]).toBe('Empresa');
    for (const [org, name] of COMPANIES.entries()) {
      const dump = (await sb.dump<Rec>(sb.orgs[org].name, 'clientes')).filter((c) => states.includes(c.estado));
      expect(dump.length).toBeGreaterThan(0);
      const mine = rows.filter((r) => r.empresa === name);
      expect(mine.map((r) => r.idCliente).sort((a, b) => a - b)).toEqual(dump.map((c) => c.idCliente).sort((a, b) => a - b));
      expect(mine.every((r) => (r.$recebidoEm as Date).getTime() >= SP('2026-11-22T11:00:00').getTime())).toBe(true);
    }
    expect(emu.displayValues('Histórico').at(-1)!.slice(2, 6)).toEqual(['Agendado', String(rows.length), expect.any(String), 'OK']);
  });

  it('in the hourly run, a company whose service answers 500 does not stop the others, and its owner is told which', async () => {
    const emu = emulator();
    threeCompanies(emu);
    consolidated(emu, { listing: 'clientes', filters: {} });
    const before = rowsByKey(emu, 'Consolidado').rows.filter((r) => r.empresa === 'Empresa B');
    const reportId = (emu.run('listReports') as Rec[])[0].id;
    ok(emu.run('setReportSchedule', [reportId, { kind: 'hourly' }, true]));
    await sb.configure({ addFaults: [{ kind: 'status', status: 500, org: sb.orgs[1].name }] });
    const runs = emu.runDueTriggers(SP('2026-11-22T11:05:00'));
    expect(runs.map((r) => r.status)).toEqual(['ok']);
    const report = (emu.run('listReports') as Rec[])[0];
    expect(report.lastRun).toMatchObject({ origin: 'agendado', result: 'parcial' });
    expect(report.lastRun.message).toMatch(/"Empresa B": /);
    const after = rowsByKey(emu, 'Consolidado').rows;
    expect(after.filter((r) => r.empresa === 'Empresa B')).toEqual(before);
    expect(after.filter((r) => r.empresa === 'Empresa C').every((r) => (r.$recebidoEm as Date).getTime() >= SP('2026-11-22T11:00:00').getTime())).toBe(true);
    expect(emu.mail).toHaveLength(1);
    expect(emu.mail[0].body).toMatch(/Empresa B/);
  });

  it('a company whose service hangs rests while the others go on, and catches up within the same hourly run', async () => {
    // A hang is charged as a minute of the execution; the emulator calls it one after 200 ms of real time.
    const emu = emulator({ urlFetchTimeoutMs: 200 });
    threeCompanies(emu);
    consolidated(emu, { listing: 'clientes', filters: {} });
    const reportId = (emu.run('listReports') as Rec[])[0].id;
    ok(emu.run('setReportSchedule', [reportId, { kind: 'hourly' }, false]));
    // Both tries of C's first two pages hang (a time-out is tried once more): C waits for the next step.
    await sb.configure({ addFaults: [{ kind: 'hang', times: 4, org: sb.orgs[2].name }] });
    const runs = emu.runDueTriggers(SP('2026-11-22T11:05:00'));
    expect(runs.map((r) => r.status)).toEqual(['ok']);
    expect((emu.run('listReports') as Rec[])[0].lastRun).toMatchObject({ origin: 'agendado', result: 'ok' });
    // The four hangs were C's (the log names no organization for a request that never got past its fault).
    const log = await sb.requestLog({ pathPrefix: '/v2/clientes' });
    expect(log.filter((e: Rec) => e.outcome === 'hang')).toHaveLength(4);
    expect(log.filter((e: Rec) => e.org === sb.orgs[2].name).length).toBeGreaterThan(0);
    const rows = rowsByKey(emu, 'Consolidado').rows;
    for (const [org, name] of COMPANIES.entries()) {
      const dump = await sb.dump<Rec>(sb.orgs[org].name, 'clientes');
      const mine = rows.filter((r) => r.empresa === name);
      expect(mine).toHaveLength(dump.length);
      expect(mine.every((r) => (r.$recebidoEm as Date).getTime() >= SP('2026-11-22T11:00:00').getTime())).toBe(true);
    }
  });

  it('a write that meets the 10-million-cell limit fails with the one-company message, nothing half-saved', () => {
    /** Fills the spreadsheet up to `headroom` cells short of the limit, once the report's sheet exists. */
    const fill = (emu: GasEmulator, headroom: number) =>
      emu.withServices((s) => {
        const ss = s.SpreadsheetApp.getActiveSpreadsheet();
        const used = ss.getSheets().reduce((n: number, sh: any) => n + sh.getMaxRows() * sh.getMaxColumns(), 0);
        const sh = ss.insertSheet('Grande');
        const rows = Math.floor((10_000_000 - headroom - used - sh.getMaxRows() * 100) / 100);
        sh.insertColumnsAfter(sh.getMaxColumns(), 100 - sh.getMaxColumns());
        sh.insertRowsAfter(sh.getMaxRows(), rows);
      });
    // Room for the invoices' rows (the new sheet's 1,000 rows hold them) but not for the items' new sheet.
    const run = (emu: GasEmulator, form: Rec): Progress => {
      const started = ok<Progress>(
        emu.run('startImportRun', [{ sheetName: 'Faturas', name: 'Faturas', listing: 'faturas', filters: { isListarItens: true }, ...form }]),
      );
      fill(emu, 10_000);
      return finishRun(emu, started.reportId);
    };
    const single = emulator();
    threeCompanies(single);
    const one = run(single, { connection: 'Empresa A' });
    const emu = emulator();
    threeCompanies(emu);
    const all = run(emu, { connection: '', companies: { all: true } });
    expect(one.status).toBe('failed');
    expect(one.message).toMatch(/10 milhões de células/);
    expect(all).toMatchObject({ status: 'failed', message: one.message, canContinue: false });
    // Nothing of any company was written: the sheet holds its header alone, still marked incomplete, and no items sheet.
    for (const e of [single, emu]) {
      expect(e.values('Faturas')).toHaveLength(1);
      expect(String(e.values('Faturas')[0][0])).toMatch(/^⚠ INCOMPLETO/);
      expect(e.sheetNames().filter((n) => n.startsWith('Faturas ·'))).toEqual([]);
    }
    const report = (emu.run('listReports') as Rec[])[0];
    expect(report.lastRun).toMatchObject({ result: 'erro', message: one.message });
    // No room for a Histórico sheet either: the run still ends, its card says why.
    expect(emu.sheetNames()).not.toContain('Histórico');
  });

  it("refuses a colleague's connection: only the owner's own can be chosen", () => {
    const emu = emulator();
    const mine = threeCompanies(emu, 'ana@escritorio.com.br');
    threeCompanies(emu, 'bruno@escritorio.com.br');
    const refused = emu.run(
      'startImportRun',
      [{ connection: '', companies: { ids: [Object.values(mine)[0], Object.values(mine)[1]] }, listing: 'clientes', sheetName: 'X', name: 'X', filters: {} }],
      { user: 'bruno@escritorio.com.br' },
    ) as Rec;
    expect(refused).toMatchObject({ ok: false, field: 'connection' });
    expect(refused.message).toMatch(/conexões suas/);
    expect(emu.run('listReports', [], { user: 'bruno@escritorio.com.br' })).toEqual([]);
  });
});
