/** Validar: every row checked and its problems written beside it, nothing sent; the discounts' warnings. */
import { describe, expect, it } from 'vitest';
import { startBulk } from '../../../src/core/bulk/launch';
import { validateSheet } from '../../../src/core/bulk/validate';
import { bulkOperation, discountColumns } from '../../../src/core/bulk/definitions';
import { FAULT_COLOR } from '../../../src/core/bulk/sheet-io';
import type { CellValue } from '../../../src/core/sheets/table';
import { adesao, FAR, NFSE_HEADER, setUp } from './fake-service';

describe('validateSheet', () => {
  it('checks every row, writes the problems beside them and sends nothing', () => {
    const { book, deps, service } = setUp();
    const header = [...NFSE_HEADER, 'Status', 'Mensagem', 'Fatura conferida'];
    const rows: CellValue[][] = [[1001, 'ERRO', 'antes', ''], ['x'], [1003, 'OK', '', 1003], [1004], [1005, 'PENDENTE'], [1006, 'OK', '', 999], [1007, 'ERRO']];
    const sheet = book.sheet('Notas', header, rows);
    const summary = validateSheet(deps, { operation: 'emitirNfse', sheetName: 'Notas', scope: 'all' });
    // 1006's OK was for another invoice (the sheet was imported again): it is to be sent.
    expect(summary).toMatchObject({ sheetName: 'Notas', total: 7, valid: 4, invalid: 1, untouched: 2, warnings: [] });
    expect(summary.problems).toEqual([expect.stringMatching(/^Linha 3, coluna "ID da fatura" \(A\): /)]);
    expect(service.log).toEqual([]);
    const read = sheet.records();
    // Validar alone claims no run: the invalid row's problem is in Mensagem, its Status and Processado em stay empty.
    expect(read.map((r) => r.Status)).toEqual(['', '', 'OK', '', 'PENDENTE', '', '']);
    expect(read[1].Mensagem).toMatch(/^A corrigir: Linha 3, coluna "ID da fatura" \(A\): /);
    expect(read.map((r) => r['Processado em'])).toEqual(['', '', '', '', '', '', '']);
    expect(read[6].Mensagem).toBe('Linha válida: pronta para enviar.');
    expect(read[0].Mensagem).toBe('Linha válida: pronta para enviar.');
    expect(read[3].Mensagem).toBe('');
    expect(read[5].Mensagem).toBe('Linha válida: pronta para enviar.');
    expect(sheet.backgrounds[2][0]).toBe(FAULT_COLOR);
  });

  it('Validar keeps what a run wrote: an ERRO of the service and its time stay, the problem found now goes in Mensagem', () => {
    const { book, deps } = setUp();
    const at = new Date(2026, 10, 3, 9, 30);
    const sheet = book.sheet('Notas', [...NFSE_HEADER, 'Status', 'Mensagem', 'Processado em'], [['x', 'ERRO', 'HTTP 400 do serviço', at]]);
    validateSheet(deps, { operation: 'emitirNfse', sheetName: 'Notas', scope: 'all' });
    expect(sheet.records()[0]).toMatchObject({
      Status: 'ERRO',
      'Processado em': at,
      Mensagem: expect.stringMatching(/^A corrigir: Linha 2, coluna "ID da fatura"/),
    });
  });

  it('Executar marks the same row ERRO with its time: that is a run', () => {
    const { book, deps } = setUp();
    const sheet = book.sheet('Notas', [...NFSE_HEADER, 'Status', 'Mensagem', 'Processado em'], [['x']]);
    startBulk(deps, { operation: 'emitirNfse', sheetName: 'Notas', scope: 'all', connection: 'Empresa' }, FAR());
    expect(sheet.records()[0]).toMatchObject({
      Status: 'ERRO',
      'Processado em': expect.any(Date),
      Mensagem: expect.stringMatching(/^Linha 2, coluna "ID da fatura"/),
    });
  });

  it('at most five problems are listed for the sidebar', () => {
    const { book, deps } = setUp();
    book.sheet(
      'Notas',
      NFSE_HEADER,
      Array.from({ length: 7 }, () => ['x']),
    );
    const summary = validateSheet(deps, { operation: 'emitirNfse', sheetName: 'Notas', scope: 'all' });
    expect(summary.invalid).toBe(7);
    expect(summary.problems).toHaveLength(5);
  });

  it('a valid row whose Mensagem says something else is told it is ready, whatever its Status', () => {
    const { book, deps } = setUp();
    const sheet = book.sheet('Notas', [...NFSE_HEADER, 'Status', 'Mensagem'], [[1001, '', 'antes']]);
    validateSheet(deps, { operation: 'emitirNfse', sheetName: 'Notas', scope: 'all' });
    expect(sheet.records()[0]).toMatchObject({ Status: '', Mensagem: 'Linha válida: pronta para enviar.' });
  });
});

describe('plan subscriptions and their discounts', () => {
  /** The plan template's columns but the CPF/CNPJ one. */
  const PLAN = bulkOperation('criarAssinaturaPlano')
    .columns.filter((c) => c.in === undefined)
    .map((c) => c.label);
  const DISCOUNTS = discountColumns.map((c) => c.label);
  const plan = (key: string): CellValue[] => [key, 321, adesao, '11/2026', 12, 1, 'AGRUPADA', 10];
  const discount = (key: string): CellValue[] => [key, '', 'Fidelidade', 'VALOR', 10, '11/2026', '10/2027'];

  it('warns of discounts linked to no subscription and of rows of the sheet they belong to none', () => {
    const { book, deps } = setUp();
    book.sheet('Planos', PLAN, [plan('P-1'), plan('P-2')]);
    book.sheet('Descontos', DISCOUNTS, [discount('P-1'), discount(''), discount('P-9'), discount('')]);
    const summary = validateSheet(deps, { operation: 'criarAssinaturaPlano', sheetName: 'Planos', scope: 'all' });
    expect(summary.warnings).toEqual([
      'Aba "Descontos": as linhas 3, 5 não dizem a que assinatura pertencem (coluna "ID de integração da assinatura") e foram ignoradas.',
      'Aba "Descontos": nenhuma linha desta aba tem o ID de integração "P-9"; esses descontos não serão enviados.',
    ]);
    expect(summary.valid).toBe(2);
    // Checking some rows only says nothing of discounts the other rows may own.
    book.selected = { sheetId: book.byName('Planos')!.id, rows: [[3, 3]] };
    const some = validateSheet(deps, { operation: 'criarAssinaturaPlano', sheetName: 'Planos', scope: 'selected' });
    expect(some.warnings).toHaveLength(1);
    expect(some.valid).toBe(1);
  });

  it('sends each plan with its own discounts', () => {
    const { book, deps, service } = setUp();
    book.sheet('Planos', PLAN, [plan('P-1'), plan('P-2')]);
    book.sheet('Descontos', DISCOUNTS, [discount('P-2'), discount('P-2')]);
    const p = startBulk(deps, { operation: 'criarAssinaturaPlano', sheetName: 'Planos', connection: 'x', scope: 'all' }, FAR());
    expect(p.counts).toMatchObject({ ok: 2 });
    expect(p.warnings).toEqual([]);
    expect(service.posted.map((b) => (b.descontos as Array<{ idIntegracao: string }>).map((d) => d.idIntegracao))).toEqual([[], ['P-2-D1', 'P-2-D2']]);
  });
});
