/** Contas a receber por faixa de vencimento: open charges by days past due, per company when consolidated. */
import type { CellValue } from '../../sheets/table';
import { INTEGER, MONEY, TEXT } from '../page';
import type { Report } from '../../reports/reports';
import {
  absentCompanies,
  absentHeader,
  absentNote,
  cents,
  companies,
  col,
  missing,
  money,
  openCharges,
  type SourceTable,
  type Today,
  totalOf,
} from '../sources';
import { type Figures, figuresKind } from './figures-page';

const COLUMNS = ['valor', 'dataVencimento', 'isQuitado', 'situacao'];

const BUCKETS = ['A vencer', '1–30 dias', '31–60 dias', '61–90 dias', 'Mais de 90 dias'] as const;

function bucketOf(daysLate: number): number {
  if (daysLate <= 0) return 0;
  if (daysLate <= 30) return 1;
  if (daysLate <= 60) return 2;
  if (daysLate <= 90) return 3;
  return 4;
}

export function receivablesByAge(src: SourceTable, today: Today, labels: Record<string, string> = {}, reports: readonly Report[] = []): Figures {
  const valor = col(src, 'valor');
  const { names, of, consolidated } = companies(src);
  const sums = names.map(() => BUCKETS.map(() => 0));
  const counts = BUCKETS.map(() => 0);
  const charges = openCharges(src, today);
  for (const { row, late } of charges) {
    const b = bucketOf(late);
    sums[names.indexOf(of(row))][b] += cents(valor[row]);
    counts[b] += 1;
  }
  const counted = charges.length;
  const notes = missing(src, COLUMNS, labels);
  if (consolidated) {
    const absent = absentCompanies(reports, names);
    const none = absent.map(() => 'sem dados');
    const rows: CellValue[][] = BUCKETS.map((label, b) => [
      label,
      ...names.map((_, c) => money(sums[c][b])),
      ...none,
      money(sums.reduce((t, s) => t + s[b], 0)),
    ]);
    rows.push(['Total', ...names.map((_, c) => money(sums[c].reduce((a, x) => a + x, 0))), ...none, money(sums.flat().reduce((a, x) => a + x, 0))]);
    if (absent.length) notes.push(absentNote(absent));
    return {
      table: {
        title: 'Valor em aberto por faixa e empresa',
        header: ['Faixa', ...names, ...absent.map(absentHeader), totalOf(names, absent)],
        rows,
        formats: [TEXT, ...names.map(() => MONEY), ...absent.map(() => TEXT), MONEY],
      },
      chart: {
        type: 'COLUMN',
        title: 'Contas a receber por faixa de vencimento',
        rows: BUCKETS.length,
        columns: names.length + 1,
        options: { isStacked: true, 'legend.position': 'right' },
      },
      counted,
      notes,
    };
  }
  const rows: CellValue[][] = BUCKETS.map((label, b) => [label, money(sums[0][b]), counts[b]]);
  rows.push(['Total', money(sums[0].reduce((a, x) => a + x, 0)), counted]);
  return {
    table: { title: 'Valor em aberto por faixa', header: ['Faixa', 'Valor em aberto', 'Cobranças'], rows, formats: [TEXT, MONEY, INTEGER] },
    chart: { type: 'COLUMN', title: 'Contas a receber por faixa de vencimento', rows: BUCKETS.length, columns: 2, options: { 'legend.position': 'none' } },
    counted,
    notes,
  };
}

export const vencimentos = figuresKind({
  title: 'Contas a receber por faixa de vencimento',
  counts: 'cobranças em aberto (não quitadas, nem canceladas, nem baixadas por perda), por dias desde o vencimento até hoje',
  sources: [{ field: 'reportId', listing: 'cobrancas', role: 'de origem', columns: COLUMNS }],
  compute: ({ sources: [main], today }) => receivablesByAge(main.table, today, main.labels, [main.report]),
});
