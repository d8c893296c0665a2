/** "Filtros na planilha": conditions on any column, checked as typed, resolved per run, matched against raw records. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { intlZone } from '../../../src/api/calendar';
import { listings } from '../../../src/api/operations';
import { resolveSheetFilters } from '../../../src/core/runs/plan-pull';
import { checkSheetFilters, describeSheetFilter, matches, type SheetFilter } from '../../../src/core/sheets/sheet-filters';
import { tableSpec } from '../../../src/core/sheets/table';

const zone = intlZone('America/Sao_Paulo');
const faturas = tableSpec(listings.faturas).columns;
const cobrancas = tableSpec(listings.cobrancas).columns;
const check = (filters: unknown, columns = faturas) => checkSheetFilters(filters, columns);
const run = (filters: SheetFilter[], columns = faturas, now = new Date('2026-11-22T13:00:00Z')) => resolveSheetFilters(filters, columns, now, zone);

describe('sheet filters', () => {
  it('open invoices of the current competência: status equals, competência in a relative month', () => {
    const ok = check([
      { field: 'statusFatura', op: 'igual', values: ['aberta'] },
      { field: 'competencia', op: 'relativo', rel: { unit: 'meses', de: 0, ate: 0 } },
    ]);
    expect(ok.ok).toBe(true);
    const conditions = run((ok as { value: SheetFilter[] }).value);
    expect(conditions[1]).toEqual({ field: 'competencia', op: 'entre', from: '11/2026', to: '11/2026' });
    expect(matches(conditions, { statusFatura: 'ABERTA', competencia: '11/2026' })).toBe(true);
    expect(matches(conditions, { statusFatura: 'FATURADA', competencia: '11/2026' })).toBe(false);
    expect(matches(conditions, { statusFatura: 'ABERTA', competencia: '10/2026' })).toBe(false);
    expect(matches(conditions, { statusFatura: 'ABERTA', competencia: '11/2025' })).toBe(false);
  });

  it('a coded yes/no column is filtered by what its cell shows: ISS retido "Sim" is the code 2', () => {
    const nfse = tableSpec(listings.nfse).columns;
    const ok = check([{ field: 'issRetido', op: 'igual', values: ['Sim'] }], nfse);
    expect(ok.ok).toBe(true);
    const conditions = run((ok as { value: SheetFilter[] }).value, nfse);
    expect(matches(conditions, { issRetido: 2 })).toBe(true);
    expect(matches(conditions, { issRetido: 0 })).toBe(false);
    const no = run([{ field: 'issRetido', op: 'igual', values: ['não'] }], nfse);
    expect(matches(no, { issRetido: 0 })).toBe(true);
    expect(matches(no, { issRetido: 2 })).toBe(false);
  });

  it('in a list, a numeric range typed the Brazilian way, empty and not empty', () => {
    const f = (
      check([
        { field: 'statusFatura', op: 'lista', values: ['ABERTA; FATURADA'] },
        { field: 'valorTotal', op: 'entre', from: '1.000,00', to: '2500' },
        { field: 'idIntegracao', op: 'preenchido' },
        { field: 'numeroPedido', op: 'vazio' },
      ]) as { value: SheetFilter[] }
    ).value;
    expect(f[1]).toMatchObject({ from: '1000', to: '2500' });
    const c = run(f);
    const base = { statusFatura: 'FATURADA', valorTotal: 1000, idIntegracao: 'FAT-1', numeroPedido: null };
    expect(matches(c, base)).toBe(true);
    expect(matches(c, { ...base, valorTotal: 999.99 })).toBe(false);
    expect(matches(c, { ...base, valorTotal: 2500.01 })).toBe(false);
    expect(matches(c, { ...base, statusFatura: 'CANCELADA' })).toBe(false);
    expect(matches(c, { ...base, idIntegracao: '' })).toBe(false);
    expect(matches(c, { ...base, numeroPedido: 'PED-1' })).toBe(false);
  });

  it('dates: a fixed range includes its last day; a relative one counts days from the run day', () => {
    const fixed = (check([{ field: 'dataVencimento', op: 'entre', from: '01/11/2026', to: '30/11/2026' }], cobrancas) as { value: SheetFilter[] }).value;
    expect(fixed[0]).toMatchObject({ from: '2026-11-01', to: '2026-11-30' });
    expect(matches(run(fixed, cobrancas), { dataVencimento: '2026-11-30' })).toBe(true);
    expect(matches(run(fixed, cobrancas), { dataVencimento: '2026-12-01' })).toBe(false);
    const next7 = run([{ field: 'dataVencimento', op: 'relativo', rel: { unit: 'dias', de: 0, ate: 7 } }], cobrancas);
    expect(next7[0]).toEqual({ field: 'dataVencimento', op: 'entre', from: '2026-11-22', to: '2026-11-29' });
    const month = run([{ field: 'dataVencimento', op: 'relativo', rel: { unit: 'meses', de: 0, ate: 0 } }], cobrancas, new Date('2026-02-10T12:00:00Z'));
    expect(month[0]).toMatchObject({ from: '2026-02-01', to: '2026-02-28' });
    expect(matches(run([{ field: 'dataCadastro', op: 'igual', values: ['2026-11-22'] }], cobrancas), { dataCadastro: '2026-11-22' })).toBe(true);
  });

  it('refuses, naming the filter: an unknown column, an inverted range, a bad number, a relative period on a text column', () => {
    expect(check([{ field: 'naoExiste', op: 'igual', values: ['x'] }])).toMatchObject({
      ok: false,
      index: 0,
      message: expect.stringMatching(/escolha uma coluna/),
    });
    expect(check([{ field: 'valorTotal', op: 'entre', from: '10', to: '5' }])).toMatchObject({
      ok: false,
      message: expect.stringMatching(/Valor.*anterior ao início/),
    });
    expect(check([{ field: 'valorTotal', op: 'igual', values: ['muito'] }])).toMatchObject({ ok: false, message: expect.stringMatching(/não é um número/) });
    expect(check([{ field: 'nomeCliente', op: 'relativo', rel: { unit: 'dias', de: 0, ate: 3 } }])).toMatchObject({
      ok: false,
      message: expect.stringMatching(/colunas de data/),
    });
    expect(check([{ field: 'statusFatura', op: 'igual', values: [''] }])).toMatchObject({ ok: false, message: expect.stringMatching(/informe o valor/) });
  });

  it('describes each filter in words for the report card', () => {
    expect(describeSheetFilter({ field: 'statusFatura', op: 'igual', values: ['ABERTA'] }, faturas)).toBe('Status é igual a ABERTA');
    expect(describeSheetFilter({ field: 'competencia', op: 'relativo', rel: { unit: 'meses', de: 0, ate: 0 } }, faturas)).toBe('Competência no mês atual');
  });

  it('a list holds a value exactly when one of its items equals it (any text, any number)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.stringMatching(/^[A-Z]{1,6}$/), fc.integer({ min: 0, max: 9999 }).map(String)), { minLength: 1, maxLength: 5 }),
        fc.oneof(fc.stringMatching(/^[A-Z]{1,6}$/), fc.integer({ min: 0, max: 9999 }).map(String)),
        (values, v) => {
          const c = [{ field: 'statusFatura', op: 'lista' as const, values }];
          expect(matches(c, { statusFatura: v })).toBe(values.includes(v));
        },
      ),
      { seed: 13, numRuns: 200 },
    );
  });
});
