/**
 * Sheets people edit and services that misbehave: what a run proves before it
 * says OK, the service's clock whatever the spreadsheet's zone, and sheets found
 * by id whatever the user renamed. The real bundle in the emulator, the sandbox
 * over HTTP.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type SandboxHandle, borrowSandbox } from '../../dev/sandbox/harness';
import { columnsOf, connect, emulator, finishRun, importAll, SP } from './helpers';

type Rec = Record<string, any>;
let sb: SandboxHandle;

beforeAll(async () => {
  sb = await borrowSandbox({ seed: 11, size: 'small' });
});
afterAll(async () => {
  await sb?.stop();
});
beforeEach(async () => {
  await sb.reset();
});

describe('completeness is proven, not assumed', () => {
  it('a pull that sees pages repeat (page parameter ignored) is INCOMPLETO, never OK', async () => {
    const emu = emulator();
    connect(emu, sb);
    await sb.configure({ addFaults: [{ kind: 'ignorePage', pathPrefix: '/v2/faturamento/faturas' }] });
    const p = importAll(emu, { listing: 'faturas', sheetName: 'Faturas', filters: {}, name: 'Faturas' });
    expect(p.status).toBe('failed');
    expect(p.message).toMatch(/incompleta/i);
    expect(String(emu.values('Faturas')[0][0])).toMatch(/INCOMPLETO/);
    const history = emu.values('Histórico');
    expect(history[1][5]).toBe('ERRO');
    expect(history[1][6]).toMatch(/ignorar o parâmetro de página/);
    // Continuing cannot turn the same unproven walk into OK.
    const again = finishRun(emu, p.reportId);
    expect(again.status).not.toBe('done');
  });
});

describe('time zones', () => {
  it('sends the incremental date-time in the service zone when the spreadsheet is elsewhere', async () => {
    const emu = emulator({ startAt: SP('2026-06-01T09:00:00'), spreadsheet: { timeZone: 'Asia/Tokyo' } });
    connect(emu, sb);
    importAll(emu, { listing: 'transacoes', sheetName: 'Transações', filters: {}, incremental: true });
    emu.now = SP('2026-11-22T10:00:00').getTime();
    await sb.clearLog();
    const id = (emu.run('listReports') as Rec[])[0].id;
    emu.run('runReport', [id]);
    const second = finishRun(emu, id);
    expect(second.incremental).toBe(true);
    const log = await sb.requestLog({ pathPrefix: '/v2/financeiro/transacoes' });
    expect(log.length).toBeGreaterThan(0);
    // 09:00 in São Paulo minus the 10-minute margin; in Tokyo that instant reads 21:50.
    expect(log.every((e) => e.query.dataHoraAtualizacaoInicial === '01/06/2026 08:50')).toBe(true);
    expect(columnsOf(emu, 'Transações')).toHaveProperty('idTransacao');
  });
});

type Emu = ReturnType<typeof emulator>;

function sheetOf(s: any, name: string) {
  return s.SpreadsheetApp.getActiveSpreadsheet().getSheetByName(name)!;
}

/** Types `nota-<id>` in a user column right of our columns, on every data row. */
function annotate(emu: Emu, name: string, idField: string): number {
  const col = columnsOf(emu, name);
  const width = emu.values(name)[0].length;
  const values = emu.values(name);
  const userColumn = width + 2;
  emu.withServices((s) => {
    const sh = sheetOf(s, name);
    if (sh.getMaxColumns() < userColumn) sh.insertColumnsAfter(sh.getMaxColumns(), userColumn - sh.getMaxColumns());
    sh.getRange(1, userColumn).setValue('Minha nota');
    const notes = values.slice(1).map((r) => [r[col[idField]] === '' ? '' : `nota-${r[col[idField]]}`]);
    sh.getRange(2, userColumn, notes.length, 1).setValues(notes);
  });
  return userColumn;
}

/** Every user note sits beside its own record, and every record appears once. */
function expectBeside(emu: Emu, name: string, idField: string): { records: number; notes: number } {
  const col = columnsOf(emu, name);
  const values = emu.values(name);
  const noteColumn = values[0].indexOf('Minha nota');
  expect(noteColumn).toBeGreaterThanOrEqual(0);
  const ids = values
    .slice(1)
    .map((r) => r[col[idField]])
    .filter((v) => v !== '');
  expect(new Set(ids).size).toBe(ids.length);
  let notes = 0;
  for (const row of values.slice(1)) {
    const note = row[noteColumn];
    // A note on a row whose record cells the user cleared belongs to no record: it stays, beside nothing else.
    if (note === '' || row[col[idField]] === '') continue;
    notes++;
    expect(note).toBe(`nota-${row[col[idField]]}`);
  }
  return { records: ids.length, notes };
}

function reportId(emu: Emu): string {
  return (emu.run('listReports') as Rec[])[0].id;
}

function refresh(emu: Emu, id: string) {
  emu.run('runReport', [id]);
  return finishRun(emu, id);
}

describe('sheets by id', () => {
  it('a renamed or moved tab is still the report sheet; a deleted one is recreated and Histórico says so', async () => {
    const emu = emulator();
    connect(emu, sb);
    const first = importAll(emu, { listing: 'clientes', sheetName: 'Clientes', filters: {}, name: 'Clientes' });
    emu.withServices((s) => {
      const ss = s.SpreadsheetApp.getActiveSpreadsheet();
      const sh = ss.getSheetByName('Clientes')!;
      sh.setName('Meus clientes');
      ss.setActiveSheet(sh);
      ss.moveActiveSheet(1);
    });
    const second = refresh(emu, first.reportId);
    expect(second.status).toBe('done');
    expect(emu.sheetNames()).not.toContain('Clientes');
    expect(emu.values('Meus clientes').length - 1).toBe(first.rows);
    expect((emu.run('listReports') as Rec[])[0].sheetName).toBe('Meus clientes');
    emu.withServices((s) => {
      const ss = s.SpreadsheetApp.getActiveSpreadsheet();
      ss.deleteSheet(ss.getSheetByName('Meus clientes')!);
    });
    const third = refresh(emu, first.reportId);
    expect(third.status).toBe('done');
    expect(third.warnings.join(' ')).toMatch(/apagada e foi criada de novo/);
    const history = emu.values('Histórico');
    expect(history[history.length - 1][6]).toMatch(/apagada e foi criada de novo/);
  });

  it('never offers or accepts Histórico, a bulk template or another report sheet as a target', () => {
    const emu = emulator();
    connect(emu, sb);
    importAll(emu, { listing: 'clientes', sheetName: 'Clientes', filters: {}, name: 'Clientes' });
    expect((emu.run('createBulkTemplate', ['criarAssinaturaPlano']) as Rec).ok).toBe(true);
    emu.withServices((s) => sheetOf(s, 'Histórico').setName('Log'));
    const form = emu.run('getImportForm') as Rec;
    expect(form.sheets).not.toContain('Log');
    expect(form.sheets).not.toContain('Clientes');
    expect(form.sheets.some((n: string) => /Assinaturas|Descontos/.test(n))).toBe(false);
    for (const target of ['Log', 'Clientes']) {
      const r = emu.run('startImportRun', [{ connection: 'Demo', listing: 'nfse', sheetName: target, filters: {}, confirmReplace: target }]) as Rec;
      expect(r).toMatchObject({ ok: false, field: 'sheetName' });
    }
    expect(emu.values('Log')[0][0]).toBe('Quando');
  });

  it('replacing a user sheet with data needs a confirmation naming it', () => {
    const emu = emulator();
    connect(emu, sb);
    emu.withServices((s) => s.SpreadsheetApp.getActiveSpreadsheet().insertSheet('Minha aba').getRange('A1').setValue('importante'));
    const form = { connection: 'Demo', listing: 'clientes', sheetName: 'Minha aba', filters: {} };
    const refused = emu.run('startImportRun', [form]) as Rec;
    expect(refused).toMatchObject({ ok: false, field: 'confirmReplace' });
    expect(refused.message).toMatch(/"Minha aba"/);
    expect(emu.values('Minha aba')[0][0]).toBe('importante');
    const other = emu.run('startImportRun', [{ ...form, confirmReplace: 'Outra' }]) as Rec;
    expect(other.ok).toBe(false);
    const ok = emu.run('startImportRun', [{ ...form, confirmReplace: 'Minha aba' }]) as Rec;
    expect(ok.ok).toBe(true);
  });
});

describe('rows by record id', () => {
  it('a full refresh in another order keeps every user cell beside its record', () => {
    const emu = emulator();
    connect(emu, sb);
    const first = importAll(emu, { listing: 'faturas', sheetName: 'Faturas', filters: {}, name: 'Faturas' });
    annotate(emu, 'Faturas', 'idFatura');
    const report = (emu.run('listReports') as Rec[])[0];
    expect((emu.run('startImportRun', [{ ...report, filters: { sortField: 'valorTotal', sortOrder: 'desc' } }]) as Rec).ok).toBe(true);
    finishRun(emu, first.reportId);
    expect(expectBeside(emu, 'Faturas', 'idFatura')).toEqual({ records: first.rows, notes: first.rows });
  });

  it('survives the user sorting, inserting and deleting rows and columns, and clearing a row, between refreshes', () => {
    const emu = emulator();
    connect(emu, sb);
    const first = importAll(emu, { listing: 'faturas', sheetName: 'Faturas', filters: {}, name: 'Faturas', incremental: true });
    annotate(emu, 'Faturas', 'idFatura');
    const col = columnsOf(emu, 'Faturas');
    const ours = Object.keys(col).filter(Boolean).length - 1;
    emu.withServices((s) => {
      const sh = sheetOf(s, 'Faturas');
      sh.sort(col.valorTotal + 1, false);
      sh.insertColumns(3, 1);
      sh.getRange(1, 3).setValue('Coluna do usuário');
      sh.insertRowsAfter(5, 2);
      sh.deleteRows(10, 1);
      // A column of ours deleted: rebuilt beside its neighbours, never filled by shifting.
      sh.deleteColumns(col.competencia + 2, 1);
      // One row cleared in our columns only.
      sh.getRange(4, 1, 1, 2).clearContent();
      sh.getRange(4, 4, 1, ours - 2).clearContent();
    });
    const second = refresh(emu, first.reportId);
    expect(second.status).toBe('done');
    // Not merged: the layout had changed, so the refresh was full and said what it rebuilt.
    expect(second.incremental).toBe(false);
    expect(second.warnings.join(' ')).toMatch(/refeitas: Competência/);
    const after = expectBeside(emu, 'Faturas', 'idFatura');
    expect(after.records).toBe(first.rows);
    // The deleted row took its note with it; the cleared row's note stays on a row without a record, never on another one.
    expect(after.notes).toBeGreaterThanOrEqual(first.rows - 2);
    const header = emu.values('Faturas')[0];
    expect(header[2]).toBe('Coluna do usuário');
    expect(header.filter((h) => h === 'Competência')).toHaveLength(1);
  });

  it('records that left the listing: rows with user cells stay, marked; rows without go', () => {
    const emu = emulator();
    connect(emu, sb);
    const first = importAll(emu, { listing: 'clientes', sheetName: 'Clientes', filters: {}, name: 'Clientes' });
    const col = columnsOf(emu, 'Clientes');
    const values = emu.values('Clientes');
    const keepId = values[3][col.idCliente];
    const noteColumn = values[0].length + 1;
    emu.withServices((s) => {
      const sh = sheetOf(s, 'Clientes');
      sh.insertColumnsAfter(sh.getMaxColumns(), 1);
      sh.getRange(4, noteColumn).setValue('ligar amanhã');
    });
    const report = (emu.run('listReports') as Rec[])[0];
    const onlyId = values[1][col.idCliente];
    expect((emu.run('startImportRun', [{ ...report, filters: { idCliente: String(onlyId) } }]) as Rec).ok).toBe(true);
    const second = finishRun(emu, first.reportId);
    expect(second.warnings.join(' ')).toMatch(/1 linha\(s\)/);
    const rows = emu.values('Clientes').filter((r, i) => i > 0 && r[col.idCliente] !== '');
    expect(rows.map((r) => r[col.idCliente]).sort()).toEqual([onlyId, keepId].sort());
    const kept = rows.find((r) => r[col.idCliente] === keepId)!;
    expect(kept[noteColumn - 1]).toBe('ligar amanhã');
    const note = emu.withServices((s) => {
      const sh = sheetOf(s, 'Clientes');
      const at = sh
        .getRange(1, col.idCliente + 1, sh.getLastRow(), 1)
        .getValues()
        .findIndex((r: unknown[]) => r[0] === keepId);
      return sh.getRange(at + 1, col.idCliente + 1).getNote();
    });
    expect(note).toMatch(/não veio na atualização completa/);
  });
});

describe('incremental refresh by id', () => {
  it('merges changed records into wherever the user sorted them', async () => {
    const emu = emulator({ startAt: SP('2026-06-01T09:00:00') });
    connect(emu, sb);
    const first = importAll(emu, { listing: 'transacoes', sheetName: 'Transações', filters: {}, incremental: true });
    annotate(emu, 'Transações', 'idTransacao');
    const col = columnsOf(emu, 'Transações');
    emu.withServices((s) => sheetOf(s, 'Transações').sort(col.valor + 1, false));
    emu.now = SP('2026-11-22T10:00:00').getTime();
    const id = reportId(emu);
    emu.run('runReport', [id]);
    const second = finishRun(emu, id);
    expect(second.incremental).toBe(true);
    expect(second.rows).toBeGreaterThan(0);
    expect(second.rows).toBeLessThan(first.rows);
    expect(expectBeside(emu, 'Transações', 'idTransacao')).toEqual({ records: first.rows, notes: first.rows });
  });
});
