/**
 * One company's month from records as the service sends them: each figure
 * the Central shows, read out of the Fechamento's close, on a month small
 * enough to work out by hand (every conference line met once), and the
 * months that have no movement.
 */
import { describe, expect, it } from 'vitest';
import { intlZone } from '../../../src/api/calendar';
import { DIVERGENCES, type MonthRecords, monthFigures } from '../../../src/core/central/month';
import { todayOf } from '../../../src/core/dashboards/sources';

const zone = intlZone('America/Sao_Paulo');
const today = todayOf(zone, zone.instant({ year: 2026, month: 11, day: 22, hour: 10 }).getTime());

const invoice = (idFatura: number, idCliente: number, valorTotal: number, statusFatura = 'FATURADA', competencia = '10/2026') => ({
  idFatura,
  numero: idFatura + 1000,
  nomeCliente: `Cliente ${idCliente}`,
  idCliente,
  competencia,
  valorTotal,
  statusFatura,
  tipoFatura: 'AVULSA',
});
const note = (
  id: number,
  idFatura: number,
  o: { status?: string; numero?: string | null; servico: number; iss: number; retido?: 0 | 2; competencia?: string },
) => ({
  idNotaFiscalServico: id,
  idFatura,
  competencia: o.competencia ?? '10/2026',
  statusNotaFiscalServico: o.status ?? 'AUTORIZADA',
  numeroNotaFiscalServico: o.numero === undefined ? `00000${id}` : o.numero,
  nomeFantasia: 'Tomador',
  issRetido: o.retido ?? 0,
  aliquota: 2,
  valorServico: o.servico,
  valorIss: o.iss,
  valorLiquidoNfse: o.servico,
});
const charge = (id: number, idCliente: number, valor: number, dataVencimento: string, o: { paid?: boolean; situacao?: string; competencia?: string } = {}) => ({
  idCobranca: id,
  idCliente,
  nomeFantasia: `Cliente ${idCliente}`,
  competencia: o.competencia ?? '10/2026',
  valor,
  isQuitado: o.paid ?? false,
  situacao: o.situacao ?? 'EMITIDA',
  dataVencimento,
});

/**
 * Invoices 1 and 2 billed with their notes and charges (note 2 for 50 centavos less, EMITIDA without a number, its
 * charge overdue), 3 cancelled, 4 open with only a cancelled note and a cancelled charge, 5 of another month; a
 * charge not yet due of a client without invoice, and one of another month.
 */
const MONTH: MonthRecords = {
  faturas: [invoice(1, 1, 100), invoice(2, 2, 50), invoice(3, 3, 30, 'CANCELADA'), invoice(4, 4, 20, 'ABERTA'), invoice(5, 5, 70, 'FATURADA', '09/2026')],
  nfse: [
    note(11, 1, { servico: 100, iss: 2, retido: 2 }),
    note(12, 2, { status: 'EMITIDA', numero: null, servico: 49.5, iss: 0.99 }),
    note(13, 4, { status: 'CANCELADA', servico: 20, iss: 0.4 }),
    note(14, 5, { servico: 70, iss: 1.4, competencia: '09/2026' }),
  ],
  cobrancas: [
    charge(21, 1, 100, '2026-10-20', { paid: true }),
    charge(22, 2, 50, '2026-11-10'),
    charge(23, 9, 10, '2026-12-05'),
    charge(24, 4, 20, '2026-11-30', { situacao: 'CANCELADA' }),
    charge(25, 1, 99, '2026-11-25', { competencia: '11/2026' }),
  ],
};

describe('one company’s month', () => {
  it('counts each figure as the Fechamento does, in cents', () => {
    const f = monthFigures(MONTH, '10/2026', today);
    expect(f).toMatchObject({
      competencia: '10/2026',
      invoices: { count: 3, cents: 17_000 },
      notesIssued: { count: 2, cents: 14_950 },
      notesMissing: { count: 1, cents: 2_000 },
      issRetidoCents: 200,
      issDueCents: 99,
      chargesOpen: { count: 1, cents: 1_000 },
      chargesOverdue: { count: 1, cents: 5_000 },
      // Invoice 4 without a note and without a charge, note 2's value and its missing number, charge 23 without invoice.
      divergences: 5,
      empty: false,
    });
    expect(f.notes.join('\n')).toMatch(/canceladas? ou baixadas?/);
  });

  it('counts as divergences the five conference lines of mismatches, and not where the money stands', () => {
    expect(DIVERGENCES).toEqual(['sem-nfse', 'valor-diferente', 'sem-numero', 'sem-cobranca', 'sem-fatura']);
    const paidOnly: MonthRecords = {
      faturas: [invoice(1, 1, 100)],
      nfse: [note(11, 1, { servico: 100, iss: 2 })],
      cobrancas: [charge(21, 1, 100, '2026-10-20', { paid: true })],
    };
    expect(monthFigures(paidOnly, '10/2026', today)).toMatchObject({
      divergences: 0,
      chargesOpen: { count: 0, cents: 0 },
      chargesOverdue: { count: 0, cents: 0 },
    });
  });

  it('is due on its last day and overdue the day after, in the spreadsheet’s zone', () => {
    const due = (day: string): MonthRecords => ({ faturas: [], nfse: [], cobrancas: [charge(22, 2, 50, day)] });
    expect(monthFigures(due('2026-11-22'), '10/2026', today)).toMatchObject({
      chargesOpen: { count: 1, cents: 5_000 },
      chargesOverdue: { count: 0, cents: 0 },
    });
    expect(monthFigures(due('2026-11-21'), '10/2026', today)).toMatchObject({
      chargesOpen: { count: 0, cents: 0 },
      chargesOverdue: { count: 1, cents: 5_000 },
    });
    const tokyo = todayOf(intlZone('Asia/Tokyo'), zone.instant({ year: 2026, month: 11, day: 22, hour: 13 }).getTime());
    expect(tokyo.day.day).toBe(23);
    expect(monthFigures(due('2026-11-22'), '10/2026', tokyo, zone)).toMatchObject({ chargesOverdue: { count: 1 } });
  });

  it('is "empty" only when none of the three listings has a record of the competência', () => {
    const none = monthFigures(MONTH, '08/2026', today);
    expect(none).toMatchObject({ empty: true, invoices: { count: 0, cents: 0 }, notesIssued: { count: 0, cents: 0 }, divergences: 0 });
    for (const only of ['faturas', 'nfse', 'cobrancas'] as const) {
      const one: MonthRecords = { faturas: [], nfse: [], cobrancas: [], [only]: MONTH[only] };
      expect(monthFigures(one, '10/2026', today).empty, only).toBe(false);
    }
    const cancelledOnly: MonthRecords = { faturas: [invoice(3, 3, 30, 'CANCELADA')], nfse: [], cobrancas: [] };
    expect(monthFigures(cancelledOnly, '10/2026', today)).toMatchObject({
      empty: false,
      invoices: { count: 0, cents: 0 },
      held: { faturas: 1, nfse: 0, cobrancas: 0 },
    });
    expect(none.held).toEqual({ faturas: 0, nfse: 0, cobrancas: 0 });
    // Every record of the competência, whatever its status; another month's are not.
    const all = monthFigures(MONTH, '10/2026', today).held!;
    const ofMonth = (list: ReadonlyArray<Record<string, unknown>>) => list.filter((r) => r.competencia === '10/2026').length;
    expect(all).toEqual({ faturas: ofMonth(MONTH.faturas), nfse: ofMonth(MONTH.nfse), cobrancas: ofMonth(MONTH.cobrancas) });
    expect(all.faturas).toBeGreaterThan(3);
  });

  it('hands back tallies of its own: changing one changes no other', () => {
    const f = monthFigures(MONTH, '10/2026', today);
    f.invoices.count = 99;
    f.chargesOpen.count = 99;
    expect(monthFigures(MONTH, '10/2026', today)).toMatchObject({ invoices: { count: 3 }, chargesOpen: { count: 1 } });
  });
});
