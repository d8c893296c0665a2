import { describe, expect, it } from 'vitest';
import { listings } from '../../../src/api/operations';
import { intlZone } from '../../../src/api/calendar';
import { CellConverter, childRows, NUMBER_FORMATS, recordRow, tableSpec } from '../../../src/core/sheets/table';

const conv = () => new CellConverter(intlZone('America/Sao_Paulo'));

describe('table building', () => {
  it('dates are midnight in the spreadsheet zone, not UTC midnight', () => {
    const d = conv().cell('date', '2026-10-01') as Date;
    expect(d.toISOString()).toBe('2026-10-01T03:00:00.000Z');
    const dt = conv().cell('datetime', '2026-10-01T23:30:00') as Date;
    expect(dt.toISOString()).toBe('2026-10-02T02:30:00.000Z');
  });

  it('keeps identifier-like text as text and formats it as @', () => {
    const spec = tableSpec(listings.nfse);
    const col = spec.columns.find((c) => c.key === 'numeroNotaFiscalServico')!;
    expect(NUMBER_FORMATS[col.cell]).toBe('@');
    const row = recordRow(spec.columns, { numeroNotaFiscalServico: '000123', cpfCnpj: '01234567000189', competencia: '10/2026', valorServico: 10.5 }, conv());
    expect(row).toContain('000123');
    expect(row).toContain('01234567000189');
    expect(row).toContain('10/2026');
    expect(row).toContain(10.5);
  });

  it('flattens nested objects into dotted columns and arrays into child tables keyed by the parent id', () => {
    const clientes = tableSpec(listings.clientes);
    expect(clientes.columns.map((c) => c.key)).toContain('cartaoCredito.numeroCartao');
    expect(clientes.children.map((c) => c.field)).toEqual(['telefones', 'tags']);
    const tx = tableSpec(listings.transacoes);
    const planos = tx.children.find((c) => c.field === 'planosConta')!;
    const rows = childRows(
      planos,
      [
        {
          idTransacao: 7,
          planosConta: [
            { idPlanoConta: 1, planoConta: 'Receitas', valor: 10 },
            { idPlanoConta: 2, planoConta: 'Outras', valor: 5 },
          ],
        },
      ],
      conv(),
    );
    expect(rows).toHaveLength(2);
    expect(rows[0][0]).toBe(7);
    expect(rows[1]).toContain('Outras');
  });

  it('booleans read as Sim/Não, nulls as empty cells; lists the spec leaves open are open child tables', () => {
    const c = conv();
    expect(c.cell('boolean', true)).toBe('Sim');
    expect(c.cell('boolean', false)).toBe('Não');
    expect(c.cell('money', null)).toBe('');
    const clientes = tableSpec(listings.clientes);
    expect(clientes.children.filter((x) => x.open).map((x) => x.field)).toEqual(['telefones', 'tags']);
    expect(tableSpec(listings.faturas).children.find((x) => x.field === 'itens')?.open).toBe(true);
    expect(tableSpec(listings.transacoes).children.find((x) => x.field === 'planosConta')?.open).toBe(false);
  });
});
