/**
 * One cell as getValues hands it over, read for each kind of column: the wire
 * value it becomes, or the exact Portuguese message saying what to type instead.
 */
import { describe, expect, it } from 'vitest';
import type { InputColumn } from '../../../src/core/bulk/definitions';
import { describe as describeCell, fold, readCell } from '../../../src/core/bulk/cell-readers';
import { zone } from './fixtures';

const column = (kind: InputColumn['kind'], extra: Partial<InputColumn> = {}): InputColumn => ({
  field: 'campo',
  kind,
  label: 'Campo',
  required: true,
  note: '',
  example: '',
  ...extra,
});

const COLUMNS = {
  integer: column('integer', { min: 1, max: 10 }),
  count: column('integer'),
  money: column('money', { min: 0.01 }),
  anyMoney: column('money'),
  date: column('date'),
  competencia: column('competencia'),
  choice: column('choice', { choices: ['AGRUPADA', 'POR_ITEM'] }),
  noChoices: column('choice'),
  boolean: column('boolean'),
  text: column('text', { maxLength: 5 }),
  note: column('text'),
  key: column('key', { maxLength: 60 }),
  cpfCnpj: column('cpfCnpj'),
};
type Col = keyof typeof COLUMNS;
const read = (col: Col, cell: unknown) => readCell(COLUMNS[col], cell, zone);

describe('reading a cell', () => {
  it.each([
    ['integer', 1, 1],
    ['integer', 10, 10],
    ['integer', ' 7 ', 7],
    ['count', -3, -3],
    ['count', '12', 12],
    ['money', 0.01, 0.01],
    ['money', '12.345', 12345],
    ['money', 10.5, 10.5],
    ['money', 0.1 + 0.2, 0.3],
    ['money', '1.234,56', 1234.56],
    ['money', 'R$ 10,50', 10.5],
    ['money', 'r$10,5', 10.5],
    ['money', '10.50', 10.5],
    ['money', '1.234', 1234],
    ['money', '1.234.567', 1234567],
    ['money', '12', 12],
    ['anyMoney', '-5,25', -5.25],
    ['date', new Date('2026-10-01T02:00:00Z'), '2026-09-30'],
    ['date', ' 1/10/2026 ', '2026-10-01'],
    ['date', '2026-10-01', '2026-10-01'],
    ['competencia', new Date('2026-10-01T12:00:00Z'), '10/2026'],
    ['competencia', ' 1/2026 ', '01/2026'],
    ['competencia', '2026-11', '11/2026'],
    ['choice', ' agrupáda ', 'AGRUPADA'],
    ['choice', 'por  item', 'POR_ITEM'],
    ['boolean', true, true],
    ['boolean', false, false],
    ['boolean', ' Sim ', true],
    ['boolean', 's', true],
    ['boolean', 'VERDADEIRO', true],
    ['boolean', 'x', true],
    ['boolean', 1, true],
    ['boolean', 'TRUE', true],
    ['boolean', 'não', false],
    ['boolean', 'n', false],
    ['boolean', 'Falso', false],
    ['boolean', 'false', false],
    ['boolean', 0, false],
    ['text', ' abcde ', 'abcde'],
    ['note', 12, '12'],
    ['note', 'nota #N/A', 'nota #N/A'],
    ['key', ' ab-12 ', 'ab-12'],
    ['cpfCnpj', '123.456.789-09', '12345678909'],
    ['cpfCnpj', 1234567890, '01234567890'],
  ] as const)('%s %j → %j', (col, cell, wire) => {
    expect(read(col, cell)).toEqual({ ok: true, value: wire });
  });

  it.each([null, undefined, '', '   '])('%j is blank', (cell) => {
    expect(read('integer', cell)).toEqual({ ok: true, blank: true });
  });

  it.each([
    ['integer', '1,5', 'esperava um número inteiro, veio "1,5"'],
    ['integer', '1e3', 'esperava um número inteiro, veio "1e3"'],
    ['integer', 'x12', 'esperava um número inteiro, veio "x12"'],
    ['integer', '-3', 'esperava um número inteiro, veio "-3"'],
    ['integer', 1.5, 'esperava um número inteiro, veio 1.5'],
    ['integer', true, 'esperava um número inteiro, veio VERDADEIRO'],
    ['integer', 0, 'o valor mínimo é 1, veio 0'],
    ['integer', 11, 'o valor máximo é 10, veio 11'],
    ['money', 'dez reais', 'esperava um valor em reais (por exemplo 1.234,56), veio "dez reais"'],
    ['money', '1,2,3', 'esperava um valor em reais (por exemplo 1.234,56), veio "1,2,3"'],
    ['money', '12.34.5', 'esperava um valor em reais (por exemplo 1.234,56), veio "12.34.5"'],
    ['money', 'US$ 10', 'esperava um valor em reais (por exemplo 1.234,56), veio "US$ 10"'],
    ['money', '10 R$ 5', 'esperava um valor em reais (por exemplo 1.234,56), veio "10 R$ 5"'],
    ['money', '10 5', 'esperava um valor em reais (por exemplo 1.234,56), veio "10 5"'],
    ['money', '-R$ -5', 'esperava um valor em reais (por exemplo 1.234,56), veio "-R$ -5"'],
    ['money', '-R$ 5,00', 'o valor precisa ser maior que zero, veio -5'],
    ['money', Number.POSITIVE_INFINITY, 'esperava um valor em reais (por exemplo 1.234,56), veio o número Infinity'],
    ['money', false, 'esperava um valor em reais (por exemplo 1.234,56), veio FALSO'],
    ['money', 'R$ -5,00', 'o valor precisa ser maior que zero, veio -5'],
    ['money', 0, 'o valor precisa ser maior que zero, veio 0'],
    ['money', '.5', 'esperava um valor em reais (por exemplo 1.234,56), veio ".5"'],
    ['money', '1.', 'esperava um valor em reais (por exemplo 1.234,56), veio "1."'],
    ['money', -5.5, 'o valor precisa ser maior que zero, veio -5,5'],
    ['money', '1234.567', 'use no máximo duas casas decimais, veio 1234,567'],
    ['money', 10.001, 'use no máximo duas casas decimais, veio 10,001'],
    ['money', '1.2345', 'use no máximo duas casas decimais, veio 1,2345'],
    ['date', new Date(Number.NaN), 'data inválida: digite no formato dd/mm/aaaa'],
    ['date', '31/02/2026', 'a data 31/02/2026 não existe'],
    ['date', ' ontem ', 'esperava uma data dd/mm/aaaa, veio "ontem"'],
    ['date', 45000.5, 'esperava uma data dd/mm/aaaa, veio o número 45000,5'],
    ['competencia', new Date(Number.NaN), 'competência inválida: digite MM/AAAA'],
    ['competencia', ' out/2026 ', 'esperava a competência no formato MM/AAAA (por exemplo 11/2026), veio "out/2026"'],
    ['competencia', '13/2026', 'o mês da competência vai de 01 a 12, veio "13/2026"'],
    ['competencia', '10/1800', 'ano da competência inválido em "10/1800"'],
    ['competencia', 202610, 'esperava a competência no formato MM/AAAA (por exemplo 11/2026), veio o número 202610'],
    ['choice', ' outra ', 'escolha um de AGRUPADA, POR_ITEM, veio "outra"'],
    ['choice', 5, 'escolha um de AGRUPADA, POR_ITEM, veio o número 5'],
    ['noChoices', 'x', 'escolha um de , veio "x"'],
    ['noChoices', 5, 'escolha um de , veio o número 5'],
    ['boolean', 'talvez', 'responda Sim ou Não, veio "talvez"'],
    ['boolean', 2, 'responda Sim ou Não, veio o número 2'],
    ['boolean', new Date('2026-01-01T12:00:00Z'), 'responda Sim ou Não, veio uma data'],
    ['text', ' abcdef ', 'use no máximo 5 caracteres (a célula tem 6)'],
    ['note', true, 'esperava um texto, veio VERDADEIRO'],
    ['note', {}, 'esperava um texto, veio object'],
    [
      'key',
      123,
      'a célula está como número (123), e zeros à esquerda podem ter sido perdidos: formate a coluna como Texto simples (Formatar › Número › Texto simples) e digite o valor de novo',
    ],
    ['key', 'com espaço', 'não use espaços no ID de integração'],
    ['key', 'x'.repeat(61), 'use no máximo 60 caracteres (a célula tem 61)'],
    ['cpfCnpj', 'abc', '"abc" não é um CPF/CNPJ: use só números'],
    ['cpfCnpj', '12345', '"12345" tem 5 dígitos; CPF tem 11 e CNPJ tem 14'],
  ] as const)('%s %j is refused: %s', (col, cell, message) => {
    expect(read(col, cell)).toEqual({ ok: false, message });
  });

  it.each(['#N/A', '#REF!', '#VALUE!', '#DIV/0!', '#NAME?', '#NUM!', '#NULL!', '#ERROR!', '#SPILL!', '#CALC!', ' #n/a '])(
    'a formula error %j is named, whatever the column',
    (cell) => {
      for (const col of ['text', 'money', 'date'] as const) {
        expect(read(col, cell)).toEqual({ ok: false, message: `a célula mostra o erro de fórmula ${cell.trim()}: corrija a fórmula ou digite o valor` });
      }
    },
  );

  it('quotes at most 40 characters of what a cell holds', () => {
    const long = `${'a'.repeat(40)}b`;
    expect(read('date', long)).toEqual({ ok: false, message: `esperava uma data dd/mm/aaaa, veio "${'a'.repeat(40)}…"` });
    expect(read('date', 'a'.repeat(40))).toEqual({ ok: false, message: `esperava uma data dd/mm/aaaa, veio "${'a'.repeat(40)}"` });
    expect(read('note', '#VALUE! and the rest')).toEqual({
      ok: false,
      message: 'a célula mostra o erro de fórmula #VALUE! an: corrija a fórmula ou digite o valor',
    });
  });

  it('describes any cell in words a person recognises', () => {
    expect([null, undefined, '', new Date(0), 1.5, true, false, ' x ', 7n].map(describeCell)).toEqual([
      'vazio',
      'vazio',
      'vazio',
      'uma data',
      'o número 1,5',
      'VERDADEIRO',
      'FALSO',
      '"x"',
      'bigint',
    ]);
    expect(fold(' Agrupáda ')).toBe('AGRUPADA');
  });
});
