/**
 * The Fechamento's figures at their edges: a charge covers one invoice (of its
 * company, client and competência, an equal amount first), a note is matched
 * to its invoice by id within its company whatever its competência, a charge
 * due today is not overdue, a note whose invoice the report lacks is said,
 * and companies of consolidated reports keep their own blocks.
 */
import { describe, expect, it } from 'vitest';
import { intlZone } from '../../../src/api/calendar';
import { type ClosingFigures, closing } from '../../../src/core/dashboards/kinds/fechamento/closing';
import type { ClosingSources } from '../../../src/core/dashboards/kinds/fechamento/conference';
import type { SourceTable } from '../../../src/core/dashboards/sources';
import type { CellValue } from '../../../src/core/sheets/table';

const zone = intlZone('America/Sao_Paulo');
const today = { day: { year: 2026, month: 11, day: 22 }, zone };
const day = (iso: string) => zone.instant({ year: +iso.slice(0, 4), month: +iso.slice(5, 7), day: +iso.slice(8, 10) });
const labels = { faturas: {}, nfse: {}, cobrancas: {} };

function sheet(records: Array<Record<string, CellValue>>): SourceTable {
  const keys = [...new Set(records.flatMap((r) => Object.keys(r)))];
  const columns = new Map(keys.map((k) => [k, records.map((r) => r[k] ?? '')]));
  return { rows: records.length, column: (key) => columns.get(key) };
}

const invoice = (idFatura: number, valorTotal: number, more: Record<string, CellValue> = {}) => ({
  idFatura,
  numero: idFatura,
  nomeCliente: 'Cliente',
  idCliente: 7,
  competencia: '10/2026',
  valorTotal,
  statusFatura: 'FATURADA',
  tipoFatura: 'AVULSA',
  ...more,
});
const note = (idFatura: number, valorServico: number, more: Record<string, CellValue> = {}) => ({
  idNotaFiscalServico: 900 + idFatura,
  idFatura,
  competencia: '10/2026',
  statusNotaFiscalServico: 'AUTORIZADA',
  numeroNotaFiscalServico: '000123',
  nomeFantasia: 'Cliente',
  issRetido: 'Não',
  aliquota: 2,
  valorServico,
  valorIss: valorServico * 0.02,
  valorLiquidoNfse: valorServico,
  ...more,
});
const charge = (idCobranca: number, valor: number, due: string, more: Record<string, CellValue> = {}) => ({
  idCobranca,
  idCliente: 7,
  nomeFantasia: 'Cliente',
  competencia: '10/2026',
  valor,
  isQuitado: 'Não',
  situacao: 'EMITIDA',
  dataVencimento: day(due),
  ...more,
});

const line = (f: ClosingFigures, label: string) => f.sections.flatMap((s) => s.lines).find((l) => l.label === label)!.tallies;
const rowsOf = (f: ClosingFigures, key: string) => f.checks.find((c) => c.key === key)!.rows;

describe('Fechamento da competência', () => {
  it('pairs a charge with the invoice of equal amount first: the other invoice of the client is the one without a charge', () => {
    const src: ClosingSources = {
      faturas: sheet([invoice(1, 100), invoice(2, 50)]),
      nfse: sheet([note(1, 100), note(2, 50)]),
      cobrancas: sheet([charge(10, 50, '2026-11-30')]),
    };
    const f = closing(src, '10/2026', today, labels);
    expect(rowsOf(f, 'sem-cobranca')).toEqual([0]);
    expect(line(f, 'Faturas sem cobrança')).toEqual([{ count: 1, cents: 10_000 }]);
  });

  it('a charge of another client, another competência or cancelled covers no invoice; one due today is not overdue', () => {
    const src: ClosingSources = {
      faturas: sheet([invoice(1, 100)]),
      nfse: sheet([note(1, 100)]),
      cobrancas: sheet([
        charge(10, 100, '2026-11-22', { idCliente: 8 }),
        charge(11, 100, '2026-11-22', { competencia: '09/2026' }),
        charge(12, 100, '2026-11-22', { situacao: 'CANCELADA' }),
        charge(13, 30, '2026-11-22', { idCliente: 9 }),
        charge(14, 40, '2026-11-21', { idCliente: 9 }),
        charge(15, 60, '2026-10-01', { idCliente: 9, isQuitado: 'Sim' }),
      ]),
    };
    const f = closing(src, '10/2026', today, labels);
    expect(rowsOf(f, 'sem-cobranca')).toEqual([0]);
    expect(rowsOf(f, 'a-vencer')).toEqual([0, 3]);
    expect(rowsOf(f, 'vencidas')).toEqual([4]);
    expect(rowsOf(f, 'pagas')).toEqual([5]);
    expect(f.notes.join(' ')).toContain('1 cobrança da competência está cancelada ou baixada');
  });

  it('matches a note to its invoice by id whatever its competência; a value mismatch sums note − invoice; a note whose invoice is missing is said', () => {
    const src: ClosingSources = {
      faturas: sheet([invoice(1, 100), invoice(2, 80), invoice(3, 10, { competencia: '09/2026' })]),
      nfse: sheet([
        note(1, 100, { competencia: '11/2026' }),
        note(2, 72.5, { numeroNotaFiscalServico: '', statusNotaFiscalServico: 'EMITIDA', issRetido: 'Sim', valorIss: 1.45, valorLiquidoNfse: 71.05 }),
        note(4, 5),
      ]),
      cobrancas: sheet([]),
    };
    const f = closing(src, '10/2026', today, labels);
    expect(rowsOf(f, 'sem-nfse')).toEqual([]);
    expect(line(f, 'NFS-e com valor diferente da fatura (diferença: nota − fatura)')).toEqual([{ count: 1, cents: -750 }]);
    expect(line(f, 'EMITIDA sem número')).toEqual([{ count: 1, cents: 7_250 }]);
    expect(line(f, 'ISS retido pelo tomador')).toEqual([{ count: 1, cents: 145 }]);
    expect(line(f, '   retido à alíquota de 2,00%')).toEqual([{ count: 1, cents: 145 }]);
    expect(line(f, 'ISS a recolher')).toEqual([{ count: 1, cents: 10 }]);
    expect(line(f, 'Valor líquido')).toEqual([{ count: 2, cents: 7_605 }]);
    expect(f.notes.join(' ')).toContain('1 nota da competência não foi comparada com a fatura: o ID da fatura dela não está no relatório de faturas (IDs 4)');
  });

  it('keeps each company of consolidated reports apart: the same invoice id in two companies is two invoices', () => {
    const src: ClosingSources = {
      faturas: sheet([invoice(1, 100, { empresa: 'A' }), invoice(1, 30, { empresa: 'B', tipoFatura: 'RECORRENTE' })]),
      nfse: sheet([note(1, 100, { empresa: 'A' })]),
      cobrancas: sheet([charge(10, 30, '2026-11-30', { empresa: 'B' })]),
    };
    const f = closing(src, '10/2026', today, labels);
    expect(f.companies).toEqual(['A', 'B']);
    expect(line(f, 'Faturas sem NFS-e')).toEqual([
      { count: 0, cents: 0 },
      { count: 1, cents: 3_000 },
    ]);
    expect(line(f, 'Faturas sem cobrança')).toEqual([
      { count: 1, cents: 10_000 },
      { count: 0, cents: 0 },
    ]);
    expect(line(f, 'Recorrentes')).toEqual([
      { count: 0, cents: 0 },
      { count: 1, cents: 3_000 },
    ]);
    expect(f.invoices).toEqual([{ empresa: 'B', id: 1 }]);
  });
});
