/**
 * Child tables for the nested lists whose shape the spec leaves open (Faturas ·
 * Itens, Clientes · Telefones/Tags): columns are the union of the keys the data
 * holds, in first-seen order, typed from the values, nested objects by dotted
 * path, never JSON text.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { intlZone } from '../../../src/api/calendar';
import { listings } from '../../../src/api/operations';
import {
  CellConverter,
  childRows,
  type Column,
  discoverColumns,
  kindOf,
  labelOf,
  OPEN_COLUMNS_MAX,
  SCALAR_ITEM,
  tableSpec,
} from '../../../src/core/sheets/table';

const conv = () => new CellConverter(intlZone('America/Sao_Paulo'));
const itens = tableSpec(listings.faturas).children.find((c) => c.field === 'itens')!;
const tags = tableSpec(listings.clientes).children.find((c) => c.field === 'tags')!;

describe('open child tables', () => {
  it('invoice items become a summable table: money with two decimals, integers, text', () => {
    const records = [
      { idFatura: 7, itens: [{ idItemFatura: 1, descricaoProduto: 'Consultoria', quantidade: 2, valorUnitario: 10.5, valorTotal: 21 }] },
      { idFatura: 8, itens: null },
      { idFatura: 9, itens: [{ idItemFatura: 2, descricaoProduto: 'Suporte', quantidade: 1, valorUnitario: 99.9, valorTotal: 99.9 }] },
    ];
    const { columns } = discoverColumns(itens, records, itens.columns);
    expect(columns.map((c) => [c.key, c.cell])).toEqual([
      ['idFatura', 'integer'],
      ['idItemFatura', 'integer'],
      ['descricaoProduto', 'text'],
      ['quantidade', 'number'],
      ['valorUnitario', 'money'],
      ['valorTotal', 'money'],
    ]);
    expect(columns.map((c) => c.label)).toEqual(
      ['ID da fatura', 'ID do item da fatura', 'Descrição do produto', 'Quantidade', 'Valor unitário', 'Valor total'].map((l, i) =>
        i === 0 ? columns[0].label : l,
      ),
    );
    const rows = childRows(itens, records, conv(), columns);
    expect(rows).toEqual([
      [7, 1, 'Consultoria', 2, 10.5, 21],
      [9, 2, 'Suporte', 1, 99.9, 99.9],
    ]);
  });

  it('keeps known columns in their order and adds keys seen later at the end', () => {
    const first = discoverColumns(tags, [{ idCliente: 1, tags: [{ idTag: 3, descricao: 'VIP' }] }], tags.columns).columns;
    const later = discoverColumns(tags, [{ idCliente: 2, tags: [{ cor: 'azul', descricao: 'MEI', idTag: 4 }] }], first).columns;
    expect(later.map((c) => c.key)).toEqual(['idCliente', 'idTag', 'descricao', 'cor']);
    // A column from an earlier sheet's header takes its kind from the first value.
    const fromHeader: Column[] = [tags.columns[0], { key: 'criadoEm', label: 'Criado em', cell: 'text', typed: false }];
    const typed = discoverColumns(tags, [{ idCliente: 1, tags: [{ criadoEm: '2026-10-01' }] }], fromHeader).columns;
    expect(typed[1]).toEqual({ key: 'criadoEm', label: 'Criado em', cell: 'date' });
  });

  it('nested objects by dotted path, lists inside an item as words, plain values in one column', () => {
    const records = [{ idCliente: 1, tags: [{ idTag: 1, grupo: { nome: 'Fiscal', ativo: true }, cores: ['azul', 'verde'] }, 'avulsa'] }];
    const { columns } = discoverColumns(tags, records, tags.columns);
    expect(columns.map((c) => [c.key, c.cell])).toEqual([
      ['idCliente', 'integer'],
      ['idTag', 'integer'],
      ['grupo.nome', 'text'],
      ['grupo.ativo', 'boolean'],
      ['cores', 'text'],
      [SCALAR_ITEM, 'text'],
    ]);
    expect(labelOf('grupo.nome')).toBe('Grupo · nome');
    expect(childRows(tags, records, conv(), columns)).toEqual([
      [1, 1, 'Fiscal', 'Sim', 'azul, verde', ''],
      [1, '', '', '', '', 'avulsa'],
    ]);
  });

  it('types dates, date-times and booleans from the values', () => {
    expect(kindOf('data', '2026-10-01')).toBe('date');
    expect(kindOf('dataHora', '2026-10-01T10:00:00')).toBe('datetime');
    expect(kindOf('isPrincipal', false)).toBe('boolean');
    expect(kindOf('numero', '11999990000')).toBe('text');
    expect(kindOf('valorDesconto', 3)).toBe('money');
    // A list of plain numbers (codes, quantities) lands in the column we name `$valor`: a number, not money.
    expect(kindOf(SCALAR_ITEM, 3)).toBe('number');
    expect(kindOf(SCALAR_ITEM, 3.5)).toBe('number');
    expect(kindOf('x', null)).toBeNull();
  });

  it('stops at the column bound and says how many keys it left out', () => {
    const item = Object.fromEntries(Array.from({ length: OPEN_COLUMNS_MAX + 5 }, (_, i) => [`k${i}`, i]));
    const d = discoverColumns(tags, [{ idCliente: 1, tags: [item] }], tags.columns);
    expect(d.columns).toHaveLength(OPEN_COLUMNS_MAX);
    expect(d.dropped).toBe(6);
  });

  it('any nested shape: never JSON text in a cell, every value typed or text, rows as wide as the header, stable order', () => {
    const leaf = fc.oneof(
      fc.integer(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.boolean(),
      fc.constant(null),
      fc.string().filter((x) => !/[[{]/.test(x)),
      fc.constantFrom('2026-01-31', '2026-02-01T08:30:00'),
    );
    const { value: shape } = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        leaf,
        fc.array(tie('value'), { maxLength: 3 }),
        fc.dictionary(fc.constantFrom('a', 'b', 'valor', 'data', 'is'), tie('value'), { maxKeys: 4 }),
      ),
    }));
    const record = fc.record({ idCliente: fc.integer({ min: 1 }), tags: fc.oneof(fc.constant(null), fc.array(shape, { maxLength: 4 })) });
    fc.assert(
      fc.property(fc.array(record, { maxLength: 5 }), (records) => {
        const { columns } = discoverColumns(tags, records, tags.columns);
        const again = discoverColumns(tags, records, columns).columns;
        expect(again.map((c) => c.key)).toEqual(columns.map((c) => c.key));
        expect(new Set(columns.map((c) => c.key)).size).toBe(columns.length);
        for (const row of childRows(tags, records, conv(), columns)) {
          expect(row).toHaveLength(columns.length);
          for (const v of row) {
            expect(['string', 'number', 'boolean'].includes(typeof v) || v instanceof Date).toBe(true);
            if (typeof v === 'string') expect(v).not.toMatch(/[[{]|\[object/);
          }
        }
      }),
      { seed: 13, numRuns: 300 },
    );
  });
});
