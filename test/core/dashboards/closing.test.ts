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

  it('a charge that covers no invoice is a charge without an invoice; one that covers an invoice is not, nor a cancelled one', () => {
    const src: ClosingSources = {
      faturas: sheet([invoice(1, 100), invoice(2, 40, { idCliente: 9 })]),
      nfse: sheet([note(1, 100), note(2, 40)]),
      cobrancas: sheet([
        charge(10, 100, '2026-11-30'),
        charge(11, 55, '2026-11-30'),
        charge(12, 70, '2026-11-30', { idCliente: 8 }),
        charge(13, 70, '2026-11-30', { idCliente: 8, situacao: 'CANCELADA' }),
        charge(14, 90, '2026-11-30', { idCliente: 9, empresa: '' }),
      ]),
    };
    const f = closing(src, '10/2026', today, labels);
    expect(rowsOf(f, 'sem-fatura')).toEqual([1, 2]);
    expect(line(f, 'Cobranças da competência sem fatura')).toEqual([{ count: 2, cents: 12_500 }]);
    expect(rowsOf(f, 'sem-cobranca')).toEqual([]);
    expect(f.checks.find((c) => c.key === 'sem-fatura')).toMatchObject({ source: 'cobrancas', title: 'Cobranças sem fatura' });
    // Each live charge and invoice counted once, however many lines name it.
    expect(f.counted).toBe(2 + 2 + 4);
  });

  it('sums only issued notes (AUTORIZADA, EMITIDA): a cancelled note has its own line, out of every total, and its invoice has no note', () => {
    const src: ClosingSources = {
      faturas: sheet([invoice(1, 100), invoice(2, 80), invoice(3, 60)]),
      nfse: sheet([
        note(1, 100, { statusNotaFiscalServico: 'CANCELADA', valorIss: 2, issRetido: 'Sim', valorLiquidoNfse: 98 }),
        note(2, 70, { statusNotaFiscalServico: 'cancelada', numeroNotaFiscalServico: '', aliquota: 5, valorIss: 3.5 }),
        note(3, 60, { statusNotaFiscalServico: 'SUBSTITUIDA', idNotaFiscalServico: 5 }),
        note(3, 60, { valorIss: 1.2, valorLiquidoNfse: 60 }),
      ]),
      cobrancas: sheet([]),
    };
    const f = closing(src, '10/2026', today, labels);
    expect(rowsOf(f, 'sem-nfse')).toEqual([0, 1]);
    expect(f.invoices).toEqual([
      { empresa: '', id: 1 },
      { empresa: '', id: 2 },
    ]);
    expect(line(f, 'Notas emitidas da competência (AUTORIZADA e EMITIDA) · valor dos serviços')).toEqual([{ count: 1, cents: 6_000 }]);
    expect(line(f, 'AUTORIZADA')).toEqual([{ count: 1, cents: 6_000 }]);
    expect(line(f, 'CANCELADA (não é emitida: fora dos totais)')).toEqual([{ count: 2, cents: 17_000 }]);
    expect(line(f, 'SUBSTITUIDA (não é emitida: fora dos totais)')).toEqual([{ count: 1, cents: 6_000 }]);
    const labelsShown = f.sections[1].lines.map((l) => l.label);
    expect(labelsShown.indexOf('CANCELADA (não é emitida: fora dos totais)')).toBe(labelsShown.indexOf('EMITIDA sem número') + 1);
    expect(labelsShown.indexOf('SUBSTITUIDA (não é emitida: fora dos totais)')).toBe(labelsShown.indexOf('EMITIDA sem número') + 2);
    expect(line(f, 'ISS retido pelo tomador')).toEqual([{ count: 0, cents: 0 }]);
    expect(line(f, 'ISS a recolher')).toEqual([{ count: 1, cents: 120 }]);
    expect(labelsShown).not.toContain('   a recolher à alíquota de 5,00%');
    expect(line(f, 'Valor líquido')).toEqual([{ count: 1, cents: 6_000 }]);
    expect(rowsOf(f, 'sem-numero')).toEqual([]);
    expect(rowsOf(f, 'valor-diferente')).toEqual([]);
    expect(f.notes).toContain(
      'Fora dos totais, cada status na sua linha: 3 notas da competência em status que a interface não dá como emitida (CANCELADA, SUBSTITUIDA); a fatura que só tem notas assim conta como sem NFS-e.',
    );
    expect(f.counted).toBe(3 + 4);
    const blank = closing({ ...src, nfse: sheet([note(1, 100, { statusNotaFiscalServico: ' ' })]) }, '10/2026', today, labels);
    expect(line(blank, 'Sem status (não é emitida: fora dos totais)')).toEqual([{ count: 1, cents: 10_000 }]);
    expect(blank.notes).toContain(
      'Fora dos totais, cada status na sua linha: 1 nota da competência em status que a interface não dá como emitida (sem status); a fatura que só tem notas assim conta como sem NFS-e.',
    );
  });

  it('sums only the invoice statuses the interface lists: another has its own line, out of the totals and of the conference', () => {
    const src: ClosingSources = {
      faturas: sheet([
        invoice(1, 100),
        invoice(2, 80, { statusFatura: 'ESTORNADA' }),
        invoice(3, 60, { statusFatura: 'REFATURADA' }),
        invoice(4, 5, { statusFatura: '' }),
      ]),
      nfse: sheet([note(1, 100), note(3, 60)]),
      cobrancas: sheet([]),
    };
    const f = closing(src, '10/2026', today, labels);
    expect(line(f, 'Faturas da competência (sem as canceladas)')).toEqual([{ count: 2, cents: 16_000 }]);
    expect(line(f, 'ESTORNADA (status que a interface não lista: fora do total)')).toEqual([{ count: 1, cents: 8_000 }]);
    expect(line(f, 'Sem status (status que a interface não lista: fora do total)')).toEqual([{ count: 1, cents: 500 }]);
    // Neither is an invoice without its note.
    expect(rowsOf(f, 'sem-nfse')).toEqual([]);
    expect(f.notes).toContain(
      'Fora dos totais, cada status na sua linha: faturas da competência em status que a interface não lista (sem status, ESTORNADA); nem somadas nem conferidas com as notas e cobranças.',
    );
  });

  it('shows open invoices (ABERTA) apart inside the total, and says which of those without a note are open', () => {
    const open = (id: number) => invoice(id, 10 * id, { statusFatura: 'aberta' });
    const src: ClosingSources = {
      faturas: sheet([invoice(1, 100), ...Array.from({ length: 11 }, (_, i) => open(i + 2)), invoice(13, 5, { statusFatura: 'REFATURADA' })]),
      nfse: sheet([note(1, 100), note(2, 20)]),
      cobrancas: sheet([]),
    };
    const f = closing(src, '10/2026', today, labels);
    expect(line(f, 'Faturas da competência (sem as canceladas)')).toEqual([{ count: 13, cents: 10_000 + 77_000 + 500 }]);
    expect(line(f, 'Em aberto (ABERTA: ainda não faturadas, incluídas no total)')).toEqual([{ count: 11, cents: 77_000 }]);
    expect(f.notes).toContain(
      'Em aberto (ABERTA), ainda sem faturamento: 10 faturas sem NFS-e (IDs 3, 4, 5, 6, 7, 8, 9, 10, 11, 12). "Emitir NFS-e destas faturas" seleciona também estas: confira antes de emitir.',
    );
    const one = closing({ ...src, nfse: sheet(Array.from({ length: 11 }, (_, i) => note(i + 1, 1))) }, '10/2026', today, labels);
    expect(one.notes).toContain(
      'Em aberto (ABERTA), ainda sem faturamento: 1 fatura sem NFS-e (IDs 12). "Emitir NFS-e destas faturas" seleciona também estas: confira antes de emitir.',
    );
    const none = closing({ ...src, nfse: sheet(Array.from({ length: 12 }, (_, i) => note(i + 1, 1))) }, '10/2026', today, labels);
    expect(none.notes.join(' ')).not.toContain('ABERTA');
  });

  it('says which reports hold nothing of the competência, or that none does', () => {
    const src: ClosingSources = { faturas: sheet([invoice(1, 100)]), nfse: sheet([note(1, 100)]), cobrancas: sheet([charge(10, 100, '2026-11-30')]) };
    expect(closing(src, '10/2026', today, labels).notes).toEqual([]);
    const september = closing({ ...src, faturas: sheet([invoice(1, 100, { competencia: '09/2026' })]), nfse: sheet([]) }, '10/2026', today, labels);
    expect(september.notes.slice(0, 2)).toEqual([
      'O relatório de faturas não tem nenhuma fatura da competência 10/2026: as linhas que dependem dele mostram zero por isso, não porque esteja em ordem. Confira os filtros dele.',
      'O relatório de NFS-e não tem nenhuma NFS-e da competência 10/2026: as linhas que dependem dele mostram zero por isso, não porque esteja em ordem. Confira os filtros dele.',
    ]);
    expect(closing({ ...src, cobrancas: sheet([]) }, '10/2026', today, labels).notes[0]).toBe(
      'O relatório de cobranças não tem nenhuma cobrança da competência 10/2026: as linhas que dependem dele mostram zero por isso, não porque esteja em ordem. Confira os filtros dele.',
    );
    expect(closing(src, '01/2030', today, labels).notes).toEqual([
      'Os três relatórios não têm nenhum registro da competência 01/2030 (nenhuma fatura, NFS-e ou cobrança): os zeros e "nenhuma" deste painel não são um fechamento em ordem. Confira a competência e os filtros dos relatórios.',
    ]);
  });

  it('lists each conference line’s records with their columns, the company last when consolidated', () => {
    const due = day('2026-11-30');
    const src: ClosingSources = {
      faturas: sheet([invoice(1, 100, { empresa: 'A' }), invoice(2, 80, { empresa: 'B', idCliente: 8, tipoFatura: 'RECORRENTE' })]),
      nfse: sheet([note(2, 70, { empresa: 'B', numeroNotaFiscalServico: '', statusNotaFiscalServico: 'EMITIDA', nomeFantasia: 'Tomador B' })]),
      cobrancas: sheet([
        charge(10, 100, '2026-11-30', { empresa: 'A' }),
        charge(11, 55, '2026-11-30', { empresa: 'B', idCliente: 9, nomeFantasia: 'Outro' }),
        charge(12, 80, '2026-11-30', { empresa: 'B', idCliente: 8 }),
      ]),
    };
    const f = closing(src, '10/2026', today, labels);
    const check = (key: string) => {
      const c = f.checks.find((x) => x.key === key)!;
      return { header: c.header, formats: c.formats, list: c.list };
    };
    expect(check('sem-nfse')).toEqual({
      header: ['ID da fatura', 'Número', 'Cliente', 'Tipo', 'Status', 'Valor total', 'Empresa'],
      formats: ['0', '0', '@', '@', '@', '#,##0.00', '@'],
      list: [[1, 1, 'Cliente', 'AVULSA', 'FATURADA', 100, 'A']],
    });
    const noteColumns = {
      header: ['ID da NFS-e', 'ID da fatura', 'Número da NFS-e', 'Status', 'Tomador', 'Valor do serviço', 'Valor da fatura', 'Empresa'],
      formats: ['0', '0', '@', '@', '@', '#,##0.00', '#,##0.00', '@'],
      list: [[902, 2, '', 'EMITIDA', 'Tomador B', 70, 80, 'B']],
    };
    expect(check('valor-diferente')).toEqual(noteColumns);
    expect(check('sem-numero')).toEqual(noteColumns);
    expect(check('sem-fatura')).toEqual({
      header: ['ID da cobrança', 'ID do cliente', 'Cliente', 'Vencimento', 'Valor', 'Empresa'],
      formats: ['0', '0', '@', 'dd/mm/yyyy', '#,##0.00', '@'],
      list: [[11, 9, 'Outro', due, 55, 'B']],
    });
    expect(line(f, 'Cobranças da competência sem fatura')).toEqual([
      { count: 0, cents: 0 },
      { count: 1, cents: 5_500 },
    ]);
    // A column the sheets lack lists blank; a note whose invoice the report lacks has no invoice value.
    const bare = closing(
      {
        faturas: sheet([{ competencia: '10/2026', valorTotal: 5, statusFatura: 'FATURADA', idFatura: 3 }]),
        nfse: sheet([{ competencia: '10/2026', statusNotaFiscalServico: 'EMITIDA', valorServico: 5 }]),
        cobrancas: sheet([{ competencia: '10/2026', valor: 7, situacao: 'EMITIDA' }]),
      },
      '10/2026',
      today,
      labels,
    );
    const bareList = (key: string) => bare.checks.find((x) => x.key === key)!.list;
    expect(bareList('sem-nfse')).toEqual([[3, '', '', '', 'FATURADA', 5]]);
    expect(bareList('sem-numero')).toEqual([['', '', '', 'EMITIDA', '', 5, '']]);
    expect(bareList('sem-fatura')).toEqual([]);
    expect(bareList('a-vencer')).toEqual([['', '', '', '', 7]]);
  });

  it('lays out its sections in order: types, open and cancelled invoices; statuses, then rates in increasing order', () => {
    const src: ClosingSources = {
      faturas: sheet([
        invoice(1, 100, { tipoFatura: 'recorrente' }),
        invoice(2, 50),
        invoice(3, 30, { tipoFatura: 'OUTRO' }),
        invoice(4, 20, { statusFatura: 'cancelada' }),
      ]),
      nfse: sheet([
        note(1, 100, { aliquota: 5, valorIss: 5 }),
        note(2, 50, { numeroNotaFiscalServico: '', statusNotaFiscalServico: 'EMITIDA', issRetido: 'Sim', valorIss: 1 }),
        note(3, 30, { statusNotaFiscalServico: 'Z-OUTRO' }),
        note(3, 30, { statusNotaFiscalServico: 'CANCELADA' }),
      ]),
      cobrancas: sheet([]),
    };
    const f = closing(src, '10/2026', today, labels);
    expect(f.sections.map((sec) => [sec.title, sec.lines.map((l) => [l.label, ...l.tallies.map((t) => `${t.count}:${t.cents}`)])]).slice(0, 2)).toEqual([
      [
        'Faturamento',
        [
          ['Faturas da competência (sem as canceladas)', '3:18000'],
          ['Recorrentes', '1:10000'],
          ['Avulsas', '1:5000'],
          ['Em aberto (ABERTA: ainda não faturadas, incluídas no total)', '0:0'],
          ['Canceladas (fora do total)', '1:2000'],
        ],
      ],
      [
        'NFS-e',
        [
          ['Notas emitidas da competência (AUTORIZADA e EMITIDA) · valor dos serviços', '2:15000'],
          ['AUTORIZADA', '1:10000'],
          ['EMITIDA com número', '0:0'],
          ['EMITIDA sem número', '1:5000'],
          ['CANCELADA (não é emitida: fora dos totais)', '1:3000'],
          ['Z-OUTRO (não é emitida: fora dos totais)', '1:3000'],
          ['ISS retido pelo tomador', '1:100'],
          ['   retido à alíquota de 2,00%', '1:100'],
          ['   retido à alíquota de 5,00%', '0:0'],
          ['ISS a recolher', '1:500'],
          ['   a recolher à alíquota de 2,00%', '0:0'],
          ['   a recolher à alíquota de 5,00%', '1:500'],
          ['Valor líquido', '2:15000'],
        ],
      ],
    ]);
    expect(f.notes).toContain('1 fatura não é RECORRENTE nem AVULSA: entram no total, não nas linhas por tipo.');
  });
});
