/** Faturamento por competência: invoices' total per competência, last 12 months, cancelled ones left out. */
import { MONTH_COLUMNS, type CellValue } from '../../sheets/table';
import { INTEGER, MONEY, TEXT } from '../page';
import { plural } from '../../../api/words';
import { cents, col, lastTwelve, missing, money, moneyText, rowsOf, type SourceTable, text, type Today } from '../sources';
import { type Figures, figuresKind } from './figures-page';

const COLUMNS = ['competencia', 'valorTotal', 'statusFatura'];

const MONTH_KEY = MONTH_COLUMNS.faturas!.key;

export function billingByMonth(src: SourceTable, today: Today, labels: Record<string, string> = {}): Figures {
  const months = lastTwelve(today.day);
  const comp = col(src, 'competencia');
  const total = col(src, 'valorTotal');
  const status = col(src, 'statusFatura');
  const sums = new Map(months.map((m) => [m, 0]));
  const counts = new Map<string, number>();
  const open = new Map<string, { count: number; cents: number }>();
  let counted = 0;
  for (const r of rowsOf(src)) {
    const m = text(comp[r]);
    const s = text(status[r]).toUpperCase();
    if (!sums.has(m) || s === 'CANCELADA') continue;
    sums.set(m, (sums.get(m) ?? 0) + cents(total[r]));
    if (s === 'ABERTA') {
      const t = open.get(m) ?? { count: 0, cents: 0 };
      open.set(m, { count: t.count + 1, cents: t.cents + cents(total[r]) });
    }
    counts.set(m, (counts.get(m) ?? 0) + 1);
    counted += 1;
  }
  const rows: CellValue[][] = months.map((m) => [m, money(sums.get(m) ?? 0), counts.get(m) ?? 0]);
  rows.push(['Total', money([...sums.values()].reduce((a, x) => a + x, 0)), counted]);
  return {
    table: { title: 'Faturado por competência', header: ['Competência', 'Faturado', 'Faturas'], rows, formats: [TEXT, MONEY, INTEGER] },
    chart: { type: 'COLUMN', title: 'Faturamento por competência (últimos 12 meses)', rows: months.length, columns: 2, options: { 'legend.position': 'none' } },
    pivot: {
      title: 'Tabela dinâmica: valor total por competência e status (todas as faturas das 12 competências)',
      // The competência as a date: the pivot sorts its months by time, shown MM/AAAA as the filter names them.
      rowKey: MONTH_KEY,
      columnKey: 'statusFatura',
      valueKey: 'valorTotal',
      valueName: 'Valor total',
      visible: { key: MONTH_KEY, values: months },
    },
    counted,
    notes: [...missing(src, COLUMNS, labels), ...openNote(months, open)],
  };
}

/** The open invoices (ABERTA) the table sums, said per competência: not billed yet. */
function openNote(months: readonly string[], open: ReadonlyMap<string, { count: number; cents: number }>): string[] {
  const said = months.flatMap((m) => {
    const t = open.get(m);
    return t ? [`${m}: ${plural(t.count, 'fatura', 'faturas')} · ${moneyText(t.cents)}`] : [];
  });
  if (!said.length) return [];
  return [`Somadas no faturado, faturas em aberto (ABERTA), ainda sem faturamento: ${said.join('; ')}. A tabela dinâmica mostra cada status à parte.`];
}

export const faturamento = figuresKind({
  title: 'Faturamento por competência',
  counts: 'valor total das faturas não canceladas, nas últimas 12 competências (a atual inclusive)',
  sources: [{ field: 'reportId', listing: 'faturas', role: 'de origem', columns: COLUMNS }],
  compute: ({ sources: [main], today }) => billingByMonth(main.table, today, main.labels),
});
