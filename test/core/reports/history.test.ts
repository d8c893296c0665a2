/**
 * The Histórico sheet as people read it: one row per finished run, appended
 * under the header, to the same sheet whatever it is called now; and the sheets
 * a report may (not) be pointed at.
 */
import { describe, expect, it } from 'vitest';
import { CELL_TEXT_MAX } from '../../../src/core/bounds';
import { appendHistory } from '../../../src/core/reports/history';
import { HISTORY_SHEET } from '../../../src/core/sheets/sheet-names';
import type { Report, RunSummary } from '../../../src/core/reports/reports';
import { SHEET_TAG } from '../../../src/core/sheets/sheet-layout';
import { targetNames, targetProblem } from '../../../src/core/trust/targets';
import { MemoryBook } from '../bulk/memory-book';

const HEADER = ['Quando', 'Relatório', 'Origem', 'Linhas', 'Duração (s)', 'Resultado', 'Mensagem', 'Quem'];
const run = (extra: Partial<RunSummary> = {}): RunSummary => ({ startedAt: 1_000, origin: 'manual', rows: 12, durationMs: 1_234, result: 'ok', ...extra });

describe('appendHistory', () => {
  it('creates the Histórico sheet with a frozen text header and adds a row per run', () => {
    const book = new MemoryBook();
    appendHistory(book, 'Faturas', run({ finishedAt: 5_000, message: 'Tudo certo.', warnings: ['Aviso 1', '', 'Aviso 2'] }), 'ana@escritorio.com.br');
    appendHistory(book, 'Clientes', run({ origin: 'agendado', result: 'parcial', durationMs: 1_250, rows: 0 }), 'bruno@escritorio.com.br');
    const sheet = book.byName(HISTORY_SHEET);
    expect(sheet?.tags.get(SHEET_TAG)).toBe('historico');
    expect(sheet?.frozen).toBe(1);
    expect(sheet?.grid).toEqual([
      HEADER,
      [new Date(5_000), 'Faturas', 'Manual', 12, 1.2, 'OK', 'Tudo certo. Aviso 1 Aviso 2', 'ana@escritorio.com.br'],
      [new Date(1_000), 'Clientes', 'Agendado', 0, 1.3, 'PARCIAL', '', 'bruno@escritorio.com.br'],
    ]);
    expect(HEADER.map((_, c) => sheet?.formats.get(`1:${c + 1}`))).toEqual(HEADER.map(() => '@'));
    expect(HEADER.map((_, c) => sheet?.formats.get(`3:${c + 1}`))).toEqual(['dd/MM/yyyy HH:mm:ss', '@', '@', '0', '0.0', '@', '@', '@']);
  });

  it('says each result in capitals', () => {
    const book = new MemoryBook();
    for (const result of ['ok', 'parcial', 'erro', 'cancelado', 'em andamento'] as const) appendHistory(book, 'R', run({ result }));
    expect(
      book
        .byName(HISTORY_SHEET)
        ?.records()
        .map((r) => r.Resultado),
    ).toEqual(['OK', 'PARCIAL', 'ERRO', 'CANCELADO', 'EM ANDAMENTO']);
  });

  it('keeps writing to the Histórico the user renamed, found by its metadata', () => {
    const book = new MemoryBook();
    appendHistory(book, 'A', run());
    const sheet = book.byName(HISTORY_SHEET);
    if (!sheet) throw new Error('no history');
    (sheet as unknown as { title: string }).title = 'Log de execuções';
    book.create(HISTORY_SHEET);
    appendHistory(book, 'B', run());
    expect(sheet.records().map((r) => r.Relatório)).toEqual(['A', 'B']);
    expect(book.sheets).toHaveLength(2);
  });

  it('adopts an untagged sheet named Histórico (made before sheets had metadata), under its last row', () => {
    const book = new MemoryBook();
    const old = book.sheet(HISTORY_SHEET, HEADER, [[new Date(1), 'Antigo', 'Manual', 1, 0.1, 'OK', '', '']]);
    appendHistory(book, 'Novo', run());
    expect(book.sheets).toEqual([old]);
    expect(old.records().map((r) => r.Relatório)).toEqual(['Antigo', 'Novo']);
  });

  it('a Histórico made before "Quem" gets the column after Mensagem; its rows stay where they were', () => {
    const book = new MemoryBook();
    const old = book.sheet(HISTORY_SHEET, HEADER.slice(0, 7), [[new Date(1), 'Antigo', 'Manual', 1, 0.1, 'OK', 'velho']]);
    appendHistory(book, 'Novo', run(), 'ana@escritorio.com.br');
    expect(old.grid[0]).toEqual(HEADER);
    expect(old.records().map((r) => [r.Relatório, r.Mensagem, r.Quem])).toEqual([
      ['Antigo', 'velho', ''],
      ['Novo', '', 'ana@escritorio.com.br'],
    ]);
  });

  it("never writes into another of the add-on's sheets that carries sheet metadata", () => {
    const book = new MemoryBook();
    const dashboard = book.create('Painel');
    dashboard.setSheetTag(SHEET_TAG, 'painel:p1');
    appendHistory(book, 'R', run());
    expect(dashboard.grid).toEqual([]);
    expect(
      book
        .byName(HISTORY_SHEET)
        ?.records()
        .map((r) => r.Relatório),
    ).toEqual(['R']);
  });

  it('bounds a long message to what a cell holds', () => {
    const book = new MemoryBook();
    appendHistory(book, 'R', run({ message: 'x'.repeat(CELL_TEXT_MAX + 10) }));
    const message = String(book.byName(HISTORY_SHEET)?.records()[0].Mensagem);
    expect(message).toHaveLength(CELL_TEXT_MAX);
    expect(message.endsWith('…')).toBe(true);
  });
});

describe('targetProblem and targetNames', () => {
  const report = (extra: Partial<Report>): Report => ({ id: 'r1', name: 'Faturas', sheetName: 'Faturas', ...extra }) as Report;

  function book() {
    const b = new MemoryBook();
    const history = b.create('Log');
    history.setSheetTag(SHEET_TAG, 'historico');
    b.create(HISTORY_SHEET);
    b.create('Painel').setSheetTag(SHEET_TAG, 'painel:p1');
    b.create('Modelo').setSheetTag(SHEET_TAG, 'modelo:emitirNfse');
    b.create('Faturas');
    b.create('Renomeada').setSheetTag(SHEET_TAG, 'relatorio:r2');
    b.create('Livre');
    b.create('Por id');
    return b;
  }

  it("refuses the add-on's own sheets, saying what each one is", () => {
    const b = book();
    const problem = (name: string) => targetProblem(b.byName(name) as never, [], undefined);
    expect(problem('Log')).toBe('A aba "Log" é o histórico de execuções do complemento e não recebe importações. Escolha outra aba.');
    expect(problem(HISTORY_SHEET)).toBe('A aba "Histórico" é o histórico de execuções do complemento e não recebe importações. Escolha outra aba.');
    expect(problem('Painel')).toBe('A aba "Painel" é um painel do complemento (Painéis) e não recebe importações. Escolha outra aba.');
    expect(problem('Modelo')).toBe('A aba "Modelo" é um modelo de lançamentos em lote e não recebe importações. Escolha outra aba.');
    expect(problem('Livre')).toBeNull();
  });

  it("refuses another report's sheet, found by id, by metadata or (for old reports) by name", () => {
    const b = book();
    const byId = b.byName('Por id')?.id;
    const reports = [
      report({ id: 'r1', name: 'Faturas', sheetName: 'Faturas' }),
      report({ id: 'r2', name: 'Clientes', sheetName: 'Clientes antiga', sheetId: 999 }),
      report({ id: 'r3', name: 'NFS-e', sheetName: 'Livre', sheetId: byId }),
    ];
    const problem = (name: string, reportId?: string) => targetProblem(b.byName(name) as never, reports, reportId);
    expect(problem('Faturas')).toBe('A aba "Faturas" já é do relatório "Faturas": cada relatório tem a sua aba. Escolha outra ou crie uma nova.');
    expect(problem('Renomeada')).toBe('A aba "Renomeada" já é do relatório "Clientes": cada relatório tem a sua aba. Escolha outra ou crie uma nova.');
    expect(problem('Por id')).toBe('A aba "Por id" já é do relatório "NFS-e": cada relatório tem a sua aba. Escolha outra ou crie uma nova.');
    // A report with a sheet id is not matched by a sheet that merely has its old name.
    expect(problem('Livre')).toBeNull();
    // A report may keep its own sheet.
    expect(problem('Faturas', 'r1')).toBeNull();
    expect(problem('Renomeada', 'r2')).toBeNull();
    expect(problem('Por id', 'r3')).toBeNull();

    expect(targetNames(b, reports, undefined)).toEqual(['Livre']);
    expect(targetNames(b, reports, 'r1')).toEqual(['Faturas', 'Livre']);
  });
});
