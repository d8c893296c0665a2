/** Faturas sem NFS-e: invoices (not cancelled) whose id no issued note of the NFS-e report holds, within the same company. */
import { plural } from '../../../api/words';
import type { CellValue } from '../../sheets/table';
import { INTEGER, LIST_MAX, MONEY, TEXT } from '../page';
import { crossOrganization } from '../read';
import { cents, col, companies, issuedNote, missing, money, moneyText, openInvoices, rowsOf, type SourceTable, text } from '../sources';
import { type Figures, figuresKind } from './figures-page';

const COLUMNS = ['idFatura', 'numero', 'nomeCliente', 'competencia', 'valorTotal', 'statusFatura'];

export function invoicesWithoutNfse(invoices: SourceTable, nfse: SourceTable, labels: Record<string, string> = {}): Figures {
  const ids = col(invoices, 'idFatura');
  const numero = col(invoices, 'numero');
  const client = col(invoices, 'nomeCliente');
  const comp = col(invoices, 'competencia');
  const total = col(invoices, 'valorTotal');
  const status = col(invoices, 'statusFatura');
  const inv = companies(invoices);
  const notes = companies(nfse);
  const issued = new Set<string>();
  const nfseIds = col(nfse, 'idFatura');
  // Only a note in a status the interface names as issued is the invoice's note (a cancelled one is not); a sheet
  // imported before its status column was read counts every note, as it always did.
  const nfseStatus = nfse.column('statusNotaFiscalServico');
  // A single-company NFS-e report answers for every company of the invoices only when the invoices are single-company too.
  // A blank id matches no invoice: an invoice's id is a number.
  for (const r of rowsOf(nfse)) if (!nfseStatus || issuedNote(nfseStatus[r])) issued.add(`${notes.of(r)}\u0000${text(nfseIds[r])}`);
  const rows: CellValue[][] = [];
  const list: Array<{ empresa: string; id: number }> = [];
  const listed: number[] = [];
  let owed = 0;
  for (const r of rowsOf(invoices)) {
    const id = ids[r];
    if (typeof id !== 'number' || text(status[r]).toUpperCase() === 'CANCELADA') continue;
    const empresa = inv.of(r);
    if (issued.has(`${notes.consolidated ? empresa : ''}\u0000${text(id)}`)) continue;
    list.push({ empresa, id });
    listed.push(r);
    owed += cents(total[r]);
    if (rows.length < LIST_MAX)
      rows.push([id, numero[r] ?? '', text(client[r]), text(comp[r]), money(cents(total[r])), ...(inv.consolidated ? [empresa] : [])]);
  }
  const said = [
    ...missing(invoices, COLUMNS, labels),
    ...missing(nfse, ['idFatura'], labels),
    ...openInvoices(invoices, listed, ['fatura da lista', 'faturas da lista']),
  ];
  if (list.length > LIST_MAX)
    said.push(`São ${plural(list.length, 'fatura', 'faturas')} sem NFS-e; a lista mostra as ${LIST_MAX} primeiras (a emissão em lote considera todas).`);
  return {
    table: {
      title: `${plural(list.length, 'fatura', 'faturas')} sem NFS-e · valor total ${moneyText(owed)}`,
      header: ['ID da fatura', 'Número', 'Cliente', 'Competência', 'Valor total', ...(inv.consolidated ? ['Empresa'] : [])],
      rows,
      formats: [INTEGER, INTEGER, TEXT, TEXT, MONEY, ...(inv.consolidated ? [TEXT] : [])],
    },
    chart: { type: 'TABLE', title: 'Faturas sem NFS-e', rows: rows.length, columns: inv.consolidated ? 6 : 5, options: { page: 'enable', pageSize: 20 } },
    counted: list.length,
    notes: said,
    invoices: list,
  };
}

export const semNfse = figuresKind({
  title: 'Faturas sem NFS-e',
  counts: 'faturas não canceladas cujo ID não aparece em nenhuma nota emitida (AUTORIZADA ou EMITIDA) do relatório de NFS-e',
  sources: [
    { field: 'reportId', listing: 'faturas', role: 'de origem', columns: COLUMNS },
    { field: 'secondReportId', listing: 'nfse', role: 'de NFS-e', columns: ['idFatura', 'statusNotaFiscalServico'] },
  ],
  refuse: ([invoices, notes]) => crossOrganization(invoices, notes),
  // The notes' missing columns are named as the invoices report names them.
  compute: ({ sources: [main, nfse] }) => invoicesWithoutNfse(main.table, nfse.table, main.labels),
  invoices: (figures) => figures.invoices!,
});
