/**
 * A Fechamento built from nothing for one company: its three reports (invoices
 * and notes of the competência, every charge) imported from that company's
 * connection, each to its own tab and saved like any report so runs refresh the
 * panel, then the panel itself. Painéis builds one this way when the user picks
 * "Criar um relatório para o painel"; the Central, from a company's row.
 */
import { server } from './rpc';
import { driveRun, progressText, type RunProgress } from './runs';

export type ClosingListing = 'faturas' | 'nfse' | 'cobrancas';

const NAMES: Record<ClosingListing, string> = { faturas: 'Faturas', nfse: 'NFS-e', cobrancas: 'Cobranças' };

/** The report's name (and tab): a sheet's name holds no slash, and thirty companies' closes must be told apart. */
export function closingReportName(listing: ClosingListing, competencia: string, company?: string): string {
  return `Fechamento ${competencia.replace('/', '-')} · ${NAMES[listing]}${company ? ` · ${company}` : ''}`;
}

/**
 * The report's import, or, when a build left halfway already imported it (its tab then stands in the way of a new
 * one), its run again.
 */
async function startOrRerun(listing: ClosingListing, competencia: string, connection: string, name: string) {
  const left = (await server.listReports()).find(
    (r) => r.mine && r.name === name && r.sheetName === name && r.listing === listing && r.connection === connection && r.companies === null,
  );
  if (left) return { ok: true as const, value: await server.runReport(left.id) };
  const filters: Record<string, string | boolean> = listing === 'cobrancas' ? { isExibeCanceladas: true } : { competencia };
  return server.startImportRun({ connection, listing: listing as 'faturas', filters, sheetName: name, name, incremental: false, newSheet: true });
}

/**
 * Imports one of the Fechamento's reports from `connection` and answers its id; `say` is told the progress while it
 * runs. Throws with what to do when the import does not end.
 */
export async function importClosingReport(
  listing: ClosingListing,
  competencia: string,
  connection: string,
  say: (text: string) => void,
  company?: string,
): Promise<string> {
  const name = closingReportName(listing, competencia, company);
  say(`Importando "${name}" para o painel…`);
  const started = await startOrRerun(listing, competencia, connection, name);
  if (!started.ok) throw new Error(`${name}: ${started.message}`);
  // Only while it runs: how it ended is said by the caller, or by the panel created from it. This flow has no Cancelar.
  const shown = (q: RunProgress, waited?: number) => {
    if (q.status === 'running') say(`${name}: ${progressText(q, waited)}`);
  };
  const p = await driveRun(started.value, shown, { cancelled: false });
  if (p.status !== 'done') throw new Error(p.message ?? `A importação de "${name}" não terminou: abra Relatórios e clique em Continuar.`);
  return p.reportId;
}
