/**
 * Random malformed rows, as getValues could hand them over (wrong types,
 * dates and competências in the wrong shapes, blanks, formula errors, huge
 * strings): reading a row never throws, a row with a bad cell always gets a
 * message naming its row and that column, and a row without problems always
 * yields a body the operation's schema accepts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { writes } from '../../../src/api/writes';
import { bulkOperations, type InputColumn } from '../../../src/core/bulk/definitions';
import { columnLetter, type Layout } from '../../../src/core/bulk/headers';
import { buildRow } from '../../../src/core/bulk/rows';
import type { CellValue } from '../../../src/core/sheets/table';
import { zone } from './fixtures';

const anyCell: fc.Arbitrary<CellValue> = fc.oneof(
  fc.constant(''),
  fc.string({ maxLength: 30 }),
  fc.string({ minLength: 61, maxLength: 3000 }),
  fc.constantFrom(
    '#N/A',
    '#REF!',
    '#VALUE!',
    '#ERROR!',
    '#DIV/0!',
    '=A1+1',
    'TRUE',
    '  ',
    '1.234,567',
    'R$ -5,00',
    '32/01/2026',
    '2026-13-01',
    '10/2026',
    '2026-10',
    '00/2026',
    '13/2026',
  ),
  fc.double({ noNaN: true }),
  fc.integer({ min: -1_000_000, max: 10_000_000_000 }),
  fc.boolean(),
  fc.date({ min: new Date('1890-01-01'), max: new Date('2200-01-01'), noInvalidDate: true }),
  fc.constant(new Date(Number.NaN)),
);

/** A cell its column must refuse. */
function badCell(col: InputColumn): fc.Arbitrary<CellValue> {
  const errors = fc.constantFrom('#N/A', '#REF!', '#ERROR!');
  const byKind: Record<InputColumn['kind'], fc.Arbitrary<CellValue>> = {
    integer: fc.oneof(
      fc.double({ min: 0.01, max: 1e6, noNaN: true }).filter((n) => !Number.isInteger(n)),
      fc.constantFrom('abc', '1,5', 'dez', '-3'),
      fc.boolean(),
      fc.date({ noInvalidDate: true }),
    ),
    money: fc.oneof(fc.constantFrom(-1, 0, 10.001, 'dez reais', '1,2,3'), fc.boolean(), fc.date({ noInvalidDate: true })),
    date: fc.oneof(
      fc.constantFrom('31/02/2026', '2026/10/01', 'ontem', '1/1/26'),
      fc.integer({ min: 1, max: 99999 }),
      fc.boolean(),
      fc.constant(new Date(Number.NaN)),
    ),
    competencia: fc.oneof(fc.constantFrom('13/2026', '00/2026', '2026/10', '10-2026', 'out/2026', '1/26'), fc.integer({ min: 1, max: 99999 }), fc.boolean()),
    choice: fc.oneof(
      fc.string({ minLength: 1, maxLength: 20 }).filter((s) => !(col.choices ?? []).includes(s.trim().toUpperCase()) && s.trim() !== ''),
      fc.integer(),
      fc.date({ noInvalidDate: true }),
    ),
    boolean: fc.oneof(fc.constantFrom('talvez', 'sim não', '2'), fc.date({ noInvalidDate: true })),
    key: fc.oneof(
      fc.integer({ min: 0, max: 1e9 }),
      fc.string({ minLength: 61, maxLength: 50_000 }).filter((s) => s.trim().length > 60),
      fc.constant('com espaço'),
    ),
    cpfCnpj: fc.oneof(fc.constantFrom('abc', '12345', '123.456.789-0X', '123456789012345'), fc.boolean(), fc.date({ noInvalidDate: true })),
    text: col.maxLength
      ? fc.string({ minLength: col.maxLength + 1, maxLength: col.maxLength + 50_000 }).filter((s) => s.trim().length > col.maxLength!)
      : fc.boolean(),
  };
  return fc.oneof(byKind[col.kind], errors);
}

const ops = Object.values(bulkOperations).filter((op) => !op.discounts);

function layoutFor(columns: readonly InputColumn[]): Layout {
  const inputs = Object.fromEntries(columns.map((c, i) => [c.field, i + 1]));
  return {
    inputs,
    results: { status: columns.length + 1, id: 0, numero: 0, chave: 0, mensagem: columns.length + 2, processadoEm: columns.length + 3 },
    lastColumn: columns.length + 3,
  };
}

describe('rows from random cells', () => {
  for (const op of Object.values(bulkOperations)) {
    it(`${op.label}: never throws; problems name the row and a column; clean rows give a valid body`, () => {
      const layout = layoutFor(op.columns);
      fc.assert(
        fc.property(
          fc.array(anyCell, { minLength: op.columns.length, maxLength: op.columns.length }),
          fc.integer({ min: 2, max: 100_000 }),
          (cells, rowNumber) => {
            const built = buildRow(op, layout, cells, rowNumber, 'Lote', zone);
            for (const issue of built.issues) {
              expect(issue.message).toMatch(new RegExp(`^Linha ${rowNumber}, coluna "[^"]+" \\([A-Z]+\\): `));
              expect(issue.message.length).toBeLessThan(600);
            }
            if (built.issues.length === 0) {
              const body = built.needsKey ? { ...built.body, idIntegracao: 'k' } : built.body;
              expect(writes[op.key].body.safeParse(body).success).toBe(true);
            }
          },
        ),
        { numRuns: 300 },
      );
    });
  }

  for (const op of ops) {
    it(`${op.label}: one bad cell in an otherwise valid row is reported on that row and that column`, () => {
      const layout = layoutFor(op.columns);
      const valid: CellValue[] = op.columns.map((c) => (c.kind === 'date' ? zone.instant({ year: 2026, month: 11, day: 1 }) : c.example));
      expect(buildRow(op, layout, valid, 2, 'Lote', zone).issues).toEqual([]);
      const cases = fc.integer({ min: 0, max: op.columns.length - 1 }).chain((i) => badCell(op.columns[i]).map((bad) => ({ i, bad })));
      fc.assert(
        fc.property(cases, fc.integer({ min: 2, max: 5000 }), ({ i, bad }, rowNumber) => {
          const row = valid.slice();
          row[i] = bad;
          const built = buildRow(op, layout, row, rowNumber, 'Lote', zone);
          const col = op.columns[i];
          expect(built.issues.some((x) => x.message.startsWith(`Linha ${rowNumber}, coluna "${col.label}" (${columnLetter(i + 1)}): `))).toBe(true);
        }),
        { numRuns: 300 },
      );
    });
  }

  it('a due day of 29 to 31 is stopped by validation, as the service refuses it; 28 passes', () => {
    const op = bulkOperations.criarAssinaturaPersonalizada;
    const layout = layoutFor(op.columns);
    const i = op.columns.findIndex((c) => c.field === 'diaVencimentoCobranca');
    const valid: CellValue[] = op.columns.map((c) => (c.kind === 'date' ? zone.instant({ year: 2026, month: 11, day: 1 }) : c.example));
    for (const day of [29, 30, 31]) {
      const row = valid.slice();
      row[i] = day;
      expect(buildRow(op, layout, row, 7, 'Lote', zone).issues.map((x) => x.message)).toEqual([
        expect.stringMatching(/^Linha 7, coluna "Dia de vencimento".*28/),
      ]);
    }
    const ok = valid.slice();
    ok[i] = 28;
    expect(buildRow(op, layout, ok, 7, 'Lote', zone).issues).toEqual([]);
  });
});

/** Every listed bad input of each kind, each tried: a random sample could skip one. */
const BAD_BY_KIND: Record<InputColumn['kind'], CellValue[]> = {
  integer: [1.5, 'abc', '1,5', 'dez', '-3', true, new Date(2026, 0, 1), '#N/A'],
  money: [-1, 0, 10.001, 'dez reais', '1,2,3', '1.234,567', true, new Date(2026, 0, 1), '#REF!'],
  date: ['31/02/2026', '2026/10/01', 'ontem', '1/1/26', '2026-13-01', '32/01/2026', 45000, true, new Date(Number.NaN), '#ERROR!'],
  competencia: ['13/2026', '00/2026', '2026/10', '10-2026', 'out/2026', '1/26', '0/2026', '10/1899', 202610, true, new Date(Number.NaN)],
  choice: ['MISTA', 'agrupadaa', 42, new Date(2026, 0, 1), '#N/A'],
  boolean: ['talvez', 'sim não', '2', new Date(2026, 0, 1)],
  key: [123, 'com espaço', 'x'.repeat(61)],
  cpfCnpj: ['abc', '12345', '123.456.789-0X', 123456789012345, true, new Date(2026, 0, 1), '#N/A'],
  text: ['y'.repeat(50_001), true, new Date(2026, 0, 1)],
};

/** Typed by people into text cells and accepted as what they mean. */
const GOOD_BY_KIND: Partial<Record<InputColumn['kind'], Array<[CellValue, unknown]>>> = {
  money: [
    ['1.234,56', 1234.56],
    ['R$ 10,50', 10.5],
    ['10.50', 10.5],
    ['1.000', 1000],
    [350, 350],
  ],
  integer: [
    [' 12 ', 12],
    [7, 7],
  ],
  competencia: [
    ['1/2026', '01/2026'],
    ['2026-3', '03/2026'],
    [' 11/2026 ', '11/2026'],
  ],
  date: [
    ['1/2/2026', '2026-02-01'],
    ['2026-02-28', '2026-02-28'],
  ],
  choice: [['agrupáda ', 'AGRUPADA']],
  cpfCnpj: [
    ['12.345.678/0001-90', '12345678000190'],
    [' 123.456.789-01 ', '12345678901'],
    // A number cell lost the leading zeros.
    [1234567890, '01234567890'],
    [2345678000190, '02345678000190'],
  ],
  boolean: [
    ['sim', true],
    ['Não', false],
    ['x', true],
  ],
};

describe('every listed bad input class, one by one', () => {
  for (const op of ops) {
    const layout = layoutFor(op.columns);
    const valid: CellValue[] = op.columns.map((c) => (c.kind === 'date' ? zone.instant({ year: 2026, month: 11, day: 1 }) : c.example));
    it(`${op.label}: each bad cell is refused on its column; each good spelling gives the wire value`, () => {
      op.columns.forEach((col, i) => {
        const bad = BAD_BY_KIND[col.kind].filter((cell) => !(col.kind === 'text' && col.maxLength === undefined && typeof cell === 'string'));
        for (const cell of bad) {
          const row = valid.slice();
          row[i] = cell;
          const issues = buildRow(op, layout, row, 7, 'Lote', zone).issues;
          expect(
            issues.some((x) => x.message.startsWith(`Linha 7, coluna "${col.label}" (${columnLetter(i + 1)}): `)),
            `${col.field} = ${String(cell).slice(0, 20)}`,
          ).toBe(true);
        }
        for (const [cell, wire] of GOOD_BY_KIND[col.kind] ?? []) {
          if (col.kind === 'choice' && !(col.choices ?? []).includes(String(wire))) continue;
          if (col.kind === 'money' && col.min !== undefined && (wire as number) < col.min) continue;
          const row = valid.slice();
          row[i] = cell;
          const built = buildRow(op, layout, row, 7, 'Lote', zone);
          expect(built.issues, `${col.field} = ${String(cell)}`).toEqual([]);
          const value = col.in === 'path' ? built.pathId : col.in === 'sheet' ? built.find?.value : built.body[col.field];
          if (!(col.sentWhen && row[op.columns.findIndex((c) => c.field === col.sentWhen)] === 'Não'))
            expect(value, `${col.field} = ${String(cell)}`).toEqual(wire);
        }
      });
    });
  }
});
