/**
 * "Filtros na planilha", case by case: values compared as a person means them
 * (numbers, dates typed the Brazilian way, competências, yes/no, any case),
 * ranges open on either side, what the form refuses and how it says it, and
 * each filter in words for the report's card.
 */
import { describe, expect, it } from 'vitest';
import { intlZone } from '../../../src/api/calendar';
import { listings } from '../../../src/api/operations';
import {
  checkSheetFilters,
  describeSheetFilter,
  matches,
  SHEET_FILTERS_MAX,
  type SheetCondition,
  type SheetFilter,
} from '../../../src/core/sheets/sheet-filters';
import { tableSpec } from '../../../src/core/sheets/table';
import { resolveSheetFilters } from '../../../src/core/runs/plan-pull';

const zone = intlZone('America/Sao_Paulo');
const faturas = tableSpec(listings.faturas).columns;
const cobrancas = tableSpec(listings.cobrancas).columns;
const nfse = tableSpec(listings.nfse).columns;
const is = (field: string, ...values: string[]): SheetCondition[] => [{ field, op: 'igual', values }];
const between = (field: string, from?: string, to?: string): SheetCondition[] => [{ field, op: 'entre', from, to }];
const refusal = (filters: unknown, columns = faturas) => {
  const r = checkSheetFilters(filters, columns);
  return r.ok ? 'aceito' : `${r.index}: ${r.message}`;
};
const accepted = (filters: unknown, columns = faturas) => {
  const r = checkSheetFilters(filters, columns);
  if (!r.ok) throw new Error(r.message);
  return r.value;
};

describe('equal as a person means it', () => {
  it('numbers typed with a comma or as text, yes/no in words, text in any case', () => {
    expect(matches(is('x', '10,5'), { x: 10.5 })).toBe(true);
    expect(matches(is('x', '10'), { x: '10.0' })).toBe(true);
    expect(matches(is('x', '10'), { x: 11 })).toBe(false);
    expect(matches(is('x', 'Sim'), { x: true })).toBe(true);
    expect(matches(is('x', 'true'), { x: true })).toBe(true);
    expect(matches(is('x', 'nao'), { x: false })).toBe(true);
    expect(matches(is('x', 'NÃO'), { x: 'false' })).toBe(true);
    expect(matches(is('x', 'sim'), { x: false })).toBe(false);
    expect(matches(is('x', 'Aberta'), { x: ' ABERTA ' })).toBe(true);
    expect(matches(is('x', 'aberta'), { x: 'abertas' })).toBe(false);
  });

  it('a date typed DD/MM/AAAA equals the same day, whatever the time; a competência typed M/AAAA equals MM/AAAA', () => {
    expect(matches(is('x', '22/11/2026'), { x: '2026-11-22' })).toBe(true);
    expect(matches(is('x', '22/11/2026'), { x: '2026-11-22T10:30:00' })).toBe(true);
    expect(matches(is('x', '2/1/2026'), { x: '2026-01-02' })).toBe(true);
    expect(matches(is('x', '22/11/2026'), { x: '2026-11-23' })).toBe(false);
    expect(matches(is('x', '22/11/2026 10:30'), { x: '22/11/2026 10:30' })).toBe(true);
    expect(matches(is('x', '22/11/2026 10:30'), { x: '2026-11-22' })).toBe(false);
    expect(matches(is('x', '1/2026'), { x: '01/2026' })).toBe(true);
    expect(matches(is('x', '01/2026'), { x: '02/2026' })).toBe(false);
  });

  it('money with cents equals it typed with a comma or a point', () => {
    expect(matches(is('x', '1234,56'), { x: 1234.56 })).toBe(true);
    expect(matches(is('x', '1234.56'), { x: 1234.56 })).toBe(true);
    expect(matches(is('x', '1234,56'), { x: 1234.5 })).toBe(false);
  });

  it('an empty cell equals nothing, not even an empty value', () => {
    expect(matches(is('x', ''), { x: '' })).toBe(false);
    expect(matches(is('x', 'a'), { x: null })).toBe(false);
    expect(matches(is('x', 'a'), {})).toBe(false);
    expect(matches([{ field: 'x', op: 'lista' }], { x: 'a' })).toBe(false);
  });

  it('empty is null, blank text or an empty list; anything else is filled', () => {
    const empty: SheetCondition[] = [{ field: 'x', op: 'vazio' }];
    const filled: SheetCondition[] = [{ field: 'x', op: 'preenchido' }];
    for (const x of [null, undefined, '  ', []]) {
      expect(matches(empty, { x })).toBe(true);
      expect(matches(filled, { x })).toBe(false);
    }
    for (const x of [0, false, 'a', [1]]) {
      expect(matches(empty, { x })).toBe(false);
      expect(matches(filled, { x })).toBe(true);
    }
  });

  it('a nested field is read by its dotted path', () => {
    expect(matches(is('cliente.nome', 'Ana'), { cliente: { nome: 'ana' } })).toBe(true);
  });
});

describe('ranges', () => {
  it('open on either side, bounds included', () => {
    expect(matches(between('x', '10'), { x: 10 })).toBe(true);
    expect(matches(between('x', '10'), { x: 9 })).toBe(false);
    expect(matches(between('x', undefined, '10'), { x: 10 })).toBe(true);
    expect(matches(between('x', undefined, '10'), { x: 10.01 })).toBe(false);
    expect(matches(between('x', '', ''), { x: 5 })).toBe(true);
    expect(matches(between('x', '1'), { x: null })).toBe(false);
  });

  it('a number is never within a range of dates, nor a date within numbers', () => {
    expect(matches(between('x', '2026-01-01', '2026-12-31'), { x: 5 })).toBe(false);
    expect(matches(between('x', '2026-01-01'), { x: 5 })).toBe(false);
    expect(matches(between('x', '1', '9'), { x: '2026-01-05' })).toBe(false);
    expect(matches(between('x', undefined, '9'), { x: '2026-01-05' })).toBe(false);
  });

  it('a day bound takes that whole day; competências order by year first', () => {
    expect(matches(between('x', '2026-10-01', '2026-10-31'), { x: '2026-10-31T23:59:00' })).toBe(true);
    expect(matches(between('x', '2026-10-01', '2026-10-31'), { x: '2026-11-01T00:00:00' })).toBe(false);
    expect(matches(between('x', '2026-10-01', '2026-10-31'), { x: '2026-09-30T23:59:00' })).toBe(false);
    expect(matches(between('x', '11/2025', '02/2026'), { x: '01/2026' })).toBe(true);
    expect(matches(between('x', '11/2025', '02/2026'), { x: '03/2025' })).toBe(false);
    expect(matches(between('x', '11/2025', '02/2026'), { x: '03/2026' })).toBe(false);
  });

  it('every condition must hold', () => {
    const both = [...is('a', 'x'), ...between('b', '1', '2')];
    expect(matches(both, { a: 'x', b: 1 })).toBe(true);
    expect(matches(both, { a: 'x', b: 3 })).toBe(false);
    expect(matches(both, { a: 'y', b: 1 })).toBe(false);
    expect(matches([], { a: 1 })).toBe(true);
  });
});

describe('what the form may save', () => {
  it('at most ten filters, and nothing at all is no filter', () => {
    const many = Array.from({ length: SHEET_FILTERS_MAX + 1 }, () => ({ field: 'statusFatura', op: 'preenchido' }));
    expect(SHEET_FILTERS_MAX).toBe(10);
    expect(refusal(many)).toBe('10: Use no máximo 10 filtros na planilha.');
    expect(accepted(many.slice(1)).length).toBe(10);
    expect(accepted(undefined)).toEqual([]);
    expect(accepted('nada')).toEqual([]);
  });

  it('names the filter, its column and what to do', () => {
    expect(refusal([{ field: 'statusFatura', op: 'preenchido' }, null])).toBe('1: Filtro na planilha 2: escolha uma coluna.');
    expect(refusal([{ field: 'statusFatura', op: 'talvez' }])).toBe('0: Filtro na planilha 1 (Status): escolha uma condição.');
    expect(refusal([{ field: 'statusFatura', op: 'lista', values: [' ; '] }])).toBe('0: Filtro na planilha 1 (Status): informe os valores, separados por ;.');
    expect(refusal([{ field: 'valorTotal', op: 'entre', from: ' ', to: '' }])).toBe(
      '0: Filtro na planilha 1 (Valor total): informe o início, o fim ou os dois.',
    );
    expect(refusal([{ field: 'competencia', op: 'entre', from: '13/2026' }])).toMatch(/^0: Filtro na planilha 1 \(Competência\): .+/);
    expect(refusal([{ field: 'competencia', op: 'entre', from: '02/2026', to: '01/2026' }])).toBe(
      '0: Filtro na planilha 1 (Competência): o fim é anterior ao início; corrija o período.',
    );
    expect(refusal([{ field: 'dataVencimento', op: 'entre', from: '31/02/2026' }], cobrancas)).toMatch(/^0: Filtro na planilha 1 \(Vencimento\): .+/);
  });

  it("a list is split on ; and lines, trimmed, at most fifty values, numbers in the column's format", () => {
    const [f] = accepted([{ field: 'statusFatura', op: 'lista', values: [' ABERTA ;FATURADA\nCANCELADA;;', 'PAGA'] }]);
    expect(f).toEqual({ field: 'statusFatura', op: 'lista', values: ['ABERTA', 'FATURADA', 'CANCELADA', 'PAGA'] });
    const [long] = accepted([{ field: 'statusFatura', op: 'lista', values: [Array.from({ length: 60 }, (_, i) => `S${i}`).join(';')] }]);
    expect(long.values?.length).toBe(50);
    const [money] = accepted([{ field: 'valorTotal', op: 'lista', values: ['1.234,56; 7'] }]);
    expect(money.values).toEqual(['1234.56', '7']);
    const [one] = accepted([{ field: 'statusFatura', op: 'igual', values: ['  ABERTA  ', 'ignorado'] }]);
    expect(one.values).toEqual(['ABERTA']);
  });

  it('a value is cut at 200 characters', () => {
    const [f] = accepted([{ field: 'statusFatura', op: 'igual', values: ['x'.repeat(300)] }]);
    expect(f.values?.[0].length).toBe(200);
  });

  it("bounds in the column's format: dates as ISO, competências MM/AAAA, numbers typed either way", () => {
    expect(accepted([{ field: 'dataVencimento', op: 'entre', from: '1/2/2026', to: '2026-03-05' }], cobrancas)[0]).toEqual({
      field: 'dataVencimento',
      op: 'entre',
      from: '2026-02-01',
      to: '2026-03-05',
    });
    expect(accepted([{ field: 'competencia', op: 'entre', from: '1/2026', to: '2026-3' }])[0]).toMatchObject({ from: '01/2026', to: '03/2026' });
    expect(accepted([{ field: 'valorTotal', op: 'entre', from: '-1.000', to: '2,5' }])[0]).toMatchObject({ from: '-1000', to: '2.5' });
    expect(accepted([{ field: 'valorTotal', op: 'entre', to: '1 000' }])[0]).toEqual({ field: 'valorTotal', op: 'entre', from: undefined, to: '1000' });
    expect(refusal([{ field: 'valorTotal', op: 'entre', from: '1,2,3' }])).toMatch(/"1,2,3" não é um número/);
    expect(refusal([{ field: 'valorTotal', op: 'entre', from: '12.34.5' }])).toMatch(/não é um número/);
  });

  it('numbers of every kind with thousands and cents typed either way, a date-time column bounded by days, a competência typed AAAA-MM', () => {
    const bounds = (field: string, from: string, to: string, columns = faturas) => {
      const [f] = accepted([{ field, op: 'entre', from, to }], columns);
      return [f.from, f.to];
    };
    expect(bounds('valorTotal', '12.345.678,9', '12345678,90')).toEqual(['12345678.9', '12345678.9']);
    expect(bounds('valorTotal', '1234,56', '1234.56')).toEqual(['1234.56', '1234.56']);
    expect(bounds('idFatura', '12', '1.234')).toEqual(['12', '1234']);
    expect(bounds('aliquota', '2,5', '10', nfse)).toEqual(['2.5', '10']);
    expect(bounds('dataHoraAtualizacao', '22/11/2026', '2026-12-01', cobrancas)).toEqual(['2026-11-22', '2026-12-01']);
    expect(bounds('competencia', '2026-11', '2027-1')).toEqual(['11/2026', '01/2027']);
    expect(refusal([{ field: 'idFatura', op: 'entre', from: 'doze' }])).toBe('0: Filtro na planilha 1 (ID da fatura): "doze" não é um número');
  });

  it('a range open on either side, or of one value, is a range; one that ends before it starts is refused', () => {
    expect(accepted([{ field: 'valorTotal', op: 'entre', from: '5' }])).toEqual([{ field: 'valorTotal', op: 'entre', from: '5', to: undefined }]);
    expect(accepted([{ field: 'valorTotal', op: 'entre', from: '10', to: '10' }])).toEqual([{ field: 'valorTotal', op: 'entre', from: '10', to: '10' }]);
    expect(refusal([{ field: 'valorTotal', op: 'entre', from: '10', to: '9,99' }])).toBe(
      '0: Filtro na planilha 1 (Valor total): o fim é anterior ao início; corrija o período.',
    );
  });

  it('a value must be given for "é igual a", values for "está na lista"; empty ones in a list are dropped', () => {
    expect(refusal([{ field: 'statusFatura', op: 'igual' }])).toBe('0: Filtro na planilha 1 (Status): informe o valor.');
    expect(refusal([{ field: 'statusFatura', op: 'lista' }])).toBe('0: Filtro na planilha 1 (Status): informe os valores, separados por ;.');
    expect(accepted([{ field: 'statusFatura', op: 'lista', values: [null, 'ABERTA'] }])).toEqual([{ field: 'statusFatura', op: 'lista', values: ['ABERTA'] }]);
  });

  it('relative periods: whole numbers within ten years, in order, on date columns (or competência, in months)', () => {
    const rel = (rel: unknown, field = 'dataVencimento') => refusal([{ field, op: 'relativo', rel }], field === 'competencia' ? faturas : cobrancas);
    expect(rel({ unit: 'dias', de: 1.5, ate: 2 })).toBe('0: Filtro na planilha 1 (Vencimento): use números inteiros de dias.');
    expect(rel({ unit: 'meses', de: 0, ate: 3661 })).toBe('0: Filtro na planilha 1 (Vencimento): use números inteiros de meses.');
    expect(rel({ unit: 'dias', de: -3661, ate: 0 })).toMatch(/use números inteiros de dias/);
    expect(rel({ unit: 'dias', de: -3660, ate: 3660 })).toBe('aceito');
    expect(rel({ unit: 'dias', de: 5, ate: 1 })).toBe('0: Filtro na planilha 1 (Vencimento): o fim do período vem antes do início.');
    expect(rel({ unit: 'dias', de: 0, ate: 0 }, 'competencia')).toMatch(/períodos relativos valem para colunas de data \(ou competência, em meses\)\.$/);
    expect(rel({ unit: 'meses', de: -1, ate: 0 }, 'competencia')).toBe('aceito');
    expect(accepted([{ field: 'dataVencimento', op: 'relativo', rel: { unit: 'semanas', de: '2', ate: '3' } }], cobrancas)).toEqual([
      { field: 'dataVencimento', op: 'relativo', rel: { unit: 'dias', de: 2, ate: 3 } },
    ]);
    expect(accepted([{ field: 'dataVencimento', op: 'relativo' }], cobrancas)[0].rel).toEqual({ unit: 'dias', de: 0, ate: 0 });
  });

  it('a relative period also on a date-time column, never in months on a column of numbers', () => {
    expect(refusal([{ field: 'dataHoraAtualizacao', op: 'relativo', rel: { unit: 'dias', de: -1, ate: 0 } }], cobrancas)).toBe('aceito');
    expect(refusal([{ field: 'valor', op: 'relativo', rel: { unit: 'meses', de: -1, ate: 0 } }], cobrancas)).toBe(
      '0: Filtro na planilha 1 (Valor): períodos relativos valem para colunas de data (ou competência, em meses).',
    );
  });

  it('empty and filled keep only their column and condition', () => {
    expect(accepted([{ field: 'statusFatura', op: 'vazio', values: ['x'], from: '1' }])).toEqual([{ field: 'statusFatura', op: 'vazio' }]);
  });
});

describe('a run resolves them on its own day', () => {
  const now = new Date('2026-01-31T12:00:00Z');

  it('months of a date column: from the first day of the first month to the last day of the last', () => {
    const [c] = resolveSheetFilters([{ field: 'dataVencimento', op: 'relativo', rel: { unit: 'meses', de: -1, ate: 1 } }], cobrancas, now, zone);
    expect(c).toEqual({ field: 'dataVencimento', op: 'entre', from: '2025-12-01', to: '2026-02-28' });
  });

  it('months of a competência column as competências; days back and forth across a year', () => {
    const [m] = resolveSheetFilters([{ field: 'competencia', op: 'relativo', rel: { unit: 'meses', de: -2, ate: 1 } }], faturas, now, zone);
    expect(m).toEqual({ field: 'competencia', op: 'entre', from: '11/2025', to: '02/2026' });
    const [d] = resolveSheetFilters([{ field: 'dataVencimento', op: 'relativo', rel: { unit: 'dias', de: -31, ate: 1 } }], cobrancas, now, zone);
    expect(d).toEqual({ field: 'dataVencimento', op: 'entre', from: '2025-12-31', to: '2026-02-01' });
    const [none] = resolveSheetFilters([{ field: 'dataVencimento', op: 'relativo' }], cobrancas, now, zone);
    expect(none).toEqual({ field: 'dataVencimento', op: 'entre', from: '2026-01-31', to: '2026-01-31' });
  });

  it('other conditions pass as saved, a coded column carrying its codes; no filters are none', () => {
    const [plain] = resolveSheetFilters([{ field: 'statusFatura', op: 'igual', values: ['ABERTA'] }], faturas, now, zone);
    expect(plain).toEqual({ field: 'statusFatura', op: 'igual', values: ['ABERTA'], from: undefined, to: undefined });
    const [coded] = resolveSheetFilters([{ field: 'issRetido', op: 'igual', values: ['Sim'] }], nfse, now, zone);
    expect(coded.codes).toBeDefined();
    expect(resolveSheetFilters(undefined, faturas, now, zone)).toEqual([]);
  });

  it('a coded column compares what its cell shows; a code it does not know is compared as it came', () => {
    const [coded] = resolveSheetFilters([{ field: 'issRetido', op: 'igual', values: ['7'] }], nfse, now, zone);
    expect(matches([coded], { issRetido: 7 })).toBe(true);
  });
});

describe('in words, for the report card', () => {
  const say = (f: SheetFilter, columns = faturas) => describeSheetFilter(f, columns);

  it('each condition', () => {
    expect(say({ field: 'statusFatura', op: 'lista', values: ['ABERTA', 'PAGA'] })).toBe('Status está na lista ABERTA; PAGA');
    expect(say({ field: 'valorTotal', op: 'entre', from: '10' })).toBe('Valor total entre 10 e …');
    expect(say({ field: 'valorTotal', op: 'entre', to: '20' })).toBe('Valor total entre … e 20');
    expect(say({ field: 'numeroPedido', op: 'vazio' })).toMatch(/ está vazio$/);
    expect(say({ field: 'numeroPedido', op: 'preenchido' })).toMatch(/ não está vazio$/);
    expect(say({ field: 'naoExiste', op: 'vazio' })).toBe('naoExiste está vazio');
    expect(say({ field: 'statusFatura', op: 'igual' })).toBe('Status é igual a ');
  });

  it('relative periods from today, either way', () => {
    expect(say({ field: 'dataVencimento', op: 'relativo', rel: { unit: 'dias', de: -7, ate: 0 } }, cobrancas)).toBe('Vencimento de hoje − 7 a hoje + 0 dias');
    expect(say({ field: 'dataVencimento', op: 'relativo', rel: { unit: 'meses', de: 1, ate: 2 } }, cobrancas)).toBe('Vencimento de hoje + 1 a hoje + 2 meses');
    expect(say({ field: 'dataVencimento', op: 'relativo', rel: { unit: 'dias', de: 0, ate: 0 } }, cobrancas)).toBe('Vencimento de hoje + 0 a hoje + 0 dias');
    expect(say({ field: 'dataVencimento', op: 'relativo' }, cobrancas)).toBe('Vencimento de hoje + 0 a hoje + 0 dias');
  });

  it('this month only when it starts and ends this month; months before today with their sign', () => {
    expect(say({ field: 'competencia', op: 'relativo', rel: { unit: 'meses', de: 0, ate: 0 } })).toBe('Competência no mês atual');
    expect(say({ field: 'competencia', op: 'relativo', rel: { unit: 'meses', de: 0, ate: 2 } })).toBe('Competência de hoje + 0 a hoje + 2 meses');
    expect(say({ field: 'competencia', op: 'relativo', rel: { unit: 'meses', de: -1, ate: 0 } })).toBe('Competência de hoje − 1 a hoje + 0 meses');
    expect(say({ field: 'competencia', op: 'relativo', rel: { unit: 'meses', de: -2, ate: -1 } })).toBe('Competência de hoje − 2 a hoje − 1 meses');
  });
});
