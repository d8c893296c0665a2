/**
 * What a record's values become in the sheet: the cell each kind of column
 * holds, the number format written before it, texts over Google's cell limit
 * cut and told, dotted (nested-object) columns, and fitted column widths.
 */
import { describe, expect, it } from 'vitest';
import { intlZone } from '../../../src/api/calendar';
import { listings } from '../../../src/api/operations';
import { CELL_TEXT_MAX } from '../../../src/core/bounds';
import {
  CellConverter,
  COLUMN_WIDTH,
  type ChildTable,
  type Column,
  childRows,
  discoverColumns,
  fittedWidths,
  kindOf,
  labelOf,
  NUMBER_FORMATS,
  recordRow,
  SCALAR_ITEM,
  tableSpec,
  valueAt,
} from '../../../src/core/sheets/table';

const conv = () => new CellConverter(intlZone('America/Sao_Paulo'));

describe('cells of each kind', () => {
  it('each kind gets the number format that shows it right (text kinds as @, so CPFs keep their zeros)', () => {
    expect(NUMBER_FORMATS).toEqual({
      text: '@',
      json: '@',
      boolean: '@',
      integer: '0',
      number: '0.########',
      percent: '0.00',
      money: '#,##0.00',
      date: 'dd/MM/yyyy',
      datetime: 'dd/MM/yyyy HH:mm',
      month: 'MM/yyyy',
    });
  });

  it('a competência as a month: the date of its first day in the zone, so it sorts by time; any other text stays text', () => {
    const zone = intlZone('America/Sao_Paulo');
    expect(conv().cell('month', '12/2025')).toEqual(zone.instant({ year: 2025, month: 12, day: 1 }));
    expect(conv().cell('month', '01/2026')).toEqual(zone.instant({ year: 2026, month: 1, day: 1 }));
    expect(conv().cell('month', '13/2026')).toBe('13/2026');
    expect(conv().cell('month', ' 01/2026')).toBe(' 01/2026');
    expect(conv().cell('month', null)).toBe('');
  });

  it.each([
    ['integer', 7, 7],
    ['integer', '7', '7'],
    ['number', 1.5, 1.5],
    ['money', 10.25, 10.25],
    ['percent', '3,5', '3,5'],
    ['percent', 0.25, 0.25],
    ['number', true, 'true'],
    ['boolean', true, 'Sim'],
    ['boolean', false, 'Não'],
    ['boolean', 'talvez', 'talvez'],
    ['json', 'texto', 'texto'],
    ['json', 5, '5'],
    ['json', false, 'false'],
    ['text', 5, '5'],
    ['text', 'abc', 'abc'],
    ['text', true, 'true'],
    ['date', '2026-02-30', '2026-02-30'],
    ['date', '01/10/2026', '01/10/2026'],
    ['datetime', '2026-10-01', '2026-10-01'],
    ['money', undefined, ''],
    ['text', null, ''],
  ] as const)('%s %j → %j', (kind, value, cell) => {
    expect(conv().cell(kind, value)).toEqual(cell);
  });

  it('lists and objects read as words in any column, never JSON', () => {
    const c = conv();
    expect(c.cell('text', [1, 'a', null, undefined, [2, 3], { x: 1 }])).toBe('1, a, , , 2, 3, x: 1');
    expect(c.cell('money', { a: 1, b: null, c: { d: 'e' }, f: [1, 2] })).toBe('a: 1; b: ; c: d: e; f: 1, 2');
    expect(c.cell('json', { a: undefined })).toBe('a: ');
    expect(c.cell('integer', [])).toBe('');
  });

  it('a date text converts once per run, and every cell gets its own Date', () => {
    let calls = 0;
    const zone = intlZone('America/Sao_Paulo');
    const counting = {
      ...zone,
      instant: (w: Parameters<typeof zone.instant>[0]) => {
        calls++;
        return zone.instant(w);
      },
    };
    const c = new CellConverter(counting);
    const a = c.cell('date', '2026-10-01') as Date;
    const b = c.cell('date', '2026-10-01') as Date;
    expect(calls).toBe(1);
    expect(a).not.toBe(b);
    expect(b.toISOString()).toBe('2026-10-01T03:00:00.000Z');
    expect(c.cell('date', '2026-02-30')).toBe('2026-02-30');
    expect(c.cell('date', '2026-02-30')).toBe('2026-02-30');
    expect(calls).toBe(1);
    expect((c.cell('datetime', '2026-10-01T08:30:00') as Date).toISOString()).toBe('2026-10-01T11:30:00.000Z');
  });
});

describe('rows of records', () => {
  it('reads dotted columns from nested objects, and nothing from a missing or non-object parent', () => {
    const record = { a: { b: { c: 3 } }, s: 'texto', n: null, plain: 1 };
    expect(valueAt(record, 'a.b.c')).toBe(3);
    expect(valueAt(record, 'a.b')).toEqual({ c: 3 });
    expect(valueAt(record, 'plain')).toBe(1);
    expect(valueAt(record, 's.length')).toBeUndefined();
    expect(valueAt(record, 'n.x')).toBeUndefined();
    expect(valueAt(record, 'x.y.z')).toBeUndefined();
  });

  it('a customer row: nested card fields by dotted column, in the header order', () => {
    const spec = tableSpec(listings.clientes);
    expect(tableSpec(listings.clientes)).toBe(spec);
    const keys = spec.columns.map((c) => c.key);
    expect(keys.filter((k) => k.startsWith('cartaoCredito.'))).toEqual([
      'cartaoCredito.numeroCartao',
      'cartaoCredito.cvvCartao',
      'cartaoCredito.vencimentoCartao',
      'cartaoCredito.nomeImpressoCartao',
      'cartaoCredito.cpfPortadorCartao',
    ]);
    expect(spec.columns.find((c) => c.key === 'idCliente')?.label).toBe('ID do cliente');
    // Lists the spec leaves open start with the parent id alone: the rest comes from the data.
    expect(spec.children.map((c) => c.columns.length)).toEqual([1, 1]);
    const card = spec.columns.find((c) => c.key === 'cartaoCredito.nomeImpressoCartao')!;
    expect(card.label).toBe('Cartão (nome impresso)');
    const row = recordRow(spec.columns, { idCliente: 5, cartaoCredito: { nomeImpressoCartao: 'ANA S', numeroCartao: '0123' } }, conv());
    expect(row[keys.indexOf('cartaoCredito.nomeImpressoCartao')]).toBe('ANA S');
    expect(row[keys.indexOf('cartaoCredito.numeroCartao')]).toBe('0123');
    expect(row[keys.indexOf('idCliente')]).toBe(5);
    expect(row[keys.indexOf('email')]).toBe('');
    // Child tables start with the parent's id, labelled as in the parent.
    const idLabel = spec.columns.find((c) => c.key === 'idCliente')!.label;
    expect(spec.children.map((c) => [c.parentKey, c.columns[0]])).toEqual([
      ['idCliente', { key: 'idCliente', label: idLabel, cell: 'integer' }],
      ['idCliente', { key: 'idCliente', label: idLabel, cell: 'integer' }],
    ]);
  });

  it('a text over the cell limit is cut and the cut names the record and the field', () => {
    const columns: Column[] = [
      { key: 'id', label: 'ID', cell: 'integer' },
      { key: 'obs', label: 'Obs', cell: 'text' },
    ];
    const c = conv();
    const exact = 'x'.repeat(CELL_TEXT_MAX);
    expect(recordRow(columns, { id: 1, obs: exact }, c)).toEqual([1, exact]);
    expect(c.cuts).toEqual([]);
    const row = recordRow(columns, { id: 2, obs: `${exact}y` }, c);
    expect((row[1] as string).length).toBe(CELL_TEXT_MAX);
    expect((row[1] as string).endsWith('…')).toBe(true);
    expect(c.cuts).toEqual([
      'O campo "obs" do registro ID 2 tinha 50.001 caracteres: a célula mostra os primeiros 49.999 (limite do Google Planilhas), seguidos de "…".',
    ]);
    expect(c.fit(7, () => 'nunca')).toBe(7);
    expect(c.fit(exact, () => 'nunca')).toBe(exact);
    expect(c.cuts).toHaveLength(1);
  });

  it('child rows: one per item, the parent id first, plain values in their column, cuts named by the parent', () => {
    const child: ChildTable = { field: 'tags', label: 'Tags', parentKey: 'id', open: true, columns: [] };
    const columns: Column[] = [
      { key: 'id', label: 'ID', cell: 'integer' },
      { key: 'nome', label: 'Nome', cell: 'text' },
      { key: SCALAR_ITEM, label: 'Tags', cell: 'text' },
    ];
    const c = conv();
    const long = 'z'.repeat(CELL_TEXT_MAX + 1);
    const rows = childRows(child, [{ id: 1, tags: [{ nome: 'a' }, 'b', long] }, { id: 2, tags: 'não é lista' }, { id: 3 }], c, columns);
    expect(rows.map((r) => r.map((v) => (typeof v === 'string' ? v.slice(0, 3) : v)))).toEqual([
      [1, 'a', ''],
      [1, '', 'b'],
      [1, '', 'zzz'],
    ]);
    expect(c.cuts).toEqual([
      'O campo "tags" do registro 1 tinha 50.001 caracteres: a célula mostra os primeiros 49.999 (limite do Google Planilhas), seguidos de "…".',
    ]);
  });
});

describe('columns the spec leaves open', () => {
  it.each([
    ['idTag', 3, 'integer'],
    ['id', 3, 'integer'],
    ['id_tag', 3, 'integer'],
    ['numeroItem', 3, 'integer'],
    ['codigoServico', 3, 'integer'],
    ['identidade', 3, 'number'],
    ['idTag', 3.5, 'number'],
    ['quantidade', 3, 'number'],
    ['grupo.idGrupo', 3, 'integer'],
    ['grupo.valorTotal', 3, 'money'],
    ['precoUnitario', 3, 'money'],
    ['preçoUnitario', 3, 'money'],
    ['Total', 3, 'money'],
    ['descontoMaximo', 3, 'money'],
    ['multa', 3, 'money'],
    ['juros', 3, 'money'],
    ['saldo', 3, 'money'],
    ['tarifa', 3, 'money'],
    ['descricao', '', null],
    ['descricao', undefined, null],
    ['data', '2026-02-30', 'text'],
    ['data', ' 2026-02-01', 'text'],
    ['dataHora', '2026-02-30T10:00', 'text'],
    ['cores', ['a'], 'text'],
  ] as const)('%s with %j is %s', (key, value, kind) => {
    expect(kindOf(key, value)).toBe(kind);
  });

  it('labels a key it does not know in words', () => {
    expect(labelOf('valorTotal')).toBe('Valor total');
    expect(labelOf('endereco.cidadeNome')).toBe('Endereco · cidade nome');
    expect(labelOf('item2Valor')).toBe('Item2 valor');
    expect(labelOf('x')).toBe('X');
  });

  it('follows nested objects four levels down; deeper ones are one column of words', () => {
    const child: ChildTable = { field: 'itens', label: 'Itens', parentKey: 'id', open: true, columns: [{ key: 'id', label: 'ID', cell: 'integer' }] };
    const deep = { a: { b: { c: { d: { e: { f: 1 } } } } } };
    const { columns } = discoverColumns(child, [{ id: 1, itens: [deep, 'avulso'] }], child.columns);
    expect(columns.map((c) => c.key)).toEqual(['id', 'a.b.c.d.e', SCALAR_ITEM]);
    expect(columns[2]).toEqual({ key: SCALAR_ITEM, label: 'Itens', cell: 'text' });
    expect(childRows(child, [{ id: 1, itens: [deep] }], conv(), columns)).toEqual([[1, 'f: 1', '']]);
    // A column that already has its kind keeps it, whatever a value looks like.
    const typedText = discoverColumns(
      child,
      [{ id: 1, itens: [{ obs: '2026-10-01' }] }],
      [...child.columns, { key: 'obs', label: 'Obs', cell: 'text' }],
    ).columns;
    expect(typedText[1]).toEqual({ key: 'obs', label: 'Obs', cell: 'text' });
    // A column that has seen only blanks stays untyped text until a value comes.
    const blank = discoverColumns(child, [{ id: 1, itens: [{ obs: null }] }], child.columns).columns;
    expect(blank[1]).toEqual({ key: 'obs', label: 'Obs', cell: 'text', typed: false });
  });
});

describe('column widths', () => {
  const col = (label: string, cell: Column['cell']): Column => ({ key: 'k', label, cell });

  it('fits the header and the values, about 7 px a character plus padding, within the bounds', () => {
    expect(COLUMN_WIDTH).toEqual({ min: 60, max: 320 });
    // 20 characters of header, 10 % wider for bold: 22 characters.
    expect(fittedWidths([col('x'.repeat(20), 'text')], [])).toEqual([22 * 7 + 16]);
    expect(fittedWidths([col('ab', 'text')], [['x'.repeat(30)]])).toEqual([30 * 7 + 16]);
    expect(fittedWidths([col('ab', 'text')], [['x']])).toEqual([60]);
    expect(fittedWidths([col('ab', 'text')], [['x'.repeat(500)]])).toEqual([320]);
  });

  it('measures numbers, money and dates as the sheet shows them', () => {
    const d = new Date('2026-10-01T03:00:00Z');
    // "1,234.50" shown with its grouping: 7 digits + point + separator + a little.
    expect(fittedWidths([col('', 'money')], [[1234.5]])).toEqual([(7 + 1 + 1) * 7 + 16]);
    expect(fittedWidths([col('', 'money')], [[-999.5]])).toEqual([(7 + 1) * 7 + 16]);
    expect(fittedWidths([col('', 'money')], [[-1000]])).toEqual([(8 + 1 + 1) * 7 + 16]);
    expect(fittedWidths([col('', 'number')], [[123456789.25]])).toEqual([12 * 7 + 16]);
    expect(fittedWidths([col('', 'date'), col('', 'datetime')], [[d, d]])).toEqual([10 * 7 + 16, 16 * 7 + 16]);
    // A money column holding a text (a value the service sent as text) is measured as text.
    expect(fittedWidths([col('', 'money')], [['n/d']])).toEqual([60]);
  });

  it('looks at a sample of rows, not all of them', () => {
    const rows = [['a'], ['a'], ['x'.repeat(40)]];
    expect(fittedWidths([col('', 'text')], rows, 2)).toEqual([60]);
    expect(fittedWidths([col('', 'text')], rows, 3)).toEqual([40 * 7 + 16]);
  });
});
