/**
 * Writing what a run learnt beside the rows in blocks (one write per run of
 * consecutive rows and adjacent result columns), colouring the cells at fault
 * and only those, and the ranges "ir para as linhas com erro" selects.
 */
import { describe, expect, it } from 'vitest';
import { bulkOperation } from '../../../src/core/bulk/definitions';
import type { Layout } from '../../../src/core/bulk/headers';
import {
  expandRuns,
  FAULT_COLOR,
  highlight,
  refusalIssues,
  type RowResult,
  rowRangesA1,
  runsOf,
  writeColumn,
  writeResults,
} from '../../../src/core/bulk/sheet-io';
import { MemorySheet } from './memory-book';

const nfse = bulkOperation('emitirNfse');
const stamp = new Date(Date.UTC(2026, 10, 22, 12));

describe('runs of rows', () => {
  it('consecutive numbers become one run, in order, repeats once', () => {
    expect(runsOf([7, 3, 4, 5, 9, 4, 10])).toEqual([
      [3, 5],
      [7, 7],
      [9, 10],
    ]);
    expect(runsOf([])).toEqual([]);
    expect(
      expandRuns([
        [3, 5],
        [9, 9],
      ]),
    ).toEqual([3, 4, 5, 9]);
  });

  it('whole rows of the used width as A1 ranges', () => {
    expect(rowRangesA1([2, 3, 7], 28)).toEqual(['A2:AB3', 'A7:AB7']);
    expect(rowRangesA1([4], 0)).toEqual(['A4:A4']);
  });
});

describe('writeResults', () => {
  /** ID da fatura in A, a user's column in B, then the results with a gap: Status C, ID D, Número E, chave F, Mensagem H, Processado I. */
  const layout: Layout = { inputs: { idFatura: 1 }, results: { status: 3, id: 4, numero: 5, chave: 6, mensagem: 8, processadoEm: 9 }, lastColumn: 9 };
  const ok = (id: number): RowResult => ({ status: 'OK', mensagem: 'Emitida.', id, numero: '0012', chave: 1001, processadoEm: stamp, refused: false });

  it('one write per run of rows and per block of adjacent result columns; absent values are blank', () => {
    const sheet = new MemorySheet(1, 'Notas');
    sheet.write(1, 1, [['ID da fatura', 'Minha coluna']]);
    sheet.write(2, 7, [['meu'], ['meu'], ['meu'], ['meu'], ['meu']]);
    const before = sheet.writes;
    writeResults(
      sheet,
      layout,
      nfse,
      new Map([
        [2, ok(500)],
        [3, { status: 'ERRO', mensagem: 'Recusada.' }],
        [5, ok(502)],
      ]),
    );
    // Rows 2–3 and row 5; columns C–F and H–I.
    expect(sheet.writes - before).toBe(4);
    expect(sheet.read(2, 3, 4, 7)).toEqual([
      ['OK', 500, '0012', 1001, 'meu', 'Emitida.', stamp],
      ['ERRO', '', '', '', 'meu', 'Recusada.', ''],
      ['', '', '', '', 'meu', '', ''],
      ['OK', 502, '0012', 1001, 'meu', 'Emitida.', stamp],
    ]);
    // Blank cells are written blank, never left undefined.
    expect(sheet.grid[2].slice(2, 6)).toEqual(['ERRO', '', '', '']);
  });

  it('each value goes under its own column, whatever order the user put the result columns in', () => {
    const sheet = new MemorySheet(1, 'Notas');
    const moved: Layout = { inputs: { idFatura: 1 }, results: { mensagem: 2, processadoEm: 3, status: 4, chave: 5, numero: 6, id: 7 }, lastColumn: 7 };
    writeResults(sheet, moved, nfse, new Map([[2, ok(500)]]));
    expect(sheet.writes).toBe(1);
    expect(sheet.read(2, 2, 1, 6)[0]).toEqual(['Emitida.', stamp, 'OK', 1001, '0012', 500]);
  });

  it('writes nothing when there is nothing to write', () => {
    const sheet = new MemorySheet(1, 'Notas');
    writeResults(sheet, layout, nfse, new Map());
    expect(sheet.writes).toBe(0);
  });

  it("a service's huge message is cut well below the cell limit, saying how long it was", () => {
    const sheet = new MemorySheet(1, 'Notas');
    writeResults(sheet, layout, nfse, new Map([[2, { status: 'ERRO', mensagem: 'x'.repeat(60_000) }]]));
    const cell = String(sheet.read(2, 8, 1, 1)[0][0]);
    expect(cell.length).toBe(5_000);
    expect(cell.endsWith('… (mensagem do serviço cortada: tinha 60.000 caracteres)')).toBe(true);
    const exact = new MemorySheet(2, 'Notas');
    writeResults(exact, layout, nfse, new Map([[2, { status: 'ERRO', mensagem: 'y'.repeat(5_000) }]]));
    expect(exact.read(2, 8, 1, 1)[0][0]).toBe('y'.repeat(5_000));
  });
});

describe('writeColumn', () => {
  it('generated keys go into their cells, one write per run of rows', () => {
    const sheet = new MemorySheet(1, 'Lote');
    writeColumn(
      sheet,
      2,
      new Map([
        [2, 'k-1'],
        [3, 'k-2'],
        [6, 'k-3'],
      ]),
    );
    expect(sheet.writes).toBe(2);
    expect(sheet.read(2, 2, 5, 1).flat()).toEqual(['k-1', 'k-2', '', '', 'k-3']);
  });
});

describe('highlight', () => {
  /** Inputs in B, C and E; D is the user's. */
  const layout: Layout = { inputs: { a: 2, b: 3, c: 5 }, results: {} as Layout['results'], lastColumn: 6 };
  const issue = (row: number, column: number | undefined, sheet = 'Lote') => ({ sheet, row, column, message: 'x' });

  it('colours the input cells at fault in the rows checked, and clears our colour from cells now fixed', () => {
    const sheet = new MemorySheet(1, 'Lote');
    sheet.backgrounds[2] = [null, '#ffffff', FAULT_COLOR.toUpperCase(), FAULT_COLOR, '#ffffff'];
    sheet.backgrounds[3] = [null, FAULT_COLOR, '#ffffff', FAULT_COLOR, '#ffffff'];
    highlight(sheet, layout, 2, 4, new Set([2, 3]), [issue(2, 5), issue(3, 2), issue(3, undefined), issue(2, 3, 'Descontos'), issue(2, 4)]);
    expect(sheet.backgrounds[1].slice(1)).toEqual(['#ffffff', '#ffffff', '#ffffff', FAULT_COLOR]);
    expect(sheet.backgrounds[1][3]).toBe('#ffffff');
    // C3 was ours and is fixed: cleared; D is the user's column: its colour is never touched.
    expect(sheet.backgrounds[2].slice(1)).toEqual([FAULT_COLOR, null, FAULT_COLOR, '#ffffff']);
    // Row 4 was not checked: its colour stays whatever it is.
    expect(sheet.backgrounds[3].slice(1)).toEqual([FAULT_COLOR, '#ffffff', FAULT_COLOR, '#ffffff']);
  });

  it('reads once and writes nothing when every colour is already right', () => {
    const sheet = new MemorySheet(1, 'Lote');
    sheet.backgrounds[1] = ['#ffffff', FAULT_COLOR, '#ffffff', '#ffffff', '#ffffff'];
    const calls = sheet.calls;
    highlight(sheet, layout, 2, 2, new Set([2]), [issue(2, 2)]);
    expect(sheet.calls - calls).toBe(1);
    highlight(sheet, layout, 3, 2, new Set([2]), [issue(2, 2)]);
    highlight(sheet, { ...layout, inputs: {} }, 2, 2, new Set([2]), [issue(2, 2)]);
    expect(sheet.calls - calls).toBe(1);
  });

  it('colours the span between the first and last input column only', () => {
    const sheet = new MemorySheet(1, 'Lote');
    let span: number[] = [];
    sheet.readBackgrounds = (row, column, rows, columns) => {
      span = [row, column, rows, columns];
      return Array.from({ length: rows }, () => Array.from({ length: columns }, () => '#ffffff'));
    };
    highlight(sheet, layout, 4, 6, new Set([4, 6]), [issue(6, 3)]);
    expect(span).toEqual([4, 2, 3, 4]);
    expect(sheet.backgrounds[5]).toEqual([undefined, '#ffffff', FAULT_COLOR, '#ffffff', '#ffffff']);
  });
});

describe('refusalIssues', () => {
  const update = bulkOperation('atualizarAssinaturaPersonalizada');
  const layout: Layout = { inputs: { idAssinaturaContrato: 1, valor: 2, descricaoAssinaturaContrato: 3 }, results: {} as Layout['results'], lastColumn: 3 };

  it('points at the columns whose field or title the message names', () => {
    expect(refusalIssues('Lote', layout, update, 4, 'Campo VALOR inválido').map((i) => i.column)).toEqual([2]);
    expect(refusalIssues('Lote', layout, update, 4, 'descricaoAssinaturaContrato: longa demais').map((i) => i.column)).toEqual([3]);
    expect(refusalIssues('Lote', layout, update, 4, 'a descrição está vazia')).toEqual([
      { sheet: 'Lote', row: 4, column: 3, message: 'a descrição está vazia' },
    ]);
  });

  it("points at the whole row's inputs when it names none, and only at columns the sheet has", () => {
    expect(refusalIssues('Lote', layout, update, 4, 'recusado').map((i) => i.column)).toEqual([1, 2, 3]);
    // Discriminação is named but has no column here.
    expect(refusalIssues('Lote', layout, update, 4, 'discriminacaoNfse inválida').map((i) => i.column)).toEqual([1, 2, 3]);
  });
});
