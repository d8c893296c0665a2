/** Inadimplência por cliente: the 20 largest overdue amounts (open charges past due), by client and company. */
import { plural } from '../../../api/words';
import type { CellValue } from '../../sheets/table';
import { INTEGER, MONEY, TEXT } from '../page';
import { cents, col, companies, missing, money, openCharges, type SourceTable, text, type Today } from '../sources';
import { type Figures, figuresKind } from './figures-page';

const TOP_DEBTORS = 20;

export function overdueByClient(src: SourceTable, today: Today, labels: Record<string, string> = {}): Figures {
  const id = col(src, 'idCliente');
  const fantasy = col(src, 'nomeFantasia');
  const legal = col(src, 'razaoSocial');
  const valor = col(src, 'valor');
  const { of, consolidated } = companies(src);
  const byClient = new Map<string, { name: string; empresa: string; cents: number; count: number; worst: number }>();
  let counted = 0;
  for (const { row: r, late } of openCharges(src, today)) {
    if (late <= 0) continue;
    const key = `${of(r)}\u0000${text(id[r])}`;
    let c = byClient.get(key);
    if (!c) byClient.set(key, (c = { name: text(fantasy[r]) || text(legal[r]) || `Cliente ${text(id[r])}`, empresa: of(r), cents: 0, count: 0, worst: 0 }));
    c.cents += cents(valor[r]);
    c.count += 1;
    c.worst = Math.max(c.worst, late);
    counted += 1;
  }
  const top = [...byClient.values()].sort((a, b) => b.cents - a.cents || a.name.localeCompare(b.name, 'pt-BR')).slice(0, TOP_DEBTORS);
  const rows: CellValue[][] = top.map((c) => [c.name, money(c.cents), c.count, c.worst, ...(consolidated ? [c.empresa] : [])]);
  // A client is named by either name: neither is missing alone.
  const notes = missing(src, ['idCliente', 'valor', 'dataVencimento', 'isQuitado', 'situacao'], labels);
  if (byClient.size > TOP_DEBTORS)
    notes.push(`${plural(byClient.size, 'cliente tem valores vencidos', 'clientes têm valores vencidos')}; aqui estão os ${TOP_DEBTORS} maiores.`);
  return {
    table: {
      title: `Os ${TOP_DEBTORS} maiores valores vencidos`,
      header: ['Cliente', 'Valor vencido', 'Cobranças vencidas', 'Maior atraso (dias)', ...(consolidated ? ['Empresa'] : [])],
      rows,
      formats: [TEXT, MONEY, INTEGER, INTEGER, ...(consolidated ? [TEXT] : [])],
    },
    chart: {
      type: 'BAR',
      title: 'Inadimplência por cliente (maiores valores vencidos)',
      rows: rows.length,
      columns: 2,
      options: { 'legend.position': 'none' },
    },
    counted,
    notes,
  };
}

export const inadimplencia = figuresKind({
  title: 'Inadimplência por cliente',
  counts: 'os 20 clientes com maior valor vencido em cobranças em aberto',
  sources: [
    {
      field: 'reportId',
      listing: 'cobrancas',
      role: 'de origem',
      columns: ['idCliente', 'nomeFantasia', 'razaoSocial', 'valor', 'dataVencimento', 'isQuitado', 'situacao'],
    },
  ],
  compute: ({ sources: [main], today }) => overdueByClient(main.table, today, main.labels),
});
