/**
 * Lançamentos em lote end to end: the real bundle (dist/Code.js) in the Apps
 * Script emulator, the sandbox over HTTP, cells typed as a user types them
 * (with the Planilhas' parsing of strings), the sidebar's calls by name.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type SandboxHandle, borrowSandbox } from '../../dev/sandbox/harness';
import { columnsOf, connect, emulator, executeBulk, importAll, ok, rowsByHeader, SP, subscriptionSheet, typeRows } from './helpers';
import { catalog, type Rec } from '../core/bulk/fixtures';

let sb: SandboxHandle;
let cat: Awaited<ReturnType<typeof catalog>>;

beforeAll(async () => {
  sb = await borrowSandbox({ seed: 31, size: 'small' });
});
afterAll(async () => {
  await sb?.stop();
});
beforeEach(async () => {
  await sb.reset();
  cat = await catalog(sb);
});

const type = typeRows;
const execute = executeBulk;
const byHeader = rowsByHeader;

const countByKey = async () => {
  const out = new Map<string, number>();
  for (const a of await sb.dump<Rec>(sb.orgs[0].name, 'assinaturas')) out.set(a.idIntegracao, (out.get(a.idIntegracao) ?? 0) + 1);
  return out;
};

describe('custom subscriptions through the bundle', () => {
  it('template, validate, execute and re-run without duplicates', async () => {
    const emu = emulator();
    connect(emu, sb);
    emu.open('LIMITED');
    const item = emu.menuItems().find((m) => m.path.at(-1) === 'Lançamentos em lote')!;
    emu.run(item.functionName);
    const sidebar = emu.ui.dialogs.at(-1)!;
    expect(sidebar).toMatchObject({ kind: 'sidebar', title: 'Lançamentos em lote' });
    // The client script and the stylesheet are inlined: the sidebar needs nothing else.
    expect(sidebar.html).toContain('startBulkRun');
    expect(sidebar.html).not.toMatch(/<script src=|<link rel="stylesheet"/);
    const t = ok(emu.run('createBulkTemplate', ['criarAssinaturaPersonalizada']));
    expect(t.sheetName).toBe('Lote · Assinaturas personalizadas');
    const sheet = t.sheetName as string;
    const header = emu.values(sheet, 'A1:O1')[0];
    expect(header).toEqual([
      'ID de integração',
      'ID do cliente',
      'Data de adesão',
      'Competência inicial',
      'Periodicidade',
      'ID do produto',
      'Descrição',
      'Valor',
      'Forma de faturamento',
      'Dia de vencimento',
      'CPF/CNPJ do cliente',
      'Status',
      'ID da assinatura criada',
      'Mensagem',
      'Processado em',
    ]);
    const formats = emu.numberFormats(sheet, 'A2:O2')[0];
    expect(formats[0]).toBe('@');
    expect(formats[2]).toBe('dd/MM/yyyy');
    expect(formats[3]).toBe('@');
    expect(emu.displayValues(sheet, 'A2:L2')[0]).toEqual([
      'CLI-0001-2026',
      '123',
      '01/11/2026',
      '11/2026',
      'MENSAL',
      '789',
      'Honorários contábeis mensais',
      '350,00',
      'AGRUPADA',
      '10',
      '',
      'EXEMPLO',
    ]);
    const notes = emu.withServices((s) => s.SpreadsheetApp.getActiveSpreadsheet().getSheetByName(sheet)!.getRange('A1:O1').getNotes()[0]);
    expect(notes[3]).toMatch(/^competenciaInicial — .*MM\/AAAA/);
    const dropdown = emu.withServices(
      (s) => s.SpreadsheetApp.getActiveSpreadsheet().getSheetByName(sheet)!.getRange('I3').getDataValidation()?.getCriteriaValues()[0],
    );
    expect(dropdown).toEqual(['AGRUPADA', 'INDIVIDUAL']);

    const [c1, c2] = cat.clientes;
    const p1 = cat.produtos[0];
    type(emu, sheet, 3, [
      ['E2E-1', c1, '05/11/2026', '11/2026', 'MENSAL', p1, 'Mensalidade', '1.250,50', 'AGRUPADA', 10],
      ['', c2, '06/11/2026', '12/2026', 'Mensal', p1, 'Mensalidade', 300, 'individual', 15],
      ['E2E-BAD', 'abc', '31/02/2026', '13/2026', 'MENSAL', p1, 'x', 0, 'AGRUPADA', 40],
    ]);
    const v = ok(emu.run('validateBulk', [{ operation: 'criarAssinaturaPersonalizada', sheetName: sheet, scope: 'all' }]));
    expect(v).toMatchObject({ total: 3, valid: 2, invalid: 1 });
    expect(await sb.requestLog()).toEqual([]);
    const bad = byHeader(emu, sheet)[3];
    // Validar alone claims no run: no ERRO, no time, the problem in Mensagem.
    expect(bad.Status).toBe('');
    expect(bad['Processado em']).toBe('');
    expect(bad.Mensagem).toMatch(/^A corrigir: Linha 5, coluna "ID do cliente" \(B\)/);
    expect(bad.Mensagem).toMatch(/Linha 5, coluna "Dia de vencimento" \(J\): o valor máximo é 28/);
    const colors = emu.withServices((s) => s.SpreadsheetApp.getActiveSpreadsheet().getSheetByName(sheet)!.getRange('B5:D5').getBackgrounds()[0]);
    expect(colors.map((c) => c.toLowerCase())).toEqual(['#f4c7c3', '#f4c7c3', '#f4c7c3']);

    // "Ir para as linhas com erro" selects them.
    expect(ok(emu.run('showBulkFailures', ['criarAssinaturaPersonalizada', sheet]))).toEqual({ rows: 1 });
    expect(emu.spreadsheet.selection).toMatchObject({ ranges: ['A5:O5'] });

    const p = execute(emu, { operation: 'criarAssinaturaPersonalizada', sheetName: sheet });
    expect(p).toMatchObject({ status: 'done', counts: { ok: 2, failed: 1 } });
    const rows = byHeader(emu, sheet);
    expect(rows.map((r) => r.Status)).toEqual(['EXEMPLO', 'OK', 'OK', 'ERRO']);
    const generated = rows[2]['ID de integração'] as string;
    expect(generated).toMatch(/^lote-[0-9a-f-]{36}-\d+$/);
    expect(rows[1]['Processado em']).toBeInstanceOf(Date);
    const counts = await countByKey();
    expect(counts.get('E2E-1')).toBe(1);
    expect(counts.get(generated)).toBe(1);
    const created = (await sb.dump<Rec>(sb.orgs[0].name, 'assinaturas')).find((a) => a.idIntegracao === 'E2E-1')!;
    expect(created).toMatchObject({ valorLiquido: 1250.5, dataAdesao: '2026-11-05', competenciaInicial: '11/2026' });
    expect(rows[1]['ID da assinatura criada']).toBe(created.idAssinaturaContrato);

    await sb.clearLog();
    const again = execute(emu, { operation: 'criarAssinaturaPersonalizada', sheetName: sheet });
    expect(again.counts).toMatchObject({ ok: 0, skipped: 2, failed: 1 });
    expect(await sb.requestLog({ method: 'POST' })).toEqual([]);
  });

  it('reads a sheet typed without formats: a competência turned into a date is understood, an ID that lost its zeros is refused', async () => {
    const emu = emulator();
    connect(emu, sb);
    emu.withServices((s) => void s.SpreadsheetApp.getActiveSpreadsheet().insertSheet('Minha aba'));
    type(emu, 'Minha aba', 1, [
      [
        'Valor',
        'ID do cliente',
        'Competência inicial',
        'Data de adesão',
        'Periodicidade',
        'ID do produto',
        'Descrição',
        'Forma de faturamento',
        'Dia de vencimento',
        'ID de integração',
      ],
      ['99,90', cat.clientes[0], '10/2026', '01/10/2026', 'MENSAL', cat.produtos[0], 'A', 'AGRUPADA', 5, 'TXT-1'],
      ['10', cat.clientes[0], '10/2026', '01/10/2026', 'MENSAL', cat.produtos[0], 'B', 'AGRUPADA', 5, '00123'],
    ]);
    // The Planilhas made the competência a date and the ID a number:
    expect(emu.values('Minha aba', 'C2:C2')[0][0]).toBeInstanceOf(Date);
    expect(emu.values('Minha aba', 'J3:J3')[0][0]).toBe(123);
    const p = execute(emu, { operation: 'criarAssinaturaPersonalizada', sheetName: 'Minha aba' });
    expect(p.counts).toMatchObject({ ok: 1, failed: 1 });
    const rows = byHeader(emu, 'Minha aba');
    expect(rows[1].Mensagem).toMatch(/coluna "ID de integração" \(J\): a célula está como número \(123\)/);
    const created = (await sb.dump<Rec>(sb.orgs[0].name, 'assinaturas')).find((a) => a.idIntegracao === 'TXT-1')!;
    expect(created).toMatchObject({ competenciaInicial: '10/2026', valorLiquido: 99.9 });
    expect((await sb.requestLog({ method: 'POST' })).map((e) => (e.body as Rec).idIntegracao)).toEqual(['TXT-1']);
  });

  it('a run killed at 6 minutes right after sending a batch is finished by the next one, each row created once', async () => {
    const emu = emulator();
    connect(emu, sb);
    const sheet = subscriptionSheet(emu, cat, 25, 'Linha', 100);
    // Each wave of requests costs 7 minutes of the execution's time: the kill comes at the first call after the first wave went out.
    const killed = emu.execute('startBulkRun', [{ operation: 'criarAssinaturaPersonalizada', sheetName: sheet, connection: 'Demo', scope: 'all' }], {
      costs: { urlFetchCallMs: 7 * 60_000 },
    });
    expect(killed.status).toBe('killed');
    const sentBeforeKill = (await sb.requestLog({ method: 'POST' })).length;
    expect(sentBeforeKill).toBe(10);
    // The whole batch was marked before its first wave: a row the kill caught unsent cannot be told from one sent.
    expect(byHeader(emu, sheet).filter((r) => r.Status === 'PENDENTE').length).toBe(25);

    const form = emu.run('getBulkForm') as Rec;
    expect(form.jobs).toHaveLength(1);
    // Past the delay in which the service may still commit a write whose answer was lost: a row it does not have may go again.
    emu.now += 11 * 60_000;
    let p = ok(emu.run('continueBulkRun', [form.jobs[0].jobId]));
    while (!p.done) p = ok(emu.run('continueBulkRun', [p.jobId]));
    expect(p.counts.ok).toBe(25);
    const all = byHeader(emu, sheet).slice(1);
    expect(all.every((r) => r.Status === 'OK')).toBe(true);
    const counts = await countByKey();
    for (const r of all) expect(counts.get(r['ID de integração'] as string)).toBe(1);
    expect((await sb.requestLog({ method: 'POST' })).length).toBe(25);
  });

  it('a second run while the document is locked is told why', async () => {
    const emu = emulator();
    connect(emu, sb);
    const sheet = ok(emu.run('createBulkTemplate', ['atualizarAssinaturaPlano'])).sheetName as string;
    emu.holdLock('document', SP('2026-11-22T11:00:00'), { label: 'outro lote' });
    const r = emu.run('startBulkRun', [{ operation: 'atualizarAssinaturaPlano', sheetName: sheet, connection: 'Demo', scope: 'all' }]) as {
      ok: boolean;
      message?: string;
    };
    expect(r).toMatchObject({ ok: false });
    expect((r as { message: string }).message).toMatch(/Outra execução do complemento está gravando nesta planilha/);
  });

  it('the hourly dispatcher finishes a job nobody is stepping', async () => {
    const emu = emulator();
    connect(emu, sb);
    const sheet = ok(emu.run('createBulkTemplate', ['criarAssinaturaPersonalizada'])).sheetName as string;
    type(
      emu,
      sheet,
      3,
      Array.from({ length: 30 }, (_, i) => ['', cat.clientes[0], '05/11/2026', '11/2026', 'MENSAL', cat.produtos[0], `D${i}`, 50, 'AGRUPADA', 10]),
    );
    // A tiny first step, then the sidebar is closed.
    const first = ok(
      emu.run(
        'startBulkRun',
        [{ operation: 'criarAssinaturaPersonalizada', sheetName: sheet, connection: 'Demo', scope: 'all', batchSize: 5, stepSeconds: 5 }],
        { costs: { urlFetchCallMs: 3000 } },
      ),
    );
    expect(first.done).toBe(false);
    emu.now += 10 * 60_000;
    emu.run('runScheduledReports', [], { kind: 'trigger' });
    const p = (emu.run('getBulkForm') as Rec).jobs as Rec[];
    expect(p).toEqual([]);
    expect(
      byHeader(emu, sheet)
        .slice(1)
        .every((r) => r.Status === 'OK'),
    ).toBe(true);
    expect((await sb.requestLog({ method: 'POST' })).length).toBe(30);
    // Reopened, the sidebar has how the run ended; Histórico has who sent how many, and when.
    expect((emu.run('getBulkForm') as Rec).last).toMatchObject({
      status: 'done',
      label: 'Criar assinaturas personalizadas',
      sheetName: sheet,
      counts: { ok: 30, failed: 0 },
      message: '30 linhas enviadas com sucesso.',
      owner: expect.stringContaining('@'),
      endedAt: expect.stringMatching(/^22\/11\/2026 \d\d:\d\d$/),
    });
    const line = emu.displayValues('Histórico').at(-1)!;
    expect(line.slice(1, 8)).toEqual([
      `Criar assinaturas personalizadas · aba "${sheet}"`,
      'Manual',
      '30',
      expect.any(String),
      'OK',
      '30 linhas enviadas com sucesso.',
      expect.stringContaining('@'),
    ]);
    expect(line[0]).toMatch(/^22\/11\/2026 /);
  });
});

describe('NFS-e from the selected rows of a pulled Faturas sheet', () => {
  it('emits only for the selected invoices, beside their rows, and never twice', async () => {
    const emu = emulator();
    connect(emu, sb);
    importAll(emu, { listing: 'faturas', sheetName: 'Faturas' });
    const col = columnsOf(emu, 'Faturas');
    const values = emu.values('Faturas');
    const emitiveis = new Set(cat.emitiveis);
    const rowsOf = values.map((r, i) => ({ row: i + 1, id: r[col.idFatura] as number })).filter((r) => emitiveis.has(r.id));
    const chosen = [rowsOf[0], rowsOf[1], rowsOf[5]];
    const withNote = values.map((r, i) => ({ row: i + 1, id: r[col.idFatura] as number })).find((r) => cat.comNota.some((n) => n.idFatura === r.id))!;
    emu.select('Faturas', `A${chosen[0].row}:C${chosen[1].row}`, `B${chosen[2].row}`, `D${withNote.row}`);
    const form = emu.run('getBulkForm') as Rec;
    expect(form.guessed).toBe('emitirNfse');
    const p = execute(emu, { operation: 'emitirNfse', sheetName: 'Faturas', scope: 'selected' });
    const selectedRows = new Set([...Array.from({ length: chosen[1].row - chosen[0].row + 1 }, (_, i) => chosen[0].row + i), chosen[2].row, withNote.row]);
    expect(p.total).toBe(selectedRows.size);
    const after = emu.values('Faturas');
    const header = after[0] as string[];
    // The invoice's own "Status" column stays, alone with that title; ours is appended after the data as "Status do lote".
    expect(header.filter((h) => h === 'Status')).toHaveLength(1);
    const status = header.indexOf('Status do lote');
    const idNota = header.indexOf('ID da NFS-e');
    const numero = header.indexOf('Número da NFS-e');
    expect(status).toBeGreaterThan(col.idFatura);
    const notes = await sb.dump<Rec>(sb.orgs[0].name, 'nfse');
    for (let r = 2; r <= after.length; r++) {
      const line = after[r - 1];
      if (!selectedRows.has(r)) {
        expect(line[status], `row ${r}`).toBe('');
        continue;
      }
      const mine = notes.filter((n) => n.idFatura === line[col.idFatura]);
      expect(mine.length, `row ${r}`).toBeLessThanOrEqual(1);
      if (mine.length === 1) {
        expect(['OK', 'JÁ EMITIDA']).toContain(line[status]);
        expect(line[idNota]).toBe(mine[0].idNotaFiscalServico);
        expect(line[numero]).toBe(mine[0].numeroNotaFiscalServico ?? '');
      } else expect(line[status]).toBe('ERRO');
    }
    expect(after.slice(1).map((r) => r[col.statusFatura])).toEqual(values.slice(1).map((r) => r[col.statusFatura]));
    expect(after[withNote.row - 1][status]).toBe('JÁ EMITIDA');
    for (const c of chosen) expect(after[c.row - 1][status]).toBe('OK');

    await sb.clearLog();
    emu.select('Faturas', `A${chosen[0].row}:C${chosen[1].row}`, `B${chosen[2].row}`, `D${withNote.row}`);
    execute(emu, { operation: 'emitirNfse', sheetName: 'Faturas', scope: 'selected' });
    expect(await sb.requestLog({ method: 'POST' })).toEqual([]);
    // The second run found its own "Status do lote" again: no column was added.
    expect(emu.values('Faturas')[0]).toEqual(header);
  });
});

describe('rows whose content repeats another', () => {
  it('Validar names each repeated row and the row it repeats; typed keys and different rows are not named; nothing is sent', async () => {
    const emu = emulator();
    connect(emu, sb);
    const sheet = ok(emu.run('createBulkTemplate', ['criarAssinaturaPersonalizada'])).sheetName as string;
    const [c1, c2] = cat.clientes;
    const p = cat.produtos[0];
    const a = [c1, '05/11/2026', '11/2026', 'MENSAL', p, 'Honorários', '350,00', 'AGRUPADA', 10];
    const b = [c2, '05/11/2026', '11/2026', 'MENSAL', p, 'Honorários', '350,00', 'AGRUPADA', 10];
    typeRows(emu, sheet, 3, [
      ['', ...a], // 3
      ['', ...b], // 4: another customer
      ['', ...a], // 5: repeats 3
      ['TYPED-1', ...a], // 6: a typed key tells it apart
      ['', ...b], // 7: repeats 4
      ['', ...a], // 8: repeats 3
    ]);
    const v = ok(emu.run('validateBulk', [{ operation: 'criarAssinaturaPersonalizada', sheetName: sheet, scope: 'all' }]));
    expect(v).toMatchObject({ total: 6, valid: 6, invalid: 0 });
    expect(v.repeats).toBe(
      'Conteúdo repetido: as linhas 5 e 8 repetem a linha 3; a linha 7 repete a linha 4. Cada linha cria mais um lançamento igual; se a repetição não for intencional, apague as linhas repetidas antes de enviar.',
    );
    expect(await sb.requestLog({ method: 'POST' })).toEqual([]);
    expect(rowsByHeader(emu, sheet).map((r) => r.Status)).toEqual(['EXEMPLO', '', '', '', '', '', '']);
  });

  it('rows that differ in one cell are not repeats', async () => {
    const emu = emulator();
    connect(emu, sb);
    const sheet = ok(emu.run('createBulkTemplate', ['criarAssinaturaPersonalizada'])).sheetName as string;
    const row = (valor: string) => ['', cat.clientes[0], '05/11/2026', '11/2026', 'MENSAL', cat.produtos[0], 'Honorários', valor, 'AGRUPADA', 10];
    typeRows(emu, sheet, 3, [row('350,00'), row('350,01')]);
    const v = ok(emu.run('validateBulk', [{ operation: 'criarAssinaturaPersonalizada', sheetName: sheet, scope: 'all' }]));
    expect(v).toMatchObject({ valid: 2, repeats: '' });
  });
});
