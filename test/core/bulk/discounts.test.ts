/**
 * The Descontos sheet: each row linked to its plan subscription by that row's
 * ID de integração, found by title, numbered when it has no key of its own;
 * problems reported under the sheet's name; rows linked to nothing listed.
 */
import { describe, expect, it } from 'vitest';
import { discountColumns } from '../../../src/core/bulk/definitions';
import { loadDiscounts } from '../../../src/core/bulk/discounts';
import { LayoutError } from '../../../src/core/bulk/headers';
import type { CellValue } from '../../../src/core/sheets/table';
import { zone } from './fixtures';
import { MemoryBook, MemorySheet } from './memory-book';

const HEADER = discountColumns.map((c) => c.label);
/** assinatura, idIntegracao, descricao, tipo, valor, competência inicial, final. */
const row = (key: string, own = '', over: Partial<Record<number, CellValue>> = {}): CellValue[] => {
  const r: CellValue[] = [key, own, 'Fidelidade', 'PERCENTUAL', 10, '11/2026', '10/2027'];
  for (const [i, v] of Object.entries(over)) r[Number(i)] = v as CellValue;
  return r;
};

describe('loadDiscounts', () => {
  it('groups discounts by subscription key, numbering those without a key of their own', () => {
    const book = new MemoryBook();
    book.sheet('Descontos', HEADER, [row('P-1'), row('P-2', 'MEU-D'), ['', '', '', '', '', '', ''], row('P-1')]);
    const loaded = loadDiscounts(book, zone);
    expect(loaded.unlinked).toEqual([]);
    expect([...loaded.byKey.keys()]).toEqual(['P-1', 'P-2']);
    const body = { descricao: 'Fidelidade', tipoDesconto: 'PERCENTUAL', valorDesconto: 10, competenciaInicial: '11/2026', competenciaFinal: '10/2027' };
    expect(loaded.byKey.get('P-1')).toEqual({
      bodies: [
        { idIntegracao: 'P-1-D1', ...body },
        { idIntegracao: 'P-1-D2', ...body },
      ],
      issues: [],
    });
    expect(loaded.byKey.get('P-2')?.bodies).toEqual([{ idIntegracao: 'MEU-D', ...body }]);
  });

  it('a bad discount is a problem of its subscription, naming the Descontos sheet, row and column', () => {
    const book = new MemoryBook();
    book.sheet('Descontos', HEADER, [row('P-1'), row('P-1', '', { 4: 150, 6: '10/2025' })]);
    const { byKey } = loadDiscounts(book, zone);
    const issues = byKey.get('P-1')?.issues ?? [];
    expect(issues.map((i) => [i.row, i.column])).toEqual([
      [3, 5],
      [3, 7],
    ]);
    expect(issues[0].message).toBe('Aba "Descontos": Linha 3, coluna "Valor do desconto" (E): um desconto PERCENTUAL vai até 100.');
    expect(issues[1].message).toBe('Aba "Descontos": Linha 3, coluna "Competência final" (G): é anterior à competência inicial 11/2026.');
    expect(issues[0].sheet).toBe('Descontos');
  });

  it('rows without a subscription key are listed, not sent', () => {
    const book = new MemoryBook();
    book.sheet('Descontos', HEADER, [row(''), row('P-1'), row('  ')]);
    const loaded = loadDiscounts(book, zone);
    expect(loaded.unlinked).toEqual([2, 4]);
    expect(loaded.byKey.get('P-1')?.bodies).toHaveLength(1);
  });

  it('columns are found by title wherever they are', () => {
    const book = new MemoryBook();
    const order = [6, 5, 4, 3, 2, 1, 0];
    book.sheet(
      'Descontos',
      order.map((i) => HEADER[i]),
      [order.map((i) => row('P-7')[i])],
    );
    expect(loadDiscounts(book, zone).byKey.get('P-7')?.bodies).toEqual([
      {
        idIntegracao: 'P-7-D1',
        descricao: 'Fidelidade',
        tipoDesconto: 'PERCENTUAL',
        valorDesconto: 10,
        competenciaInicial: '11/2026',
        competenciaFinal: '10/2027',
      },
    ]);
  });

  it('no sheet, or only its header: no discounts', () => {
    const none = loadDiscounts(new MemoryBook(), zone);
    expect(none.byKey.size).toBe(0);
    expect(none.unlinked).toEqual([]);
    // As harsh as Sheets: a range of no rows is refused, so a sheet of only its header is never read below it.
    const book = new MemoryBook();
    const harsh = new (class extends MemorySheet {
      override read(row: number, column: number, numRows: number, numColumns: number) {
        if (numRows < 1 || numColumns < 1) throw new Error('The number of rows in the range must be at least 1.');
        return super.read(row, column, numRows, numColumns);
      }
    })(9, 'Descontos');
    harsh.write(1, 1, [HEADER]);
    book.sheets.push(harsh);
    expect(loadDiscounts(book, zone).byKey.size).toBe(0);
  });

  it('a Descontos sheet lacking a required column is refused, saying which', () => {
    const book = new MemoryBook();
    book.sheet('Descontos', HEADER.slice(1), [row('P-1').slice(1)]);
    expect(() => loadDiscounts(book, zone)).toThrow(LayoutError);
    expect(() => loadDiscounts(book, zone)).toThrow('Falta a coluna "ID de integração da assinatura" (assinatura) na linha 1 da aba "Descontos"');
    const twice = new MemoryBook();
    twice.sheet('Descontos', [...HEADER.slice(1), 'Descrição do desconto'], [row('P-1').slice(1)]);
    expect(() => loadDiscounts(twice, zone)).toThrow(/barra lateral\. A coluna "Descrição do desconto" aparece mais de uma vez/);
  });
});
