/**
 * Texts from outside, bounded before they reach a cell, a property, a note or
 * an e-mail; Google's storage limits told in Portuguese with nothing half-saved.
 * The service's oversized answers are made by a transport that rewrites the
 * sandbox's real responses on their way to UrlFetchApp.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { nodeTransport } from '../../dev/http/node-transport';
import { type SandboxHandle, borrowSandbox } from '../../dev/sandbox/harness';
import type { HttpOutcome, HttpRequest, Transport } from '../../src/api/transport';
import { catalog, type Rec } from '../core/bulk/fixtures';
import { columnsOf, connect, emulator, importAll, ok, SP } from './helpers';

let sb: SandboxHandle;

beforeAll(async () => {
  sb = await borrowSandbox({ seed: 21, size: 'small' });
});
afterAll(async () => {
  await sb?.stop();
});
beforeEach(async () => {
  await sb.reset({ size: { faturas: 50, clientes: 60, cobrancas: 10, transacoes: 10, assinaturas: 10 } });
});

/** The sandbox's answers, with `rewrite` applied to those it picks. */
function rewriting(rewrite: (req: HttpRequest, out: HttpOutcome) => HttpOutcome): Transport {
  return {
    fetch: (req) => rewrite(req, nodeTransport.fetch(req)),
    fetchAll: (reqs) => nodeTransport.fetchAll(reqs).map((o, i) => rewrite(reqs[i], o)),
  };
}

describe('a field over the cell limit', () => {
  it('is cut to 50,000 characters, and the run names the record and the field', () => {
    const long = 'x'.repeat(60_000);
    const transport = rewriting((req, out) => {
      if (out.kind !== 'response' || !req.url.includes('/v2/clientes')) return out;
      const json = JSON.parse(out.body);
      const list = Array.isArray(json) ? json : json.data;
      if (Array.isArray(list) && list.length) list[0].nomeFantasia = long;
      return { ...out, body: JSON.stringify(json) };
    });
    const emu = emulator({ transport });
    connect(emu, sb);
    const done = importAll(emu, { listing: 'clientes', sheetName: 'Clientes' });
    expect(done.status).toBe('done');
    expect(done.rows).toBe(60);
    const col = columnsOf(emu, 'Clientes');
    const cut = emu
      .values('Clientes')
      .slice(1)
      .find((r) => String(r[col.nomeFantasia]).length > 1000)!;
    expect(String(cut[col.nomeFantasia])).toHaveLength(50_000);
    expect(String(cut[col.nomeFantasia]).endsWith('…')).toBe(true);
    expect(done.warnings.join(' ')).toMatch(new RegExp(`O campo "nomeFantasia" do registro .*${cut[col.idCliente]} tinha 60\\.000 caracteres`));
  });
});

describe('an error of 12 KB', () => {
  it('of a scheduled run is recorded, shown, e-mailed and not retried every hour', async () => {
    const huge = `Erro: ${'detalhe '.repeat(1_600)}`;
    let refuse = false;
    const emu = emulator({
      transport: rewriting((req, out) =>
        refuse && req.url.includes('/v2/clientes')
          ? { kind: 'response', status: 400, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ errors: [huge] }) }
          : out,
      ),
    });
    connect(emu, sb);
    importAll(emu, { listing: 'clientes', sheetName: 'Clientes', name: 'Clientes' });
    const id = (emu.run('listReports') as Rec[])[0].id as string;
    ok(emu.run('setReportSchedule', [id, { kind: 'hourly' }, true]));
    refuse = true;
    const [run] = emu.runDueTriggers(SP('2026-11-22T11:05:00'));
    expect(run.status).toBe('ok');
    const report = (emu.run('listReports') as Rec[])[0];
    expect(report.lastRun.result).toBe('erro');
    expect(report.lastRun.message.length).toBeLessThanOrEqual(2_000);
    expect(report.lastRun.message).toMatch(/…/);
    expect(emu.displayValues('Histórico').at(-1)![5]).toBe('ERRO');
    expect(emu.mail).toHaveLength(1);
    expect(emu.mail[0].body.length).toBeLessThan(3_000);
    // A refusal (HTTP 400) is not passing: the schedule pauses at once, so the next hours send nothing and no e-mail.
    expect(report.lastRun.message).toMatch(/O agendamento foi pausado/);
    await sb.clearLog();
    for (let h = 12; h < 18; h++) emu.runDueTriggers(SP(`2026-11-22T${h}:05:00`));
    expect(emu.mail).toHaveLength(1);
    expect(await sb.requestLog({ pathPrefix: '/v2/clientes' })).toEqual([]);
  });
});

describe('a refusal of 60,000 characters in a bulk run', () => {
  it('is cut in the row’s message, and the run ends', async () => {
    const cat = await catalog(sb);
    const refusal = `Campo inválido: ${'y'.repeat(60_000)}`;
    const emu = emulator({
      transport: rewriting((req, out) =>
        req.method === 'POST' && out.kind === 'response'
          ? { kind: 'response', status: 400, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ errors: [refusal] }) }
          : out,
      ),
    });
    connect(emu, sb);
    const sheet = ok(emu.run('createBulkTemplate', ['criarAssinaturaPersonalizada'])).sheetName as string;
    const rows = Array.from({ length: 3 }, (_, i) => ['', cat.clientes[0], '05/11/2026', '11/2026', 'MENSAL', cat.produtos[0], `L${i}`, 50, 'AGRUPADA', 10]);
    emu.withServices((s) => {
      s.SpreadsheetApp.getActiveSpreadsheet()
        .getSheetByName(sheet)!
        .getRange(3, 1, rows.length, rows[0].length)
        .setValues(rows as never);
    });
    let p = ok(emu.run('startBulkRun', [{ operation: 'criarAssinaturaPersonalizada', sheetName: sheet, connection: 'Demo', scope: 'all' }]));
    for (let i = 0; !p.done; i++) {
      if (i > 20) throw new Error('never finished');
      p = ok(emu.run('continueBulkRun', [p.jobId]));
    }
    expect(p.counts.failed).toBe(3);
    const [header, ...data] = emu.values(sheet) as unknown[][];
    const msg = (header as string[]).indexOf('Mensagem');
    for (const r of data.slice(1)) {
      expect(String(r[msg]).length).toBeLessThanOrEqual(5_000);
      expect(String(r[msg])).toMatch(/mensagem do serviço cortada: tinha 60\.\d{3} caracteres/);
    }
  });
});

describe('the 500 KB of a property store', () => {
  // Reports and jobs live in the document's work sheet; what vouches for them lives in the owner's own properties.
  it('full: a new pull is refused in Portuguese and nothing is half-saved', () => {
    const emu = emulator();
    connect(emu, sb);
    const user = emu.options.user ?? 'contador@example.com.br';
    // Other data of this user fills their store to a few hundred bytes of its limit.
    emu.withServices((s) => {
      const props = s.PropertiesService.getUserProperties();
      const used = () => [...emu.properties.userStore(user)].reduce((n, [k, v]) => n + k.length + v.length, 0);
      for (let i = 0; used() + 9_100 < 500 * 1024; i++) props.setProperty(`outro.${i}`, 'z'.repeat(9_000));
      props.setProperty('outro.fim', 'z'.repeat(500 * 1024 - used() - 300));
    });
    const report = emu.execute('startImportRun', [{ connection: 'Demo', listing: 'clientes', sheetName: 'Clientes', filters: {} }]);
    const message = report.error?.message ?? String((report.value as Rec)?.message);
    expect(message).toMatch(/500 KB/);
    expect(message).not.toMatch(/exceeded/i);
    expect((emu.run('listReports') as Rec[]).filter((r) => r.mine)).toEqual([]);
  });
});

describe('10 million cells, child sheets included', () => {
  it("refuses before writing when the report's rows fit but its Planos de conta sheet would not", async () => {
    await sb.reset({ size: { faturas: 10, clientes: 20, cobrancas: 10, transacoes: 40, assinaturas: 10 } });
    const emu = emulator();
    connect(emu, sb);
    // A first report makes the add-on's own sheets (its work sheet, Histórico).
    expect(importAll(emu, { listing: 'clientes', sheetName: 'Clientes' }).status).toBe('done');
    // Then a sheet of one column fills the spreadsheet to 100 cells short of a new sheet's grid (1,000 × 26):
    // the Transações sheet still fits, with its 40 rows; a sheet for their account plans does not.
    const SHEET_GRID = 26_000;
    emu.withServices((s) => {
      const ss = s.SpreadsheetApp.getActiveSpreadsheet();
      const total = ss.getSheets().reduce((n, sh) => n + sh.getMaxRows() * sh.getMaxColumns(), 0);
      const sh = ss.insertSheet('Grande');
      sh.deleteColumns(2, sh.getMaxColumns() - 1);
      sh.insertRowsAfter(sh.getMaxRows(), 10_000_000 - SHEET_GRID - 100 - total - sh.getMaxRows());
    });
    const p = importAll(emu, { listing: 'transacoes', sheetName: 'Transações', filters: {} });
    expect(p.status).toBe('failed');
    expect(p.message).toMatch(/com as abas de itens\) levaria a planilha a .* células\. O Google Planilhas aceita no máximo 10 milhões de células/);
    // Nothing half-written: no transaction without its account plans, no child sheet.
    expect(emu.values('Transações').length).toBe(1);
    expect(emu.sheetNames().filter((n) => n.startsWith('Transações ·'))).toEqual([]);
  });
});

describe('a child sheet of known columns', () => {
  it('is made with those columns and four for notes, not a 26-column grid whose every row counts', async () => {
    await sb.reset({ size: { faturas: 10, clientes: 20, cobrancas: 10, transacoes: 40, assinaturas: 10 } });
    const emu = emulator();
    connect(emu, sb);
    expect(importAll(emu, { listing: 'transacoes', sheetName: 'Transações', filters: {} }).status).toBe('done');
    const [width, used] = emu.withServices((s) => {
      const sh = s.SpreadsheetApp.getActiveSpreadsheet().getSheetByName('Transações · Planos de conta')!;
      return [sh.getMaxColumns(), sh.getLastColumn()];
    });
    expect(used).toBe(7);
    expect(width).toBe(used + 4);
  });
});
