/**
 * The figures of each dashboard from a report's columns, at their edges: the
 * day a charge changes bucket, what counts as paid, closed or cancelled however
 * the cell spells it, the last twelve months and no others, ties among
 * debtors, the plano de contas split, lists cut short, and a missing column
 * named by the sheet's own header.
 */
import { describe, expect, it } from 'vitest';
import { intlZone } from '../../../src/api/calendar';
import { billingByMonth } from '../../../src/core/dashboards/kinds/faturamento';
import { cashFlow } from '../../../src/core/dashboards/kinds/fluxo-caixa';
import { overdueByClient } from '../../../src/core/dashboards/kinds/inadimplencia';
import { invoicesWithoutNfse } from '../../../src/core/dashboards/kinds/sem-nfse';
import { receivablesByAge } from '../../../src/core/dashboards/kinds/vencimentos';
import type { SourceTable } from '../../../src/core/dashboards/sources';
import type { CellValue } from '../../../src/core/sheets/table';

const zone = intlZone('America/Sao_Paulo');
const today = { day: { year: 2026, month: 11, day: 22 }, zone };
/** A date cell as the sheet gives it: midnight in the spreadsheet's zone. */
const day = (iso: string) => zone.instant({ year: +iso.slice(0, 4), month: +iso.slice(5, 7), day: +iso.slice(8, 10) });
const MONTHS = ['12/2025', '01/2026', '02/2026', '03/2026', '04/2026', '05/2026', '06/2026', '07/2026', '08/2026', '09/2026', '10/2026', '11/2026'];

/** A report sheet given as its records: each column is one field across the rows. */
function sheet(records: Array<Record<string, CellValue>>, keys = [...new Set(records.flatMap((r) => Object.keys(r)))]): SourceTable {
  const columns = new Map(keys.map((k) => [k, records.map((r) => r[k] ?? '')]));
  return { rows: records.length, column: (key) => columns.get(key) };
}

describe('Contas a receber por faixa de vencimento', () => {
  const open = (valor: CellValue, due: string) => ({ valor, dataVencimento: day(due), isQuitado: false, situacao: 'EMITIDA' });

  it('puts a charge due 0, 30, 60 and 90 days ago in the lower bucket, and counts paid or written-off ones however spelled as closed', () => {
    const f = receivablesByAge(
      sheet([
        open(1, '2026-11-22'),
        open(2, '2026-10-23'),
        open(4, '2026-10-22'),
        open(8, '2026-09-23'),
        open(16, '2026-09-22'),
        open(32, '2026-08-24'),
        open(64, '2026-08-23'),
        { ...open(128, '2026-11-01'), isQuitado: 'Sim' },
        { ...open(256, '2026-11-01'), isQuitado: 'TRUE' },
        { ...open(512, '2026-11-01'), situacao: 'baixado' },
        open('dez reais', '2026-11-01'),
        { ...open(1024, '2026-11-01'), dataVencimento: 'sem data' },
      ]),
      today,
    );
    expect(f).toEqual({
      table: {
        title: 'Valor em aberto por faixa',
        header: ['Faixa', 'Valor em aberto', 'Cobranças'],
        rows: [
          ['A vencer', 1, 1],
          ['1–30 dias', 2, 2],
          ['31–60 dias', 12, 2],
          ['61–90 dias', 48, 2],
          ['Mais de 90 dias', 64, 1],
          ['Total', 127, 8],
        ],
        formats: ['@', '#,##0.00', '0'],
      },
      chart: { type: 'COLUMN', title: 'Contas a receber por faixa de vencimento', rows: 5, columns: 2, options: { 'legend.position': 'none' } },
      counted: 8,
      notes: [],
    });
  });

  it('counts days across February’s 28: a charge due a month before 15 March is 28 days late', () => {
    const march = { day: { year: 2026, month: 3, day: 15 }, zone };
    const f = receivablesByAge(sheet([open(10, '2026-02-15')]), march);
    expect(f.table.rows[1]).toEqual(['1–30 dias', 10, 1]);
  });

  it('per company, says each column of money and stacks the chart', () => {
    const f = receivablesByAge(sheet([{ ...open(10, '2026-11-01'), empresa: 'Alfa' }]), today);
    expect(f.table).toMatchObject({ title: 'Valor em aberto por faixa e empresa', formats: ['@', '#,##0.00', '#,##0.00'] });
    expect(f.chart).toEqual({
      type: 'COLUMN',
      title: 'Contas a receber por faixa de vencimento',
      rows: 5,
      columns: 2,
      options: { isStacked: true, 'legend.position': 'right' },
    });
  });

  it('names a column the report sheet lacks by its header, and reads its rows as blank', () => {
    const f = receivablesByAge(sheet([{ valor: 10, dataVencimento: day('2026-11-01') }], ['valor', 'dataVencimento']), today, { isQuitado: 'Quitado' });
    expect(f.notes).toEqual([
      'A coluna Quitado não está na aba do relatório: refaça a importação para ter esta coluna.',
      'A coluna situacao não está na aba do relatório: refaça a importação para ter esta coluna.',
    ]);
    expect(f.counted).toBe(1);
  });
});

describe('Faturamento por competência', () => {
  it('says the open invoices (ABERTA) it sums, per competência of the twelve', () => {
    const invoices: Array<[string, number, string]> = [
      ['11/2026', 10.1, 'FATURADA'],
      ['11/2026', 0.25, ' aberta'],
      ['11/2026', 3, 'ABERTA'],
      ['10/2026', 1234.5, 'ABERTA'],
      ['11/2025', 99, 'ABERTA'],
    ];
    const f = billingByMonth(sheet(invoices.map(([competencia, valorTotal, statusFatura]) => ({ competencia, valorTotal, statusFatura }))), today);
    expect(f.table.rows.slice(10)).toEqual([
      ['10/2026', 1234.5, 1],
      ['11/2026', 13.35, 3],
      ['Total', 1247.85, 4],
    ]);
    expect(f.notes).toEqual([
      'Somadas no faturado, faturas em aberto (ABERTA), ainda sem faturamento: 10/2026: 1 fatura · R$ 1.234,50; 11/2026: 2 faturas · R$ 3,25. A tabela dinâmica mostra cada status à parte.',
    ]);
  });

  it('sums the last twelve competências, trimmed, leaving out cancelled invoices and older months', () => {
    const f = billingByMonth(
      sheet([
        { competencia: '11/2026', valorTotal: 10.1, statusFatura: 'FATURADA' },
        { competencia: '11/2026', valorTotal: 0.2, statusFatura: 'EMITIDA' },
        { competencia: '01/2026', valorTotal: 5, statusFatura: 'cancelada' },
        { competencia: '11/2025', valorTotal: 99, statusFatura: 'FATURADA' },
        { competencia: ' 12/2025 ', valorTotal: 1, statusFatura: '' },
      ]),
      today,
    );
    const rows = MONTHS.map((m) => [m, 0, 0]);
    rows[0] = ['12/2025', 1, 1];
    rows[11] = ['11/2026', 10.3, 2];
    expect(f).toEqual({
      table: {
        title: 'Faturado por competência',
        header: ['Competência', 'Faturado', 'Faturas'],
        rows: [...rows, ['Total', 11.3, 3]],
        formats: ['@', '#,##0.00', '0'],
      },
      chart: { type: 'COLUMN', title: 'Faturamento por competência (últimos 12 meses)', rows: 12, columns: 2, options: { 'legend.position': 'none' } },
      pivot: {
        title: 'Tabela dinâmica: valor total por competência e status (todas as faturas das 12 competências)',
        // The competência as a date (the pull's "Mês da competência"): a pivot sorts its months by time, not as text.
        rowKey: '$mesCompetencia',
        columnKey: 'statusFatura',
        valueKey: 'valorTotal',
        valueName: 'Valor total',
        visible: { key: '$mesCompetencia', values: MONTHS },
      },
      counted: 3,
      notes: [],
    });
  });
});

describe('Inadimplência por cliente', () => {
  const late = (empresa: string, idCliente: number, names: [string, string], valor: number, due: string) => ({
    empresa,
    idCliente,
    nomeFantasia: names[0],
    razaoSocial: names[1],
    valor,
    dataVencimento: day(due),
    isQuitado: false,
    situacao: 'EMITIDA',
  });

  it('sums overdue charges per client within a company, largest first, ties by name, with the worst delay', () => {
    const f = overdueByClient(
      sheet([
        late('Alfa', 1, ['Padaria', 'Padaria Ltda'], 100, '2026-11-12'),
        late('Alfa', 1, ['Padaria', 'Padaria Ltda'], 50, '2026-10-13'),
        late('Beta', 1, ['', 'Beta Ltda'], 150, '2026-11-17'),
        late('Alfa', 2, ['', ''], 300, '2026-11-21'),
        late('Alfa', 3, ['Futuro', ''], 1000, '2026-11-22'),
      ]),
      today,
    );
    expect(f).toEqual({
      table: {
        title: 'Os 20 maiores valores vencidos',
        header: ['Cliente', 'Valor vencido', 'Cobranças vencidas', 'Maior atraso (dias)', 'Empresa'],
        rows: [
          ['Cliente 2', 300, 1, 1, 'Alfa'],
          ['Beta Ltda', 150, 1, 5, 'Beta'],
          ['Padaria', 150, 2, 40, 'Alfa'],
        ],
        formats: ['@', '#,##0.00', '0', '0', '@'],
      },
      chart: { type: 'BAR', title: 'Inadimplência por cliente (maiores valores vencidos)', rows: 3, columns: 2, options: { 'legend.position': 'none' } },
      counted: 4,
      notes: [],
    });
  });

  it('names a client with neither name by its id, and says which columns are missing', () => {
    const f = overdueByClient(sheet([{ idCliente: 7, valor: 5, dataVencimento: day('2026-11-01'), isQuitado: false }]), today);
    expect(f.table.rows).toEqual([['Cliente 7', 5, 1, 21]]);
    expect(f.notes).toEqual(['A coluna situacao não está na aba do relatório: refaça a importação para ter esta coluna.']);
  });

  it('for one company, has no Empresa column', () => {
    const f = overdueByClient(sheet([{ idCliente: 7, valor: 5, dataVencimento: day('2026-11-01'), isQuitado: false, situacao: 'EMITIDA' }]), today);
    expect(f.table.header).toEqual(['Cliente', 'Valor vencido', 'Cobranças vencidas', 'Maior atraso (dias)']);
    expect(f.table.formats).toEqual(['@', '#,##0.00', '0', '0']);
  });

  it('says nothing of a cut with exactly 20 debtors', () => {
    const f = overdueByClient(sheet(Array.from({ length: 20 }, (_, i) => late('', i, ['c', ''], 1, '2026-11-01'))), today);
    expect(f.notes).toEqual([]);
  });

  it('lists the 20 largest of more debtors and says how many there are', () => {
    const f = overdueByClient(
      sheet(Array.from({ length: 21 }, (_, i) => late('', i, [`Cliente ${String(i).padStart(2, '0')}`, ''], 10 + i, '2026-11-01'))),
      today,
    );
    expect(f.table.rows).toHaveLength(20);
    expect(f.table.rows[0]).toEqual(['Cliente 20', 30, 1, 21, '']);
    expect(f.notes).toEqual(['21 clientes têm valores vencidos; aqui estão os 20 maiores.']);
  });
});

describe('Faturas sem NFS-e', () => {
  it('lists invoices with no note, leaving out cancelled ones and rows without an id, with the count and total in the title', () => {
    const f = invoicesWithoutNfse(
      sheet([
        { idFatura: 1, numero: 10, nomeCliente: ' Ana ', competencia: '11/2026', valorTotal: 10.5, statusFatura: 'FATURADA' },
        { idFatura: 2, numero: 11, nomeCliente: 'Bia', competencia: '11/2026', valorTotal: 20, statusFatura: 'FATURADA' },
        { idFatura: 3, numero: 12, nomeCliente: 'Caio', competencia: '10/2026', valorTotal: 30, statusFatura: 'Cancelada' },
        { idFatura: '', numero: 13, nomeCliente: 'Dani', competencia: '10/2026', valorTotal: 40, statusFatura: 'FATURADA' },
        { idFatura: 5, nomeCliente: 'Edu', competencia: '10/2026', valorTotal: 1.25, statusFatura: 'FATURADA' },
      ]),
      sheet([{ idFatura: 2 }, { idFatura: '' }]),
    );
    expect(f).toEqual({
      table: {
        title: '2 faturas sem NFS-e · valor total R$ 11,75',
        header: ['ID da fatura', 'Número', 'Cliente', 'Competência', 'Valor total'],
        rows: [
          [1, 10, 'Ana', '11/2026', 10.5],
          [5, '', 'Edu', '10/2026', 1.25],
        ],
        formats: ['0', '0', '@', '@', '#,##0.00'],
      },
      chart: { type: 'TABLE', title: 'Faturas sem NFS-e', rows: 2, columns: 5, options: { page: 'enable', pageSize: 20 } },
      counted: 2,
      notes: [],
      invoices: [
        { empresa: '', id: 1 },
        { empresa: '', id: 5 },
      ],
    });
  });

  it('per company, says which company each invoice is from, and names a missing NFS-e column', () => {
    const f = invoicesWithoutNfse(
      sheet([{ empresa: 'Alfa', idFatura: 1, numero: 1, nomeCliente: 'a', competencia: '11/2026', valorTotal: 1, statusFatura: 'FATURADA' }]),
      sheet([], []),
    );
    expect(f.table.header).toEqual(['ID da fatura', 'Número', 'Cliente', 'Competência', 'Valor total', 'Empresa']);
    expect(f.table.formats).toEqual(['0', '0', '@', '@', '#,##0.00', '@']);
    expect(f.chart.columns).toBe(6);
    expect(f.notes).toEqual(['A coluna idFatura não está na aba do relatório: refaça a importação para ter esta coluna.']);
  });

  it('one invoice is said in the singular; an invoices sheet without the Número column lists it blank', () => {
    const f = invoicesWithoutNfse(sheet([{ idFatura: 4, valorTotal: 1, statusFatura: 'FATURADA' }]), sheet([{ idFatura: 9 }]));
    expect(f.table.title).toBe('1 fatura sem NFS-e · valor total R$ 1,00');
    expect(f.table.rows).toEqual([[4, '', '', '', 1]]);
  });

  it('counts only an issued note (AUTORIZADA, EMITIDA) as the invoice’s: an invoice whose only note was cancelled is without one', () => {
    const inv = (idFatura: number, statusFatura = 'FATURADA') => ({ idFatura, valorTotal: 1, statusFatura });
    const f = invoicesWithoutNfse(
      sheet([inv(1), inv(2), inv(3), inv(4)]),
      sheet([
        { idFatura: 1, statusNotaFiscalServico: 'CANCELADA' },
        { idFatura: 2, statusNotaFiscalServico: 'autorizada' },
        { idFatura: 3, statusNotaFiscalServico: 'EMITIDA' },
        { idFatura: 4, statusNotaFiscalServico: 'CANCELADA' },
        { idFatura: 4, statusNotaFiscalServico: ' Emitida ' },
      ]),
    );
    expect(f.invoices).toEqual([{ empresa: '', id: 1 }]);
  });

  it('says which invoices of the list are open (ABERTA), with their ids, ten at most', () => {
    const inv = (idFatura: number, statusFatura: string) => ({
      idFatura,
      numero: idFatura,
      nomeCliente: 'a',
      competencia: '10/2026',
      valorTotal: 1,
      statusFatura,
    });
    const many = invoicesWithoutNfse(sheet([inv(1, 'FATURADA'), ...Array.from({ length: 11 }, (_, i) => inv(i + 2, 'Aberta'))]), sheet([{ idFatura: 2 }]));
    expect(many.notes).toEqual([
      'Em aberto (ABERTA), ainda sem faturamento: 10 faturas da lista (IDs 3, 4, 5, 6, 7, 8, 9, 10, 11, 12). "Emitir NFS-e destas faturas" seleciona também estas: confira antes de emitir.',
    ]);
    const more = invoicesWithoutNfse(sheet(Array.from({ length: 11 }, (_, i) => inv(i + 1, 'ABERTA'))), sheet([]));
    expect(more.notes).toEqual([
      'A coluna idFatura não está na aba do relatório: refaça a importação para ter esta coluna.',
      'Em aberto (ABERTA), ainda sem faturamento: 11 faturas da lista (IDs 1, 2, 3, 4, 5, 6, 7, 8, 9, 10…). "Emitir NFS-e destas faturas" seleciona também estas: confira antes de emitir.',
    ]);
    const one = invoicesWithoutNfse(sheet([inv(1, 'ABERTA'), inv(2, 'ABERTA')]), sheet([{ idFatura: 1 }]));
    expect(one.notes).toEqual([
      'Em aberto (ABERTA), ainda sem faturamento: 1 fatura da lista (IDs 2). "Emitir NFS-e destas faturas" seleciona também estas: confira antes de emitir.',
    ]);
  });

  it('says nothing of a cut with exactly 2,000', () => {
    const invoices = sheet(Array.from({ length: 2_000 }, (_, i) => ({ idFatura: i + 1, valorTotal: 1, statusFatura: 'FATURADA' })));
    expect(invoicesWithoutNfse(invoices, sheet([{ idFatura: 999_999 }])).notes).not.toContainEqual(expect.stringMatching(/^São /));
  });

  it('lists the first 2,000 and counts every one', () => {
    const invoices = sheet(Array.from({ length: 2_001 }, (_, i) => ({ idFatura: i + 1, valorTotal: 1, statusFatura: 'FATURADA' })));
    const f = invoicesWithoutNfse(invoices, sheet([{ idFatura: 999_999 }]));
    expect(f.table.rows).toHaveLength(2_000);
    expect(f.counted).toBe(2_001);
    expect(f.table.title).toBe('2.001 faturas sem NFS-e · valor total R$ 2.001,00');
    expect(f.notes).toContain('São 2.001 faturas sem NFS-e; a lista mostra as 2000 primeiras (a emissão em lote considera todas).');
  });
});

describe('Fluxo de caixa', () => {
  const tx = (idTransacao: number, tipoOperacao: string, valor: number, paidOn: string | null, extra: Record<string, CellValue> = {}) => ({
    idTransacao,
    tipoTransacao: 'R',
    tipoOperacao,
    valor,
    dataPagamento: paidOn ? day(paidOn) : '',
    isQuitado: true,
    ...extra,
  });
  const transactions = sheet([
    tx(1, 'C', 100, '2026-11-05'),
    tx(2, 'D', 40, '2026-10-10', { isQuitado: 'Sim' }),
    tx(3, 'C', 1, '2026-11-05', { tipoTransacao: 't' }),
    tx(4, 'C', 2, '2026-11-05', { isQuitado: false }),
    tx(5, 'C', 4, null),
    tx(6, 'C', 8, '2025-11-30'),
    tx(7, 'c', 10.5, '2026-11-06'),
  ]);

  it('sums paid receipts and payments by month of payment over the months the report covers, leaving out transfers, unpaid and older ones', () => {
    const f = cashFlow(transactions, null, today);
    const rows = [
      ['10/2026', 0, 40, -40],
      ['11/2026', 110.5, 0, 110.5],
    ];
    expect(f).toEqual({
      table: {
        title: 'Recebimentos e pagamentos por mês',
        header: ['Mês', 'Recebimentos', 'Pagamentos', 'Saldo'],
        rows: [...rows, ['Total', 110.5, 40, 70.5]],
        formats: ['@', '#,##0.00', '#,##0.00', '#,##0.00'],
      },
      chart: { type: 'COLUMN', title: 'Fluxo de caixa por mês (recebimentos e pagamentos)', rows: 2, columns: 3, options: { 'legend.position': 'bottom' } },
      counted: 3,
      notes: ['A aba de planos de conta das transações não foi encontrada: o detalhe por plano de contas aparece depois de uma importação com ela.'],
    });
  });

  it('a report of the last 90 days shows its months, a month without payments inside them as 0,00, not twelve months of zeros', () => {
    const f = cashFlow(sheet([tx(1, 'C', 100, '2026-08-25'), tx(2, 'D', 30, '2026-11-02'), tx(3, 'C', 5, '2026-01-10', { isQuitado: false })]), null, today);
    expect(f.table.rows).toEqual([
      ['08/2026', 100, 0, 100],
      ['09/2026', 0, 0, 0],
      ['10/2026', 0, 0, 0],
      ['11/2026', 0, 30, -30],
      ['Total', 100, 30, 70],
    ]);
    expect(f.chart.rows).toBe(4);
    expect(cashFlow(sheet([tx(1, 'C', 100, '2024-01-01')]), null, today).table.rows).toEqual([
      ['11/2026', 0, 0, 0],
      ['Total', 0, 0, 0],
    ]);
  });

  it("covers the months of the report's date filters: a 90-day report shows its four months, 0,00 where nothing was paid", () => {
    const f = cashFlow(sheet([tx(1, 'C', 100, '2026-10-05'), tx(2, 'D', 30, '2026-11-02')]), null, today, {}, { from: { year: 2026, month: 8 } });
    expect(f.table.rows).toEqual([
      ['08/2026', 0, 0, 0],
      ['09/2026', 0, 0, 0],
      ['10/2026', 100, 0, 100],
      ['11/2026', 0, 30, -30],
      ['Total', 100, 30, 70],
    ]);
    expect(f.chart.rows).toBe(4);
    expect(f.counted).toBe(2);
  });

  it('a closed range ends where the report ends, yet stretches to a month that holds a payment; twelve months at most, the latest', () => {
    const sept = { year: 2026, month: 9 };
    const within = cashFlow(sheet([tx(1, 'C', 5, '2026-09-10')]), null, today, {}, { from: { year: 2026, month: 7 }, to: sept });
    expect(within.table.rows.map((r) => r[0])).toEqual(['07/2026', '08/2026', '09/2026', 'Total']);
    const late = cashFlow(sheet([tx(1, 'C', 5, '2026-11-10'), tx(2, 'C', 7, '2025-01-10')]), null, today, {}, { from: sept, to: sept });
    expect(late.table.rows).toEqual([['12/2025', 0, 0, 0], ...MONTHS.slice(1, 11).map((m) => [m, 0, 0, 0]), ['11/2026', 5, 0, 5], ['Total', 5, 0, 5]]);
    expect(late.counted).toBe(1);
    const old = cashFlow(sheet([tx(1, 'C', 5, '2024-03-10')]), null, today, {}, { from: { year: 2024, month: 1 }, to: { year: 2024, month: 3 } });
    expect(old.table.rows).toEqual([
      ['01/2024', 0, 0, 0],
      ['02/2024', 0, 0, 0],
      ['03/2024', 5, 0, 5],
      ['Total', 5, 0, 5],
    ]);
    const openStart = cashFlow(sheet([]), null, today, {}, { to: sept });
    expect(openStart.table.rows.map((r) => r[0])).toEqual(['09/2026', 'Total']);
  });

  it('a paid transaction without a payment date is in no month, also in a report with date filters', () => {
    const f = cashFlow(sheet([tx(1, 'C', 100, '2026-10-05'), tx(2, 'C', 4, null)]), null, today, {}, { from: { year: 2026, month: 10 } });
    expect(f.table.rows).toEqual([
      ['10/2026', 100, 0, 100],
      ['11/2026', 0, 0, 0],
      ['Total', 100, 0, 100],
    ]);
    expect(f.counted).toBe(1);
  });

  it('splits the same transactions by plano de contas, in alphabetical order', () => {
    const plans = sheet([
      { idTransacao: 1, planoConta: 'Honorários', valor: 60, tipoOperacao: 'C' },
      { idTransacao: 1, planoConta: 'Honorários', valor: 40, tipoOperacao: 'C' },
      { idTransacao: 2, planoConta: 'Aluguel', valor: 40, tipoOperacao: 'D' },
      { idTransacao: 7, planoConta: '', valor: 10.5, tipoOperacao: 'c' },
      { idTransacao: 6, planoConta: 'Velho', valor: 8, tipoOperacao: 'C' },
      { idTransacao: 3, planoConta: 'Transferência', valor: 1, tipoOperacao: 'C' },
    ]);
    const f = cashFlow(transactions, plans, today);
    expect(f.notes).toEqual([]);
    expect(f.detail).toEqual({
      title: 'Por plano de contas (mesmos meses)',
      header: ['Plano de contas', 'Recebimentos', 'Pagamentos', 'Saldo'],
      rows: [
        ['(sem plano de contas)', 10.5, 0, 10.5],
        ['Aluguel', 0, 40, -40],
        ['Honorários', 100, 0, 100],
      ],
      formats: ['@', '#,##0.00', '#,##0.00', '#,##0.00'],
    });
  });
});
